/**
 * A worker's Prometheus metrics through effect's `Metric` and `effect/observability`'s Prometheus text format:
 * sweep runs by outcome, funds checks by outcome, failed checks by the class and reason of their typed failure,
 * payments at risk (DECL), retries (scheduled, and attempts after the first), listings tried again, bank latency
 * of the balance checks, today's budget used and left per consent, webhook deliveries tried again and not made
 * yet, served on `127.0.0.1:<port>/metrics` as text a scraper accepts without warnings (every family with HELP and
 * TYPE, counters ending in `_total`).
 *
 * @since 0.1.0
 */
import { createServer } from "node:http"
import { LocalDate } from "@tppkit/core"
import { Clock, Effect, Layer, Metric, Option } from "effect"
import { PrometheusMetrics } from "effect/observability"
import { SqlClient } from "effect/sql"
import * as AtRisk from "./AtRisk.ts"
import * as CheckFailure from "./CheckFailure.ts"
import * as ConsentLifecycle from "./ConsentLifecycle.ts"
import { isTransient } from "./FundsCheckWorkflow.ts"
import * as Lifecycle from "./Lifecycle.ts"
import * as Liveness from "./Liveness.ts"
import * as PlanSettings from "./PlanSettings.ts"

/** A counter of this worker: each update adds to it (`incremental`), as Prometheus counts. */
const counter = (name: string, description: string) => Metric.counter(name, { description, incremental: true })

/** A gauge of this worker: each update sets it. */
const gauge = (name: string, description: string) => Metric.gauge(name, { description })

/** Funds checks finished on this worker, by outcome (`APPR`, `DECL`, `failed`). */
export const checks = counter("tppkit_funds_checks_total", "Funds checks finished on this worker, by outcome")

/**
 * Funds checks without an answer on this worker, by the class of their failure (http's `FailureClass`:
 * `refused`, `unavailable`, `configuration`, …) and its reason (`Forbidden`, `TransportFailure`, …).
 */
export const failures = counter(
  "tppkit_funds_check_failures_total",
  "Funds checks without an answer, by failure class and reason"
)

/** Payments found at risk (DECL) on this worker. */
export const atRisk = counter(
  "tppkit_payments_at_risk_total",
  "Payments whose balance check answered DECL (insufficient funds)"
)

/** Balance checks that were a payment's second or later attempt (a retry, or a repeat after a runner died). */
export const retries = counter(
  "tppkit_funds_check_retries_total",
  "Balance checks sent as a payment's second or later attempt"
)

/** Time of one balance check at the bank, seconds. */
export const bankLatency = Metric.histogram("tppkit_bank_latency_seconds", {
  description: "Duration of one balance check call, seconds",
  boundaries: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
})

/** Today's unattended listings counted per consent key. */
export const budgetUsed = gauge("tppkit_budget_used", "Unattended listings counted today")

/** Today's unattended listings left per consent key. */
export const budgetLeft = gauge("tppkit_budget_left", "Unattended listings left today")

/** Webhook deliveries of the fleet's outbox not made yet (all endpoints), read at each scrape. */
export const webhookPending = gauge(
  "tppkit_webhook_deliveries_pending",
  "Webhook deliveries in the fleet's outbox not made yet"
)

/** Webhook deliveries given up: the schedule used up, or the endpoint answered 410 Gone (`disabled`). */
export const webhookFailures = counter(
  "tppkit_webhook_failures_total",
  "Webhook deliveries given up (the retry schedule used up, or the endpoint answered 410 Gone and is disabled)"
)

/** How long the oldest due request of the cluster's queue has waited unread (0: none waits), read at each scrape. */
export const queueUnreadAge = gauge(
  "tppkit_queue_oldest_unread_seconds",
  "Seconds the oldest due request of the cluster's message queue has waited unread (0 when none waits)"
)

/** 1 when the fleet has stalled (`Liveness.verdict`: its queue unread, or no sweep), else 0; read at each scrape. */
export const fleetStalled = gauge(
  "tppkit_fleet_stalled",
  "1 when the fleet has stalled (its message queue unread while runners look healthy, or no sweep), else 0"
)

/** Payments raised at risk ahead (`payment.at_risk`) and not cleared, due today or later; read at each scrape. */
export const atRiskAhead = gauge(
  "tppkit_payments_at_risk_ahead",
  "Payments the forecast from the stored balances puts at risk, not cleared, due today or later"
)

/** The age of the oldest stored opening balance today, days (0: none stored); read at each scrape. */
export const balanceAge = gauge(
  "tppkit_balance_oldest_age_days",
  "Days since the date of the oldest stored opening balance the forecast ahead stands on (0 when none)"
)

