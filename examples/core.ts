import { BalanceCheck, Iban, Money, StandingOrder } from "@tppkit/core"
import { BigDecimal, Result, Schema } from "effect"

// A page of the standing-order list as a bank might send it: pageCount as a string, one record broken.
const body: unknown = JSON.parse(`{
  "pageCount": "1",
  "standingOrders": [
    { "orderId": "SO-1", "frequency": "MNTH", "startDate": "2024-01-31",
      "debtor": { "name": "Jana Novakova", "iban": "SK31 1200 0000 1987 4263 7541" },
      "creditor": { "name": "Landlord", "iban": "CZ6508000000192000145399" },
      "instructedAmount": { "value": 1250.50, "currency": "EUR" } },
    { "orderId": "SO-2", "frequency": "WEEK",
      "debtor": { "name": "Jana Novakova", "iban": "SK3112000000198742637541" },
      "creditor": { "iban": "CZ6508000000192000145398" },
      "instructedAmount": { "value": 20, "currency": "EUR" } }
  ]
}`)

// Lenient decoding keeps every good record and reports each bad one with its index, orderId and field.
const page = StandingOrder.decodeListLenient(body)
if (Result.isSuccess(page)) {
  for (const order of page.success.orders) {
    console.log(order.orderId, order.debtor.iban, Money.formatFixed2(order.instructedAmount.value))
  } // SO-1 SK3112000000198742637541 1250.50
  for (const e of page.success.errors) {
    console.log(`record ${e.index} (${e.orderId}) ${e.path}: ${e.message}`)
  } // record 1 (SO-2) creditor.iban: IBAN check digits are wrong (mod-97 checksum)
}

// IBANs are normalised and checked (country length, mod-97) before anything is sent.
const iban = Iban.parse("sk31 1200 0000 1987 4263 7541")
console.log(Result.isSuccess(iban) && iban.success) // SK3112000000198742637541
console.log(Result.isFailure(Iban.parse("SK3112000000198742637540"))) // true: wrong check digits

// Amounts are exact decimals: 0.1 + 0.2 is 0.3, and the wire value is the JSON number 0.3.
const amount = BigDecimal.sum(Money.parseUnsafe("0.1"), Money.parseUnsafe("0.2"))
const request = {
  instructionIdentification: "PIISP-0001",
  iban: "SK3112000000198742637541",
  amount: { value: amount, currency: "EUR" }
}
console.log(JSON.stringify(Schema.encodeUnknownSync(BalanceCheck.Request)(request)))
// {"instructionIdentification":"PIISP-0001","iban":"SK3112000000198742637541","amount":{"value":0.3,"currency":"EUR"}}

// The [12.2] format is enforced before sending, with a message that names the field.
const tooPrecise = Schema.encodeUnknownResult(BalanceCheck.Request)({
  ...request,
  amount: { value: Money.parseUnsafe("0.001"), currency: "EUR" }
})
console.log(Result.isFailure(tooPrecise) && tooPrecise.failure.message)
// amount has 3 decimals, at most 2 allowed
//   at ["amount"]["value"]
