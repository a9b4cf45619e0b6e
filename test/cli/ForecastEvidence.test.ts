/**
 * ForecastEvidence: the fleet's plan and stored balances as a forecast's inputs (issue 24, `tppkit worker
 * --balances` then `worker status`): each planned check a payment on the day the fleet planned it, the balances
 * stored and read back exactly, and the forecast's findings for the checked accounts in the table and the JSON.
 */
import { ForecastEvidence } from "@tppkit/cli"
import { LocalDate, Money } from "@tppkit/core"
import { Forecast, Projection } from "@tppkit/schedule"
import { Checks } from "@tppkit/worker"
import { BigDecimal, Result, Schema } from "effect"
import { describe, expect, it } from "vitest"

const rich = "SK2411000000002612345678"
const poor = "SK3112000000198742637541"

/** A check's row: its payment given as text (as the fleet keeps it), read with `Checks.Due`'s schemas. */
const row = (
  orderId: string,
  debtorIban: string,
  executionDate: string,
  { amount, consent, ...extra }: Partial<Omit<Checks.Row, "amount">> & { readonly amount?: string } = {}
): Checks.Row => ({
  ...Schema.decodeSync(Checks.Due)({
    consent: consent ?? "c1",
    orderId,
    nominalDate: executionDate,
    executionDate,
    amount: amount ?? "100.00",
    currency: "EUR",
    debtorIban,
    sweepDay: "2026-11-02",
    checkAt: 0
  }),
  outcome: "APPR",
  failure: undefined,
  attempts: 1,
  unconfirmed: 0,
  correlationIds: [],
  checkedAt: "2026-11-02T07:00:00Z",
  requestId: "r",
  responseId: "s",
  ...(extra as Partial<Checks.Row>)
})

const d = (text: string) => LocalDate.parseUnsafe(text)

describe("ForecastEvidence.ordersOfPlan", () => {
  it("makes each planned check one payment on its execution date, whatever the calendar says of that day", () => {
    const rows = [
      // a Saturday: the fleet planned it there (its own calendar), so the forecast keeps it there
      row("SO-A", rich, "2026-11-07", { amount: "12.34", outcome: undefined, checkedAt: undefined }),
      row("SO-B", poor, "2026-11-03"),
      // the same payment planned by a second consent: counted once
      row("SO-B", poor, "2026-11-03", { consent: "c2" })
    ]
    const orders = ForecastEvidence.ordersOfPlan(rows)
    expect(orders.map((o) => o.orderId)).toEqual(["SO-A", "SO-B"])
    const projected = Projection.project(
      orders,
      { from: d("2026-11-01"), to: d("2026-12-31") },
      ForecastEvidence.planOptions
    )
    expect(
      projected.payments.map((p) => [p.orderId, LocalDate.format(p.executionDate), Money.toPlainString(p.amount)])
    ).toEqual([
      ["SO-B", "2026-11-03", "100"],
      ["SO-A", "2026-11-07", "12.34"]
    ])
  })
})

