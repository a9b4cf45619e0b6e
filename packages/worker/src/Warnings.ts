/**
 * The fleet warns before money runs short and says what changed: the sweep's watcher (`Sweep.Watch`) kept in the
 * fleet's database. Each sweep raises, once each:
 *
 * - **payments at risk ahead** (`AtRisk`): `payment.at_risk` per payment due on a day the forecast from the stored
 *   balances puts at or below zero or below the threshold, `payment.at_risk_cleared` when the forecast recovers; a
 *   later funds check's answer raises `payment.at_risk_confirmed` (DECL) or `payment.at_risk_contradicted` (APPR);
 * - **the change feed** (`OrderChanges`): `standing_order.created`, `.removed`, `.changed`, `.next_date_moved`
 *   between the last complete listing the fleet keeps for a consent and the day's (a listing read in part is not
 *   compared);
 * - **the consent lifecycle** (`ConsentLifecycle`): `consent.expiring` 14 and 3 days before a consent's last valid
 *   day, `consent.expired` when the bank answers that it is no longer valid, after which no run lists it.
 *
 * Every event is a row of `tppkit_fleet_events` (its stable id, type, day, consent and data), which the webhook
 * outbox posts, `tppkit worker status` shows and `tppkit changes` lists. Nothing here asks the bank anything: the
 * forecast and the comparison read what the sweep listed, or what the fleet kept.
 *
 * @since 0.1.0
 */
