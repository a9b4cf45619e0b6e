/**
 * Whole records of each source (COBS, Berlin Group, UK v3.1 and v4, YNAB, Actual) read as their banks and apps send
 * them: golden lines of the fixtures (every date counted by hand from the calendar), the traps of
 * standard-records (a COBS list item without creditor, `intervalDue` as number and text, `nextPage: 0` on the last
 * page, a UK v4 record without `MandateRelatedInformation`, …), exact amounts, the missing fields named as the
 * source calls them, and Actual's midpoint against its own `Math.round`.
 */
import { Json, LocalDate, Money, SourceRecord } from "@tppkit/core"
import { BigDecimal, Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { document, lines } from "./sourceRecordFixtures.ts"

const read = (record: unknown, options?: SourceRecord.Options) => {
  const r = SourceRecord.read(record, options)
  if (r === undefined) throw new Error("not a source record")
  return r
}
const reading = (record: unknown, options?: SourceRecord.Options) => {
  const r = read(record, options)
  if (r._tag === "Skipped") throw new Error(r.reason)
  return r.reading
}

describe("golden: every fixture read whole", () => {
  it("COBS list page (the published shape: no creditor, no start, intervalDue a number)", () => {
    expect(lines("cobs-page.json")).toEqual([
      "cobs SO2026000000004711 out 2500 CZK | iban:CZ4608000000002345678908 -> ? | 2026-12-20,2027-01-20,2027-02-20 | end 2027-12-20 | -creditorAccount -requestedExecutionDate"
    ])
  })
  it("COBS detail (creditor IBAN and local number, intervalDue a number, stoppages spelt as the examples spell it)", () => {
    expect(lines("cobs-detail.json")).toEqual([
      "cobs SO2026000000004711 out 2500 CZK | iban:CZ4608000000002345678908 -> iban:CZ7520100000002800345671 | 2026-01-20,2026-02-20,2026-03-20 | end 2027-12-20 | ~stopages"
    ])
  })
  it("COBS traps: intervalDue as text, no amount, a quarterly list item, both max-amount spellings, breaks as one object, a local account", () => {
    expect(lines("cobs-page-traps.json")).toEqual([
      "cobs SO-TEXT-DUE out 1234.56 CZK | iban:CZ4608000000002345678908 -> ? | 2026-12-25,2027-01-25,2027-02-25 | -creditorAccount -requestedExecutionDate",
      "skipped SO-NO-AMOUNT: amount.instructedAmount.value is missing: tppkit expects the amount of each payment (a number)",
      "skipped SO-QUARTERLY: requestedExecutionDate is missing: tppkit expects the date a QUARTERLY order counts from (a list item has none: read the detail, GET /my/standingorders/{id})",
      "cobs SO-MAX-AMOUNT out 100 CZK | account-id:0A1B2C3D -> ? | 2026-12-04,2026-12-11,2026-12-18 | ~standingOrder.execution.mode -creditorAccount -requestedExecutionDate !maxAmount",
      "cobs SO-MAX-ITERATIONS out 0.1 CZK | iban:CZ4608000000002345678908 -> cz:2108589434/2700 | 2026-03-01,2026-05-01 | count 3 | ~amount.instructedAmount.currency !maxIterations",
      "cobs SO-SLASH out 1.0000000000000000001 CZK | iban:CZ4608000000002345678908 -> cz:19-2000145399/0800 | 2026-03-31,2026-09-30,2027-03-31 | ~creditorAccount.identification.other.identification"
    ])
  })
  it("UK v3.1 list: an inactive order skipped, first and final amounts, NumberOfPayments without a first date", () => {
    expect(lines("uk-v3-list.json")).toEqual([
      "uk-v3 SO-9Q2M41 out 850 GBP | account-id:22289 -> UK.OBIE.SortCodeAccountNumber:20325855667788 | next 2026-12-03 | 2025-04-03,2025-05-03,2025-06-03 | end 2027-03-03 | count 24",
      "skipped SO-OLDGYM: StandingOrderStatusCode Inactive: the order makes no more payments",
      "uk-v3 SO-LOAN out 125 GBP | account-id:22289 -> iban:GB33BUKB20201555555555 | next 2026-12-11 | 2026-01-02,2026-01-16,2026-01-30 | end 2027-02-05",
      "uk-v3 SO-NEXT-ONLY out 40 GBP | account-id:22289 -> ? | next 2026-12-31 | 2026-12-31,2027-01-31,2027-02-28 | ~NumberOfPayments -CreditorAccount"
    ])
  })
  it("UK v4 list: without MandateRelatedInformation (no frequency) and cancelled skipped; NumberOfPayments restored", () => {
    expect(lines("uk-v4-list.json")).toEqual([
      "uk-v4 SO-9Q2M41 out 850 GBP | account-id:22289 -> UK.OBIE.SortCodeAccountNumber:20325855667788 | next 2026-12-03 | 2025-04-03,2025-05-03,2025-06-03 | end 2027-03-03 | count 24",
      "skipped SO-NO-MANDATE: MandateRelatedInformation is missing: tppkit expects MandateRelatedInformation.Frequency (a v4 order without it has no frequency)",
      "skipped SO-CANCELLED: StandingOrderStatusCode CANC: the order was cancelled",
      "uk-v4 SO-BASIC out 20 GBP | account-id:22289 -> ? | next 2026-12-07 | 2026-01-05,2026-01-12,2026-01-19 | -CreditorAccount"
    ])
  })
  it("Berlin Group periodic payment body", () => {
    expect(lines("bg-periodic.json")).toEqual([
      "berlin-group undefined out 650 EUR | iban:DE76500105175403741272 -> iban:DE75120300001020304050 | 2026-02-01,2026-03-01,2026-04-01 | end 2027-01-31 | -paymentId"
    ])
  })
  it("Berlin Group transactions answer with bookingStatus=information: the listed account pays", () => {
    expect(lines("bg-transactions.json")).toEqual([
      "berlin-group SO-BG-1 out 650 EUR | iban:DE76500105175403741272 -> iban:DE75120300001020304050 | 2026-02-01,2026-03-01,2026-04-01 | end 2027-01-31",
      'berlin-group SO-BG-2 out 120 EUR | iban:DE76500105175403741272 -> "Versicherung AG" | 2026-01-15,2026-04-15,2026-07-15 | ~transactionAmount.amount -creditorAccount',
      "berlin-group SO-BG-3 out 30 EUR | iban:DE76500105175403741272 -> iban:DE75120300001020304050 | 2026-01-05,2026-01-26,2026-02-16"
    ])
  })
  it("YNAB answer: milliunits, money in and out, a deleted one skipped", () => {
    expect(lines("ynab-answer.json")).toEqual([
      'ynab 0b7f3c2e-5a41-4d6b-9e2f-3c8d1a7b6e50 out 2500 | ynab:5d1e9a70-2c3b-4f8e-8a61-7b0c4d2e9f13 -> "Jana Dvořáková" | next 2026-12-20 | 2026-01-20,2026-02-20,2026-03-20',
      'ynab 1c2d3e4f-0000-4000-8000-000000000002 in 41500.5 | "Employer s.r.o." -> ynab:5d1e9a70-2c3b-4f8e-8a61-7b0c4d2e9f13 | next 2026-12-01 | 2026-01-01,2026-02-01,2026-03-01',
      "skipped 1c2d3e4f-0000-4000-8000-000000000003: deleted: the scheduled transaction was deleted in YNAB"
    ])
  })
  it("Actual schedules: isbetween as the rounded midpoint, completed and one-off skipped", () => {
    expect(lines("actual-schedules.json")).toEqual([
      "actual 3c1c6a52-8e0f-4b7d-a2c4-9f1e0d2b6a77 out 2500 | actual:e41a7c2d-3b4e-4f5a-9b6c-0d1e2f3a4b5c -> actual-payee:b7d3e9a0-1f2c-4d5e-8a6b-7c8d9e0f1a2b | next 2026-12-21 | 2026-01-20,2026-02-20,2026-03-20 | end 2027-12-20",
      "actual 7a000000-0000-4000-8000-000000000002 out 50 | actual:e41a7c2d-3b4e-4f5a-9b6c-0d1e2f3a4b5c -> actual-payee:b7d3e9a0-1f2c-4d5e-8a6b-7c8d9e0f1a2c | next 2026-12-01 | 2026-01-01,2026-02-01,2026-03-01 | ~amount",
      "skipped 7a000000-0000-4000-8000-000000000003: completed: the schedule is finished",
      "skipped 7a000000-0000-4000-8000-000000000004: date 2027-02-01: a one-off transaction, not a schedule"
    ])
  })
})

describe("messages name the field as the source calls it and say what tppkit expects", () => {
  it("a COBS list item without creditor", () => {
    const page = document("cobs-page.json") as { standingOrders: Array<unknown> }
    const r = reading(page.standingOrders[0], { listedOn: LocalDate.parseUnsafe("2026-11-29") })
    expect(r.missing.map(SourceRecord.describeMissing)).toEqual([
      "creditorAccount is missing: tppkit expects the payee's account (creditorAccount.identification.iban or .other.identification; a list item has none: read the detail); the order is projected with the creditor unknown",
      "requestedExecutionDate is missing: tppkit expects the date the order counts from (a list item has none); the order counts from the listing day"
    ])
  })
  it("a COBS record without debtor account, and without a listing day", () => {
    const r = reading({
      standingOrderIdentification: { transactionIdentification: "X" },
      amount: { instructedAmount: { value: 1, currency: "CZK" } },
      standingOrder: { execution: { interval: "MONTHLY", intervalDue: "3", mode: "UNTIL_CANCELLATION" } }
    })
    expect(r.missing.map((m) => m.field)).toEqual([
      "debtorAccount.identification.iban",
      "creditorAccount",
      "requestedExecutionDate"
    ])
    expect(r.missing[2]?.consequence).toBe("the order cannot be scheduled")
  })
  it("a Berlin Group body without amount is skipped naming instructedAmount.amount", () => {
    const r = read({ frequency: "Monthly", startDate: "2026-01-01", instructedAmount: { currency: "EUR" } })
    expect(r).toMatchObject({
      _tag: "Skipped",
      reason: "instructedAmount.amount is missing: tppkit expects the amount of each payment (decimal text)"
    })
  })
  it("a UK record without any amount is skipped naming NextPaymentAmount", () => {
    const r = read({ AccountId: "1", Frequency: "EvryDay", FirstPaymentDateTime: "2026-01-01T00:00:00Z" })
    expect(r).toMatchObject({
      _tag: "Skipped",
      standard: "uk-v3",
      reason:
        "NextPaymentAmount is missing: tppkit expects the amount of the payments (NextPaymentAmount, else FirstPaymentAmount)"
    })
  })
})

describe("amounts", () => {
  it("are exact from the JSON text, through the exact reader", () => {
    const doc = Result.getOrThrow(
      Json.parse(
        '{"standingOrderIdentification":{"transactionIdentification":"A"},"amount":{"instructedAmount":{"value":0.30000000000000000001,"currency":"EUR"}},"standingOrder":{"execution":{"interval":"MONTHLY","mode":"UNTIL_CANCELLATION"}},"requestedExecutionDate":"2026-01-01"}'
      )
    ).value
    expect(Money.toPlainString(reading(doc).amount.value)).toBe("0.30000000000000000001")
  })
  it("UK first and final amounts are kept beside the regular one when they differ", () => {
    const uk = document("uk-v3-list.json") as { Data: { StandingOrder: Array<unknown> } }
    const r = reading(uk.Data.StandingOrder[2])
    expect(Money.toPlainString(r.amount.value)).toBe("125")
    expect(r.firstAmount && Money.toPlainString(r.firstAmount.value)).toBe("500")
    expect(r.finalAmount && Money.toPlainString(r.finalAmount.value)).toBe("75.5")
    expect(reading((uk.Data.StandingOrder as Array<unknown>)[0]).firstAmount).toBeUndefined()
  })
  it("YNAB milliunits are the amount divided by 1000, exactly, signed as the direction", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), (n) => {
        fc.pre(n !== 0n)
        const r = reading({
          id: "x",
          date_first: "2026-01-01",
          date_next: "2026-01-01",
          frequency: "monthly",
          amount: new Json.NumberText(String(n)),
          account_id: "a",
          deleted: false
        })
        expect(r.direction).toBe(n < 0n ? "out" : "in")
        expect(BigDecimal.equals(r.amount.value, BigDecimal.make(n < 0n ? -n : n, 3))).toBe(true)
      }),
      { numRuns: 10_000 }
    )
  })
  it("Actual's isbetween is Math.round of the midpoint in cents, as Actual projects it", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: -1e9, max: 1e9 }), (a, b) => {
        const expected = Math.round((a + b) / 2)
        fc.pre(expected !== 0)
        const r = reading({
          id: "x",
          amount: { num1: a, num2: b },
          amountOp: "isbetween",
          date: { start: "2026-01-01", frequency: "monthly" }
        })
        const cents = BigDecimal.make(BigInt(Math.abs(expected)), 2)
        expect(BigDecimal.equals(r.amount.value, cents)).toBe(true)
        expect(r.direction).toBe(expected < 0 ? "out" : "in")
      }),
      { numRuns: 10_000 }
    )
  })
})

