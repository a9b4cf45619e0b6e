/**
 * Webhooks: the Standard Webhooks signature (laws against the `standardwebhooks` package, the reference library
 * receivers run), verification and the ways a request fails, secrets, the body's bound and the retry schedule; and
 * the durable outbox on a real PostgreSQL posting to a receiver on loopback that fails, times out, answers 410 or 429
 * with Retry-After and comes back, across a worker that stops in the middle of a delivery, on a database made by the
 * version before Standard Webhooks, and replayed. Every request a receiver gets here is verified with
 * `standardwebhooks`, not with our own verifier.
 */

import { readFileSync } from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { Backoff, ErrorBody } from "@tppkit/core"
import { BankError } from "@tppkit/http"
import { Checks, Lifecycle, SweepLog, Webhook } from "@tppkit/worker"
import * as Database from "@tppkit/worker/Database"
import { Effect, Exit, Layer, Redacted, Result, Schema, Scope } from "effect"
import { SqlClient } from "effect/sql"
import * as fc from "fast-check"
import { Webhook as StandardWebhook } from "standardwebhooks"
import { clusterTables, healthyRunner, request } from "./clusterQueue.ts"
import { embeddedDb } from "./pg.ts"
import { checkFailed, due as dueFixture } from "./support.ts"

const db = embeddedDb()
const secret = Webhook.makeSecret()
const reason = (r: Result.Result<unknown, Webhook.WebhookError>) => (Result.isFailure(r) ? r.failure.reason : "ok")
const signed = (
  s: Redacted.Redacted<string> | ReadonlyArray<Redacted.Redacted<string>>,
  id: string,
  t: number,
  body: string
) => Result.getOrThrow(Webhook.sign(s, id, t, body))

/** The key of a secret as `standardwebhooks` takes it: the secret's text. */
const reference = (s: Redacted.Redacted<string>) => new StandardWebhook(Redacted.value(s))

