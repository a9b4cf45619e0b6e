import { assert, describe, it } from "@effect/vitest"
import { Backoff, ErrorBody, LocalDate } from "@tppkit/core"
import { BankError } from "@tppkit/http"
import { BankGate, CheckFailure, Checks, FundsCheckWorkflow } from "@tppkit/worker"
import { Effect, Exit, Fiber, Layer, Ref } from "effect"
import { Entity, EntityAddress, EntityId, EntityType, ShardId } from "effect/cluster"
import { Sharding } from "effect/cluster/Sharding"
import { TestClock } from "effect/testing"
import { WorkflowEngine } from "effect/workflow"
import { due as dueFixture } from "./support.ts"

const due = (over: Partial<Checks.DueText> = {}): Checks.Due => dueFixture({ consent: "tppkit-sandbox", ...over })

/** A checker answering APPR below 1000 and DECL above, counting its calls. */
const stubChecker = (calls: Ref.Ref<number>) =>
  Layer.succeed(FundsCheckWorkflow.BalanceChecker)({
    check: (d, correlationId) =>
      Ref.updateAndGet(calls, (n) => n + 1).pipe(
        Effect.map((n) => ({
          answer: Number(Checks.text(d).amount) < 1000 ? ("APPR" as const) : ("DECL" as const),
          requestId: `req-${n}`,
          responseId: `resp-${correlationId.slice(0, 8)}`
        }))
      )
  })

const engine = (calls: Ref.Ref<number>) =>
  FundsCheckWorkflow.layer.pipe(
    Layer.provideMerge(WorkflowEngine.layerMemory),
    Layer.provideMerge(Checks.Checks.layerMemory),
    Layer.provide(stubChecker(calls))
  )

