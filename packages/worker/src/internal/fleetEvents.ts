/**
 * The fleet's event log in PostgreSQL (`tppkit_fleet_events`): events kept once each by their stable id, 500 a
 * statement, and read back oldest first or as the change feed by day; the database away waited out for a minute.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import * as DatabaseRetry from "./databaseRetry.ts"
import type { EventType } from "./webhookEvents.ts"

/** One event of the fleet as kept: its id, type, day and consent, when it happened and its data. */
export interface Kept {
  readonly id: string
  readonly type: EventType
  readonly day: string
  readonly consent: string | undefined
  readonly occurredAt: number
  readonly data: Record<string, unknown>
}

/** Rows for `sql.insert` (a part of `chunks`: never empty). */
export type Rows = readonly [Record<string, unknown>, ...Array<Record<string, unknown>>]

export const chunks = <A>(items: ReadonlyArray<A>, size = 500): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** Keeps events (an event kept already is left as it is), 500 a statement. */
export const record = (sql: SqlClient.SqlClient, events: ReadonlyArray<Kept>) =>
  Effect.forEach(
    chunks(events),
    (part) =>
      sql`INSERT INTO tppkit_fleet_events ${sql.insert(
        part.map(
          (e): Record<string, unknown> => ({
            event_id: e.id,
            type: e.type,
            day: e.day,
            consent: e.consent ?? null,
            data: JSON.stringify(e.data),
            occurred_at: e.occurredAt
          })
        ) as unknown as Rows
      )} ON CONFLICT (event_id) DO NOTHING`,
    { discard: true }
  )

/** The database away for a moment is waited out for up to a minute; then the watching is given up for the run. */
export const patiently = <A>(effect: Effect.Effect<A, SqlError>, fallback: A): Effect.Effect<A> =>
  effect.pipe(
    Effect.retry({ schedule: DatabaseRetry.journalForAMinute }),
    Effect.catch((e) => Effect.as(Effect.logWarning("tppkit: warnings not recorded", e), fallback))
  )

/** The events kept since `since` (epoch milliseconds), of the given types (all when empty), oldest first. */
export const events = (
  since: number,
  types: ReadonlyArray<string> = []
): Effect.Effect<ReadonlyArray<Kept>, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<Record<string, unknown>>`SELECT event_id, type, day, consent, data, occurred_at
      FROM tppkit_fleet_events WHERE occurred_at >= ${since}
      ${types.length === 0 ? sql`` : sql`AND type IN ${sql.in(types)}`}
      ORDER BY occurred_at, event_id`
    return rows.map(keptOf)
  })

/** The change feed of the days from `since` (`YYYY-MM-DD`) on: every `standing_order.*` event, by day and consent. */
export const changes = (since: string): Effect.Effect<ReadonlyArray<Kept>, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<Record<string, unknown>>`SELECT event_id, type, day, consent, data, occurred_at
      FROM tppkit_fleet_events WHERE type LIKE 'standing_order.%' AND day >= ${since}
      ORDER BY day, consent, occurred_at, event_id`
    return rows.map(keptOf)
  })

export const keptOf = (r: Record<string, unknown>): Kept => {
  let data: Record<string, unknown> = {}
  try {
    data = JSON.parse(String(r.data)) as Record<string, unknown>
  } catch {
    data = {}
  }
  return {
    id: String(r.event_id),
    type: String(r.type) as EventType,
    day: String(r.day),
    consent: r.consent === null || r.consent === undefined ? undefined : String(r.consent),
    occurredAt: Number(r.occurred_at),
    data
  }
}
