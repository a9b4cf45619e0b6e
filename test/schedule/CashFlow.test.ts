import { LocalDate } from "@tppkit/core"
import { CashFlow, type Payment } from "@tppkit/schedule"
import { BigDecimal } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"

const d = LocalDate.parseUnsafe
const bd = BigDecimal.fromStringUnsafe
const pay = (date: string, amount: string, currency = "EUR", debtorIban = "SK1"): Payment.Payment => ({
  orderId: "o",
  k: 0,
  nominalDate: d(date),
  executionDate: d(date),
  amount: bd(amount),
  currency,
  debtorIban,
  creditorIban: "SK2"
})
const fmt = (x: BigDecimal.BigDecimal): string => BigDecimal.format(x)

describe("CashFlow.totals", () => {
  it("sums exactly (0.1 + 0.2 = 0.3) per currency, debtor and month", () => {
    const t = CashFlow.totals([
      pay("2026-01-05", "0.1"),
      pay("2026-01-31", "0.2"),
      pay("2026-02-01", "100", "CZK", "CZ1"),
      pay("2026-02-02", "12.345", "EUR", "SK2")
    ])
    expect(t.count).toBe(4)
    expect(t.byCurrency.map((x) => [x.currency, fmt(x.amount), x.count])).toEqual([
      ["CZK", "100", 1],
      ["EUR", "12.645", 3]
    ])
    expect(t.byDebtor.map((x) => [x.debtorIban, x.currency, fmt(x.amount)])).toEqual([
      ["CZ1", "CZK", "100"],
      ["SK1", "EUR", "0.3"],
      ["SK2", "EUR", "12.345"]
    ])
    expect(t.byPeriod.map((x) => [x.label, LocalDate.format(x.end), x.currency, fmt(x.amount)])).toEqual([
      ["2026-01", "2026-01-31", "EUR", "0.3"],
      ["2026-02", "2026-02-28", "CZK", "100"],
      ["2026-02", "2026-02-28", "EUR", "12.345"]
    ])
  })
  it("groups by ISO week and by day", () => {
    const ps = [pay("2026-12-31", "1"), pay("2027-01-03", "2"), pay("2027-01-04", "4")]
    const w = CashFlow.totals(ps, { period: "week" }).byPeriod
    expect(w.map((x) => [x.label, LocalDate.format(x.start), fmt(x.amount)])).toEqual([
      ["2026-W53", "2026-12-28", "3"],
      ["2027-W01", "2027-01-04", "4"]
    ])
    const day = CashFlow.totals(ps, { period: "day" }).byPeriod
    expect(day.map((x) => x.label)).toEqual(["2026-12-31", "2027-01-03", "2027-01-04"])
    expect(CashFlow.periodLabel(d("2024-12-30"), "week")).toBe("2025-W01")
  })
  it("is empty for no payments", () => {
    expect(CashFlow.totals([])).toEqual({ period: "month", count: 0, byCurrency: [], byDebtor: [], byPeriod: [] })
  })
  it("property: each table sums to the sum of the payments, whatever the scales and sizes", () => {
    const amount = fc
      .tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: -3, max: 6 }))
      .map(([v, s]) => BigDecimal.make(v, s))
    const payment = fc
      .record({
        day: fc.integer({ min: 19000, max: 21000 }),
        amount,
        currency: fc.constantFrom("EUR", "CZK"),
        debtor: fc.constantFrom("A", "B", "C")
      })
      .map(
        (r): Payment.Payment => ({
          orderId: "o",
          k: 0,
          nominalDate: r.day as LocalDate.LocalDate,
          executionDate: r.day as LocalDate.LocalDate,
          amount: r.amount,
          currency: r.currency,
          debtorIban: r.debtor,
          creditorIban: "X"
        })
      )
    fc.assert(
      fc.property(fc.array(payment, { maxLength: 60 }), fc.constantFrom("day", "week", "month"), (ps, period) => {
        const t = CashFlow.totals(ps, { period })
        for (const c of ["EUR", "CZK"]) {
          const expected = ps.filter((p) => p.currency === c).reduce((a, p) => BigDecimal.sum(a, p.amount), bd("0"))
          const of = (xs: ReadonlyArray<CashFlow.Total>) =>
            xs.filter((x) => x.currency === c).reduce((a, x) => BigDecimal.sum(a, x.amount), bd("0"))
          expect(BigDecimal.equals(of(t.byCurrency), expected)).toBe(true)
          expect(BigDecimal.equals(of(t.byDebtor), expected)).toBe(true)
          expect(BigDecimal.equals(of(t.byPeriod), expected)).toBe(true)
        }
        expect(t.byPeriod.reduce((a, x) => a + x.count, 0)).toBe(ps.length)
      }),
      { numRuns: 500 }
    )
  })
})
