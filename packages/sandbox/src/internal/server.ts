/**
 * The mock bank's transport: a node:http (or node:https, optionally requiring client certificates) server that
 * reads each body up to a size limit, asks the handler for an answer, journals it, and writes it (a streamed answer
 * as the connection takes it), carrying out the delay, reset and truncate faults. Its edges answer like a real
 * bank's: 431 for an oversized head, 501 for an unknown method, 400 with a problem body for malformed framing, 408
 * when the head or the whole request is too slow, 413 before `100 Continue` for an oversized declared body, 400 for
 * a body that is not UTF-8, and a cap on concurrent connections. It never lets an exception escape a request.
 */
import { isUtf8 } from "node:buffer"
import * as http from "node:http"
import * as https from "node:https"
import type { AddressInfo, Socket } from "node:net"
import type * as Journal from "../Journal.ts"
import { problemType } from "./errors.ts"
import type { Incoming, Outgoing } from "./exchange.ts"

/** TLS settings: PEM texts. */
export interface Tls {
  readonly cert: string
  readonly key: string
  readonly ca?: string
  readonly requireClientCert?: boolean
}

/** The transport's limits (see `Sandbox.HttpLimits`). */
export interface Limits {
  readonly headersTimeoutMs?: number
  readonly requestTimeoutMs?: number
  readonly maxHeaderBytes?: number
  readonly maxConnections?: number
  readonly keepAliveTimeoutMs?: number
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
  readonly bodyLimit: number
  readonly limits: Limits
  readonly tls: Tls | undefined
  readonly handle: (req: Incoming) => Outgoing
  /** Whether the handler reads the body of a request to this method and target; other bodies are only journaled. */
  readonly readsBody: (method: string, url: string) => boolean
  /** Bytes of a body kept for the journal alone (the journal cuts bodies there anyway). */
  readonly journalBodyBytes: number
  readonly journal: Journal.Journal["Service"]
  readonly now: () => number
}): Promise<Running> => {
  const timers = new Set<NodeJS.Timeout>()
  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const at = options.now()
    const chunks: Array<Buffer> = []
    let size = 0
    let tooLarge = Number(req.headers["content-length"] ?? 0) > options.bodyLimit
    // a body nobody reads (an unknown path, a method not allowed) is kept only as far as the journal shows it
    const keep = options.readsBody(req.method ?? "GET", req.url ?? "/") ? options.bodyLimit : options.journalBodyBytes
    req.on("data", (chunk: Buffer) => {
      if (tooLarge) return
      const room = keep - size
      size += chunk.length
      if (size > options.bodyLimit) {
        tooLarge = true
        chunks.length = 0
      } else if (room > 0) chunks.push(room >= chunk.length ? chunk : Buffer.from(chunk.subarray(0, room)))
    })
    req.on("error", () => {
      res.destroy()
    })
    req.on("end", () => {
      // One chunk is the usual case for small bodies: decode it without copying it first.
      const bytes = tooLarge ? undefined : chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
      const invalidUtf8 = bytes !== undefined && bytes.length > 0 && !isUtf8(bytes)
      const body = bytes === undefined || invalidUtf8 ? "" : bytes.toString("utf8")
      const incoming: Incoming = {
        method: req.method ?? "GET",
        url: req.url ?? "/",
        headers: req.headers,
        body,
        bodyTooLarge: tooLarge,
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
  server.maxConnections = limits.maxConnections ?? 1024
  // `Expect: 100-continue`: refuse an oversized declared body before the client sends it
  server.on("checkContinue", (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (Number(req.headers["content-length"] ?? 0) > options.bodyLimit) {
      const body = JSON.stringify({
        type: problemType("PAYLOAD_TOO_LARGE"),
        title: "Content Too Large",
        status: 413,
        detail: `the declared body is larger than ${options.bodyLimit} bytes`,
        code: "PAYLOAD_TOO_LARGE"
      })
      res.shouldKeepAlive = false
      res.writeHead(413, {
        "content-type": "application/problem+json",
        "content-length": String(Buffer.byteLength(body)),
        connection: "close"
      })
      res.end(body, () => req.socket.destroy())
      return
    }
    res.writeContinue()
    listener(req, res)
  })
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => {
    if (socket.writable && err.code !== "ECONNRESET") socket.end(clientErrorAnswer(err))
    else socket.destroy()
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
