/**
 * A projection written out as bytes: the JSON document (the window, the settings, one payment per line, the skipped
 * orders and the totals per currency), CSV (RFC 4180) and iCalendar (RFC 5545), as UTF-8 chunks computed while they
 * are read, so that a projection of millions of payments never sits in memory. {@link make} plans the orders at
 * once (the orders can then be collected); each writer runs the projection engine from those plans and writes each
 * payment's line straight from the engine's columns, with nothing allocated per payment. Runtime-neutral:
 * `Uint8Array` and `TextEncoder` only.
 *
 * @since 0.1.0
 */
import { BusinessDayConvention, Calendar, type LocalDate } from "@tppkit/core"
import { Stream } from "effect"
import type * as ICalendar from "./ICalendar.ts"
import * as Events from "./internal/events.ts"
import * as Lines from "./internal/lines.ts"
import * as Merge from "./internal/merge.ts"
import * as Plans from "./internal/plans.ts"
import type * as Payment from "./Payment.ts"
import type * as Projection from "./Projection.ts"

/** The formats the writers write. */
export type Format = "json" | "csv" | "ics"

/** Options of {@link make}: the projection's calendar and convention, and what the JSON document states. */
export interface Options extends Projection.Options {
  /**
   * The calendar's name as the JSON document states it (default: the calendar's own `name`, or `"auto"` for a
   * calendar per currency).
   */
  readonly calendarName?: string | undefined
  /** Orders left out before the projection (e.g. records that could not be decoded), listed first as skipped. */
  readonly skipped?: ReadonlyArray<Projection.Skipped> | undefined
  /**
   * The orderIds that several records give, each with its records' positions (from 1): the JSON document lists them
   * as `repeated` (each order is projected).
   */
  readonly repeated?: ReadonlyArray<{ readonly orderId: string; readonly positions: ReadonlyArray<number> }> | undefined
  /** Called with the number of payments of each execution date as they are written (e.g. for a progress line). */
  readonly onDay?: ((payments: number) => void) | undefined
}

/**
 * A projection planned for writing (made by {@link make}): the window, the settings the JSON document states, and
 * every skipped order (those given to {@link make} first, then those the projection cannot use, then those that pay
 * but nothing in the window, "no payment in this window", each in input order).
 * Its payments are computed anew by each writer.
 */
export interface Export {
  readonly from: LocalDate.LocalDate
  readonly to: LocalDate.LocalDate
  readonly calendarName: string
  readonly convention: BusinessDayConvention.BusinessDayConvention
  readonly skipped: ReadonlyArray<Projection.Skipped>
  /** The orderIds that several records give, with the records' positions (empty when none repeats). */
  readonly repeated: ReadonlyArray<{ readonly orderId: string; readonly positions: ReadonlyArray<number> }>
}

/** The plans behind an {@link Export}, seen only by this module. */
interface Planned extends Export {
  readonly plans: Plans.Plans
  readonly onDay: ((payments: number) => void) | undefined
}

/** The exports {@link make} made: a writer given anything else refuses it. */
const made = new WeakSet<Export>()

const planned = (self: Export): Planned => {
  if (!made.has(self)) throw new TypeError("not an Export made by Export.make")
  return self as Planned
}

/**
 * Plans the projection of `orders` over `window` for writing: the same payments in the same order as
 * `Projection.project`, and the orders it cannot use listed as skipped.
 */
export const make = (
  orders: Iterable<Projection.ProjectableOrder>,
  window: Projection.Window,
  options?: Options
): Export => {
  const calendar = options?.calendar ?? Calendar.target
  const plans = Plans.plan(orders, window, options, true)
  const self: Planned = {
    from: window.from,
    to: window.to,
    calendarName: options?.calendarName ?? (typeof calendar === "function" ? "auto" : calendar.name),
    convention: options?.convention ?? BusinessDayConvention.defaultConvention,
    plans,
    // then the orders that pay, but nothing in this window: named, so that none of them disappears without a word
    skipped: [...(options?.skipped ?? []), ...plans.skipped, ...Plans.idleOf(plans, window)],
    repeated: options?.repeated ?? [],
    onDay: options?.onDay
  }
  made.add(self)
  return self
}

