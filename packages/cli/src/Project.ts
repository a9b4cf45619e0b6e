/**
 * The pure core of `tppkit project`: reads the options as the user typed them, decodes a standing-order list
 * leniently (a malformed order is skipped with its reason, the others are still projected) and projects the
 * payments of a window into the report the renderers print.
 *
 * @since 0.1.0
 */
import {
  BusinessDayConvention,
  Calendar,
  LocalDate,
  Rrule,
  Standard,
  StandingOrder,
  Decoded as Tolerance,
  Translation
} from "@tppkit/core"
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
 * A standing order as `tppkit project` keeps it: the fields the projection reads (schedule, amount, the two
 * accounts and the creditor's name) of a decoded `StandingOrder`. Orders of one debtor share one `debtor` object,
 * orders of one creditor one `creditor` object, so that a million orders of a few accounts hold a few copies.
 */
export interface Order extends Projection.ProjectableOrder {
  /**
   * True when the order's recurrence carries its own business-day convention (its standard says it, e.g. a Berlin
   * Group `executionRule` or a COBS `modeDue`, or fixes it, e.g. a daily code that never moves): the projection's
   * `--convention` then does not replace it ({@link report}).
   */
  readonly ownConvention?: true | undefined
}

/** Standing orders decoded from a file, with the records that could not be decoded. */
export interface Decoded {
  readonly orders: ReadonlyArray<Order>
  readonly skipped: ReadonlyArray<Render.SkippedRow>
  /**
   * Per order read from another standard: each tolerance its decoder applied (a bad string real banks send) and each
   * loss of a lossy reading, as `reason` (printed on stderr; the order is still projected).
   */
  readonly warnings?: ReadonlyArray<Render.SkippedRow> | undefined
}

/** How records are read: `standard` forces one standard for every record (`--standard`); else each says or reveals its own. */
export interface DecodeOptions {
  readonly standard?: Standard.Standard | undefined
}

/**
 * An orders file decoded while it is read: `push` its text piece by piece (cut anywhere), then `end`. Memory
 * holds the decoded orders and one piece of text, never the whole file or its parsed JSON.
 */
export interface OrdersDecoder {
  /** Reads the next piece of text or bytes; `false` once the text is known not to be an orders file. */
  readonly push: (piece: string | Uint8Array) => boolean
  /** The decoded orders, or why the text is not an orders file (see {@link decodeOrders}). */
  readonly end: () => Result.Result<Decoded, string>
}

/**
 * A decoder of an orders file read piece by piece, as text or bytes (core's `StandingOrder.decoder`), with the
 * outcome of {@link decodeOrders} on the whole text: a malformed record is skipped with its reason, a good order is
 * kept as an {@link Order} (one whose amount cannot be projected exactly, out of the `[9.2]` format, is then
 * skipped by the projection with its reason: schedule's `Projection`).
 */
export const ordersDecoder = (options?: DecodeOptions): OrdersDecoder => {
  const keep = keeper()
  const forced = options?.standard
  // orders whose schedule cannot be read or said by the model: reported with the unread records
  const unreadRules = new Map<Order, string>()
  const warnings: Array<Render.SkippedRow> = []
  // a record of another standard, rewritten for the bank's decoder (a placeholder code), and the record as given
  const given = new WeakMap<object, Record<string, unknown>>()
  const decoder = StandingOrder.decoder({
    prepare: (record) => {
      const standard = standardOf(record, forced)
      if (standard === "sbas" || standard === undefined || typeof standard !== "string") return record
      if (standard === "rrule") return withRruleFrequency(record)
      const prepared = { ...(record as object), frequency: "DAI7" }
      given.set(prepared, record as Record<string, unknown>)
      return prepared
    },
    keep: (order, record) => {
      const kept = keep(order)
      const original = typeof record === "object" && record !== null ? given.get(record) : undefined
      const standard = standardOf(original ?? record, forced)
      if (standard === "sbas" || standard === undefined) return kept
      if (typeof standard !== "string") {
        unreadRules.set(kept, standard.reason)
        return kept
      }
      if (standard === "rrule") {
        const text = rruleOf(record)
        const recurrence = text === undefined ? "rrule: the record has no rrule text" : recurrenceOf(text, order)
        if (typeof recurrence === "string") {
          unreadRules.set(kept, recurrence)
          return kept
        }
        return { ...kept, recurrence }
      }
      return otherStandard(kept, original ?? record, standard, unreadRules, warnings)
    }
  })
  return {
    push: decoder.push,
    end: () =>
      Result.map(decoder.end(), (decoded) => {
        const skipped = decoded.errors.map(recordError)
        const orders = unreadRules.size === 0 ? decoded.orders : decoded.orders.filter((o) => !unreadRules.has(o))
        for (const [order, reason] of unreadRules) skipped.push({ orderId: order.orderId, reason })
        return warnings.length === 0 ? { orders, skipped } : { orders, skipped, warnings }
      })
  }
}

/**
 * The standard of a record: the forced one, else the one its `standard` field says (a name of `Standard.standards`;
 * any other name is a reason), else the one it reveals (core's `Standard.detect`); undefined: the bank's decoder
 * reads it (and says what is wrong).
 */
const standardOf = (
  record: unknown,
  forced: Standard.Standard | undefined
): Standard.Standard | { readonly reason: string } | undefined => {
  if (forced !== undefined) return forced
  const said = typeof record === "object" && record !== null ? (record as { standard?: unknown }).standard : undefined
  if (said !== undefined) {
    return (Standard.standards as ReadonlyArray<unknown>).includes(said)
      ? (said as Standard.Standard)
      : { reason: `standard ${JSON.stringify(said)}: expected one of ${Standard.standards.join(", ")}` }
  }
  return Standard.detect(record)
}

/**
 * An order of another standard (Berlin Group, COBS, UK, ISO 20022, YNAB, Actual) with its recurrence through core's
 * `Standard.decode`, or unread with the reason when it is unrepresentable. Its convention is its own when the record
 * carries or fixes one (`ownConvention`), else the projection's ({@link report}); the order's `endDate` ends it too.
 * Each tolerance and each loss is a warning on the order. The record is decoded once.
 */
const otherStandard = (
  kept: Order,
  record: unknown,
  standard: Exclude<Standard.Standard, "sbas" | "rrule">,
  unread: Map<Order, string>,
  warnings: Array<Render.SkippedRow>
): Order => {
  // a COBS list record names no first date: the order's startDate, else nextDate
  const decoded = Standard.decode(record, { standard, start: kept.startDate ?? kept.nextDate })
  const t = decoded.translation
  if (t._tag === "Unrepresentable") {
    unread.set(kept, `${standard}: ${t.reason}`)
    return kept
  }
  for (const w of decoded.warnings) {
    warnings.push({
      orderId: kept.orderId,
      reason: `${standard}: tolerated: ${Tolerance.describe(w)}`
    })
  }
  if (t._tag === "Lossy") {
    for (const l of t.losses) {
      warnings.push({
        orderId: kept.orderId,
        reason: `${standard}: lossy: ${Translation.describe(l)}`
      })
    }
  }
  const r = t.value
  const own = decoded.ownConvention
  const end = kept.endDate !== undefined && (r.end === undefined || kept.endDate < r.end) ? kept.endDate : r.end
  const recurrence = end === undefined || end === r.end ? r : { ...r, end }
  return own ? { ...kept, recurrence, ownConvention: true } : { ...kept, recurrence }
}

/** The `rrule` text of a record (tppkit's reading of an order given as an RFC 5545 rule), if it has one. */
const rruleOf = (record: unknown): string | undefined => {
  const text =
    typeof record === "object" && record !== null ? (record as { readonly rrule?: unknown }).rrule : undefined
  return typeof text === "string" ? text : undefined
}

/** A record with an `rrule` and no `frequency` gets a placeholder code: its schedule is its rule, never the code. */
const withRruleFrequency = (record: unknown): unknown =>
  rruleOf(record) !== undefined && (record as { readonly frequency?: unknown }).frequency === undefined
    ? { ...(record as object), frequency: "DAI7" }
    : record

/**
 * The recurrence of an order's `rrule` (packages/core/README.md, "Translations"): `DTSTART` from the text, else the
 * order's `startDate` or `nextDate`; the order's `endDate` ends it too. Its dates are nominal dates: the projection's
 * convention moves them as it moves the bank's codes' ({@link report}). The reason when it cannot be read.
 */
const recurrenceOf = (text: string, order: StandingOrder.StandingOrder) => {
  const parsed = Rrule.parse(text, order.startDate ?? order.nextDate)
  if (Result.isFailure(parsed)) return `rrule: ${parsed.failure}`
  const t = Rrule.decode(parsed.success.rrule)
  if (t._tag === "Unrepresentable") return `rrule: ${t.reason}`
  const r = t.value
  const end = order.endDate !== undefined && (r.end === undefined || order.endDate < r.end) ? order.endDate : r.end
  return end === undefined ? r : { ...r, end }
}

const recordError = (e: StandingOrder.RecordError): Render.SkippedRow => ({
  orderId: e.orderId,
  reason:
    e.index < 0
      ? `${e.path}: ${e.message}`
      : `record ${e.index}${e.path.length > 0 ? ` at ${e.path}` : ""}: ${e.message}`
})

/** The {@link Order} of each decoded standing order, with equal debtors, creditors and currencies shared. */
const keeper = (): ((order: StandingOrder.StandingOrder) => Order) => {
  const debtors = new Map<string, Order["debtor"]>()
  const creditors = new Map<string, Map<string | undefined, Order["creditor"]>>()
  const currencies = new Map<string, string>()
  return (order) => {
    const { debtor, creditor, instructedAmount } = order
    let sharedDebtor = debtors.get(debtor.iban)
    if (sharedDebtor === undefined) {
      sharedDebtor = { iban: debtor.iban }
      debtors.set(debtor.iban, sharedDebtor)
    }
    let byName = creditors.get(creditor.iban)
    if (byName === undefined) {
      byName = new Map()
      creditors.set(creditor.iban, byName)
    }
    let sharedCreditor = byName.get(creditor.name)
    if (sharedCreditor === undefined) {
      sharedCreditor = { iban: creditor.iban, name: creditor.name }
      byName.set(creditor.name, sharedCreditor)
    }
    let currency = currencies.get(instructedAmount.currency)
    if (currency === undefined) {
      currency = instructedAmount.currency
      currencies.set(currency, currency)
    }
    return {
      orderId: order.orderId,
      frequency: order.frequency,
      startDate: order.startDate,
      nextDate: order.nextDate,
      endDate: order.endDate,
      instructedAmount: { value: instructedAmount.value, currency },
      debtor: sharedDebtor,
      creditor: sharedCreditor
    }
  }
}

/**
 * Decodes the text of a standing-order list response body (docs/bank-interface.md, "Standing-order list") or of a
 * bare array of standing orders; fails only when the text is not JSON or not such a body at all (neither an array
 * nor an object with `standingOrders`). The same as {@link ordersDecoder} given the whole text at once.
 */
export const decodeOrders = (text: string, options?: DecodeOptions): Result.Result<Decoded, string> => {
  const decoder = ordersDecoder(options)
  decoder.push(text)
  return decoder.end()
}

/**
 * The orders as the projection reads them: an order given as an RRULE, or in a standard that leaves the convention
 * to the bank, is moved by the settings' convention, as the bank's codes are; one whose record carries its own
 * convention ({@link Order}'s `ownConvention`: a Berlin Group `executionRule`, a COBS `modeDue`) keeps it.
 */
export const projectable = (orders: ReadonlyArray<Order>, s: Pick<Settings, "convention">): ReadonlyArray<Order> =>
  orders.some((o) => o.recurrence !== undefined && o.ownConvention !== true)
    ? orders.map((o) =>
        o.recurrence === undefined || o.ownConvention === true
          ? o
          : { ...o, recurrence: { ...o.recurrence, convention: s.convention } }
      )
    : orders

/** A projection report: schedule's `Export` of the projection, planned and ready to be written. */
export type Report = Export.Export

/**
 * Plans the projection of the decoded orders over the window for writing (decoding failures listed first among
 * the skipped): memory then holds the orders' plans, not the orders, and the payments are computed while they are
 * written. `onDay`, when given, is told each execution date's number of payments as they are written.
 */
export const report = (decoded: Decoded, s: Settings, onDay?: (payments: number) => void): Report =>
  Export.make(
    projectable(decoded.orders, s),
    { from: s.from, to: s.to },
    {
      calendar: s.calendar,
      convention: s.convention,
      calendarName: s.calendarName,
      skipped: decoded.skipped,
      onDay
    }
  )
