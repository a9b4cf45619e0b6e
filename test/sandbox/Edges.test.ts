/**
 * The mock bank's HTTP edges over raw loopback sockets: what a real bank answers to oversized heads, unknown
 * methods, broken framing, slow clients, oversized declared bodies, bytes that are not UTF-8, too many connections,
 * and the admin token of the journal and the fault header.
 */
import { connect, type Socket } from "node:net"
import { assert, describe, layer } from "@effect/vitest"
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { Effect, Redacted } from "effect"
import { apiHeaders, balanceBody, post, token, tokenAnswer } from "./support.ts"

/** Sends raw bytes and collects what comes back until the server closes or `waitMs` pass; also when it closed. */
const raw = (port: number, chunks: ReadonlyArray<string | Buffer>, waitMs = 3000) =>
  Effect.promise(
    () =>
      new Promise<{ text: string; closedAfterMs: number | undefined }>((resolve) => {
        const started = Date.now()
        const socket = connect(port, "127.0.0.1")
        let text = ""
        const finish = (closed: boolean) => {
          clearTimeout(timer)
          socket.destroy()
          resolve({ text, closedAfterMs: closed ? Date.now() - started : undefined })
        }
        const timer = setTimeout(() => finish(false), waitMs)
        socket.on("connect", () => {
          for (const c of chunks) socket.write(c)
        })
        socket.on("data", (d) => {
          text += d.toString("utf8")
        })
        socket.on("close", () => finish(true))
        socket.on("error", () => finish(true))
      })
  )

/** A raw connection held open by the test: what it received, whether the server closed it, and a way to wait. */
const hold = (port: number, allowHalfOpen = false) =>
  new Promise<{ socket: Socket; received: () => string; closed: () => boolean; ended: () => boolean }>(
    (resolve, reject) => {
      const socket = connect({ port, host: "127.0.0.1", allowHalfOpen })
      let text = ""
      let closed = false
      let ended = false
      socket.on("data", (d) => {
        text += d.toString("utf8")
      })
      socket.on("end", () => {
        ended = true
      })
      socket.on("close", () => {
        closed = true
      })
      socket.on("error", () => undefined)
      socket.once("connect", () => resolve({ socket, received: () => text, closed: () => closed, ended: () => ended }))
      socket.once("error", reject)
    }
  )

/** Waits in real time (tests run on the test clock) until `done` holds, for at most `ms`; whether it held. */
const until = (done: () => boolean, ms = 5000) =>
  Effect.promise(
    () =>
      new Promise<boolean>((resolve) => {
        const started = Date.now()
        const look = () => {
          if (done()) resolve(true)
          else if (Date.now() - started > ms) resolve(false)
          else setTimeout(look, 20)
        }
        look()
      })
  )

const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)
const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))

const options: Sandbox.Options = {
  adminToken: Redacted.make("admin-s3cret"),
  http: { headersTimeoutMs: 600, requestTimeoutMs: 1200, maxConnections: 8 }
}