describe("Webhook.sign and Webhook.verify (Standard Webhooks)", () => {
  const body = JSON.stringify({ type: "check.declined", timestamp: "2026-11-02T07:00:00Z", data: {} })
  const id = "evt_1"

  const keys = fc.uint8Array({ minLength: 24, maxLength: 64 })
  // a header's value has no spaces around it (HTTP trims them), and the fleet's ids have none at all
  const ids = fc.stringMatching(/^[\w.-]{0,40}$/)
  const secretOf = (k: Uint8Array) => Redacted.make(`whsec_${Buffer.from(k).toString("base64")}`)
  const textOf = (extra: string) => JSON.stringify({ type: "sweep.failed", timestamp: "x", data: { extra } })

  it("what we sign, standardwebhooks verifies, and what it signs is what we sign", () => {
    // the reference library hashes in JavaScript: a thousand runs keep this under a few seconds on a loaded machine
    fc.assert(
      fc.property(keys, ids, fc.string(), fc.integer({ min: 0, max: 299 }), (k, msgId, extra, skew) => {
        const s = secretOf(k)
        const t = Math.floor(Date.now() / 1000) - skew
        const text = textOf(extra)
        const eventId = `evt_${msgId}`
        const ours = signed(s, eventId, t, text)
        const headers = { "webhook-id": eventId, "webhook-timestamp": String(t), "webhook-signature": ours }
        assert.deepStrictEqual(reference(s).verify(text, headers), JSON.parse(text))
        assert.strictEqual(reference(s).sign(eventId, new Date(t * 1000), text), ours)
      }),
      { numRuns: 1000 }
    )
  })

  it("what we sign we verify; any other secret, id, time or body does not", () => {
    fc.assert(
      fc.property(keys, keys, ids, fc.string(), fc.integer({ min: 0, max: 299 }), (k, other, msgId, extra, skew) => {
        const s = secretOf(k)
        const now = Date.now()
        const t = Math.floor(now / 1000) - skew
        const text = textOf(extra)
        const eventId = `evt_${msgId}`
        const headers = {
          "webhook-id": eventId,
          "webhook-timestamp": String(t),
          "webhook-signature": signed(s, eventId, t, text)
        }
        const ok = Webhook.verify({ body: text, headers, secret: s, now })
        assert.isTrue(Result.isSuccess(ok) && ok.success.id === eventId && ok.success.timestamp === t)
        if (Buffer.compare(k, other) !== 0) {
          const wrong = Webhook.verify({ body: text, headers, secret: secretOf(other), now })
          assert.strictEqual(reason(wrong), "signatureMismatch")
        }
        assert.strictEqual(reason(Webhook.verify({ body: `${text} `, headers, secret: s, now })), "signatureMismatch")
        const otherId = { ...headers, "webhook-id": `${eventId}x` }
        assert.strictEqual(
          reason(Webhook.verify({ body: text, headers: otherId, secret: s, now })),
          "signatureMismatch"
        )
        const otherTime = { ...headers, "webhook-timestamp": String(t - 1) }
        assert.strictEqual(
          reason(Webhook.verify({ body: text, headers: otherTime, secret: s, now })),
          "signatureMismatch"
        )
      }),
      { numRuns: 10_000 }
    )
  })

  it("during a rotation each secret signs; a receiver with either (ours or standardwebhooks) verifies", () => {
    const next = Webhook.makeSecret(48)
    const t = Math.floor(Date.now() / 1000)
    const header = signed([next, secret], id, t, body)
    assert.match(header, /^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/)
    const headers = { "webhook-id": id, "webhook-timestamp": String(t), "webhook-signature": header }
    for (const s of [next, secret]) {
      assert.deepStrictEqual(reference(s).verify(body, headers), JSON.parse(body))
      assert.strictEqual(reason(Webhook.verify({ body, headers, secret: s })), "ok")
    }
    assert.strictEqual(reason(Webhook.verify({ body, headers, secret: Webhook.makeSecret() })), "signatureMismatch")
  })

  it("refuses a missing header, a malformed signature, an old or future timestamp, a body that is not an event", () => {
    const now = Date.UTC(2026, 10, 2, 7, 0, 5)
    const t = Math.floor(now / 1000)
    const one = (
      over: { id?: string | undefined; timestamp?: string | undefined; signature?: string | undefined },
      text = body,
      tolerance?: number
    ) =>
      reason(
        Webhook.verify({
          body: text,
          id: "id" in over ? over.id : id,
          timestamp: "timestamp" in over ? over.timestamp : String(t),
          signature: "signature" in over ? over.signature : signed(secret, id, t, text),
          secret,
          now,
          toleranceSeconds: tolerance
        })
      )
    assert.strictEqual(one({}), "ok")
    assert.strictEqual(one({ id: undefined }), "missingHeader")
    assert.strictEqual(one({ timestamp: "" }), "missingHeader")
    assert.strictEqual(one({ signature: undefined }), "missingHeader")
    assert.strictEqual(one({ timestamp: "soon" }), "malformedSignature")
    assert.strictEqual(one({ signature: "v2,abc" }), "malformedSignature")
    // the old scheme's header is not a Standard Webhooks signature
    assert.strictEqual(one({ signature: `t=${t},v1=${"0".repeat(64)}` }), "malformedSignature")
    const old = { timestamp: String(t - 301), signature: signed(secret, id, t - 301, body) }
    assert.strictEqual(one(old), "timestampOutOfTolerance")
    assert.strictEqual(one(old, body, 600), "ok")
    const future = { timestamp: String(t + 400), signature: signed(secret, id, t + 400, body) }
    assert.strictEqual(one(future), "timestampOutOfTolerance")
    assert.strictEqual(one({ signature: signed(secret, id, t, "[1]") }, "[1]"), "invalidBody")
    // the body of the version before (id, occurredAt) is no event any more
    const before = JSON.stringify({ id, type: "sweep.failed", occurredAt: "2026-11-02T07:00:00Z", data: {} })
    assert.strictEqual(one({ signature: signed(secret, id, t, before) }, before), "invalidBody")
    // a forged signature of the right shape is refused and no message carries the secret
    const forged = Webhook.verify({
      body,
      headers: new Headers({
        "Webhook-Id": id,
        "Webhook-Timestamp": String(t),
        "Webhook-Signature": `v1,${Buffer.alloc(32).toString("base64")}`
      }),
      secret,
      now
    })
    assert.strictEqual(reason(forged), "signatureMismatch")
    if (Result.isFailure(forged)) assert.notInclude(forged.failure.message, Redacted.value(secret))
  })

  it("secrets: whsec_ and the base64 of 24 to 64 bytes; anything else is refused and says how to make one", () => {
    for (const bytes of [24, 32, 64]) {
      const made = Redacted.value(Webhook.makeSecret(bytes))
      assert.match(made, /^whsec_[A-Za-z0-9+/]+={0,2}$/)
      assert.strictEqual(Buffer.from(made.slice(6), "base64").length, bytes)
    }
    assert.notStrictEqual(Redacted.value(Webhook.makeSecret()), Redacted.value(Webhook.makeSecret()))
    const refused = (text: string) => {
      const key = Webhook.keyOf(Redacted.make(text))
      return Result.isFailure(key) ? key.failure.message : "ok"
    }
    assert.strictEqual(refused(`whsec_${Buffer.alloc(24).toString("base64")}`), "ok")
    assert.include(refused("e2e-webhook-secret"), "starts with whsec_")
    assert.include(refused("e2e-webhook-secret"), "tppkit webhook secret")
    assert.include(refused(`whsec_${Buffer.alloc(23).toString("base64")}`), "24 to 64 bytes, this one 23")
    assert.include(refused(`whsec_${Buffer.alloc(65).toString("base64")}`), "this one 65")
    assert.include(refused("whsec_not base64!"), "base64")
    assert.strictEqual(reason(Webhook.sign(Redacted.make("plain"), id, 1, body)), "invalidSecret")
  })

  it("an event's id is stable: the same kind and subject, the same id", () => {
    assert.strictEqual(
      Webhook.eventId("check.declined", ["c1", "SO-1", "2026-03-02"]),
      Webhook.eventId("check.declined", ["c1", "SO-1", "2026-03-02"])
    )
    assert.notStrictEqual(
      Webhook.eventId("check.declined", ["c1", "SO-1", "2026-03-02"]),
      Webhook.eventId("check.refused", ["c1", "SO-1", "2026-03-02"])
    )
  })
})

