// Plan a day's funds checks for one standing order and run each as a durable workflow (in memory here; a fleet
// runs the same workflows on effect's cluster with PostgreSQL). Started twice, a payment is still checked once.
import { Calendar, LocalDate, Money, StandingOrder } from "@tppkit/core"
import { Checks, FundsCheckWorkflow, Sweep } from "@tppkit/worker"
import { BigDecimal, Effect, Layer, Result } from "effect"
import { WorkflowEngine } from "effect/workflow"

const order = Result.getOrThrow(
  StandingOrder.decode({
    orderId: "SO-RENT",
    debtor: { name: "Jana Novakova", iban: "SK3112000000198742637541" },
    creditor: { iban: "SK0809000000000123123123" },
    instructedAmount: { value: 650.1, currency: "EUR" },
    startDate: "2026-01-02",
    frequency: "WEEK"
  })
)

// Friday 2026-02-27, two working days ahead (TARGET calendar: up to Tuesday 3 March): the Friday payment
const due = Sweep.plan([order], "my-consent", LocalDate.parseUnsafe("2026-02-27"), {
  daysBefore: 2,
  calendar: Calendar.target,
  timeZone: "Europe/Bratislava",
  hour: 8
})

// a stand-in for the bank's balance check: enough funds below 500 (a payment's amount is an exact BigDecimal)
const limit = BigDecimal.fromNumberUnsafe(500)
const bank = Layer.succeed(FundsCheckWorkflow.BalanceChecker)({
  check: (payment) =>
    Effect.succeed({ answer: BigDecimal.isLessThan(payment.amount, limit) ? "APPR" : "DECL", requestId: "demo" })
})

const program = Effect.gen(function* () {
  for (const payment of [...due, ...due]) yield* FundsCheckWorkflow.FundsCheck.execute(payment)
  const rows = yield* Checks.Checks.use((checks) => checks.list())
  for (const r of rows) {
    const amount = `${Money.formatFixed2(r.amount)} ${r.currency}`
    console.log(`${LocalDate.format(r.executionDate)} ${r.orderId} ${amount} ${r.outcome} (${r.attempts} attempt)`)
  }
})

await Effect.runPromise(
  program.pipe(
    Effect.provide(
      FundsCheckWorkflow.layer.pipe(
        Layer.provideMerge(WorkflowEngine.layerMemory),
        Layer.provideMerge(Checks.Checks.layerMemory),
        Layer.provide(bank)
      )
    )
  )
)
