import { assert, describe, it } from "@effect/vitest"
import { ErrorBody, LocalDate } from "@tppkit/core"
import { BankError, BudgetStore } from "@tppkit/http"
import { EmbeddedDb, FundsCheckWorkflow, Lifecycle, Metrics, PgBudgetStore } from "@tppkit/worker"
import { Clock, Duration, Effect, Layer, Metric } from "effect"
import { ClusterMetrics } from "effect/cluster"
import * as Exposition from "./exposition.ts"
import { embeddedDb } from "./pg.ts"
import { due } from "./support.ts"

const db = embeddedDb()

describe("Metrics", () => {
  db.liveSql(
    "serves checks by outcome, failures by class and reason, payments at risk, retries, bank latency and today's budget in Prometheus text",
    Effect.gen(function* () {
      const port = yield* EmbeddedDb.freePort
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
        const down = new BankError.BankError({
          operation: "balanceCheck",
          identity: {},
          reason: new BankError.ServerError({ status: 503, body: ErrorBody.decode(503, undefined, "{}") })
        })
        yield* observer.finished(due(), { outcome: "failed", failure: down }, 1, 30)
        yield* Lifecycle.emit(Lifecycle.finished("2026-11-25", 0, [{ consent: "c1", planned: 3 }]))
        yield* Lifecycle.emit(
          Lifecycle.finished("2026-11-26", 0, [
            { consent: "c1", planned: 3 },
            { consent: "c2", planned: 0, failure: { message: "503" } }
          ])
        )
        yield* Lifecycle.emit({
          _tag: "ListingRetry",
          day: "2026-11-26",
          consent: "c2",
          tries: 1,
          waitMillis: 5000,
          cause: "503"
        })
        yield* Lifecycle.emit({
          _tag: "WebhookRetry",
          eventId: "evt_1",
          type: "check.declined",
          endpoint: "http://127.0.0.1:9/hook",
          attempt: 1,
          waitMillis: 2000,
          cause: "HTTP 503"
        })
        yield* Lifecycle.emit({
          _tag: "WebhookFailed",
          eventId: "evt_1",
          type: "check.declined",
          endpoint: "http://127.0.0.1:9/hook",
          attempt: 1,
          cause: "HTTP 410 Gone from http://127.0.0.1:9/hook",
          disabled: true
        })
        // effect's own cluster metrics: gauges get help text, the shard release timer (milliseconds) is left out
        yield* Metric.update(ClusterMetrics.shards, 7n)
        yield* Metric.update(ClusterMetrics.shardReleaseDuration, Duration.millis(12))
        const store = yield* BudgetStore.BudgetStore
        const today = LocalDate.format(LocalDate.ofInstant(yield* Clock.currentTimeMillis, LocalDate.bankTimeZone))
        yield* store.tryConsume("sandbox:c1", today, 3, 4)
        const text = yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text()))
        assert.match(text, /tppkit_funds_checks_total\{outcome="APPR"\} 1/)
        assert.match(text, /tppkit_funds_checks_total\{outcome="DECL"\} 1/)
        assert.match(text, /tppkit_payments_at_risk_total 1/)
        assert.match(text, /tppkit_funds_check_retries_total 1/)
        assert.match(text, /tppkit_funds_checks_total\{outcome="failed"\} 2/)
        assert.match(text, /tppkit_funds_check_retries_scheduled_total 1/)
        assert.match(text, /tppkit_sweeps_total\{outcome="complete"\} 1/)
        assert.match(text, /tppkit_sweeps_total\{outcome="incomplete"\} 1/)
        assert.match(text, /tppkit_listing_retries_total 1/)
        assert.match(
          text,
          /# HELP effect_cluster_shards Shards held by this runner\n# TYPE effect_cluster_shards gauge\neffect_cluster_shards 7\n/
        )
        assert.notInclude(text, "effect_cluster_shard_release")
        // the exposition format and promtool's lint rules, checked here (promtool is not on the machine)
        assert.deepStrictEqual(Exposition.check(text), [])
        const failures = text
          .split("\n")
          .filter((l) => l.startsWith("tppkit_funds_check_failures_total{") && l.includes('class="refused"'))
        assert.strictEqual(failures.length, 1)
        assert.include(failures[0], 'class="refused"')
        assert.include(failures[0], 'reason="Forbidden"')
        assert.match(failures[0]!, /\} 1$/)
        assert.match(text, /tppkit_bank_latency_seconds_count 4/)
        assert.match(text, /tppkit_budget_used\{consent="sandbox:c1"\} 3/)
        assert.match(text, /tppkit_budget_left\{consent="sandbox:c1"\} 1/)
        assert.match(text, /\ntppkit_webhook_deliveries_pending 0\n/)
        assert.match(text, /\ntppkit_webhook_retries_total 1\n/)
        assert.match(text, /\ntppkit_webhook_failures_total\{disabled="true"\} 1\n/)
        // no runner in this database: nothing waits unread, and a fleet without runners has stopped, not stalled
        assert.match(text, /\ntppkit_queue_oldest_unread_seconds 0\n/)
        assert.match(text, /\ntppkit_fleet_stalled 0\n/)
        // what the fleet warns of (issue 39): nothing at risk, no consents, no balances, no changes today
        assert.match(text, /\ntppkit_payments_at_risk_ahead 0\n/)
        assert.match(text, /\ntppkit_balance_oldest_age_days 0\n/)
        assert.match(text, /\ntppkit_consents_expiring 0\n/)
        assert.match(text, /\ntppkit_consents_expired 0\n/)
        assert.match(text, /\ntppkit_standing_order_changes\{type="next_date_moved"\} 0\n/)
        const missing = yield* Effect.promise(() => fetch(`http://127.0.0.1:${port}/other`).then((r) => r.status))
        assert.strictEqual(missing, 404)
      }).pipe(Effect.provide(Layer.mergeAll(Metrics.layer(port, 4), Metrics.observer, PgBudgetStore.layer())))
    }),
    60_000
  )
})

describe("the exposition checker", () => {
  it("finds what promtool would: no HELP, a counter without _total, a broken histogram, a duplicate series", () => {
    const bad = [
      "# TYPE a_total counter",
      "a_total 1",
      "# HELP b Things",
      "# TYPE b counter",
      "b 1",
      "# HELP h_seconds Time",
      "# TYPE h_seconds histogram",
      'h_seconds_bucket{le="1"} 2',
      'h_seconds_bucket{le="+Inf"} 1',
      "h_seconds_sum 1",
      "h_seconds_count 1",
      "# HELP g Level",
      "# TYPE g gauge",
      'g{x="1"} 1',
      'g{x="1"} 2',
      "# HELP request_duration Time",
      "# TYPE request_duration gauge",
      "request_duration 1",
      ""
    ].join("\n")
    const problems = Exposition.check(bad)
    for (const expected of [
      "a_total: no HELP",
      "b: counter without _total",
      "h_seconds{}: buckets not cumulative",
      'duplicate series g{x="1"}',
      "request_duration: a duration not in seconds"
    ]) {
      assert.include(problems, expected)
    }
    assert.deepStrictEqual(Exposition.check("# HELP ok_total Fine\n# TYPE ok_total counter\nok_total 1\n"), [])
  })
})
