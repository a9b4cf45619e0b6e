/**
 * Payments at risk ahead: each sweep forecasts every account with a stored opening balance (`tppkit worker
 * --balances`) over a horizon of working days from the day's listings, with schedule's `Forecast` (the one engine),
 * and names each payment due on a day the forecast puts at or below zero or below the account's threshold: the
 * account, the day, the lowest point, the payments due that day and how old the balance is. Pure; what the fleet
 * raises of it (once per payment, not once per sweep) is {@link reconcile}'s.
 *
 * @since 0.1.0
 */
import { type BusinessDayConvention, type Calendar, LocalDate, Money } from "@tppkit/core"
import { Coverage, Forecast, type Projection } from "@tppkit/schedule"
import { BigDecimal, Option, Result } from "effect"
import type { Balance } from "./PlanSettings.ts"

/**
 * How many of a day's payments each payment at risk names: a day of thousands would make each of its events that
 * long (the count says how many there are).
 */
export const dueThatDayShown = 20

/** The default horizon of the forecast: working days after the sweep day (`--horizon`). */
export const defaultHorizon = 10

/** The default age after which `tppkit worker status` flags a balance (`--balance-max-age`), days. */
export const defaultBalanceMaxAge = 3

/** A payment the forecast puts at risk, with the day it stands on. */
export interface Risk {
  /** The consent whose listing has the order (the first that lists it). */
  readonly consent: string
  readonly orderId: string
  readonly nominalDate: string
  readonly executionDate: string
  readonly amount: string
  readonly currency: string
  readonly iban: string
  /** The day's closing balance, at or below zero (`zero`) or below the threshold (`threshold`). */
  readonly closing: string
  readonly reason: "zero" | "threshold"
  readonly threshold: string | null
  /** What brings the day's closing up to the line. */
  readonly shortfall: string
  /**
   * The payments out that day together (each at risk with this one): the first {@link dueThatDayShown} of them;
   * `dueThatDayCount` says how many in all.
   */
  readonly dueThatDay: ReadonlyArray<{
    readonly orderId: string
    readonly nominalDate: string
    readonly amount: string
  }>
  readonly dueThatDayCount: number
  readonly totalThatDay: string
  /** The lowest closing balance over the horizon, and its first day. */
  readonly lowest: { readonly amount: string; readonly date: string }
  /** The stored balance the forecast stands on: its date and its age on the sweep day (calendar days). */
  readonly balanceDate: string
  readonly balanceAgeDays: number
}

/** The key of a payment: its consent, orderId and nominal date (a check's key). */
export const keyOf = (r: {
  readonly consent: string
  readonly orderId: string
  readonly nominalDate: string
}): string => JSON.stringify([r.consent, r.orderId, r.nominalDate])

/** The age of a balance on `day`, calendar days (0 for a balance of the day or later). */
export const ageDays = (balanceDate: string, day: string): number => {
  const b = LocalDate.parse(balanceDate)
  const d = LocalDate.parse(day)
  return Result.isSuccess(b) && Result.isSuccess(d) ? Math.max(0, d.success - b.success) : 0
}

/**
 * The balances older than `maxAge` days (`tppkit worker status --balance-max-age`, default
 * {@link defaultBalanceMaxAge}): the forecast ahead stands on them, in the order given.
 */
export const staleBalances = <A extends { readonly ageDays: number }>(
  balances: ReadonlyArray<A>,
  maxAge: number
): Array<A> => balances.filter((b) => b.ageDays > maxAge)

/**
 * The age on `day` of the balance a payment at risk stands on, calendar days (negative for a balance dated after the
 * day); its age when raised when either date cannot be read.
 */
export const balanceAgeOn = (risk: Pick<Risk, "balanceDate" | "balanceAgeDays">, day: string): number => {
  const b = LocalDate.parse(risk.balanceDate)
  const d = LocalDate.parse(day)
  return Result.isSuccess(b) && Result.isSuccess(d) ? d.success - b.success : risk.balanceAgeDays
}

