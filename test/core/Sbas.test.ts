import { LocalDate, Occurrence, type Recurrence, Sbas, Translation } from "@tppkit/core"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Arb from "../arbitraries/engine.ts"
import * as RArb from "../arbitraries/recurrence.ts"

const d = LocalDate.parseUnsafe

/** Nominal and execution dates of the first `n` occurrences on the `weekends` calendar. */
const dates = (plan: Occurrence.Plan, n = 300): Array<string> => {
  const out: Array<string> = []
  for (const o of Occurrence.iterate(plan)) {
    if (out.length >= n) break
    out.push(`${LocalDate.format(o.nominal)}>${LocalDate.format(o.execution)}`)
  }
  return out
}
const ofRecurrence = (r: Recurrence.Recurrence) => Result.getOrThrow(Occurrence.planOf(r, { calendar: undefined }))
const ofOrder = (o: Sbas.SbasOrder) => Result.getOrThrow(Occurrence.makePlan(o, { convention: o.convention }))

describe("Sbas", () => {
  it("decodes every code exactly and encodes it back to itself (property)", () => {
    fc.assert(
      fc.property(Arb.schedule, Arb.convention, (order, convention) => {
        const t = Sbas.decode(order, { convention })
        expect(t._tag).toBe("Exact")
        const back = Sbas.encode(Translation.getValue(t)!)
        expect(back._tag).toBe("Exact")
        const value = Translation.getValue(back)!
        expect(value.frequency).toBe(order.frequency)
        expect(value.startDate).toBe(order.startDate)
        if (order.endDate !== undefined && order.endDate >= order.startDate) expect(value.endDate).toBe(order.endDate)
      }),
      { numRuns: 10_000 }
    )
    expect(Sbas.decode({ frequency: "MNTH" })._tag).toBe("Unrepresentable")
  }, 120_000) // 10,000 runs: about 13 s alone, over the 30 s default when the machine is loaded

  it("an exact or lossy encoding names what changed; exact ones project the same dates (property)", () => {
    fc.assert(
      fc.property(RArb.recurrence, (r0) => {
        const r: Recurrence.Recurrence = { ...r0, calendar: "target" }
        const t = Sbas.encode(r)
        if (t._tag === "Unrepresentable") return
        const own = dates(ofRecurrence(r))
        const theirs = dates(ofOrder(t.value))
        if (t._tag === "Exact") {
          // the code's end date is the last occurrence's; dates past the recurrence's end never come
          expect(theirs).toEqual(own)
        } else {
          const fields = t.losses.map((l) => l.field)
          expect(fields.every((f) => ["missing", "startDate", "convention", "pauses"].includes(f))).toBe(true)
          // with the losses undone in the recurrence, the dates agree from the code's start on
          let undone: Recurrence.Recurrence = r
          if (fields.includes("pauses")) {
            const { pauses: _, ...rest } = undone
            undone = rest
          }
          if (fields.includes("convention")) undone = { ...undone, convention: "none" }
          if (fields.includes("missing") && (undone.rule._tag === "MonthlyOnDay" || undone.rule._tag === "Yearly")) {
            undone = { ...undone, rule: { ...undone.rule, missing: "clamp" } }
          }
          if (fields.includes("startDate")) {
            // the payments before the new start are the loss; a count has become the code's end date
            const { count: _c, end: _e, ...rest } = undone
            const end = t.value.endDate
            undone = { ...rest, start: t.value.startDate, ...(end === undefined ? {} : { end }) }
          }
          expect(theirs).toEqual(dates(ofRecurrence(undone)))
        }
      }),
      { numRuns: 3_000 }
    )
  })

  it("judges a pause on the clamped dates the codes carry", () => {
    // day 31, skipped when missing: April has no payment, so a pause of April pauses nothing; clamped, 30 April
    // is a payment of the code, and the pause is lost
    const t = Sbas.encode({
      rule: { _tag: "MonthlyOnDay", interval: 1, day: 31, missing: "skip" },
      start: d("1990-01-01"),
      convention: "following",
      pauses: { ranges: [], months: [4] },
      calendar: "target"
    })
    expect(t._tag === "Lossy" && t.losses.map((l) => l.field)).toEqual(["missing", "pauses"])
  })

  it("reports the examples in words", () => {
    const base = { start: d("2024-02-10"), convention: "following" } as const
    expect(Sbas.encode({ ...base, rule: { _tag: "MonthlyOnDay", interval: 2, day: 5, missing: "clamp" } })).toEqual({
      _tag: "Unrepresentable",
      reason:
        "the bank's codes say every working day, every day, weekly on one weekday, or every 1, 3, 6 or 12 months on one day: not every 2 months on day 5"
    })
    const day30 = Sbas.encode({ ...base, rule: { _tag: "MonthlyOnDay", interval: 1, day: 30, missing: "skip" } })
    expect(day30._tag === "Lossy" && day30.losses.map((l) => [l.field, l.from, l.to])).toEqual([
      ["missing", "skip", "clamp"],
      ["startDate", "2024-02-29", "2024-03-30"]
    ])
    expect(Sbas.encode({ ...base, rule: { _tag: "Weekly", interval: 1, weekdays: [5] }, count: 3 })).toEqual({
      _tag: "Exact",
      value: { frequency: "WEEK", startDate: d("2024-02-16"), endDate: d("2024-03-01"), convention: "following" }
    })
  })
})
