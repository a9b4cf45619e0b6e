/**
 * The undici transport's engine: one exchange on undici's dispatcher API (`Exchanger`), through one agent with
 * keep-alive and optional mutual TLS, each exchange given up at its deadline by the agent's one timer (`deadlines.ts`).
 * `BankTransport.layerUndici` is its public face.
 */
import { Duration, Effect, Redacted, type Scope } from "effect"
import type { Dispatcher } from "undici"
import { ResponseTooLarge } from "../BankError.ts"
import { Deadlines } from "./deadlines.ts"
import { classify, closedAfterHandshake, errorCode, timedOut, truncated } from "./transportFailure.ts"
import type { Exchange, Failure, Outgoing, UndiciOptions } from "./transportTypes.ts"

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
export class Exchanger implements Dispatcher.DispatchHandler {
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
  private readonly deadlines: Deadlines<Exchanger>
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
    deadlines: Deadlines<Exchanger>
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
    if (chunks.length === 0) {
      this.settle(Effect.succeed({ status: this.status, headers: this.headers, text: "" }))
      return
    }
    const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)
    this.settle(Effect.succeed({ status: this.status, headers: this.headers, text: bytes.toString("utf8"), bytes }))
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
 * The send function of one scoped agent (closed with the scope) with the client certificate, key, passphrase and
 * CA when given; the timeout is a deadline for the whole exchange (connect to last byte), the body limit
 * `defaultMaxBodyBytes` unless the call gives one.
 */
export const make = (
  options: UndiciOptions | undefined,
  defaultMaxBodyBytes: number
): Effect.Effect<
  (outgoing: Outgoing, timeout: Duration.Duration, maxBodyBytes?: number) => Effect.Effect<Exchange, Failure>,
  never,
  Scope.Scope
> =>
  Effect.gen(function* () {
    const tls = options?.tls
    const maxHeader = options?.maxHeaderBytes ?? 32 << 10
    const secure = { clientCertificate: tls?.cert !== undefined }
    // loaded here, not at the top: importing @tppkit/http never fails for a transport that is not used
    const { Agent } = yield* Effect.promise(() => import("undici"))
    const deadlines = yield* Effect.acquireRelease(
      Effect.sync(() => new Deadlines<Exchanger>()),
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
    return (outgoing: Outgoing, timeout: Duration.Duration, maxBodyBytes = defaultMaxBodyBytes) =>
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
            outgoing.method === "GET"
              ? { origin: target.origin, path: target.path, method: "GET", headers: outgoing.headers }
              : {
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
