/**
 * Webhooks: the signature and its verification (laws and the ways a request fails), and the durable outbox on a
 * real PostgreSQL posting to a receiver on loopback that fails, times out and comes back, and across a worker that
 * stops in the middle of a delivery.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { assert, describe, it } from "@effect/vitest"
import { ErrorBody } from "@tppkit/core"
import { BankError } from "@tppkit/http"
import { Checks, SweepLog, Webhook } from "@tppkit/worker"
import { Effect, Exit, Layer, Redacted, Result, Scope } from "effect"
import { SqlClient } from "effect/sql"
import * as fc from "fast-check"
import { embeddedDb } from "./pg.ts"
import { due as dueFixture } from "./support.ts"

const db = embeddedDb()
const secret = Redacted.make("whsec-test-1")

describe("Webhook.sign and Webhook.verify", () => {
  const event = JSON.stringify({ id: "evt_1", type: "check.declined", occurredAt: "2026-11-02T07:00:00Z", data: {} })
  const now = Date.UTC(2026, 10, 2, 7, 0, 5)
  const t = Math.floor(now / 1000)

  it("a signed body verifies and gives its event; any other secret, body or timestamp does not", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), fc.integer({ min: 0, max: 299 }), (key, extra, skew) => {
        const s = Redacted.make(key)
        const body = JSON.stringify({ id: `evt_${extra}`, type: "sweep.failed", occurredAt: "x", data: { extra } })
        const header = Webhook.sign(s, t - skew, body)
        const ok = Webhook.verify({ body, signature: header, secret: s, now })
        assert.isTrue(Result.isSuccess(ok))
        const other = Webhook.verify({ body, signature: header, secret: Redacted.make(`${key}x`), now })
        const tampered = Webhook.verify({ body: `${body} `, signature: header, secret: s, now })
        assert.strictEqual(Result.isFailure(other) && other.failure.reason, "signatureMismatch")
        assert.strictEqual(Result.isFailure(tampered) && tampered.failure.reason, "signatureMismatch")
      }),
      { numRuns: 2000 }
    )
  })

  it("refuses a missing or malformed header, an old or future timestamp, and a body that is not an event", () => {
    const reason = (r: Result.Result<unknown, Webhook.WebhookError>) => (Result.isFailure(r) ? r.failure.reason : "ok")
    assert.strictEqual(reason(Webhook.verify({ body: event, signature: undefined, secret, now })), "missingSignature")
    assert.strictEqual(reason(Webhook.verify({ body: event, signature: "v1=abc", secret, now })), "malformedSignature")
    const old = Webhook.sign(secret, t - 301, event)
    assert.strictEqual(reason(Webhook.verify({ body: event, signature: old, secret, now })), "timestampOutOfTolerance")
    assert.strictEqual(
      reason(Webhook.verify({ body: event, signature: old, secret, now, toleranceSeconds: 600 })),
      "ok"
    )
    const future = Webhook.sign(secret, t + 400, event)
    assert.strictEqual(
      reason(Webhook.verify({ body: event, signature: future, secret, now })),
      "timestampOutOfTolerance"
    )
    const notEvent = Webhook.sign(secret, t, "[1]")
    assert.strictEqual(reason(Webhook.verify({ body: "[1]", signature: notEvent, secret, now })), "invalidBody")
    // a rotation: the receiver knows the old and the new secret
    const rotated = Webhook.sign(Redacted.make("new"), t, event)
    assert.strictEqual(
      reason(Webhook.verify({ body: event, signature: rotated, secret: [secret, Redacted.make("new")], now })),
      "ok"
    )
    // a forged signature of the right shape is refused and the message never carries the secret
    const forged = Webhook.verify({ body: event, signature: `t=${t},v1=${"0".repeat(64)}`, secret, now })
    assert.isTrue(Result.isFailure(forged))
    if (Result.isFailure(forged)) assert.notInclude(forged.failure.message, "whsec-test-1")
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

/** What a receiver on loopback got: each request's event id, body and whether its signature verified. */
interface Received {
  readonly id: string
  readonly body: string
  readonly valid: boolean
  readonly answered: number
}

/**
 * A receiver on 127.0.0.1 whose `n`-th request is answered by `plan(n)`: a status, or "hang" (no answer until the
 * receiver is closed).
 */
const receiver = (plan: (n: number) => number | "hang") =>
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
          const n = received.length + 1
          const answer = plan(n)
          const valid = Result.isSuccess(
            Webhook.verify({ body, signature: req.headers[Webhook.signatureHeader] as string | undefined, secret })
          )
          received.push({
            id: String(req.headers[Webhook.eventIdHeader]),
            body,
            valid,
            answered: answer === "hang" ? 0 : answer
          })
          if (answer === "hang") hanging.push(res)
          else res.writeHead(answer).end()
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

const forbidden = new BankError.BankError({
  operation: "balanceCheck",
  identity: { requestId: "req-403", correlationId: "corr-403" },
  request: "POST /piisp/api/v1/accounts/balanceCheck",
  reason: new BankError.Forbidden({ body: ErrorBody.decode(403, undefined, '{"code":"CONSENT_MISSING"}') })
})

