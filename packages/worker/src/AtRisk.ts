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

/** The stored balances as the forecast reads them (a balance whose figures are not exact decimals is left out). */
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
}

/**
 * Every payment of the accounts with a balance that is due on a day the forecast over the horizon puts at or below
 * zero or below the threshold, by day, then orderId; the accounts forecast and the horizon's last day.
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
  const none: Found = { risks, forecast: new Set(), to: LocalDate.format(to) }
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
  return { risks, forecast: new Set(made.success.accounts.map((a) => a.iban)), to: LocalDate.format(to) }
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