describe("envelopes and detection", () => {
  it("finds each list's records", () => {
    expect(SourceRecord.envelope(document("cobs-page.json")).kind).toBe("cobs-page")
    expect(SourceRecord.envelope(document("uk-v4-list.json"))).toMatchObject({ kind: "uk-list", standard: "uk-v4" })
    expect(SourceRecord.envelope(document("uk-v3-list.json"))).toMatchObject({ kind: "uk-list", standard: "uk-v3" })
    expect(SourceRecord.envelope(document("ynab-answer.json")).records).toHaveLength(3)
    expect(SourceRecord.envelope(document("bg-transactions.json")).account).toMatchObject({
      iban: "DE76500105175403741272"
    })
    expect(SourceRecord.envelope(document("actual-schedules.json")).kind).toBe("array")
    expect(SourceRecord.envelope(document("bg-periodic.json")).kind).toBe("record")
    expect(SourceRecord.envelope({ data: { scheduled_transaction: { id: "1" } } }).records).toEqual([{ id: "1" }])
    expect(SourceRecord.envelope({ Data: {}, Links: { Self: "x" } }).records).toEqual([])
  })
  it("detects a whole record's standard by its own fields", () => {
    const uk4 = document("uk-v4-list.json") as { Data: { StandingOrder: Array<unknown> } }
    expect(uk4.Data.StandingOrder.map(SourceRecord.detect)).toEqual(["uk-v4", "uk-v4", "uk-v4", "uk-v4"])
    expect(SourceRecord.detect(document("bg-periodic.json"))).toBe("berlin-group")
    expect((document("actual-schedules.json") as Array<unknown>).map(SourceRecord.detect)).toEqual([
      "actual",
      "actual",
      "actual",
      "actual"
    ])
    expect(SourceRecord.detect({ orderId: "x", frequency: "MNTH" })).toBe("sbas")
    expect(SourceRecord.read({ orderId: "x", frequency: "MNTH" })).toBeUndefined()
  })
})