/** The fleet's consents within 14 days of their last valid day, not expired; read at each scrape. */
export const consentsExpiring = gauge(
  "tppkit_consents_expiring",
  "Consents of the fleet within 14 days of their last valid day"
)

/** The fleet's consents the bank said are no longer valid (not swept); read at each scrape. */
export const consentsExpired = gauge(
  "tppkit_consents_expired",
  "Consents of the fleet the bank answered are no longer valid: not swept until a new consent is added"
)

/** Changes of the standing orders found by today's sweep, by type (created, removed, changed, next_date_moved). */
export const orderChanges = gauge(
  "tppkit_standing_order_changes",
  "Standing-order changes today's sweep found against the last complete listing, by type"
)

/** Sweep runs finished on this worker, by outcome (`complete`, or `incomplete`: a consent's listing failed). */
export const sweeps = counter(
  "tppkit_sweeps_total",
  "Daily sweep runs finished on this worker, by outcome (complete, incomplete)"
)

/** Listings of a sweep tried again after a transient failure. */
export const listingRetries = counter(
  "tppkit_listing_retries_total",
  "Unattended listings of a sweep scheduled again after a transient failure"
)

/** Balance checks scheduled again after a transient failure (the bank unavailable, a timeout, 429). */
export const checkRetries = counter(
  "tppkit_funds_check_retries_scheduled_total",
  "Balance checks scheduled again after a transient failure"
)

/** Checks planned from an earlier day's complete listing (their pages could not be read on the sweep's day). */
export const plannedFromEarlier = counter(
  "tppkit_checks_planned_from_earlier_listing_total",
  "Checks a sweep planned from an earlier day's complete listing because their pages could not be read"
)

/** Listing pages a sweep could not read, whose payments came from an earlier listing or were left unplanned. */
export const pagesUnread = counter(
  "tppkit_listing_pages_unread_total",
  "Listing pages a sweep could not read, by whether an earlier listing stood in (planned_from: earlier, none)"
)

/** Webhook deliveries that failed and were scheduled again. */
export const webhookRetries = counter(
  "tppkit_webhook_retries_total",
  "Webhook deliveries that failed and were scheduled again"
)

/** The lifecycle listener that feeds the metrics: checks, sweeps and retries (give it to `Lifecycle.layer`). */
export const listener: Lifecycle.Listener = {
  emit: (event) => {
    switch (event._tag) {
      case "CheckFinished": {
        const { outcome, attempt, millis } = event
        return Effect.all([
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
          isTransient(outcome) ? Metric.update(checkRetries, 1) : Effect.void,
          attempt > 1 ? Metric.update(retries, 1) : Effect.void,
          Metric.update(bankLatency, millis / 1000)
        ]).pipe(Effect.asVoid)
      }
      case "SweepFinished":
        return Metric.update(
          Metric.withAttributes(sweeps, { outcome: event.failed.length === 0 ? "complete" : "incomplete" }),
          1
        )
      case "ListingRetry":
        return Metric.update(listingRetries, 1)
      case "ListingPartial":
        return Effect.andThen(
          Metric.update(plannedFromEarlier, event.plannedFromEarlier),
          event.pagesUnread === "unknown"
            ? Effect.void
            : Metric.update(
                Metric.withAttributes(pagesUnread, {
                  planned_from: event.plannedFrom === undefined ? "none" : "earlier"
                }),
                event.pagesUnread.length
              )
        )
      case "WebhookRetry":
        return Metric.update(webhookRetries, 1)
      case "WebhookFailed":
        return Metric.update(Metric.withAttributes(webhookFailures, { disabled: String(event.disabled) }), 1)
      default:
        return Effect.void
    }
  }
}

/** The check observer and the listener that feed the metrics alone (no log lines), e.g. in a test. */
export const observer: Layer.Layer<never> = Lifecycle.layer([listener])

/**
 * Help text for effect's own cluster gauges, which have none; their other metrics (the shard release timer, in
 * milliseconds) are left out of the endpoint.
 */
export const clusterHelp: Readonly<Record<string, string>> = {
  effect_cluster_entities: "Entities alive on this runner",
  effect_cluster_entity_mailbox_size: "Messages waiting in an entity's mailbox",
  effect_cluster_entity_mailbox_size_max: "Largest mailbox of an entity seen on this runner",
  effect_cluster_singletons: "Cluster singletons (the daily sweep's cron) running on this runner",
  effect_cluster_runners: "Runners of the cluster known to this runner",
  effect_cluster_runners_healthy: "Healthy runners of the cluster known to this runner",
  effect_cluster_shards: "Shards held by this runner",
  effect_cluster_shards_releasing: "Shards this runner is handing over"
}

