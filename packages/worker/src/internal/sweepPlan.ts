/**
 * The sweep's plan, pure: a listing's orders keyed for the fleet (an orderId repeated becomes `ID#N`), and the checks
 * a sweep plans for one consent's orders, each to be checked at its trigger day's sweep hour (DST-correct).
 */
import { LocalDate, Money, Orders } from "@tppkit/core"
import { Coverage, OrderSchedule, Projection } from "@tppkit/schedule"
import { DateTime } from "effect"
import type { Due } from "../Checks.ts"
import type { Consent, Listed, Settings } from "../Sweep.ts"

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
  return { orders: orders.map((o, i) => (keys[i] === o.orderId ? o : { ...o, orderId: keys[i]! })), repeated }
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

/**
 * The checks a sweep on `day` plans for one consent's orders (pure): every payment executing from `day` up to and
 * including the `daysBefore`-th working day after it, each to be checked on its trigger day (`daysBefore` working
 * days before its execution date) or right away when that day is not after the sweep day.
 */
export const plan = (
  orders: ReadonlyArray<Projection.ProjectableOrder>,
  consent: string,
  day: LocalDate.LocalDate,
  settings: Pick<Settings, "daysBefore" | "calendar" | "convention" | "timeZone" | "hour">
): Array<Due> => {
  const last = Coverage.horizon(day, settings.daysBefore, settings.calendar)
  const { payments } = Projection.project(
    orders,
    { from: day, to: last },
    { calendar: settings.calendar, convention: settings.convention }
  )
  const sweepDay = LocalDate.format(day)
  return Coverage.due(payments, day, settings.daysBefore, settings.calendar).map((p) => {
    const trigger = OrderSchedule.triggerDate(p.executionDate, settings.daysBefore, settings.calendar)
    return {
      consent,
      orderId: p.orderId,
      nominalDate: LocalDate.format(p.nominalDate),
      executionDate: LocalDate.format(p.executionDate),
      amount: Money.toPlainString(p.amount),
      currency: p.currency,
      debtorIban: p.debtorIban,
      sweepDay,
      checkAt: trigger > day ? instantOf(trigger, settings.hour, settings.timeZone) : 0
    }
  })
}

/** Whether a consent is past its validity on a day (its `validUntil` before the day). */
export const isExpired = (consent: Consent, day: string): boolean =>
  consent.validUntil !== undefined && consent.validUntil < day
