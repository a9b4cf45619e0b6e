import { Currency, Iban, Money } from "@tppkit/core"
import { BankClient } from "@tppkit/http"
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { DateTime, Effect, Layer, Stream } from "effect"

// The whole client stack on Node, built from the configuration: here the sandbox's address and credentials.
// In production the settings come from TPPKIT_* variables instead: see the next example.
const Client = Layer.unwrap(
  Effect.map(Effect.service(Sandbox.SandboxInfo), (bank) =>
    BankClient.layerNodeFromOptions(
      { environment: "sandbox", baseUrl: bank.baseUrl, clientId: bank.clientId, clientSecret: bank.clientSecret },
      { budgetFile: "memory" } // or an SQLite file that keeps the daily budget across restarts
    )
  )
).pipe(Layer.provideMerge(Sandbox.layer()))

const program = Effect.gen(function* () {
  const client = yield* BankClient.BankClient
  // The customer's context comes with every call: a TPP serves many customers.
  const psu = {
    ipAddress: "203.0.113.7",
    deviceOs: "iOS 18",
    userAgent: "MyBudgetApp/2.1",
    lastLoggedTime: yield* DateTime.now // logged in just now: the customer is present
  }

  // Balance check (PIISP): the client fetches and caches the token, sends the headers of docs/bank-interface.md.
  const check = yield* client.balanceCheck(
    {
      instructionIdentification: "PIISP-0001",
      iban: Iban.parseUnsafe(Fixtures.ibans.eurBranch),
      amount: { value: Money.parseUnsafe("1250.50"), currency: Currency.EUR }
    },
    { psu }
  )
  console.log(check.body.response, "Response-ID", check.identity.responseId) // APPR Response-ID <uuid>

  // All standing orders, page by page (page size 100, one Process-ID); malformed records come back as errors.
  const pages = yield* Stream.runCollect(client.standingOrders({ psu }))
  for (const order of pages.flatMap((p) => p.body.orders).slice(0, 3)) {
    console.log(order.orderId, order.frequency, Money.formatFixed2(order.instructedAmount.value))
  }
  console.log("errors:", pages.flatMap((p) => p.body.errors).length) // errors: 0

  // Every failure is a BankError with a tagged reason, e.g. a 403 for an account without consent.
  const refused = yield* client
    .balanceCheck(
      {
        instructionIdentification: "PIISP-0002",
        iban: Iban.parseUnsafe(Fixtures.ibans.eurNoConsent),
        amount: { value: Money.parseUnsafe("1.00"), currency: Currency.EUR }
      },
      { psu }
    )
    .pipe(Effect.catchReason("BankError", "Forbidden", (reason) => Effect.succeed(`refused: ${reason._tag}`)))
  console.log(refused) // refused: Forbidden
})

await Effect.runPromise(program.pipe(Effect.provide(Client)))
