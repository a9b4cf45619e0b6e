/**
 * The mock bank's transport: a node:http (or node:https, optionally requiring client certificates) server that
 * reads each body up to the size its handler reads, asks the handler for an answer, journals it, and writes it (a
 * streamed answer as the connection takes it), carrying out the delay, reset and truncate faults. Its edges answer
 * like a real bank's: 431 for an oversized head, 501 for an unknown method, 400 with a problem body for malformed
 * framing, 408 when the head or the whole request is too slow (and the connection closed for good), 413 as soon as a
 * body is seen to be too large (before `100 Continue` for a declared one; the rest is never read), 503 when the
 * bodies held at once would pass their bound, 400 for a body that is not UTF-8, and a cap on connections that makes
 * room by closing idle ones (connections.ts). It never lets an exception escape a request.
 */
import { isUtf8 } from "node:buffer"
import * as http from "node:http"
import * as https from "node:https"
import type { AddressInfo, Socket } from "node:net"
import type * as Journal from "../Journal.ts"
import * as Connections from "./connections.ts"
import { problemType } from "./errors.ts"
import type { Incoming, Outgoing } from "./exchange.ts"

/** Limits of the HTTP transport, answered like a real bank answers them. */
export interface HttpLimits {
  /** Time to receive a request's headers before 408, milliseconds (default 5000). */
  readonly headersTimeoutMs?: number
  /** Time to receive a whole request, body included, before 408, milliseconds (default 10000). */
  readonly requestTimeoutMs?: number
  /** Largest request head in bytes before 431 (default 16384). */
  readonly maxHeaderBytes?: number
  /**
   * Concurrent connections held (default 1024). When they are all held, a new connection closes the one idle the
   * longest (waiting for a request); it is itself closed at once only when every one is busy with a request.
   */
  readonly maxConnections?: number
  /** Idle time of a kept-alive connection before it is closed, milliseconds (default 5000). */
  readonly keepAliveTimeoutMs?: number
  /**
   * Bytes of request bodies held at once over every connection (default 16 MiB): a request whose body would pass
   * it is answered 503 with `Retry-After` before the rest is read, so that a flood of large bodies keeps the mock
   * bank's memory bounded.
   */
  readonly maxHeldBodyBytes?: number
}

/** TLS settings: PEM texts. */
export interface Tls {
  readonly cert: string
  readonly key: string
  readonly ca?: string
  readonly requireClientCert?: boolean
}

/** A running server. */
export interface Running {
  readonly host: string
  readonly port: number
  readonly close: () => Promise<void>
}

const reasons: Readonly<Record<number, string>> = {
  400: "Bad Request",
  408: "Request Timeout",
  413: "Content Too Large",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  501: "Not Implemented"
}

