import { assert, describe, it } from "@effect/vitest"
import { type BalanceCheck, Currency, Iban, Money, Timestamp } from "@tppkit/core"
import { BankClient, BankConfig } from "@tppkit/http"
import { type Duration, Effect, Exit, Fiber, Redacted, Stream, Tracer } from "effect"
import { TestClock } from "effect/testing"
import {
  apiCalls,
  failure,
  makeStub,
  malformedPath,
  okBalance,
  psu,
  SECRET,
  type Stub,
  stack,
  stubAnswering,
  TOKEN_PREFIX,
  tokenAnswer,
  wireOrder
} from "./stub.ts"

const IBAN = Iban.parseUnsafe("SK31 1200 0000 1987 4263 7541")

const request: BalanceCheck.Request = {
  instructionIdentification: "instr-1",
  iban: IBAN,
  amount: { value: Money.parseUnsafe("1250.50"), currency: Currency.EUR }
}

const check = (options: Partial<BankClient.CallOptions> = {}) =>
  Effect.flatMap(Effect.service(BankClient.BankClient), (c) => c.balanceCheck(request, { psu, ...options }))

/** A tracer that keeps every span it makes. */
const recordingTracer = () => {
  const spans: Array<Tracer.NativeSpan> = []
  const tracer = Tracer.make({
    span: (options) => {
      const span = new Tracer.NativeSpan(options)
      spans.push(span)
      return span
    }
  })
  return { spans, tracer }
}

const tokenCalls = (stub: Stub) => stub.seen.filter((s) => s.path.endsWith("/connect/token"))

/** Advances the TestClock in steps until the fiber is done. */
const drive = <A, E>(fiber: Fiber.Fiber<A, E>, step: Duration.Input = "100 millis", max = 1000) =>
  Effect.gen(function* () {
    for (let i = 0; i < max && fiber.pollUnsafe() === undefined; i++) {
      yield* TestClock.adjust(step)
      yield* Effect.yieldNow
    }
    return yield* Fiber.await(fiber)
  })