/** The engine's day columns of a projection, each date's count reported to `onDay` as it is read. */
function* days(self: Planned): Generator<Merge.Day> {
  const onDay = self.onDay
  for (const day of Merge.days(self.plans, self)) {
    onDay?.(day.length)
    yield day
  }
}

const source = (self: Planned): Lines.Source => ({ orders: self.plans.templates, days: days(self) })

/**
 * The JSON document as UTF-8 chunks of about a megabyte: `from`, `to`, `calendar`, `convention`, then `payments`
 * one per line (orderId, nominalDate, executionDate, provenance, amount with its currency's minor unit digits, currency, debtorIban,
 * creditorIban, creditorName when known), `skipped` (orderId or null, reason) and `totals` per currency (currency, count,
 * amount). Each chunk is valid until the next is asked for (its buffer is reused): write or copy it before.
 */
export const json = (self: Export): Iterable<Uint8Array> => {
  const p = planned(self)
  return Lines.encode(
    source(p),
    p,
    Lines.jsonFormat({
      from: p.from,
      to: p.to,
      calendar: p.calendarName,
      convention: p.convention,
      skipped: p.skipped,
      repeated: p.repeated
    })
  )
}

/**
 * The payments as CSV (RFC 4180): a header, then one CRLF-terminated line per payment with the JSON document's
 * payment fields, each text cell a {@link csvCell} (safe to open in a spreadsheet unless `rawFormulas`), as UTF-8
 * chunks of about a megabyte. Skipped orders are not listed. Each chunk is valid until the
 * next is asked for (its buffer is reused): write or copy it before.
 */
export const csv = (self: Export, options?: CsvOptions): Iterable<Uint8Array> => {
  const p = planned(self)
  return Lines.encode(source(p), p, Lines.csvFormat(options))
}

/** Options of {@link csv}: `rawFormulas` writes cells that begin like a spreadsheet formula as they are. */
export type CsvOptions = Lines.CsvOptions

/**
 * A CSV cell (RFC 4180) as {@link csv} writes one: control characters shown escaped (core's `Text.printable`),
 * quoted when it holds a quote or a comma, and unless `rawFormulas` a text beginning like a spreadsheet formula
 * (`=`, `+`, `-`, `@`, tab, CR, LF, NUL, or their full-width forms) neutralised as OWASP recommends (a single
 * quote before it, the whole quoted); a plain number (`-300.00`) is kept, so a spreadsheet still sums it.
 */
export const csvCell: (text: string, rawFormulas?: boolean) => string = Lines.csvCell

/** The payments of a projection, date by date, as plain payments (for renderings of their own, e.g. tables). */
export function* payments(self: Export): Generator<Payment.Payment> {
  const p = planned(self)
  const orders = p.plans.templates
  for (const day of days(p)) yield* Merge.payments(orders, day, day.day)
}

/**
 * The payments as an iCalendar document (the bytes of `ICalendar.fromPayments` of the payments: one all-day event
 * per payment), as UTF-8 chunks of about a megabyte, each event written from the engine's columns. Skipped orders
 * are not listed. Each chunk is valid until the next is asked for (its buffer is reused): write or copy it before.
 */
export const ics = (self: Export, options?: ICalendar.Options): Iterable<Uint8Array> => {
  const p = planned(self)
  return Events.encode({ orders: p.plans.templates, days: days(p) }, p, options)
}

/** The chunks of a writer, each a copy of its own (the writers reuse their buffers). */
function* copies(chunks: Iterable<Uint8Array>): Generator<Uint8Array> {
  for (const chunk of chunks) yield chunk.slice()
}

/**
 * A projection written in a format as a Stream of UTF-8 chunks, computed as the stream is pulled; unlike the
 * writers' chunks, each of the stream's is its own copy and may be kept.
 */
export const toStream = (self: Export, format: Format): Stream.Stream<Uint8Array> =>
  Stream.suspend(() =>
    Stream.fromIterable(copies(format === "json" ? json(self) : format === "csv" ? csv(self) : ics(self)))
  )
