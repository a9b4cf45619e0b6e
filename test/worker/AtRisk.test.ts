import { assert, describe, it } from "@effect/vitest"
import { Calendar, LocalDate, StandingOrder } from "@tppkit/core"
import { AtRisk } from "@tppkit/worker"
import { Result } from "effect"

const IBAN = "SK3112000000198742637541"

const once = (orderId: string, date: string, value: number, debtor = IBAN) =>
  Result.getOrThrow(
    StandingOrder.decode({
      orderId,
      debtor: { name: "Jana Novakova", iban: debtor },
      creditor: { iban: "SK0809000000000123123123" },
      instructedAmount: { value, currency: "EUR" },
      startDate: date,
      endDate: date,
      frequency: "DAIL"
    })
  )

const day = LocalDate.parseUnsafe("2026-11-16") // a Monday

const input = (orders: ReadonlyArray<StandingOrder.StandingOrder>, amount = "500", threshold?: string) => ({
  listings: [{ consent: "c1", orders }],
  balances: [
    { iban: IBAN, currency: "EUR", amount, date: "2026-11-13", ...(threshold === undefined ? {} : { threshold }) }
  ],
  day,
  calendar: Calendar.target
})

describe("AtRisk.find", () => {
  it("names each payment due on a day the forecast puts at or below zero, with the day, lowest point and balance age", () => {
    // 300 on Tuesday, then 250 on Tuesday 2026-11-24 (the 6th working day): 500 - 300 - 250 = -50
    const found = AtRisk.find(input([once("RENT", "2026-11-17", 300), once("CAR", "2026-11-24", 250)]))
    assert.deepStrictEqual(
      found.risks.map((r) => [r.orderId, r.executionDate, r.closing, r.reason, r.shortfall]),
      [["CAR", "2026-11-24", "-50", "zero", "50"]]
    )
    const risk = found.risks[0]!
    assert.deepStrictEqual(risk.lowest, { amount: "-50", date: "2026-11-24" })
    assert.deepStrictEqual(risk.dueThatDay, [{ orderId: "CAR", nominalDate: "2026-11-24", amount: "250" }])
    assert.strictEqual(risk.dueThatDayCount, 1)
    assert.strictEqual(risk.consent, "c1")
    assert.strictEqual(risk.balanceDate, "2026-11-13")
    assert.strictEqual(risk.balanceAgeDays, 3)
    assert.deepStrictEqual([...found.forecast], [IBAN])
    assert.strictEqual(found.to, "2026-11-30")
  })

  it("a day of many payments names the first 20 in each of its payments at risk, and counts them all", () => {
    const many = Array.from({ length: 50 }, (_, i) => once(`P${String(i).padStart(2, "0")}`, "2026-11-18", 20))
    const found = AtRisk.find(input(many))
    assert.strictEqual(found.risks.length, 50)
    assert.isTrue(found.risks.every((r) => r.dueThatDay.length === 20 && r.dueThatDayCount === 50))
  })

  it("a threshold is a line too; beyond the horizon nothing is at risk; no balance, no forecast", () => {
    const t = AtRisk.find(input([once("RENT", "2026-11-17", 300)], "500", "250"))
    assert.deepStrictEqual(
      t.risks.map((r) => [r.orderId, r.reason, r.shortfall]),
      [["RENT", "threshold", "50"]]
    )
    // 2026-12-01 is the 11th working day
    assert.deepStrictEqual(AtRisk.find(input([once("LATE", "2026-12-01", 900)])).risks, [])
    assert.deepStrictEqual(AtRisk.find({ ...input([once("RENT", "2026-11-17", 900)]), balances: [] }).risks, [])
  })
})

describe("AtRisk.reconcile", () => {
  it("raises a payment once, clears it when the forecast recovers, and leaves what it cannot judge", () => {
    const risky = AtRisk.find(input([once("CAR", "2026-11-24", 600)]))
    const first = AtRisk.reconcile(risky, [], "2026-11-16")
    assert.deepStrictEqual(
      first.raised.map((r) => r.orderId),
      ["CAR"]
    )
    const open = first.raised.map((r) => ({ key: AtRisk.keyOf(r), executionDate: r.executionDate, iban: r.iban }))
    // the next sweep finds it again: nothing new
    const again = AtRisk.reconcile(AtRisk.find(input([once("CAR", "2026-11-24", 600)])), open, "2026-11-17")
    assert.deepStrictEqual([again.raised, again.cleared], [[], []])
    // the balance covers it now: cleared
    const recovered = AtRisk.reconcile(AtRisk.find(input([once("CAR", "2026-11-24", 600)], "900")), open, "2026-11-17")
    assert.deepStrictEqual(recovered.raised, [])
    assert.deepStrictEqual(recovered.cleared, open)
    // passed, or an account not forecast: left as it is
    assert.deepStrictEqual(AtRisk.reconcile(AtRisk.find(input([])), open, "2026-11-25").cleared, [])
    assert.deepStrictEqual(
      AtRisk.reconcile(AtRisk.find({ ...input([]), balances: [] }), open, "2026-11-17").cleared,
      []
    )
  })
})
