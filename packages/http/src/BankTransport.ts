/**
 * How requests reach the bank: one exchange (send, read the whole body, within a timeout) that fails only
 * with a `TransportFailure`. `layerHttpClient` runs over any effect `HttpClient` (stubs in tests, fetch,
 * node:http); `layerUndici` calls undici directly with one agent (keep-alive, optional mutual TLS), the
 * fast path used by `BankClient.layerNode`.
 */
import { Cause, Context, Duration, Effect, Layer, Redacted } from "effect"
import { HttpClient, type HttpClientError, HttpClientRequest } from "effect/http"
import { Agent, type Dispatcher } from "undici"
import type { Tls } from "./BankConfig.ts"
import { TransportFailure } from "./BankError.ts"

/** A request to send: always a POST with a text body in the client's use. */
export interface Outgoing {
  readonly url: string
  /** Header names as the document spells them; values are sent as given. */
  readonly headers: Readonly<Record<string, string>>
  readonly contentType: string
  readonly body: string
}

/** A response read completely; header names in lower case. */
export interface Exchange {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
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

/** Classifies a socket or undici failure by its code: connect, reset, timeout or other (e.g. TLS refusal). */
export const classify = (cause: unknown, fallback: string): TransportFailure => {
  const code = errorCode(cause)
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
  return new TransportFailure({ kind, detail: code ?? fallback })
}

const timedOut = (timeout: Duration.Duration) =>
  new TransportFailure({ kind: "timeout", detail: `no complete response within ${Duration.format(timeout)}` })

/** Response headers as undici hands them to a dispatch handler. */
type IncomingHttpHeaders = Parameters<NonNullable<Dispatcher.DispatchHandler["onResponseStart"]>>[2]

/** Where a URL goes: undici's `dispatch` takes the origin and the path apart. */
interface Target {
  readonly origin: string
  readonly path: string
}

/** The bank's few URLs, parsed once each (a client sends to the same three paths all day). */
const targets = new Map<string, Target>()
const targetOf = (url: string): Target => {
  let target = targets.get(url)
  if (target === undefined) {
    const parsed = new URL(url)
    target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` }
    if (targets.size >= 64) targets.clear()
    targets.set(url, target)
  }
  return target
}

/** Response header values as single texts (repeated headers joined with ", "), copied only when one repeats. */
const flatHeaders = (headers: IncomingHttpHeaders): Record<string, string> => {
  let flat = true
  for (const name in headers) {
    const value = headers[name]
    if (typeof value !== "string") {
      flat = false
      break
    }
  }
  if (flat) return headers as Record<string, string>
  const copy: Record<string, string> = {}
  for (const name in headers) {
    const value = headers[name]
    if (value !== undefined) copy[name] = Array.isArray(value) ? value.join(", ") : value
  }
  return copy
}

/**
 * One exchange on undici's dispatcher API: the status, headers and body chunks arrive as callbacks, with no
 * response stream and no promise in between (undici's `request` builds both; this is what makes the client
 * cheaper than a bare `request` call). The result is handed to the fiber in a microtask, never from inside
 * undici's parser callbacks; an interruption aborts the request through undici's controller.
 */
class Exchanger implements Dispatcher.DispatchHandler {
  private status = 0
  private headers: Record<string, string> = {}
  private readonly chunks: Array<Buffer> = []
  private controller: Dispatcher.DispatchController | undefined = undefined
  private settled = false
  /** Set when the exchange was given up (interruption, deadline): a request not yet started is aborted on start. */
  private abandoned = false
  private readonly timer: ReturnType<typeof setTimeout>

  private readonly resume: (effect: Effect.Effect<Exchange, TransportFailure>) => void
  private readonly timeout: Duration.Duration

  constructor(
    resume: (effect: Effect.Effect<Exchange, TransportFailure>) => void,
    timeout: Duration.Duration,
    ms: number
  ) {
    this.resume = resume
    this.timeout = timeout
    // the deadline of the whole exchange, connect to last byte, on a native timer: undici's own headers and body
    // timeouts run on its coarse timers and fire up to a second late
    this.timer = setTimeout(() => this.expire(), ms)
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.abandoned) controller.abort(new Error("abandoned"))
    else this.controller = controller
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.status = statusCode
    this.headers = flatHeaders(headers)
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk)
  }

  onResponseEnd(): void {
    const chunks = this.chunks
    const text =
      chunks.length === 0
        ? ""
        : chunks.length === 1
          ? chunks[0]!.toString("utf8")
          : Buffer.concat(chunks).toString("utf8")
    this.settle(Effect.succeed({ status: this.status, headers: this.headers, text }))
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.fail(error)
  }

  /** Ends the exchange with the transport failure a socket or undici error stands for. */
  fail(error: unknown): void {
    const code = errorCode(error)
    this.settle(
      Effect.fail(
        code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT"
          ? timedOut(this.timeout)
          : classify(error, "request failed")
      )
    )
  }

  /** Stops the exchange after the fiber was interrupted. */
  abort(): void {
    clearTimeout(this.timer)
    this.abandoned = true
    this.controller?.abort(new Error("interrupted"))
  }

  private expire(): void {
    this.settle(Effect.fail(timedOut(this.timeout)))
    this.abandoned = true
    this.controller?.abort(new Error("timed out"))
  }

  private settle(effect: Effect.Effect<Exchange, TransportFailure>): void {
    if (this.settled) return
    this.settled = true
    clearTimeout(this.timer)
    queueMicrotask(() => this.resume(effect))
  }
}

/** The transport service. */
export class BankTransport extends Context.Service<
  BankTransport,
  {
    /** Sends one request and reads the whole response within `timeout`; any status is a success here. */
    readonly send: (request: Outgoing, timeout: Duration.Duration) => Effect.Effect<Exchange, TransportFailure>
  }
>()("@tppkit/http/BankTransport") {
  /** Over any effect `HttpClient` (trace propagation headers off: the bank gets only the documented headers). */
  static readonly layerHttpClient: Layer.Layer<BankTransport, never, HttpClient.HttpClient> = Layer.effect(
    BankTransport,
    Effect.map(Effect.service(HttpClient.HttpClient), (client) =>
      BankTransport.of({
        send: (outgoing, timeout) =>
          client
            .execute(
              HttpClientRequest.post(outgoing.url).pipe(
                HttpClientRequest.setHeaders(outgoing.headers),
                HttpClientRequest.bodyText(outgoing.body, outgoing.contentType)
              )
            )
            .pipe(
              Effect.flatMap((response) =>
                Effect.map(
                  response.text,
                  (text): Exchange => ({ status: response.status, headers: response.headers, text })
                )
              ),
              Effect.timeout(timeout),
              Effect.provideService(HttpClient.TracerPropagationEnabled, false),
              Effect.catch((error: HttpClientError.HttpClientError | Cause.TimeoutError) =>
                Effect.fail(
                  Cause.isTimeoutError(error) ? timedOut(timeout) : classify(error.reason.cause, error.reason._tag)
                )
              )
            )
      })
    )
  )

  /**
   * Direct undici calls through one scoped agent (closed with the layer), with the client certificate, key,
   * passphrase and CA when given; the timeout is a deadline for the whole exchange (connect to last byte).
   */
  static readonly layerUndici = (tls?: Tls): Layer.Layer<BankTransport> =>
    Layer.effect(
      BankTransport,
      Effect.gen(function* () {
        const agent = yield* Effect.acquireRelease(
          Effect.sync(
            () =>
              new Agent(
                tls === undefined
                  ? {}
                  : {
                      connect: {
                        ...(tls.cert === undefined ? {} : { cert: tls.cert }),
                        ...(tls.key === undefined ? {} : { key: tls.key }),
                        ...(tls.passphrase === undefined ? {} : { passphrase: Redacted.value(tls.passphrase) }),
                        ...(tls.ca === undefined ? {} : { ca: tls.ca })
                      }
                    }
              )
          ),
          (agent) => Effect.promise(() => agent.close())
        )
        return BankTransport.of({
          send: (outgoing, timeout) =>
            Effect.callback<Exchange, TransportFailure>((resume) => {
              const ms = Math.max(1, Duration.toMillis(timeout))
              const exchanger = new Exchanger(resume, timeout, ms)
              try {
                const target = targetOf(outgoing.url)
                agent.dispatch(
                  {
                    origin: target.origin,
                    path: target.path,
                    method: "POST",
                    // the bank client's headers already carry the content type: no copy per request then
                    headers:
                      outgoing.headers["Content-Type"] === outgoing.contentType
                        ? outgoing.headers
                        : { ...outgoing.headers, "Content-Type": outgoing.contentType },
                    // the exchanger's deadline covers the whole exchange; undici's own timeouts stay at their defaults
                    body: outgoing.body
                  },
                  exchanger
                )
              } catch (cause) {
                exchanger.fail(cause)
              }
              return Effect.sync(() => exchanger.abort())
            })
        })
      })
    )
}
