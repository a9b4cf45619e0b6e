/**
 * The pure core of `tppkit project`: reads the options as the user typed them, decodes a standing-order list
 * leniently (a malformed order is skipped with its reason, the others are still projected) and projects the
 * payments of a window into the report the renderers print.
 *
 * @since 0.1.0
 */
import { BusinessDayConvention, Calendar, LocalDate, Orders } from "@tppkit/core"
import { Export, Holidays, type Projection } from "@tppkit/schedule"
import { Result, Schema } from "effect"
import type * as Render from "./Render.ts"

/** The projection settings after validation. */
export interface Settings {
  readonly from: LocalDate.LocalDate
  readonly to: LocalDate.LocalDate
  /** The calendar's label as reported: `weekends`, `target` or an upper-case country code. */
  readonly calendarName: string
  /** One calendar, or with `--calendar auto` each currency's own (schedule's `Holidays.byCurrency`). */
  readonly calendar: Calendar.Calendar | ((currency: string) => Calendar.Calendar)
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

/** The dates of a comma-separated list given to `--flag` (empty parts skipped), or the first bad one's reason. */
export const datesOf = (flag: string, text: string | undefined): Result.Result<Array<LocalDate.LocalDate>, string> =>
  Result.gen(function* () {
    const dates: Array<LocalDate.LocalDate> = []
    for (const part of (text ?? "").split(",")) {
      if (part.trim().length === 0) continue
      dates.push(yield* parseDate(flag, part))
    }
    return dates
  })

const builtInNames = Calendar.builtIn.map((c) => c.name)

/**
 * The `--calendar` value (and report label) that projects each payment on its currency's calendar (schedule's
 * `Holidays.ofCurrency`: EUR TARGET, CZK Czech banking days, USD US …). Opt-in: the default stays TARGET.
 */
export const AUTO = "auto"

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
 * Validates the typed settings: real dates, `from` not after `to`, a known calendar (or {@link AUTO}: each
 * currency's own) and convention.
 */
export const settings = (raw: RawSettings): Result.Result<Settings, string> =>
  Result.gen(function* () {
    const from = yield* parseDate("from", raw.from)
    const to = yield* parseDate("to", raw.to)
    if (from > to) {
      return yield* Result.fail(`--from ${LocalDate.format(from)} is after --to ${LocalDate.format(to)}`)
    }
    const auto = raw.calendar.trim().toLowerCase() === AUTO
    const { label, calendar } = auto ? { label: AUTO, calendar: Calendar.target } : yield* calendarOf(raw.calendar)
    const extra = yield* datesOf("holidays", raw.holidays)
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
      calendar: auto
        ? Holidays.byCurrency(extra)
        : extra.length === 0
          ? calendar
          : Calendar.withHolidays(calendar, extra),
      convention
    }
  })

/**
 * A standing order as the commands use it: core's `Orders.Order` (its recurrence, or the bank's code, and whether its
 * record states its convention), or the bank's record read whole without an anchor, which the projection lists as
 * skipped with its reason (packages/core/README.md, "Anchor").
 */
export interface Order extends Projection.ProjectableOrder {
  /**
   * True when the order's recurrence carries its own business-day convention (its standard says it, e.g. a Berlin
   * Group `executionRule` or a COBS `modeDue`, or fixes it): the projection's `--convention` then does not replace it.
   */
  readonly ownConvention?: boolean | undefined
}

/**
 * Standing orders read from a file, with the records that could not be read, those read that yield no payment, and
 * the warnings of those read.
 */
export interface Decoded {
  readonly orders: ReadonlyArray<Order>
  /**
   * The records that could not be read (cli README, "Exit codes": 7): problems of the list first, then records, then
   * schedules, each in order.
   */
  readonly unread: ReadonlyArray<Render.SkippedRow>
  /**
   * The records read whole that yield no payment (inactive, ended, an end before the start, a rule that reaches no
   * date), each with its reason: listed by every command, the exit code unchanged. (An order without an anchor is
   * among `orders`: the projection lists it.)
   */
  readonly skipped: ReadonlyArray<Render.SkippedRow>
  /** Each tolerance and loss of an order read from another standard, as `reason` (the order is still used). */
  readonly warnings?: ReadonlyArray<Render.SkippedRow> | undefined
  /** How many orders count from the listing day (COBS list items naming no start, core's `Orders.countsFromListing`). */
  readonly fromListingDay?: number | undefined
  /**
   * The bank's records read whole without an anchor (no `startDate`, no `nextDate`), each with its position and core's
   * reason: they are among `orders` (the projection lists them as skipped), and a command that does not project,
   * `reconcile`, names them with this (absent when there are none).
   */
  readonly anchorless?: ReadonlyArray<Render.SkippedRow> | undefined
}

/** A record that could not be read, as the commands report it (cli README, "Output and errors"). */
export const unreadRow = (u: Orders.Unread): Render.SkippedRow =>
  u.kind === "list"
    ? { orderId: undefined, reason: `${u.path}: ${u.reason}`, kind: u.kind }
    : u.kind === "record"
      ? {
          orderId: u.orderId,
          position: u.position,
          reason: `record ${u.position ?? 1}${u.path.length > 0 ? ` at ${u.path}` : ""}: ${u.reason}`,
          kind: u.kind,
          alike: alike(
            `record\u0000${u.path}\u0000${u.reason}`,
            u.path.length > 0 ? `${u.path}: ${u.reason}` : u.reason
          )
        }
      : {
          orderId: u.orderId,
          position: u.position,
          reason: u.standard === undefined ? u.reason : `${u.standard}: ${u.reason}`,
          kind: u.kind,
          alike: alike(
            `schedule\u0000${u.standard}\u0000${u.reason}`,
            u.standard === undefined ? u.reason : `${u.standard}: ${u.reason}`
          )
        }

const alike = (key: string, said: string): { readonly key: string; readonly said: string } => ({ key, said })

/** A tolerance or loss of an order's reading, as the commands say it on stderr. */
export const warningRow = (order: Orders.Order, w: Orders.Warning): Render.SkippedRow => ({
  orderId: order.orderId,
  reason: Orders.describeWarning(w),
  group: Orders.warningGroup(w)
})

/**
 * Core's gathered items (`Orders.Gathered`: the orders in position order, an anchorless record among them for the
 * projection to skip; the unread records, the list's problems first, then records, then schedules) as the commands say
 * them: each unread or skipped record and each order's warning as a row.
 */
export const decodedOf = (gathered: Orders.Gathered, anchorless: ReadonlyArray<Render.SkippedRow> = []): Decoded => {
  const warnings: Array<Render.SkippedRow> = []
  let fromListingDay = 0
  for (const o of gathered.orders) {
    if (!("_tag" in o) || o.warnings.length === 0) continue
    for (const w of o.warnings) warnings.push(warningRow(o, w))
    if (Orders.countsFromListing(o)) fromListingDay++
  }
  const orders: ReadonlyArray<Order> = gathered.orders
  const unread = gathered.unread.map(unreadRow)
  // read, but it pays nothing (inactive, deleted, an end before its start, …): listed, not an error
  const skipped = gathered.skipped.map(skippedRow)
  const named = anchorless.length === 0 ? {} : { anchorless }
  if (warnings.length === 0) return { orders, unread, skipped, ...named }
  return fromListingDay === 0
    ? { orders, unread, skipped, warnings, ...named }
    : { orders, unread, skipped, warnings, fromListingDay, ...named }
}

/**
 * The orders as a command that does not project uses them (`reconcile`, `translate`, `explain`): the bank's records
 * without an anchor taken out of `orders` and listed among the records that pay nothing (`skipped`, in position
 * order), as the projection lists them (packages/core/README.md, "Anchor"); the same `Decoded` when there are none.
 */
export const withoutAnchorless = (decoded: Decoded): Decoded => {
  const { anchorless, ...rest } = decoded
  if (anchorless === undefined || anchorless.length === 0) return decoded
  return {
    ...rest,
    // the gatherer's anchorless records are the bank's records kept whole, the only orders that are no core Order
    orders: decoded.orders.filter((o) => "_tag" in o),
    skipped: [...decoded.skipped, ...anchorless].sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
  }
}

/** A row of a record read that pays nothing, as the commands name it (`skipped` and `anchorless`). */
const skippedRow = (s: Orders.Skipped): Render.SkippedRow => ({
  orderId: s.orderId,
  position: s.position,
  reason: s.reason,
  alike: alike(`skipped\u0000${s.reason}`, s.reason)
})

/**
 * An orders file read piece by piece through core's `Orders.decoder` (`push` text or bytes cut anywhere, then `end`):
 * memory holds the orders and one record's text, never the whole file or its parsed JSON.
 */
export interface OrdersDecoder {
  /** Reads the next piece; `false` once the text is known not to be an orders file. */
  readonly push: (piece: string | Uint8Array) => boolean
  /** The orders read, or why the text is not an orders file. */
  readonly end: () => Result.Result<Decoded, string>
}

/**
 * A decoder of an orders file for the commands (core's `Orders.decoder` and `Orders.gatherer`, {@link decodedOf}), the
 * anchorless records the gatherer keeps among the orders named with their reasons (`Decoded.anchorless`).
 */
export const ordersDecoder = (options?: Orders.Options): OrdersDecoder => {
  const d = Orders.decoder(options)
  const g = Orders.gatherer()
  const anchorless: Array<Render.SkippedRow> = []
  const add = (items: ReadonlyArray<Orders.Item>) => {
    for (const item of items) if (item._tag === "Skipped" && item.order !== undefined) anchorless.push(skippedRow(item))
    g.add(items)
  }
  return {
    push: (piece) => {
      add(d.push(piece))
      return d.ok()
    },
    end: () => {
      const end = d.end()
      if (Result.isFailure(end)) return Result.fail(end.failure.reason)
      add(end.success.items)
      return Result.succeed(decodedOf(g.done(), anchorless))
    }
  }
}

/**
 * Reads the whole text of an orders file or of a standing-order list response body (docs/bank-interface.md,
 * "Standing-order list"), as {@link ordersDecoder} does piece by piece; fails only when it is no orders list at all.
 */
export const decodeOrders = (text: string, options?: Orders.Options): Result.Result<Decoded, string> => {
  const d = ordersDecoder(options)
  d.push(text)
  return d.end()
}

/** A projection report: schedule's `Export` of the projection, planned and ready to be written. */
export type Report = Export.Export

/**
 * Plans the projection of the decoded orders over the window for writing (decoding failures listed first among
 * the skipped, then the orders read that pay nothing, then those the projection cannot plan): memory then holds the orders' plans, not the orders, and the payments are computed while they are
 * written. `onDay`, when given, is told each execution date's number of payments as they are written.
 */
export const report = (decoded: Decoded, s: Settings, onDay?: (payments: number) => void): Report =>
  Export.make(
    Orders.withConventions(decoded.orders, s.convention),
    { from: s.from, to: s.to },
    {
      calendar: s.calendar,
      convention: s.convention,
      calendarName: s.calendarName,
      skipped: decoded.skipped.length === 0 ? decoded.unread : [...decoded.unread, ...decoded.skipped],
      repeated: Orders.repeated(decoded.orders),
      onDay
    }
  )
