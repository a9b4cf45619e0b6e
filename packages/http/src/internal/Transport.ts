/**
 * One HTTP exchange with the bank: send, read the whole body within the timeout, and turn every failure
 * into a `BankError` reason. Also the retry loop (bounded attempts and time, exponential backoff, jitter).
 */
import { ErrorBody } from "@tppkit/core"
import { Clock, Duration, Effect, type Fiber, Random, References, Tracer } from "effect"
import type { RetryPolicy } from "../BankConfig.ts"
import {
  BadRequest,
  BankError,
  Forbidden,
  type Identity,
  NotFound,
  type Operation,
  type Reason,
  ServerError,
  TooManyRequests,
  Unauthorized,
  UnexpectedStatus
} from "../BankError.ts"
import type { BankTransport, Exchange, Outgoing } from "../BankTransport.ts"

/** Reads `Retry-After` as seconds: delta-seconds or an HTTP date relative to `nowMillis` (RFC 9110 10.2.3). */
export const retryAfterSeconds = (value: string | undefined, nowMillis: number): number | undefined => {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed)
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMillis) / 1000))
}

/** Maps a non-2xx response to a reason, with the decoded error body. */
export const statusReason = (exchange: Exchange, nowMillis: number): Reason => {
  const body = ErrorBody.decode(exchange.status, exchange.headers["content-type"], exchange.text)
  const status = exchange.status
  switch (status) {
    case 400:
      return new BadRequest({ body })
    case 401:
      return new Unauthorized({ body })
    case 403:
      return new Forbidden({ body })
    case 404:
      return new NotFound({ body })
    case 429: {
      const after = retryAfterSeconds(exchange.headers["retry-after"], nowMillis)
      return new TooManyRequests(after === undefined ? { body } : { retryAfterSeconds: after, body })
    }
    default:
      return status >= 500 && status <= 599 ? new ServerError({ status, body }) : new UnexpectedStatus({ status, body })
  }
}

/** The identity echoed by a response: Response-ID, Correlation-ID and Process-ID. */
export const echoedIdentity = (identity: Identity, headers: Readonly<Record<string, string>>): Identity => {
  const responseId = headers["response-id"]
  const correlationId = identity.correlationId ?? headers["correlation-id"]
  const processId = identity.processId ?? headers["process-id"]
  // built field by field (no spreads): this runs on every response
  const echoed: { -readonly [K in keyof Identity]: Identity[K] } = {}
  if (identity.requestId !== undefined) echoed.requestId = identity.requestId
  if (correlationId !== undefined) echoed.correlationId = correlationId
  if (processId !== undefined) echoed.processId = processId
  if (responseId !== undefined) echoed.responseId = responseId
  else if (identity.responseId !== undefined) echoed.responseId = identity.responseId
  return echoed
}

/**
 * Sends one request through the transport and reads its body. Transport failures and the timeout become a
 * `BankError`; any status is returned as an `Exchange` (the caller maps non-2xx with `statusReason`).
 * The exchange runs in a span named after the operation with method, path, status and Request-ID only.
 */
export const send = (
  transport: BankTransport["Service"],
  outgoing: Outgoing,
  options: {
    readonly operation: Operation
    readonly identity: Identity
    readonly timeout: Duration.Duration
    /** The span of the logical call, when the caller has one but did not make it the fiber's current span. */
    readonly parent?: Tracer.AnySpan | undefined
  }
): Effect.Effect<Exchange, BankError> =>
  Effect.withFiber((fiber) => {
    const exchange = Effect.mapError(
      transport.send(outgoing, options.timeout),
      (reason) => new BankError({ operation: options.operation, identity: options.identity, reason })
    )
    if (!isTraced(fiber)) return exchange
    // `useSpan`, not `withSpan`: nothing runs inside the exchange that needs it as parent span, and providing a
    // parent span changes the fiber's context (a context cache rebuilt on every request)
    return Effect.useSpan(
      `tppkit.${options.operation}`,
      {
        kind: "client",
        ...(options.parent === undefined ? {} : { parent: options.parent }),
        attributes: {
          "http.request.method": "POST",
          "url.path": pathOf(outgoing.url),
          "tppkit.request_id": options.identity.requestId ?? ""
        }
      },
      (span) =>
        Effect.map(exchange, (received) => {
          span.attribute("http.response.status_code", received.status)
          return received
        })
    )
  })

