import { once } from "node:events"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { assert, describe, it } from "@effect/vitest"
import { type BankError, BankTransport } from "@tppkit/http"
import { Duration, Effect, Exit, Fiber, Layer } from "effect"
import { FetchHttpClient } from "effect/http"
import { afterAll, beforeAll } from "vitest"
import { closeServer, listenLoopback } from "./loopback.ts"

let server: Server
let baseUrl: string
/** Requests the server has seen closed before it answered them (the client aborted them). */
let abortedHolds = 0
let holdReceived: (() => void) | undefined

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      if (req.url === "/hold") {
        // never answers: the client has to give up (timeout or interruption)
        res.on("close", () => {
          if (!res.writableEnded) abortedHolds++
        })
        holdReceived?.()
        return
      }
      if (req.url === "/reset") {
        // the connection dies before any answer
        req.socket.destroy()
        return
      }
      if (req.url === "/large") {
        // a body of many chunks, with two-byte characters split across the chunk boundaries
        const text = JSON.stringify({ text: "ľščťžýáíé€".repeat(20_000) })
        const bytes = Buffer.from(text)
        res.setHeader("content-type", "application/json")
        for (let i = 0; i < bytes.length; i += 4097) res.write(bytes.subarray(i, i + 4097))
        res.end()
        return
      }
      res.setHeader("content-type", "application/json")
      res.setHeader("x-twice", ["a", "b"])
      res.setHeader("Response-ID", "r-1")
      res.statusCode = req.url === "/teapot" ? 418 : 200
      res.end(
        JSON.stringify({
          echo: Buffer.concat(chunks).toString(),
          type: req.headers["content-type"],
          method: req.method
        })
      )
    })
  })
  baseUrl = `http://127.0.0.1:${await listenLoopback(server)}`
})

afterAll(() => closeServer(server))

const send = (path: string, timeout: Duration.Duration, headers: Record<string, string> = {}) =>
  Effect.flatMap(Effect.service(BankTransport.BankTransport), (transport) =>
    transport.send({ url: `${baseUrl}${path}`, headers, contentType: "application/json", body: '{"a":1}' }, timeout)
  ).pipe(Effect.provide(BankTransport.BankTransport.layerUndici()))

/** The typed failure of an exit, or `undefined` when it succeeded or died. */
const failureOf = <A>(exit: Exit.Exit<A, BankTransport.Failure>): BankError.TransportFailure | undefined => {
  if (Exit.isSuccess(exit)) return undefined
  const reason = exit.cause.reasons.find((r) => r._tag === "Fail")
  return reason?._tag === "Fail" && reason.error._tag === "TransportFailure" ? reason.error : undefined
}

/** A GET of `path` through a transport layer: no body, no content type. */
const get = (layer: Layer.Layer<BankTransport.BankTransport>, path: string) =>
  Effect.flatMap(Effect.service(BankTransport.BankTransport), (transport) =>
    transport.send(
      { method: "GET", url: `${baseUrl}${path}`, headers: { Accept: "application/json" }, contentType: "", body: "" },
      Duration.seconds(5)
    )
  ).pipe(Effect.provide(layer))

describe("BankTransport: a GET (a mock bank's instance)", () => {
  it.live("layerUndici sends a GET without a body or a content type", () =>
    Effect.gen(function* () {
      const exchange = yield* get(BankTransport.BankTransport.layerUndici(), "/instance")
      assert.strictEqual(exchange.status, 200)
      assert.deepStrictEqual(JSON.parse(exchange.text), { echo: "", method: "GET" })
    })
  )
  it.live("layerHttpClient sends a GET without a body or a content type", () =>
    Effect.gen(function* () {
      const layer = BankTransport.BankTransport.layerHttpClient.pipe(Layer.provide(FetchHttpClient.layer))
      const exchange = yield* get(layer, "/instance")
      assert.strictEqual(exchange.status, 200)
      assert.deepStrictEqual(JSON.parse(exchange.text), { echo: "", method: "GET" })
    })
  )
})

describe("BankTransport.layerUndici", () => {
  it.live("reads status, lower-case headers (repeated ones joined) and the whole body; adds the content type", () =>
    Effect.gen(function* () {
      const exchange = yield* send("/teapot", Duration.seconds(5))
      assert.strictEqual(exchange.status, 418)
      assert.strictEqual(exchange.headers["response-id"], "r-1")
      assert.strictEqual(exchange.headers["x-twice"], "a, b")
      assert.deepStrictEqual(JSON.parse(exchange.text), { echo: '{"a":1}', type: "application/json", method: "POST" })
    })
  )

  it.live("reads a body of many chunks whole, characters split across chunks included", () =>
    Effect.gen(function* () {
      const exchange = yield* send("/large", Duration.seconds(5))
      assert.strictEqual(exchange.status, 200)
      assert.strictEqual(JSON.parse(exchange.text).text, "ľščťžýáíé€".repeat(20_000))
    })
  )

  it.live("a connection closed before the answer is a TransportFailure of kind reset", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(send("/reset", Duration.seconds(5)))
      assert.strictEqual(failureOf(exit)?.kind, "reset")
    })
  )

  it.live("a URL undici cannot use is a TransportFailure, not a defect", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(
        Effect.flatMap(Effect.service(BankTransport.BankTransport), (transport) =>
          transport.send(
            { url: "not a url", headers: {}, contentType: "application/json", body: "{}" },
            Duration.seconds(5)
          )
        ).pipe(Effect.provide(BankTransport.BankTransport.layerUndici()))
      )
      assert.strictEqual(failureOf(exit)?._tag, "TransportFailure")
    })
  )

  it.live("a response that does not come within the timeout is a TransportFailure of kind timeout", () =>
    Effect.gen(function* () {
      const started = Date.now()
      const exit = yield* Effect.exit(send("/hold", Duration.millis(150)))
      // the deadline is kept, not rounded up to undici's coarse timers (which would fire after about a second)
      assert.isBelow(Date.now() - started, 900)
      assert.strictEqual(failureOf(exit)?.kind, "timeout")
    })
  )

  it.live("interrupting the call aborts the request on the wire", () =>
    Effect.gen(function* () {
      const before = abortedHolds
      const received = new Promise<void>((resolve) => {
        holdReceived = resolve
      })
      const fiber = yield* Effect.forkChild(send("/hold", Duration.seconds(30)))
      yield* Effect.promise(() => received)
      yield* Fiber.interrupt(fiber)
      // the server sees its side of the request closed without an answer
      for (let i = 0; i < 100 && abortedHolds === before; i++) yield* Effect.sleep(Duration.millis(10))
      assert.strictEqual(abortedHolds, before + 1)
    })
  )

  it.live("a refused connection is a TransportFailure of kind connect", () =>
    Effect.gen(function* () {
      const closed = createServer()
      closed.listen(0, "127.0.0.1")
      yield* Effect.promise(() => once(closed, "listening"))
      const port = (closed.address() as AddressInfo).port
      yield* Effect.promise(() => new Promise<void>((resolve) => closed.close(() => resolve())))
      const exit = yield* Effect.exit(
        Effect.flatMap(Effect.service(BankTransport.BankTransport), (transport) =>
          transport.send(
            { url: `http://127.0.0.1:${port}/x`, headers: {}, contentType: "application/json", body: "{}" },
            Duration.seconds(5)
          )
        ).pipe(Effect.provide(BankTransport.BankTransport.layerUndici()))
      )
      assert.strictEqual(failureOf(exit)?.kind, "connect")
    })
  )
})
