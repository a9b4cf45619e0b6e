import { assert, describe, it } from "@effect/vitest"
import { ErrorBody, LocalDate } from "@tppkit/core"
import { BankError, BudgetStore } from "@tppkit/http"
import { EmbeddedDb, FundsCheckWorkflow, Metrics, PgBudgetStore, Sweep } from "@tppkit/worker"
import { Clock, Effect, Layer } from "effect"
import { embeddedDb } from "./pg.ts"
import { due } from "./support.ts"

const db = embeddedDb()

describe("Metrics", () => {
  it.live(
    "serves checks by outcome, failures by class and reason, payments at risk, retries, bank latency and today's budget in Prometheus text",
    () =>
      Effect.gen(function* () {
        const port = yield* EmbeddedDb.freePort
        const sql = db.fresh()
        yield* Effect.gen(function* () {
          const observer = yield* FundsCheckWorkflow.CheckObserver
          yield* observer.finished(due(), { outcome: "APPR" }, 1, 120)
          yield* observer.finished(due(), { outcome: "DECL" }, 2, 80)
          const refused = new BankError.BankError({
            operation: "balanceCheck",
            identity: {},
            reason: new BankError.Forbidden({ body: ErrorBody.decode(403, undefined, '{"code":"CONSENT_MISSING"}') })
          })
          yield* observer.finished(due(), { outcome: "failed", failure: refused }, 1, 40)
          const store = yield* BudgetStore.BudgetStore
          const today = LocalDate.format(Sweep.dayIn(yield* Clock.currentTimeMillis, "Europe/Bratislava"))
          yield* store.tryConsume("sandbox:c1", today, 3, 4)
          const text = yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text()))
          assert.match(text, /tppkit_funds_checks_total\{outcome="APPR"\} 1/)
          assert.match(text, /tppkit_funds_checks_total\{outcome="DECL"\} 1/)
          assert.match(text, /tppkit_payments_at_risk_total 1/)
          assert.match(text, /tppkit_funds_check_retries_total 1/)
          assert.match(text, /tppkit_funds_checks_total\{outcome="failed"\} 1/)
          const failures = text.split("\n").filter((l) => l.startsWith("tppkit_funds_check_failures_total{"))
          assert.strictEqual(failures.length, 1)
          assert.include(failures[0], 'class="refused"')
          assert.include(failures[0], 'reason="Forbidden"')
          assert.match(failures[0]!, /\} 1$/)
          assert.match(text, /tppkit_bank_latency_seconds_count 3/)
          assert.match(text, /tppkit_budget_used\{consent="sandbox:c1"\} 3/)
          assert.match(text, /tppkit_budget_left\{consent="sandbox:c1"\} 1/)
          const missing = yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}/other`).then((r) => r.status))
          assert.strictEqual(missing, 404)
        }).pipe(
          Effect.provide(Layer.mergeAll(Metrics.layer(port, 4), PgBudgetStore.layer()).pipe(Layer.provideMerge(sql)))
        )
      }),
    60_000
  )
})
