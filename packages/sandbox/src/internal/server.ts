/**
 * The mock bank's transport: a node:http (or node:https, optionally requiring client certificates) server that
 * reads each body up to a size limit, asks the handler for an answer, journals it, and writes it, carrying out
 * the delay, reset and truncate faults. It never lets an exception escape a request.
 */
import * as http from "node:http"
import * as https from "node:https"
import type { AddressInfo } from "node:net"
import type * as Journal from "../Journal.ts"
import type { Incoming, Outgoing } from "./bank.ts"

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

/** Starts listening; resolves once the port is bound. */
export const listen = (options: {
  readonly host: string
  readonly port: number
  readonly bodyLimit: number
  readonly tls: Tls | undefined
  readonly handle: (req: Incoming) => Outgoing
  readonly journal: Journal.Journal["Service"]
  readonly now: () => number
}): Promise<Running> => {
  const timers = new Set<NodeJS.Timeout>()
  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const at = options.now()
    const chunks: Array<Buffer> = []
    let size = 0
    let tooLarge = Number(req.headers["content-length"] ?? 0) > options.bodyLimit
    req.on("data", (chunk: Buffer) => {
      if (tooLarge) return
      size += chunk.length
      if (size > options.bodyLimit) {
        tooLarge = true
        chunks.length = 0
      } else chunks.push(chunk)
    })
    req.on("error", () => {
      res.destroy()
    })
    req.on("end", () => {
      // One chunk is the usual case for small bodies: decode it without copying it first.
      const body = tooLarge
        ? ""
        : chunks.length === 1
          ? (chunks[0] as Buffer).toString("utf8")
          : Buffer.concat(chunks).toString("utf8")
      const incoming: Incoming = {
        method: req.method ?? "GET",
        url: req.url ?? "/",
        headers: req.headers,
        body,
        bodyTooLarge: tooLarge
      }
      let out: Outgoing
      try {
        out = options.handle(incoming)
      } catch (e) {
        out = {
          status: 500,
          headers: { "content-type": "application/problem+json" },
          body: JSON.stringify({
            type: "about:blank",
            title: "Internal Server Error",
            status: 500,
            detail: e instanceof Error ? e.message : "unexpected failure",
            code: "INTERNAL_ERROR"
          }),
          outcome: "INTERNAL_ERROR"
        }
      }
      if (incoming.url !== "/__journal") {
        options.journal.appendUnsafe({
          at,
          method: incoming.method,
          path: incoming.url,
          headers: req.headers,
          body,
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
  const server: http.Server =
    options.tls !== undefined
      ? https.createServer(
          {
            cert: options.tls.cert,
            key: options.tls.key,
            ...(options.tls.ca !== undefined ? { ca: options.tls.ca } : {}),
            requestCert: options.tls.requireClientCert === true,
            rejectUnauthorized: options.tls.requireClientCert === true
          },
          listener
        )
      : http.createServer(listener)
  server.keepAliveTimeout = 5_000
  server.on("clientError", (_err, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n")
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

const write = (req: http.IncomingMessage, res: http.ServerResponse, out: Outgoing): void => {
  if (out.action === "reset") {
    req.socket.destroy()
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
