// When does an account go below its line? A balance ladder from the standing orders, an opening balance and a salary.
import { LocalDate } from "@tppkit/core"
import { Forecast } from "@tppkit/schedule"
import { BigDecimal, Result } from "effect"

const d = LocalDate.parseUnsafe
const money = BigDecimal.fromStringUnsafe
const CURRENT = "SK2411000000002612345678"
const order = (orderId: string, startDate: string, amount: string, debtor: string, creditor: string) => ({
  orderId,
  frequency: "MNTH" as const,
  startDate: d(startDate),
  instructedAmount: { value: money(amount), currency: "EUR" },
  debtor: { iban: debtor },
  creditor: { iban: creditor }
})
const input: Forecast.Input = {
  orders: [order("SO-RENT", "2026-01-31", "650.10", CURRENT, "SK6609000000005012345678")],
  // money in: an order whose creditor is one of the accounts (here a salary, as an expected flow)
  flows: [order("SALARY", "2026-01-28", "900.00", "DE89370400440532013000", CURRENT)],
  balances: [
    { iban: CURRENT, currency: "EUR", amount: money("300.00"), date: d("2027-01-01"), threshold: money("100") }
  ],
  window: { from: d("2027-01-01"), to: d("2027-03-31") }
}
const forecast = Result.getOrThrow(Forecast.make(input))
const account = forecast.accounts[0]!
console.log(`lowest ${BigDecimal.format(account.lowest.amount)} on ${LocalDate.format(account.lowest.date)}`)

// what if the salary of January comes five days late, after the rent of Monday 1 February?
const late = Result.getOrThrow(
  Forecast.scenario(input, {
    name: "salary late",
    changes: [{ _tag: "Delay", orderId: "SALARY", date: d("2027-01-28"), days: 5 }]
  })
)
for (const a of late.accounts) {
  for (const r of a.riskDaysAdded) {
    console.log(`${a.iban}: at risk ${LocalDate.format(r.date)}, closing ${BigDecimal.format(r.closing)}`)
  }
}
if (account.riskDays.length !== 0 || late.accounts[0]?.riskDaysAdded.length !== 1) throw new Error("unexpected")