/**
 * A stored balance the forecast cannot read: its account, and why in words naming the field and the value as stored;
 * the account is not forecast (never a balance guessed for it).
 */
export interface Unusable {
  readonly iban: string
  readonly reason: string
}

/** Why a stored balance cannot be read (its amount, date or threshold as stored), or `undefined` when it can. */
const problemOf = (b: Balance): string | undefined => {
  if (Option.isNone(BigDecimal.fromString(b.amount)))
    return `amount ${JSON.stringify(b.amount)} is not a decimal number`
  const date = LocalDate.parse(b.date)
  if (Result.isFailure(date)) return `date ${JSON.stringify(b.date)}: ${date.failure}`
  if (b.threshold !== undefined && Option.isNone(BigDecimal.fromString(b.threshold))) {
    return `threshold ${JSON.stringify(b.threshold)} is not a decimal number`
  }
  return undefined
}

/**
 * The stored balances the forecast cannot read ({@link balancesOf} leaves them out), each with its account and why:
 * said by the forecast ahead, never dropped without a word (issue 34).
 */
export const unusableBalances = (stored: ReadonlyArray<Balance>): Array<Unusable> =>
  stored.flatMap((b) => {
    const reason = problemOf(b)
    return reason === undefined ? [] : [{ iban: b.iban, reason }]
  })

/**
 * The stored balances as the forecast reads them; a balance whose figures are not exact decimals or whose date is not
 * one is left out (and named by {@link unusableBalances}).
 */
export const balancesOf = (stored: ReadonlyArray<Balance>): Array<Forecast.Balance> =>
  stored.flatMap((b) => {
    const amount = BigDecimal.fromString(b.amount)
    const date = LocalDate.parse(b.date)
    const threshold = b.threshold === undefined ? Option.none() : BigDecimal.fromString(b.threshold)
    if (Option.isNone(amount) || Result.isFailure(date) || (b.threshold !== undefined && Option.isNone(threshold))) {
      return []
    }
    return [
      {
        iban: b.iban,
        currency: b.currency,
        amount: amount.value,
        date: date.success,
        ...(Option.isSome(threshold) ? { threshold: threshold.value } : {})
      }
    ]
  })

/**
 * A text of its own: a record's texts are slices of the page the bank sent, which a slice keeps whole (a page of
 * 100 records for one orderId).
 */
const own = (text: string): string => JSON.parse(JSON.stringify(text)) as string

/**
 * The orders of a listing a forecast of `accounts` reads (those paying from or into one of them), each reduced to
 * what the forecast reads (orderId, amount, debtor's and creditor's IBAN, schedule) with texts of its own: what is
 * held of them is neither the records whole nor the bank's pages they were read from. In the listing's order. (A
 * sweep keeps the same fields of them in the fleet's database for the day's forecast ahead, `Warnings.layerSql`.)
 */
export const forecastOrders = (
  orders: Iterable<Projection.ProjectableOrder>,
  accounts: ReadonlySet<string>
): Array<Projection.ProjectableOrder> => {
  const texts = new Map<string, string>()
  const shared = (text: string): string => {
    const found = texts.get(text)
    if (found !== undefined) return found
    const copy = own(text)
    texts.set(copy, copy)
    return copy
  }
  const out: Array<Projection.ProjectableOrder> = []
  for (const o of orders) {
    const creditor = o.creditor.iban
    if (!accounts.has(o.debtor.iban) && (creditor === undefined || !accounts.has(creditor))) continue
    out.push({
      orderId: own(o.orderId),
      instructedAmount: { value: o.instructedAmount.value, currency: shared(o.instructedAmount.currency) },
      debtor: { iban: shared(o.debtor.iban) },
      creditor: { iban: creditor === undefined ? undefined : shared(creditor) },
      ...(o.frequency === undefined ? {} : { frequency: o.frequency }),
      ...(o.startDate === undefined ? {} : { startDate: o.startDate }),
      ...(o.nextDate === undefined ? {} : { nextDate: o.nextDate }),
      ...(o.endDate === undefined ? {} : { endDate: o.endDate }),
      ...(o.recurrence === undefined ? {} : { recurrence: o.recurrence })
    })
  }
  return out
}

