/**
 * How requests reach the bank: one exchange (send, read the whole body, within a timeout) that fails only
 * with a `TransportFailure`. `layerHttpClient` runs over any effect `HttpClient` (stubs in tests, fetch,
 * node:http); `layerUndici` calls undici directly with one agent (keep-alive, optional mutual TLS), the
 * fast path used by `BankClient.layerNode`.
 */
import { Cause, Context, Duration, Effect, Layer, Redacted, Stream } from "effect"
import { HttpClient, type HttpClientError, HttpClientRequest } from "effect/http"
import type { Dispatcher } from "undici"
import type { Tls } from "./BankConfig.ts"
import { ResponseTooLarge, TransportFailure } from "./BankError.ts"

/** A request to send: always a POST with a text body in the client's use. */
export interface Outgoing {
  readonly url: string
  /** Header names as the document spells them; values are sent as given. */
  readonly headers: Readonly<Record<string, string>>
  readonly contentType: string
  readonly body: string
}

/** Why an exchange produced no complete response. */
export type Failure = TransportFailure | ResponseTooLarge

/** The body limit when the caller gives none: 4 MiB (the configuration's default). */
export const defaultMaxBodyBytes = 4 << 20

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

/** Certificate checks of the bank's certificate that failed on our side (Node's `X509_V_ERR` names). */
const bankCertificate: Record<string, string> = {
  SELF_SIGNED_CERT_IN_CHAIN: "is not trusted (a self-signed certificate in its chain; is the CA configured?)",
  DEPTH_ZERO_SELF_SIGNED_CERT: "is not trusted (self-signed; is the CA configured?)",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "is not trusted (its issuer is unknown; is the CA configured?)",
  UNABLE_TO_GET_ISSUER_CERT: "is not trusted (its issuer is unknown; is the CA configured?)",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "is not trusted (its issuer is unknown; is the CA configured?)",
  CERT_UNTRUSTED: "is not trusted",
  CERT_SIGNATURE_FAILURE: "has a bad signature",
  CERT_HAS_EXPIRED: "has expired",
  CERT_NOT_YET_VALID: "is not valid yet",
  CERT_REVOKED: "is revoked",
  ERR_TLS_CERT_ALTNAME_INVALID: "is for another host"
}

/** The bank's TLS alert about our client certificate, by the alert in Node's OpenSSL error code. */
const clientCertificateAlert = (code: string): string | undefined => {
  if (!code.startsWith("ERR_SSL_")) return undefined
  if (code.endsWith("_ALERT_CERTIFICATE_REQUIRED")) return "the bank requires a client certificate and none was sent"
  if (
    code.endsWith("_ALERT_BAD_CERTIFICATE") ||
    code.endsWith("_ALERT_UNKNOWN_CA") ||
    code.endsWith("_ALERT_CERTIFICATE_UNKNOWN") ||
    code.endsWith("_ALERT_UNSUPPORTED_CERTIFICATE") ||
    code.endsWith("_ALERT_ACCESS_DENIED")
  ) {
    return "the bank refused our client certificate"
  }
  if (code.endsWith("_ALERT_CERTIFICATE_EXPIRED")) return "the bank refused our client certificate as expired"
  if (code.endsWith("_ALERT_CERTIFICATE_REVOKED")) return "the bank refused our client certificate as revoked"
  if (code.endsWith("_ALERT_HANDSHAKE_FAILURE")) {
    return "the bank ended the TLS handshake (client certificate missing or refused, or no common cipher)"
  }
  return undefined
}

const codesOf = (cause: unknown): Array<string> => {
  const codes: Array<string> = []
  let current: unknown = cause
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string") codes.push(code)
    current = (current as { cause?: unknown }).cause
  }
  return codes
}

const errorCode = (cause: unknown): string | undefined => codesOf(cause)[0]

/**
 * Classifies a socket, TLS or undici failure: connect, reset, timeout, tls (saying which side refused and why)
 * or other. `where` names the server (origin) for the message.
 */
export const classify = (cause: unknown, fallback: string, where = "the bank"): TransportFailure => {
  const codes = codesOf(cause)
  for (const code of codes) {
    const bank = bankCertificate[code]
    if (bank !== undefined) {
      return new TransportFailure({ kind: "tls", detail: `the certificate of ${where} ${bank} (${code})` })
    }
    const ours = clientCertificateAlert(code)
    if (ours !== undefined) return new TransportFailure({ kind: "tls", detail: `${ours} (${code})` })
    if (code.startsWith("ERR_SSL_") || code.startsWith("ERR_TLS_")) {
      return new TransportFailure({ kind: "tls", detail: `the TLS handshake with ${where} failed (${code})` })
    }
  }
  const code = codes[0]
  if (code === undefined) return new TransportFailure({ kind: "other", detail: `${fallback} (${where})` })
  if (connectCodes.has(code))
    return new TransportFailure({ kind: "connect", detail: `cannot connect to ${where} (${code})` })
  if (resetCodes.has(code)) {
    return new TransportFailure({ kind: "reset", detail: `${where} closed the connection before answering (${code})` })
  }
  if (timeoutCodes.has(code))
    return new TransportFailure({ kind: "timeout", detail: `no answer from ${where} (${code})` })
  return new TransportFailure({ kind: "other", detail: `request to ${where} failed (${code})` })
}

