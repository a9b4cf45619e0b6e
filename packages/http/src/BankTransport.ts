/**
 * How requests reach the bank: one exchange (send, read the whole body, within a timeout) that fails only
 * with a `TransportFailure`. `layerHttpClient` runs over any effect `HttpClient` (stubs in tests, fetch,
 * node:http); `layerUndici` calls undici directly with one agent (keep-alive, optional mutual TLS), the
 * fast path used by `BankClient.layerNode`.
 */
import { EventEmitter } from "node:events"
import { Cause, Context, Duration, Effect, Layer, Redacted } from "effect"
import { HttpClient, type HttpClientError, HttpClientRequest } from "effect/http"
import { Agent, request } from "undici"
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

/** One undici request read completely, with undici's headers and body timeouts and an abort emitter. */
const exchangeUndici = async (agent: Agent, outgoing: Outgoing, ms: number, abort: EventEmitter): Promise<Exchange> => {
  const response = await request(outgoing.url, {
    method: "POST",
    dispatcher: agent,
    // the bank client's headers already carry the content type: no copy per request then
    headers:
      outgoing.headers["Content-Type"] === outgoing.contentType
        ? outgoing.headers
        : { ...outgoing.headers, "Content-Type": outgoing.contentType },
    body: outgoing.body,
    signal: abort,
    headersTimeout: ms,
    bodyTimeout: ms
  })
  const text = await response.body.text()
  const headers: Record<string, string> = {}
  for (const name in response.headers) {
    const value = response.headers[name]
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value
  }
  return { status: response.statusCode, headers, text }
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
   * passphrase and CA when given; the timeout is undici's headers and body timeouts.
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
          send: (outgoing, timeout) => {
            const ms = Math.max(1, Duration.toMillis(timeout))
            // a callback without an AbortController (costly to make per request): undici also takes an event
            // emitter as its abort signal, and the fiber's interruption emits "abort" on it
            return Effect.callback<Exchange, TransportFailure>((resume) => {
              const abort = new EventEmitter()
              exchangeUndici(agent, outgoing, ms, abort).then(
                (exchange) => resume(Effect.succeed(exchange)),
                (cause) =>
                  resume(
                    Effect.fail(
                      errorCode(cause) === "UND_ERR_HEADERS_TIMEOUT" || errorCode(cause) === "UND_ERR_BODY_TIMEOUT"
                        ? timedOut(timeout)
                        : classify(cause, "request failed")
                    )
                  )
              )
              return Effect.sync(() => {
                abort.emit("abort")
              })
            })
          }
        })
      })
    )
}