/**
 * Whether spans made on this fiber are seen by anyone: a tracer other than effect's default in-memory one is
 * installed (an exporter, a test's recording tracer) and tracing is not switched off. The default tracer's spans
 * go nowhere, so the client skips making them (what effect's `Tracer.nativeTracer` documentation suggests).
 */
export const isTraced = (fiber: Fiber.Fiber<unknown, unknown>): boolean =>
  fiber.getRef(Tracer.Tracer) !== Tracer.nativeTracer && fiber.getRef(References.TracerEnabled)

/** Runs `f` in a span named `name` when spans are seen (see {@link isTraced}), else without one. */
export const traced = <A, E, R>(
  name: string,
  f: (span: Tracer.Span | undefined) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> => Effect.withFiber((fiber) => (isTraced(fiber) ? Effect.useSpan(name, f) : f(undefined)))

const pathOf = (url: string): string => {
  const start = url.indexOf("/", url.indexOf("//") + 2)
  return start === -1 ? "/" : url.slice(start)
}

/**
 * Runs `attempt` (given the attempt number from 1) and retries it while the failure is transient, at most
 * `policy.maxAttempts` times in total and never starting a retry after `policy.maxElapsed`. The delay doubles
 * from `baseDelay` up to `maxDelay`, is jittered to 50–100 %, and is at least the bank's Retry-After.
 */
export const retrying = <A>(
  policy: RetryPolicy,
  isRetryable: (error: BankError) => boolean,
  attempt: (n: number) => Effect.Effect<A, BankError>
): Effect.Effect<A, BankError> =>
  policy.maxAttempts <= 1
    ? attempt(1)
    : Effect.clockWith((clock) => {
        const started = clock.currentTimeMillisUnsafe()
        // the first attempt runs without the loop: a call that succeeds at once pays for no retry machinery
        return Effect.catchIf(attempt(1), isRetryable, (error) =>
          retryLoop(policy, isRetryable, attempt, started, error)
        )
      })

const retryLoop = <A>(
  policy: RetryPolicy,
  isRetryable: (error: BankError) => boolean,
  attempt: (n: number) => Effect.Effect<A, BankError>,
  started: number,
  firstError: BankError
): Effect.Effect<A, BankError> =>
  Effect.gen(function* () {
    const deadline = started + Duration.toMillis(policy.maxElapsed)
    let n = 1
    let pending: BankError | undefined = firstError
    while (true) {
      if (pending === undefined) {
        const result = yield* Effect.result(attempt(n))
        if (result._tag === "Success") return result.success
        pending = result.failure
      }
      const error: BankError = pending
      pending = undefined
      if (n >= policy.maxAttempts || !isRetryable(error)) return yield* Effect.fail(error)
      const exponential = Math.min(
        Duration.toMillis(policy.maxDelay),
        Duration.toMillis(policy.baseDelay) * 2 ** (n - 1)
      )
      const jittered = exponential * (yield* Random.nextBetween(0.5, 1))
      const retryAfter =
        error.reason._tag === "TooManyRequests" && error.reason.retryAfterSeconds !== undefined
          ? error.reason.retryAfterSeconds * 1000
          : 0
      const delay = Math.ceil(Math.max(jittered, retryAfter))
      const now = yield* Clock.currentTimeMillis
      if (now + delay > deadline) return yield* Effect.fail(error)
      yield* Effect.sleep(Duration.millis(delay))
      n++
    }
  })
