// In production the client stack reads its settings from TPPKIT_* environment variables (the list above).
import { Currency, Iban, Money } from "@tppkit/core"
import { BankClient, BankConfig } from "@tppkit/http"
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { ConfigProvider, Effect, Layer, Redacted } from "effect"

// The stack of a service; the daily budget is counted in memory unless `{ budgetFile }` names an SQLite file.
const BankLive = BankClient.BankClient.layerNode(BankConfig.BankConfig.layerConfig)

// Here the "environment" is a record pointing at the mock bank instead of process.env.
const Environment = Layer.unwrap(
  Effect.map(Effect.service(Sandbox.SandboxInfo), (bank) =>
    ConfigProvider.layer(
      ConfigProvider.fromUnknown({
        TPPKIT_ENVIRONMENT: "sandbox",
        TPPKIT_BASE_URL: bank.baseUrl,
        TPPKIT_CLIENT_ID: bank.clientId,
        TPPKIT_CLIENT_SECRET: Redacted.value(bank.clientSecret)
      })
    )
  )
)

const answer = await Effect.runPromise(
  Effect.gen(function* () {
    const client = yield* BankClient.BankClient
    const check = yield* client.balanceCheck(
      {
        instructionIdentification: "PIISP-0003",
        iban: Iban.parseUnsafe(Fixtures.ibans.eurBranch),
        amount: { value: Money.parseUnsafe("99.90"), currency: Currency.EUR }
      },
      { psu: { ipAddress: "203.0.113.7", deviceOs: "Android 15", userAgent: "MyBudgetApp/2.1" } }
    )
    return check.body.response
  }).pipe(Effect.provide(BankLive.pipe(Layer.provide(Environment), Layer.provide(Sandbox.layer()))))
)
console.log(answer) // APPR
