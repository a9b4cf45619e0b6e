/**
 * One HTTP exchange with the bank: send, read the whole body (bounded) within the timeout, and turn every
 * failure into a `BankError` naming the request. The retry rule lives in `retry.ts`.
 */
import { ErrorBody, type Profile } from "@tppkit/core"
import { type Duration, Effect, type Fiber, References, Tracer } from "effect"
import {
  BadRequest,
  BankError,
  Forbidden,
  type Identity,
  NotFound,
  type Reason,
  ServerError,
  TooManyRequests,
  Unauthorized,
  UnexpectedStatus
} from "../BankError.ts"
import type { BankTransport, Exchange, Outgoing } from "../BankTransport.ts"

/** The longest Retry-After believed: one day. A longer or unreadable value is treated as absent. */
export const maxRetryAfterSeconds = 86_400

/**
 * Reads `Retry-After` as seconds: delta-seconds or an HTTP date relative to `nowMillis` (RFC 9110 10.2.3).
 * Absurd values (more than a day, a date beyond it, anything but digits or a date) read as absent.
 */
export const retryAfterSeconds = (value: string | undefined, nowMillis: number): number | undefined => {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (/^\d{1,9}$/.test(trimmed)) {
    const seconds = Number(trimmed)
    return seconds <= maxRetryAfterSeconds ? seconds : undefined
  }
  if (!/[A-Za-z]/.test(trimmed)) return undefined
  const at = Date.parse(trimmed)
  if (Number.isNaN(at)) return undefined
  const seconds = Math.max(0, Math.ceil((at - nowMillis) / 1000))
  return seconds <= maxRetryAfterSeconds ? seconds : undefined
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
    readonly operation: Profile.Operation
    readonly identity: Identity
    readonly timeout: Duration.Duration
    /** Body bytes accepted at most. */
    readonly maxBodyBytes: number
    /** The span of the logical call, when the caller has one but did not make it the fiber's current span. */
    readonly parent?: Tracer.AnySpan | undefined
  }
): Effect.Effect<Exchange, BankError> =>
  Effect.withFiber((fiber) => {
    const exchange = Effect.mapError(
      transport.send(outgoing, options.timeout, options.maxBodyBytes),
      (reason) =>
        new BankError({
          operation: options.operation,
          identity: options.identity,
          reason,
          request: requestLine(outgoing.url, outgoing.method)
        })
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
          "http.request.method": outgoing.method ?? "POST",
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
 * {@link send}, then `onExchange` with the exchange. When the caller already found no tracer installed (`untraced`)
 * and has no parent span, this is one effect step around the transport instead of three (no fiber lookup, failure
 * mapping and continuation in one): it runs on every request.
 */
export const sendThen = <A>(
  transport: BankTransport["Service"],
  outgoing: Outgoing,
  options: Parameters<typeof send>[2] & { readonly untraced?: boolean | undefined },
  onExchange: (exchange: Exchange) => Effect.Effect<A, BankError>
): Effect.Effect<A, BankError> => {
  if (options.untraced !== true || options.parent !== undefined)
    return Effect.flatMap(send(transport, outgoing, options), onExchange)
  return Effect.matchEffect(transport.send(outgoing, options.timeout, options.maxBodyBytes), {
    onFailure: (reason) =>
      Effect.fail(
        new BankError({
          operation: options.operation,
          identity: options.identity,
          reason,
          request: requestLine(outgoing.url, outgoing.method)
        })
      ),
    onSuccess: onExchange
  })
}

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

/** "POST /path" of a request (or its method when another), as messages name it. */
export const requestLine = (url: string, method: "GET" | "POST" = "POST"): string => `${method} ${pathOf(url)}`

const pathOf = (url: string): string => {
  const start = url.indexOf("/", url.indexOf("//") + 2)
  return start === -1 ? "/" : url.slice(start)
}

/** What a secret is replaced with wherever an answer carries it back. */
export const MASK = "[redacted]"

/**
 * The exchange with every occurrence of the client's own secrets (its bearer token, its client secret) replaced by
 * {@link MASK}, in the body and in every header value, so that nothing the client keeps or prints carries them
 * (README.md, "Tokens": secrets never printed), whatever the bank echoes (`Bearer <token>` in `Response-ID`).
 * Secrets shorter than 4 characters are left alone (they would mask ordinary text). The same exchange comes back
 * when it carries none: a few `includes` on the hot path.
 */
export const masked = (exchange: Exchange, secrets: ReadonlyArray<string>): Exchange => {
  let out = exchange
  for (const secret of secrets) {
    if (secret.length < 4) continue
    const forms = [secret]
    const encoded = encodeURIComponent(secret)
    if (encoded !== secret) forms.push(encoded)
    for (const form of forms) {
      const inText = out.text.includes(form)
      let headers: Record<string, string> | undefined
      for (const name in out.headers) {
        const value = out.headers[name] as string
        if (value.includes(form)) {
          headers ??= { ...out.headers }
          headers[name] = value.replaceAll(form, MASK)
        }
      }
      if (!inText && headers === undefined) continue
      out = {
        status: out.status,
        headers: headers ?? out.headers,
        text: inText ? out.text.replaceAll(form, MASK) : out.text,
        ...(inText || out.bytes === undefined ? {} : { bytes: out.bytes })
      }
    }
  }
  return out
}
