/**
 * The client against a bank that misbehaves on purpose (the hostile loopback server of `hostile.ts`): every
 * answer ends in a success or a typed `BankError` naming the operation, the request and the attempts, within a
 * short real deadline and bounded memory.
 */
import { assert, describe, it } from "@effect/vitest"
import { type BalanceCheck, Currency, Iban, Money } from "@tppkit/core"
import { BankClient, BankConfig, type BankError, BankTransport, TokenService } from "@tppkit/http"
import { Effect, Exit, Layer, Redacted } from "effect"
import { type Behaviour, endlessJson, type Hostile, hostile } from "./hostile.ts"
import { failure, psu } from "./stub.ts"

const request: BalanceCheck.Request = {
  instructionIdentification: "instr-1",
  iban: Iban.parseUnsafe("SK31 1200 0000 1987 4263 7541"),
  amount: { value: Money.parseUnsafe("10.00"), currency: Currency.EUR }
}

const tokenOk: Behaviour = {
  _tag: "respond",
  status: 200,
  body: JSON.stringify({ access_token: "tok-1", token_type: "Bearer", expires_in: 1200 })
}
const approved: Behaviour = {
  _tag: "respond",
  status: 200,
  body: JSON.stringify({ response: "APPR", dateTime: "2026-11-21T10:00:00+01:00" })
}

/** Tokens are answered well; the API path gets `api(n)` where n counts API requests from 1. */
const bank = (api: (n: number) => Behaviour) => {
  let calls = 0
  return (req: { path: string }): Behaviour => (req.path.endsWith("/connect/token") ? tokenOk : api(++calls))
}

/** The whole Node stack (undici transport) against the hostile server. */
const client = (server: Hostile, overrides: Partial<BankConfig.Options> = {}) =>
  BankClient.BankClient.layerOver(
    BankConfig.BankConfig.layer({
      environment: "sandbox",
      baseUrl: server.baseUrl,
      clientId: "tpp",
      clientSecret: Redacted.make("secret"),
      requestTimeout: "2 seconds",
      retry: { maxAttempts: 3, baseDelay: "10 millis", maxDelay: "50 millis", maxElapsed: "5 seconds" },
      ...overrides
    }),
    BankTransport.BankTransport.layerUndici({ maxHeaderBytes: overrides.limits?.maxHeaderBytes ?? 32768 })
  ).pipe(Layer.orDie)

const check = Effect.flatMap(Effect.service(BankClient.BankClient), (c) => c.balanceCheck(request, { psu }))
const page = Effect.flatMap(Effect.service(BankClient.BankClient), (c) =>
  c.standingOrdersPage({ psu: { ...psu, lastLoggedTime: new Date().toISOString() } })
)
const token = Effect.flatMap(Effect.service(TokenService.TokenService), (t) => t.get(["AISP"]))

/** Runs `effect` against a hostile server and returns its exit, the elapsed time and the server. */
const against = <A, E>(
  script: (req: { path: string }, n: number) => Behaviour,
  effect: Effect.Effect<A, E, BankClient.BankClient | TokenService.TokenService>,
  overrides: Partial<BankConfig.Options> = {}
) =>
  Effect.scoped(
    Effect.gen(function* () {
      const server = yield* hostile(script, { lifetimeMs: 20_000, maxRequests: 50 })
      const started = Date.now()
      const exit = yield* Effect.exit(Effect.provide(effect, client(server, overrides)))
      return { exit, ms: Date.now() - started, server }
    })
  )

/** The reason of a too-large answer as plain fields. */
const tooLarge = (e: BankError.BankError) =>
  e.reason._tag === "ResponseTooLarge" ? { part: e.reason.part, limit: e.reason.limit } : e.reason._tag

const apiRequests = (server: Hostile) => server.received.filter((r) => !r.path.endsWith("/connect/token")).length