layer(Sandbox.layer(options))("Sandbox HTTP edges", (it) => {
  describe("malformed requests get a status and a problem body", () => {
    it.effect("an oversized head gets 431", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const a = yield* raw(info.port, [`GET /x HTTP/1.1\r\nhost: a\r\nx-big: ${"a".repeat(20_000)}\r\n\r\n`])
        assert.strictEqual(statusOf(a.text), 431)
        assert.strictEqual(bodyOf(a.text).code, "HEADERS_TOO_LARGE")
      })
    )

    it.effect("an unknown method gets 501, a known one not allowed gets 405 with Allow", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const a = yield* raw(info.port, [`FROB ${info.paths.token} HTTP/1.1\r\nhost: a\r\n\r\n`])
        assert.strictEqual(statusOf(a.text), 501)
        assert.strictEqual(bodyOf(a.text).status, 501)
        const b = yield* post(info.baseUrl + info.paths.token, { method: "PUT", body: "" })
        assert.strictEqual(b.status, 405)
        assert.strictEqual(b.headers.get("allow"), "POST")
        assert.strictEqual(b.json.code, "METHOD_NOT_ALLOWED")
      })
    )

    it.effect("broken framing gets 400 with a problem body", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const a = yield* raw(info.port, ["POST /x HTTP/1.1\r\nhost: a\r\ncontent-length: abc\r\n\r\n"])
        assert.strictEqual(statusOf(a.text), 400)
        assert.strictEqual(bodyOf(a.text).code, "MALFORMED_REQUEST")
      })
    )

    it.effect("a body that is not UTF-8 gets 400 naming it", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const t = yield* token(info, "PIISP")
        const body = Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])
        const res = yield* Effect.promise(() =>
          fetch(info.baseUrl + info.paths.balanceCheck, { method: "POST", headers: apiHeaders(t), body })
        )
        const json = (yield* Effect.promise(() => res.json())) as { detail: string }
        assert.strictEqual(res.status, 400)
        assert.match(json.detail, /UTF-8/)
      })
    )
  })

  describe("slow and greedy clients", () => {
    it.effect("an idle connection and a slow body are answered 408 within a few seconds", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const idle = yield* raw(info.port, [], 5000)
        assert.strictEqual(statusOf(idle.text), 408)
        assert.isBelow(idle.closedAfterMs ?? 99_999, 4000)
        const slow = yield* raw(
          info.port,
          [`POST ${info.paths.token} HTTP/1.1\r\nhost: a\r\ncontent-length: 100\r\n\r\ngrant_type=`],
          6000
        )
        assert.strictEqual(statusOf(slow.text), 408)
        assert.isBelow(slow.closedAfterMs ?? 99_999, 5000)
      })
    )

    it.effect("a connection answered 408 is closed for good, even when the client keeps its side open", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        // as many idle clients as the cap, none of which ever closes its side
        const idle = yield* Effect.promise(() => Promise.all(Array.from({ length: 8 }, () => hold(info.port, true))))
        try {
          assert.isTrue(yield* until(() => idle.every((c) => c.ended()), 6000))
          for (const c of idle) assert.strictEqual(statusOf(c.received()), 408)
          // the server's side is gone: what the client sends now is refused by the peer, and the socket closes
          // (a write to a peer that is gone is refused with a reset, which the next write reports)
          for (const c of idle) c.socket.write(`GET /x HTTP/1.1\r\nhost: a\r\n\r\n`)
          yield* until(() => false, 200)
          for (const c of idle) if (!c.socket.destroyed) c.socket.write(`GET /y HTTP/1.1\r\nhost: a\r\n\r\n`)
          assert.isTrue(yield* until(() => idle.every((c) => c.closed()), 4000))
          for (const c of idle) assert.notInclude(c.received().slice(c.received().indexOf("408")), "HTTP/1.1 404")
          const t = yield* token(info, "PIISP")
          const ok = yield* post(info.baseUrl + info.paths.balanceCheck, {
            headers: apiHeaders(t),
            body: balanceBody(Fixtures.ibans.eurBranch, 1)
          })
          assert.strictEqual(ok.status, 200)
        } finally {
          for (const c of idle) c.socket.destroy()
        }
      })
    )

    it.effect("Expect: 100-continue with an oversized length gets 413 and never 100 Continue", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const a = yield* raw(info.port, [
          `POST ${info.paths.balanceCheck} HTTP/1.1\r\nhost: a\r\ncontent-type: application/json\r\n` +
            "content-length: 100000000\r\nexpect: 100-continue\r\n\r\n"
        ])
        assert.notInclude(a.text, "100 Continue")
        assert.strictEqual(statusOf(a.text), 413)
        assert.strictEqual(bodyOf(a.text).code, "PAYLOAD_TOO_LARGE")
      })
    )

    it.effect("connections beyond the cap close idle ones at once, and the server keeps serving", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const sockets = Array.from({ length: 12 }, () => connect(info.port, "127.0.0.1"))
        const closed = yield* Effect.promise(() =>
          Promise.all(
            sockets.map(
              (s) =>
                new Promise<boolean>((resolve) => {
                  const timer = setTimeout(() => resolve(false), 400)
                  s.on("close", () => {
                    clearTimeout(timer)
                    resolve(true)
                  })
                  s.on("error", () => undefined)
                })
            )
          )
        )
        assert.isAtLeast(closed.filter((c) => c).length, 4)
        for (const s of sockets) s.destroy()
        // (it.effect runs on the test clock: wait in real time)
        yield* Effect.promise(() => new Promise((r) => setTimeout(r, 50)))
        const t = yield* token(info, "PIISP")
        const ok = yield* post(info.baseUrl + info.paths.balanceCheck, {
          headers: { ...apiHeaders(t) },
          body: balanceBody(Fixtures.ibans.eurBranch, 1)
        })
        assert.strictEqual(ok.status, 200)
      })
    )
  })

  describe("admin token", () => {
    it.effect("the journal and the fault header need X-Sandbox-Admin; the journal reads ?since= and ?limit=", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const refused = yield* post(`${info.baseUrl}/__journal`, { method: "GET" })
        assert.strictEqual(refused.status, 401)
        assert.strictEqual(refused.json.code, "ADMIN_TOKEN_REQUIRED")
        const wrong = yield* post(`${info.baseUrl}/__journal`, { method: "GET", headers: { "x-sandbox-admin": "no" } })
        assert.strictEqual(wrong.status, 401)
        const admin = { "x-sandbox-admin": "admin-s3cret" }
        const t = yield* token(info, "PIISP")
        const fault = yield* post(info.baseUrl + info.paths.balanceCheck, {
          headers: apiHeaders(t, { "x-sandbox-fault": "503" }),
          body: balanceBody(Fixtures.ibans.eurBranch, 1)
        })
        assert.strictEqual(fault.status, 401)
        const faultAdmin = yield* post(info.baseUrl + info.paths.balanceCheck, {
          headers: apiHeaders(t, { "x-sandbox-fault": "503", ...admin }),
          body: balanceBody(Fixtures.ibans.eurBranch, 1)
        })
        assert.strictEqual(faultAdmin.status, 503)
        const all = yield* post(`${info.baseUrl}/__journal`, { method: "GET", headers: admin })
        assert.strictEqual(all.status, 200)
        assert.isAbove(all.json.length, 2)
        assert.notInclude(all.text, "admin-s3cret")
        const lastSeq = all.json.at(-1).seq as number
        const some = yield* post(`${info.baseUrl}/__journal?since=${lastSeq - 2}&limit=1`, {
          method: "GET",
          headers: admin
        })
        assert.deepStrictEqual(
          some.json.map((e: { seq: number }) => e.seq),
          [lastSeq - 1]
        )
        const bad = yield* post(`${info.baseUrl}/__journal?limit=-1`, { method: "GET", headers: admin })
        assert.strictEqual(bad.status, 400)
      })
    )

    it.effect(
      "GET/POST /__clock reads and moves the sandbox clock; GET/PUT /__faults reads and replaces global faults",
      () =>
        Effect.gen(function* () {
          const info = yield* Sandbox.SandboxInfo
          const admin = { "x-sandbox-admin": "admin-s3cret", "content-type": "application/json" }
          assert.strictEqual((yield* post(`${info.baseUrl}/__clock`, { method: "GET" })).status, 401)
          const before = yield* post(`${info.baseUrl}/__clock`, { method: "GET", headers: admin })
          const moved = yield* post(`${info.baseUrl}/__clock`, { headers: admin, body: '{"adjustSeconds":3600}' })
          assert.strictEqual(moved.status, 200)
          assert.approximately(moved.json.epochMillis - before.json.epochMillis, 3_600_000, 60_000)
          const set = yield* post(`${info.baseUrl}/__clock`, { headers: admin, body: '{"set":"2026-11-23T11:00:00Z"}' })
          assert.strictEqual(set.json.now.slice(0, 16), "2026-11-23T11:00")
          const wrong = yield* post(`${info.baseUrl}/__clock`, { headers: admin, body: '{"set":"noon"}' })
          assert.strictEqual(wrong.status, 400)
          yield* post(`${info.baseUrl}/__clock`, { headers: admin, body: `{"set":"${new Date().toISOString()}"}` })

          assert.deepStrictEqual((yield* post(`${info.baseUrl}/__faults`, { method: "GET", headers: admin })).json, {
            rate: 0
          })
          const on = yield* post(`${info.baseUrl}/__faults`, {
            method: "PUT",
            headers: admin,
            body: '{"rate":1,"kinds":["503"]}'
          })
          assert.strictEqual(on.status, 200)
          const t1 = yield* tokenAnswer(info, "PIISP")
          assert.strictEqual(t1.status, 503)
          const badFaults = yield* post(`${info.baseUrl}/__faults`, {
            method: "PUT",
            headers: admin,
            body: '{"rate":2}'
          })
          assert.strictEqual(badFaults.status, 400)
          const off = yield* post(`${info.baseUrl}/__faults`, { method: "PUT", headers: admin, body: '{"rate":0}' })
          assert.deepStrictEqual(off.json, { rate: 0 })
          assert.strictEqual((yield* tokenAnswer(info, "PIISP")).status, 200)
          const method = yield* post(`${info.baseUrl}/__faults`, { method: "DELETE", headers: admin })
          assert.strictEqual(method.status, 405)
          assert.strictEqual(method.headers.get("allow"), "GET, PUT")
        })
    )
  })
})

