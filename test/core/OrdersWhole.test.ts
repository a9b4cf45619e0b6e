/**
 * Whole records through core's one decoder (`Orders`): each source's fixture read as a file (text, cut anywhere),
 * whatever its envelope — a COBS page, a UK `Data.StandingOrder` list, a YNAB answer, a Berlin Group transactions
 * answer, an Actual array, one record alone — with or without `--standard`; the accounts file giving IBANs and
 * currencies; the source's next date as the order's `nextDate`; inactive and deleted records skipped with the reason.
 */
import { readFileSync } from "node:fs"
import { AccountMap, LocalDate, Money, Orders } from "@tppkit/core"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { fixtures } from "./sourceRecordFixtures.ts"

const accounts = Result.getOrThrow(
  AccountMap.decode({
    "22289": { iban: "GB33BUKB20201555555555", currency: "GBP" },
    "5d1e9a70-2c3b-4f8e-8a61-7b0c4d2e9f13": { iban: "CZ4608000000002345678908", currency: "CZK" },
    "e41a7c2d-3b4e-4f5a-9b6c-0d1e2f3a4b5c": { currency: "EUR" }
  })
)
const text = (name: string) => readFileSync(`${fixtures}${name}`, "utf8")

const line = (item: Orders.Item): string => {
  if (item._tag === "Unread") return `${item.position} unread ${item.orderId}: ${item.reason}`
  if (item._tag === "Skipped") return `${item.position} skipped ${item.orderId}: ${item.reason}`
  const party = (p: Orders.Party) => `${p.scheme === undefined ? "" : `${p.scheme}:`}${p.iban}`
  return [
    `${item.position} ${item.standard} ${item.orderId}`,
    `${Money.toPlainString(item.instructedAmount.value)} ${item.instructedAmount.currency}`,
    `${party(item.debtor)} -> ${item.creditor.iban === undefined ? `(creditor unknown${item.creditor.name === undefined ? "" : `: ${item.creditor.name}`})` : party({ ...item.creditor, iban: item.creditor.iban })}`,
    `from ${LocalDate.format(item.recurrence.start)}`,
    ...(item.nextDate === undefined ? [] : [`next ${LocalDate.format(item.nextDate)}`]),
    ...(said(item).length === 0
      ? []
      : [
          said(item)
            .map((w) => `${w._tag}:${w.field}`)
            .join(",")
        ])
  ].join(" | ")
}

/** The warnings but those naming a field not used (each whole record has some: readerAudit.test.ts checks them). */
const said = (o: Orders.Order) => o.warnings.filter((w) => !(w._tag === "Lost" && w.to === "not read"))

const read = (name: string, options?: Orders.Options): Array<string> => {
  const all = text(name)
  // cut in three pieces anywhere: the same items as whole
  const d = Orders.decoder({ accounts, listedOn: LocalDate.parseUnsafe("2026-11-29"), ...options })
  const third = Math.floor(all.length / 3)
  const items = [
    ...d.push(all.slice(0, third)),
    ...d.push(all.slice(third, 2 * third)),
    ...d.push(all.slice(2 * third))
  ]
  const end = d.end()
  if (Result.isFailure(end)) return [`not a list: ${end.failure.reason}`]
  return [...items, ...end.success.items].map(line)
}