describe("Webhook.body", () => {
  it("a body within 20 KB is the event's JSON; a longer list keeps what fits and says how many it left out", () => {
    const small = { type: "sweep.failed" as const, timestamp: "2026-11-02T07:00:00Z", data: { day: "2026-11-02" } }
    assert.strictEqual(Webhook.body(small), JSON.stringify(small))
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), fc.string({ maxLength: 40 }), (n, name) => {
        const payments = Array.from({ length: n }, (_, i) => ({ orderId: `SO-${i}-${name}`, amount: "10.00" }))
        const event = {
          type: "check.declined" as const,
          timestamp: "2026-11-02T07:00:00Z",
          data: { day: "d", payments }
        }
        const text = Webhook.body(event)
        assert.isAtMost(Buffer.byteLength(text), Webhook.maxBodyBytes)
        const parsed = JSON.parse(text)
        if (Buffer.byteLength(JSON.stringify(event)) <= Webhook.maxBodyBytes) {
          assert.strictEqual(text, JSON.stringify(event))
          return
        }
        const kept = parsed.data.payments.length
        assert.isAbove(kept, 0)
        assert.deepStrictEqual(parsed.data.payments, payments.slice(0, kept))
        assert.deepStrictEqual(parsed.data.omitted, { payments: n - kept })
        assert.match(parsed.data.more, new RegExp(`^${n - kept} of ${n} payments left out`))
        assert.include(parsed.data.more, "tppkit webhook replay --since 2026-11-02T07:00:00Z --type check.declined")
        // one more item would not fit
        const more = JSON.stringify({ ...parsed, data: { ...parsed.data, payments: payments.slice(0, kept + 1) } })
        assert.isAbove(Buffer.byteLength(more), Webhook.maxBodyBytes)
      }),
      { numRuns: 300 }
    )
  })
})

describe("Webhook.retrySchedule", () => {
  it("is Standard Webhooks' table: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, each within a tenth", () => {
    assert.deepStrictEqual(
      Webhook.retrySchedule.delays,
      [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400].map((s) => s * 1000)
    )
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.double({ min: 0, max: 1, noNaN: true }), (attempts, random) => {
        const wait = Webhook.retryDelay(attempts, random) as number
        const delay = Backoff.nominalMillis(Webhook.retrySchedule, attempts) as number
        assert.isAtLeast(wait, Math.floor(delay * 0.9))
        assert.isAtMost(wait, Math.ceil(delay * 1.1))
      }),
      { numRuns: 10_000 }
    )
    assert.strictEqual(Webhook.retryDelay(10, 0.5), undefined, "the tenth attempt is the last")
    assert.strictEqual(Webhook.retryDelay(1, 0.5), 5000)
  })
})

/** What a receiver on loopback got: each request's headers, body, when, and whether standardwebhooks verified it. */
interface Received {
  readonly id: string
  readonly timestamp: string
  readonly signature: string
  readonly body: string
  readonly valid: boolean
  readonly answered: number
  readonly at: number
}

type Answer = number | "hang" | { readonly status: number; readonly retryAfter: string }

/**
 * A receiver on 127.0.0.1 whose `n`-th request is answered by `plan(n)`: a status, a status with `Retry-After`, or
 * "hang" (no answer until the receiver is closed). Each request is verified with `standardwebhooks`.
 */
