/**
 * ForecastEvidence: the forecast of the checked accounts from the fleet's plan and stored balances (issue 24,
 * `tppkit worker --balances` then `worker status`; worker's `CheckEvidence`), its findings in the table and the JSON.
 */
import { ForecastEvidence } from "@tppkit/cli"
import { Forecast } from "@tppkit/schedule"
import { CheckEvidence } from "@tppkit/worker"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { checkRow } from "../worker/support.ts"

const rich = "SK2411000000002612345678"
const poor = "SK3112000000198742637541"

describe("ForecastEvidence: the plan's forecast with the fleet's answers", () => {
  // the user believes both accounts hold 1,000.00; the bank declined the poor account's payment
  const rows = [
    checkRow("SO-RENT", poor, "2026-11-03", { outcome: "DECL", amount: "300.00" }),
    checkRow("SO-GYM", rich, "2026-11-04", { amount: "40.00" }),
    checkRow("SO-CAR", rich, "2026-11-04", { amount: "990.00" }),
    checkRow("SO-LATE", rich, "2026-11-05", { outcome: undefined, checkedAt: undefined, amount: "5.00" })
  ]
  const balances = Result.getOrThrow(
    CheckEvidence.balancesOfStored([
      { iban: rich, currency: "EUR", amount: "1000", date: "2026-11-01" },
      { iban: poor, currency: "EUR", amount: "1000", date: "2026-11-01" }
    ])
  ).records
  const checks = CheckEvidence.checksOf(rows)
  const window = CheckEvidence.windowOf(checks)!
  const forecast = Result.getOrThrow(
    Forecast.make({
      orders: CheckEvidence.ordersOfPlan(rows),
      balances,
      window,
      options: CheckEvidence.planOptions,
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
