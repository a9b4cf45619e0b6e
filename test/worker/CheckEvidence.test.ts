/**
 * CheckEvidence: the fleet's plan and stored balances as a forecast's inputs (issue 24, `tppkit worker --balances`
 * then `worker status`): each planned check a payment on the day the fleet planned it, the balances stored and read
 * back exactly, the answered checks as evidence over the window they span, the checked accounts worst first.
 */
import { LocalDate, Money } from "@tppkit/core"
import { Forecast, Projection } from "@tppkit/schedule"
import { CheckEvidence } from "@tppkit/worker"
import { BigDecimal, Result } from "effect"
import { describe, expect, it } from "vitest"
import { checkRow } from "./support.ts"

const rich = "SK2411000000002612345678"
const poor = "SK3112000000198742637541"

const d = (text: string) => LocalDate.parseUnsafe(text)

describe("CheckEvidence.ordersOfPlan", () => {
  it("makes each planned check one payment on its execution date, whatever the calendar says of that day", () => {
    const rows = [
      // a Saturday: the fleet planned it there (its own calendar), so the forecast keeps it there
      checkRow("SO-A", rich, "2026-11-07", { amount: "12.34", outcome: undefined, checkedAt: undefined }),
      checkRow("SO-B", poor, "2026-11-03"),
      // the same payment planned by a second consent: counted once
      checkRow("SO-B", poor, "2026-11-03", { consent: "c2" })
    ]
    const orders = CheckEvidence.ordersOfPlan(rows)
    expect(orders.map((o) => o.orderId)).toEqual(["SO-A", "SO-B"])
    const projected = Projection.project(
      orders,
      { from: d("2026-11-01"), to: d("2026-12-31") },
      CheckEvidence.planOptions
    )
    expect(
      projected.payments.map((p) => [p.orderId, LocalDate.format(p.executionDate), Money.toPlainString(p.amount)])
    ).toEqual([
      ["SO-B", "2026-11-03", "100"],
      ["SO-A", "2026-11-07", "12.34"]
    ])
  })
})

describe("CheckEvidence stored balances", () => {
  it("are stored as exact text and read back as the same balances", () => {
    const balances: ReadonlyArray<Forecast.Balance> = [
      { iban: rich, currency: "EUR", amount: BigDecimal.fromStringUnsafe("1000.50"), date: d("2026-11-01") },
      {
        iban: poor,
        currency: "EUR",
        amount: BigDecimal.fromStringUnsafe("0.01"),
        date: d("2026-11-01"),
        threshold: BigDecimal.fromStringUnsafe("10")
      }
    ]
    const stored = CheckEvidence.storedBalances(balances)
    expect(stored).toEqual([
      { iban: rich, currency: "EUR", amount: "1000.5", date: "2026-11-01" },
      { iban: poor, currency: "EUR", amount: "0.01", date: "2026-11-01", threshold: "10" }
    ])
    const read = CheckEvidence.balancesOfStored(stored)
    expect(Result.isSuccess(read)).toBe(true)
    if (Result.isSuccess(read)) {
      expect(read.success.unreadable).toEqual([])
      expect(read.success.records.map((b) => [b.iban, b.date, b.threshold === undefined])).toEqual([
        [rich, d("2026-11-01"), true],
        [poor, d("2026-11-01"), false]
      ])
      read.success.records.forEach((b, i) => {
        expect(BigDecimal.equals(b.amount, balances[i]!.amount)).toBe(true)
      })
    }
  })
})

describe("CheckEvidence: the answered checks beside the plan's forecast", () => {
  const rows = [
    checkRow("SO-RENT", poor, "2026-11-03", { outcome: "DECL", amount: "300.00" }),
    checkRow("SO-CAR", rich, "2026-11-04", { amount: "990.00", checkedAt: "2026-11-01T23:59:59Z" }),
    checkRow("SO-GYM", rich, "2026-11-04", { amount: "40.00" }),
    // no answer yet, or none that says anything of the money: not evidence
    checkRow("SO-LATE", rich, "2026-11-06", { outcome: undefined, checkedAt: undefined, amount: "5.00" }),
    checkRow("SO-FAIL", rich, "2026-11-07", { outcome: "failed" })
  ]

  it("takes each APPR and DECL as asked on its UTC day, and spans the window from the first ask to the last payment", () => {
    const checks = CheckEvidence.checksOf(rows)
    expect(
      checks.map((c) => [c.orderId, c.answer, LocalDate.format(c.checkedOn), LocalDate.format(c.executionDate)])
    ).toEqual([
      ["SO-RENT", "DECL", "2026-11-02", "2026-11-03"],
      ["SO-CAR", "APPR", "2026-11-01", "2026-11-04"],
      ["SO-GYM", "APPR", "2026-11-02", "2026-11-04"]
    ])
    expect(BigDecimal.equals(checks[1]!.amount, BigDecimal.fromStringUnsafe("990"))).toBe(true)
    const window = CheckEvidence.windowOf(checks)!
    expect([LocalDate.format(window.from), LocalDate.format(window.to)]).toEqual(["2026-11-01", "2026-11-04"])
    expect(CheckEvidence.windowOf([])).toBeUndefined()
  })

  it("lists the checked accounts worst first, the contradicting checks the urgent first", () => {
    const checks = CheckEvidence.checksOf(rows)
    const forecast = Result.getOrThrow(
      Forecast.make({
        orders: CheckEvidence.ordersOfPlan(rows),
        balances: Result.getOrThrow(
          CheckEvidence.balancesOfStored([
            { iban: poor, currency: "EUR", amount: "1000", date: "2026-11-01" },
            { iban: rich, currency: "EUR", amount: "1000", date: "2026-11-01" },
            // an account the fleet checks nothing of: not among the checked
            { iban: "SK0809000000000123123123", currency: "EUR", amount: "1", date: "2026-11-01" }
          ])
        ).records,
        window: CheckEvidence.windowOf(checks)!,
        options: CheckEvidence.planOptions,
        checks,
        ladder: false
      })
    )
    expect(CheckEvidence.checkedAccounts(forecast).map((a) => [a.iban, a.riskDays.length])).toEqual([
      [rich, 1],
      [poor, 0]
    ])
    expect(Forecast.contradictions(forecast).map((e) => [e.finding, e.check.orderId])).toEqual([
      ["DeclinedButCovered", "SO-RENT"],
      ["ApprovedButAtRisk", "SO-CAR"],
      ["ApprovedButAtRisk", "SO-GYM"]
    ])
    expect(Forecast.hasFindings(forecast)).toBe(true)
  })
})
