/**
 * A hostile bank for tests: a raw HTTP/1.1 server on 127.0.0.1 whose every answer is scripted per request
 * (status, headers, body as bytes, an endless or slow stream, a body cut short against its Content-Length,
 * no answer at all, oversized headers, a reset). It is bounded: it answers at most `maxRequests` requests
 * (later ones are reset), stops every stream and closes itself after `lifetimeMs`, and `close()` (or the
 * scope of `hostile`) ends it and every socket it holds.
 */
import { createServer, type Server, type Socket } from "node:net"
import { Effect, type Scope } from "effect"
import { wireOrder } from "./stub.ts"

/** A request as the hostile server received it. */
export interface Received {
  readonly method: string
  readonly path: string
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** One scripted answer. */
export type Behaviour =
  /** A complete answer; `body` as text or bytes; `contentLength` overrides the declared length (a lie). */
  | {
      readonly _tag: "respond"
      readonly status: number
      readonly headers?: Readonly<Record<string, string>>
      readonly body?: string | Uint8Array
      /** Declared Content-Length; when larger than the body, the connection is closed after the body (truncated). */
      readonly contentLength?: number
    }
  /**
   * Status and headers, then `chunk` repeated `count` times (default: until the client goes away or the server's
   * lifetime ends) every `intervalMs` (0: as fast as the socket drains), chunked transfer encoding.
   */
  | {
      readonly _tag: "stream"
      readonly status: number
      readonly headers?: Readonly<Record<string, string>>
      /** Written once before the repeated chunks. */
      readonly prefix?: string | Uint8Array
      readonly chunk: string | Uint8Array
      readonly count?: number
      readonly intervalMs?: number
    }
  /** Reads the request and never answers (the socket stays open until the client or the server closes it). */
  | { readonly _tag: "hang" }
  /** Closes the connection without any answer. */
  | { readonly _tag: "reset" }
  /** A status line and one header of `bytes` bytes, then an empty body. */
  | { readonly _tag: "hugeHeaders"; readonly status: number; readonly bytes: number }

/** How the server chooses an answer: a function of the request and its number (from 1), or a fixed list. */
export type Script = ((request: Received, n: number) => Behaviour) | ReadonlyArray<Behaviour>

/** A running hostile server. */
export interface Hostile {
  /** `http://127.0.0.1:<port>`. */
  readonly baseUrl: string
  /** Every request received, in order. */
  readonly received: Array<Received>
  /** Body bytes written per request number (index 0 is request 1). */
  readonly written: Array<number>
  /** Replaces the script (for a test that changes its mind between calls). */
  script: Script
  /** Stops everything: every socket, every stream, the listener. */
  readonly close: () => Promise<void>
}

/** Limits of one hostile server. */
export interface Limits {
  /** Requests answered at most; later requests are reset (default 1,000). */
  readonly maxRequests?: number
  /** The server closes itself this long after it started (default 60 s). */
  readonly lifetimeMs?: number
}

const bytesOf = (data: string | Uint8Array): Buffer =>
  typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data.buffer, data.byteOffset, data.byteLength)

const reasonPhrase = (status: number): string => (status >= 200 && status < 300 ? "OK" : "Hostile")

const head = (status: number, headers: Readonly<Record<string, string>>, extra: Record<string, string>): string => {
  let text = `HTTP/1.1 ${status} ${reasonPhrase(status)}\r\n`
  for (const [name, value] of Object.entries({ ...extra, ...headers })) text += `${name}: ${value}\r\n`
  return `${text}\r\n`
}

/** Parses one request from the front of `buffer`, or returns undefined when it is not complete yet. */
const parseRequest = (buffer: Buffer): { request: Received; rest: Buffer } | undefined => {
  const end = buffer.indexOf("\r\n\r\n")
  if (end === -1) return undefined
  const lines = buffer.subarray(0, end).toString("latin1").split("\r\n")
  const [method = "", path = ""] = (lines[0] ?? "").split(" ")
  const headers: Record<string, string> = {}
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":")
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const length = Number(headers["content-length"] ?? 0)
  const total = end + 4 + length
  if (buffer.length < total) return undefined
  return {
    request: { method, path, headers, body: buffer.subarray(end + 4, total).toString("utf8") },
    rest: buffer.subarray(total)
  }
}

