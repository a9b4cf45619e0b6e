import { LocalDate, type Recurrence, Translation, Ynab } from "@tppkit/core"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as RArb from "../arbitraries/recurrence.ts"
import { itKeepsTheLaws } from "../arbitraries/standards.ts"

const d = LocalDate.parseUnsafe

/** Any recurrence, and half the time one without end, count, pauses or convention (what YNAB can say exactly). */
const plain = fc.oneof(
  RArb.recurrence,
  RArb.recurrence.map((r): Recurrence.Recurrence => ({ rule: r.rule, start: r.start, convention: "none" }))
)

describe("Ynab", () => {
  const base = { start: d("2026-01-31"), convention: "none" } as const
  it("maps the bank's codes as the survey says; DAIL has no equivalent", () => {
    const f = (rule: Recurrence.Rule) => Translation.getValue(Ynab.encode({ ...base, rule }))?.frequency
    expect(f({ _tag: "MonthlyOnDay", interval: 1, day: 5, missing: "clamp" })).toBe("monthly")
    expect(f({ _tag: "MonthlyOnDay", interval: 3, day: 5, missing: "clamp" })).toBe("every3Months")
    expect(f({ _tag: "MonthlyOnDay", interval: 6, day: 5, missing: "clamp" })).toBe("twiceAYear")
    expect(f({ _tag: "Yearly", interval: 1, dates: [{ month: 3, day: 5 }], missing: "clamp" })).toBe("yearly")
    expect(f({ _tag: "Weekly", interval: 1, weekdays: [2] })).toBe("weekly")
    expect(f({ _tag: "EveryDays", interval: 1 })).toBe("daily")
    expect(Ynab.encode({ ...base, rule: { _tag: "EveryWorkingDays", interval: 1 } })).toEqual({
      _tag: "Unrepresentable",
      reason: "YNAB cannot say every working day: YNAB has no working days"
    })
    // never rounded: every 15 days is not twice a month
    expect(Ynab.encode({ ...base, rule: { _tag: "EveryDays", interval: 15 } })._tag).toBe("Unrepresentable")
  })

  it("names the end, the convention and a day YNAB leaves undefined", () => {
    const t = Ynab.encode({
      ...base,
      rule: { _tag: "MonthlyOnDay", interval: 1, day: 30, missing: "clamp" },
      convention: "following",
      count: 3
    })
    expect(t._tag === "Lossy" && t.losses.map((l) => [l.field, l.from, l.to])).toEqual([
      ["missing", "clamp", "not defined"],
      ["convention", "following", "none"],
      ["end", "2026-04-30", "none"],
      ["start", "2026-02-28", "2026-03-30"]
    ])
    expect(Translation.getValue(t)).toEqual({ frequency: "monthly", date_first: "2026-03-30" })
    expect(Ynab.decode({ frequency: "twiceAMonth", date_first: "2026-01-01" }).translation).toEqual({
      _tag: "Unrepresentable",
      reason: "twiceAMonth: YNAB does not give the second day"
    })
    fc.assert(fc.property(fc.anything(), (u) => typeof Ynab.decode(u).translation._tag === "string"))
  })

  itKeepsTheLaws(plain, Ynab.encode, Ynab.decode, { numRuns: 1500, atLeast: 20 })

  it("decode(encode(x)) = x for every frequency that names dates (1,000 runs)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Ynab.frequencies.filter((f) => f !== "never" && f !== "twiceAMonth")),
        fc.integer({ min: d("1990-01-01"), max: d("2040-12-31") }),
        (frequency, day) => {
          fc.pre(LocalDate.day(day as LocalDate.LocalDate) <= 28)
          const s = { frequency, date_first: LocalDate.format(day as LocalDate.LocalDate) }
          const x = Translation.getValue(Ynab.decode(s).translation)!
          expect(Ynab.encode(x)).toEqual({ _tag: "Exact", value: s })
        }
      ),
      { numRuns: 1000 }
    )
  })
})
