import { LocalDate } from "@tppkit/core"
import { CashFlow, Payment, Projection } from "@tppkit/schedule"
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

describe("CashFlow.totals of payments sharing their order's field values, as projected payments do", () => {
  // several payments share one order's fields, as in a projection; amounts of any scale and size
  const sharedArb = fc.record({
    orderId: fc.constantFrom("a", "b", "c"),
    amount: fc
      .tuple(fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }), fc.integer({ min: -3, max: 4 }), fc.boolean())
      .map(([v, scale, small]) => BigDecimal.make(small ? v % 100_000n : v, scale)),
    currency: fc.constantFrom("EUR", "CZK"),
    debtorIban: fc.constantFrom("SK1", "SK2", "CZ1"),
    creditorIban: fc.constant("SK9"),
    creditorName: fc.constant(undefined)
  })
  const paymentsArb = fc
    .array(sharedArb, { minLength: 1, maxLength: 4 })
    .chain((shared) =>
      fc.array(fc.tuple(fc.constantFrom(...shared), fc.integer({ min: d("2026-01-01"), max: d("2026-04-30") })), {
        maxLength: 40
      })
    )
    .map((xs) =>
      xs
        .map(
          ([s, day], k): Payment.Payment => ({
            ...s,
            k,
            nominalDate: day as LocalDate.LocalDate,
            executionDate: day as LocalDate.LocalDate
          })
        )
        .sort((a, b) => a.executionDate - b.executionDate)
    )

  it("equal the totals of the same payments as plain objects, for every period", () => {
    fc.assert(
      fc.property(paymentsArb, fc.constantFrom("day", "week", "month" as const), (payments, period) => {
        expect(CashFlow.totals(payments, { period })).toEqual(
          CashFlow.totals(payments.map(Payment.toPlain), { period })
        )
      }),
      { numRuns: 500 }
    )
  })
  it("an accumulator gives the same tables when read between additions, and mixed with plain payments", () => {
    fc.assert(
      fc.property(paymentsArb, fc.integer({ min: 0, max: 40 }), (payments, cut) => {
        const acc = CashFlow.accumulator({ period: "week" })
        const reference = CashFlow.accumulator({ period: "week" })
        payments.forEach((p, i) => {
          acc.add(i % 3 === 0 ? Payment.toPlain(p) : p)
          reference.add(Payment.toPlain(p))
          if (i === cut) expect(acc.result()).toEqual(reference.result())
        })
        expect(acc.result()).toEqual(reference.result())
      }),
      { numRuns: 500 }
    )
  })
})

describe("CashFlow.totals of payments from several projections", () => {
  it("equal the totals of their plain copies, however the projections' payments are mixed", () => {
    const order = (orderId: string, frequency: "WEEK" | "MNTH", start: string, amount: string, iban: string) => ({
      orderId,
      frequency,
      startDate: d(start),
      instructedAmount: { value: bd(amount), currency: amount.includes(".") ? "EUR" : "CZK" },
      debtor: { iban },
      creditor: { iban: "SK9" }
    })
    const w = { from: d("2026-01-01"), to: d("2026-06-30") }
    const one = Projection.project(
      [order("a", "WEEK", "2026-01-02", "1.25", "SK1"), order("b", "MNTH", "2026-01-31", "300", "SK2")],
      w
    ).payments
    const two = Projection.project(
      [order("a", "MNTH", "2026-01-15", "0.001", "SK1"), order("c", "WEEK", "2026-02-01", "7.5", "SK2")],
      w
    ).payments
    const mixed = [...one, ...two].sort(Payment.compare)
    for (const payments of [mixed, [...two, ...one], [...one.slice(0, 5), ...two, ...one.slice(5)]]) {
      for (const period of ["day", "week", "month"] as const) {
        expect(CashFlow.totals(payments, { period })).toEqual(
          CashFlow.totals(payments.map(Payment.toPlain), { period })
        )
      }
    }
  })
})