describe("ForecastEvidence stored balances", () => {
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
    const stored = ForecastEvidence.storedBalances(balances)
    expect(stored).toEqual([
      { iban: rich, currency: "EUR", amount: "1000.5", date: "2026-11-01" },
      { iban: poor, currency: "EUR", amount: "0.01", date: "2026-11-01", threshold: "10" }
    ])
    const read = ForecastEvidence.balancesOfStored(stored)
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

describe("ForecastEvidence: the plan's forecast with the fleet's answers", () => {
  // the user believes both accounts hold 1,000.00; the bank declined the poor account's payment
  const rows = [
    row("SO-RENT", poor, "2026-11-03", { outcome: "DECL", amount: "300.00" }),
    row("SO-GYM", rich, "2026-11-04", { amount: "40.00" }),
    row("SO-CAR", rich, "2026-11-04", { amount: "990.00" }),
    row("SO-LATE", rich, "2026-11-05", { outcome: undefined, checkedAt: undefined, amount: "5.00" })
  ]
  const balances = Result.getOrThrow(
    ForecastEvidence.balancesOfStored([
      { iban: rich, currency: "EUR", amount: "1000", date: "2026-11-01" },
      { iban: poor, currency: "EUR", amount: "1000", date: "2026-11-01" }
    ])
  ).records
  const checks = ForecastEvidence.checksOf(rows)
  const window = ForecastEvidence.windowOf(checks)!
  const forecast = Result.getOrThrow(
    Forecast.make({
      orders: ForecastEvidence.ordersOfPlan(rows),
      balances,
      window,
      options: ForecastEvidence.planOptions,
      checks,
      ladder: false
    })
  )
  const sources = { balances: "stored", orders: "plan" } as const

  it("finds the DECL the forecast covers (urgent) and the APPR on a day at risk, with the lowest points", () => {
    const json = ForecastEvidence.json(forecast, sources)
    expect(Object.keys(json)).toEqual(["balances", "orders", "from", "to", "accounts", "findings"])
    expect([json.balances, json.orders, json.from, json.to]).toEqual(["stored", "plan", "2026-11-02", "2026-11-04"])
    expect(json.accounts.map((a) => [a.iban, a.lowest, a.riskDays.map((r) => [r.date, r.closing, r.reason])])).toEqual([
      [rich, { amount: "-30.00", date: "2026-11-04" }, [["2026-11-04", "-30.00", "zero"]]],
      [poor, { amount: "700.00", date: "2026-11-03" }, []]
    ])
    // the plan knows no creditor
    expect(json.accounts[0]?.riskDays[0]?.payments.map((p) => [p.orderId, p.amount, "creditorIban" in p])).toEqual([
      ["SO-CAR", "990.00", false],
      ["SO-GYM", "40.00", false]
    ])
    expect(json.findings.map((f) => [f.finding, f.orderId, f.answer, f.forecastOnPaymentDay])).toEqual([
      ["DeclinedButCovered", "SO-RENT", "DECL", "700.00"],
      ["ApprovedButAtRisk", "SO-CAR", "APPR", "-30.00"],
      ["ApprovedButAtRisk", "SO-GYM", "APPR", "-30.00"]
    ])
  })

  it("prints the section in the width, naming where its inputs came from, the urgent finding first", () => {
    const lines = ForecastEvidence.section(forecast, 100, sources)
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(100)
    expect(lines[0]).toBe("")
    const text = lines
      .slice(1)
      .join("\n")
      .replace(/\n {4}/g, " ")
    expect(text).toMatch(
      /^Forecast of the checked accounts 2026-11-02\.\.2026-11-04 \(the fleet's stored balances, the fleet's plan\): 2 accounts, 3 checks contradict it/
    )
    expect(text).toContain("  payments: those the fleet checks;")
    expect(text).toContain(
      `  ${rich} EUR: runs out (at or below zero) from 2026-11-04; 1 day at risk; lowest -30.00 on 2026-11-04`
    )
    const findings = text.split("\n").filter((l) => /^ {2}(DECL|APPR) /.test(l))
    expect(findings.map((l) => l.split(" ")[3])).toEqual(["SO-RENT", "SO-CAR", "SO-GYM"])
    expect(findings[0]).toMatch(
      /^ {2}DECL SO-RENT 300\.00 EUR from \S+: URGENT: declined, but the forecast covers its day \(forecast 1000\.00 on 2026-11-02, 700\.00 on 2026-11-03\)$/
    )
  })

  it("has the key's shape, empty, before any check is answered", () => {
    expect(ForecastEvidence.json(undefined, { balances: "file", orders: "plan" })).toEqual({
      balances: "file",
      orders: "plan",
      from: null,
      to: null,
      accounts: [],
      findings: []
    })
  })
})