describe("FundsCheckWorkflow", () => {
  it.effect("checks a payment once however often it is started, and records the outcome", () =>
    Effect.gen(function* () {
      const calls = yield* Ref.make(0)
      yield* Effect.gen(function* () {
        const a = yield* FundsCheckWorkflow.FundsCheck.execute(due())
        const b = yield* FundsCheckWorkflow.FundsCheck.execute(due())
        assert.strictEqual(a.outcome, "APPR")
        assert.deepStrictEqual(a, b)
        yield* FundsCheckWorkflow.FundsCheck.execute(due({ orderId: "SO-2", amount: "5000.00" }))
        const rows = yield* Checks.Checks.use((c) => c.list())
        assert.deepStrictEqual(
          rows.map((r) => [r.orderId, r.outcome, r.attempts]),
          [
            ["SO-1", "APPR", 1],
            ["SO-2", "DECL", 1]
          ]
        )
        assert.strictEqual(rows[0]?.requestId, "req-1")
        assert.strictEqual(rows[0]?.checkedAt, "1970-01-01T00:00:00Z")
      }).pipe(Effect.provide(engine(calls)))
      assert.strictEqual(yield* Ref.get(calls), 2)
    })
  )

  it.effect(
    "a try whose outcome is recorded is not sent again when its workflow runs again (the check store is its journal)",
    () =>
      Effect.gen(function* () {
        const calls = yield* Ref.make(0)
        yield* Effect.gen(function* () {
          // the worker died after recording the first try's outcome and before the workflow's reply was stored: the
          // workflow runs again from the start on another runner
          const first = yield* FundsCheckWorkflow.checkOnce(due()).pipe(Effect.provide(stubChecker(calls)))
          const replayed = yield* FundsCheckWorkflow.FundsCheck.execute(due())
          assert.deepStrictEqual(replayed, first)
          const rows = yield* Checks.Checks.use((c) => c.list())
          assert.deepStrictEqual(
            rows.map((r) => [r.outcome, r.attempts, r.unconfirmed]),
            [["APPR", 1, 0]]
          )
        }).pipe(Effect.provide(engine(calls)))
        assert.strictEqual(yield* Ref.get(calls), 1)
      })
  )

  it.live("a runner whose shard has moved away sends nothing and leaves the check to the shard's new owner", () =>
    Effect.gen(function* () {
      const calls = yield* Ref.make(0)
      const address = EntityAddress.make({
        shardId: ShardId.make("default", 7),
        entityType: EntityType.make("Workflow/tppkit/FundsCheck"),
        entityId: EntityId.make("x")
      })
      const run = (d: Checks.Due, owned: boolean) =>
        FundsCheckWorkflow.FundsCheck.execute(d).pipe(
          Effect.provideService(Entity.CurrentAddress, address),
          Effect.provideService(Sharding, { hasShardId: () => owned } as unknown as Sharding["Service"]),
          Effect.timeout("5 seconds"),
          Effect.exit
        )
      const { kept, moved, rows } = yield* Effect.gen(function* () {
        const kept = yield* run(due({ orderId: "SO-KEPT" }), true)
        // the cluster moved shard 7 to another runner while this run waited for a slot
        const moved = yield* run(due({ orderId: "SO-MOVED" }), false)
        return { kept, moved, rows: yield* Checks.Checks.use((c) => c.list()) }
      }).pipe(Effect.provide(engine(calls)))
      assert.isTrue(Exit.isSuccess(kept))
      assert.isTrue(Exit.hasInterrupts(moved), String(moved))
      assert.strictEqual(yield* Ref.get(calls), 1)
      // nothing counted for the check left to the new owner
      assert.deepStrictEqual(
        rows.map((r) => [r.orderId, r.attempts]),
        [["SO-KEPT", 1]]
      )
    })
  )

  it.effect("waits durably until its check instant (TestClock)", () =>
    Effect.gen(function* () {
      const calls = yield* Ref.make(0)
      yield* Effect.gen(function* () {
        const fiber = yield* FundsCheckWorkflow.FundsCheck.execute(due({ checkAt: 3 * 86_400_000 })).pipe(
          Effect.forkChild
        )
        yield* TestClock.adjust("2 days")
        assert.strictEqual(yield* Ref.get(calls), 0)
        yield* TestClock.adjust("1 day")
        const result = yield* Fiber.join(fiber)
        assert.strictEqual(result.outcome, "APPR")
        assert.strictEqual(yield* Ref.get(calls), 1)
      }).pipe(Effect.provide(engine(calls)))
    })
  )

  it.effect("records a check without an answer with its typed failure, not a message", () =>
    Effect.gen(function* () {
      const refuse = Layer.succeed(FundsCheckWorkflow.BalanceChecker)({
        check: (d) =>
          Effect.fail(
            new CheckFailure.InvalidPayment({
              amount: Checks.text(d).amount,
              currency: d.currency,
              debtorIban: d.debtorIban
            })
          )
      })
      const outcome = yield* Effect.gen(function* () {
        const result = yield* FundsCheckWorkflow.FundsCheck.execute(due({ amount: "1.234" }))
        const [row] = yield* Checks.Checks.use((c) => c.list())
        return { result, row }
      }).pipe(
        Effect.provide(
          FundsCheckWorkflow.layer.pipe(
            Layer.provideMerge(WorkflowEngine.layerMemory),
            Layer.provideMerge(Checks.Checks.layerMemory),
            Layer.provide(refuse)
          )
        )
      )
      assert.strictEqual(outcome.result.outcome, "failed")
      assert.strictEqual(outcome.result.failure?._tag, "InvalidPayment")
      assert.strictEqual(outcome.row?.outcome, "failed")
      assert.strictEqual(
        outcome.row?.failure === undefined ? undefined : CheckFailure.describe(outcome.row.failure),
        "invalid payment 1.234 EUR on SK3112000000198742637541"
      )
      assert.strictEqual(CheckFailure.classify(outcome.row!.failure!), "invalid")
    })
  )
})

/** A checker whose first `down` calls fail with `reason`, then answer APPR; counting its calls. */
const flakyChecker = (calls: Ref.Ref<number>, down: number, reason: BankError.BankError["reason"]) =>
  Layer.succeed(FundsCheckWorkflow.BalanceChecker)({
    check: () =>
      Effect.flatMap(
        Ref.updateAndGet(calls, (n) => n + 1),
        (n) =>
          n <= down
            ? Effect.fail(
                new BankError.BankError({
                  operation: "balanceCheck",
                  identity: { requestId: `req-${n}` },
                  request: "POST /pisp/api/v1/balanceCheck",
                  reason
                })
              )
            : Effect.succeed({ answer: "APPR" as const, requestId: `req-${n}` })
      )
  })

const retrying = (calls: Ref.Ref<number>, down: number, reason: BankError.BankError["reason"]) =>
  FundsCheckWorkflow.layer.pipe(
    Layer.provideMerge(WorkflowEngine.layerMemory),
    Layer.provideMerge(Checks.Checks.layerMemory),
    Layer.provide(flakyChecker(calls, down, reason)),
    Layer.provide(
      Layer.succeed(FundsCheckWorkflow.CheckRetry)({
        backoff: Backoff.exponential({ initial: "1 millis", cap: "4 millis" }),
        timeZone: "UTC"
      })
    )
  )

const unavailable = new BankError.ServerError({ status: 503, body: ErrorBody.decode(503, undefined, "") })

