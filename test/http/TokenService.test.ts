import { assert, describe, it } from "@effect/vitest"
import { BankConfig, BankTransport, TokenService } from "@tppkit/http"
import { Deferred, Effect, Exit, Fiber, Layer, Logger, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { makeStub, malformedPath, options, SECRET, type Stub, stubClient, TOKEN_PREFIX, tokenAnswer } from "./stub.ts"

const layer = (stub: Stub, overrides: Partial<BankConfig.Options> = {}) =>
  TokenService.TokenService.layer.pipe(
    Layer.provide(BankTransport.BankTransport.layerHttpClient.pipe(Layer.provide(stubClient(stub)))),
    Layer.provide(BankConfig.BankConfig.layer({ ...options, ...overrides })),
    Layer.orDie
  )

const get = (scopes: ReadonlyArray<string> = ["PIISP"]) =>
  Effect.flatMap(Effect.service(TokenService.TokenService), (t) => t.get(scopes))

describe("TokenService", () => {
  it.effect("a new token after 1,140 s (1200 s lifetime minus the 60 s margin), none before", () => {
    const stub = makeStub()
    return Effect.gen(function* () {
      const first = yield* get()
      yield* TestClock.adjust("1139 seconds")
      const again = yield* get()
      assert.strictEqual(Redacted.value(again.value), Redacted.value(first.value))
      assert.strictEqual(stub.seen.length, 1)
      yield* TestClock.adjust("1 second")
      const renewed = yield* get()
      assert.strictEqual(stub.seen.length, 2)
      assert.strictEqual(Redacted.value(renewed.value), `${TOKEN_PREFIX}2`)
    }).pipe(Effect.provide(layer(stub)))
  })

  it.effect("a token carries its lifetime and its expiry instant by the Clock; the cached one keeps both", () => {
    const stub = makeStub()
    return Effect.gen(function* () {
      yield* TestClock.adjust("5000 millis")
      const first = yield* get()
      assert.strictEqual(first.expiresIn, 1200)
      assert.strictEqual(first.expiresAt, 5000 + 1_200_000)
      yield* TestClock.adjust("100 seconds")
      const cached = yield* get()
      assert.strictEqual(cached.expiresAt, 5000 + 1_200_000)
      assert.isUndefined(TokenService.fromSca("sandbox", Redacted.make("t")).expiresAt)
    }).pipe(Effect.provide(layer(stub)))
  })

  it.effect("expires_in as a numeric string; tokens are cached per scope set", () => {
    const stub = makeStub()
    stub.handler = () => tokenAnswer(++stub.tokens.count, "1200")
    return Effect.gen(function* () {
      yield* get(["PIISP"])
      yield* get(["AISP"])
      yield* get(["AISP", "PIISP"])
      yield* get(["PIISP", "AISP"])
      yield* get(["AISP"])
      assert.deepStrictEqual(
        stub.seen.map((s) => new URLSearchParams(s.body).get("scope")),
        ["PIISP", "AISP", "AISP PIISP"]
      )
    }).pipe(Effect.provide(layer(stub)))
  })

  it.effect("invalidate forces a new request", () => {
    const stub = makeStub()
    return Effect.gen(function* () {
      const tokens = yield* TokenService.TokenService
      yield* tokens.get(["PIISP"])
      yield* tokens.invalidate(["PIISP"])
      yield* tokens.get(["PIISP"])
      assert.strictEqual(stub.seen.length, 2)
    }).pipe(Effect.provide(layer(stub)))
  })

  it.effect("a refused secret: OAuth error decoded, failure not cached, secret never in message or logs", () => {
    const stub = makeStub()
    stub.handler = () => ({
      status: 401,
      body: { error: "invalid_client", error_description: "client authentication failed" }
    })
    const lines: Array<string> = []
    const logger = Logger.make((o) => {
      lines.push(`${String(o.message)} ${JSON.stringify(o.message)} ${String(o.cause)}`)
    })
    return Effect.gen(function* () {
      const exit = yield* Effect.exit(get())
      assert.isTrue(Exit.isFailure(exit))
      yield* Effect.logError("token failed", exit)
      yield* Effect.exit(get())
      assert.strictEqual(stub.seen.length, 2)
      const text = `${String(exit)} ${JSON.stringify(exit)} ${lines.join("\n")}`
      assert.include(text, "invalid_client")
      assert.notInclude(text, SECRET)
      if (Exit.isFailure(exit)) {
        const reason = exit.cause.reasons[0]
        if (reason?._tag === "Fail") {
          assert.strictEqual(reason.error.reason._tag, "Unauthorized")
          assert.notInclude(reason.error.message, SECRET)
        }
      }
    }).pipe(Effect.provide(Layer.merge(layer(stub), Logger.layer([logger]))))
  })

  it.effect("a token never appears in messages, JSON or logs", () => {
    const stub = makeStub()
    const lines: Array<string> = []
    const logger = Logger.make((o) => lines.push(String(o.message)))
    return Effect.gen(function* () {
      const token = yield* get()
      yield* Effect.log("got", token)
      const text = `${String(token.value)} ${JSON.stringify(token)} ${lines.join("\n")} ${String(TokenService.authorization(token))}`
      assert.notInclude(text, TOKEN_PREFIX)
    }).pipe(Effect.provide(Layer.merge(layer(stub), Logger.layer([logger]))))
  })

  it.effect("a malformed token response is a MalformedResponse naming the field", () => {
    const stub = makeStub()
    stub.handler = () => ({ status: 200, body: { access_token: "x", token_type: "Bearer", expires_in: "soon" } })
    return Effect.gen(function* () {
      assert.strictEqual(malformedPath(yield* Effect.exit(get())), "expires_in")
    }).pipe(Effect.provide(layer(stub)))
  })
  it.effect("a token requested before an invalidate is not handed out after it", () => {
    const stub = makeStub()
    const answer = Deferred.makeUnsafe<void>()
    stub.handler = () => Effect.as(Deferred.await(answer), tokenAnswer(++stub.tokens.count))
    return Effect.gen(function* () {
      const service = yield* TokenService.TokenService
      const pending = yield* Effect.forkChild(service.get(["PIISP"]))
      yield* Effect.yieldNow
      // the bank refused a token of this scope set meanwhile (a 401 elsewhere)
      yield* service.invalidate(["PIISP"])
      yield* Deferred.succeed(answer, undefined)
      const first = yield* Fiber.join(pending)
      assert.strictEqual(Redacted.value(first.value), `${TOKEN_PREFIX}1`)
      const next = yield* service.get(["PIISP"])
      assert.strictEqual(Redacted.value(next.value), `${TOKEN_PREFIX}2`)
      assert.strictEqual(stub.seen.length, 2)
    }).pipe(Effect.provide(layer(stub)))
  })
})
