// Project two standing orders over the first half of 2026 with Slovak holidays, then total the cash flow.
import { LocalDate, Money, StandingOrder } from "@tppkit/core"
import { CashFlow, Coverage, Holidays, ICalendar, Projection } from "@tppkit/schedule"
import { BigDecimal, Effect, Result } from "effect"

const body = {
  standingOrders: [
    {
      orderId: "SO-RENT",
      debtor: { name: "Jana Novakova", iban: "SK3112000000198742637541" },
      creditor: { name: "Landlord s.r.o.", iban: "SK0809000000000123123123" },
      instructedAmount: { value: 650.1, currency: "EUR" },
      startDate: "2026-01-31",
      frequency: "MNTH"
    },
    {
      orderId: "SO-GYM",
      debtor: { name: "Jana Novakova", iban: "SK3112000000198742637541" },
      creditor: { iban: "SK0809000000000123123123" },
      instructedAmount: { value: 0.2, currency: "EUR" },
      nextDate: "2026-01-05",
      frequency: "WEEK"
    },
    { orderId: "SO-NODATE", frequency: "QUTR" } // malformed: reported, the others are still projected
  ]
}
const { orders, errors } = Result.getOrThrow(StandingOrder.decodeListLenient(body))

const sk = Holidays.nationalUnsafe("SK") // public holidays from date-holidays, O(1) lookups
const window = { from: LocalDate.parseUnsafe("2026-01-01"), to: LocalDate.parseUnsafe("2026-06-30") }
const { payments, skipped } = Projection.project(orders, window, { calendar: sk, convention: "following" })

for (const p of payments.slice(0, 4)) {
  console.log(`${LocalDate.format(p.executionDate)} ${p.orderId} ${Money.formatFixed2(p.amount)} ${p.currency}`)
}
const totals = CashFlow.totals(payments, { period: "month" })
for (const t of totals.byPeriod)
  console.log(`${t.label} ${Money.formatFixed2(t.amount)} ${t.currency} (${t.count} payments)`)
console.log(`total ${totals.byCurrency.map((t) => `${Money.formatFixed2(t.amount)} ${t.currency}`).join(", ")}`)
console.log(`skipped ${errors.length + skipped.length} order(s)`)

// 30 May 2026 is a Saturday: the rent moves to Monday 1 June. 26 × 0.20 + 6 × 650.10 is exactly 3905.80.
if (BigDecimal.format(totals.byCurrency[0]!.amount) !== "3905.8") throw new Error("unexpected total")

// funds check of the payments due in the next 7 working days (answer from a stub instead of the bank)
const report = Effect.runSync(
  Coverage.run(payments, {
    today: LocalDate.parseUnsafe("2026-05-25"),
    daysBefore: 7,
    calendar: sk,
    check: (p) => Effect.succeed(BigDecimal.isGreaterThan(p.amount, BigDecimal.fromNumberUnsafe(500)) ? "DECL" : "APPR")
  })
)
console.log(`at risk: ${report.atRisk.map((p) => `${p.orderId} on ${LocalDate.format(p.executionDate)}`).join(", ")}`)
console.log(ICalendar.fromPayments(payments.slice(0, 1)).split("\r\n").slice(6, 10).join("\n"))