import { LocalDate } from "@tppkit/core"
import type { Projection } from "@tppkit/schedule"
import { Clock, Effect, Layer, Option, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import * as AtRisk from "./AtRisk.ts"
import * as ConsentLifecycle from "./ConsentLifecycle.ts"
import { type EventType, eventId } from "./internal/webhookEvents.ts"
import type { Listener } from "./Lifecycle.ts"
import * as OrderChanges from "./OrderChanges.ts"
import * as PlanSettings from "./PlanSettings.ts"
import { SweepSettings, Watch, type Watcher } from "./Sweep.ts"

/** The DDL of the fleet's events and the payments at risk (idempotent). */
export const ddl: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS tppkit_fleet_events (
    event_id text PRIMARY KEY, type text NOT NULL, day text NOT NULL, consent text, data text NOT NULL,
    occurred_at bigint NOT NULL)`,
  "CREATE INDEX IF NOT EXISTS tppkit_fleet_events_occurred ON tppkit_fleet_events (occurred_at)",
  "CREATE INDEX IF NOT EXISTS tppkit_fleet_events_day ON tppkit_fleet_events (type, day)",
  `CREATE TABLE IF NOT EXISTS tppkit_at_risk (
    consent text NOT NULL, order_id text NOT NULL, nominal_date text NOT NULL, episode integer NOT NULL,
    event_id text NOT NULL, iban text NOT NULL, execution_date text NOT NULL, raised_day text NOT NULL,
    raised_at bigint NOT NULL, cleared_day text, balance_date text NOT NULL, data text NOT NULL,
    PRIMARY KEY (consent, order_id, nominal_date, episode))`,
  "CREATE INDEX IF NOT EXISTS tppkit_at_risk_open ON tppkit_at_risk (execution_date) WHERE cleared_day IS NULL"
]

/** The consents table's columns of a consent the bank said is no longer valid (run after `Consents.migrate`). */
export const consentsDdl: ReadonlyArray<string> = [
  "ALTER TABLE tppkit_consents ADD COLUMN IF NOT EXISTS expired_at bigint",
  "ALTER TABLE tppkit_consents ADD COLUMN IF NOT EXISTS expired_code text",
  "ALTER TABLE tppkit_consents ADD COLUMN IF NOT EXISTS expired_day text"
]

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
type Rows = readonly [Record<string, unknown>, ...Array<Record<string, unknown>>]

const chunks = <A>(items: ReadonlyArray<A>, size = 500): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** Keeps events (an event kept already is left as it is), 500 a statement. */
const record = (sql: SqlClient.SqlClient, events: ReadonlyArray<Kept>) =>
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
const patiently = <A>(effect: Effect.Effect<A, SqlError>, fallback: A): Effect.Effect<A> =>
  effect.pipe(
    Effect.retry({ schedule: Schedule.exponential("200 millis").pipe(Schedule.upTo({ duration: "1 minute" })) }),
    Effect.catch((e) => Effect.as(Effect.logWarning("tppkit: warnings not recorded", e), fallback))
  )

/**
 * Marks a consent no longer valid (once) and raises `consent.expired`; whether it was news. A consent given only in
 * the settings (not in `tppkit_consents`) gets its row there, with its end, so that it is treated as any other.
 */
const markExpired = (
  sql: SqlClient.SqlClient,
  consent: string,
  day: string,
  code: string,
  via: "listing" | "check",
  message: string
) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const rows = yield* sql<{ consent_key: string }>`INSERT INTO tppkit_consents
        (consent_key, added_at, expired_at, expired_code, expired_day)
      VALUES (${consent}, ${now}, ${now}, ${code}, ${day})
      ON CONFLICT (consent_key) DO UPDATE
        SET expired_at = EXCLUDED.expired_at, expired_code = EXCLUDED.expired_code, expired_day = EXCLUDED.expired_day
        WHERE tppkit_consents.expired_at IS NULL
      RETURNING consent_key`
    if (rows.length === 0) return false
    yield* record(sql, [
      {
        id: eventId("consent.expired", [consent, String(now)]),
        type: "consent.expired",
        day,
        consent,
        occurredAt: now,
        data: {
          consent,
          day,
          code,
          via,
          message,
          next: "the fleet lists it no more and spends no budget on it; add a new consent (tppkit consents add) to sweep the account again"
        }
      }
    ])
    return true
  })

/** The events of the changes between a consent's last complete listing and the day's. */
export const changeEvents = (
  consent: string,
  day: string,
  previousDay: string,
  changes: ReadonlyArray<OrderChanges.Change>,
  occurredAt: number
): Array<Kept> =>
  changes.map((c) => {
    const type = OrderChanges.eventType[c._tag]
    return {
      id: eventId(type, [consent, c.order.orderId, day]),
      type,
      day,
      consent,
      occurredAt,
      data: { consent, day, previousDay, ...OrderChanges.data(c) }
    }
  })

/** How the watcher forecasts: the horizon in working days (default `AtRisk.defaultHorizon`). */
export interface Options {
  readonly horizon?: number | undefined
}

/**
 * The sweep's watcher over the fleet's database (the `SqlClient` and `Sweep.SweepSettings` of the layer's context):
 * the change feed, the payments at risk ahead and the consent lifecycle, each kept as events.
 */
export const layerSql = (options: Options = {}): Layer.Layer<never, never, SqlClient.SqlClient | SweepSettings> =>
  Layer.effect(
    Watch,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const settings = yield* SweepSettings
      const rule = { calendar: settings.calendar, convention: settings.convention }
      const watcher: Watcher = {
        consents: (day, consents) =>
          patiently(
            Effect.gen(function* () {
              const now = yield* Clock.currentTimeMillis
              const rows = yield* sql<{ consent_key: string; valid_until: string | null; expired_at: unknown }>`
                SELECT consent_key, valid_until, expired_at FROM tppkit_consents`
              const byKey = new Map(rows.map((r) => [r.consent_key, r]))
              const notices: Array<Kept> = []
              const kept = consents.filter((c) => {
                const row = byKey.get(c.key)
                if (row !== undefined && row.expired_at !== null && row.expired_at !== undefined) return false
                // the run's own end of the consent (its profile's validity counted in), else the table's
                const validUntil = c.validUntil ?? row?.valid_until ?? undefined
                const notice = ConsentLifecycle.expiring({ key: c.key, validUntil }, day)
                if (notice !== undefined) {
                  notices.push({
                    id: eventId("consent.expiring", [c.key, notice.validUntil, String(notice.notice)]),
                    type: "consent.expiring",
                    day,
                    consent: c.key,
                    occurredAt: now,
                    data: { ...notice, day }
                  })
                }
                return true
              })
              yield* record(sql, notices)
              return kept
            }),
            consents
          ),
        listed: (consent, day, listed) =>
          listed.previous === undefined
            ? Effect.void
            : patiently(
                Effect.gen(function* () {
                  const previous = listed.previous
                  if (previous === undefined) return
                  const date = LocalDate.parseUnsafe(day)
                  const changes = OrderChanges.compare(previous.orders, listed.orders, date, rule)
                  if (changes.length === 0) return
                  const now = yield* Clock.currentTimeMillis
                  yield* record(sql, changeEvents(consent.key, day, previous.day, changes, now))
                }),
                undefined
              ),
        expired: (consent, day, failure) => {
          const code = ConsentLifecycle.expiryCode(failure)
          return code === undefined
            ? Effect.void
            : patiently(Effect.asVoid(markExpired(sql, consent.key, day, code, "listing", failure.message)), undefined)
        },
        ahead: (day, listings) => patiently(ahead(sql, day, listings, settings, options), undefined)
      }
      return watcher
    })
  )

/** The forecast ahead of a sweep of `day`: payments at risk raised, those that recovered cleared. */
const ahead = (
  sql: SqlClient.SqlClient,
  day: string,
  listings: ReadonlyArray<{ readonly consent: string; readonly orders: ReadonlyArray<Projection.ProjectableOrder> }>,
  settings: SweepSettings["Service"],
  options: Options
) =>
  Effect.gen(function* () {
    const plan = yield* Effect.provideService(PlanSettings.stored, SqlClient.SqlClient, sql)
    const balances = Option.isSome(plan) ? (plan.value.settings.balances ?? []) : []
    if (balances.length === 0) return
    const found = AtRisk.find({
      listings,
      balances,
      day: LocalDate.parseUnsafe(day),
      horizon: options.horizon,
      calendar: settings.calendar,
      convention: settings.convention
    })
    const openRows = yield* sql<{
      consent: string
      order_id: string
      nominal_date: string
      episode: number
      event_id: string
      iban: string
      execution_date: string
      data: string
    }>`SELECT consent, order_id, nominal_date, episode, event_id, iban, execution_date, data FROM tppkit_at_risk
      WHERE cleared_day IS NULL AND execution_date >= ${day}`
    const open = openRows.map((r) => ({
      key: AtRisk.keyOf({ consent: r.consent, orderId: r.order_id, nominalDate: r.nominal_date }),
      executionDate: r.execution_date,
      iban: r.iban,
      row: r
    }))
    const { raised, cleared } = AtRisk.reconcile(found, open, day)
    const now = yield* Clock.currentTimeMillis
    // each payment's latest episode (a payment at risk again is a new one), read 1,000 orders a statement
    const episodes = new Map<string, number>()
    for (const part of chunks([...new Set(raised.map((r) => r.orderId))], 1000)) {
      const rows = yield* sql<{ consent: string; order_id: string; nominal_date: string; episode: number }>`
        SELECT consent, order_id, nominal_date, max(episode) AS episode FROM tppkit_at_risk
        WHERE order_id IN ${sql.in(part)} GROUP BY consent, order_id, nominal_date`
      for (const r of rows) {
        episodes.set(
          AtRisk.keyOf({ consent: r.consent, orderId: r.order_id, nominalDate: r.nominal_date }),
          Number(r.episode)
        )
      }
    }
    const rows = raised.map((risk) => {
      const episode = (episodes.get(AtRisk.keyOf(risk)) ?? 0) + 1
      const id = eventId("payment.at_risk", [risk.consent, risk.orderId, risk.nominalDate, String(episode)])
      return { risk, episode, id, data: { ...risk, sweepDay: day, episode } }
    })
    for (const part of chunks(rows)) {
      yield* sql.withTransaction(
        Effect.gen(function* () {
          yield* sql`INSERT INTO tppkit_at_risk ${sql.insert(
            part.map(
              ({ risk, episode, id, data }): Record<string, unknown> => ({
                consent: risk.consent,
                order_id: risk.orderId,
                nominal_date: risk.nominalDate,
                episode,
                event_id: id,
                iban: risk.iban,
                execution_date: risk.executionDate,
                raised_day: day,
                raised_at: now,
                balance_date: risk.balanceDate,
                data: JSON.stringify(data)
              })
            ) as unknown as Rows
          )} ON CONFLICT DO NOTHING`
          yield* record(
            sql,
            part.map(({ risk, id, data }) => ({
              id,
              type: "payment.at_risk" as const,
              day,
              consent: risk.consent,
              occurredAt: now,
              data
            }))
          )
        })
      )
    }
    const balanceOf = new Map(balances.map((b) => [b.iban, b]))
    for (const o of cleared) {
      const r = o.row
      const balance = balanceOf.get(r.iban)
      yield* sql.withTransaction(
        Effect.gen(function* () {
          yield* sql`UPDATE tppkit_at_risk SET cleared_day = ${day} WHERE consent = ${r.consent}
            AND order_id = ${r.order_id} AND nominal_date = ${r.nominal_date} AND episode = ${r.episode}`
          yield* record(sql, [
            {
              id: eventId("payment.at_risk_cleared", [r.event_id]),
              type: "payment.at_risk_cleared",
              day,
              consent: r.consent,
              occurredAt: now,
              data: {
                atRiskId: r.event_id,
                consent: r.consent,
                orderId: r.order_id,
                nominalDate: r.nominal_date,
                executionDate: r.execution_date,
                iban: r.iban,
                sweepDay: day,
                ...(balance === undefined
                  ? {}
                  : { balanceDate: balance.date, balanceAgeDays: AtRisk.ageDays(balance.date, day) })
              }
            }
          ])
        })
      )
    }
  })

/**
 * A lifecycle listener that marks a consent no longer valid when a balance check of it is answered so
 * (`ConsentLifecycle.expiryCode`), raising `consent.expired`; the database away is waited out, then given up.
 */
export const listener = (sql: SqlClient.SqlClient): Listener => ({
  emit: (event) => {
    if (event._tag !== "CheckFinished" || event.outcome.failure === undefined) return Effect.void
    const code = ConsentLifecycle.expiryCode(event.outcome.failure)
    if (code === undefined) return Effect.void
    return patiently(
      Effect.asVoid(
        markExpired(
          sql,
          event.due.consent,
          event.due.sweepDay,
          code,
          "check",
          (event.outcome.failure as { readonly message?: string }).message ?? code
        )
      ),
      undefined
    )
  }
})

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

const keptOf = (r: Record<string, unknown>): Kept => {
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

/** A payment at risk not cleared whose payment is on or after `day`, as `tppkit worker status` shows it. */
export interface OpenRisk {
  readonly id: string
  readonly risk: AtRisk.Risk
  readonly raisedDay: string
  /** The funds check's answer for the payment, once there is one. */
  readonly answer: string | undefined
}

/** The payments at risk not cleared, due on or after `day`, by execution date. */
export const openRisks = (day: string): Effect.Effect<ReadonlyArray<OpenRisk>, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ event_id: string; data: string; raised_day: string; outcome: string | null }>`
      SELECT r.event_id, r.data, r.raised_day, c.outcome FROM tppkit_at_risk r
      LEFT JOIN tppkit_checks c ON c.consent = r.consent AND c.order_id = r.order_id
        AND c.nominal_date = r.nominal_date
      WHERE r.cleared_day IS NULL AND r.execution_date >= ${day}
      ORDER BY r.execution_date, r.order_id`
    return rows.map((r) => ({
      id: r.event_id,
      risk: JSON.parse(r.data) as AtRisk.Risk,
      raisedDay: r.raised_day,
      answer: r.outcome === "APPR" || r.outcome === "DECL" ? r.outcome : undefined
    }))
  })

/** A consent's life as `tppkit worker status` shows it: its last valid day and whether the bank said it is over. */
export interface ConsentState {
  readonly key: string
  readonly validUntil: string | undefined
  readonly expired: { readonly day: string; readonly code: string } | undefined
}

/** The fleet's consents with their validity and whether the bank said they are no longer valid. */
export const consentStates: Effect.Effect<ReadonlyArray<ConsentState>, SqlError, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{
      consent_key: string
      valid_until: string | null
      expired_day: string | null
      expired_code: string | null
    }>`SELECT consent_key, valid_until, expired_day, expired_code FROM tppkit_consents ORDER BY consent_key`
    return rows.map((r) => ({
      key: r.consent_key,
      validUntil: r.valid_until ?? undefined,
      expired: r.expired_day === null ? undefined : { day: r.expired_day, code: r.expired_code ?? "" }
    }))
  }
)

/**
 * The events of funds checks answered for payments raised at risk (the latest raising of each payment): DECL
 * confirms it (`payment.at_risk_confirmed`), APPR contradicts it (`payment.at_risk_contradicted`); each refers to
 * the `payment.at_risk` by its id, once (its id is made of that one's). Those answered, or raised, since `since`.
 */
export const answeredEvents = (since: number): Effect.Effect<ReadonlyArray<Kept>, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<Record<string, unknown>>`SELECT r.event_id, r.consent, r.order_id, r.nominal_date,
        r.execution_date, r.iban, r.raised_day, r.balance_date, c.outcome, c.checked_at, c.request_id, c.sweep_day
      FROM (SELECT DISTINCT ON (consent, order_id, nominal_date) * FROM tppkit_at_risk
            ORDER BY consent, order_id, nominal_date, episode DESC) r
      JOIN tppkit_checks c ON c.consent = r.consent AND c.order_id = r.order_id AND c.nominal_date = r.nominal_date
      WHERE c.outcome IN ('APPR', 'DECL')
        AND (c.checked_at >= ${new Date(since)} OR r.raised_at >= ${since})`
    return rows.map((r): Kept => {
      const confirmed = r.outcome === "DECL"
      const type: EventType = confirmed ? "payment.at_risk_confirmed" : "payment.at_risk_contradicted"
      const checkedAt = r.checked_at instanceof Date ? r.checked_at.getTime() : Date.parse(String(r.checked_at))
      return {
        id: eventId(type, [String(r.event_id)]),
        type,
        day: String(r.sweep_day),
        consent: String(r.consent),
        occurredAt: Number.isNaN(checkedAt) ? 0 : checkedAt,
        data: {
          atRiskId: String(r.event_id),
          consent: String(r.consent),
          orderId: String(r.order_id),
          nominalDate: String(r.nominal_date),
          executionDate: String(r.execution_date),
          iban: String(r.iban),
          answer: String(r.outcome),
          requestId: r.request_id === null || r.request_id === undefined ? null : String(r.request_id),
          raisedDay: String(r.raised_day),
          balanceDate: String(r.balance_date),
          balanceAgeDays: AtRisk.ageDays(String(r.balance_date), String(r.sweep_day))
        }
      }
    })
  })
