/**
 * A programmable in-process bank for the http tests: an `HttpClient` that records every request it receives; and what
 * the tests read back from the client (its typed failure, the budget used today).
 */
import { assert } from "@effect/vitest"
import { BankClient, BankConfig, type BankError, BankTransport, Budget, BudgetStore } from "@tppkit/http"
import { Effect, Exit, Layer, Redacted } from "effect"
import { HttpClient, type HttpClientRequest, HttpClientResponse } from "effect/http"

/** A request as the stub saw it. */
export interface Seen {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** What the stub answers. */
export interface Answer {
  readonly status: number
  readonly body?: unknown
  readonly headers?: Record<string, string>
}

/** The stub's state: requests seen, and a handler deciding each answer. */
export interface Stub {
  readonly seen: Array<Seen>
  handler: (req: Seen, n: number) => Answer | Effect.Effect<Answer>
}

export const SECRET = "s3cr3t-client-secret-value"
export const TOKEN_PREFIX = "tok-very-secret-"

const bodyText = (req: HttpClientRequest.HttpClientRequest): string =>
  req.body._tag === "Uint8Array" ? new TextDecoder().decode(req.body.body) : ""

/** A token answer with a counter in the token. */
export const tokenAnswer = (n: number, expiresIn: number | string = 1200): Answer => ({
  status: 200,
  body: { access_token: `${TOKEN_PREFIX}${n}`, token_type: "Bearer", expires_in: expiresIn }
})

export const okBalance: Answer = {
  status: 200,
  body: { response: "APPR", dateTime: "2026-11-21T10:00:00+01:00" }
}

/** Default handler: tokens on the token path, APPR on balance checks, an empty list on standing orders. */
export const defaultHandler =
  (tokens: { count: number }) =>
  (req: Seen): Answer => {
    if (req.path.endsWith("/connect/token")) return tokenAnswer(++tokens.count)
    if (req.path.endsWith("/balanceCheck")) {
      return { ...okBalance, headers: { "Response-ID": req.headers["request-id"] ?? "" } }
    }
    return { status: 200, body: { pageCount: 1, standingOrders: [] } }
  }

/**
 * The typed failure `exit` ends with; fails the test when it succeeded or when its first reason is not a typed failure
 * (a defect, an interruption).
 */
export const failure = <A, E>(exit: Exit.Exit<A, E>): E => {
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const first = exit.cause.reasons[0]
  if (first?._tag !== "Fail") throw new Error(`expected a typed failure, got ${exit.cause}`)
  return first.error
}

/** The field a `MalformedResponse` failure of `exit` names; the test fails on any other ending. */
export const malformedPath = <A>(exit: Exit.Exit<A, BankError.BankError>): string | undefined => {
  const error = failure(exit)
  assert.strictEqual(error.reason._tag, "MalformedResponse")
  return error.reason._tag === "MalformedResponse" ? error.reason.path : undefined
}

/** What the budget has used today for each consent it counts, in the order it lists them. */
export const usedToday = Effect.flatMap(Effect.service(Budget.Budget), (b) =>
  Effect.map(b.usages, (usages) => usages.map((u) => u.used))
)

/** The requests the stub saw outside the token path. */
export const apiCalls = (stub: Stub): Array<Seen> => stub.seen.filter((s) => !s.path.endsWith("/connect/token"))

/** Answers the token path with a plain Bearer token and every other request with `api`. */
export const withToken =
  (api: Stub["handler"]): Stub["handler"] =>
  (req, n) =>
    req.path.endsWith("/connect/token")
      ? { status: 200, body: { access_token: "t", token_type: "Bearer", expires_in: 1200 } }
      : api(req, n)

export const makeStub = (): Stub & { tokens: { count: number } } => {
  const tokens = { count: 0 }
  return { seen: [], tokens, handler: defaultHandler(tokens) }
}

/** A stub that issues numbered tokens on the token path (`tokenAnswer`) and answers every other request with `api`. */
export const stubAnswering = (api: Stub["handler"]): Stub & { tokens: { count: number } } => {
  const stub = makeStub()
  stub.handler = (req, n) => (req.path.endsWith("/connect/token") ? tokenAnswer(++stub.tokens.count) : api(req, n))
  return stub
}

/** The stub as an HttpClient layer. */
export const stubClient = (stub: Stub): Layer.Layer<HttpClient.HttpClient> =>
  Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((req, url) =>
      Effect.gen(function* () {
        const seen: Seen = { method: req.method, path: url.pathname, headers: { ...req.headers }, body: bodyText(req) }
        stub.seen.push(seen)
        const out = stub.handler(seen, stub.seen.length)
        const answer = Effect.isEffect(out) ? yield* out : out
        const text =
          answer.body === undefined
            ? null
            : typeof answer.body === "string" || answer.body instanceof Uint8Array
              ? answer.body
              : JSON.stringify(answer.body)
        return HttpClientResponse.fromWeb(
          req,
          new Response(text, {
            status: answer.status,
            headers: { "content-type": "application/json", ...answer.headers }
          })
        )
      })
    )
  )

export const options: BankConfig.Options = {
  environment: "sandbox",
  baseUrl: "http://127.0.0.1:9",
  clientId: "tpp-client",
  clientSecret: Redacted.make(SECRET),
  retry: { maxAttempts: 3, baseDelay: "100 millis", maxDelay: "1 second", maxElapsed: "30 seconds" }
}

/** BankClient with the stub, tokens and an in-memory (or given) budget store. */
export const stack = (
  stub: Stub,
  overrides: Partial<BankConfig.Options> = {},
  store: Layer.Layer<BudgetStore.BudgetStore> = BudgetStore.BudgetStore.layerMemory
) => {
  const http = BankTransport.BankTransport.layerHttpClient.pipe(Layer.provide(stubClient(stub)))
  const config = BankConfig.BankConfig.layer({ ...options, ...overrides })
  return BankClient.BankClient.layerOver(config, http, store).pipe(Layer.orDie)
}

export const psu = {
  ipAddress: "192.0.2.10",
  deviceOs: "Android 15",
  userAgent: "tppkit-test/1.0"
} as const

/** A well-formed standing order on the wire with the given orderId. */
export const wireOrder = (id: string) => ({
  orderId: id,
  debtor: { name: "Jana", iban: "SK3112000000198742637541" },
  creditor: { iban: "SK3112000000198742637541" },
  instructedAmount: { value: 10.5, currency: "EUR" },
  startDate: "2026-01-31",
  frequency: "MNTH"
})

/** `n` well-formed wire orders with orderIds `<prefix>-0` … */
export const wireOrders = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => wireOrder(`${prefix}-${i}`))
