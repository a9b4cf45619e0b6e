/** The http client against the mock bank over real loopback HTTP. */
import { assert, describe, it } from "@effect/vitest"
import { type BalanceCheck, type Currency, Iban, Money } from "@tppkit/core"
import { BankClient, type BankError } from "@tppkit/http"
import { Fixtures, Journal, Sandbox } from "@tppkit/sandbox"
import { DateTime, Effect, Exit, Layer, Stream } from "effect"

const psu = { ipAddress: "203.0.113.7", deviceOs: "iOS 18", userAgent: "tppkit-integration/1.0" }

const stack = (options: Sandbox.Options = {}) => {
  const client = Layer.unwrap(
    Effect.map(Effect.service(Sandbox.SandboxInfo), (info) =>
      BankClient.layerNodeFromOptions(
        {
          environment: "sandbox",
          baseUrl: info.baseUrl,
          clientId: info.clientId,
          clientSecret: info.clientSecret,
          retry: { maxAttempts: 3, baseDelay: "10 millis", maxDelay: "50 millis" }
        },
        { budgetFile: "memory" }
      )
    )
  )
  return client.pipe(Layer.provideMerge(Sandbox.layer(options)), Layer.orDie)
}

const request = (iban: string, amount: string, currency = "EUR"): BalanceCheck.Request => ({
  instructionIdentification: `it-${amount}`,
  iban: Iban.parseUnsafe(iban),
  amount: { value: Money.parseUnsafe(amount), currency: currency as Currency.CurrencyCode }
})

const failure = <A>(exit: Exit.Exit<A, BankError.BankError>): BankError.BankError => {
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const e = exit.cause.reasons.find((r) => r._tag === "Fail")
  if (e === undefined || e._tag !== "Fail") throw new Error(`expected a typed failure: ${String(exit.cause)}`)
  return e.error
}

describe("http client against the sandbox", () => {
  it.live("balance check: APPR, DECL, and the headers the bank received", () =>
    Effect.gen(function* () {
      const client = yield* BankClient.BankClient
      const ok = yield* client.balanceCheck(request(Fixtures.ibans.eurBranch, "10.00"), {
        psu: { ...psu, geoLocation: "48.1486, 17.1077" },
        correlationId: "corr-it"
      })
      assert.strictEqual(ok.body.response, "APPR")
      assert.isDefined(ok.identity.responseId)
      const declined = yield* client.balanceCheck(request(Fixtures.ibans.eurBranch, "999999999999.99"), { psu })
      assert.strictEqual(declined.body.response, "DECL")
      const journal = yield* Journal.Journal
      const entries = yield* journal.entries
      const check = entries.find((e) => e.path.endsWith("/balanceCheck"))
      assert.isDefined(check)
      for (const name of [
        "request-id",
        "correlation-id",
        "psu-ip-address",
        "psu-device-os",
        "psu-user-agent",
        "psu-geolocation"
      ]) {
        assert.property(check?.headers ?? {}, name)
      }
      assert.strictEqual(check?.headers["content-type"], "application/json;charset=UTF-8")
      assert.strictEqual(check?.headers["correlation-id"], "corr-it")
      // one token for both checks
      assert.strictEqual(entries.filter((e) => e.path.endsWith("/connect/token")).length, 1)
    }).pipe(Effect.provide(stack()))
  )

  for (const dialect of ["problem", "berlin-group", "cz-sk"] as const) {
    it.live(`no consent is a 403 Forbidden with the ${dialect} body decoded`, () =>
      Effect.gen(function* () {
        const client = yield* BankClient.BankClient
        const error = failure(
          yield* Effect.exit(client.balanceCheck(request(Fixtures.ibans.eurNoConsent, "1.00"), { psu }))
        )
        assert.strictEqual(error.reason._tag, "Forbidden")
        if (error.reason._tag === "Forbidden") {
          const expected = { problem: "Problem", "berlin-group": "TppMessages", "cz-sk": "Errors" }[dialect]
          assert.strictEqual(error.reason.body._tag, expected)
        }
        assert.isDefined(error.identity.requestId)
        assert.notInclude(error.message, Fixtures.defaultClient.clientSecret)
      }).pipe(Effect.provide(stack({ errorDialect: dialect })))
    )
  }

  it.live("all pages of standing orders with the customer present; one Process-ID", () =>
    Effect.gen(function* () {
      const client = yield* BankClient.BankClient
      const now = yield* DateTime.now
      const pages = yield* Stream.runCollect(
        client.standingOrders({ psu: { ...psu, lastLoggedTime: now }, pageSize: 10 })
      )
      assert.isAtLeast(pages.length, 1)
      const orders = pages.flatMap((p) => p.body.orders)
      assert.isAtLeast(orders.length, 1)
      assert.strictEqual(new Set(pages.map((p) => p.identity.processId)).size, 1)
      const journal = yield* Journal.Journal
      const listings = (yield* journal.entries).filter((e) => e.path.endsWith("/standingOrder"))
      assert.strictEqual(listings.length, pages.length)
      assert.strictEqual(new Set(listings.map((e) => e.headers["process-id"])).size, 1)
    }).pipe(Effect.provide(stack({ pageCountAsString: true })))
  )

  it.live("the fifth unattended listing is refused by the client before the bank sees it", () =>
    Effect.gen(function* () {
      const client = yield* BankClient.BankClient
      const journal = yield* Journal.Journal
      for (let i = 0; i < 4; i++) yield* client.standingOrdersPage({ psu, pageSize: 10 })
      const before = (yield* journal.entries).length
      const error = failure(yield* Effect.exit(client.standingOrdersPage({ psu, pageSize: 10 })))
      assert.strictEqual(error.reason._tag, "BudgetExhausted")
      assert.strictEqual((yield* journal.entries).length, before)
    }).pipe(Effect.provide(stack()))
  )
})
