/**
 * The engine of `Webhook`: the outbox in PostgreSQL (one row per event and endpoint), filled from what the fleet
 * recorded (checks that answered DECL or failed, failed sweep runs) and emptied by posting each due row to its
 * endpoint, signed, with a lease so that one worker posts it at a time and a dead worker's row is taken over.
 * Written here (no library keeps an outbox in effect's SQL client); the HTTP post is Node's `fetch`.
 */
import { Backoff, LocalDate } from "@tppkit/core"
import { Clock, Duration, Effect, Option, Random, type Redacted, Result, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { endOfDay, isTransient } from "../FundsCheckWorkflow.ts"
import * as Liveness from "../Liveness.ts"
import * as SweepLog from "../SweepLog.ts"
import * as Warnings from "../Warnings.ts"
import { outcomeOf } from "./checkRows.ts"
import { type DbRow, rowOf } from "./checksSql.ts"
import type { Failed, Retry } from "./lifecycleEvents.ts"
import * as Webhook from "./webhookEvents.ts"

export type { Failed, Retry } from "./lifecycleEvents.ts"

/**
 * The conversion of a database made by the version before Standard Webhooks, once (when the outbox has no
 * `failed_at` yet): the column, and each stored body `{"id","type","occurredAt","data"}` rewritten as
 * `{"type","timestamp","data"}` with the data's bytes as they were (the id is the row's `event_id`, sent as
 * `webhook-id`, the same as before).
 */
const fromSignedHeaders = String.raw`DO $migrate$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()
      AND table_name = 'tppkit_webhook_outbox' AND column_name = 'failed_at') THEN
    ALTER TABLE tppkit_webhook_outbox ADD COLUMN failed_at bigint;
    UPDATE tppkit_webhook_outbox
      SET body = regexp_replace(body, '^\{"id":"[^"]*","type":("[^"]*"),"occurredAt":("[^"]*"),"data":',
        '{"type":\1,"timestamp":\2,"data":')
      WHERE body LIKE '{"id":%';
  END IF;
END $migrate$`

/** The DDL of the fleet's endpoints and the outbox (idempotent), and the conversion of an earlier version's. */
export const ddl: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS tppkit_webhook_endpoint (url text PRIMARY KEY, added_at bigint NOT NULL,
    disabled_at bigint, disabled_reason text)`,
  `CREATE TABLE IF NOT EXISTS tppkit_webhook_outbox (
    event_id text NOT NULL, endpoint text NOT NULL, type text NOT NULL, body text NOT NULL,
    occurred_at bigint NOT NULL, created_at bigint NOT NULL, attempts integer NOT NULL DEFAULT 0,
    next_at bigint NOT NULL, lease_until bigint NOT NULL DEFAULT 0, delivered_at bigint, last_error text,
    PRIMARY KEY (event_id, endpoint))`,
  "ALTER TABLE tppkit_webhook_endpoint ADD COLUMN IF NOT EXISTS disabled_at bigint",
  "ALTER TABLE tppkit_webhook_endpoint ADD COLUMN IF NOT EXISTS disabled_reason text",
  fromSignedHeaders,
  "CREATE INDEX IF NOT EXISTS tppkit_webhook_due ON tppkit_webhook_outbox (endpoint, next_at) WHERE delivered_at IS NULL",
  "CREATE INDEX IF NOT EXISTS tppkit_webhook_occurred ON tppkit_webhook_outbox (occurred_at)",
  // the checks an event may come from, which the outbox reads every poll: few, so the reading is cheap
  "CREATE INDEX IF NOT EXISTS tppkit_checks_eventful ON tppkit_checks (checked_at) WHERE outcome IN ('DECL', 'failed')"
]

/**
 * A webhook endpoint of the fleet: where events are posted, and the secret they are signed with (several during a
 * rotation: each signs, and a receiver that knows any of them verifies).
 */
export interface Endpoint {
  readonly url: string
  readonly secret: Redacted.Redacted<string> | ReadonlyArray<Redacted.Redacted<string>>
}

/** How the outbox delivers: its timing, and who is told of each failed delivery. */
export interface Settings {
  /** How often the outbox looks for new events and due deliveries (default 1 s), milliseconds. */
  readonly poll?: number | undefined
  /** When a failed delivery is tried again (default `Webhook.retrySchedule`, Standard Webhooks'), milliseconds. */
  readonly schedule?: Backoff.Backoff | undefined
  /** How long one delivery may take before it counts as failed (default 15 s), milliseconds. */
  readonly timeout?: number | undefined
  /** How long a claimed delivery is held before another worker may take it over (default 60 s), milliseconds. */
  readonly lease?: number | undefined
  /** The fleet's time zone: a check's retries end with its execution date there (default Europe/Bratislava). */
  readonly timeZone?: string | undefined
  /** Told of each delivery that failed and is tried again. */
  readonly onRetry?: ((retry: Retry) => Effect.Effect<void>) | undefined
  /** How often a worker reads whether the fleet still advances, for `fleet.stalled` (default 30 s), milliseconds. */
  readonly liveness?: number | undefined
  /** When the fleet counts as stalled (default `Liveness.defaults`). */
  readonly livenessLimits?: Liveness.Limits | undefined
  /** Told of each delivery given up: its schedule used up, or its endpoint answered 410 Gone (and is disabled). */
  readonly onFailed?: ((failed: Failed) => Effect.Effect<void>) | undefined
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

/** One endpoint of the fleet, as `tppkit worker status` shows it: disabled since when and why, if it is. */
export interface EndpointState {
  /** As `Webhook.displayUrl` shows it. */
  readonly endpoint: string
  readonly addedAt: number
  readonly disabledAt: number | undefined
  readonly disabledReason: string | undefined
  /** Deliveries given up (schedule used up, or the endpoint disabled) that `tppkit webhook replay` can send again. */
  readonly failed: number
}

/** How far back a worker looks for events when it starts (older payments have executed). */
const lookbackMillis = 3 * 24 * 60 * 60 * 1000
/** How far before the previous look the next one starts (clocks of the workers differ a little). */
const overlapMillis = 60_000

/** The last error of a delivery given up because its endpoint is disabled. */
const disabledNote = "the endpoint is disabled (it answered 410 Gone); tppkit webhook enable URL turns it back on"

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

type Claimed = { event_id: string; endpoint: string; type: string; body: string; attempts: number }

/** The outbox of one worker: its endpoints, its timing; `flush` for `--once`. */
export const start = (
  endpoints: ReadonlyArray<{ readonly url: string; readonly keys: ReadonlyArray<Webhook.Key> }>,
  settings: Settings & { readonly replace?: boolean | undefined }
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const poll = settings.poll ?? 1000
    const schedule = settings.schedule ?? Webhook.retrySchedule
    const timeout = settings.timeout ?? 15_000
    const lease = settings.lease ?? 60_000
    const timeZone = settings.timeZone ?? LocalDate.bankTimeZone
    const byUrl = new Map(endpoints.map((e) => [e.url, e.keys]))
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
    const livenessEvery = settings.liveness ?? 30_000
    let livenessAt = Number.NEGATIVE_INFINITY

    /**
     * Puts the events recorded since the last look into the outbox, for every endpoint of the fleet; for one that
     * is disabled, given up at once (so that `tppkit webhook replay` finds what it missed). Each insert holds its
     * endpoint's row (`FOR SHARE`) so that it cannot interleave with a 410 disabling that endpoint: without the
     * lock, a row inserted while the disabling transaction ran was neither given up nor ever posted.
     */
    const collect = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const from = since
      const checkRows = yield* sql<DbRow>`SELECT * FROM tppkit_checks
        WHERE outcome IN ('DECL', 'failed') AND checked_at >= ${new Date(from)}`
      const sweepRows = yield* sql<Record<string, unknown>>`SELECT * FROM tppkit_sweep_log
        WHERE state = 'failed' AND finished_at >= ${from}`
      const events: Array<Webhook.Identified> = []
      for (const r of checkRows) {
        const read = rowOf(r)
        // a row that is not a payment (a hand-edited table) makes no event
        if (Result.isFailure(read)) continue
        const row = read.success
        const retrying = isTransient(outcomeOf(row)) && now < endOfDay(row.executionDate, timeZone)
        const event = Webhook.checkEvent(row, { retrying })
        if (event !== undefined) events.push(event)
      }
      for (const r of sweepRows) {
        const event = Webhook.sweepEvent(SweepLog.entryOf(r))
        if (event !== undefined) events.push(event)
      }
      // the fleet's warnings (payments at risk ahead, the change feed, the consents' lifecycle) and the answers of
      // the checks of payments raised at risk
      const warnings = yield* Effect.provideService(
        Effect.all([Warnings.events(from), Warnings.answeredEvents(from)]),
        SqlClient.SqlClient,
        sql
      )
      for (const kept of warnings.flat()) {
        events.push({
          id: kept.id,
          event: { type: kept.type, timestamp: Webhook.timestampOf(kept.occurredAt), data: kept.data }
        })
      }
      // whether the fleet still advances, every `liveness` (a reading that fails is taken again next time)
      if (now - livenessAt >= livenessEvery) {
        livenessAt = now
        const reading = yield* Effect.option(Effect.provideService(Liveness.read, SqlClient.SqlClient, sql))
        const stalled =
          reading._tag === "Some" ? Webhook.stalledEvent(reading.value, settings.livenessLimits) : undefined
        if (stalled !== undefined) events.push(stalled)
      }
      const known = new Set<string>()
      for (const part of chunks(events, 500)) {
        const rows = yield* sql<{ event_id: string }>`SELECT DISTINCT event_id FROM tppkit_webhook_outbox
          WHERE event_id IN ${sql.in(part.map((e) => e.id))}`
        for (const r of rows) known.add(r.event_id)
      }
      for (const { id, event } of events) {
        if (known.has(id)) continue
        const occurred = Date.parse(event.timestamp)
        // a stall still going on is news to an endpoint added since it began
        const seen = event.type === "fleet.stalled" ? now : occurred
        yield* sql`INSERT INTO tppkit_webhook_outbox
            (event_id, endpoint, type, body, occurred_at, created_at, next_at, failed_at, last_error)
          SELECT ${id}, url, ${event.type}, ${Webhook.fit(event)}, ${occurred}, ${now}, ${now},
            CASE WHEN disabled_at IS NULL THEN NULL ELSE ${now}::bigint END,
            CASE WHEN disabled_at IS NULL THEN NULL ELSE ${disabledNote} END
          FROM tppkit_webhook_endpoint WHERE added_at <= ${seen + overlapMillis}
          FOR SHARE
          ON CONFLICT (event_id, endpoint) DO NOTHING`
      }
      since = now - overlapMillis
    })

    /** One attempt: the HTTP status and `Retry-After` of the answer, or why there was none. */
    const attempt = (row: Claimed, keys: ReadonlyArray<Webhook.Key>) =>
      Effect.gen(function* () {
        const timestamp = Math.floor((yield* Clock.currentTimeMillis) / 1000)
        return yield* Effect.tryPromise({
          try: async (signal) => {
            const response = await fetch(row.endpoint, {
              method: "POST",
              body: row.body,
              headers: {
                "content-type": "application/json",
                "user-agent": "tppkit-webhook",
                [Webhook.idHeader]: row.event_id,
                [Webhook.timestampHeader]: String(timestamp),
                [Webhook.signatureHeader]: Webhook.sign(keys, row.event_id, timestamp, row.body)
              },
              redirect: "manual",
              signal: AbortSignal.any([signal, AbortSignal.timeout(timeout)])
            })
            await response.arrayBuffer().catch(() => undefined)
            return { status: response.status, retryAfter: response.headers.get("retry-after") }
          },
          catch: (e) =>
            `${Webhook.displayUrl(row.endpoint)}: ${
              e instanceof Error && e.name === "TimeoutError"
                ? `no answer within ${timeout / 1000} s`
                : e instanceof Error
                  ? `${e.message}${e.cause instanceof Error ? ` (${e.cause.message})` : ""}`
                  : String(e)
            }`
        })
      })

    /**
     * Posts one claimed delivery and records what came of it: delivered (2xx); the endpoint disabled (410 Gone: this
     * and its other deliveries given up); tried again after the schedule's next delay, or what `Retry-After` asks on
     * 429 and 503; given up when the schedule is used up.
     */
    const post = (row: Claimed) =>
      Effect.gen(function* () {
        const keys = byUrl.get(row.endpoint)
        if (keys === undefined) return
        const answer = yield* Effect.result(attempt(row, keys))
        const now = yield* Clock.currentTimeMillis
        const where = sql`event_id = ${row.event_id} AND endpoint = ${row.endpoint}`
        const status = Result.isSuccess(answer) ? answer.success.status : undefined
        if (status !== undefined && status >= 200 && status < 300) {
          yield* sql`UPDATE tppkit_webhook_outbox SET delivered_at = ${now}, lease_until = 0, last_error = NULL
            WHERE ${where}`
          return
        }
        const cause = Result.isFailure(answer)
          ? answer.failure
          : `HTTP ${status}${status === 410 ? " Gone" : ""} from ${Webhook.displayUrl(row.endpoint)}`
        const told = { eventId: row.event_id, type: row.type, endpoint: Webhook.displayUrl(row.endpoint) }
        if (status === 410) {
          yield* sql.withTransaction(
            Effect.gen(function* () {
              yield* sql`UPDATE tppkit_webhook_endpoint SET disabled_at = ${now}, disabled_reason = ${cause}
                WHERE url = ${row.endpoint} AND disabled_at IS NULL`
              yield* sql`UPDATE tppkit_webhook_outbox SET failed_at = ${now}, lease_until = 0,
                  last_error = CASE WHEN event_id = ${row.event_id} THEN ${cause} ELSE ${disabledNote} END
                WHERE endpoint = ${row.endpoint} AND delivered_at IS NULL AND failed_at IS NULL`
            })
          )
          if (settings.onFailed !== undefined) {
            yield* settings.onFailed({ ...told, attempt: row.attempts, cause, disabled: true })
          }
          return
        }
        const asked =
          status === 429 || status === 503
            ? Webhook.retryAfterMillis(Result.isSuccess(answer) ? answer.success.retryAfter : undefined, now)
            : undefined
        const wait =
          Backoff.nominalMillis(schedule, row.attempts) !== undefined
            ? (asked ?? Webhook.retryDelay(row.attempts, yield* Random.next, schedule))
            : undefined
        if (wait === undefined) {
          yield* sql`UPDATE tppkit_webhook_outbox SET failed_at = ${now}, lease_until = 0, last_error = ${cause}
            WHERE ${where} AND delivered_at IS NULL`
          if (settings.onFailed !== undefined) {
            yield* settings.onFailed({ ...told, attempt: row.attempts, cause, disabled: false })
          }
          return
        }
        yield* sql`UPDATE tppkit_webhook_outbox SET next_at = ${now + wait}, lease_until = 0, last_error = ${cause}
          WHERE ${where} AND delivered_at IS NULL`
        if (settings.onRetry !== undefined) {
          yield* settings.onRetry({ ...told, attempt: row.attempts, waitMillis: wait, cause })
        }
      })

    /** Claims the due deliveries to this worker's enabled endpoints (a lease each) and posts them. */
    const deliver = Effect.gen(function* () {
      if (urls.length === 0) return
      for (;;) {
        const now = yield* Clock.currentTimeMillis
        const claimed = yield* sql<Claimed>`
          UPDATE tppkit_webhook_outbox o SET lease_until = ${now + lease}, attempts = o.attempts + 1
          FROM (SELECT event_id, endpoint FROM tppkit_webhook_outbox
                WHERE delivered_at IS NULL AND failed_at IS NULL AND next_at <= ${now} AND lease_until <= ${now}
                  AND endpoint IN (SELECT url FROM tppkit_webhook_endpoint
                                   WHERE url IN ${sql.in(urls)} AND disabled_at IS NULL)
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
            WHERE delivered_at IS NULL AND failed_at IS NULL AND endpoint IN (SELECT url FROM tppkit_webhook_endpoint
              WHERE url IN ${sql.in(urls)} AND disabled_at IS NULL)`,
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
      FROM tppkit_webhook_outbox WHERE delivered_at IS NULL AND failed_at IS NULL
      ORDER BY created_at DESC, event_id LIMIT ${limit}`
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

/** The fleet's endpoints, each with when and why it was disabled (if it is) and its deliveries given up. */
export const endpointStates = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT e.url, e.added_at, e.disabled_at, e.disabled_reason,
      (SELECT count(*)::int FROM tppkit_webhook_outbox o WHERE o.endpoint = e.url AND o.failed_at IS NOT NULL
         AND o.delivered_at IS NULL) AS failed
    FROM tppkit_webhook_endpoint e ORDER BY e.url`
  return rows.map(
    (r): EndpointState => ({
      endpoint: Webhook.displayUrl(String(r.url)),
      addedAt: Number(r.added_at),
      disabledAt: r.disabled_at === null || r.disabled_at === undefined ? undefined : Number(r.disabled_at),
      disabledReason:
        r.disabled_reason === null || r.disabled_reason === undefined ? undefined : String(r.disabled_reason),
      failed: Number(r.failed)
    })
  )
})

/**
 * The fleet's endpoint that `url` names: the same URL, or the only one shown the same by `displayUrl` (a URL
 * whose query holds a token is named without it); `undefined` when none or several are.
 */
export const findEndpoint = (url: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ url: string; disabled_at: number | null }>`SELECT url, disabled_at
      FROM tppkit_webhook_endpoint`
    const exact = rows.find((r) => r.url === url)
    if (exact !== undefined) return { url: exact.url, disabled: exact.disabled_at !== null }
    const shown = rows.filter((r) => Webhook.displayUrl(r.url) === Webhook.displayUrl(url))
    const only = shown.length === 1 ? shown[0] : undefined
    return only === undefined ? undefined : { url: only.url, disabled: only.disabled_at !== null }
  })

/** Turns a disabled endpoint back on (its new events are delivered again); whether it was disabled. */
export const enable = (url: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ url: string }>`UPDATE tppkit_webhook_endpoint
      SET disabled_at = NULL, disabled_reason = NULL WHERE url = ${url} AND disabled_at IS NOT NULL RETURNING url`
    return rows.length > 0
  })

/** What `replay` sends again: the events since `since` (epoch milliseconds), of one kind, to some endpoints. */
export interface ReplayFilter {
  readonly since: number
  readonly type?: string | undefined
  /** The endpoints (as stored) to send to, or every enabled one. */
  readonly endpoints: ReadonlyArray<string> | "enabled"
}

/**
 * Makes every event of the outbox that happened since `since` (of `type`, if given) due again at once for each of
 * `endpoints`: a new attempt from the start of the schedule, under the same `webhook-id` and with the same body,
 * whether it was delivered, given up or never put into the outbox for that endpoint (added later); a delivery
 * in flight is left to finish. Returns how many deliveries each endpoint has due.
 */
export const replay = (filter: ReplayFilter) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    if (filter.endpoints !== "enabled" && filter.endpoints.length === 0) return new Map<string, number>()
    const now = yield* Clock.currentTimeMillis
    const rows = yield* sql<{ endpoint: string }>`INSERT INTO tppkit_webhook_outbox
        (event_id, endpoint, type, body, occurred_at, created_at, next_at)
      SELECT ev.event_id, ep.url, ev.type, ev.body, ev.occurred_at, ${now}, ${now}
      FROM (SELECT DISTINCT ON (event_id) event_id, type, body, occurred_at FROM tppkit_webhook_outbox
            WHERE occurred_at >= ${filter.since}
              ${filter.type === undefined ? sql`` : sql`AND type = ${filter.type}`}
            ORDER BY event_id, created_at) ev
      CROSS JOIN (SELECT url FROM tppkit_webhook_endpoint WHERE ${
        filter.endpoints === "enabled" ? sql`disabled_at IS NULL` : sql`url IN ${sql.in(filter.endpoints)}`
      }) ep
      ON CONFLICT (event_id, endpoint) DO UPDATE SET delivered_at = NULL, failed_at = NULL, attempts = 0,
        next_at = ${now}, lease_until = 0, last_error = NULL
        WHERE tppkit_webhook_outbox.lease_until <= ${now} OR tppkit_webhook_outbox.delivered_at IS NOT NULL
          OR tppkit_webhook_outbox.failed_at IS NOT NULL
      RETURNING endpoint`
    const targets =
      filter.endpoints === "enabled"
        ? (yield* sql<{ url: string }>`SELECT url FROM tppkit_webhook_endpoint WHERE disabled_at IS NULL`).map(
            (r) => r.url
          )
        : filter.endpoints
    const counts = new Map<string, number>(targets.map((e) => [e, 0]))
    for (const r of rows) counts.set(r.endpoint, (counts.get(r.endpoint) ?? 0) + 1)
    return counts
  })
