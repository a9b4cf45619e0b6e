import { Decoded, Money, Orders, Recurrence } from "@tppkit/core"
import { Result } from "effect"

// One list in three standards: the bank's code, a Berlin Group record (a number where the standard wants text), and
// a record whose creditor IBAN is no IBAN. Amounts are read exactly from the text.
const who = '"debtor":{"name":"A","iban":"SK3112000000198742637541"}'
const text = `[
  {"orderId":"RENT",${who},"creditor":{"name":"Landlord","iban":"CZ6508000000192000145399"},
   "instructedAmount":{"value":650.10,"currency":"EUR"},"frequency":"MNTH","startDate":"2027-01-31"},
  {"orderId":"GYM",${who},"creditor":{"iban":"CZ6508000000192000145399"},
   "instructedAmount":{"value":29.9,"currency":"EUR"},
   "standingOrderDetails":{"startDate":"2027-01-01","frequency":"Monthly","dayOfExecution":15}},
  {"orderId":"BAD",${who},"creditor":{"iban":"XX00"},"instructedAmount":{"value":1,"currency":"EUR"},
   "frequency":"WEEK","startDate":"2027-01-04"}
]`
const read = Result.getOrThrow(Orders.decode(text))
for (const o of read.orders) {
  const amount = Money.toPlainString(o.instructedAmount.value)
  console.log(o.position, o.orderId, o.standard, amount, Recurrence.describe(o.recurrence.rule))
  for (const w of o.warnings) if (w._tag === "Tolerated") console.log("  ", Decoded.describe(w))
}
// 1 RENT sbas 650.1 every month on day 31
// 2 GYM berlin-group 29.9 every month on day 15
//    dayOfExecution "15" is read as given, although dayOfExecution is text, not a number.
for (const u of read.unread) console.log(u.position, u.orderId, u.path) // 3 BAD creditor.iban
