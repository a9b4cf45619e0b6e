import { Json, LocalDate, Money, SourceRecord, Standard, Translation } from "@tppkit/core"
import { Result } from "effect"

// A COBS list page as a Czech bank sends it: the item has no creditor and no start date.
const page = Json.parse(`{ "pageNumber": 0, "pageCount": 1, "pageSize": 1, "nextPage": 0, "standingOrders": [ {
  "standingOrderIdentification": { "transactionIdentification": "SO2026000000004711" },
  "amount": { "instructedAmount": { "value": 2500.00, "currency": "CZK" } },
  "standingOrder": { "alias": "Garage",
    "execution": { "mode": "UNTIL_CANCELLATION", "modeDue": "DUE_OR_NEXT_DAY_OF_MONTH", "interval": "MONTHLY", "intervalDue": "20" } },
  "debtorAccount": { "identification": { "iban": "CZ4608000000002345678908" }, "currency": "CZK" } } ] }`)
if (Result.isSuccess(page)) {
  const list = SourceRecord.envelope(page.success.value)
  console.log(list.kind, SourceRecord.page(page.success.value).last) // cobs-page true (nextPage 0 on the last page)
  const read = SourceRecord.read(list.records[0], { listedOn: LocalDate.parseUnsafe("2026-11-29") })
  if (read?._tag === "Order") {
    const r = read.reading
    console.log(r.orderId, Money.toPlainString(r.amount.value), r.amount.currency, r.debtor.account?.iban)
    // SO2026000000004711 2500 CZK CZ4608000000002345678908
    for (const m of r.missing) console.log(SourceRecord.describeMissing(m))
    // creditorAccount is missing: tppkit expects the payee's account (…); the order is projected with the creditor unknown
    // requestedExecutionDate is missing: tppkit expects the date the order counts from (a list item has none); the order counts from the listing day
    const schedule = Standard.decode(r.schedule, { standard: r.standard, start: r.start })
    const recurrence = Translation.getValue(schedule.translation)
    console.log(recurrence && LocalDate.format(recurrence.start)) // 2026-11-29: the 20th of each month from then
  }
}

// A YNAB answer: amounts in milliunits, negative = money out, no currency (an accounts file gives it).
const ynab = SourceRecord.read({
  id: "0b7f3c2e",
  date_first: "2026-01-20",
  date_next: "2026-12-20",
  frequency: "monthly",
  amount: -2500000,
  account_id: "5d1e9a70",
  payee_name: "Jana",
  deleted: false
})
if (ynab?._tag === "Order") {
  const r = ynab.reading
  console.log(
    r.direction,
    Money.toPlainString(r.amount.value),
    r.amount.currency,
    r.nextDate && LocalDate.format(r.nextDate)
  )
  // out 2500 undefined 2026-12-20
}
