import { LocalDate } from "@tppkit/core"
import { ForecastFiles } from "@tppkit/schedule"
import { BigDecimal, Result } from "effect"
import { describe, expect, it } from "vitest"

const A = "SK2411000000002612345678"
const B = "SK6609000000005012345678"
const t = (x: BigDecimal.BigDecimal | undefined) => (x === undefined ? undefined : BigDecimal.format(x))

describe("ForecastFiles", () => {
  it("reads balances exactly, keeps the good records around a bad one, and the first of an account given twice", () => {
    const read = Result.getOrThrow(
      ForecastFiles.balances(
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
    // the account of a record that could not be read has no usable balance, and says why
    expect(ForecastFiles.unusableBalances(read.unreadable)).toEqual([
      { iban: B, reason: `its balance (b.json #3) could not be read: currency: "eur" is not an ISO 4217 code` },
      {
        iban: B,
        reason: `its balance (b.json #5) could not be read: the balance of ${B} is given again (the first one is used)`
      }
    ])
    const bad = ForecastFiles.balances("b.json", `{"accounts": []}`)
    expect(Result.isFailure(bad) && bad.failure.reason).toMatchObject({
      _tag: "InvalidForecast",
      message: 'expected a JSON array of records or an object with "balances"'
    })
  })

  it("reads funds checks and reports a bad answer", () => {
    const read = Result.getOrThrow(
      ForecastFiles.checks(
        "c.json",
        `[{"orderId": "R", "executionDate": "2027-02-01", "debtorIban": "${A}", "amount": 650.10, "currency": "EUR", "checkedOn": "2027-01-25", "answer": "DECL"},
          {"orderId": "R", "executionDate": "2027-02-01", "debtorIban": "${A}", "amount": 1, "currency": "EUR", "checkedOn": "2027-01-25", "answer": "maybe"}]`
      )
    )
    expect(read.records.map((c) => [c.orderId, c.answer, t(c.amount)])).toEqual([["R", "DECL", "650.1"]])
    expect(read.unreadable.map((u) => u.reason)).toEqual(["answer: expected APPR or DECL"])
  })
})
