// An application outside this repository, as the pack test installs it: the packed tarballs from npm's point of
// view, effect beside them, type-checked under `strict` and `exactOptionalPropertyTypes`, then run on Node.
// It projects a standing order over a quarter and asks the mock bank for a balance check through the client.
import { Currency, Iban, LocalDate, Money, StandingOrder } from "@tppkit/core"
import { BankClient } from "@tppkit/http"
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { CashFlow, Projection } from "@tppkit/schedule"
import * as Worker from "@tppkit/worker"
import { BigDecimal, Effect, Layer, Result } from "effect"

// The projection: a rent due on the last day of each month. 31 January and 28 February 2027 are Sundays, so
// under the TARGET calendar (the default) those payments move to the Monday after.
const { orders } = Result.getOrThrow(
  StandingOrder.decodeListLenient({
    standingOrders: [
      {
        orderId: "SO-RENT",
        debtor: { name: "Jana Novakova", iban: "SK2411000000002612345678" },
        creditor: { name: "Landlord s.r.o.", iban: "SK6609000000005012345678" },
        instructedAmount: { value: 700.5, currency: "EUR" },
        startDate: "2026-10-31",
        frequency: "MNTH"
      }
    ]
  })
)
const window = { from: LocalDate.parseUnsafe("2027-01-01"), to: LocalDate.parseUnsafe("2027-03-31") }
const { payments } = Projection.project(orders, window)
const total = CashFlow.totals(payments, { period: "month" }).byCurrency[0]
console.log(`projection: ${payments.map((p) => LocalDate.format(p.executionDate)).join(" ")}`)
console.log(`total: ${total === undefined ? "none" : `${BigDecimal.format(total.amount)} ${total.currency}`}`)

// A balance check against the mock bank on a loopback port, through the whole client stack on Node.
const Client = Layer.unwrap(
  Effect.map(Effect.service(Sandbox.SandboxInfo), (bank) =>
    BankClient.layerNodeFromOptions(
      { environment: "sandbox", baseUrl: bank.baseUrl, clientId: bank.clientId, clientSecret: bank.clientSecret },
      { budgetFile: "memory" }
    )
  )
).pipe(Layer.provideMerge(Sandbox.layer()))

const answer = await Effect.runPromise(
  Effect.gen(function* () {
    const client = yield* BankClient.BankClient
    const check = yield* client.balanceCheck(
      {
        instructionIdentification: "PACK-0001",
        iban: Iban.parseUnsafe(Fixtures.ibans.eurBranch),
        amount: { value: Money.parseUnsafe("100.00"), currency: Currency.EUR }
      },
      { psu: { ipAddress: "203.0.113.7", deviceOs: "Linux", userAgent: "pack-test/1.0" } }
    )
    return check.body.response
  }).pipe(Effect.provide(Client))
)
console.log(`balance check: ${answer}`)

// The worker package loads without starting anything (its database driver and embedded PostgreSQL load on use).
console.log(`worker: ${Object.keys(Worker).includes("Fleet") ? "loaded" : "missing Fleet"}`)
