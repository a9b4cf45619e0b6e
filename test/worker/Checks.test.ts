import { assert, describe, it } from "@effect/vitest"
import { BankError } from "@tppkit/http"
import { CheckFailure, Checks, FundsCheckWorkflow } from "@tppkit/worker"
import * as Database from "@tppkit/worker/Database"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { embeddedDb } from "./pg.ts"
import { checkFailed, due as dueFixture } from "./support.ts"

const db = embeddedDb()

/** A balance check that got no answer in time, three times. */
const timeout = checkFailed(
  { requestId: "r", correlationId: "corr-4" },
  new BankError.TransportFailure({ kind: "timeout", detail: "no answer within 10 s" }),
  3
)

/** A balance check whose connection the bank refused: nothing was sent. */
const refused = checkFailed(
  { correlationId: "corr-b" },
  new BankError.TransportFailure({ kind: "connect", detail: "connection refused" })
)

const due = (orderId: string, over: Partial<Checks.DueText> = {}): Checks.Due => dueFixture({ orderId, ...over })

const contract = (name: string, make: () => Layer.Layer<Checks.Checks, unknown>) =>
  describe(name, () => {
    it.effect("plans once, counts attempts before sending, records the outcome", () =>
      Effect.gen(function* () {
        const checks = yield* Checks.Checks
        yield* checks.plan([due("A"), due("B"), due("A", { amount: "999" })])
        assert.strictEqual(yield* checks.pending("2026-02-26"), 2)
        assert.deepStrictEqual(
          (yield* checks.planned("2026-02-26", "c1")).map((d) => [d.orderId, Checks.text(d).amount]),
          [
            ["A", "120.5"],
            ["B", "120.5"]
          ]
        )
        assert.deepStrictEqual(yield* checks.begin(due("A"), "corr-1"), { attempt: 1, recorded: undefined })
        // a second attempt while the first is still in flight (its worker died): counted, the first unconfirmed
        assert.deepStrictEqual(yield* checks.begin(due("A"), "corr-2"), { attempt: 2, recorded: undefined })
        yield* checks.finish(due("A"), { outcome: "DECL", requestId: "r", responseId: "s" }, Date.UTC(2026, 1, 26, 7), {
          tryNo: 1,
          correlationId: "corr-2",
          sent: true
        })
        assert.strictEqual(yield* checks.pending("2026-02-26"), 1)
        const rows = yield* checks.list({ sweepDay: "2026-02-26" })
        const a = rows.find((r) => r.orderId === "A")
        assert.deepStrictEqual(
          [a?.outcome, a?.attempts, a?.unconfirmed, a?.correlationIds, a?.requestId, a?.responseId, a?.checkedAt],
          ["DECL", 2, 1, ["corr-1", "corr-2"], "r", "s", "2026-02-26T07:00:00Z"]
        )
        // the try is finished: begun again (its workflow replayed on another worker), nothing is sent
        const again = yield* checks.begin(due("A"), "corr-9")
        assert.deepStrictEqual(again, { attempt: 2, recorded: { outcome: "DECL", requestId: "r", responseId: "s" } })
        // the next try is sent; its answer does not replace the bank's answer recorded already
        assert.strictEqual((yield* checks.begin(due("A"), "corr-3", 2)).attempt, 3)
        yield* checks.finish(due("A"), { outcome: "APPR" }, Date.UTC(2026, 1, 26, 7), {
          tryNo: 2,
          correlationId: "corr-3",
          sent: true
        })
        assert.strictEqual((yield* checks.list()).find((r) => r.orderId === "A")?.outcome, "DECL")
        // a request never sent (the connection refused) is not counted
        yield* checks.begin(due("B"), "corr-b", 1)
        yield* checks.finish(due("B"), { outcome: "failed", failure: refused }, Date.UTC(2026, 1, 26, 7), {
          tryNo: 1,
          correlationId: "corr-b",
          sent: false
        })
        const b = (yield* checks.list({ sweepDay: "2026-02-26" })).find((r) => r.orderId === "B")
        assert.deepStrictEqual([b?.attempts, b?.unconfirmed, b?.correlationIds], [0, 0, []])
        assert.strictEqual((yield* checks.list({ sweepDay: "2026-02-27" })).length, 0)
        yield* checks.plan([due("C")])
        yield* checks.begin(due("C"), "corr-3")
        yield* checks.finish(due("C"), { outcome: "failed", failure: timeout }, Date.UTC(2026, 1, 26, 7))
        // the typed failure comes back as it went in, reason and all
        const c = (yield* checks.list({ sweepDay: "2026-02-26" })).find((r) => r.orderId === "C")
        assert.strictEqual(c?.failure?._tag, "BankError")
        assert.deepStrictEqual(CheckFailure.encodeJson(c!.failure!), CheckFailure.encodeJson(timeout))
        assert.strictEqual(
          CheckFailure.describe(c!.failure!),
          "balance check POST /piisp/api/v1/accounts/balanceCheck: no answer within 10 s (3 attempts)"
        )
        assert.deepStrictEqual(yield* checks.summary("2026-02-26"), {
          checks: 3,
          APPR: 0,
          DECL: 1,
          failed: 2,
          pending: 0,
          repeated: 1,
          requests: 4,
          unconfirmed: 1
        })
        assert.deepStrictEqual(yield* checks.summary("2026-02-27"), {
          checks: 0,
          APPR: 0,
          DECL: 0,
          failed: 0,
          pending: 0,
          repeated: 0,
          requests: 0,
          unconfirmed: 0
        })
      }).pipe(Effect.provide(make()))
    )

    it.effect("a record moves forward only: an answer is never replaced, a failure never by an older attempt's", () =>
      Effect.gen(function* () {
        const checks = yield* Checks.Checks
        const at = Date.UTC(2026, 1, 26, 7)
        yield* checks.plan([due("D"), due("E")])
        // D: attempt 1 sent by a worker that was then paused; attempt 2 by the shard's new owner, answered APPR
        const old = yield* checks.begin(due("D"), "d-1")
        const fresh = yield* checks.begin(due("D"), "d-2")
        yield* checks.finish(due("D"), { outcome: "APPR", requestId: "d2" }, at, {
          tryNo: 1,
          correlationId: "d-2",
          sent: true,
          attempt: fresh.attempt
        })
        // the woken worker's attempt ends without an answer: the APPR stays
        yield* checks.finish(due("D"), { outcome: "failed", failure: timeout }, at + 1000, {
          tryNo: 1,
          correlationId: "d-1",
          sent: true,
          attempt: old.attempt
        })
        const d = (yield* checks.list()).find((r) => r.orderId === "D")
        assert.deepStrictEqual([d?.outcome, d?.requestId, d?.attempts], ["APPR", "d2", 2])
        // E: the newer attempt's failure is not replaced by the older attempt's failure, but by its answer
        const e1 = yield* checks.begin(due("E"), "e-1")
        const e2 = yield* checks.begin(due("E"), "e-2")
        yield* checks.finish(due("E"), { outcome: "failed", failure: timeout, requestId: "e2" }, at, {
          tryNo: 1,
          correlationId: "e-2",
          sent: true,
          attempt: e2.attempt
        })
        yield* checks.finish(due("E"), { outcome: "failed", failure: refused, requestId: "e1" }, at, {
          tryNo: 1,
          correlationId: "e-1",
          sent: true,
          attempt: e1.attempt
        })
        assert.strictEqual((yield* checks.list()).find((r) => r.orderId === "E")?.requestId, "e2")
        yield* checks.finish(due("E"), { outcome: "DECL", requestId: "e1" }, at, {
          tryNo: 1,
          correlationId: "e-1",
          sent: true,
          attempt: e1.attempt
        })
        const e = (yield* checks.list()).find((r) => r.orderId === "E")
        assert.deepStrictEqual([e?.outcome, e?.requestId], ["DECL", "e1"])
      }).pipe(Effect.provide(make()))
    )
  })