/** "10 s", "1.5 s" or "150 ms": a timeout as messages print it. */
export const formatTimeout = (timeout: Duration.Duration): string => {
  const ms = Duration.toMillis(timeout)
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(3))} s` : `${ms} ms`
}

const timedOut = (timeout: Duration.Duration, received: number) =>
  new TransportFailure({
    kind: "timeout",
    detail:
      received < 0
        ? `no answer within ${formatTimeout(timeout)}`
        : `the answer was not complete within ${formatTimeout(timeout)} (${received} body bytes received)`
  })

/**
 * A TLS connection the bank closed before sending a byte of an answer. With TLS 1.3 the client certificate is
 * checked after the client's side of the handshake is done, so a refusal arrives as a plain close ("other side
 * closed", nothing read): name the likely cause by whether a client certificate was sent.
 */
const closedAfterHandshake = (
  cause: unknown,
  where: string,
  clientCertificate: boolean
): TransportFailure | undefined => {
  if (errorCode(cause) !== "UND_ERR_SOCKET") return undefined
  const socket = (cause as { socket?: { bytesRead?: unknown } }).socket
  if (socket?.bytesRead !== 0) return undefined
  return new TransportFailure({
    kind: "tls",
    detail: clientCertificate
      ? `${where} closed the TLS connection without answering: it refused our client certificate (not issued by a CA it trusts, expired or revoked) (UND_ERR_SOCKET)`
      : `${where} closed the TLS connection without answering: it requires a client certificate and none is configured (UND_ERR_SOCKET)`
  })
}

const truncated = (received: number, cause: unknown) =>
  new TransportFailure({
    kind: "truncated",
    detail: `the answer ended before its body was complete (${received} bytes received${
      errorCode(cause) === undefined ? "" : `, ${errorCode(cause)}`
    })`
  })

/** Response headers as undici hands them to a dispatch handler. */
type IncomingHttpHeaders = Parameters<NonNullable<Dispatcher.DispatchHandler["onResponseStart"]>>[2]

/** Where a URL goes: undici's `dispatch` takes the origin and the path apart. */
interface Target {
  readonly origin: string
  readonly path: string
}

/** The bank's few URLs, parsed once each (a client sends to the same three paths all day). */
const targets = new Map<string, Target>()
const targetOf = (url: string): Target | undefined => {
  let target = targets.get(url)
  if (target === undefined) {
    if (!URL.canParse(url)) return undefined
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
 * cheaper than a bare `request` call). The body is counted as it arrives and the exchange aborted past
 * `maxBody` bytes (a declared Content-Length past it is refused before any body byte). The result is handed to
 * the fiber in a microtask, never from inside undici's parser callbacks; an interruption aborts the request
 * through undici's controller.
 */
class Exchanger implements Dispatcher.DispatchHandler {
  private status = 0
  private headers: Record<string, string> = {}
  /** Body bytes received; -1 until the status and headers arrived. */
  private received = -1
  private readonly chunks: Array<Buffer> = []
  private controller: Dispatcher.DispatchController | undefined = undefined
  private settled = false
  /** Set when the exchange was given up (interruption, deadline, limit): a request not yet started is aborted on start. */
  private abandoned = false
  /** When the exchange is given up, in `performance.now()` milliseconds. */
  readonly deadline: number
  private readonly deadlines: Deadlines
  /** The neighbours in the list of exchanges in flight that `Deadlines` keeps (no hashing per request). */
  previous: Exchanger | undefined = undefined
  next: Exchanger | undefined = undefined

  private readonly resume: (effect: Effect.Effect<Exchange, Failure>) => void
  private readonly timeout: Duration.Duration
  private readonly maxBody: number
  private readonly maxHeader: number
  private readonly where: string
  /** Set for an https origin: whether a client certificate is configured. */
  private readonly tls: { readonly clientCertificate: boolean } | undefined

  constructor(
    resume: (effect: Effect.Effect<Exchange, Failure>) => void,
    timeout: Duration.Duration,
    maxBody: number,
    maxHeader: number,
    where: string,
    tls: { readonly clientCertificate: boolean } | undefined,
    deadlines: Deadlines
  ) {
    this.tls = tls
    this.resume = resume
    this.timeout = timeout
    this.maxBody = maxBody
    this.maxHeader = maxHeader
    this.where = where
    // the deadline of the whole exchange, connect to last byte, kept by the agent's one native timer: undici's own
    // headers and body timeouts run on its coarse timers and fire up to a second late
    this.deadline = performance.now() + Math.max(1, Duration.toMillis(timeout))
    this.deadlines = deadlines
    deadlines.add(this)
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.abandoned) controller.abort(new Error("abandoned"))
    else this.controller = controller
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.status = statusCode
    this.headers = flatHeaders(headers)
    this.received = 0
    const declared = this.headers["content-length"]
    if (declared !== undefined && declared.length > 0 && Number(declared) > this.maxBody) {
      this.tooLarge(controller)
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return
    this.received += chunk.length
    if (this.received > this.maxBody) this.tooLarge(controller)
    else this.chunks.push(chunk)
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

  /** Ends the exchange with the failure a socket, TLS or undici error stands for. */
  fail(error: unknown): void {
    if (this.settled) return
    const code = errorCode(error)
    this.settle(
      Effect.fail(
        code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT"
          ? timedOut(this.timeout, this.received)
          : code === "UND_ERR_HEADERS_OVERFLOW"
            ? new ResponseTooLarge({ part: "headers", limit: this.maxHeader })
            : this.received >= 0
              ? truncated(this.received, error)
              : ((this.tls === undefined
                  ? undefined
                  : closedAfterHandshake(error, this.where, this.tls.clientCertificate)) ??
                classify(error, "request failed", this.where))
      )
    )
  }

  /** Stops the exchange after the fiber was interrupted. */
  abort(): void {
    this.deadlines.delete(this)
    this.abandoned = true
    this.controller?.abort(new Error("interrupted"))
  }

  private tooLarge(controller: Dispatcher.DispatchController): void {
    this.chunks.length = 0
    this.settle(Effect.fail(new ResponseTooLarge({ part: "body", limit: this.maxBody })))
    this.abandoned = true
    controller.abort(new Error("response too large"))
  }

  /** Gives the exchange up at its deadline (called by `Deadlines`). */
  expire(): void {
    this.settle(Effect.fail(timedOut(this.timeout, this.received)))
    this.abandoned = true
    this.controller?.abort(new Error("timed out"))
  }

  private settle(effect: Effect.Effect<Exchange, Failure>): void {
    if (this.settled) return
    this.settled = true
    this.deadlines.delete(this)
    queueMicrotask(() => this.resume(effect))
  }
}

/**
 * The deadlines of the exchanges in flight on one agent, kept by one native timer armed for the earliest of them:
 * a request adds itself and removes itself when it ends, and the timer is re-armed only when a new deadline is
 * earlier than the armed one, or when it fires (then it gives up every exchange past its deadline and re-arms for
 * the next). Sequential requests with the same timeout thus cost no timer operation each.
 */
class Deadlines {
  /** The exchanges in flight, a doubly linked list through their `previous` and `next` (newest first). */
  private first: Exchanger | undefined = undefined
  private timer: ReturnType<typeof setTimeout> | undefined = undefined
  private armedFor = Number.POSITIVE_INFINITY

  add(exchanger: Exchanger): void {
    const first = this.first
    exchanger.next = first
    if (first !== undefined) first.previous = exchanger
    this.first = exchanger
    if (exchanger.deadline < this.armedFor) this.arm(exchanger.deadline)
  }

  /** Takes an exchange off the list; a second call for the same one changes nothing. */
  delete(exchanger: Exchanger): void {
    const { previous, next } = exchanger
    if (previous !== undefined) previous.next = next
    else if (this.first === exchanger) this.first = next
    else return
    if (next !== undefined) next.previous = previous
    exchanger.previous = undefined
    exchanger.next = undefined
  }

  /** Stops the timer (the agent is closed). */
  clear(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
    this.armedFor = Number.POSITIVE_INFINITY
  }

  private arm(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.armedFor = at
    this.timer = setTimeout(() => this.fire(), Math.max(1, Math.ceil(at - performance.now())))
    // never what keeps a process alive: a request in flight holds its socket, which does
    this.timer.unref()
  }

  private fire(): void {
    this.timer = undefined
    this.armedFor = Number.POSITIVE_INFINITY
    const now = performance.now()
    let next = Number.POSITIVE_INFINITY
    const due: Array<Exchanger> = []
    for (let exchanger = this.first; exchanger !== undefined; exchanger = exchanger.next) {
      if (exchanger.deadline <= now) due.push(exchanger)
      else if (exchanger.deadline < next) next = exchanger.deadline
    }
    // given up after the walk: giving one up takes it off the list, and its abort may end others too
    for (const exchanger of due) exchanger.expire()
    if (next !== Number.POSITIVE_INFINITY && next < this.armedFor) this.arm(next)
  }
}

/** Options of the undici transport. */
export interface UndiciOptions {
  /** Client certificate, key, passphrase and CA for mutual TLS. */
  readonly tls?: Tls | undefined
  /** Bytes of status line and headers at most (undici's `maxHeaderSize`); default 32 KiB. */
  readonly maxHeaderBytes?: number
}

/** Reads a body as text, at most `max` bytes of it (counted as it streams); more is `ResponseTooLarge`. */
const boundedText = <E>(
  stream: Stream.Stream<Uint8Array, E>,
  max: number
): Effect.Effect<string, E | ResponseTooLarge> =>
  Effect.suspend(() => {
    const chunks: Array<Uint8Array> = []
    let size = 0
    const read = Stream.runForEach(stream, (chunk) => {
      size += chunk.length
      if (size > max) return Effect.fail(new ResponseTooLarge({ part: "body", limit: max }))
      chunks.push(chunk)
      return Effect.void
    })
    return Effect.map(read, () => Buffer.concat(chunks).toString("utf8"))
  })

/** The transport service. */
export class BankTransport extends Context.Service<
  BankTransport,
  {
    /**
     * Sends one request and reads the whole response within `timeout`, its body at most `maxBodyBytes` bytes
     * (default 4 MiB); any status is a success here.
     */
    readonly send: (
      request: Outgoing,
      timeout: Duration.Duration,
      maxBodyBytes?: number
    ) => Effect.Effect<Exchange, Failure>
  }
>()("@tppkit/http/BankTransport") {
  /** Over any effect `HttpClient` (trace propagation headers off: the bank gets only the documented headers). */
  static readonly layerHttpClient: Layer.Layer<BankTransport, never, HttpClient.HttpClient> = Layer.effect(
    BankTransport,
    Effect.map(Effect.service(HttpClient.HttpClient), (client) =>
      BankTransport.of({
        send: (outgoing, timeout, maxBodyBytes = defaultMaxBodyBytes) =>
          client
            .execute(
              HttpClientRequest.post(outgoing.url).pipe(
                HttpClientRequest.setHeaders(outgoing.headers),
                HttpClientRequest.bodyText(outgoing.body, outgoing.contentType)
              )
            )
            .pipe(
              Effect.flatMap((response) => {
                const declared = Number(response.headers["content-length"] ?? 0)
                return declared > maxBodyBytes
                  ? Effect.fail(new ResponseTooLarge({ part: "body", limit: maxBodyBytes }))
                  : Effect.map(
                      boundedText(response.stream, maxBodyBytes),
                      (text): Exchange => ({ status: response.status, headers: response.headers, text })
                    )
              }),
              Effect.timeout(timeout),
              Effect.provideService(HttpClient.TracerPropagationEnabled, false),
              Effect.catch((error: HttpClientError.HttpClientError | Cause.TimeoutError | ResponseTooLarge) =>
                Effect.fail(
                  error._tag === "ResponseTooLarge"
                    ? error
                    : Cause.isTimeoutError(error)
                      ? timedOut(timeout, -1)
                      : error.reason._tag === "DecodeError" || error.reason._tag === "EmptyBodyError"
                        ? truncated(0, error.reason.cause)
                        : classify(error.reason.cause, error.reason._tag)
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
  static readonly layerUndici = (options?: UndiciOptions): Layer.Layer<BankTransport> =>
    Layer.effect(
      BankTransport,
      Effect.gen(function* () {
        const tls = options?.tls
        const maxHeader = options?.maxHeaderBytes ?? 32 << 10
        const secure = { clientCertificate: tls?.cert !== undefined }
        // loaded here, not at the top: importing @tppkit/http never fails for a transport that is not used
        const { Agent } = yield* Effect.promise(() => import("undici"))
        const deadlines = yield* Effect.acquireRelease(
          Effect.sync(() => new Deadlines()),
          (d) => Effect.sync(() => d.clear())
        )
        const agent = yield* Effect.acquireRelease(
          Effect.sync(
            () =>
              new Agent(
                tls === undefined
                  ? { maxHeaderSize: maxHeader }
                  : {
                      maxHeaderSize: maxHeader,
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
          send: (outgoing, timeout, maxBodyBytes = defaultMaxBodyBytes) =>
            Effect.callback<Exchange, Failure>((resume) => {
              const target = targetOf(outgoing.url)
              const origin = target?.origin ?? outgoing.url
              const exchanger = new Exchanger(
                resume,
                timeout,
                maxBodyBytes,
                maxHeader,
                origin,
                origin.startsWith("https:") ? secure : undefined,
                deadlines
              )
              try {
                if (target === undefined) throw new TypeError(`not a URL: ${outgoing.url}`)
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
