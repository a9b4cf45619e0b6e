/**
 * One HTTP exchange with the bank: send, read the whole body within the timeout, and turn every failure
 * into a `BankError` reason. Also the retry loop (bounded attempts and time, exponential backoff, jitter).
 */
import { Cause, Clock, Duration, Effect, Option, Random } from "effect"
import { Headers, HttpClient, type HttpClientError, type HttpClientRequest } from "effect/http"
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
  TransportFailure,
  Unauthorized,
  UnexpectedStatus
} from "../BankError.ts"
import * as ErrorBody from "../ErrorBody.ts"

/** A response read completely. */
export interface Exchange {
  readonly status: number
  readonly headers: Headers.Headers
  readonly text: string
}

const connectCodes = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT"
])
const resetCodes = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED", "ECONNABORTED"])
const timeoutCodes = new Set(["ETIMEDOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"])

const errorCode = (cause: unknown): string | undefined => {
  let current: unknown = cause
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string") return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

/** Classifies a transport error by its system or undici code. */
export const transportFailure = (error: HttpClientError.HttpClientError): TransportFailure => {
  const code = errorCode(error.reason.cause)
  const kind =
    code === undefined
      ? "other"
      : connectCodes.has(code)
        ? "connect"
        : resetCodes.has(code)
          ? "reset"
          : timeoutCodes.has(code)
            ? "timeout"
            : "other"
  return new TransportFailure({ kind, detail: code ?? error.reason._tag })
}

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
  const body = ErrorBody.decode(exchange.text, Option.getOrUndefined(Headers.get(exchange.headers, "content-type")))
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
      const after = retryAfterSeconds(Option.getOrUndefined(Headers.get(exchange.headers, "retry-after")), nowMillis)
      return new TooManyRequests(after === undefined ? { body } : { retryAfterSeconds: after, body })
    }
    default:
      return status >= 500 && status <= 599 ? new ServerError({ status, body }) : new UnexpectedStatus({ status, body })
  }
}

/** The identity echoed by a response: Response-ID, Correlation-ID and Process-ID. */
export const echoedIdentity = (identity: Identity, headers: Headers.Headers): Identity => {
  const responseId = Option.getOrUndefined(Headers.get(headers, "response-id"))
  const correlationId = Option.getOrUndefined(Headers.get(headers, "correlation-id"))
  const processId = Option.getOrUndefined(Headers.get(headers, "process-id"))
  return {
    ...identity,
    ...(responseId === undefined ? {} : { responseId }),
    ...(identity.correlationId === undefined && correlationId !== undefined ? { correlationId } : {}),
    ...(identity.processId === undefined && processId !== undefined ? { processId } : {})
  }
}

/**
 * Sends one request and reads its body, within `timeout`. Transport failures and the timeout become a
 * `BankError`; any status is returned as an `Exchange` (the caller maps non-2xx with `statusReason`).
 * The exchange runs in a span named after the operation with method, path, status and Request-ID.
 */
export const send = (
  client: HttpClient.HttpClient,
  request: HttpClientRequest.HttpClientRequest,
  options: { readonly operation: Operation; readonly identity: Identity; readonly timeout: Duration.Duration }
): Effect.Effect<Exchange, BankError> =>
  client.execute(request).pipe(
    Effect.flatMap((response) =>
      Effect.map(response.text, (text): Exchange => ({ status: response.status, headers: response.headers, text }))
    ),
    Effect.timeout(options.timeout),
    Effect.provideService(HttpClient.TracerPropagationEnabled, false),
    Effect.catch((error) =>
      Effect.fail(
        new BankError({
          operation: options.operation,
          identity: options.identity,
          reason: Cause.isTimeoutError(error)
            ? new TransportFailure({
                kind: "timeout",
                detail: `no complete response within ${Duration.format(options.timeout)}`
              })
            : transportFailure(error)
        })
      )
    ),
    Effect.tap((exchange) => Effect.annotateCurrentSpan("http.response.status_code", exchange.status)),
    Effect.withSpan(`tppkit.${options.operation}`, {
      kind: "client",
      attributes: {
        "http.request.method": request.method,
        "url.path": new URL(request.url).pathname,
        "tppkit.request_id": options.identity.requestId ?? ""
      }
    })
  )

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
  Effect.gen(function* () {
    const started = yield* Clock.currentTimeMillis
    const deadline = started + Duration.toMillis(policy.maxElapsed)
    let n = 1
    while (true) {
      const result = yield* Effect.result(attempt(n))
      if (result._tag === "Success") return result.success
      const error = result.failure
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