/**
 * effect's Prometheus text made valid for a scraper without warnings: every family has HELP and TYPE (effect's
 * cluster gauges get {@link clusterHelp}; effect's other metrics and any family without help text are left out).
 */
export const exposition = (text: string): string => {
  const families: Array<{ name: string; lines: Array<string> }> = []
  for (const line of text.split("\n")) {
    if (line.length === 0) continue
    const meta = /^# (HELP|TYPE) (\S+)/.exec(line)
    const current = families[families.length - 1]
    if (meta !== null && (current === undefined || current.name !== meta[2])) {
      families.push({ name: meta[2] as string, lines: [line] })
    } else if (current !== undefined) {
      current.lines.push(line)
    }
  }
  const out: Array<string> = []
  for (const family of families) {
    const own = family.lines.filter((l) => !l.startsWith("# HELP "))
    if (family.name.startsWith("effect_")) {
      const help = clusterHelp[family.name]
      if (help !== undefined) out.push(`# HELP ${family.name} ${help}`, ...own)
    } else if (family.lines[0]?.startsWith("# HELP ") === true) out.push(...family.lines)
  }
  return out.length === 0 ? "" : `${out.join("\n")}\n`
}

/** Reads what the fleet warns of today (issue 39) into the gauges. */
const warningGauges = (day: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [risks] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM tppkit_at_risk
      WHERE cleared_day IS NULL AND execution_date >= ${day}`
    yield* Metric.update(atRiskAhead, Number(risks?.n ?? 0))
    const consents = yield* sql<{ valid_until: string | null; expired_at: unknown }>`
      SELECT valid_until, expired_at FROM tppkit_consents`
    const expired = consents.filter((c) => c.expired_at !== null && c.expired_at !== undefined).length
    const expiring = consents.filter(
      (c) =>
        (c.expired_at === null || c.expired_at === undefined) &&
        c.valid_until !== null &&
        ConsentLifecycle.expiring({ key: "", validUntil: c.valid_until }, day) !== undefined
    ).length
    yield* Metric.update(consentsExpired, expired)
    yield* Metric.update(consentsExpiring, expiring)
    const plan = yield* PlanSettings.stored
    const balances = Option.isSome(plan) ? (plan.value.settings.balances ?? []) : []
    yield* Metric.update(balanceAge, Math.max(0, ...balances.map((b) => AtRisk.ageDays(b.date, day))))
    const changes = yield* sql<{ type: string; n: number }>`SELECT type, count(*)::int AS n FROM tppkit_fleet_events
      WHERE type LIKE 'standing_order.%' AND day = ${day} GROUP BY type`
    for (const type of ["created", "removed", "changed", "next_date_moved"]) {
      const n = changes.find((c) => c.type === `standing_order.${type}`)?.n ?? 0
      yield* Metric.update(Metric.withAttributes(orderChanges, { type }), Number(n))
    }
  })

/**
 * Reads today's budget (in the sweep's time zone), the webhook deliveries not made yet and whether the fleet still
 * advances (`Liveness`) into the gauges.
 */
const refreshBudget = (dailyLimit: number, timeZone: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const day = LocalDate.format(LocalDate.ofInstant(yield* Clock.currentTimeMillis, timeZone))
    const rows = yield* sql<{ consent_key: string; used: number }>`
      SELECT consent_key, used FROM tppkit_budget WHERE day = ${day}`
    for (const r of rows) {
      yield* Metric.update(Metric.withAttributes(budgetUsed, { consent: r.consent_key }), Number(r.used))
      yield* Metric.update(
        Metric.withAttributes(budgetLeft, { consent: r.consent_key }),
        Math.max(0, dailyLimit - Number(r.used))
      )
    }
    const [pending] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM tppkit_webhook_outbox
      WHERE delivered_at IS NULL AND failed_at IS NULL`
    yield* Metric.update(webhookPending, Number(pending?.n ?? 0))
    yield* Effect.ignore(warningGauges(day))
    const reading = yield* Liveness.read
    yield* Metric.update(
      queueUnreadAge,
      reading.oldestUnreadAt === undefined ? 0 : Math.max(0, (reading.at - reading.oldestUnreadAt) / 1000)
    )
    yield* Metric.update(fleetStalled, Liveness.verdict(reading).state === "stalled" ? 1 : 0)
  }).pipe(Effect.ignore)

/**
 * A Prometheus endpoint on `127.0.0.1:<port>/metrics` for the layer's lifetime; each scrape first reads today's
 * budget from the database. The metrics are fed by {@link listener} (through `Lifecycle.layer`, or {@link observer}).
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
        Effect.map(exposition),
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
  )
