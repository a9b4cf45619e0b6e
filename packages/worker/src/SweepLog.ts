/**
 * The record of each day's sweep per consent, kept in the fleet's database so that `tppkit worker status` shows
 * what the sweeps did and the webhooks can tell of a failed one: running, retrying (when, and why), complete (the
 * checks planned, and the orders left unplanned while their details are pending) or failed (why, in the words the
 * worker logs and with the failure's typed reason). The worker's
 * lifecycle events write it through {@link listener}; a run of a day's sweep that starts again overwrites the
 * consents it lists again and keeps the ones already complete.
 *
 * @since 0.1.0
 */
import { Clock, Effect, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import * as DatabaseRetry from "./internal/databaseRetry.ts"
import { RecordWarnings, type SkippedRecords, UnreadRecords } from "./internal/sweepJournal.ts"
import type * as Lifecycle from "./Lifecycle.ts"

/** Where a consent's part of a day's sweep stands. */
export type State = "running" | "retrying" | "complete" | "failed"

/** One consent's part of one day's sweep. */
export interface Entry {
  readonly day: string
  readonly consent: string
  /** The run of the day (0: the first; a failed sweep run again is run 1, 2, …). */
  readonly run: number
  readonly state: State
  /** Checks planned for the consent (0 until complete). */
  readonly planned: number
  /** Listings tried by the latest run. */
  readonly tries: number
  /** Why the listing failed or is tried again: the worker's one line. */
  readonly cause: string | undefined
  /** The failure's typed reason (`BudgetExhausted`, `TransportFailure`, `InvalidIban`, …). */
  readonly reason: string | undefined
  /** When the listing is tried again (epoch milliseconds), while `retrying`. */
  readonly retryAt: number | undefined
  readonly startedAt: number
  /** When the consent's part ended (complete or failed), epoch milliseconds. */
  readonly finishedAt: number | undefined
  /** Orders listed but not planned because their details are pending (issue 37), by orderId; absent: none. */
  readonly detailsPending?: ReadonlyArray<string> | undefined
  /** Records of the listing that could not be read (issue 34): how many, the first few with position and reason. */
  readonly unread?: UnreadRecords | undefined
  /** Records of the listing read whole that pay nothing (issue 34): how many, the first few with position and reason. */
  readonly skipped?: SkippedRecords | undefined
  /** The warnings of the listing's reading (issue 34): one per field and reason, with a count; planned as read. */
  readonly warnings?: RecordWarnings | undefined
}

/** The DDL of the sweep record (idempotent). */
export const ddl: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS tppkit_sweep_log (
    day text NOT NULL, consent text NOT NULL, run integer NOT NULL, state text NOT NULL,
    planned integer NOT NULL DEFAULT 0, tries integer NOT NULL DEFAULT 0, cause text, reason text,
    retry_at bigint, started_at bigint NOT NULL, finished_at bigint, PRIMARY KEY (day, consent))`,
  // the orders a consent's listing named whose details are pending (a JSON array of orderIds; issue 37)
  "ALTER TABLE tppkit_sweep_log ADD COLUMN IF NOT EXISTS details_pending text",
  // the records of a consent's listing that could not be read (JSON {count, first: [{position, reason}]}; issue 34)
  "ALTER TABLE tppkit_sweep_log ADD COLUMN IF NOT EXISTS unread text",
  // the records of a consent's listing that pay nothing (JSON {count, first: [{position, reason}]}; issue 34)
  "ALTER TABLE tppkit_sweep_log ADD COLUMN IF NOT EXISTS skipped text",
  // the warnings of a consent's listing's reading (JSON [{field, reason, count, orderIds}]; issue 34)
  "ALTER TABLE tppkit_sweep_log ADD COLUMN IF NOT EXISTS warnings text"
]

/** Reads the record: every day's, or one day's; by day, then consent. */
export const list = (day?: string): Effect.Effect<ReadonlyArray<Entry>, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* day === undefined
      ? sql<Record<string, unknown>>`SELECT * FROM tppkit_sweep_log ORDER BY day, consent`
      : sql<Record<string, unknown>>`SELECT * FROM tppkit_sweep_log WHERE day = ${day} ORDER BY day, consent`
    return rows.map(entryOf)
  })

const optionalText = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : String(v))
const optionalNumber = (v: unknown): number | undefined => (v === null || v === undefined ? undefined : Number(v))

/** A row of the table as an entry. */
export const entryOf = (r: Record<string, unknown>): Entry => ({
  day: String(r.day),
  consent: String(r.consent),
  run: Number(r.run),
  state: String(r.state) as State,
  planned: Number(r.planned ?? 0),
  tries: Number(r.tries ?? 0),
  cause: optionalText(r.cause),
  reason: optionalText(r.reason),
  retryAt: optionalNumber(r.retry_at),
  startedAt: Number(r.started_at),
  finishedAt: optionalNumber(r.finished_at),
  ...(typeof r.details_pending === "string" ? { detailsPending: pendingOf(r.details_pending) } : {}),
  ...(typeof r.unread === "string" ? unreadOf(r.unread) : {}),
  ...(typeof r.skipped === "string" ? skippedOf(r.skipped) : {}),
  ...(typeof r.warnings === "string" ? warningsOf(r.warnings) : {})
})

const decodeWarnings = Schema.decodeUnknownOption(Schema.fromJsonString(RecordWarnings))

/** The `warnings` column as an entry's field (anything but the JSON of {@link RecordWarnings} reads as none). */
const warningsOf = (text: string): { readonly warnings?: RecordWarnings } =>
  Option.match(decodeWarnings(text), {
    onNone: () => ({}),
    onSome: (warnings) => (warnings.length === 0 ? {} : { warnings })
  })

const decodeUnread = Schema.decodeUnknownOption(Schema.fromJsonString(UnreadRecords))

/** The `unread` column as an entry's field (anything but the JSON of {@link UnreadRecords} reads as none). */
const unreadOf = (text: string): { readonly unread?: UnreadRecords } =>
  Option.match(decodeUnread(text), { onNone: () => ({}), onSome: (unread) => ({ unread }) })

/** The `skipped` column as an entry's field (the same JSON as `unread`; anything else reads as none). */
const skippedOf = (text: string): { readonly skipped?: SkippedRecords } =>
  Option.match(decodeUnread(text), { onNone: () => ({}), onSome: (skipped) => ({ skipped }) })

/** The orderIds of a `details_pending` column (a JSON array of texts; anything else reads as none). */
const pendingOf = (text: string): ReadonlyArray<string> => {
  try {
    const parsed: unknown = JSON.parse(text)
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === "string") : []
  } catch {
    return []
  }
}

/** The statements that record one lifecycle event (none for events that are not a sweep's). */
const record = (event: Lifecycle.Event, consents: ReadonlyArray<string>, now: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    switch (event._tag) {
      case "SweepStarted":
        // a consent already complete (carried over from an earlier run) keeps its entry
        for (const consent of event.keys ?? consents) {
          yield* sql`INSERT INTO tppkit_sweep_log (day, consent, run, state, started_at)
            VALUES (${event.day}, ${consent}, ${event.run}, 'running', ${now})
            ON CONFLICT (day, consent) DO UPDATE SET run = EXCLUDED.run, state = 'running', tries = 0,
              cause = NULL, reason = NULL, retry_at = NULL, started_at = EXCLUDED.started_at, finished_at = NULL,
              details_pending = NULL, unread = NULL, skipped = NULL, warnings = NULL
            WHERE tppkit_sweep_log.state <> 'complete'`
        }
        return
      case "ListingRetry":
        yield* sql`UPDATE tppkit_sweep_log SET state = 'retrying', tries = ${event.tries}, cause = ${event.cause},
            reason = ${event.reason ?? null}, retry_at = ${now + event.waitMillis}
          WHERE day = ${event.day} AND consent = ${event.consent} AND state <> 'complete'`
        return
      case "DetailsPending":
        yield* sql`UPDATE tppkit_sweep_log SET details_pending = ${JSON.stringify(event.orders)}
          WHERE day = ${event.day} AND consent = ${event.consent}`
        return
      case "RecordsUnread":
        yield* sql`UPDATE tppkit_sweep_log SET unread = ${JSON.stringify({
          count: event.count,
          first: event.first,
          ...(event.nothingRead === true ? { nothingRead: true } : {})
        })}
          WHERE day = ${event.day} AND consent = ${event.consent}`
        return
      case "RecordsSkipped":
        yield* sql`UPDATE tppkit_sweep_log SET skipped = ${JSON.stringify({ count: event.count, first: event.first })}
          WHERE day = ${event.day} AND consent = ${event.consent}`
        return
      case "RecordsWarned": {
        // one event per field and reason: each replaces its own group, so that an event told again changes nothing
        const rows = yield* sql<{ warnings: string | null }>`SELECT warnings FROM tppkit_sweep_log
          WHERE day = ${event.day} AND consent = ${event.consent}`
        const kept = Option.getOrElse(decodeWarnings(rows[0]?.warnings ?? "[]"), () => [])
        const group = { field: event.field, reason: event.reason, count: event.count, orderIds: event.orderIds }
        const warnings = [...kept.filter((w) => w.field !== group.field || w.reason !== group.reason), group]
        yield* sql`UPDATE tppkit_sweep_log SET warnings = ${JSON.stringify(warnings)}
          WHERE day = ${event.day} AND consent = ${event.consent}`
        return
      }
      case "SweepFinished":
        for (const r of event.results) {
          yield* sql`INSERT INTO tppkit_sweep_log
              (day, consent, run, state, planned, tries, cause, reason, started_at, finished_at)
            VALUES (${event.day}, ${r.consent}, ${event.run}, ${r.cause === undefined ? "complete" : "failed"},
              ${r.planned}, ${r.tries}, ${r.cause ?? null}, ${r.reason ?? null}, ${now}, ${now})
            ON CONFLICT (day, consent) DO UPDATE SET run = EXCLUDED.run, state = EXCLUDED.state,
              planned = EXCLUDED.planned, tries = EXCLUDED.tries, cause = EXCLUDED.cause, reason = EXCLUDED.reason,
              retry_at = NULL, finished_at = EXCLUDED.finished_at
            WHERE tppkit_sweep_log.state <> 'complete' OR tppkit_sweep_log.run = EXCLUDED.run`
        }
        return
      default:
        return
    }
  })

/**
 * A lifecycle listener that keeps the sweep record of the fleet's database (`consents`: the keys the worker sweeps);
 * the database away for a moment (a restart) is waited out for up to a minute, then the entry is skipped (a sweep
 * is never held up by its record).
 */
export const listener = (
  sql: SqlClient.SqlClient,
  consents: ReadonlyArray<string>,
  onError: (error: SqlError) => Effect.Effect<void> = () => Effect.void
): Lifecycle.Listener => ({
  emit: (event) =>
    event._tag !== "SweepStarted" &&
    event._tag !== "ListingRetry" &&
    event._tag !== "SweepFinished" &&
    event._tag !== "DetailsPending" &&
    event._tag !== "RecordsUnread" &&
    event._tag !== "RecordsSkipped" &&
    event._tag !== "RecordsWarned"
      ? Effect.void
      : Effect.flatMap(Clock.currentTimeMillis, (now) =>
          record(event, consents, now).pipe(
            Effect.provideService(SqlClient.SqlClient, sql),
            Effect.retry({ schedule: DatabaseRetry.journalForAMinute }),
            Effect.catch(onError)
          )
        )
})
