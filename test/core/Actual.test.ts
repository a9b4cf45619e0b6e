import { Actual, LocalDate, type Recurrence, Translation } from "@tppkit/core"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as RArb from "../arbitraries/recurrence.ts"
import { itKeepsTheLaws } from "../arbitraries/standards.ts"

const d = LocalDate.parseUnsafe

/** Any recurrence, and half the time one on the weekends calendar without pauses (what Actual can say exactly). */
const plain = fc.oneof(
  RArb.recurrence,
  RArb.recurrence.map((r): Recurrence.Recurrence => {
    const { pauses: _, ...rest } = r
    return { ...rest, calendar: "weekends" }
  })
)

describe("Actual", () => {
  const base = { start: d("2026-01-31"), convention: "following", calendar: "weekends" } as const
  it("writes frequency, interval, one pattern and the weekend rule", () => {
    expect(
      Actual.encode({ ...base, rule: { _tag: "MonthlyOnWeekday", interval: 1, weekday: 5, ordinal: -1 }, count: 6 })
    ).toEqual({
      _tag: "Exact",
      value: {
        frequency: "monthly",
        interval: 1,
        patterns: [{ type: "FR", value: -1 }],
        skipWeekend: true,
        weekendSolveMode: "after",
        endMode: "after_n_occurrences",
        endOccurrences: 6,
        start: "2026-02-27"
      }
    })
    expect(
      Translation.getValue(
        Actual.encode({ ...base, rule: { _tag: "MonthlyOnDay", interval: 3, day: 5, missing: "clamp" } })
      )
    ).toMatchObject({
      frequency: "monthly",
      interval: 3,
      patterns: [{ type: "day", value: 5 }]
    })
    expect(Actual.encode({ ...base, rule: { _tag: "EveryWorkingDays", interval: 1 } })._tag).toBe("Unrepresentable")
  })

  it("the month's last day is pattern day -1, exact both ways; day 31 of a short month stays not defined", () => {
    const last = Actual.encode({ ...base, rule: { _tag: "MonthlyOnDay", interval: 1, day: -1, missing: "clamp" } })
    expect(last._tag).toBe("Exact")
    expect(Translation.getValue(last)?.patterns).toEqual([{ type: "day", value: -1 }])
    const back = Translation.getValue(Actual.decode(Translation.getValue(last)!).translation)
    expect(back?.rule).toEqual({ _tag: "MonthlyOnDay", interval: 1, day: -1, missing: "clamp" })
    const day30 = Actual.encode({ ...base, rule: { _tag: "MonthlyOnDay", interval: 1, day: 30, missing: "clamp" } })
    expect(day30._tag === "Lossy" && day30.losses.map((l) => [l.field, l.to])).toEqual([["missing", "not defined"]])
  })

  it("names the holidays it cannot move off", () => {
    const t = Actual.encode({
      ...base,
      calendar: "target",
      rule: { _tag: "MonthlyOnDay", interval: 12, day: 25, missing: "clamp" },
      start: d("2026-12-01")
    })
    expect(t._tag === "Lossy" && t.losses.map((l) => [l.field, l.from, l.to])).toEqual([
      ["calendar", "target", "weekends"]
    ])
    fc.assert(fc.property(fc.anything(), (u) => typeof Actual.decode(u).translation._tag === "string"))
  })

  itKeepsTheLaws(plain, Actual.encode, Actual.decode, { numRuns: 1500, atLeast: 20 })

  it("encode(decode(c)) = c for the configurations tppkit reads (1,000 runs)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("daily", "weekly", "monthly", "yearly"),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: d("1990-01-01"), max: d("2040-12-31") }),
        fc.option(
          fc.oneof(
            fc.integer({ min: 1, max: 28 }).map((value) => ({ type: "day" as const, value })),
            fc
              .tuple(fc.constantFrom("SU", "MO", "FR"), fc.constantFrom(1, 2, -1))
              .map(([type, value]) => ({ type: type as "MO", value }))
          ),
          { nil: undefined }
        ),
        fc.constantFrom(undefined, "before", "after"),
        fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
        (frequency, interval, day, pattern, solve, count) => {
          fc.pre(LocalDate.day(day as LocalDate.LocalDate) <= 28)
          const c: Actual.RecurConfig = {
            frequency,
            interval,
            ...(frequency === "monthly" && pattern !== undefined ? { patterns: [pattern] } : {}),
            skipWeekend: solve !== undefined,
            weekendSolveMode: solve ?? "after",
            endMode: count === undefined ? "never" : "after_n_occurrences",
            ...(count === undefined ? {} : { endOccurrences: count }),
            start: LocalDate.format(day as LocalDate.LocalDate)
          }
          const x = Translation.getValue(Actual.decode(c).translation)!
          const t = Actual.encode(x)
          expect(t._tag).toBe("Exact")
          const again = Translation.getValue(Actual.decode(Translation.getValue(t)!).translation)!
          expect(again).toEqual({ ...x, start: again.start })
        }
      ),
      { numRuns: 1000 }
    )
  })
})
