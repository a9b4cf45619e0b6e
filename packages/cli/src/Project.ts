/**
 * The pure core of `tppkit project`: reads the options as the user typed them, decodes a standing-order list
 * leniently (a malformed order is skipped with its reason, the others are still projected) and projects the
 * payments of a window into the report the renderers print.
 *
 * @since 0.1.0
 */
import { BusinessDayConvention, Calendar, LocalDate, Money, StandingOrder } from "@tppkit/core"
import { Holidays, type Payment, Projection } from "@tppkit/schedule"
import { Result, Schema } from "effect"
import * as Calendars from "./Calendars.ts"
import type * as Render from "./Render.ts"

/** The projection settings after validation. */
export interface Settings {
  readonly from: LocalDate.LocalDate
  readonly to: LocalDate.LocalDate
  /** The calendar's label as reported: `weekends`, `target` or an upper-case country code. */
  readonly calendarName: string
  readonly calendar: Calendar.Calendar
  /** With `--calendar auto`: the calendar of each currency (`Calendars.forCurrency`); `calendar` is then unused. */
  readonly calendarOfCurrency?: ((currency: string) => Calendar.Calendar) | undefined
  readonly convention: BusinessDayConvention.BusinessDayConvention
}

/** The settings as typed on the command line. */
export interface RawSettings {
  readonly from: string
  readonly to: string
  readonly calendar: string
  readonly holidays?: string | undefined
  readonly convention: string
}

const parseDate = (flag: string, text: string): Result.Result<LocalDate.LocalDate, string> =>
  Result.mapError(LocalDate.parse(text.trim()), (reason) => `--${flag} ${JSON.stringify(text)}: ${reason}`)

const builtInNames = Calendar.builtIn.map((c) => c.name)

/**
 * The calendar named by `--calendar`: one of core's built-in calendars (`weekends`, `target`) or a national
 * calendar by ISO 3166 country code (`Holidays.national`), or why the name is unknown.
 */
export const calendarOf = (name: string): Result.Result<{ label: string; calendar: Calendar.Calendar }, string> => {
  const trimmed = name.trim()
  const builtIn = Calendar.builtInNamed(trimmed)
  if (builtIn !== undefined) return Result.succeed({ label: builtIn.name, calendar: builtIn })
  if (/^[A-Za-z]{2}$/.test(trimmed)) {
    return Result.mapBoth(Holidays.national(trimmed), {
      onSuccess: (calendar) => ({ label: trimmed.toUpperCase(), calendar }),
      onFailure: (reason) => `--calendar: ${reason}`
    })
  }
  return Result.fail(
    `--calendar ${JSON.stringify(name)}: expected ${builtInNames.join(", ")} or an ISO 3166 country code such as SK`
  )
}

const isConvention = Schema.is(BusinessDayConvention.BusinessDayConvention)

/**
 * Validates the typed settings: real dates, `from` not after `to`, a known calendar (or `auto`: each currency's
 * own, see `Calendars`) and convention.
 */
export const settings = (raw: RawSettings): Result.Result<Settings, string> =>
  Result.gen(function* () {
    const from = yield* parseDate("from", raw.from)
    const to = yield* parseDate("to", raw.to)
    if (from > to) {
      return yield* Result.fail(`--from ${LocalDate.format(from)} is after --to ${LocalDate.format(to)}`)
    }
    const auto = raw.calendar.trim().toLowerCase() === Calendars.AUTO
    const { label, calendar } = auto
      ? { label: Calendars.AUTO, calendar: Calendar.target }
      : yield* calendarOf(raw.calendar)
    const extra: Array<LocalDate.LocalDate> = []
    for (const part of (raw.holidays ?? "").split(",")) {
      if (part.trim().length === 0) continue
      extra.push(yield* parseDate("holidays", part))
    }
    const resolve = auto ? Calendars.resolver(extra) : undefined
    const convention = raw.convention.trim()
    if (!isConvention(convention)) {
      return yield* Result.fail(
        `--convention ${JSON.stringify(raw.convention)}: expected one of ${BusinessDayConvention.conventions.join(", ")}`
      )
    }
    return {
      from,
      to,
      calendarName: label,
      calendar: extra.length === 0 ? calendar : Calendar.withHolidays(calendar, extra),
      ...(resolve === undefined ? {} : { calendarOfCurrency: (currency: string) => resolve(currency).calendar }),
      convention
    }
  })

/** Standing orders decoded from a file, with the records that could not be decoded. */
export interface Decoded {
  readonly orders: ReadonlyArray<StandingOrder.StandingOrder>
  readonly skipped: ReadonlyArray<Render.SkippedRow>
}

/**
 * Decodes the text of a standing-order list response body (docs/bank-interface.md, "Standing-order list") or of a bare
 * array of standing orders; fails only when the text is not JSON or not such a body at all (neither an array nor an
 * object with `standingOrders`).
 */
export const decodeOrders = (text: string): Result.Result<Decoded, string> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    return Result.fail(`not valid JSON: ${e instanceof Error ? e.message : String(e)}`)
  }
  if (!Array.isArray(json) && !(typeof json === "object" && json !== null && "standingOrders" in json)) {
    return Result.fail(
      "not an orders file: expected a JSON array of standing orders or an object with a standingOrders array"
    )
  }
  const decoded = Array.isArray(json) ? StandingOrder.decodeOrdersLenient(json) : StandingOrder.decodeListLenient(json)
  return Result.map(decoded, (d) => {
    // The report carries amounts with exactly two decimals, as the bank's [9.2] format does; an amount with more
    // decimals cannot be shown without rounding, so its order is skipped with the reason instead.
    const orders: Array<StandingOrder.StandingOrder> = []
    const skipped: Array<Render.SkippedRow> = d.errors.map((e) => ({
      orderId: e.orderId,
      reason: `record ${e.index}${e.path.length > 0 ? ` at ${e.path}` : ""}: ${e.message}`
    }))
    for (const order of d.orders) {
      const decimals = Money.fractionDigits(order.instructedAmount.value)
      if (decimals > 2) {
        skipped.push({
          orderId: order.orderId,
          reason: `instructedAmount.value ${Money.toPlainString(order.instructedAmount.value)} has ${decimals} decimals; the format allows 2, and the report does not round`
        })
      } else {
        orders.push(order)
      }
    }
    return { orders, skipped }
  })
}

/** A projection report whose payments are the schedule's payments (with their occurrence numbers). */
export type Report = Render.ProjectionReport<Payment.Payment>

/**
 * Projects decoded orders over the window (decoding failures listed first among the skipped). The payments are
 * a lazy, ordered sequence (schedule's `Projection.lazy`), read once: every output format renders them while
 * they are computed, so memory holds the orders' plans instead of every payment.
 */
export const report = (decoded: Decoded, s: Settings): Report => {
  const window = { from: s.from, to: s.to }
  const projected =
    s.calendarOfCurrency === undefined
      ? Projection.lazy(decoded.orders, window, { calendar: s.calendar, convention: s.convention })
      : Calendars.lazyByCurrency(decoded.orders, window, s.calendarOfCurrency, { convention: s.convention })
  return {
    from: s.from,
    to: s.to,
    calendar: s.calendarName,
    convention: s.convention,
    payments: projected.payments,
    skipped: [...decoded.skipped, ...projected.skipped]
  }
}