/** Idle sockets never time out here, so that only the cap decides; bodies held at once are bounded low. */
const crowded: Sandbox.Options = {
  http: { headersTimeoutMs: 30_000, requestTimeoutMs: 60_000, maxConnections: 16, maxHeldBodyBytes: 100_000 }
}

layer(Sandbox.layer(crowded))("Sandbox HTTP edges under a crowd", (it) => {
  it.effect("idle sockets holding every connection never keep a client out: the longest idle make room", () =>
    Effect.gen(function* () {
      const info = yield* Sandbox.SandboxInfo
      const held: Array<Awaited<ReturnType<typeof hold>>> = []
      try {
        // 40 sockets that never send a byte, one after another (the scaled-down form of 1,100 against 1,024)
        for (let i = 0; i < 40; i++) held.push(yield* Effect.promise(() => hold(info.port)))
        // the cap holds 16 of them: the 24 oldest were closed to make room for the newer ones
        assert.isTrue(yield* until(() => held.filter((c) => c.closed()).length >= 24))
        assert.isTrue(held.slice(0, 24).every((c) => c.closed()))
        assert.isTrue(held.slice(24).every((c) => !c.closed()))
        // a client is served while the idle sockets are still held, on a fresh connection each time
        for (let i = 0; i < 3; i++) {
          const t = yield* token(info, "PIISP")
          const ok = yield* post(info.baseUrl + info.paths.balanceCheck, {
            headers: { ...apiHeaders(t), connection: "close" },
            body: balanceBody(Fixtures.ibans.eurBranch, 1)
          })
          assert.strictEqual(ok.status, 200)
        }
        // never a slot without need: the newest idle sockets are still there, nothing answered them
        assert.isTrue(held.slice(-8).every((c) => !c.closed() && c.received() === ""))
      } finally {
        for (const c of held) c.socket.destroy()
      }
    })
  )

  it.effect(
    "bodies held at once are bounded: the request that would pass the bound gets 503 before its body ends",
    () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        // 60,000 bytes are held for the first request; 60,000 more would pass the bound of 100,000
        const head = (length: number) =>
          `POST ${info.paths.balanceCheck} HTTP/1.1\r\nhost: a\r\ncontent-type: application/json\r\n` +
          `content-length: ${length}\r\n\r\n`
        const first = yield* Effect.promise(() => hold(info.port))
        const second = yield* Effect.promise(() => hold(info.port))
        try {
          first.socket.write(head(65_000) + " ".repeat(60_000))
          // the first request's body is held (no answer yet: it is not complete)
          yield* until(() => false, 300)
          assert.strictEqual(first.received(), "")
          second.socket.write(head(65_000) + " ".repeat(60_000))
          assert.isTrue(yield* until(() => second.received().includes("\r\n\r\n{")))
          assert.strictEqual(statusOf(second.received()), 503)
          assert.match(second.received(), /retry-after: 1/i)
          assert.strictEqual(bodyOf(second.received()).code, "SERVICE_UNAVAILABLE")
          assert.isTrue(yield* until(second.closed))
          assert.strictEqual(first.received(), "")
          // the first one ends its body and gets its own answer (here: 400, it lacks the mandatory headers)
          first.socket.write(" ".repeat(5_000))
          assert.isTrue(yield* until(() => first.received().includes("\r\n\r\n")))
          assert.strictEqual(statusOf(first.received()), 400)
        } finally {
          first.socket.destroy()
          second.socket.destroy()
        }
        // what an answered or abandoned request held is given back: two more large bodies are read in full
        const third = yield* Effect.promise(() => hold(info.port))
        const fourth = yield* Effect.promise(() => hold(info.port))
        try {
          third.socket.write(head(45_000) + " ".repeat(40_000))
          fourth.socket.write(head(45_000) + " ".repeat(40_000))
          third.socket.destroy()
          yield* until(() => false, 300)
          const fifth = yield* Effect.promise(() => hold(info.port))
          try {
            fifth.socket.write(head(45_000) + " ".repeat(45_000))
            fourth.socket.write(" ".repeat(5_000))
            assert.isTrue(yield* until(() => fifth.received().includes("\r\n\r\n") && fourth.received() !== ""))
            assert.strictEqual(statusOf(fifth.received()), 400)
            assert.strictEqual(statusOf(fourth.received()), 400)
          } finally {
            fifth.socket.destroy()
          }
        } finally {
          third.socket.destroy()
          fourth.socket.destroy()
        }
      })
  )
})