describe("BankClient.balanceCheck", () => {
  it.effect("sends the headers of section 4.2 exactly, and returns Response-ID and echoed IDs", () => {
    const stub = makeStub()
    return Effect.gen(function* () {
      const reply = yield* check({ correlationId: "corr-1" })
      assert.strictEqual(reply.body.response, "APPR")
      const [token, api] = stub.seen
      assert.strictEqual(token?.path, "/identity-server-test/connect/token")
      assert.strictEqual(token?.headers["content-type"], "application/x-www-form-urlencoded;charset=UTF-8")
      const form = new URLSearchParams(token?.body)
      assert.deepStrictEqual([...form.keys()].sort(), ["client_id", "client_secret", "grant_type", "scope"])
      assert.strictEqual(form.get("grant_type"), "client_credentials")
      assert.strictEqual(form.get("client_secret"), SECRET)
      assert.strictEqual(form.get("scope"), "PIISP")
      assert.strictEqual(api?.path, "/piisp-test/api/v1/accounts/balanceCheck")
      assert.deepStrictEqual(Object.keys(api?.headers ?? {}).sort(), [
        "authorization",
        "content-length",
        "content-type",
        "correlation-id",
        "psu-device-os",
        "psu-ip-address",
        "psu-user-agent",
        "request-id"
      ])
      assert.strictEqual(api?.headers["content-type"], "application/json;charset=UTF-8")
      assert.strictEqual(api?.headers.authorization, `Bearer ${TOKEN_PREFIX}1`)
      assert.match(
        api?.headers["request-id"] ?? "",
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
      )
      assert.strictEqual(api?.headers["correlation-id"], "corr-1")
      assert.deepStrictEqual(JSON.parse(api?.body ?? ""), {
        instructionIdentification: "instr-1",
        iban: "SK3112000000198742637541",
        amount: { value: 1250.5, currency: "EUR" }
      })
      assert.strictEqual(reply.identity.responseId, api?.headers["request-id"])
      assert.strictEqual(reply.identity.correlationId, "corr-1")
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("sends the optional PSU headers under the document's names; a bad date-time is refused", () => {
    const stub = makeStub()
    return Effect.gen(function* () {
      const bad = failure(yield* Effect.exit(check({ psu: { ...psu, lastLoggedTime: "yesterday" } })))
      assert.strictEqual(bad.reason._tag, "InvalidRequest")
      assert.strictEqual(stub.seen.length, 0)
      const lastLoggedTime = Timestamp.parseUnsafe("2026-11-21T09:00:00+01:00")
      yield* check({ psu: { ...psu, geoLocation: "48.1486, 17.1077", lastLoggedTime } })
      const headers = apiCalls(stub)[0]?.headers ?? {}
      assert.strictEqual(headers["psu-geolocation"], "48.1486, 17.1077")
      assert.strictEqual(headers["psu-last-logged-time"], "2026-11-21T09:00:00+01:00")
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("1,000 concurrent balance checks share exactly 1 token request", () => {
    const stub = makeStub()
    return Effect.gen(function* () {
      const replies = yield* Effect.all(
        Array.from({ length: 1000 }, () => check()),
        { concurrency: "unbounded" }
      )
      assert.strictEqual(replies.length, 1000)
      assert.strictEqual(tokenCalls(stub).length, 1)
      assert.strictEqual(apiCalls(stub).length, 1000)
      assert.strictEqual(new Set(apiCalls(stub).map((s) => s.headers["request-id"])).size, 1000)
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("a 401 discards the token, fetches one new token and retries once", () => {
    let api = 0
    const stub = stubAnswering(() => {
      api++
      return api === 1
        ? { status: 401, body: { type: "about:blank", title: "Unauthorized", status: 401, code: "invalid_token" } }
        : { status: 200, body: { response: "DECL", dateTime: "2026-11-21T10:00:00Z" } }
    })
    return Effect.gen(function* () {
      const reply = yield* check()
      assert.strictEqual(reply.body.response, "DECL")
      assert.strictEqual(tokenCalls(stub).length, 2)
      const calls = apiCalls(stub)
      assert.strictEqual(calls.length, 2)
      assert.strictEqual(calls[0]?.headers.authorization, `Bearer ${TOKEN_PREFIX}1`)
      assert.strictEqual(calls[1]?.headers.authorization, `Bearer ${TOKEN_PREFIX}2`)
      assert.strictEqual(calls[0]?.headers["correlation-id"], calls[1]?.headers["correlation-id"])
      assert.notStrictEqual(calls[0]?.headers["request-id"], calls[1]?.headers["request-id"])
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("a second 401 is not retried again", () => {
    const stub = stubAnswering(() => ({ status: 401, body: "" }))
    return Effect.gen(function* () {
      const error = failure(yield* Effect.exit(check()))
      assert.strictEqual(error.reason._tag, "Unauthorized")
      assert.strictEqual(apiCalls(stub).length, 2)
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("503 twice then success: retried with the same Correlation-ID", () => {
    let api = 0
    const stub = stubAnswering(() => {
      return ++api <= 2
        ? { status: 503, body: "busy" }
        : { status: 200, body: { response: "APPR", dateTime: "2026-11-21T10:00:00Z" } }
    })
    return Effect.gen(function* () {
      const fiber = yield* Effect.forkChild(check())
      const exit = yield* drive(fiber)
      assert.isTrue(Exit.isSuccess(exit))
      const calls = apiCalls(stub)
      assert.strictEqual(calls.length, 3)
      assert.strictEqual(new Set(calls.map((c) => c.headers["correlation-id"])).size, 1)
      assert.strictEqual(new Set(calls.map((c) => c.headers["request-id"])).size, 3)
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("retries are bounded: 503 every time fails after maxAttempts with ServerError", () => {
    const stub = stubAnswering(() => ({ status: 503, body: "busy" }))
    return Effect.gen(function* () {
      const exit = yield* drive(yield* Effect.forkChild(check()))
      const error = failure(exit)
      assert.strictEqual(error.reason._tag, "ServerError")
      assert.strictEqual(apiCalls(stub).length, 3)
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("a token request that failed counts the token requests sent: attended and unattended calls alike", () => {
    const stub = makeStub()
    stub.handler = (req) => (req.path.endsWith("/connect/token") ? { status: 502, body: "bad gateway" } : okBalance)
    return Effect.gen(function* () {
      // an unattended listing is never retried, but its token request is (three times): "(3 attempts)", not 1
      const listing = failure(
        yield* drive(
          yield* Effect.forkChild(
            Effect.flatMap(Effect.service(BankClient.BankClient), (c) => Stream.runCollect(c.standingOrders({ psu })))
          )
        )
      )
      assert.strictEqual(listing.operation, "token")
      assert.strictEqual(tokenCalls(stub).length, 3)
      assert.strictEqual(listing.attempts, 3)
      assert.include(listing.message, "(3 attempts)")
      // a balance check retries its call three times, each asking for a token three times: nine requests sent
      const checked = failure(yield* drive(yield* Effect.forkChild(check())))
      assert.strictEqual(checked.operation, "token")
      assert.strictEqual(tokenCalls(stub).length, 12)
      assert.strictEqual(checked.attempts, 9)
      assert.strictEqual(apiCalls(stub).length, 0)
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("no retry on 400, and the problem details are decoded", () => {
    const stub = stubAnswering(() => ({
      status: 400,
      body: {
        type: "https://bank.example/bad",
        title: "Bad Request",
        status: 400,
        detail: "iban",
        code: "FORMAT_ERROR"
      },
      headers: { "content-type": "application/problem+json", "Response-ID": "resp-400" }
    }))
    return Effect.gen(function* () {
      const error = failure(yield* Effect.exit(check()))
      assert.strictEqual(apiCalls(stub).length, 1)
      assert.strictEqual(error.reason._tag, "BadRequest")
      if (error.reason._tag === "BadRequest") {
        assert.strictEqual(error.reason.body._tag, "Problem")
        if (error.reason.body._tag === "Problem") assert.strictEqual(error.reason.body.body.code, "FORMAT_ERROR")
      }
      assert.strictEqual(error.identity.responseId, "resp-400")
      assert.include(error.message, "FORMAT_ERROR")
      assert.include(error.message, "resp-400")
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("over any HttpClient too, a body past the configured limit is ResponseTooLarge, not retried", () => {
    const stub = makeStub()
    const defaults = stub.handler
    stub.handler = (req, n) =>
      req.path.endsWith("/balanceCheck")
        ? { status: 200, body: { response: "APPR", dateTime: "2026-11-21T10:00:00+01:00", pad: "x".repeat(5000) } }
        : defaults(req, n)
    return Effect.gen(function* () {
      const error = failure(yield* Effect.exit(check()))
      assert.strictEqual(error.reason._tag, "ResponseTooLarge")
      if (error.reason._tag === "ResponseTooLarge") assert.strictEqual(error.reason.limit, 4096)
      assert.strictEqual(apiCalls(stub).length, 1)
    }).pipe(Effect.provide(stack(stub, { limits: { maxBodyBytes: 4096 } })))
  })

  it.effect("429 waits for Retry-After before retrying", () => {
    let api = 0
    const times: Array<number> = []
    const stub = stubAnswering(() => {
      return Effect.gen(function* () {
        times.push(yield* Effect.clockWith((c) => c.currentTimeMillis))
        return ++api === 1
          ? { status: 429, body: { code: "RATE", title: "slow down" }, headers: { "Retry-After": "7" } }
          : { status: 200, body: { response: "APPR", dateTime: "2026-11-21T10:00:00Z" } }
      })
    })
    return Effect.gen(function* () {
      const exit = yield* drive(yield* Effect.forkChild(check()), "500 millis")
      assert.isTrue(Exit.isSuccess(exit))
      assert.strictEqual(times.length, 2)
      assert.isAtLeast((times[1] ?? 0) - (times[0] ?? 0), 7000)
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("a Retry-After beyond the time budget is not waited for", () => {
    const stub = stubAnswering(() => ({ status: 429, body: "", headers: { "Retry-After": "3600" } }))
    return Effect.gen(function* () {
      const error = failure(yield* Effect.exit(check()))
      assert.strictEqual(error.reason._tag, "TooManyRequests")
      if (error.reason._tag === "TooManyRequests") assert.strictEqual(error.reason.retryAfterSeconds, 3600)
      assert.strictEqual(apiCalls(stub).length, 1)
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("an invalid request fails before sending, naming the field", () => {
    const stub = makeStub()
    return Effect.gen(function* () {
      const bad = { ...request, amount: { value: Money.parseUnsafe("1.234"), currency: Currency.EUR } }
      const error = failure(
        yield* Effect.exit(Effect.flatMap(Effect.service(BankClient.BankClient), (c) => c.balanceCheck(bad, { psu })))
      )
      assert.strictEqual(error.reason._tag, "InvalidRequest")
      if (error.reason._tag === "InvalidRequest") assert.strictEqual(error.reason.path, "amount.value")
      const badPsu = failure(yield* Effect.exit(check({ psu: { ...psu, ipAddress: "not-an-ip" } })))
      assert.strictEqual(badPsu.reason._tag, "InvalidRequest")
      assert.strictEqual(stub.seen.length, 0)
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("a malformed response is a MalformedResponse with the field path", () => {
    const stub = stubAnswering(() => ({ status: 200, body: { response: "MAYBE", dateTime: "2026-11-21T10:00:00Z" } }))
    return Effect.gen(function* () {
      assert.strictEqual(malformedPath(yield* Effect.exit(check())), "response")
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("traces the call in one span with each exchange as a child span, under the caller's span", () => {
    const stub = makeStub()
    const { spans, tracer } = recordingTracer()
    return Effect.gen(function* () {
      yield* check().pipe(Effect.withSpan("caller"))
      const byName = (name: string) => spans.filter((s) => s.name === name)
      const [caller] = byName("caller")
      const [call] = byName("BankClient.balanceCheck")
      const exchanges = byName("tppkit.balanceCheck")
      assert.strictEqual(exchanges.length, 1)
      const parentOf = (span: Tracer.NativeSpan | undefined) =>
        span !== undefined && span.parent._tag === "Some" ? span.parent.value : undefined
      assert.strictEqual(parentOf(call), caller)
      assert.strictEqual(parentOf(exchanges[0]), call)
      assert.strictEqual(exchanges[0]?.attributes.get("http.response.status_code"), 200)
      assert.strictEqual(exchanges[0]?.attributes.get("url.path"), "/piisp-test/api/v1/accounts/balanceCheck")
      assert.strictEqual(call?.status._tag, "Ended")
      assert.strictEqual(exchanges[0]?.status._tag, "Ended")
    }).pipe(Effect.provide(stack(stub)), Effect.withTracer(tracer))
  })

  it.effect("a page of standing orders is traced the same way; no IBAN or header lands in a span", () => {
    const stub = makeStub()
    const { spans, tracer } = recordingTracer()
    return Effect.gen(function* () {
      const client = yield* BankClient.BankClient
      yield* client.standingOrdersPage({ psu, iban: IBAN }).pipe(Effect.withSpan("caller"))
      const [call] = spans.filter((s) => s.name === "BankClient.standingOrdersPage")
      const exchanges = spans.filter((s) => s.name === "tppkit.standingOrders")
      assert.strictEqual(exchanges.length, 1)
      assert.strictEqual(exchanges[0]?.parent._tag === "Some" ? exchanges[0].parent.value : undefined, call)
      assert.strictEqual(exchanges[0]?.attributes.get("url.path"), "/aisp-test/api/v1/accounts/standingOrder")
      assert.strictEqual(exchanges[0]?.attributes.get("tppkit.request_id"), apiCalls(stub)[0]?.headers["request-id"])
      const recorded = JSON.stringify(spans.map((s) => [s.name, [...s.attributes]]))
      assert.notInclude(recorded, IBAN)
      assert.notInclude(recorded, psu.ipAddress)
      assert.notInclude(recorded, TOKEN_PREFIX)
    }).pipe(Effect.provide(stack(stub)), Effect.withTracer(tracer))
  })

  it.effect("a sandbox client refuses a live token", () => {
    const stub = makeStub()
    return Effect.gen(function* () {
      const { fromSca } = yield* Effect.promise(() => import("@tppkit/http/TokenService"))
      const error = failure(yield* Effect.exit(check({ token: fromSca("live", Redacted.make("sca-token")) })))
      assert.strictEqual(error.reason._tag, "InvalidRequest")
      assert.strictEqual(stub.seen.length, 0)
    }).pipe(Effect.provide(stack(stub)))
  })
})

describe("BankConfig", () => {
  it.effect("LIVE over http:// is refused at start-up", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(
        Effect.provide(
          Effect.service(BankConfig.BankConfig),
          BankConfig.BankConfig.layer({
            environment: "live",
            baseUrl: "http://bank.example",
            clientId: "id",
            clientSecret: Redacted.make(SECRET)
          })
        )
      )
      assert.isTrue(Exit.isFailure(exit))
      assert.include(String(exit), "https")
      assert.notInclude(String(exit), SECRET)
    })
  )
})

describe("BankClient.standingOrders", () => {
  const order = wireOrder
  const attended = { ...psu }

  it.effect("pages share one Process-ID, use page size 100, and keep malformed records as errors", () => {
    const stub = stubAnswering((req) => {
      const body = JSON.parse(req.body) as { page: number; pageSize: number }
      const orders = body.page === 0 ? [order("a"), { ...order("bad"), frequency: "DAILY" }, order("b")] : [order("c")]
      return { status: 200, body: { pageCount: "2", standingOrders: orders } }
    })
    return Effect.gen(function* () {
      const client = yield* BankClient.BankClient
      // the customer is present: logged in now
      const now = yield* Effect.clockWith((c) => c.currentTimeMillis)
      const { DateTime } = yield* Effect.promise(() => import("effect"))
      const pages = yield* Stream.runCollect(
        client.standingOrders({ psu: { ...attended, lastLoggedTime: DateTime.makeUnsafe(now) } })
      )
      assert.strictEqual(pages.length, 2)
      assert.deepStrictEqual(
        pages.flatMap((p) => p.body.orders.map((o) => o.orderId)),
        ["a", "b", "c"]
      )
      assert.deepStrictEqual(
        pages[0]?.body.errors.map((e) => [e.orderId, e.path]),
        [["bad", "frequency"]]
      )
      const calls = apiCalls(stub)
      assert.strictEqual(calls[0]?.path, "/aisp-test/api/v1/accounts/standingOrder")
      assert.deepStrictEqual(
        calls.map((c) => JSON.parse(c.body)),
        [
          { pageSize: 100, page: 0 },
          { pageSize: 100, page: 1 }
        ]
      )
      assert.strictEqual(new Set(calls.map((c) => c.headers["process-id"])).size, 1)
      assert.strictEqual(tokenCalls(stub).length, 1)
      assert.strictEqual(new URLSearchParams(tokenCalls(stub)[0]?.body).get("scope"), "AISP")
      assert.isDefined(calls[0]?.headers["psu-last-logged-time"])
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("without attributes the body is exactly {}; a bad page size is refused before sending", () => {
    const stub = makeStub()
    return Effect.gen(function* () {
      const client = yield* BankClient.BankClient
      yield* client.standingOrdersPage({ psu })
      assert.strictEqual(apiCalls(stub)[0]?.body, "{}")
      for (const pageSize of [0, 15, 110, 5]) {
        const error = failure(yield* Effect.exit(client.standingOrdersPage({ psu, pageSize })))
        assert.strictEqual(error.reason._tag, "InvalidRequest")
      }
      yield* client.standingOrdersPage({ psu, iban: IBAN, pageSize: 20, page: 3 })
      assert.deepStrictEqual(JSON.parse(apiCalls(stub)[1]?.body ?? ""), {
        iban: "SK3112000000198742637541",
        pageSize: 20,
        page: 3
      })
      assert.strictEqual(apiCalls(stub).length, 2)
    }).pipe(Effect.provide(stack(stub)))
  })
})

describe("the client's own secrets are never carried back", () => {
  /** Everything a caller could print of a value: its JSON, its message, its string form. */
  const printed = (u: unknown): string => [JSON.stringify(u), u instanceof Error ? u.message : "", String(u)].join("\n")

  it.effect("a bank echoing the bearer token and the client secret in headers and bodies has them masked", () => {
    const stub = makeStub()
    const echo = (req: { headers: Record<string, string> }) => ({
      "Response-ID": req.headers.authorization ?? "",
      "Correlation-ID": `x ${SECRET} y`,
      "Process-ID": encodeURIComponent(SECRET)
    })
    stub.handler = (req, n) => {
      if (req.path.endsWith("/connect/token")) return tokenAnswer(n)
      if (req.path.endsWith("/balanceCheck")) {
        return apiCalls(stub).length === 1
          ? { status: 200, headers: echo(req), body: { response: "APPR", dateTime: "2026-11-21T10:00:00+01:00" } }
          : {
              status: 403,
              headers: { ...echo(req), "content-type": "application/problem+json" },
              body: { title: "Forbidden", detail: `token ${req.headers.authorization} and ${SECRET}`, status: 403 }
            }
      }
      return {
        status: 200,
        headers: echo(req),
        body: {
          pageCount: 1,
          standingOrders: [
            { ...wireOrder("a"), creditor: { name: req.headers.authorization, iban: wireOrder("a").creditor.iban } }
          ]
        }
      }
    }
    return Effect.gen(function* () {
      const ok = yield* check()
      const refused = failure(yield* Effect.exit(check()))
      const client = yield* BankClient.BankClient
      const page = yield* client.standingOrdersPage({ psu })
      for (const shown of [printed(ok), printed(refused), printed(page)]) {
        assert.notInclude(shown, TOKEN_PREFIX)
        assert.notInclude(shown, SECRET)
        assert.notInclude(shown, encodeURIComponent(SECRET))
      }
      assert.strictEqual(ok.identity.responseId, "Bearer [redacted]")
      assert.include(refused.message, "[redacted]")
      assert.strictEqual(page.body.orders[0]?.creditor.name, "Bearer [redacted]")
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("a token endpoint echoing the client secret has it masked in the error", () => {
    const stub = makeStub()
    stub.handler = () => ({
      status: 400,
      headers: { "Response-ID": SECRET },
      body: { error: "invalid_client", error_description: `bad secret ${SECRET}` }
    })
    return Effect.gen(function* () {
      const refused = failure(yield* Effect.exit(check()))
      assert.notInclude(printed(refused), SECRET)
      assert.strictEqual(refused.identity.responseId, "[redacted]")
    }).pipe(Effect.provide(stack(stub)))
  })
})