/** A whole HTTP/1.1 answer with a problem body, for the edges where no request object exists. */
const rawProblem = (status: number, code: string, detail: string): string => {
  const title = reasons[status] ?? "Error"
  const body = JSON.stringify({ type: problemType(code), title, status, detail, code })
  return (
    `HTTP/1.1 ${status} ${title}\r\ncontent-type: application/problem+json\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  )
}

/** How long a connection whose request was refused stays open for the rest of that request, milliseconds. */
const lingerMs = 1_000

/** The answer to a request node's parser refused, by the parser's error code. */
const clientErrorAnswer = (err: NodeJS.ErrnoException): string => {
  switch (err.code) {
    case "HPE_HEADER_OVERFLOW":
      return rawProblem(431, "HEADERS_TOO_LARGE", "the request head is larger than this server accepts")
    case "HPE_INVALID_METHOD":
      return rawProblem(501, "METHOD_NOT_IMPLEMENTED", "the request method is not one this server knows")
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return rawProblem(408, "REQUEST_TIMEOUT", "the request was not received in time")
    default:
      return rawProblem(400, "MALFORMED_REQUEST", `the request is not valid HTTP/1.1 (${err.code ?? "parse error"})`)
  }
}

/** Starts listening; resolves once the port is bound. */
export const listen = (options: {
  readonly host: string
  readonly port: number
  /** The largest body of a request whose body the handler does not read (it is only journaled). */
  readonly bodyLimit: number
  /** The bytes of a body to this method and target that the handler reads (0: it reads none, the body is only journaled). */
  readonly bodyLimitOf: (method: string, url: string) => number
  readonly limits: HttpLimits
  readonly tls: Tls | undefined
  readonly handle: (req: Incoming) => Outgoing
  /** Bytes of a body kept for the journal alone (the journal cuts bodies there anyway). */
  readonly journalBodyBytes: number
  readonly journal: Journal.Journal["Service"]
  readonly now: () => number
}): Promise<Running> => {
  const timers = new Set<NodeJS.Timeout>()
  const connections = Connections.make(options.limits.maxConnections ?? 1024)
  /** Bytes of bodies held by requests not yet answered, and how many they may be (a body that would pass it: 503). */
  let held = 0
  const heldLimit = options.limits.maxHeldBodyBytes ?? 16 * 1024 * 1024
  const answer = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    at: number,
    bytes: Buffer | undefined,
    refused: Incoming["refused"]
  ): void => {
    const invalidUtf8 = bytes !== undefined && bytes.length > 0 && !isUtf8(bytes)
    const body = bytes === undefined || invalidUtf8 ? "" : bytes.toString("utf8")
    const incoming: Incoming = {
      method: req.method ?? "GET",
      url: req.url ?? "/",
      headers: req.headers,
      body,
      ...(refused !== undefined ? { refused } : {}),
      invalidUtf8
    }
    let out: Outgoing
    try {
      out = options.handle(incoming)
    } catch (e) {
      out = {
        status: 500,
        headers: { "content-type": "application/problem+json" },
        body: JSON.stringify({
          type: problemType("INTERNAL_ERROR"),
          title: "Internal Server Error",
          status: 500,
          detail: e instanceof Error ? e.message : "unexpected failure",
          code: "INTERNAL_ERROR"
        }),
        outcome: "INTERNAL_ERROR"
      }
    }
    if (!incoming.url.startsWith("/__journal")) {
      options.journal.appendUnsafe({
        at,
        method: incoming.method,
        path: incoming.url,
        headers: req.headers,
        body: invalidUtf8 ? "(not UTF-8)" : body,
        status: out.status,
        outcome: out.outcome
      })
    }
    if (out.delayMs !== undefined && out.delayMs > 0) {
      const timer = setTimeout(() => {
        timers.delete(timer)
        write(req, res, out)
      }, out.delayMs)
      timers.add(timer)
    } else write(req, res, out)
  }
  /** The largest body accepted for a request: what the handler reads of it, or the general limit. */
  const limitOf = (req: http.IncomingMessage): number => {
    const reads = options.bodyLimitOf(req.method ?? "GET", req.url ?? "/")
    return reads > 0 ? reads : options.bodyLimit
  }
  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const at = options.now()
    connections.busy(req.socket)
    res.once("close", () => connections.idle(req.socket))
    const reads = options.bodyLimitOf(req.method ?? "GET", req.url ?? "/")
    const limit = reads > 0 ? reads : options.bodyLimit
    // a body nobody reads (an unknown path, a method not allowed) is kept only as far as the journal shows it
    const keep = reads > 0 ? reads : options.journalBodyBytes
    const chunks: Array<Buffer> = []
    let size = 0
    let kept = 0
    let answered = false
    const release = () => {
      held -= kept
      kept = 0
      chunks.length = 0
    }
    /** Answers at once, without the body, and drops the connection once answered (the rest of the body is not read). */
    const refuse = (why: NonNullable<Incoming["refused"]>) => {
      answered = true
      release()
      res.shouldKeepAlive = false
      answer(req, res, at, undefined, why)
    }
    if (Number(req.headers["content-length"] ?? 0) > limit) {
      refuse("tooLarge")
      req.resume()
      return
    }
    req.on("data", (chunk: Buffer) => {
      if (answered) return
      size += chunk.length
      if (size > limit) return refuse("tooLarge")
      const room = Math.min(keep - kept, chunk.length)
      if (room <= 0) return
      if (held + room > heldLimit) return refuse("busy")
      held += room
      kept += room
      chunks.push(room === chunk.length ? chunk : Buffer.from(chunk.subarray(0, room)))
    })
    req.on("error", () => {
      release()
      res.destroy()
    })
    req.on("close", release)
    req.on("end", () => {
      if (answered) return
      answered = true
      // One chunk is the usual case for small bodies: decode it without copying it first.
      const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
      release()
      answer(req, res, at, bytes, undefined)
    })
  }
  const limits = options.limits
  const serverOptions: http.ServerOptions = {
    maxHeaderSize: limits.maxHeaderBytes ?? 16_384,
    headersTimeout: limits.headersTimeoutMs ?? 5_000,
    requestTimeout: limits.requestTimeoutMs ?? 10_000,
    keepAliveTimeout: limits.keepAliveTimeoutMs ?? 5_000,
    // how often node looks for requests past their timeouts (its default, 30 s, would answer 408 far too late)
    connectionsCheckingInterval: Math.max(
      100,
      Math.min(1_000, Math.floor(Math.min(limits.headersTimeoutMs ?? 5_000, limits.requestTimeoutMs ?? 10_000) / 4))
    )
  }
  const server: http.Server =
    options.tls !== undefined
      ? https.createServer(
          {
            ...serverOptions,
            cert: options.tls.cert,
            key: options.tls.key,
            ...(options.tls.ca !== undefined ? { ca: options.tls.ca } : {}),
            requestCert: options.tls.requireClientCert === true,
            rejectUnauthorized: options.tls.requireClientCert === true
          },
          listener
        )
      : http.createServer(serverOptions, listener)
  // the cap is kept by `connections` (node's own `maxConnections` would refuse a client while idle sockets hold it)
  server.on("connection", connections.accept)
  // `Expect: 100-continue`: an oversized declared body is refused (by the listener) before the client sends it
  server.on("checkContinue", (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (Number(req.headers["content-length"] ?? 0) <= limitOf(req)) res.writeContinue()
    listener(req, res)
  })
  // The answer to a request node refused, then the connection closed for good: a client that keeps its side open
  // must not hold a connection slot (a timed-out one at once, once answered; the others after a short linger that
  // lets the rest of a refused request arrive, so that the client reads the answer rather than a reset).
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || err.code === "ECONNRESET") {
      socket.destroy()
      return
    }
    socket.end(clientErrorAnswer(err))
    if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") socket.once("finish", () => socket.destroy())
    const linger = setTimeout(() => socket.destroy(), lingerMs).unref()
    socket.once("close", () => clearTimeout(linger))
  })
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port, options.host, () => {
      server.off("error", reject)
      const address = server.address() as AddressInfo
      resolve({
        host: options.host,
        port: address.port,
        close: () =>
          new Promise<void>((done) => {
            for (const t of timers) clearTimeout(t)
            timers.clear()
            server.close(() => done())
            server.closeAllConnections()
          })
      })
    })
  })
}

/** Writes a streamed body: each text as the connection takes it, so a slow reader never piles answers up. */
const stream = (res: http.ServerResponse, texts: Iterable<string | Uint8Array>): void => {
  const it = texts[Symbol.iterator]()
  const pump = (): void => {
    try {
      for (;;) {
        const next = it.next()
        if (next.done === true) {
          res.end()
          return
        }
        if (!res.write(next.value)) {
          res.once("drain", pump)
          return
        }
      }
    } catch {
      res.destroy()
    }
  }
  res.on("close", () => it.return?.())
  pump()
}

const write = (req: http.IncomingMessage, res: http.ServerResponse, out: Outgoing): void => {
  if (out.action === "reset") {
    req.socket.destroy()
    return
  }
  if (typeof out.body !== "string") {
    res.writeHead(out.status, out.headers)
    if (req.method === "HEAD") res.end()
    else stream(res, out.body)
    return
  }
  res.writeHead(out.status, { ...out.headers, "content-length": String(Buffer.byteLength(out.body)) })
  if (out.action === "truncate") {
    const body = Buffer.from(out.body, "utf8")
    res.write(body.subarray(0, Math.max(1, Math.floor(body.length / 2))), () => {
      res.destroy()
    })
    return
  }
  // A string body lets node:http send head and body in one write.
  if (req.method === "HEAD") res.end()
  else res.end(out.body)
}