/** What the forecast of a sweep reads: each consent's orders of the day, the balances, the day, the rule. */
export interface Input {
  readonly listings: ReadonlyArray<{ readonly consent: string; readonly orders: Iterable<Projection.ProjectableOrder> }>
  readonly balances: ReadonlyArray<Balance>
  readonly day: LocalDate.LocalDate
  /** Working days after the day the forecast covers (default {@link defaultHorizon}). */
  readonly horizon?: number | undefined
  readonly calendar: Calendar.Calendar
  readonly convention?: BusinessDayConvention.BusinessDayConvention | undefined
}

/** What a sweep's forecast found: the payments at risk, the accounts forecast and the horizon's last day. */
export interface Found {
  readonly risks: ReadonlyArray<Risk>
  readonly forecast: ReadonlySet<string>
  readonly to: string
  /** The stored balances that could not be read, their accounts not forecast (absent: none). */
  readonly unusable?: ReadonlyArray<Unusable> | undefined
}

/**
 * Every payment of the accounts with a balance that is due on a day the forecast over the horizon puts at or below
 * zero or below the threshold, by day, then orderId; the accounts forecast and the horizon's last day; the stored
 * balances that could not be read (`unusable`).
 */
export const find = (input: Input): Found => {
  const balances = balancesOf(input.balances)
  const from = input.day
  const to = Coverage.horizon(from, input.horizon ?? defaultHorizon, input.calendar)
  const consentOf = new Map<string, string>()
  const orders: Array<Projection.ProjectableOrder> = []
  for (const l of input.listings) {
    for (const o of l.orders) {
      if (consentOf.has(o.orderId)) continue
      consentOf.set(o.orderId, l.consent)
      orders.push(o)
    }
  }
  const risks: Array<Risk> = []
  const unusable = unusableBalances(input.balances)
  const said = unusable.length === 0 ? {} : { unusable }
  const none: Found = { risks, forecast: new Set(), to: LocalDate.format(to), ...said }
  if (balances.length === 0) return none
  const made = Forecast.make({
    orders,
    balances,
    window: { from, to },
    options: { calendar: input.calendar, convention: input.convention },
    ladder: false
  })
  if (Result.isFailure(made)) return none
  const dayText = LocalDate.format(from)
  for (const a of made.success.accounts) {
    const balanceDate = LocalDate.format(a.balanceDate)
    for (const d of a.riskDays) {
      const dueThatDay = d.payments.slice(0, dueThatDayShown).map((p) => ({
        orderId: p.orderId,
        nominalDate: LocalDate.format(p.nominalDate),
        amount: Money.toPlainString(p.amount)
      }))
      for (const p of d.payments) {
        const risk: Risk = {
          consent: consentOf.get(p.orderId) ?? "",
          orderId: p.orderId,
          nominalDate: LocalDate.format(p.nominalDate),
          executionDate: LocalDate.format(p.executionDate),
          amount: Money.toPlainString(p.amount),
          currency: p.currency,
          iban: a.iban,
          closing: Money.toPlainString(d.closing),
          reason: d.reason,
          threshold: a.threshold === undefined ? null : Money.toPlainString(a.threshold),
          shortfall: Money.toPlainString(d.shortfall),
          dueThatDay,
          dueThatDayCount: d.payments.length,
          totalThatDay: Money.toPlainString(d.out),
          lowest: { amount: Money.toPlainString(a.lowest.amount), date: LocalDate.format(a.lowest.date) },
          balanceDate,
          balanceAgeDays: ageDays(balanceDate, dayText)
        }
        risks.push(risk)
      }
    }
  }
  risks.sort((x, y) =>
    x.executionDate < y.executionDate ? -1 : x.executionDate > y.executionDate ? 1 : x.orderId < y.orderId ? -1 : 1
  )
  return { risks, forecast: new Set(made.success.accounts.map((a) => a.iban)), to: LocalDate.format(to), ...said }
}