const receiver = (plan: (n: number) => Answer, key: Redacted.Redacted<string> = secret) =>
  Effect.acquireRelease(
    Effect.callback<{ url: string; received: Array<Received>; server: ReturnType<typeof createServer> }>((resume) => {
      const received: Array<Received> = []
      const hanging: Array<ServerResponse> = []
      const server = createServer((req: IncomingMessage, res) => {
        let body = ""
        req.setEncoding("utf8").on("data", (c: string) => {
          body += c
        })
        req.on("end", () => {
          const answer = plan(received.length + 1)
          const header = (name: string) => String(req.headers[name])
          let valid = true
          try {
            reference(key).verify(body, {
              "webhook-id": header("webhook-id"),
              "webhook-timestamp": header("webhook-timestamp"),
              "webhook-signature": header("webhook-signature")
            })
          } catch {
            valid = false
          }
          received.push({
            id: header("webhook-id"),
            timestamp: header("webhook-timestamp"),
            signature: header("webhook-signature"),
            body,
            valid,
            answered: answer === "hang" ? 0 : typeof answer === "number" ? answer : answer.status,
            at: Date.now()
          })
          if (answer === "hang") hanging.push(res)
          else if (typeof answer === "number") res.writeHead(answer).end()
          else res.writeHead(answer.status, { "retry-after": answer.retryAfter }).end()
        })
      })
      server.on("close", () => {
        for (const r of hanging) r.destroy()
      })
      server.listen(0, "127.0.0.1", () =>
        resume(
          Effect.succeed({
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
            received,
            server
          })
        )
      )
    }),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

const forbidden = checkFailed(
  { requestId: "req-403", correlationId: "corr-403" },
  new BankError.Forbidden({ body: ErrorBody.decode(403, undefined, '{"code":"CONSENT_MISSING"}') })
)

const unavailable = checkFailed(
  { correlationId: "corr-503" },
  new BankError.TransportFailure({ kind: "timeout", detail: "no answer within 10 s" }),
  1
)

/** Records four checks (APPR, DECL, refused, unanswered) and a failed sweep of consent c2. */
const recordOutcomes = (at: number) =>
  Effect.gen(function* () {
    const checks = yield* Checks.Checks
    const due = (orderId: string, amount: string) =>
      dueFixture({ orderId, amount, executionDate: "2099-03-02", sweepDay: "2026-02-26" })
    const payments = [due("A", "10"), due("B", "2500.5"), due("C", "7"), due("D", "1.25")]
    yield* checks.plan(payments)
    const [a, b, c, d] = payments as [Checks.Due, Checks.Due, Checks.Due, Checks.Due]
    yield* checks.finish(a, { outcome: "APPR", requestId: "r-a" }, at)
    yield* checks.finish(b, { outcome: "DECL", requestId: "r-b" }, at)
    yield* checks.finish(c, { outcome: "failed", failure: forbidden, requestId: "req-403" }, at)
    yield* checks.finish(d, { outcome: "failed", failure: unavailable }, at)
    const sql = yield* SqlClient.SqlClient
    const log = SweepLog.listener(sql, ["c1", "c2"])
    yield* log.emit({ _tag: "SweepStarted", day: "2026-02-26", run: 0, consents: 2 })
    yield* log.emit({
      _tag: "SweepFinished",
      day: "2026-02-26",
      run: 0,
      consents: 2,
      planned: 4,
      failed: [{ consent: "c2", cause: "the bank is unavailable" }],
      results: [
        { consent: "c1", planned: 4, tries: 1 },
        { consent: "c2", planned: 0, tries: 8, cause: "the bank is unavailable", reason: "ServerError" }
      ]
    })
  })

/** Records a DECL of one more payment (order `orderId`), checked at `at`. */
const recordDecl = (orderId: string, at: number) =>
  Effect.gen(function* () {
    const checks = yield* Checks.Checks
    const payment = dueFixture({ orderId, amount: "99.9", executionDate: "2099-03-02", sweepDay: "2026-02-26" })
    yield* checks.plan([payment])
    yield* checks.finish(payment, { outcome: "DECL", requestId: `r-${orderId}` }, at)
  })

/** The outbox's flush: new events collected and every due delivery made, at most `within` milliseconds. */
const flush = (within: number) =>
  Effect.gen(function* () {
    const outbox = yield* Webhook.Outbox
    return yield* outbox.flush(within)
  })

const expectedTypes = ["check.declined", "check.refused", "check.unanswered", "sweep.failed"]

/** Standard Webhooks' schedule a hundred thousand times shorter (the whole of it in under 3 s). */
const shortSchedule = Backoff.scale(Webhook.retrySchedule, 1 / 100_000)

const fast: Webhook.Settings = { poll: 50, schedule: shortSchedule, timeout: 1500, lease: 2000 }

/**
 * A receiver answering as `plan` says, and an outbox to it on the fast settings that keeps each retry and failure it
 * reports: `effect.pipe(withOutbox)` runs `effect` with the outbox and the checks in PostgreSQL.
 */
const outboxTo = (plan: (n: number) => Answer) =>
  Effect.gen(function* () {
    const hook = yield* receiver(plan)
    const retries: Array<Webhook.Retry> = []
    const failed: Array<Webhook.Failed> = []
    const outbox = Webhook.layer([{ url: hook.url, secret }], {
      ...fast,
      onRetry: (r) => Effect.sync(() => void retries.push(r)),
      onFailed: (f) => Effect.sync(() => void failed.push(f))
    })
    const withOutbox = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      effect.pipe(Effect.provide(outbox), Effect.provide(Checks.Checks.layerSql))
    return { hook, retries, failed, withOutbox }
  })

const events = (received: ReadonlyArray<Received>) => received.map((r) => ({ id: r.id, ...JSON.parse(r.body) }))

describe("Webhook.layer (the outbox on PostgreSQL)", { timeout: 60_000 }, () => {
  db.liveSql(
    "delivers every event at least once, verified by standardwebhooks, to a receiver that fails, times out and comes back",
    Effect.gen(function* () {
      // 1st answer 500, 2nd hangs past the timeout, 3rd 503 (no Retry-After: the schedule), then 200
      const { hook, retries, withOutbox } = yield* outboxTo((n) =>
        n === 1 ? 500 : n === 2 ? "hang" : n === 3 ? 503 : 200
      )
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const registered = yield* sql<{ url: string }>`SELECT url FROM tppkit_webhook_endpoint`
        assert.deepStrictEqual(
          registered.map((r) => r.url),
          [hook.url]
        )
        yield* recordOutcomes(Date.now())
        const left = yield* flush(20_000)
        assert.strictEqual(left, 0)
        assert.deepStrictEqual(yield* Webhook.outstanding(), [])
      }).pipe(withOutbox)
      const delivered = hook.received.filter((r) => r.answered === 200)
      assert.deepStrictEqual([...new Set(events(delivered).map((e) => e.type))].sort(), expectedTypes)
      assert.isTrue(
        hook.received.every((r) => r.valid),
        "standardwebhooks verifies every request"
      )
      for (const r of hook.received) {
        assert.match(r.id, /^evt_[0-9a-f]{32}$/)
        assert.match(r.timestamp, /^\d{10}$/)
        assert.deepStrictEqual(Object.keys(JSON.parse(r.body)), ["type", "timestamp", "data"])
      }
      assert.isAtLeast(retries.length, 3)
      assert.isTrue(retries.some((r) => r.cause.includes("no answer within")))
      assert.isTrue(retries.some((r) => r.cause.startsWith("HTTP 500")))
      // the DECL's body: the payment, its amount with two decimals, the bank's Request-ID
      const decl = events(delivered).find((e) => e.type === "check.declined")
      assert.deepInclude(decl.data, { orderId: "B", amount: "2500.50", outcome: "DECL", requestId: "r-b" })
      const refused = events(delivered).find((e) => e.type === "check.refused")
      assert.deepInclude(refused.data, { orderId: "C", failureClass: "refused", reason: "Forbidden" })
      const unanswered = events(delivered).find((e) => e.type === "check.unanswered")
      assert.deepInclude(unanswered.data, { orderId: "D", reason: "TransportFailure", retrying: true })
      const sweep = events(delivered).find((e) => e.type === "sweep.failed")
      assert.deepInclude(sweep.data, { day: "2026-02-26", consent: "c2", reason: "ServerError", tries: 8 })
      assert.strictEqual(sweep.id, Webhook.eventId("sweep.failed", ["2026-02-26", "c2", "0"]))
    })
  )

  db.liveSql(
    "a receiver that keeps failing gets the schedule's ten attempts, then none; replay sends it again, same webhook-id",
    Effect.gen(function* () {
      let up = false
      const { hook, failed, withOutbox } = yield* outboxTo(() => (up ? 200 : 500))
      yield* Effect.gen(function* () {
        yield* recordDecl("A", Date.now())
        const left = yield* flush(20_000)
        assert.strictEqual(left, 0, "given up: no longer outstanding")
        assert.strictEqual(hook.received.length, 10)
        assert.strictEqual(new Set(hook.received.map((r) => r.id)).size, 1)
        assert.isTrue(hook.received.every((r) => r.valid && r.body === hook.received[0]?.body))
        assert.deepStrictEqual(
          failed.map((f) => [f.attempt, f.disabled]),
          [[10, false]]
        )
        const [state] = yield* Webhook.endpoints
        assert.deepInclude(state, { failed: 1, disabledAt: undefined })
        up = true
        const due = yield* Webhook.replay({ since: 0, endpoints: "enabled" })
        assert.deepStrictEqual([...due], [[hook.url, 1]])
        assert.strictEqual(yield* flush(10_000), 0)
        const last = hook.received.at(-1) as Received
        const firstOne = hook.received[0] as Received
        assert.strictEqual(hook.received.length, 11)
        assert.deepInclude(last, {
          id: firstOne.id,
          body: firstOne.body,
          answered: 200,
          valid: true
        })
        assert.strictEqual((yield* Webhook.endpoints)[0]?.failed, 0)
      }).pipe(withOutbox)
    })
  )

  db.liveSql(
    "410 Gone disables the endpoint: nothing more is posted to it until enabled; replay sends what it missed",
    Effect.gen(function* () {
      let gone = true
      const { hook, failed, withOutbox } = yield* outboxTo(() => (gone ? 410 : 200))
      yield* Effect.gen(function* () {
        yield* recordOutcomes(Date.now())
        assert.strictEqual(yield* flush(10_000), 0)
        // the deliveries posted together before the first 410 was recorded; none after it
        const posted = hook.received.length
        assert.isAtLeast(posted, 1)
        assert.isAtMost(posted, 4)
        assert.isTrue(hook.received.every((r) => r.answered === 410 && r.valid))
        assert.isTrue(failed.length >= 1 && failed.every((f) => f.disabled && f.cause.startsWith("HTTP 410 Gone")))
        assert.include(
          Lifecycle.line(new Date(0), { _tag: "WebhookFailed", ...(failed[0] as Webhook.Failed) }),
          ' level=error event=webhook_disabled cause="HTTP 410 Gone from http://127.0.0.1:'
        )
        const [state] = yield* Webhook.endpoints
        assert.isDefined(state?.disabledAt)
        assert.include(state?.disabledReason, "HTTP 410 Gone from")
        assert.strictEqual(state?.failed, 4)
        // an event made while disabled: given up at once, nothing posted
        yield* recordDecl("E", Date.now())
        assert.strictEqual(yield* flush(2_000), 0)
        assert.strictEqual(hook.received.length, posted)
        assert.strictEqual((yield* Webhook.endpoints)[0]?.failed, 5)
        gone = false
        assert.isTrue(yield* Webhook.enable(hook.url))
        assert.isFalse(yield* Webhook.enable(hook.url), "enabled already")
        yield* recordDecl("F", Date.now())
        assert.strictEqual(yield* flush(10_000), 0)
        assert.deepStrictEqual(
          events(hook.received.slice(posted)).map((e) => e.data.orderId),
          ["F"]
        )
        const due = yield* Webhook.replay({ since: 0, type: "check.declined", endpoints: [hook.url] })
        // B, E and F (every DECL since the start, F delivered already: sent again too)
        assert.deepStrictEqual([...due], [[hook.url, 3]])
        assert.strictEqual(yield* flush(10_000), 0)
        const replayed = hook.received.slice(posted + 1)
        assert.deepStrictEqual(
          events(replayed)
            .map((e) => e.data.orderId)
            .sort(),
          ["B", "E", "F"]
        )
        assert.isTrue(replayed.every((r) => r.valid && r.answered === 200))
        const firstB = hook.received.find((r) => JSON.parse(r.body).data.orderId === "B")
        if (firstB !== undefined) {
          assert.strictEqual(replayed.find((r) => r.id === firstB.id)?.body, firstB.body, "the same id, the same body")
        }
        assert.isUndefined((yield* Webhook.endpoints)[0]?.disabledAt)
      }).pipe(withOutbox)
    })
  )

  db.liveSql(
    "429 and 503 with Retry-After: the next attempt waits as long as it says, not the schedule's delay",
    Effect.gen(function* () {
      const { hook, retries, withOutbox } = yield* outboxTo((n) =>
        n === 1 ? { status: 429, retryAfter: "1" } : n === 2 ? { status: 503, retryAfter: "1" } : n === 3 ? 500 : 200
      )
      yield* Effect.gen(function* () {
        yield* recordDecl("A", Date.now())
        assert.strictEqual(yield* flush(20_000), 0)
      }).pipe(withOutbox)
      const [first, second, third, fourth] = hook.received as [Received, Received, Received, Received]
      assert.strictEqual(hook.received.length, 4)
      assert.isAtLeast(second.at - first.at, 1000, "Retry-After: 1 after the 429")
      assert.isAtLeast(third.at - second.at, 1000, "Retry-After: 1 after the 503")
      assert.deepStrictEqual(
        retries.map((r) => [r.attempt, r.waitMillis >= 1000]),
        [
          [1, true],
          [2, true],
          [3, false]
        ]
      )
      assert.isTrue(hook.received.every((r) => r.valid && r.id === first.id))
      assert.strictEqual(fourth.answered, 200)
    })
  )

  db.liveSql(
    "a worker stopped in the middle of a delivery: the next one delivers it under the same webhook-id",
    Effect.gen(function* () {
      // the first request is never answered: its worker stops while it waits
      const hook = yield* receiver((n) => (n === 1 ? "hang" : 200))
      const sql = yield* SqlClient.SqlClient
      yield* recordOutcomes(Date.now()).pipe(Effect.provide(Checks.Checks.layerSql))
      const first = yield* Scope.make()
      yield* Layer.buildWithScope(Webhook.layer([{ url: hook.url, secret }], { ...fast, timeout: 30_000 }), first)
      // wait (bounded) until the receiver holds the first delivery
      const heldOne = () => hook.received.find((r) => r.answered === 0)
      for (let i = 0; i < 200 && heldOne() === undefined; i++) yield* Effect.sleep("25 millis")
      const held = heldOne() as Received
      assert.isDefined(held)
      yield* Scope.close(first, Exit.void)
      const after = yield* flush(20_000).pipe(Effect.provide(Webhook.layer([{ url: hook.url, secret }], fast)))
      assert.strictEqual(after, 0)
      const delivered = hook.received.filter((r) => r.answered === 200)
      assert.deepStrictEqual([...new Set(events(delivered).map((e) => e.type))].sort(), expectedTypes)
      // the held event came again with the same id and body (others may come twice too: at least once, not once)
      const again = delivered.filter((r) => r.id === held.id)
      assert.isAtLeast(again.length, 1)
      assert.isTrue(again.every((r) => r.body === held.body && r.valid))
      assert.isTrue(hook.received.every((r) => r.valid))
      const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM tppkit_webhook_outbox
        WHERE delivered_at IS NULL`
      assert.strictEqual(Number(rows[0]?.n), 0)
    })
  )

  db.liveSql(
    "an endpoint added later gets only the events recorded after it was added, or replayed; --reconfigure replaces",
    Effect.gen(function* () {
      const hook = yield* receiver(() => 200)
      const sql = yield* SqlClient.SqlClient
      const before = Date.now() - 10 * 60_000
      yield* recordOutcomes(before).pipe(Effect.provide(Checks.Checks.layerSql))
      yield* sql`UPDATE tppkit_sweep_log SET finished_at = ${before}, started_at = ${before}`
      // the events are in the outbox of an endpoint the fleet had then
      yield* sql`INSERT INTO tppkit_webhook_endpoint (url, added_at) VALUES ('http://127.0.0.1:9/old', ${before - 1})`
      const left = yield* flush(5_000).pipe(Effect.provide(Webhook.layer([{ url: hook.url, secret }], fast)))
      assert.strictEqual(left, 0)
      assert.deepStrictEqual(hook.received, [])
      const other = `${hook.url}/other`
      yield* Effect.gen(function* () {
        yield* flush(1_000)
        const urls = yield* sql<{ url: string }>`SELECT url FROM tppkit_webhook_endpoint`
        assert.deepStrictEqual(
          urls.map((r) => r.url),
          [other]
        )
        const due = yield* Webhook.replay({ since: before - 60_000, type: "check.declined", endpoints: "enabled" })
        assert.deepStrictEqual([...due], [[other, 1]])
        assert.strictEqual(yield* flush(5_000), 0)
      }).pipe(Effect.provide(Webhook.layer([{ url: other, secret }], { ...fast, replace: true })))
      assert.deepStrictEqual(
        events(hook.received).map((e) => [e.type, e.data.orderId]),
        [["check.declined", "B"]]
      )
      assert.isTrue(hook.received.every((r) => r.valid))
    })
  )

  db.liveSql(
    "a fleet whose queue nobody reads raises fleet.stalled once, whichever worker sees it",
    Effect.gen(function* () {
      const hook = yield* receiver(() => 200)
      yield* Layer.build(clusterTables)
      yield* healthyRunner("127.0.0.1:34431")
      const sent = Date.now() - 600_000
      yield* request(sent, 1)
      const watching = { ...fast, liveness: 50 }
      for (let worker = 0; worker < 2; worker++) {
        yield* Effect.gen(function* () {
          yield* Effect.sleep("200 millis")
          assert.strictEqual(yield* flush(10_000), 0)
        }).pipe(Effect.provide(Webhook.layer([{ url: hook.url, secret }], watching)))
      }
      const stalled = events(hook.received)
      assert.deepStrictEqual(
        [...new Set(stalled.map((e) => `${e.type} ${e.id}`))],
        [`fleet.stalled ${Webhook.eventId("fleet.stalled", ["queue", String(sent)])}`]
      )
      assert.isTrue(hook.received.every((r) => r.valid))
      const [event] = stalled
      assert.strictEqual(event.timestamp, new Date(sent + 120_000).toISOString())
      assert.deepInclude(event.data, { what: "queue", since: new Date(sent).toISOString(), unread: 1, runners: 1 })
      assert.match(
        event.data.reason,
        /^the cluster has read none of 1 due request for \d+ s while 1 runner looks healthy$/
      )
    })
  )

  db.liveSql(
    "a secret without whsec_ is refused at the start, saying how to make one",
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        flush(100).pipe(
          Effect.provide(Webhook.layer([{ url: "http://127.0.0.1:9/", secret: Redacted.make("old-secret") }]))
        )
      )
      assert.strictEqual(error._tag === "WebhookError" && error.reason, "invalidSecret")
      assert.include(error.message, "tppkit webhook secret")
      assert.notInclude(error.message, "old-secret")
    })
  )
})

/** The webhook tables as the version before Standard Webhooks made them. */
const previousDdl = [
  `CREATE TABLE tppkit_webhook_endpoint (url text PRIMARY KEY, added_at bigint NOT NULL)`,
  `CREATE TABLE tppkit_webhook_outbox (
    event_id text NOT NULL, endpoint text NOT NULL, type text NOT NULL, body text NOT NULL,
    occurred_at bigint NOT NULL, created_at bigint NOT NULL, attempts integer NOT NULL DEFAULT 0,
    next_at bigint NOT NULL, lease_until bigint NOT NULL DEFAULT 0, delivered_at bigint, last_error text,
    PRIMARY KEY (event_id, endpoint))`,
  "CREATE INDEX tppkit_webhook_due ON tppkit_webhook_outbox (endpoint, next_at) WHERE delivered_at IS NULL"
]

describe("Database.migrate on a database of the version before Standard Webhooks", { timeout: 60_000 }, () => {
  db.liveSql(
    "its outbox is converted: pending deliveries go out as Standard Webhooks under their old event ids",
    Effect.gen(function* () {
      const hook = yield* receiver(() => 200)
      const sql = yield* SqlClient.SqlClient
      // this version's tables, but the webhook tables as the version before made them
      yield* sql`DROP TABLE tppkit_webhook_outbox, tppkit_webhook_endpoint`
      for (const statement of previousDdl) yield* sql.unsafe(statement)
      const now = Date.now()
      const data = { consent: "c1", orderId: "SO-RENT", amount: "650.10", note: '"occurredAt":"x" stays' }
      const old = (id: string, occurredAt: string) => JSON.stringify({ id, type: "check.declined", occurredAt, data })
      yield* sql`INSERT INTO tppkit_webhook_endpoint (url, added_at) VALUES (${hook.url}, ${now - 60_000})`
      yield* sql`INSERT INTO tppkit_webhook_outbox (event_id, endpoint, type, body, occurred_at, created_at, attempts,
          next_at, last_error)
        VALUES ('evt_pending', ${hook.url}, 'check.declined', ${old("evt_pending", "2026-11-02T07:00:04.120Z")},
          ${now}, ${now}, 2, ${now}, 'HTTP 500')`
      yield* sql`INSERT INTO tppkit_webhook_outbox (event_id, endpoint, type, body, occurred_at, created_at, next_at,
          delivered_at)
        VALUES ('evt_done', ${hook.url}, 'check.declined', ${old("evt_done", "2026-11-01T07:00:00Z")},
          ${now - 1000}, ${now - 1000}, ${now - 1000}, ${now - 500})`
      yield* Database.migrate
      yield* Database.migrate
      const rows = yield* sql<{ event_id: string; body: string }>`SELECT event_id, body FROM tppkit_webhook_outbox
        ORDER BY event_id`
      assert.deepStrictEqual(
        rows.map((r) => [r.event_id, r.body]),
        [
          ["evt_done", JSON.stringify({ type: "check.declined", timestamp: "2026-11-01T07:00:00Z", data })],
          ["evt_pending", JSON.stringify({ type: "check.declined", timestamp: "2026-11-02T07:00:04.120Z", data })]
        ]
      )
      assert.strictEqual(yield* flush(10_000).pipe(Effect.provide(Webhook.layer([{ url: hook.url, secret }], fast))), 0)
      assert.deepStrictEqual(
        hook.received.map((r) => [r.id, r.valid, r.answered]),
        [["evt_pending", true, 200]]
      )
      assert.deepStrictEqual(
        Schema.decodeUnknownSync(Webhook.Event)(JSON.parse(hook.received[0]?.body ?? "")).data,
        data
      )
      // the replay of a delivered event of the old version: the same id
      yield* Webhook.replay({ since: 0, endpoints: [hook.url] })
      assert.strictEqual(yield* flush(10_000).pipe(Effect.provide(Webhook.layer([{ url: hook.url, secret }], fast))), 0)
      assert.deepStrictEqual(hook.received.map((r) => r.id).sort(), ["evt_done", "evt_pending", "evt_pending"])
      assert.isTrue(hook.received.every((r) => r.valid))
    })
  )
})

describe("the worker README documents every event type with an example body", () => {
  it("each type has a json block that decodes as an event", () => {
    const readme = readFileSync(join(import.meta.dirname, "..", "..", "packages", "worker", "README.md"), "utf8")
    const bodies = [...readme.matchAll(/```json\n([\s\S]*?)\n```/g)]
      .map((m) => JSON.parse(m[1] as string))
      .filter((j) => typeof j === "object" && j !== null && "type" in j && "data" in j)
      .map((j) => Schema.decodeUnknownSync(Webhook.Event)(j))
    assert.deepStrictEqual(bodies.map((b) => b.type).sort(), [...Webhook.EventType.literals].sort())
    for (const b of bodies) assert.isTrue(Number.isFinite(Date.parse(b.timestamp)))
  })
})