describe("Orders reads whole records of every source", () => {
  it("a COBS page (the listing day as start) and a COBS detail alone", () => {
    expect(read("cobs-page.json")).toEqual([
      "1 cobs SO2026000000004711 | 2500 CZK | CZ4608000000002345678908 -> (creditor unknown) | from 2026-11-29 | Missing:creditorAccount,Missing:requestedExecutionDate"
    ])
    expect(read("cobs-detail.json")).toEqual([
      "1 cobs SO2026000000004711 | 2500 CZK | CZ4608000000002345678908 -> CZ7520100000002800345671 | from 2026-01-20 | Tolerated:stopages"
    ])
  })
  it("a COBS list item counts from the listing day, which countsFromListing says; the detail does not", () => {
    const listedOn = LocalDate.parseUnsafe("2026-11-29")
    const page = Result.getOrThrow(Orders.decode(text("cobs-page.json"), { accounts, listedOn }))
    const detail = Result.getOrThrow(Orders.decode(text("cobs-detail.json"), { accounts, listedOn }))
    expect(page.orders.map(Orders.countsFromListing)).toEqual([true])
    expect(detail.orders.map(Orders.countsFromListing)).toEqual([false])
  })
  it("a UK v3.1 list: the accounts file gives AccountId its IBAN; NextPaymentDateTime is the next date", () => {
    expect(read("uk-v3-list.json")).toEqual([
      "1 uk-v3 SO-9Q2M41 | 850 GBP | GB33BUKB20201555555555 -> UK.OBIE.SortCodeAccountNumber:20325855667788 | from 2025-04-03 | next 2026-12-03",
      "2 skipped SO-OLDGYM: uk-v3: StandingOrderStatusCode Inactive: the order makes no more payments",
      // the final payment has its own amount: an order of one payment on the last Friday the schedule allows
      "3 uk-v3 SO-LOAN | 125 GBP | GB33BUKB20201555555555 -> GB33BUKB20201555555555 | from 2026-01-02 | next 2026-12-11",
      "3 uk-v3 SO-LOAN | 75.5 GBP | GB33BUKB20201555555555 -> GB33BUKB20201555555555 | from 2027-01-29 | next 2026-12-11",
      "4 uk-v3 SO-NEXT-ONLY | 40 GBP | GB33BUKB20201555555555 -> (creditor unknown) | from 2026-12-31 | next 2026-12-31 | Tolerated:NumberOfPayments,Missing:CreditorAccount"
    ])
  })
  it("a UK order whose first and final payments carry their own amounts: three orders, each payment once", () => {
    const record = {
      AccountId: "22289",
      StandingOrderId: "SO-3",
      Frequency: "IntrvlMnthDay:01:15",
      FirstPaymentDateTime: "2027-01-15T00:00:00+00:00",
      NumberOfPayments: "4",
      FirstPaymentAmount: { Amount: "10.00", Currency: "GBP" },
      NextPaymentAmount: { Amount: "20.00", Currency: "GBP" },
      FinalPaymentAmount: { Amount: "30.00", Currency: "GBP" }
    }
    const list = Result.getOrThrow(Orders.decode(JSON.stringify([record]), { accounts }))
    // start, end, count and amount of each order: February and March at 20, April at 30, January at 10
    const payments = list.orders.map(
      (o) =>
        `${LocalDate.format(o.recurrence.start)} ${o.recurrence.end === undefined ? "" : LocalDate.format(o.recurrence.end)} ${o.recurrence.count ?? ""} ${Money.toPlainString(o.instructedAmount.value)}`
    )
    expect(payments).toEqual(["2027-02-15 2027-04-14 2 20", "2027-04-15 2027-04-15  30", "2027-01-15 2027-01-15  10"])
  })
  it("a UK v4 list, without the accounts file the source's AccountId kept", () => {
    expect(read("uk-v4-list.json", { accounts: AccountMap.empty })).toEqual([
      "1 uk-v4 SO-9Q2M41 | 850 GBP | account-id:22289 -> UK.OBIE.SortCodeAccountNumber:20325855667788 | from 2025-04-03 | next 2026-12-03",
      "2 skipped SO-NO-MANDATE: uk-v4: MandateRelatedInformation is missing: tppkit expects MandateRelatedInformation.Frequency (a v4 order without it has no frequency)",
      "3 skipped SO-CANCELLED: uk-v4: StandingOrderStatusCode CANC: the order was cancelled",
      "4 uk-v4 SO-BASIC | 20 GBP | account-id:22289 -> (creditor unknown) | from 2026-01-05 | next 2026-12-07 | Missing:CreditorAccount"
    ])
  })
  it("Berlin Group: a periodic payment alone, and a transactions answer whose listed account pays", () => {
    expect(read("bg-periodic.json")).toEqual([
      "1 berlin-group #1 | 650 EUR | DE76500105175403741272 -> DE75120300001020304050 | from 2026-02-01 | Missing:paymentId"
    ])
    expect(read("bg-transactions.json")).toEqual([
      "1 berlin-group SO-BG-1 | 650 EUR | DE76500105175403741272 -> DE75120300001020304050 | from 2026-02-01",
      "2 berlin-group SO-BG-2 | 120 EUR | DE76500105175403741272 -> (creditor unknown: Versicherung AG) | from 2026-01-15 | Tolerated:transactionAmount.amount,Missing:creditorAccount,Lost:convention",
      "3 berlin-group SO-BG-3 | 30 EUR | DE76500105175403741272 -> DE75120300001020304050 | from 2026-01-05 | Lost:convention"
    ])
  })
  it("YNAB and Actual: currencies from the accounts file, money in and out, deleted and completed skipped", () => {
    expect(read("ynab-answer.json")).toEqual([
      "1 ynab 0b7f3c2e-5a41-4d6b-9e2f-3c8d1a7b6e50 | 2500 CZK | CZ4608000000002345678908 -> (creditor unknown: Jana Dvořáková) | from 2026-01-20 | next 2026-12-20",
      "2 ynab 1c2d3e4f-0000-4000-8000-000000000002 | 41500.5 CZK | unknown: -> CZ4608000000002345678908 | from 2026-01-01 | next 2026-12-01",
      "3 skipped 1c2d3e4f-0000-4000-8000-000000000003: ynab: deleted: the scheduled transaction was deleted in YNAB"
    ])
    expect(read("actual-schedules.json")).toEqual([
      "1 actual 3c1c6a52-8e0f-4b7d-a2c4-9f1e0d2b6a77 | 2500 EUR | actual:e41a7c2d-3b4e-4f5a-9b6c-0d1e2f3a4b5c -> actual-payee:b7d3e9a0-1f2c-4d5e-8a6b-7c8d9e0f1a2b | from 2026-01-20 | next 2026-12-21",
      "2 actual 7a000000-0000-4000-8000-000000000002 | 50 EUR | actual:e41a7c2d-3b4e-4f5a-9b6c-0d1e2f3a4b5c -> actual-payee:b7d3e9a0-1f2c-4d5e-8a6b-7c8d9e0f1a2c | from 2026-01-01 | next 2026-12-01 | Tolerated:amount",
      "3 skipped 7a000000-0000-4000-8000-000000000003: actual: completed: the schedule is finished",
      "4 skipped 7a000000-0000-4000-8000-000000000004: actual: date 2027-02-01: a one-off transaction, not a schedule"
    ])
  })
  it("without a currency (no accounts file), an app's order cannot be read, the reason naming the flag", () => {
    expect(read("ynab-answer.json", { accounts: undefined })[0]).toBe(
      "1 unread 0b7f3c2e-5a41-4d6b-9e2f-3c8d1a7b6e50: the record gives no currency: tppkit expects the currency of account 5d1e9a70-2c3b-4f8e-8a61-7b0c4d2e9f13 in the accounts file (--accounts FILE)"
    )
  })
  it("with --standard the same records are read", () => {
    expect(read("uk-v4-list.json", { standard: "uk-v4" })).toEqual(read("uk-v4-list.json"))
    expect(read("cobs-page.json", { standard: "cobs" })).toEqual(read("cobs-page.json"))
  })
})