/** Starts a hostile server on 127.0.0.1 with the script; call `close()` when done. */
export const start = async (script: Script, limits: Limits = {}): Promise<Hostile> => {
  const maxRequests = limits.maxRequests ?? 1_000
  const sockets = new Set<Socket>()
  const timers = new Set<ReturnType<typeof setTimeout>>()
  let closed = false
  const state = {
    script,
    received: [] as Array<Received>,
    written: [] as Array<number>
  }

  const later = (ms: number, f: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer)
      f()
    }, ms)
    timers.add(timer)
  }

  const choose = (request: Received, n: number): Behaviour => {
    const current = state.script
    if (typeof current === "function") return current(request, n)
    return current[Math.min(n, current.length) - 1] ?? { _tag: "reset" }
  }

  const answer = (socket: Socket, behaviour: Behaviour, index: number) => {
    state.written[index] = 0
    const count = (n: number) => {
      state.written[index] = (state.written[index] ?? 0) + n
    }
    switch (behaviour._tag) {
      case "reset":
        socket.resetAndDestroy()
        return
      case "hang":
        return
      case "hugeHeaders": {
        const filler = "x".repeat(Math.max(0, behaviour.bytes))
        socket.end(head(behaviour.status, { "x-filler": filler }, { "content-length": "0", connection: "close" }))
        return
      }
      case "respond": {
        const body = behaviour.body === undefined ? Buffer.alloc(0) : bytesOf(behaviour.body)
        const declared = behaviour.contentLength ?? body.length
        socket.write(
          head(behaviour.status, behaviour.headers ?? {}, {
            "content-type": "application/json",
            "content-length": String(declared),
            connection: "close"
          })
        )
        count(body.length)
        // a body shorter than declared: the connection closes before the rest (a truncated answer)
        socket.end(body)
        return
      }
      case "stream": {
        const chunk = bytesOf(behaviour.chunk)
        const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")])
        socket.write(
          head(behaviour.status, behaviour.headers ?? {}, {
            "content-type": "application/json",
            "transfer-encoding": "chunked",
            connection: "close"
          })
        )
        if (behaviour.prefix !== undefined) {
          const prefix = bytesOf(behaviour.prefix)
          if (prefix.length > 0) {
            socket.write(Buffer.concat([Buffer.from(`${prefix.length.toString(16)}\r\n`), prefix, Buffer.from("\r\n")]))
            count(prefix.length)
          }
        }
        let left = behaviour.count ?? Number.POSITIVE_INFINITY
        const interval = behaviour.intervalMs ?? 0
        const pump = () => {
          while (!closed && !socket.destroyed) {
            if (left <= 0) {
              socket.end("0\r\n\r\n")
              return
            }
            left--
            count(chunk.length)
            const more = socket.write(frame)
            if (interval > 0) {
              later(interval, pump)
              return
            }
            if (!more) {
              socket.once("drain", pump)
              return
            }
          }
        }
        pump()
        return
      }
    }
  }

  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
    socket.on("error", () => {})
    let buffer = Buffer.alloc(0)
    let answered = false
    socket.on("data", (data: Buffer) => {
      if (answered) return
      buffer = Buffer.concat([buffer, data])
      // a request head larger than 1 MiB is not a bank client's: drop it
      if (buffer.length > 1 << 20) {
        socket.destroy()
        return
      }
      const parsed = parseRequest(buffer)
      if (parsed === undefined) return
      answered = true
      state.received.push(parsed.request)
      const n = state.received.length
      if (n > maxRequests || closed) {
        socket.resetAndDestroy()
        return
      }
      answer(socket, choose(parsed.request, n), n - 1)
    })
  })

  server.listen(0, "127.0.0.1")
  await new Promise<void>((resolve, reject) => {
    server.once("listening", () => resolve())
    server.once("error", reject)
  })
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0

  const close = () => {
    if (!closed) {
      closed = true
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      for (const socket of sockets) socket.destroy()
    }
    return new Promise<void>((resolve) => {
      if (!server.listening) resolve()
      else server.close(() => resolve())
    })
  }
  const lifetime = setTimeout(() => void close(), limits.lifetimeMs ?? 60_000)
  lifetime.unref()
  server.unref()

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received: state.received,
    written: state.written,
    get script() {
      return state.script
    },
    set script(next: Script) {
      state.script = next
    },
    close: () => {
      clearTimeout(lifetime)
      return close()
    }
  }
}

/** The hostile server as a scoped resource: started on acquisition, closed with the scope. */
export const hostile = (script: Script, limits?: Limits): Effect.Effect<Hostile, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.promise(() => start(script, limits)),
    (server) => Effect.promise(() => server.close())
  )

/** An endless JSON-looking body: `{"standingOrders":[` then the same order object again and again. */
export const endlessJson: Behaviour = {
  _tag: "stream",
  status: 200,
  prefix: '{"pageCount":1,"standingOrders":[',
  chunk: `${JSON.stringify({ orderId: "x".repeat(200) })},`.repeat(256)
}

/** A token answer any client-credentials request accepts. */
export const tokenOk: Behaviour = {
  _tag: "respond",
  status: 200,
  body: JSON.stringify({ access_token: "hostile-token", token_type: "Bearer", expires_in: 1200 })
}

/**
 * A paging bank: tokens on the token path, and for a standing-order page a full page (the requested size) of
 * distinct orders with `pageCount` from `pageCountOf(page)` (omitted when undefined): `() => 1_000_000_000` is the
 * page bomb, `() => undefined` full pages for ever.
 */
export const pagingBank =
  (pageCountOf: (page: number) => number | string | undefined) =>
  (request: Received, _n?: number): Behaviour => {
    if (request.path.endsWith("/connect/token")) return tokenOk
    let page = 0
    let pageSize = 50
    try {
      const body = JSON.parse(request.body) as { page?: number; pageSize?: number }
      page = body.page ?? 0
      pageSize = body.pageSize ?? 50
    } catch {
      // a body that is not JSON gets page 0
    }
    const pageCount = pageCountOf(page)
    const standingOrders = Array.from({ length: pageSize }, (_, i) => wireOrder(`p${page}-${i}`))
    return {
      _tag: "respond",
      status: 200,
      body: JSON.stringify(pageCount === undefined ? { standingOrders } : { pageCount, standingOrders })
    }
  }