describe("BankClient against a hostile bank", () => {
  it.live("an endless body is aborted at the body limit: ResponseTooLarge, bounded time and memory", () =>
    Effect.gen(function* () {
      globalThis.gc?.()
      const before = process.memoryUsage()
      const { exit, ms, server } = yield* against(
        bank(() => endlessJson),
        check
      )
      const after = process.memoryUsage()
      const e = failure(exit)
      assert.deepStrictEqual(tooLarge(e), { part: "body", limit: 4 << 20 })
      assert.match(
        e.message,
        /^balance check POST \/piisp-test\/api\/v1\/accounts\/balanceCheck: the answer's body passed the limit of 4 MiB/
      )
      // not retried: a too-large answer would be as large again
      assert.strictEqual(apiRequests(server), 1)
      assert.isBelow(ms, 10_000)
      // generous: the limit is 4 MiB; without it the body grows without end
      assert.isBelow(after.rss - before.rss, 150 << 20)
      assert.isBelow(after.heapUsed - before.heapUsed, 100 << 20)
    })
  )

  it.live("a configured body limit, and a declared Content-Length past it refused before the body", () =>
    Effect.gen(function* () {
      const big = JSON.stringify({ response: "APPR", dateTime: "2026-11-21T10:00:00+01:00", pad: "x".repeat(5000) })
      const { exit } = yield* against(
        bank(() => ({ _tag: "respond", status: 200, body: big })),
        check,
        { limits: { maxBodyBytes: 4096 } }
      )
      assert.deepStrictEqual(tooLarge(failure(exit)), { part: "body", limit: 4096 })
      const lying = yield* against(
        bank(() => ({ _tag: "respond", status: 200, body: "{}", contentLength: 1 << 30 })),
        check
      )
      assert.deepStrictEqual(tooLarge(failure(lying.exit)), { part: "body", limit: 4 << 20 })
    })
  )

  it.live("oversized headers are ResponseTooLarge of the headers, not 'cannot reach'", () =>
    Effect.gen(function* () {
      const { exit } = yield* against(
        bank(() => ({ _tag: "hugeHeaders", status: 200, bytes: 100_000 })),
        check
      )
      const e = failure(exit)
      assert.deepStrictEqual(tooLarge(e), { part: "headers", limit: 32768 })
      assert.include(e.message, "headers passed the limit of 32 KiB")
    })
  )

  it.live("a body cut short is 'truncated', retried, and the message names path and attempts", () =>
    Effect.gen(function* () {
      const cut: Behaviour = { _tag: "respond", status: 200, body: '{"response":"AP', contentLength: 200 }
      const { exit, server } = yield* against(
        bank(() => cut),
        check
      )
      const e = failure(exit)
      assert.strictEqual(e.reason._tag === "TransportFailure" && e.reason.kind, "truncated")
      assert.strictEqual(apiRequests(server), 3)
      assert.match(
        e.message,
        /^balance check POST \/piisp-test\/api\/v1\/accounts\/balanceCheck: the answer ended before its body was complete \(15 bytes received.*\) \(3 attempts\)/
      )
      // a truncation that heals on the second attempt is a success
      const healed = yield* against(
        bank((n) => (n === 1 ? cut : approved)),
        check
      )
      assert.isTrue(Exit.isSuccess(healed.exit))
    })
  )

  it.live("a bank that never answers: a timeout naming the limit and the attempts, in bounded time", () =>
    Effect.gen(function* () {
      const { exit, ms, server } = yield* against(
        bank(() => ({ _tag: "hang" })),
        check,
        { requestTimeout: "200 millis", retry: { maxAttempts: 2, baseDelay: "10 millis", maxDelay: "10 millis" } }
      )
      const e = failure(exit)
      assert.match(
        e.message,
        /^balance check POST \/piisp-test\/api\/v1\/accounts\/balanceCheck: no answer within 200 ms \(2 attempts\) \[Request-ID /
      )
      assert.strictEqual(apiRequests(server), 2)
      assert.isBelow(ms, 3000)
    })
  )

  it.live("resets and 502/503/504/429 are retried; a reset that persists says so", () =>
    Effect.gen(function* () {
      for (const bad of [
        { _tag: "reset" } as const,
        { _tag: "respond", status: 503, body: "" } as const,
        { _tag: "respond", status: 429, headers: { "retry-after": "0" }, body: "" } as const
      ]) {
        const { exit, server } = yield* against(
          bank((n) => (n < 3 ? bad : approved)),
          check
        )
        assert.isTrue(Exit.isSuccess(exit), bad._tag)
        assert.strictEqual(apiRequests(server), 3)
      }
      const { exit } = yield* against(
        bank(() => ({ _tag: "reset" })),
        check
      )
      const e = failure(exit)
      assert.strictEqual(e.reason._tag === "TransportFailure" && e.reason.kind, "reset")
      assert.include(e.message, "(3 attempts)")
    })
  )

  it.live("an absurd Retry-After is not waited for", () =>
    Effect.gen(function* () {
      const { exit, ms } = yield* against(
        bank(() => ({ _tag: "respond", status: 429, headers: { "retry-after": "99999999999" }, body: "" })),
        check
      )
      const e = failure(exit)
      assert.strictEqual(e.reason._tag, "TooManyRequests")
      assert.strictEqual(e.reason._tag === "TooManyRequests" && e.reason.retryAfterSeconds, undefined)
      assert.isBelow(ms, 3000)
    })
  )

  it.live("a 200 whose body is an error is a MalformedResponse carrying the error, never an empty list", () =>
    Effect.gen(function* () {
      const problem = JSON.stringify({ type: "about:blank", title: "Forbidden", status: 403, code: "CONSENT_MISSING" })
      for (const body of [
        problem,
        JSON.stringify({ error: "invalid_token", error_description: "expired" }),
        JSON.stringify({ tppMessages: [{ category: "ERROR", code: "CONSENT_UNKNOWN" }] }),
        JSON.stringify({ errors: [{ error: "CONSENT_MISSING" }] })
      ]) {
        const { exit, server } = yield* against(
          bank(() => ({ _tag: "respond", status: 200, body })),
          page
        )
        const e = failure(exit)
        assert.strictEqual(e.reason._tag, "MalformedResponse", body)
        assert.notStrictEqual(e.reason._tag === "MalformedResponse" && e.reason.error?._tag, undefined)
        assert.include(e.message, "a success status with an error body")
        // not retried
        assert.strictEqual(apiRequests(server), 1)
      }
      const balance = yield* against(
        bank(() => ({ _tag: "respond", status: 200, body: problem })),
        check
      )
      const e = failure(balance.exit)
      assert.strictEqual(e.reason._tag === "MalformedResponse" && e.reason.error?._tag, "Problem")
      assert.include(e.message, "CONSENT_MISSING: Forbidden")
    })
  )

  it.live("a non-JSON or too deeply nested 200 is a MalformedResponse", () =>
    Effect.gen(function* () {
      for (const [body, detail] of [
        ["<html>hello</html>", "the body is not JSON"],
        ["", "the body is empty"],
        [`${"[".repeat(100_000)}${"]".repeat(100_000)}`, "JSON nested deeper than 32 levels"]
      ] as const) {
        const { exit } = yield* against(
          bank(() => ({ _tag: "respond", status: 200, body })),
          check
        )
        const e = failure(exit)
        assert.strictEqual(e.reason._tag === "MalformedResponse" && e.reason.detail, detail)
      }
    })
  )

  it.live("token responses: lifetime, type and token checked with clear messages; no RangeError", () =>
    Effect.gen(function* () {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ access_token: "t", token_type: "Bearer", expires_in: 0 }, "expires_in"],
        [{ access_token: "t", token_type: "Bearer", expires_in: -5 }, "expires_in"],
        [{ access_token: "t", token_type: "Bearer", expires_in: 0.5 }, "expires_in"],
        [{ access_token: "t", token_type: "Bearer", expires_in: 1e308 }, "expires_in"],
        [{ access_token: "t", token_type: "Bearer", expires_in: "soon" }, "expires_in"],
        [{ access_token: "", token_type: "Bearer", expires_in: 1200 }, "access_token"],
        [{ access_token: "a\nb", token_type: "Bearer", expires_in: 1200 }, "access_token"],
        [{ token_type: "Bearer", expires_in: 1200 }, "access_token"],
        [{ access_token: "t", token_type: "mac", expires_in: 1200 }, "token_type"],
        [{ error: "invalid_client" }, "access_token"]
      ]
      for (const [body, path] of cases) {
        const { exit } = yield* against(() => ({ _tag: "respond", status: 200, body: JSON.stringify(body) }), token)
        const e = failure(exit)
        assert.strictEqual(e.reason._tag === "MalformedResponse" && e.reason.path, path, JSON.stringify(body))
        assert.match(e.message, /^token request POST \/identity-server-test\/connect\/token: /)
        assert.notInclude(e.message, "RangeError")
      }
      const missing = yield* against(
        () => ({ _tag: "respond", status: 200, body: JSON.stringify({ access_token: "t", token_type: "bearer" }) }),
        token
      )
      assert.isTrue(Exit.isSuccess(missing.exit))
      if (Exit.isSuccess(missing.exit)) {
        assert.strictEqual(missing.exit.value.expiresIn, 1200)
        assert.strictEqual(missing.exit.value.tokenType, "Bearer")
      }
    })
  )
})
