/**
 * The sweep's plan, pure: a listing's orders keyed for the fleet (an orderId repeated becomes `ID#N`), and the checks
 * a sweep plans for one consent's orders, each to be checked at its trigger day's sweep hour (DST-correct).
 */
import { Currency, Iban, LocalDate, Money, Orders } from "@tppkit/core"
import { Coverage, OrderSchedule, Projection } from "@tppkit/schedule"
import { DateTime, Result } from "effect"
import type { Due } from "../Checks.ts"
import type { Consent } from "./sweepJournal.ts"
import type { Listed, Settings } from "./sweepTypes.ts"

/**
 * A listing's orders keyed for the fleet: an orderId that several records of the listing give becomes `ID#N`, the
 * N-th record (from 1, in listing order) that gives it (core's `Orders.keys`), so that each record's payments are
 * checked on their own, never merged into one check (issue 34); the orders as they are when no orderId repeats.
 * `repeated` names each such orderId with its records' positions (from 1).
 */
export const keyed = <A extends { readonly orderId: string }>(
  orders: ReadonlyArray<A>
): { readonly orders: ReadonlyArray<A>; readonly repeated: ReadonlyArray<Orders.Repeated> } => {
  // a record read by core's Orders has its position; the bank's own records are counted in listing order
  const positioned = orders.map((o, i) => {
    const position = (o as { readonly position?: unknown }).position
    return { orderId: o.orderId, position: typeof position === "number" ? position : i + 1 }
  })
  const repeated = Orders.repeated(positioned)
  if (repeated.length === 0) return { orders, repeated }
  const keys = Orders.keys(positioned)
  return { orders: orders.map((o, i) => (keys[i] === o.orderId ? o : Orders.withOrderId(o, keys[i]!))), repeated }
}

/** A listing with its orders (and the earlier listing's) {@link keyed}, and the orderIds it repeats. */
export const keyedListing = (
  listed: Listed
): { readonly listed: Listed; readonly repeated: ReadonlyArray<Orders.Repeated> } => {
  const today = keyed(listed.orders)
  const previous =
    listed.previous === undefined
      ? undefined
      : { day: listed.previous.day, orders: keyed(listed.previous.orders).orders }
  return {
    listed: { ...listed, orders: today.orders, ...(previous === undefined ? {} : { previous }) },
    repeated: today.repeated
  }
}

/** The instant a day's sweep hour begins in a time zone (epoch milliseconds), DST-correct. */
export const instantOf = (day: LocalDate.LocalDate, hour: number, timeZone: string): number => {
  const { year, month, day: d } = LocalDate.toParts(day)
  const zoned = DateTime.makeZonedUnsafe(
    { year, month, day: d, hour, minute: 0, second: 0, millisecond: 0 },
    { timeZone, adjustForTimeZone: true, disambiguation: "compatible" }
  )
  return zoned.epochMilliseconds
}

/** A payment the sweep cannot check: its debtor IBAN or currency is not one (nothing can be sent for it). */
export interface Unplannable {
  readonly orderId: string
  readonly nominalDate: LocalDate.LocalDate
  readonly reason: string
}

/**
 * An order the projection refuses whole although core read it: its amount is not one the rules allow (not a positive
 * `[9.2]` amount: README.md, "Wire formats"; kept exactly as received, never rounded), so it pays nothing. Its 1-based
 * position (core's, or its place among the listing's orders), its orderId as keyed, and the projection's reason.
 */
export interface Refused {
  readonly position: number
  readonly orderId: string
  readonly reason: string
}

/**
 * The checks a sweep on `day` plans for one consent's orders (pure): every payment executing from `day` up to and
 * including the `daysBefore`-th working day after it, each to be checked on its trigger day (`daysBefore` working
 * days before its execution date) or right away when that day is not after the sweep day; its IBAN and currency read
 * here, once. A payment whose debtor IBAN or currency is not one is `unplannable`, with why; an order whose amount the
 * rules refuse is `refused`, with the projection's reason (the projection's other skips are core's, named where the
 * listing is read).
 */
export const planned = (
  orders: ReadonlyArray<Projection.ProjectableOrder>,
  consent: string,
  day: LocalDate.LocalDate,
  settings: Pick<Settings, "daysBefore" | "calendar" | "convention" | "timeZone" | "hour">
): {
  readonly due: Array<Due>
  readonly unplannable: Array<Unplannable>
  readonly refused: Array<Refused>
} => {
  const last = Coverage.horizon(day, settings.daysBefore, settings.calendar)
  const { payments, skipped } = Projection.project(
    orders,
    { from: day, to: last },
    { calendar: settings.calendar, convention: settings.convention }
  )
  const due: Array<Due> = []
  const unplannable: Array<Unplannable> = []
  for (const p of Coverage.due(payments, day, settings.daysBefore, settings.calendar)) {
    const iban = Iban.parse(p.debtorIban)
    if (Result.isFailure(iban) || !Currency.isCurrencyCode(p.currency)) {
      const reason = Result.isFailure(iban)
        ? `debtor IBAN ${JSON.stringify(p.debtorIban)}: ${iban.failure}`
        : `currency ${JSON.stringify(p.currency)} is not three upper-case letters (ISO 4217)`
      unplannable.push({ orderId: p.orderId, nominalDate: p.nominalDate, reason })
      continue
    }
    const trigger = OrderSchedule.triggerDate(p.executionDate, settings.daysBefore, settings.calendar)
    due.push({
      consent,
      orderId: p.orderId,
      nominalDate: p.nominalDate,
      executionDate: p.executionDate,
      amount: p.amount,
      currency: p.currency,
      debtorIban: iban.success,
      sweepDay: day,
      checkAt: trigger > day ? instantOf(trigger, settings.hour, settings.timeZone) : 0
    })
  }
  return { due, unplannable, refused: refusedOf(orders, skipped) }
}

/** The orders among `orders` the projection skipped for their amount, with its reason (`skipped`: its skips). */
const refusedOf = (
  orders: ReadonlyArray<Projection.ProjectableOrder>,
  skipped: ReadonlyArray<Projection.Skipped>
): Array<Refused> => {
  if (skipped.length === 0) return []
  const reasons = new Map<string, string>()
  for (const s of skipped) if (s.orderId !== undefined && !reasons.has(s.orderId)) reasons.set(s.orderId, s.reason)
  const refused: Array<Refused> = []
  orders.forEach((o, i) => {
    const reason = reasons.get(o.orderId)
    if (reason === undefined || Money.fits(o.instructedAmount.value, Money.standingOrderFormat)) return
    const position = (o as { readonly position?: unknown }).position
    refused.push({ orderId: o.orderId, position: typeof position === "number" ? position : i + 1, reason })
  })
  return refused
}

/** The checks a sweep on `day` plans for one consent's orders ({@link planned} without the unplannable). */
export const plan = (
  orders: ReadonlyArray<Projection.ProjectableOrder>,
  consent: string,
  day: LocalDate.LocalDate,
  settings: Pick<Settings, "daysBefore" | "calendar" | "convention" | "timeZone" | "hour">
): Array<Due> => planned(orders, consent, day, settings).due

/** Whether a consent is past its validity on a day (its `validUntil` before the day). */
export const isExpired = (consent: Consent, day: string): boolean =>
  consent.validUntil !== undefined && consent.validUntil < day
