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
import * as AheadOrders from "./aheadOrders.ts"
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
 * Keeps what of a consent's listing of `day` the day's forecast ahead reads in `tppkit_ahead_orders`: the orders paying
 * from or into one of `accounts` (those with a balance), each written as the forecast reads it (what
 * `AtRisk.forecastOrders` keeps), with how many of them touch each account; a listing kept again replaces it. A consent
 * whose orders touch none of them gets its row too, so that the day's run knows it was kept.
 */
export const keep = (
  sql: SqlClient.SqlClient,
  day: string,
  consent: string,
  orders: ReadonlyArray<Projection.ProjectableOrder>,
  accounts: ReadonlySet<string>
): Effect.Effect<void, SqlError> => {
  // the orders paying from or into an account with a balance, written as the forecast reads them
  const reduced = orders.filter(
    (o) => accounts.has(o.debtor.iban) || (o.creditor.iban !== undefined && accounts.has(o.creditor.iban))
  )
  const touches = JSON.stringify(AheadOrders.touches(reduced, accounts))
  return sql`INSERT INTO tppkit_ahead_orders (day, consent, touches, orders)
    VALUES (${day}, ${consent}, ${touches}, ${AheadOrders.encode(reduced)})
    ON CONFLICT (day, consent) DO UPDATE SET touches = EXCLUDED.touches, orders = EXCLUDED.orders`.pipe(Effect.asVoid)
}

/** The consents among `consents` whose orders of `day` are not kept for the forecast ahead ({@link keep}). */
export const unkept = (
  sql: SqlClient.SqlClient,
  day: string,
  consents: ReadonlyArray<string>
): Effect.Effect<Array<string>, SqlError> =>
  Effect.map(sql<{ consent: string }>`SELECT consent FROM tppkit_ahead_orders WHERE day = ${day}`, (rows) => {
    const kept = new Set(rows.map((r) => r.consent))
    return consents.filter((c) => !kept.has(c))
  })

/**
 * The forecast ahead of a sweep of `day` from the fleet's balances and the orders kept for the run's `consents` (in
 * the run's order; {@link keep}), read from the database a group of accounts at a time (about `ordersPerPart` orders,
 * default `AtRisk.ordersPerPart`, sized by the kept counts without reading the orders), each group forecast in
 * `AtRisk.parts`: the process never holds the day's orders whole. Payments at risk raised, then those that recovered
 * cleared (an open payment is cleared only when no part has it at risk, as one forecast of every account would say).
 * An orderId the kept orders of two consents give is the first consent's in the run's order, as `AtRisk.find` of the
 * whole reads it. The orders kept for earlier days are dropped.
 */