/** How many orders a part of the forecast ahead holds at most, besides an account's own beyond it ({@link parts}). */
export const ordersPerPart = 10_000

/** A part of a sweep's forecast ahead: some of the accounts with a balance, and every order paying from or into them. */
export interface Part {
  readonly listings: ReadonlyArray<{
    readonly consent: string
    readonly orders: ReadonlyArray<Projection.ProjectableOrder>
  }>
  readonly balances: ReadonlyArray<Balance>
}

/**
 * A sweep's forecast ahead cut into parts of accounts (pure), so that the forecast of 10,000 accounts never holds the
 * plans and payments of all their orders at once: the accounts with a balance, in the balances' order, gathered until a
 * part has `size` orders (an account's orders all in its part, its balances too), each part with every order paying
 * from or into one of its accounts whatever consent lists it, in the listings' order. An orderId two consents list is
 * the first's, as {@link find} reads them. Each account's forecast reads only its own orders, so that {@link find} of
 * each part names the payments {@link find} of the whole names.
 */
export const parts = (input: Pick<Input, "listings" | "balances">, size: number = ordersPerPart): Array<Part> => {
  const entries: Array<{ readonly consent: string; readonly order: Projection.ProjectableOrder }> = []
  const seen = new Set<string>()
  const touching = new Map<string, Array<number>>()
  const touch = (iban: string | undefined, index: number) => {
    const list = iban === undefined ? undefined : touching.get(iban)
    if (list !== undefined && list.at(-1) !== index) list.push(index)
  }
  for (const b of input.balances) touching.set(b.iban, [])
  for (const l of input.listings) {
    for (const order of l.orders) {
      if (seen.has(order.orderId)) continue
      seen.add(order.orderId)
      const index = entries.push({ consent: l.consent, order }) - 1
      touch(order.debtor.iban, index)
      touch(order.creditor.iban, index)
    }
  }
  const balancesOf = new Map<string, Array<Balance>>()
  for (const b of input.balances) balancesOf.set(b.iban, [...(balancesOf.get(b.iban) ?? []), b])
  const out: Array<Part> = []
  let balances: Array<Balance> = []
  let indices = new Set<number>()
  const flush = () => {
    const listings: Array<{ consent: string; orders: Array<Projection.ProjectableOrder> }> = []
    for (const i of [...indices].sort((a, b) => a - b)) {
      const { consent, order } = entries[i]!
      const last = listings.at(-1)
      if (last !== undefined && last.consent === consent) last.orders.push(order)
      else listings.push({ consent, orders: [order] })
    }
    out.push({ listings, balances })
    balances = []
    indices = new Set()
  }
  for (const [iban, own] of balancesOf) {
    balances.push(...own)
    for (const i of touching.get(iban) ?? []) indices.add(i)
    if (indices.size >= size) flush()
  }
  if (balances.length > 0) flush()
  return out
}

/** A payment raised at risk and not yet cleared, as the fleet keeps it. */
export interface Open {
  readonly key: string
  readonly executionDate: string
  readonly iban: string
}

/**
 * What a sweep of `day` raises against what is open (pure): each payment at risk that is not open is raised (a new
 * event, a new episode); each open one due within the horizon on an account forecast that is no longer at risk is
 * cleared (the forecast recovered, or the order is gone); an open one whose payment has passed, or whose account was
 * not forecast, is left as it is (nothing to say).
 */
export const reconcile = <O extends Open>(
  found: Found,
  open: ReadonlyArray<O>,
  day: string
): { readonly raised: Array<Risk>; readonly cleared: Array<O> } => {
  const openKeys = new Set(open.map((o) => o.key))
  const risky = new Set(found.risks.map(keyOf))
  return {
    raised: found.risks.filter((r) => !openKeys.has(keyOf(r))),
    cleared: open.filter(
      (o) => !risky.has(o.key) && found.forecast.has(o.iban) && o.executionDate >= day && o.executionDate <= found.to
    )
  }
}
