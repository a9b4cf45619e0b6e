/**
 * The payments at risk in the fleet's database (`tppkit_at_risk`): the forecast ahead of a sweep raised as
 * `payment.at_risk` once per payment and episode and cleared when the forecast recovers, the open ones as `tppkit worker
 * status` shows them, and the funds checks' answers for them as `payment.at_risk_confirmed` or `_contradicted`.
 */
import { LocalDate } from "@tppkit/core"
import type { Projection } from "@tppkit/schedule"
import { Clock, Effect, Option, Semaphore } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import * as AtRisk from "../AtRisk.ts"
import * as PlanSettings from "../PlanSettings.ts"
import { chunks, type Kept, type Rows, record } from "./fleetEvents.ts"
import type { SweepSettings } from "./sweepTypes.ts"
import { type EventType, eventId } from "./webhookEvents.ts"

/** The fleet's opening balances as the forecast ahead reads them, and their accounts' IBANs. */
export interface Balances {
  readonly balances: ReadonlyArray<PlanSettings.Balance>
  readonly accounts: ReadonlySet<string>
}

const noBalances: Balances = { balances: [], accounts: new Set() }

/**
 * The fleet's stored opening balances, decoded again only when the plan settings were written since (their row's
 * version): a sweep asks for them once per consent, and the settings of 10,000 accounts take about 0.9 MB of text
 * and 50 ms to decode. One refresh at a time; a read that fails is not kept.
 */
export const balancesReader = (sql: SqlClient.SqlClient): Effect.Effect<Effect.Effect<Balances, SqlError>> =>
  Effect.map(Semaphore.make(1), (lock) => {
    let kept: { readonly version: string; readonly balances: Balances } | undefined
    return lock.withPermits(1)(
      Effect.gen(function* () {
        const rows = yield* sql<{ version: string }>`
          SELECT xmin::text || '/' || set_at::text AS version FROM tppkit_plan_settings WHERE id = 1`
        const version = rows[0]?.version
        if (version === undefined) return noBalances
        if (kept?.version === version) return kept.balances
        const plan = yield* Effect.provideService(PlanSettings.stored, SqlClient.SqlClient, sql)
        const balances = Option.isSome(plan) ? (plan.value.settings.balances ?? []) : []
        kept = { version, balances: { balances, accounts: new Set(balances.map((b) => b.iban)) } }
        return kept.balances
      })
    )
  })

/**
 * The forecast ahead of a sweep of `day` from the fleet's balances, part by part of the accounts (`AtRisk.parts`):
 * payments at risk raised, then those that recovered cleared (an open payment is cleared only when no part has it at
 * risk, as one forecast of every account would say).
 */
export const ahead = (
  sql: SqlClient.SqlClient,
  day: string,
  listings: ReadonlyArray<{ readonly consent: string; readonly orders: ReadonlyArray<Projection.ProjectableOrder> }>,
  settings: SweepSettings["Service"],
  options: { readonly horizon?: number | undefined },
  balances: ReadonlyArray<PlanSettings.Balance>
) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const risky = new Set<string>()
    const recovered: Array<OpenRow> = []
    for (const part of AtRisk.parts({ listings, balances })) {
      const done = yield* raise(sql, day, part, settings, options, now)
      for (const key of done.risky) risky.add(key)
      recovered.push(...done.cleared)
    }
    const balanceOf = new Map(balances.map((b) => [b.iban, b]))
    for (const r of recovered) {
      if (risky.has(AtRisk.keyOf({ consent: r.consent, orderId: r.order_id, nominalDate: r.nominal_date }))) continue
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

/** A payment at risk the fleet keeps open, as the forecast ahead reads it. */
interface OpenRow {
  readonly consent: string
  readonly order_id: string
  readonly nominal_date: string
  readonly episode: number
  readonly event_id: string
  readonly iban: string
  readonly execution_date: string
}

/**
 * The forecast of some of the fleet's accounts with every order paying from or into them (`AtRisk.Part`): its
 * payments at risk not open raised; its payments at risk (keys), and the open ones of its accounts it finds recovered.
 */
const raise = (
  sql: SqlClient.SqlClient,
  day: string,
  { listings, balances }: AtRisk.Part,
  settings: SweepSettings["Service"],
  options: { readonly horizon?: number | undefined },
  now: number
) =>
  Effect.gen(function* () {
    const found = AtRisk.find({
      listings,
      balances,
      day: LocalDate.parseUnsafe(day),
      horizon: options.horizon,
      calendar: settings.calendar,
      convention: settings.convention
    })
    // a stored balance that cannot be read is said, its account not forecast (issue 34)
    for (const u of found.unusable ?? []) {
      yield* Effect.logWarning(
        `tppkit: forecast ahead of ${day}: the fleet's stored balance of ${u.iban} cannot be read: ${u.reason}; the account is not forecast`
      )
    }
    // the open payments at risk of the part's accounts (to clear), and those of its payments at risk whatever their
    // account (a payment open already is not raised again), 1,000 accounts or orders a statement
    const openRows = new Map<string, OpenRow>()
    const keep = (rows: ReadonlyArray<OpenRow>) => {
      for (const r of rows) openRows.set(JSON.stringify([r.consent, r.order_id, r.nominal_date, r.episode]), r)
    }
    for (const ibans of chunks([...new Set(balances.map((b) => b.iban))], 1000)) {
      keep(
        yield* sql<OpenRow>`
          SELECT consent, order_id, nominal_date, episode, event_id, iban, execution_date FROM tppkit_at_risk
          WHERE cleared_day IS NULL AND execution_date >= ${day} AND iban IN ${sql.in(ibans)}`
      )
    }
    for (const orderIds of chunks([...new Set(found.risks.map((r) => r.orderId))], 1000)) {
      keep(
        yield* sql<OpenRow>`
          SELECT consent, order_id, nominal_date, episode, event_id, iban, execution_date FROM tppkit_at_risk
          WHERE cleared_day IS NULL AND execution_date >= ${day} AND order_id IN ${sql.in(orderIds)}`
      )
    }
    const open = [...openRows.values()].map((r) => ({
      key: AtRisk.keyOf({ consent: r.consent, orderId: r.order_id, nominalDate: r.nominal_date }),
      executionDate: r.execution_date,
      iban: r.iban,
      row: r
    }))
    const { raised, cleared } = AtRisk.reconcile(found, open, day)
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
    return { risky: found.risks.map(AtRisk.keyOf), cleared: cleared.map((o) => o.row) }
  })

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
