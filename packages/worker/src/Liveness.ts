/**
 * Whether the fleet still advances, read from its database: the cluster reads its message queue (a request due and
 * unread for minutes while runners look healthy is a known failure of SQL-backed clusters: the read position has
 * stopped) and the sweeps go on (one a day, recorded in the sweep record). `read` takes the reading, `verdict` says
 * `live`, `stalled` (with why and since when) or `stopped` (no healthy runner: nothing runs, which is no stall).
 * `tppkit worker status` prints the verdict, `Metrics` exports it, and the webhooks raise `fleet.stalled`.
 *
 * @since 0.1.0
 */
import { Clock, Effect } from "effect"
import * as Snowflake from "effect/cluster/Snowflake"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

/** What the fleet's database says of its progress at one moment. */
export interface Reading {
  /** When it was read, epoch milliseconds. */
  readonly at: number
  /** Requests of the cluster's queue that are due and that no runner has read. */
  readonly unread: number
  /** When the oldest of them was sent (epoch milliseconds), if any. */
  readonly oldestUnreadAt: number | undefined
  /** Runners registered healthy with a heartbeat in the last minute. */
  readonly runners: number
  /** When a sweep run last started or finished (epoch milliseconds), if ever. */
  readonly lastSweepAt: number | undefined
}

/** How long the queue may go unread, and the sweeps quiet, before the fleet counts as stalled (milliseconds). */
export interface Limits {
  readonly queue: number
  readonly sweep: number
}

/** Two minutes for the queue; 26 hours for the sweeps (one a day, and a run may take a while). */
export const defaults: Limits = { queue: 120_000, sweep: 26 * 60 * 60 * 1000 }

/** The fleet's state: `live`, `stalled` (why, and since when), or `stopped` (no healthy runner). */
export type Verdict =
  | { readonly state: "live" }
  | { readonly state: "stopped" }
  | {
      readonly state: "stalled"
      /** What stopped: the queue's reading, or the sweeps. */
      readonly what: "queue" | "sweeps"
      /** Since when, epoch milliseconds: the oldest unread request's sending, or the last sweep run's activity. */
      readonly since: number
      /** One sentence, for the status and the event. */
      readonly reason: string
    }

const seconds = (millis: number): number => Math.max(0, Math.round(millis / 1000))

/**
 * The verdict of a reading: `stopped` without a healthy runner; `stalled` when a due request has waited unread
 * longer than `limits.queue`, or no sweep run started or finished for `limits.sweep` (a fleet that swept once);
 * `live` otherwise.
 */
export const verdict = (reading: Reading, limits: Limits = defaults): Verdict => {
  if (reading.runners === 0) return { state: "stopped" }
  if (reading.oldestUnreadAt !== undefined && reading.at - reading.oldestUnreadAt > limits.queue) {
    return {
      state: "stalled",
      what: "queue",
      since: reading.oldestUnreadAt,
      reason: `the cluster has read none of ${reading.unread} due ${reading.unread === 1 ? "request" : "requests"} for ${seconds(reading.at - reading.oldestUnreadAt)} s while ${reading.runners} ${reading.runners === 1 ? "runner looks" : "runners look"} healthy`
    }
  }
  if (reading.lastSweepAt !== undefined && reading.at - reading.lastSweepAt > limits.sweep) {
    return {
      state: "stalled",
      what: "sweeps",
      since: reading.lastSweepAt,
      reason: `no sweep has run for ${Math.floor((reading.at - reading.lastSweepAt) / 3_600_000)} h while ${reading.runners} ${reading.runners === 1 ? "runner looks" : "runners look"} healthy`
    }
  }
  return { state: "live" }
}

const exists = (sql: SqlClient.SqlClient, table: string) =>
  Effect.map(
    sql<{ t: string | null }>`SELECT to_regclass(${table})::text AS t`,
    (rows) => rows[0]?.t !== null && rows[0]?.t !== undefined
  )

/**
 * Reads the fleet's progress: the due requests of the cluster's queue that no runner has read (`cluster_messages`,
 * a request is kind 0; when each was sent is in its snowflake id), the healthy runners (`cluster_runners`) and the
 * sweep record's latest activity. A database without the cluster's tables (no runner ever joined) reads as empty.
 */
export const read: Effect.Effect<Reading, SqlError, SqlClient.SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const at = yield* Clock.currentTimeMillis
  let unread = 0
  let oldestUnreadAt: number | undefined
  if (yield* exists(sql, "cluster_messages")) {
    const [row] = yield* sql<{ n: number; oldest: string | null }>`SELECT count(*)::int AS n, min(id)::text AS oldest
      FROM cluster_messages
      WHERE kind = 0 AND NOT processed AND last_read IS NULL AND (deliver_at IS NULL OR deliver_at <= ${at})`
    unread = Number(row?.n ?? 0)
    oldestUnreadAt =
      row?.oldest === null || row?.oldest === undefined
        ? undefined
        : Snowflake.timestamp(Snowflake.Snowflake(row.oldest))
  }
  let runners = 0
  if (yield* exists(sql, "cluster_runners")) {
    const [row] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM cluster_runners
      WHERE healthy AND last_heartbeat > NOW() - interval '1 minute'`
    runners = Number(row?.n ?? 0)
  }
  let lastSweepAt: number | undefined
  if (yield* exists(sql, "tppkit_sweep_log")) {
    const [row] = yield* sql<{ last: string | null }>`SELECT max(GREATEST(started_at, COALESCE(finished_at, 0)))::text
      AS last FROM tppkit_sweep_log`
    lastSweepAt = row?.last === null || row?.last === undefined ? undefined : Number(row.last)
  }
  return { at, unread, oldestUnreadAt, runners, lastSweepAt }
})
