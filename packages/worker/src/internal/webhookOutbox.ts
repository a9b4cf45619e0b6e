/**
 * The engine of `Webhook`: the outbox in PostgreSQL (one row per event and endpoint), filled from what the fleet
 * recorded (checks that answered DECL or failed, failed sweep runs) and emptied by posting each due row to its
 * endpoint, signed, with a lease so that one worker posts it at a time and a dead worker's row is taken over.
 * Written here (no library keeps an outbox in effect's SQL client); the HTTP post is Node's `fetch`.
 */
import { Clock, Duration, Effect, Option, type Redacted, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { endOfDay, isTransient } from "../FundsCheckWorkflow.ts"
import * as SweepLog from "../SweepLog.ts"
import { outcomeOf } from "./checkRows.ts"
import { type DbRow, rowOf } from "./checksSql.ts"
import * as Webhook from "./webhookEvents.ts"

/** The DDL of the fleet's endpoints and the outbox (idempotent). */
export const ddl: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS tppkit_webhook_endpoint (url text PRIMARY KEY, added_at bigint NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS tppkit_webhook_outbox (
    event_id text NOT NULL, endpoint text NOT NULL, type text NOT NULL, body text NOT NULL,
    occurred_at bigint NOT NULL, created_at bigint NOT NULL, attempts integer NOT NULL DEFAULT 0,
    next_at bigint NOT NULL, lease_until bigint NOT NULL DEFAULT 0, delivered_at bigint, last_error text,
    PRIMARY KEY (event_id, endpoint))`,
  "CREATE INDEX IF NOT EXISTS tppkit_webhook_due ON tppkit_webhook_outbox (endpoint, next_at) WHERE delivered_at IS NULL",
  // the checks an event may come from, which the outbox reads every poll: few, so the reading is cheap
  "CREATE INDEX IF NOT EXISTS tppkit_checks_eventful ON tppkit_checks (checked_at) WHERE outcome IN ('DECL', 'failed')"
]

/** A webhook endpoint of the fleet: where events are posted, and the secret they are signed with. */
export interface Endpoint {
  readonly url: string
  readonly secret: Redacted.Redacted<string>
}

/** How the outbox delivers: its timing, and who is told of each failed delivery. */
export interface Settings {
  /** How often the outbox looks for new events and due deliveries (default 1 s), milliseconds. */
  readonly poll?: number | undefined
  /** The first wait after a failed delivery, doubled per attempt up to `maxBackoff` (default 2 s, 10 minutes). */
  readonly backoff?: number | undefined
  readonly maxBackoff?: number | undefined
  /** How long one delivery may take before it counts as failed (default 10 s), milliseconds. */
  readonly timeout?: number | undefined
  /** How long a claimed delivery is held before another worker may take it over (default 60 s), milliseconds. */
  readonly lease?: number | undefined
  /** The fleet's time zone: a check's retries end with its execution date there (default Europe/Bratislava). */
  readonly timeZone?: string | undefined
  /** Told of each delivery that failed and is tried again. */
  readonly onRetry?: ((retry: Retry) => Effect.Effect<void>) | undefined
}

/** A delivery that failed and is tried again. */
export interface Retry {
  readonly eventId: string
  readonly type: string
  /** The endpoint as `Webhook.displayUrl` shows it. */
  readonly endpoint: string
  readonly attempt: number
  readonly waitMillis: number
  readonly cause: string
}

/** One delivery not yet made, as `tppkit worker status` shows it. */
export interface Delivery {
  readonly eventId: string
  readonly type: string
  readonly endpoint: string
  readonly attempts: number
  readonly nextAt: number
  readonly lastError: string | undefined
}

/** How far back a worker looks for events when it starts (older payments have executed). */
const lookbackMillis = 3 * 24 * 60 * 60 * 1000
/** How far before the previous look the next one starts (clocks of the workers differ a little). */
const overlapMillis = 60_000

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** The outbox of one worker: its endpoints, its timing; `flush` for `--once`. */
export const start = (
  endpoints: ReadonlyArray<Endpoint>,
  settings: Settings & { readonly replace?: boolean | undefined }
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const poll = settings.poll ?? 1000
    const backoff = settings.backoff ?? 2000
    const maxBackoff = settings.maxBackoff ?? 600_000
    const timeout = settings.timeout ?? 10_000
    const lease = settings.lease ?? 60_000
    const timeZone = settings.timeZone ?? "Europe/Bratislava"
    const byUrl = new Map(endpoints.map((e) => [e.url, e.secret]))
    const urls = [...byUrl.keys()]
    const started = yield* Clock.currentTimeMillis
    // the fleet's endpoints: this worker's added (or, replacing, exactly these)
    yield* sql.withTransaction(
      Effect.gen(function* () {
        if (settings.replace === true) {
          yield* urls.length === 0
            ? sql`DELETE FROM tppkit_webhook_endpoint`
            : sql`DELETE FROM tppkit_webhook_endpoint WHERE url NOT IN ${sql.in(urls)}`
        }
        for (const url of urls) {
          yield* sql`INSERT INTO tppkit_webhook_endpoint (url, added_at) VALUES (${url}, ${started})
            ON CONFLICT (url) DO NOTHING`
        }
      })
    )
    let since = started - lookbackMillis

    /** Puts the events recorded since the last look into the outbox, for every endpoint of the fleet. */
    const collect = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const from = since
      const checkRows = yield* sql<DbRow>`SELECT * FROM tppkit_checks
        WHERE outcome IN ('DECL', 'failed') AND checked_at >= ${new Date(from)}`
      const sweepRows = yield* sql<Record<string, unknown>>`SELECT * FROM tppkit_sweep_log
        WHERE state = 'failed' AND finished_at >= ${from}`
      const events: Array<Webhook.Event> = []
      for (const r of checkRows) {
        const row = rowOf(r)
        const retrying = isTransient(outcomeOf(row)) && now < endOfDay(row.executionDate, timeZone)
        const event = Webhook.checkEvent(row, { retrying })
        if (event !== undefined) events.push(event)
      }
      for (const r of sweepRows) {
        const event = Webhook.sweepEvent(SweepLog.entryOf(r))
        if (event !== undefined) events.push(event)
      }
      const known = new Set<string>()
      for (const part of chunks(events, 500)) {
        const rows = yield* sql<{ event_id: string }>`SELECT DISTINCT event_id FROM tppkit_webhook_outbox
          WHERE event_id IN ${sql.in(part.map((e) => e.id))}`
        for (const r of rows) known.add(r.event_id)
      }
      for (const event of events) {
        if (known.has(event.id)) continue
        const occurred = Date.parse(event.occurredAt)
        yield* sql`INSERT INTO tppkit_webhook_outbox (event_id, endpoint, type, body, occurred_at, created_at, next_at)
          SELECT ${event.id}, url, ${event.type}, ${JSON.stringify(event)}, ${occurred}, ${now}, ${now}
          FROM tppkit_webhook_endpoint WHERE added_at <= ${occurred + overlapMillis}
          ON CONFLICT (event_id, endpoint) DO NOTHING`
      }
      since = now - overlapMillis
    })

    /** Posts one claimed delivery; records it delivered, or failed with the next try after the back-off. */
    const post = (row: { event_id: string; endpoint: string; type: string; body: string; attempts: number }) =>
      Effect.gen(function* () {
        const secret = byUrl.get(row.endpoint)
        if (secret === undefined) return
        const timestamp = Math.floor((yield* Clock.currentTimeMillis) / 1000)
        const result = yield* Effect.tryPromise({
          try: async (signal) => {
            const response = await fetch(row.endpoint, {
              method: "POST",
              body: row.body,
              headers: {
                "content-type": "application/json",
                "user-agent": "tppkit-webhook",
                [Webhook.eventIdHeader]: row.event_id,
                [Webhook.signatureHeader]: Webhook.sign(secret, timestamp, row.body)
              },
              redirect: "manual",
              signal: AbortSignal.any([signal, AbortSignal.timeout(timeout)])
            })
            await response.arrayBuffer().catch(() => undefined)
            return response.status
          },
          catch: (e) => e
        }).pipe(
          Effect.map((status) =>
            status >= 200 && status < 300 ? undefined : `HTTP ${status} from ${Webhook.displayUrl(row.endpoint)}`
          ),
          Effect.catch((e) =>
            Effect.succeed(
              `${Webhook.displayUrl(row.endpoint)}: ${
                e instanceof Error && e.name === "TimeoutError"
                  ? `no answer within ${timeout / 1000} s`
                  : e instanceof Error
                    ? `${e.message}${e.cause instanceof Error ? ` (${e.cause.message})` : ""}`
                    : String(e)
              }`
            )
          )
        )
        const now = yield* Clock.currentTimeMillis
        if (result === undefined) {
          yield* sql`UPDATE tppkit_webhook_outbox SET delivered_at = ${now}, lease_until = 0, last_error = NULL
            WHERE event_id = ${row.event_id} AND endpoint = ${row.endpoint}`
          return
        }
        const wait = Math.min(maxBackoff, backoff * 2 ** Math.max(0, row.attempts - 1))
        yield* sql`UPDATE tppkit_webhook_outbox SET next_at = ${now + wait}, lease_until = 0, last_error = ${result}
          WHERE event_id = ${row.event_id} AND endpoint = ${row.endpoint} AND delivered_at IS NULL`
        if (settings.onRetry !== undefined) {
          yield* settings.onRetry({
            eventId: row.event_id,
            type: row.type,
            endpoint: Webhook.displayUrl(row.endpoint),
            attempt: row.attempts,
            waitMillis: wait,
            cause: result
          })
        }
      })

    /** Claims the due deliveries to this worker's endpoints (a lease each) and posts them. */
    const deliver = Effect.gen(function* () {
      if (urls.length === 0) return
      for (;;) {
        const now = yield* Clock.currentTimeMillis
        const claimed = yield* sql<{
          event_id: string
          endpoint: string
          type: string
          body: string
          attempts: number
        }>`
          UPDATE tppkit_webhook_outbox o SET lease_until = ${now + lease}, attempts = o.attempts + 1
          FROM (SELECT event_id, endpoint FROM tppkit_webhook_outbox
                WHERE delivered_at IS NULL AND next_at <= ${now} AND lease_until <= ${now}
                  AND endpoint IN ${sql.in(urls)}
                ORDER BY created_at, event_id LIMIT 50 FOR UPDATE SKIP LOCKED) c
          WHERE o.event_id = c.event_id AND o.endpoint = c.endpoint
          RETURNING o.event_id, o.endpoint, o.type, o.body, o.attempts`
        if (claimed.length === 0) return
        yield* Effect.forEach(claimed, (r) => post({ ...r, attempts: Number(r.attempts) }), {
          concurrency: 8,
          discard: true
        })
      }
    })

    const cycle = Effect.andThen(collect, deliver)
    const remaining = Effect.map(
      urls.length === 0
        ? Effect.succeed([{ n: 0 }])
        : sql<{ n: number }>`SELECT count(*)::int AS n FROM tppkit_webhook_outbox
            WHERE delivered_at IS NULL AND endpoint IN ${sql.in(urls)}`,
      (rows) => Number(rows[0]?.n ?? 0)
    )
    // the database away for a moment is waited out by the next poll
    yield* cycle.pipe(
      Effect.catch(() => Effect.void),
      Effect.repeat(Schedule.spaced(Duration.millis(poll))),
      Effect.forkScoped
    )
    return {
      flush: (within: number) =>
        Effect.gen(function* () {
          const until = (yield* Clock.currentTimeMillis) + within
          for (;;) {
            const rest = until - (yield* Clock.currentTimeMillis)
            // a delivery that hangs is given up at the bound (its lease ends; this or another worker tries again)
            const left =
              rest <= 0
                ? -1
                : yield* cycle.pipe(
                    Effect.andThen(remaining),
                    Effect.timeoutOption(Duration.millis(rest)),
                    Effect.map(Option.getOrElse(() => -1)),
                    Effect.catch(() => Effect.succeed(-1))
                  )
            if (left === 0) return 0
            if ((yield* Clock.currentTimeMillis) >= until) {
              return yield* remaining.pipe(Effect.catch(() => Effect.succeed(1)))
            }
            yield* Effect.sleep(Duration.millis(Math.min(poll, 250)))
          }
        })
    }
  })

/** The deliveries not yet made, the latest events first (at most `limit`). */
export const outstanding = (limit = 50) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<Record<string, unknown>>`SELECT event_id, type, endpoint, attempts, next_at, last_error
      FROM tppkit_webhook_outbox WHERE delivered_at IS NULL ORDER BY created_at DESC, event_id LIMIT ${limit}`
    return rows.map(
      (r): Delivery => ({
        eventId: String(r.event_id),
        type: String(r.type),
        endpoint: Webhook.displayUrl(String(r.endpoint)),
        attempts: Number(r.attempts),
        nextAt: Number(r.next_at),
        lastError: r.last_error === null || r.last_error === undefined ? undefined : String(r.last_error)
      })
    )
  })
