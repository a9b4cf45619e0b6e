import { ForecastJson, ForecastReport, ForecastTable } from "@tppkit/cli"
import { LocalDate } from "@tppkit/core"
import { Forecast } from "@tppkit/schedule"
import { BigDecimal, Result } from "effect"
import { describe, expect, it } from "vitest"
import * as ForecastCommand from "../../packages/cli/src/internal/forecast.ts"

const A = "SK2411000000002612345678"
const B = "SK6609000000005012345678"
const t = (x: BigDecimal.BigDecimal | undefined) => (x === undefined ? undefined : BigDecimal.format(x))

describe("ForecastReport", () => {
  it("applies --threshold: one for all, one per IBAN (over the file's)", () => {
    const balances = [
      { iban: A, currency: "EUR", amount: BigDecimal.fromBigInt(1n), date: LocalDate.parseUnsafe("2027-01-01") },
      {
        iban: B,
        currency: "EUR",
        amount: BigDecimal.fromBigInt(1n),
        date: LocalDate.parseUnsafe("2027-01-01"),
        threshold: BigDecimal.fromBigInt(7n)
      }
    ]
    const all = Result.getOrThrow(ForecastReport.withThresholds(balances, ["200"]))
    expect(all.map((b) => t(b.threshold))).toEqual(["200", "7"])
    const one = Result.getOrThrow(ForecastReport.withThresholds(balances, ["200", `${B}=50.5`]))
    expect(one.map((b) => t(b.threshold))).toEqual(["200", "50.5"])
    // a mistyped IBAN applies to nothing: the command warns about it
    expect(ForecastReport.thresholdsWithoutAccount(balances, ["200", `${B.toLowerCase()}=1`, "SK00 1=5"])).toEqual([
      "SK00 1=5"
    ])
    expect(ForecastReport.withThresholds(balances, ["lots"])).toEqual(
      Result.fail('--threshold "lots": "lots" is not a decimal number')
    )
  })
  it("names the flag, the text and the change that is wrong in a --scenario (internal/forecast's scenarioOf)", () => {
    expect(ForecastCommand.scenarioOf("delay:SALARY+0")).toEqual(
      Result.fail(
        '--scenario "delay:SALARY+0": delay:SALARY+0: expected delay:ORDER+DAYS or delay:ORDER@YYYY-MM-DD+DAYS (DAYS a whole number ≥ 1)'
      )
    )
    expect(ForecastCommand.scenarioOf("add:none.json")).toEqual(
      Result.fail('--scenario "add:none.json": add:none.json: expected add:FILE (an orders file)')
    )
    expect(ForecastCommand.scenarioOf(" , ")).toEqual(Result.fail('--scenario " , ": no change named'))
    expect(ForecastCommand.scenarioOf("calendar:XX")).toEqual(
      Result.fail(
        '--scenario "calendar:XX": calendar:XX: --calendar: unknown country "XX": expected an ISO 3166-1 alpha-2 code the holiday library knows'
      )
    )
  })
})

describe("ForecastReport: many payments at risk (issue 40)", () => {
  // three orders paying every day from an empty account for 120 days: 360 payments at risk, 7 of them listed
  const d = LocalDate.parseUnsafe
  const daily = ["A1", "A2", "A3"].map((orderId) => ({
    orderId,
    frequency: "DAI7" as const,
    startDate: d("2027-01-01"),
    instructedAmount: { value: BigDecimal.fromStringUnsafe("1.00"), currency: "EUR" },
    debtor: { iban: A },
    creditor: { iban: B }
  }))
  const forecast = Result.getOrThrow(
    Forecast.make({
      orders: daily,
      balances: [{ iban: A, currency: "EUR", amount: BigDecimal.fromStringUnsafe("0"), date: d("2027-01-01") }],
      window: { from: d("2027-01-01"), to: d("2027-04-30") },
      atRiskLimit: 7
    })
  )
  const report: ForecastReport.Report = {
    forecast,
    calendarName: "target",
    convention: "following",
    scenarios: [],
    unreadable: [],
    skippedOrders: []
  }

  it("the table lists the first risk days and payments, counts the rest, and the cut is said", () => {
    const lines = ForecastTable.table(report).split("\n")
    const dayLines = lines.filter((l) => /^ {2}2027-\d\d-\d\d closing/.test(l))
    expect(dayLines).toHaveLength(ForecastReport.TABLE_RISK_DAYS)
    expect(lines.filter((l) => /^ {4}2027-\d\d-\d\d A\d/.test(l))).toHaveLength(7)
    expect(lines).toContain("    … and 2 more payments out that day")
    expect(lines).toContain("    … and 3 more payments out that day")
    // wrapped at the table's width: read as one text
    expect(lines.join(" ").replace(/\s+/g, " ")).toContain(
      " … and 20 more days at risk with payments or a closing at risk, to 2027-04-30 (60 payments out): --format json lists every one"
    )
    expect(ForecastReport.atRiskCut(forecast)).toBe(
      "360 payments out on days at risk; the first 7 are listed (a forecast lists at most 100000, its earliest risk days account by account), every risk day gives the count of its own"
    )
  })

  it("JSON gives each risk day's count and the forecast's, beside the payments listed", () => {
    const doc = JSON.parse(ForecastJson.json(report)) as {
      atRisk: Array<unknown>
      atRiskCount: number
      accounts: Array<{ riskDays: Array<{ count: number; payments: Array<unknown> }> }>
    }
    expect([doc.atRisk.length, doc.atRiskCount]).toEqual([7, 360])
    const days = doc.accounts[0]!.riskDays
    expect(days).toHaveLength(120)
    expect(days.slice(0, 4).map((r) => [r.count, r.payments.length])).toEqual([
      [3, 3],
      [3, 3],
      [3, 1],
      [3, 0]
    ])
  })

  it("a forecast whose payments at risk are all listed says nothing", () => {
    const whole = Result.getOrThrow(
      Forecast.make({
        orders: daily,
        balances: [{ iban: A, currency: "EUR", amount: BigDecimal.fromStringUnsafe("0"), date: d("2027-01-01") }],
        window: { from: d("2027-01-01"), to: d("2027-01-05") }
      })
    )
    expect(ForecastReport.atRiskCut(whole)).toBeUndefined()
    expect(ForecastTable.table({ ...report, forecast: whole })).not.toContain("more payment")
  })
})
