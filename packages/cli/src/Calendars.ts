/**
 * `--calendar auto`: each payment is projected on the calendar of its currency, the one its settlement system
 * keeps. EUR follows TARGET; CZK Czech banking days (weekends and Czech public holidays); any other currency the
 * national calendar of the country whose ISO 3166 code begins its ISO 4217 code (USD → US, GBP → GB, CHF → CH,
 * PLN → PL, HUF → HU); a currency without such a country (XAU, XDR …) counts weekends only. Opt-in: the default
 * stays TARGET, as the schedule rules say.
 *
 * @since 0.1.0
 */
import { Calendar, type LocalDate } from "@tppkit/core"
import { Holidays, Payment, Projection } from "@tppkit/schedule"
import { Result } from "effect"

/** The name of the per-currency choice on the command line and in reports. */
export const AUTO = "auto"

/** A calendar with the label a report shows for it. */
export interface Labelled {
  readonly label: string
  readonly calendar: Calendar.Calendar
}

/** The calendar `--calendar auto` gives a currency (see the module comment), with extra holidays added. */
export const forCurrency = (currency: string, extra: ReadonlyArray<LocalDate.LocalDate> = []): Labelled => {
  const code = currency.trim().toUpperCase()
  const base = ((): Labelled => {
    if (code === "EUR") return { label: Calendar.target.name, calendar: Calendar.target }
    const country = code.slice(0, 2)
    const national = /^[A-Z]{2}$/.test(country) && !country.startsWith("X") ? Holidays.national(country) : undefined
    if (national !== undefined && Result.isSuccess(national)) return { label: country, calendar: national.success }
    return { label: Calendar.weekends.name, calendar: Calendar.weekends }
  })()
  return extra.length === 0 ? base : { label: base.label, calendar: Calendar.withHolidays(base.calendar, extra) }
}

/** A resolver of currencies to calendars that builds each calendar once. */
export const resolver = (extra: ReadonlyArray<LocalDate.LocalDate> = []): ((currency: string) => Labelled) => {
  const cache = new Map<string, Labelled>()
  return (currency) => {
    let found = cache.get(currency)
    if (found === undefined) {
      found = forCurrency(currency, extra)
      cache.set(currency, found)
    }
    return found
  }
}

/** Merges payment sequences, each in `Payment.compare` order, into one sequence in that order, lazily. */
export const merge = function* (sequences: ReadonlyArray<Iterator<Payment.Payment>>): Generator<Payment.Payment> {
  const heads = sequences.map((s) => s.next())
  for (;;) {
    let best = -1
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i]!
      if (h.done === true) continue
      const current = heads[best]
      if (best < 0 || (current !== undefined && current.done !== true && Payment.compare(h.value, current.value) < 0)) {
        best = i
      }
    }
    if (best < 0) return
    const head = heads[best]!
    if (head.done === true) return
    yield head.value
    heads[best] = sequences[best]!.next()
  }
}

/**
 * Projects orders with each order on the calendar of its currency (`calendarOf`), as `Projection.lazy` does for
 * one calendar: the payments a lazy sequence in `Payment.compare` order, the skipped orders in input order.
 */
export const lazyByCurrency = <O extends Projection.ProjectableOrder>(
  orders: ReadonlyArray<O>,
  window: Projection.Window,
  calendarOf: (currency: string) => Calendar.Calendar,
  options: Omit<Projection.Options, "calendar"> = {}
): { readonly payments: IterableIterator<Payment.Payment>; readonly skipped: Array<Projection.Skipped> } => {
  const groups = new Map<string, Array<O>>()
  for (const order of orders) {
    const currency = order.instructedAmount.currency
    const group = groups.get(currency)
    if (group === undefined) groups.set(currency, [order])
    else group.push(order)
  }
  const projected = [...groups.entries()].map(([currency, group]) =>
    Projection.lazy(group, window, { ...options, calendar: calendarOf(currency) })
  )
  const position = new Map<string | undefined, number>()
  orders.forEach((o, i) => {
    if (!position.has(o.orderId)) position.set(o.orderId, i)
  })
  const skipped = projected
    .flatMap((p) => p.skipped)
    .sort((a, b) => (position.get(a.orderId) ?? 0) - (position.get(b.orderId) ?? 0))
  return { payments: merge(projected.map((p) => p.payments)), skipped }
}
