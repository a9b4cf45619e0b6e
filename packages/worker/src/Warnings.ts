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
import { Clock, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import * as ConsentLifecycle from "./ConsentLifecycle.ts"
import * as AtRiskAhead from "./internal/atRiskAhead.ts"
import * as ConsentExpiry from "./internal/consentExpiry.ts"
import * as FleetEvents from "./internal/fleetEvents.ts"
import { eventId } from "./internal/webhookEvents.ts"
import type { Listener } from "./Lifecycle.ts"
import * as OrderChanges from "./OrderChanges.ts"
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
  "CREATE INDEX IF NOT EXISTS tppkit_at_risk_open ON tppkit_at_risk (execution_date) WHERE cleared_day IS NULL",
  // the forecast ahead reads a part's open payments by account and by order, and its episodes by order: without these
  // each read scanned every open row (82.8 s over 110 reads for 97,060 payments at risk; BENCHMARKS.md, issue 39)
  "CREATE INDEX IF NOT EXISTS tppkit_at_risk_order ON tppkit_at_risk (order_id)",
  "CREATE INDEX IF NOT EXISTS tppkit_at_risk_open_iban ON tppkit_at_risk (iban) WHERE cleared_day IS NULL",
  // what each consent's listing gives the day's forecast ahead, kept until the day's run reads it part by part (a
  // worker held them in memory for the whole day: 100,000 orders took it past 400 MB; BENCHMARKS.md, issue 39)
  `CREATE TABLE IF NOT EXISTS tppkit_ahead_orders (
    day text NOT NULL, consent text NOT NULL, touches text NOT NULL, orders text NOT NULL,
    PRIMARY KEY (day, consent))`
]

/** The consents table's columns of a consent the bank said is no longer valid (run after `Consents.migrate`). */
export const consentsDdl: ReadonlyArray<string> = [
  "ALTER TABLE tppkit_consents ADD COLUMN IF NOT EXISTS expired_at bigint",
  "ALTER TABLE tppkit_consents ADD COLUMN IF NOT EXISTS expired_code text",
  "ALTER TABLE tppkit_consents ADD COLUMN IF NOT EXISTS expired_day text"
]

/** One event of the fleet as kept: its id, type, day and consent, when it happened and its data. */
export interface Kept extends FleetEvents.Kept {}

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

/**
 * How the watcher forecasts: the horizon in working days (default `AtRisk.defaultHorizon`), and about how many orders
 * the forecast ahead reads and forecasts at once (default `AtRisk.ordersPerPart`).
 */
export interface Options {
  readonly horizon?: number | undefined
  readonly ordersPerPart?: number | undefined
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
      const balances = yield* AtRiskAhead.balancesReader(sql)
      const watcher: Watcher = {
        consents: (day, consents) => FleetEvents.patiently(ConsentExpiry.sweepable(sql, day, consents), consents),
        listed: (consent, day, listed) =>
          listed.previous === undefined
            ? Effect.void
            : FleetEvents.patiently(
                Effect.gen(function* () {
                  const previous = listed.previous
                  if (previous === undefined) return
                  const date = LocalDate.parseUnsafe(day)
                  const changes = OrderChanges.compare(previous.orders, listed.orders, date, rule)
                  if (changes.length === 0) return
                  const now = yield* Clock.currentTimeMillis
                  yield* FleetEvents.record(sql, changeEvents(consent.key, day, previous.day, changes, now))
                }),
                undefined
              ),
        expired: (consent, day, failure) => {
          const code = ConsentLifecycle.expiryCode(failure)
          return code === undefined
            ? Effect.void
            : FleetEvents.patiently(
                Effect.asVoid(ConsentExpiry.markExpired(sql, consent.key, day, code, "listing", failure.message)),
                undefined
              )
        },
        forecasts: FleetEvents.patiently(
          Effect.map(balances, (b) => b.balances.length > 0),
          true
        ),
        keepAhead: (consent, day, orders) =>
          FleetEvents.patiently(
            Effect.flatMap(balances, (b) =>
              b.balances.length === 0 ? Effect.void : AtRiskAhead.keep(sql, day, consent, orders, b.accounts)
            ),
            // the database away for a minute: not kept, so the day's run reads the listing's kept pages instead
            undefined
          ),
        unkept: (day, consents) => FleetEvents.patiently(AtRiskAhead.unkept(sql, day, consents), consents),
        ahead: (day, consents) =>
          FleetEvents.patiently(
            Effect.flatMap(balances, (b) => AtRiskAhead.ahead(sql, day, consents, settings, options, b.balances)),
            undefined
          )
      }
      return watcher
    })
  )

/**
 * A lifecycle listener that marks a consent no longer valid when a balance check of it is answered so
 * (`ConsentLifecycle.expiryCode`), raising `consent.expired`; the database away is waited out, then given up.
 */
export const listener = (sql: SqlClient.SqlClient): Listener => ({
  emit: (event) => {
    if (event._tag !== "CheckFinished" || event.outcome.failure === undefined) return Effect.void
    const code = ConsentLifecycle.expiryCode(event.outcome.failure)
    if (code === undefined) return Effect.void
    return FleetEvents.patiently(
      Effect.asVoid(
        ConsentExpiry.markExpired(
          sql,
          event.due.consent,
          LocalDate.format(event.due.sweepDay),
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
export const events: (
  since: number,
  types?: ReadonlyArray<string>
) => Effect.Effect<ReadonlyArray<Kept>, SqlError, SqlClient.SqlClient> = FleetEvents.events

/** The change feed of the days from `since` (`YYYY-MM-DD`) on: every `standing_order.*` event, by day and consent. */
export const changes: (since: string) => Effect.Effect<ReadonlyArray<Kept>, SqlError, SqlClient.SqlClient> =
  FleetEvents.changes

/** A payment at risk not cleared whose payment is on or after `day`, as `tppkit worker status` shows it. */
export interface OpenRisk extends AtRiskAhead.OpenRisk {}

/** The payments at risk not cleared, due on or after `day`, by execution date. */
export const openRisks: (day: string) => Effect.Effect<ReadonlyArray<OpenRisk>, SqlError, SqlClient.SqlClient> =
  AtRiskAhead.openRisks

/** A consent's life as `tppkit worker status` shows it: its last valid day and whether the bank said it is over. */
export interface ConsentState extends ConsentExpiry.ConsentState {}

/** The fleet's consents with their validity and whether the bank said they are no longer valid. */
export const consentStates: Effect.Effect<
  ReadonlyArray<ConsentState>,
  SqlError,
  SqlClient.SqlClient
> = ConsentExpiry.consentStates

/**
 * The events of funds checks answered for payments raised at risk (the latest raising of each payment): DECL
 * confirms it (`payment.at_risk_confirmed`), APPR contradicts it (`payment.at_risk_contradicted`); each refers to
 * the `payment.at_risk` by its id, once (its id is made of that one's). Those answered, or raised, since `since`.
 */
export const answeredEvents: (since: number) => Effect.Effect<ReadonlyArray<Kept>, SqlError, SqlClient.SqlClient> =
  AtRiskAhead.answeredEvents
