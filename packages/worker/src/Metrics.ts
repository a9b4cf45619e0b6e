/**
 * A worker's Prometheus metrics through effect's `Metric` and `effect/observability`'s Prometheus text format:
 * funds checks by outcome, failed checks by the class and reason of their typed failure, payments at risk (DECL),
 * repeated checks (a retry after a runner died), bank latency of the balance checks, and today's budget used and
 * left per consent, served on `127.0.0.1:<port>/metrics`.
 *
 * @since 0.1.0
 */
import { createServer } from "node:http"
import { LocalDate } from "@tppkit/core"
import { Clock, Effect, Layer, Metric } from "effect"
import { PrometheusMetrics } from "effect/observability"
import { SqlClient } from "effect/sql"
import * as CheckFailure from "./CheckFailure.ts"
import { CheckObserver } from "./FundsCheckWorkflow.ts"
import * as Sweep from "./Sweep.ts"

/** Funds checks finished on this worker, by outcome (`APPR`, `DECL`, `failed`). */
export const checks = Metric.counter("tppkit_funds_checks_total", {
  description: "Funds checks finished on this worker, by outcome",
  incremental: true
})

/**
 * Funds checks without an answer on this worker, by the class of their failure (http's `FailureClass`:
 * `refused`, `unavailable`, `configuration`, …) and its reason (`Forbidden`, `TransportFailure`, …).
 */
export const failures = Metric.counter("tppkit_funds_check_failures_total", {
  description: "Funds checks without an answer, by failure class and reason",
  incremental: true
})

/** Payments found at risk (DECL) on this worker. */
export const atRisk = Metric.counter("tppkit_payments_at_risk_total", {
  description: "Payments whose balance check answered DECL (insufficient funds)",
  incremental: true
})

/** Balance checks sent again for a payment (its first runner died after sending). */
export const retries = Metric.counter("tppkit_funds_check_retries_total", {
  description: "Balance checks repeated for a payment after a runner died mid-check",
  incremental: true
})

/** Time of one balance check at the bank, seconds. */
export const bankLatency = Metric.histogram("tppkit_bank_latency_seconds", {
  description: "Duration of one balance check call, seconds",
  boundaries: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
})

/** Today's unattended listings counted per consent key. */
export const budgetUsed = Metric.gauge("tppkit_budget_used", { description: "Unattended listings counted today" })

/** Today's unattended listings left per consent key. */
export const budgetLeft = Metric.gauge("tppkit_budget_left", { description: "Unattended listings left today" })

/** The observer that feeds the check metrics. */
export const observer: Layer.Layer<never> = Layer.effectDiscard(Effect.void).pipe(
  Layer.provideMerge(
    Layer.succeed(CheckObserver)({
      finished: (_due, outcome, attempt, millis) =>
        Effect.all([
          Metric.update(Metric.withAttributes(checks, { outcome: outcome.outcome }), 1),
          outcome.outcome === "DECL" ? Metric.update(atRisk, 1) : Effect.void,
          outcome.failure === undefined
            ? Effect.void
            : Metric.update(
                Metric.withAttributes(failures, {
                  class: CheckFailure.classify(outcome.failure),
                  reason: CheckFailure.reasonTag(outcome.failure)
                }),
                1
              ),
          attempt > 1 ? Metric.update(retries, 1) : Effect.void,
          Metric.update(bankLatency, millis / 1000)
        ]).pipe(Effect.asVoid)
    })
  )
)

/** Reads today's budget (in the sweep's time zone) into the gauges. */
const refreshBudget = (dailyLimit: number, timeZone: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const day = LocalDate.format(Sweep.dayIn(yield* Clock.currentTimeMillis, timeZone))
    const rows = yield* sql<{ consent_key: string; used: number }>`
      SELECT consent_key, used FROM tppkit_budget WHERE day = ${day}`
    for (const r of rows) {
      yield* Metric.update(Metric.withAttributes(budgetUsed, { consent: r.consent_key }), Number(r.used))
      yield* Metric.update(
        Metric.withAttributes(budgetLeft, { consent: r.consent_key }),
        Math.max(0, dailyLimit - Number(r.used))
      )
    }
  }).pipe(Effect.ignore)

/**
 * The check observer plus a Prometheus endpoint on `127.0.0.1:<port>/metrics` for the layer's lifetime; each
 * scrape first reads today's budget from the database.
 */
export const layer = (
  port: number,
  dailyLimit: number,
  timeZone: string = LocalDate.bankTimeZone
): Layer.Layer<never, never, SqlClient.SqlClient> =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const context = yield* Effect.context<SqlClient.SqlClient>()
      const scrape = refreshBudget(dailyLimit, timeZone).pipe(
        Effect.andThen(PrometheusMetrics.format()),
        Effect.provide(context)
      )
      yield* Effect.acquireRelease(
        Effect.callback<ReturnType<typeof createServer>>((resume) => {
          const server = createServer((req, res) => {
            if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
              res.writeHead(404).end("not found\n")
              return
            }
            Effect.runPromise(scrape).then(
              (body) => res.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" }).end(body),
              () => res.writeHead(500).end("metrics unavailable\n")
            )
          })
          server.once("error", (e) => resume(Effect.die(e)))
          server.listen(port, "127.0.0.1", () => resume(Effect.succeed(server)))
        }),
        (server) => Effect.callback<void>((resume) => void server.close(() => resume(Effect.void)))
      )
    })
  ).pipe(Layer.provideMerge(observer))
