import { Iban, LocalDate } from "@tppkit/core"
import { ForecastFiles } from "@tppkit/schedule"
import { BigDecimal, Result } from "effect"
import * as fc from "fast-check"
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
      [1, 'iban: IBAN has 4 characters, at least 15 needed, got "XX00"'],
      [2, 'currency: currency must be three upper-case letters (ISO 4217), got "eur"'],
      [4, `the balance of ${B} is given again (the first one is used)`],
      [5, "expected an object"]
    ])
    // the account of a record that could not be read has no usable balance, and says why
    expect(ForecastFiles.unusableBalances(read.unreadable)).toEqual([
      {
        iban: B,
        reason: `its balance (b.json #3) could not be read: currency: currency must be three upper-case letters (ISO 4217), got "eur"`
      },
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
    expect(read.unreadable.map((u) => u.reason)).toEqual(['answer: expected APPR or DECL, got "maybe"'])
  })

  it("names the field of a bad record and why, with the text given when the reason does not say it", () => {
    const good = { iban: A, currency: "EUR", amount: 1, date: "2027-01-01" }
    const cases: ReadonlyArray<readonly [Record<string, unknown>, string, string]> = [
      [{ currency: "EUR", amount: 1, date: "2027-01-01" }, "iban", "iban: expected a text"],
      [{ ...good, iban: 7 }, "iban", "iban: expected a text"],
      [{ ...good, iban: "  " }, "iban", 'iban: expected a text, got "  "'],
      [{ ...good, amount: "abc" }, "amount", 'amount: "abc" is not a decimal number'],
      [{ ...good, amount: true }, "amount", "amount: expected a number or a decimal string"],
      [{ ...good, amount: undefined }, "amount", "amount: expected a number or a decimal string"],
      [
        { ...good, date: "2027-02-30" },
        "date",
        'date: "2027-02-30" is not a calendar date: day 30 does not exist in 2027-02'
      ],
      [{ ...good, threshold: "x" }, "threshold", 'threshold: "x" is not a decimal number'],
      [
        { ...good, iban: "\u001b]0;x\u0007" },
        "iban",
        'iban: IBAN must start with a two-letter country code, got "\\u001b]0;x\\u0007"'
      ]
    ]
    for (const [record, field, reason] of cases) {
      const read = Result.getOrThrow(ForecastFiles.balances("b.json", JSON.stringify([good, record, good])))
      expect(read.records.length, reason).toBe(1)
      expect(read.unreadable.map((u) => [u.index, u.field, u.reason])).toEqual([
        [1, field, reason],
        [2, undefined, `the balance of ${A} is given again (the first one is used)`]
      ])
    }
    // spaces around a text and a print-form IBAN are read; a null threshold is none
    const spaced = Result.getOrThrow(
      ForecastFiles.balances(
        "b.json",
        `[{"iban": " ${A.toLowerCase().replace(/(.{4})/g, "$1 ")}", "currency": " EUR ", "amount": " 12.50 ", "date": " 2027-01-01 ", "threshold": null}]`
      )
    )
    expect(spaced.unreadable).toEqual([])
    expect(spaced.records.map((b) => [b.iban, b.currency, t(b.amount), b.threshold])).toEqual([
      [A, "EUR", "12.5", undefined]
    ])
  })

  it("reads every good record, in order, whatever bad records stand between them (10,000 runs)", () => {
    const goodRecord = fc.record({
      amount: fc.tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: 0, max: 6 })),
      date: fc.integer({ min: LocalDate.makeUnsafe(2000, 1, 1), max: LocalDate.makeUnsafe(2100, 12, 31) })
    })
    const badRecord = fc.constantFrom(
      7,
      null,
      [],
      { iban: "XX00", currency: "EUR", amount: 1, date: "2027-01-01" },
      { iban: B, currency: "euro", amount: 1, date: "2027-01-01" },
      { iban: B, currency: "EUR", amount: "1,5", date: "2027-01-01" },
      { iban: B, currency: "EUR", amount: 1, date: "01.01.2027" }
    )
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            goodRecord.map((g) => ({ good: g })),
            badRecord.map((b) => ({ bad: b }))
          ),
          { maxLength: 5 }
        ),
        (items) => {
          // each good record its own account (an IBAN with the check digits of its place)
          const records = items.map((item, k) => {
            if (!("good" in item)) return JSON.stringify(item.bad)
            const [value, scale] = item.good.amount
            const amount = BigDecimal.format(BigDecimal.make(value, scale))
            return `{"iban": "${ibanOf(k)}", "currency": "EUR", "amount": ${amount}, "date": "${LocalDate.format(item.good.date as LocalDate.LocalDate)}"}`
          })
          const read = Result.getOrThrow(ForecastFiles.balances("b.json", `[${records.join(",")}]`))
          const goods = items.flatMap((item, k) => ("good" in item ? [[k, item.good] as const] : []))
          expect(read.records.map((b) => b.iban)).toEqual(goods.map(([k]) => ibanOf(k)))
          read.records.forEach((b, i) => {
            const [value, scale] = goods[i]![1].amount
            expect(BigDecimal.equals(b.amount, BigDecimal.make(value, scale))).toBe(true)
            expect(b.date).toBe(goods[i]![1].date)
          })
          expect(read.unreadable.map((u) => u.index)).toEqual(items.flatMap((item, k) => ("bad" in item ? [k] : [])))
        }
      ),
      { numRuns: 10_000 }
    )
  })
})

/** A valid Slovak IBAN whose account number is `k`. */
const ibanOf = (k: number): string => {
  const bban = `1100000000${String(k).padStart(10, "0")}`
  return `SK${Iban.checkDigits("SK", bban)}${bban}`
}
