import { ForecastReport } from "@tppkit/cli"
import { LocalDate } from "@tppkit/core"
import { Forecast } from "@tppkit/schedule"
import { BigDecimal, Result } from "effect"
import { describe, expect, it } from "vitest"

const A = "SK2411000000002612345678"
const B = "SK6609000000005012345678"
const t = (x: BigDecimal.BigDecimal | undefined) => (x === undefined ? undefined : BigDecimal.format(x))

describe("ForecastReport", () => {
  it("reads balances exactly, keeps the good records around a bad one, and the first of an account given twice", () => {
    const read = Result.getOrThrow(
      ForecastReport.balancesOf(
        "b.json",
        `{"balances": [
          {"iban": "${A}", "currency": "EUR", "amount": 1000.10, "date": "2027-01-01", "threshold": "0.005"},
          {"iban": "XX00", "currency": "EUR", "amount": 1, "date": "2027-01-01"},
          {"iban": "${B}", "currency": "eur", "amount": 1, "date": "2027-01-01"},
          {"iban": "${B.replace(/(.{4})/g, "$1 ")}", "currency": "CZK", "amount": "-12.345", "date": "2027-01-02"},
          {"iban": "${B}", "currency": "CZK", "amount": "5", "date": "2027-01-03"},
          7
        ]}`
      )
    )
    expect(
      read.records.map((b) => [b.iban, b.currency, t(b.amount), LocalDate.format(b.date), t(b.threshold)])
    ).toEqual([
      [A, "EUR", "1000.1", "2027-01-01", "0.005"],
      [B, "CZK", "-12.345", "2027-01-02", undefined]
    ])
    expect(read.unreadable.map((u) => [u.index, u.reason])).toEqual([
      [1, 'iban: "XX00" is not an IBAN'],
      [2, 'currency: "eur" is not an ISO 4217 code'],
      [4, `the balance of ${B} is given again (the first one is used)`],
      [5, "expected an object"]
    ])
    expect(Result.isFailure(ForecastReport.balancesOf("b.json", `{"accounts": []}`))).toBe(true)
  })
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
  it("reads scenarios as data and names what is wrong in one", () => {
    const s = Result.getOrThrow(
      ForecastReport.scenarioOf(
        "skip:SO-RENT@2027-02-01, delay:SALARY+3, delay:X@2027-01-28+2, remove:GYM, convention:preceding, fail:Y@2027-03-01"
      )
    )
    expect(s.changes.map((c) => c._tag)).toEqual(["Skip", "Delay", "Delay", "Remove", "Settings", "Fail"])
    expect(s.changes[1]).toEqual({ _tag: "Delay", orderId: "SALARY", days: 3 })
    expect(s.changes[2]).toEqual({ _tag: "Delay", orderId: "X", days: 2, date: LocalDate.parseUnsafe("2027-01-28") })
    expect(Result.getOrThrow(ForecastReport.scenarioOf("calendar:weekends")).changes[0]?._tag).toBe("Settings")
    expect(ForecastReport.scenarioOf("delay:SALARY+0")).toEqual(
      Result.fail(
        '--scenario "delay:SALARY+0": delay:SALARY+0: expected delay:ORDER+DAYS or delay:ORDER@YYYY-MM-DD+DAYS (DAYS a whole number ≥ 1)'
      )
    )
    expect(Result.isFailure(ForecastReport.scenarioOf("skip:RENT"))).toBe(true)
    expect(Result.isFailure(ForecastReport.scenarioOf("explode:RENT"))).toBe(true)
    expect(Result.isFailure(ForecastReport.scenarioOf(" , "))).toBe(true)
  })
  it("adds the orders of a file (add:FILE, read by the caller) to a scenario", () => {
    const car = {
      orderId: "CAR",
      frequency: "MNTH" as const,
      startDate: LocalDate.parseUnsafe("2027-02-10"),
      instructedAmount: { value: BigDecimal.fromStringUnsafe("300"), currency: "EUR" },
      debtor: { iban: A },
      creditor: { iban: "AT611904300234573201" }
    }
    expect(ForecastReport.addedFiles("skip:X@2027-01-01, add:car.json,ADD: more.json")).toEqual([
      "car.json",
      "more.json"
    ])
    const s = Result.getOrThrow(ForecastReport.scenarioOf("add:car.json,remove:GYM", new Map([["car.json", [car]]])))
    expect(s.changes).toEqual([
      { _tag: "Add", order: car },
      { _tag: "Remove", orderId: "GYM" }
    ])
    expect(ForecastReport.scenarioOf("add:none.json")).toEqual(
      Result.fail('--scenario "add:none.json": add:none.json: expected add:FILE (an orders file)')
    )
  })
  it("reads funds checks and reports a bad answer", () => {
    const read = Result.getOrThrow(
      ForecastReport.checksOf(
        "c.json",
        `[{"orderId": "R", "executionDate": "2027-02-01", "debtorIban": "${A}", "amount": 650.10, "currency": "EUR", "checkedOn": "2027-01-25", "answer": "DECL"},
          {"orderId": "R", "executionDate": "2027-02-01", "debtorIban": "${A}", "amount": 1, "currency": "EUR", "checkedOn": "2027-01-25", "answer": "maybe"}]`
      )
    )
    expect(read.records.map((c) => [c.orderId, c.answer, t(c.amount)])).toEqual([["R", "DECL", "650.1"]])
    expect(read.unreadable.map((u) => u.reason)).toEqual(["answer: expected APPR or DECL"])
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
    const lines = ForecastReport.table(report).split("\n")
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
    const doc = JSON.parse(ForecastReport.json(report)) as {
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
    expect(ForecastReport.table({ ...report, forecast: whole })).not.toContain("more payment")
  })
})