describe("Checks", () => {
  contract("in memory", () => Checks.Checks.layerMemory)
  contract("in PostgreSQL", () => Checks.Checks.layerSql.pipe(Layer.provide(db.fresh())))
})

describe("Checks in PostgreSQL under a fence (the shard's advisory lock held by this worker's sessions)", () => {
  db.live(
    "a worker that holds the lock counts and records; one that does not writes nothing and sends nothing",
    (url) =>
      Effect.gen(function* () {
        const mine = Database.layer(url, { applicationName: "tppkit fence test" })
        const lock = 1_000_007
        const fence = { namespace: FundsCheckWorkflow.lockNamespace, lock, holder: "tppkit fence test" }
        const lost = { ...fence, holder: "tppkit another runner" }
        yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const checks = yield* Checks.Checks
          // the shard's lock, held by one session of this worker as effect's runner storage holds it
          const session = yield* sql.reserve
          yield* session.executeRaw(`SELECT pg_advisory_lock(${FundsCheckWorkflow.lockNamespace}, ${lock})`, [])
          yield* checks.plan([due("F"), due("G")])
          assert.deepStrictEqual(yield* checks.begin(due("F"), "f-1", 1, fence), { attempt: 1, recorded: undefined })
          // another worker's fence does not hold: nothing counted, nothing to send
          assert.deepStrictEqual(yield* checks.begin(due("G"), "g-1", 1, lost), {
            attempt: 0,
            recorded: undefined,
            fenced: true
          })
          yield* checks.finish(due("F"), { outcome: "failed", failure: timeout }, Date.UTC(2026, 1, 26, 7), {
            tryNo: 1,
            correlationId: "f-1",
            sent: true,
            attempt: 1,
            fence: lost
          })
          const rows = yield* checks.list()
          const f = rows.find((r) => r.orderId === "F")
          const g = rows.find((r) => r.orderId === "G")
          assert.deepStrictEqual([f?.outcome, f?.attempts, g?.attempts], [undefined, 1, 0])
          yield* checks.finish(due("F"), { outcome: "APPR" }, Date.UTC(2026, 1, 26, 7), {
            tryNo: 1,
            correlationId: "f-1",
            sent: true,
            attempt: 1,
            fence
          })
          assert.strictEqual((yield* checks.list()).find((r) => r.orderId === "F")?.outcome, "APPR")
        }).pipe(
          // the reserved session is given back before its pool closes
          Effect.scoped,
          Effect.provide(Checks.Checks.layerSql.pipe(Layer.provideMerge(mine)))
        )
      }),
    60_000
  )
})
