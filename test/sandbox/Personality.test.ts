import { BankRule, Calendar, LocalDate } from "@tppkit/core"
import { Fixtures, Personality } from "@tppkit/sandbox"
import { Reconciliation } from "@tppkit/schedule"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

const d = LocalDate.parseUnsafe
const orders = Result.getOrThrow(Fixtures.decode(Fixtures.defaults)).standingOrders

describe("Personality.list", () => {
  const day = d("2026-07-25")

  it("tppkit's own rule: every listed date matches tppkit's engine", () => {
    const listed = Personality.list({}, orders, day)
    const r = Reconciliation.reconcile(listed, { asOf: day })
    expect(r.observations.length).toBeGreaterThan(100)
    expect(r.counts.match).toBe(r.observations.length)
  })

  it("a bank that differs: reconciled against its own rule every date matches; against tppkit's they are explained", () => {
    const rule = BankRule.make({ convention: "preceding", calendar: Calendar.weekends })
    const listed = Personality.list({ rule }, orders, day)
    expect(Reconciliation.reconcile(listed, { asOf: day, rule }).counts.match).toBeGreaterThan(100)
    const r = Reconciliation.reconcile(listed, { asOf: day })
    expect(r.counts.explained).toBeGreaterThan(0)
    expect(r.counts.anomaly + r.counts.unexplained).toBe(0)
    expect(Reconciliation.consistentRules(r).map(BankRule.key)).toContain(BankRule.key(rule))
  })

  it("an extra holiday only shows up as explained by the calendar difference", () => {
    // Monday 27 July 2026 a holiday of this bank: orders due that day are listed on the 28th
    const personality = { extraHolidays: [d("2026-07-27")] }
    const listed = Personality.list(personality, orders, day)
    const r = Reconciliation.reconcile(listed, { asOf: day, candidates: [Personality.ruleOf(personality)] })
    const moved = r.observations.filter((o) => o.status !== "match")
    expect(moved.length).toBeGreaterThan(0)
    for (const o of moved) {
      expect(o.status).toBe("explained")
      expect(LocalDate.format(o.expected!)).toBe("2026-07-27")
    }
  })

  it("property: holidays added to the bank's calendar only show up as explained by the calendar difference", () => {
    // any convention, any listing day, up to three added weekdays from the listing day on (an added day before it
    // only moves a payment that counted as made already); reconciled against the bank's rule without the added days
    const arbitrary = fc.record({
      asOf: fc.integer({ min: d("2025-06-01"), max: d("2027-12-31") }),
      offsets: fc.uniqueArray(fc.integer({ min: 0, max: 90 }), { minLength: 1, maxLength: 3 }),
      convention: fc.constantFrom("following", "preceding", "modified-following", "modified-preceding", "none" as const)
    })
    fc.assert(
      fc.property(arbitrary, ({ asOf, offsets, convention }) => {
        const day = asOf as LocalDate.LocalDate
        const added = offsets
          .map((o) => LocalDate.addDays(day, o))
          .filter((h) => Calendar.isWorkingDay(Calendar.target, h))
        const rule = BankRule.make({ convention })
        const personality = { rule, extraHolidays: added }
        const listed = Personality.list(personality, orders, day)
        const r = Reconciliation.reconcile(listed, { asOf: day, rule, candidates: [Personality.ruleOf(personality)] })
        for (const o of r.observations) {
          if (o.status === "match") continue
          expect(o.status).toBe("explained")
          expect(added).toContain(o.expected)
          expect(Reconciliation.explanation(r, o)).toBe(r.rules[1])
        }
        // without an added working day nothing moves
        if (added.length === 0) expect(r.counts.match).toBe(r.observations.length)
      }),
      { numRuns: 300 }
    )
  })

  it("injected anomalies are exactly the orders it picks, and reconciliation reports exactly those", () => {
    const personality = { anomalyRate: 0.2, seed: 7 }
    const listed = Personality.list(personality, orders, day)
    const picked = orders.filter((o) => Personality.isAnomalous(personality, o)).map((o) => o.orderId)
    expect(picked.length).toBeGreaterThan(3)
    const r = Reconciliation.reconcile(listed, { asOf: day })
    const reported = r.observations.filter((o) => o.status === "anomaly").map((o) => o.orderId)
    const listedPicked = picked.filter((id) => listed.find((o) => o.orderId === id)?.nextDate !== undefined)
    expect(reported.sort()).toEqual(listedPicked.sort())
  })

  it("without a personality option the mock bank keeps its fixtures' nextDates (the default is unchanged)", () => {
    const first = orders.find((o) => o.nextDate !== undefined)!
    expect(Personality.list({}, [first], day)[0]!.nextDate).not.toBe(undefined)
    const fixture = Fixtures.defaults.standingOrders.find((o) => o.orderId === first.orderId)
    expect(fixture?.nextDate).toBe(LocalDate.format(first.nextDate!))
  })
})