const unavailable = new BankError.BankError({
  operation: "balanceCheck",
  identity: { correlationId: "corr-503" },
  request: "POST /piisp/api/v1/accounts/balanceCheck",
  reason: new BankError.TransportFailure({ kind: "timeout", detail: "no answer within 10 s" }),
  attempts: 1
})

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

/** The outbox's flush: new events collected and every due delivery made, at most `within` milliseconds. */
const flush = (within: number) =>
  Effect.gen(function* () {
    const outbox = yield* Webhook.Outbox
    return yield* outbox.flush(within)
  })

const expectedTypes = ["check.declined", "check.refused", "check.unanswered", "sweep.failed"]

const fast: Webhook.Settings = { poll: 50, backoff: 50, maxBackoff: 200, timeout: 300, lease: 400 }

describe("Webhook.layer (the outbox on PostgreSQL)", { timeout: 60_000 }, () => {
  it.live(
    "delivers every event at least once with a valid signature to a receiver that fails, times out and comes back",
    () =>
      Effect.gen(function* () {
        // 1st answer 500, 2nd hangs past the timeout, 3rd 503, then 200
        const hook = yield* receiver((n) => (n === 1 ? 500 : n === 2 ? "hang" : n === 3 ? 503 : 200))
        const retries: Array<Webhook.Retry> = []
        const outbox = Webhook.layer([{ url: hook.url, secret }], {
          ...fast,
          onRetry: (r) => Effect.sync(() => void retries.push(r))
        })
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
        }).pipe(Effect.provide(outbox), Effect.provide(Checks.Checks.layerSql))
        const delivered = hook.received.filter((r) => r.answered === 200)
        assert.deepStrictEqual([...new Set(delivered.map((r) => JSON.parse(r.body).type))].sort(), expectedTypes)
        assert.isTrue(
          hook.received.every((r) => r.valid),
          "every request carries a valid signature"
        )
        assert.isTrue(hook.received.every((r) => JSON.parse(r.body).id === r.id))
        assert.isAtLeast(retries.length, 3)
        assert.isTrue(retries.some((r) => r.cause.includes("no answer within")))
        assert.isTrue(retries.some((r) => r.cause.startsWith("HTTP 500")))
        // the DECL's body: the payment, its amount with two decimals, the bank's Request-ID
        const decl = delivered.map((r) => JSON.parse(r.body)).find((e) => e.type === "check.declined")
        assert.deepInclude(decl.data, { orderId: "B", amount: "2500.50", outcome: "DECL", requestId: "r-b" })
        const refused = delivered.map((r) => JSON.parse(r.body)).find((e) => e.type === "check.refused")
        assert.deepInclude(refused.data, { orderId: "C", failureClass: "refused", reason: "Forbidden" })
        const unanswered = delivered.map((r) => JSON.parse(r.body)).find((e) => e.type === "check.unanswered")
        assert.deepInclude(unanswered.data, { orderId: "D", reason: "TransportFailure", retrying: true })
        const sweep = delivered.map((r) => JSON.parse(r.body)).find((e) => e.type === "sweep.failed")
        assert.deepInclude(sweep.data, { day: "2026-02-26", consent: "c2", reason: "ServerError", tries: 8 })
      }).pipe(Effect.provide(db.fresh()), Effect.scoped)
  )

  it.live("a worker stopped in the middle of a delivery: the next one delivers it under the same event id", () =>
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
      assert.deepStrictEqual([...new Set(delivered.map((r) => JSON.parse(r.body).type))].sort(), expectedTypes)
      // the held event came again with the same id and body (others may come twice too: at least once, not once)
      const again = delivered.filter((r) => r.id === held.id)
      assert.isAtLeast(again.length, 1)
      assert.isTrue(again.every((r) => r.body === held.body && r.valid))
      const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM tppkit_webhook_outbox
        WHERE delivered_at IS NULL`
      assert.strictEqual(Number(rows[0]?.n), 0)
    }).pipe(Effect.provide(db.fresh()), Effect.scoped)
  )

  it.live("an endpoint added later gets only the events recorded after it was added; --reconfigure replaces", () =>
    Effect.gen(function* () {
      const hook = yield* receiver(() => 200)
      const sql = yield* SqlClient.SqlClient
      const before = Date.now() - 10 * 60_000
      yield* recordOutcomes(before).pipe(Effect.provide(Checks.Checks.layerSql))
      yield* sql`UPDATE tppkit_sweep_log SET finished_at = ${before}, started_at = ${before}`
      const left = yield* flush(5_000).pipe(Effect.provide(Webhook.layer([{ url: hook.url, secret }], fast)))
      assert.strictEqual(left, 0)
      assert.deepStrictEqual(hook.received, [])
      yield* flush(1_000).pipe(
        Effect.provide(Webhook.layer([{ url: `${hook.url}/other`, secret }], { ...fast, replace: true }))
      )
      const urls = yield* sql<{ url: string }>`SELECT url FROM tppkit_webhook_endpoint`
      assert.deepStrictEqual(
        urls.map((r) => r.url),
        [`${hook.url}/other`]
      )
    }).pipe(Effect.provide(db.fresh()), Effect.scoped)
  )
})