export const ahead = (
  sql: SqlClient.SqlClient,
  day: string,
  consents: ReadonlyArray<string>,
  settings: SweepSettings["Service"],
  options: { readonly horizon?: number | undefined; readonly ordersPerPart?: number | undefined },
  balances: ReadonlyArray<PlanSettings.Balance>
) =>
  Effect.gen(function* () {
    const size = options.ordersPerPart ?? AtRisk.ordersPerPart
    yield* sql`DELETE FROM tppkit_ahead_orders WHERE day < ${day}`
    if (balances.length === 0 || consents.length === 0) return
    const now = yield* Clock.currentTimeMillis
    const position = new Map<string, number>()
    for (const c of consents) if (!position.has(c)) position.set(c, position.size)
    // which consents' orders touch each account, and how many orders
    const touching = new Map<string, { readonly consents: Array<string>; orders: number }>()
    for (const b of balances) touching.set(b.iban, { consents: [], orders: 0 })
    const index = yield* sql<{ consent: string; touches: string }>`
      SELECT consent, touches FROM tppkit_ahead_orders WHERE day = ${day}`
    for (const row of index) {
      if (!position.has(row.consent)) continue
      for (const [iban, n] of JSON.parse(row.touches) as ReadonlyArray<[string, number]>) {
        const t = touching.get(iban)
        if (t === undefined) continue
        t.consents.push(row.consent)
        t.orders += n
      }
    }
    // an orderId several consents' orders give: the first consent's in the run's order (usually none)
    const owner = new Map<string, string>()
    const repeated = yield* sql<{ order_id: string; consents: string }>`
      SELECT e.value->>0 AS order_id, json_agg(consent)::text AS consents
      FROM tppkit_ahead_orders, json_array_elements(orders::json) AS e
      WHERE day = ${day} GROUP BY 1 HAVING count(*) > 1`
    for (const r of repeated) {
      let first: string | undefined
      for (const c of JSON.parse(r.consents) as ReadonlyArray<string>) {
        const p = position.get(c)
        if (p !== undefined && (first === undefined || p < (position.get(first) ?? 0))) first = c
      }
      if (first !== undefined) owner.set(r.order_id, first)
    }
    // the payments at risk in a part whose open row another part finds recovered (their order's debtor changed)
    const risky = new Set<string>()
    const recovered: Array<OpenRow> = []
    for (const group of accountGroups(balances, (iban) => touching.get(iban)?.orders ?? 0, size)) {
      const accounts = new Set(group.map((b) => b.iban))
      const of = new Set<string>()
      for (const iban of accounts) for (const c of touching.get(iban)?.consents ?? []) of.add(c)
      const listings: Array<{ consent: string; orders: Array<Projection.ProjectableOrder> }> = []
      for (const keys of chunks([...of], 1000)) {
        const rows = yield* sql<{ consent: string; orders: string }>`
          SELECT consent, orders FROM tppkit_ahead_orders
          JOIN json_array_elements_text(${JSON.stringify(keys)}::json) AS k(consent) USING (consent)
          WHERE day = ${day}`
        for (const row of rows) {
          const orders = AheadOrders.decode(
            row.orders,
            (debtor, creditor) => accounts.has(debtor) || (creditor !== undefined && accounts.has(creditor))
          ).filter((o) => (owner.get(o.orderId) ?? row.consent) === row.consent)
          listings.push({ consent: row.consent, orders })
        }
      }
      listings.sort((a, b) => (position.get(a.consent) ?? 0) - (position.get(b.consent) ?? 0))
      for (const part of AtRisk.parts({ listings, balances: group }, size)) {
        const done = yield* raise(sql, day, part, settings, options, now)
        for (const key of done.risky) risky.add(key)
        recovered.push(...done.cleared)
      }
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

/**
 * The accounts with a balance in groups (pure): in the balances' order, an account's balances together, gathered until
 * a group's accounts have `size` orders by `orders` (an order between two of a group's accounts counted twice).
 */
export const accountGroups = (
  balances: ReadonlyArray<PlanSettings.Balance>,
  orders: (iban: string) => number,
  size: number
): Array<Array<PlanSettings.Balance>> => {
  const byAccount = new Map<string, Array<PlanSettings.Balance>>()
  for (const b of balances) {
    const own = byAccount.get(b.iban)
    if (own === undefined) byAccount.set(b.iban, [b])
    else own.push(b)
  }
  const out: Array<Array<PlanSettings.Balance>> = []
  let group: Array<PlanSettings.Balance> = []
  let count = 0
  for (const [iban, own] of byAccount) {
    group.push(...own)
    count += orders(iban)
    if (count >= size) {
      out.push(group)
      group = []
      count = 0
    }
  }
  if (group.length > 0) out.push(group)
  return out
}

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
 * payments at risk not open raised; the keys of those at risk whose open row stands on another account (another part
 * finds that row recovered), and the open ones of its accounts it finds recovered.
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
          JOIN json_array_elements_text(${JSON.stringify(ibans)}::json) AS k(iban) USING (iban)
          WHERE cleared_day IS NULL AND execution_date >= ${day}`
      )
    }
    for (const orderIds of chunks([...new Set(found.risks.map((r) => r.orderId))], 1000)) {
      keep(
        yield* sql<OpenRow>`
          SELECT consent, order_id, nominal_date, episode, event_id, iban, execution_date FROM tppkit_at_risk
          JOIN json_array_elements_text(${JSON.stringify(orderIds)}::json) AS k(order_id) USING (order_id)
          WHERE cleared_day IS NULL AND execution_date >= ${day}`
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
        JOIN json_array_elements_text(${JSON.stringify(part)}::json) AS k(order_id) USING (order_id)
        GROUP BY consent, order_id, nominal_date`
      for (const r of rows) {
        episodes.set(
          AtRisk.keyOf({ consent: r.consent, orderId: r.order_id, nominalDate: r.nominal_date }),
          Number(r.episode)
        )
      }
    }
    // each statement's rows made when it is sent: a part's thousands of events are never held written out at once
    for (const risks of chunks(raised)) {
      const part = risks.map((risk) => {
        const episode = (episodes.get(AtRisk.keyOf(risk)) ?? 0) + 1
        const id = eventId("payment.at_risk", [risk.consent, risk.orderId, risk.nominalDate, String(episode)])
        return { risk, episode, id, data: { ...risk, sweepDay: day, episode } }
      })
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
    // a payment at risk here whose open row stands on another account (its order's debtor changed) is one another
    // part would clear: only those keys are returned, not every payment at risk of the day (97,060 in the bench)
    const openIbans = new Map<string, Set<string>>()
    for (const o of open) openIbans.set(o.key, (openIbans.get(o.key) ?? new Set()).add(o.iban))
    const elsewhere = found.risks
      .map((r) => ({ key: AtRisk.keyOf(r), iban: r.iban }))
      .filter(({ key, iban }) => [...(openIbans.get(key) ?? [])].some((other) => other !== iban))
    return { risky: elsewhere.map((r) => r.key), cleared: cleared.map((o) => o.row) }
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