describe("COBS paging and account numbers", () => {
  it("a last page that says nextPage: 0 is the last (pageNumber + 1 >= pageCount)", () => {
    expect(SourceRecord.page(document("cobs-page-traps.json"))).toMatchObject({
      pageNumber: 2,
      nextPage: 0,
      last: true
    })
    expect(SourceRecord.page({ pageNumber: 0, pageCount: 1, nextPage: 0 }).last).toBe(true)
    expect(SourceRecord.page({ pageNumber: 0, pageCount: 2, nextPage: 1 }).last).toBe(false)
    expect(SourceRecord.page({ pageNumber: 0, nextPage: null }).last).toBe(true)
    expect(SourceRecord.page(document("cobs-page.json"))).toMatchObject({ pageSize: 1, totalCount: 1, last: true })
  })
  it("gives a list item's amount and interval at a glance, as the record gives them", () => {
    const item = {
      amount: { instructedAmount: { value: 1500, currency: "CZK" } },
      standingOrder: { execution: { interval: "MONTHLY", intervalDue: " 15 " } }
    }
    expect(SourceRecord.glance(item)).toEqual({
      amount: "1500",
      currency: "CZK",
      interval: "MONTHLY",
      intervalDue: "15"
    })
    expect(SourceRecord.glance({ amount: { instructedAmount: { value: {} } }, standingOrder: "x" })).toEqual({
      amount: undefined,
      currency: undefined,
      interval: undefined,
      intervalDue: undefined
    })
  })
  it("reads the Czech forms of an account number", () => {
    expect(SourceRecord.czechAccount("0000002108589434", "2700")).toBe("2108589434/2700")
    expect(SourceRecord.czechAccount("0000192000145399", "0800")).toBe("19-2000145399/0800")
    expect(SourceRecord.czechAccount("123/0800", undefined)).toBe("123/0800")
    expect(SourceRecord.czechAccount("19-2000145399", undefined)).toBe("19-2000145399")
    expect(SourceRecord.czechAccount("GB12", undefined)).toBeUndefined()
  })
})