describe("FundsCheckWorkflow retries", () => {
  it.live("a check that failed on a transient fault is tried again with back-off until the bank answers", () =>
    Effect.gen(function* () {
      const calls = yield* Ref.make(0)
      // the execution date is far ahead: the retries are within it
      const rows = yield* Effect.gen(function* () {
        const outcome = yield* FundsCheckWorkflow.FundsCheck.execute(due({ executionDate: "2999-01-01" }))
        assert.strictEqual(outcome.outcome, "APPR")
        return yield* Checks.Checks.use((c) => c.list())
      }).pipe(Effect.provide(retrying(calls, 3, unavailable)))
      assert.strictEqual(yield* Ref.get(calls), 4)
      // every request sent is counted; the answer is the last one's
      assert.deepStrictEqual(
        rows.map((r) => [r.outcome, r.attempts, r.requestId, r.failure]),
        [["APPR", 4, "req-4", undefined]]
      )
    })
  )

  it.live("each bank its own breaker: a COBS bank down holds back its checks, never an SBAS bank's", () =>
    Effect.gen(function* () {
      const calls = { cobs: 0, sbas: 0 }
      const checker = Layer.succeed(FundsCheckWorkflow.BalanceChecker)({
        bankOf: (d) => Effect.succeed(d.consent === "cz-1" ? "cobs" : "sbas"),
        check: (d) =>
          Effect.suspend(() => {
            if (d.consent !== "cz-1") {
              calls.sbas++
              return Effect.succeed({ answer: "APPR" as const })
            }
            calls.cobs++
            return Effect.fail(
              new BankError.BankError({
                operation: "balanceCheck",
                identity: {},
                request: "POST /accounts/balanceCheck",
                reason: unavailable
              })
            )
          })
      })
      yield* Effect.gen(function* () {
        const cz = yield* Effect.forkChild(
          FundsCheckWorkflow.FundsCheck.execute(due({ consent: "cz-1", executionDate: "2999-01-01" }))
        )
        // three transient failures open the COBS bank's breaker for a minute: no fourth try
        while (calls.cobs < 3) yield* Effect.sleep("5 millis")
        yield* Effect.sleep("50 millis")
        assert.strictEqual(calls.cobs, 3)
        const sk = yield* FundsCheckWorkflow.FundsCheck.execute(due({ orderId: "SO-SK", executionDate: "2999-01-01" }))
        assert.strictEqual(sk.outcome, "APPR")
        assert.strictEqual(calls.sbas, 1)
        assert.strictEqual(calls.cobs, 3)
        yield* Fiber.interrupt(cz)
      }).pipe(
        Effect.provide(
          FundsCheckWorkflow.layer.pipe(
            Layer.provideMerge(WorkflowEngine.layerMemory),
            Layer.provideMerge(Checks.Checks.layerMemory),
            Layer.provide(checker),
            Layer.provide(BankGate.BankGate.layerMemory({ threshold: 3, initial: "1 minute", poll: "5 millis" })),
            Layer.provide(
              Layer.succeed(FundsCheckWorkflow.CheckRetry)({
                backoff: Backoff.exponential({ initial: "1 millis", cap: "1 millis" }),
                timeZone: "UTC"
              })
            )
          )
        )
      )
    })
  )

  it.live("a refusal is a final answer with its typed reason, never tried again", () =>
    Effect.gen(function* () {
      const calls = yield* Ref.make(0)
      const forbidden = new BankError.Forbidden({
        body: ErrorBody.decode(403, undefined, '{"code":"CONSENT_MISSING"}')
      })
      const outcome = yield* FundsCheckWorkflow.FundsCheck.execute(due({ executionDate: "2999-01-01" })).pipe(
        Effect.provide(retrying(calls, 5, forbidden))
      )
      assert.strictEqual(yield* Ref.get(calls), 1)
      assert.strictEqual(outcome.outcome, "failed")
      assert.isTrue(CheckFailure.isFinal(outcome.failure))
      assert.strictEqual(outcome.failure?._tag === "BankError" ? outcome.failure.reason._tag : "", "Forbidden")
    })
  )

  it.live("a check ends without an answer only when its payment's execution date has passed", () =>
    Effect.gen(function* () {
      const calls = yield* Ref.make(0)
      const outcome = yield* FundsCheckWorkflow.FundsCheck.execute(due({ executionDate: "2020-01-01" })).pipe(
        Effect.provide(retrying(calls, 5, unavailable))
      )
      assert.strictEqual(yield* Ref.get(calls), 1)
      assert.strictEqual(outcome.outcome, "failed")
      assert.isFalse(CheckFailure.isFinal(outcome.failure))
      assert.strictEqual(
        FundsCheckWorkflow.endOfDay(LocalDate.parseUnsafe("2026-03-28"), "Europe/Bratislava"),
        Date.UTC(2026, 2, 28, 23)
      )
    })
  )
})
