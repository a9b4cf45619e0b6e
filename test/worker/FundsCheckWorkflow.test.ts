import { assert, describe, it } from "@effect/vitest"
import { CheckFailure, Checks, FundsCheckWorkflow } from "@tppkit/worker"
import { Effect, Fiber, Layer, Ref } from "effect"
import { TestClock } from "effect/testing"
import { WorkflowEngine } from "effect/workflow"
import { due as dueFixture } from "./support.ts"

const due = (over: Partial<Checks.Due> = {}): Checks.Due => dueFixture({ consent: "tppkit-sandbox", ...over })

/** A checker answering APPR below 1000 and DECL above, counting its calls. */
const stubChecker = (calls: Ref.Ref<number>) =>
  Layer.succeed(FundsCheckWorkflow.BalanceChecker)({
    check: (d, correlationId) =>
      Ref.updateAndGet(calls, (n) => n + 1).pipe(
        Effect.map((n) => ({
          answer: Number(d.amount) < 1000 ? ("APPR" as const) : ("DECL" as const),
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
            new CheckFailure.InvalidPayment({ amount: d.amount, currency: d.currency, debtorIban: d.debtorIban })
          )
      })
      const outcome = yield* Effect.gen(function* () {
        const result = yield* FundsCheckWorkflow.FundsCheck.execute(due({ amount: "x" }))
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
        "invalid payment x EUR on SK3112000000198742637541"
      )
      assert.strictEqual(CheckFailure.classify(outcome.row!.failure!), "invalid")
    })
  )
})
