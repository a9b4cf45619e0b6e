/**
 * Standing orders read once, in one place (packages/core/README.md, "Other standards"): the text or bytes of an
 * orders file or of the bank's list (whole, or a page of it), in any standard or a mix of them, read piece by piece
 * into {@link Order}s, each with who pays what (the amount exact from its text, the accounts, the names), its
 * `Recurrence` always, the standard it was read in, whether the record states its own convention, the warnings its
 * reading raised and its position. A record that cannot be read is an {@link Unread} (position, orderId when known,
 * field, reason); an order read whole whose schedule has no anchor is {@link Skipped} (packages/core/README.md,
 * "Anchor"). Every command of the CLI, the schedule and the fleet read orders through here.
 *
 * @since 0.3.0
 */
import { type BigDecimal, Effect, Result, Schema, Stream } from "effect"
import type * as AccountMap from "./AccountMap.ts"
import * as BusinessDayConvention from "./BusinessDayConvention.ts"
import type * as Decoded from "./Decoded.ts"
import * as Frequency from "./Frequency.ts"
import * as OrdersText from "./internal/ordersText.ts"
import * as Whole from "./internal/records/orders.ts"
import * as Records from "./internal/records.ts"
import * as Standards from "./internal/standards.ts"
import * as Json from "./Json.ts"
import * as LocalDate from "./LocalDate.ts"
import * as Occurrence from "./Occurrence.ts"
import * as Recurrence from "./Recurrence.ts"
import * as Rrule from "./Rrule.ts"
import * as SourceRecord from "./SourceRecord.ts"
import * as Standard from "./Standard.ts"
import * as StandingOrder from "./StandingOrder.ts"
import type * as Translation from "./Translation.ts"

// ---------------------------------------------------------------------------
// model
// ---------------------------------------------------------------------------

/**
 * What reading one record raised without refusing it: a tolerance (`Tolerated`: the record breaks its standard in a
 * way whose meaning is clear, e.g. `"01"` for `1`) or a loss (`Lost`: the standard's meaning differs from what
 * tppkit's model can say, named field by field). Data, never a sentence: `Decoded.describe` and
 * `Translation.describe` word them.
 */
export type Warning =
  | ({ readonly _tag: "Tolerated"; readonly standard: Standard.Standard } & Decoded.Warning)
  | ({ readonly _tag: "Lost"; readonly standard: Standard.Standard } & Translation.Loss)
  | ({ readonly _tag: "Missing"; readonly standard: Standard.Standard } & SourceRecord.Missing)

/**
 * An account of an order: its IBAN and, when the record names one, the holder's name. A whole record of another
 * source may name an account otherwise (packages/core/README.md, "Whole records"): `iban` then holds the identifier as
 * given and `scheme` says what it is (`account-id`, `cz`, a UK `SchemeName`, `ynab`, …; `unknown` with an empty
 * identifier when the record names no payer). A payee whose account the record does not name is a {@link Creditor}
 * with `iban` undefined.
 */
export interface Party {
  readonly iban: string
  readonly name?: string | undefined
  readonly scheme?: string | undefined
}

/**
 * The payee of an order: a {@link Party}, or, when the record names no payee's account (a COBS list item, a UK record
 * of the Basic permission, a YNAB or Actual schedule), `iban` undefined: the creditor is unknown (by its name alone
 * when the record gives one). The order is still projected, money leaving the debtor, and a `Missing` warning says so.
 */
export interface Creditor {
  readonly iban: string | undefined
  readonly name?: string | undefined
  readonly scheme?: string | undefined
}

/**
 * A standing order as read: who pays what and when. `recurrence` always says when it pays; that of an order in the
 * bank's own standard remembers its code (`Recurrence.code`: the engine plans it on the code's own arithmetic,
 * packages/core/README.md, "Nominal dates"). `ownConvention` says whether the record states
 * or fixes its business-day convention (a Berlin Group `executionRule`, a COBS `modeDue`, a daily code that never
 * moves): a reader that applies its own convention keeps such an order's ({@link withConvention}). `position` is the
 * record's place in the list, counted from 1.
 */
export interface Order {
  readonly _tag: "Order"
  readonly position: number
  readonly orderId: string
  readonly standard: Standard.Standard
  readonly recurrence: Recurrence.Recurrence
  readonly ownConvention: boolean
  readonly startDate?: LocalDate.LocalDate | undefined
  readonly nextDate?: LocalDate.LocalDate | undefined
  readonly endDate?: LocalDate.LocalDate | undefined
  readonly instructedAmount: { readonly value: BigDecimal.BigDecimal; readonly currency: string }
  readonly debtor: Party
  readonly creditor: Creditor
  readonly warnings: ReadonlyArray<Warning>
}

/**
 * A record that could not be read as an order: `record` (not an order of its standard: malformed, a required field
 * missing or invalid, at `path`), `schedule` (its fields are an order's but its schedule cannot be said in tppkit's
 * model, or names no standard tppkit reads) or `list` (a problem of the list itself, e.g. a malformed `pageCount` or
 * a repeated key; no `position`). `position` counts records from 1.
 */
export interface Unread {
  readonly _tag: "Unread"
  readonly kind: "record" | "schedule" | "list"
  readonly position: number | undefined
  readonly orderId: string | undefined
  readonly path: string
  readonly reason: string
  /** The standard the record was read in, for a schedule that could not be read. */
  readonly standard: Standard.Standard | undefined
}

/**
 * An order read whole that yields no payment: the bank's record without `startDate` and `nextDate` has no anchor
 * (packages/core/README.md, "Anchor"), an order whose end is before its start never pays, a whole record of another
 * source is inactive, deleted or reaches no date; the projection lists it with the reason and the other orders are
 * projected. `order` keeps the bank's fields as read (no recurrence) where the record is listed as given.
 */
export interface Skipped {
  readonly _tag: "Skipped"
  readonly position: number
  readonly orderId: string
  readonly reason: string
  /** The bank's record as read; absent for a whole record of another source that is no order to project. */
  readonly order?: StandingOrder.StandingOrder | undefined
  /** The field that makes the bank's record pay nothing (`startDate` absent with `nextDate`, an `endDate` before them). */
  readonly field?: string | undefined
}

/** What a record is read as. */
export type Item = Order | Unread | Skipped

/** How records are read. */
export interface Options {
  /** One standard for every record (the CLI's `--standard`); else each says (`standard`) or reveals its own. */
  readonly standard?: Standard.Standard | undefined
  /** The convention of a recurrence whose record leaves it to the bank (default `following`). */
  readonly convention?: BusinessDayConvention.BusinessDayConvention | undefined
  /**
   * Read a list response body (docs/bank-interface.md, "Standing-order list"): `standingOrders` may be absent or
   * `null` (an empty page). Default: an orders file, where an object without `standingOrders` is none.
   */
  readonly body?: boolean | undefined
  /** The longest record read, in characters (default `StandingOrder.MAX_RECORD_LENGTH`). */
  readonly maxRecordLength?: number | undefined
  /** The deepest nesting inside a record (default 64). */
  readonly maxDepth?: number | undefined
  /** Account ids mapped to IBANs and currencies, for whole records that carry neither (UK, YNAB, Actual). */
  readonly accounts?: AccountMap.AccountMap | undefined
  /** The day the list was read: a COBS list item names no start, and a daily, weekly or monthly one counts from it. */
  readonly listedOn?: LocalDate.LocalDate | undefined
}

/** What the list said besides its records, known once the text has ended. */
export interface Ending {
  /** The list's `pageCount` when it has a well-formed one. */
  readonly pageCount: number | undefined
  /** Whether the text was an object whose `standingOrders` is absent or `null` (only with `body`). */
  readonly listMissing: boolean
  /** The top-level keys of an object text, once each in text order (empty for a bare array). */
  readonly keys: ReadonlyArray<string>
  /** The problems of the list itself (`kind` `list`), and the records still held when the text ended. */
  readonly items: ReadonlyArray<Item>
}

/**
 * Why a text is not an orders list at all, as `kind` to branch on: `empty` (no JSON value), `json` (broken or cut
 * JSON), `utf8` (an invalid byte outside the records), `notAList` (neither an array of orders nor an object with a
 * `standingOrders` array, or a record or whitespace past the limit), `notAnArray` (`standingOrders` is no array);
 * `detail` says where and what, `reason` is the whole sentence.
 */
export class NotAList extends Schema.TaggedError<NotAList>()("NotAList", {
  kind: Schema.Literals(["empty", "json", "utf8", "notAList", "notAnArray"]),
  detail: Schema.String,
  reason: Schema.String
}) {
  /** The human reason. */
  override get message(): string {
    return this.reason
  }
}

const notAList = (failure: OrdersText.TextFailure): NotAList =>
  new NotAList({ kind: failure.reason, detail: failure.detail, reason: failure.message })

// ---------------------------------------------------------------------------
// reading one record
// ---------------------------------------------------------------------------

const EMPTY: ReadonlyArray<Warning> = Object.freeze([])

/** Why the bank's record without `startDate` and `nextDate` pays nothing (`Recurrence.fromSbas`'s reason). */
const NO_ANCHOR = "the order has neither startDate nor nextDate to anchor its schedule"

/** The bank's record without its `frequency`: the fields of an order of another standard. */
const Parties = Schema.Struct(
  (({ frequency: _, ...rest }) => rest)(StandingOrder.StandingOrder.fields as typeof StandingOrder.StandingOrder.fields)
)
type Parties = typeof Parties.Type

const decodeBank = Schema.decodeUnknownResult(StandingOrder.StandingOrder)
const decodeParties = Schema.decodeUnknownResult(Parties)

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * The bank's frequency code as the record spells it when it is one of the codes in another case or with spaces around
 * it (`"mnth"`, `" MNTH"`): the code, and the tolerance said as a warning of the field `frequency` (we are tolerant in
 * what we accept and never guess: only a code that differs from one of the seven by case and spaces is read).
 */
const bankCodeSpelt = (
  record: unknown
): { readonly code: Frequency.Frequency; readonly warning: Warning } | undefined => {
  if (!isObject(record) || typeof record.frequency !== "string") return undefined
  const given = record.frequency
  if ((Frequency.codes as ReadonlyArray<string>).includes(given)) return undefined
  const code = Frequency.codes.find((c) => c === given.trim().toUpperCase())
  if (code === undefined) return undefined
  return {
    code,
    warning: {
      _tag: "Tolerated",
      standard: "sbas",
      field: "frequency",
      received: given,
      read: code,
      why: `the bank's frequency codes are spelt in upper case (${Frequency.codes.join(", ")})`
    }
  }
}

/** The standard of a record: the forced one, else the one it says, else the one it reveals; a reason for a bad name. */
const standardOf = (
  record: unknown,
  forced: Standard.Standard | undefined
): Standard.Standard | { readonly reason: string } | undefined => {
  if (forced !== undefined) return forced
  const said = isObject(record) ? record.standard : undefined
  if (said !== undefined) {
    return (Standard.standards as ReadonlyArray<unknown>).includes(said)
      ? (said as Standard.Standard)
      : { reason: `standard ${JSON.stringify(said)}: expected one of ${Standard.standards.join(", ")}` }
  }
  return Standard.detect(record)
}

/** One reading: the parties shared between orders (a million orders of a few accounts hold a few copies). */
class Reading {
  private readonly parties = new Map<string, Party>()
  private readonly currencies = new Map<string, string>()
  readonly options: Options | undefined
  /** Whether each order of the bank's standard keeps its record whole ({@link decodeBankList}). */
  readonly records: boolean
  constructor(options: Options | undefined, records = false) {
    this.options = options
    this.records = records
  }

  party(iban: string, name: string | undefined): Party {
    const key = name === undefined ? iban : `${iban}\u0000${name}`
    let p = this.parties.get(key)
    if (p === undefined) {
      p = name === undefined ? { iban } : { iban, name }
      this.parties.set(key, p)
    }
    return p
  }

  currency(c: string): string {
    let shared = this.currencies.get(c)
    if (shared === undefined) {
      shared = c
      this.currencies.set(c, c)
    }
    return shared
  }

  /**
   * A record (its parsed JSON) at `position` (from 1) read as its items: one, but for a whole record of another
   * source (a COBS page's item, a UK order, a YNAB or Actual schedule, …), which may be several orders (a UK order's
   * own first or final amount).
   */
  readAll(value: unknown, position: number, account?: unknown): ReadonlyArray<Item> {
    const forced = this.options?.standard
    const whole = Whole.wholeSource(value, forced)
    if (whole === undefined) {
      const read = this.read(value, position)
      return isItem(read) ? [read] : read
    }
    return Whole.items(value, whole, position, {
      standard: forced,
      convention: this.options?.convention,
      accounts: this.options?.accounts,
      listedOn: this.options?.listedOn,
      account
    })
  }

  /** A record (its parsed JSON) at `position` (from 1) read as an item (several for an RRULE with RDATEs). */
  read(value: unknown, position: number): Item | ReadonlyArray<Item> {
    const record = Json.isNumberText(value) ? Number(value.text) : value
    const standard = standardOf(record, this.options?.standard)
    if (standard === undefined || typeof standard !== "string" || standard === "sbas") {
      const spelt = bankCodeSpelt(record)
      const r = decodeBank(spelt === undefined ? record : { ...(record as object), frequency: spelt.code }, {
        errors: "all"
      })
      if (Result.isFailure(r)) return this.unreadRecord(record, position, r.failure.issue)
      const order = r.success
      if (standard !== undefined && typeof standard !== "string") {
        return unread("schedule", position, order.orderId, "", standard.reason, undefined)
      }
      // no anchor (packages/core/README.md, "Anchor"): read, but it pays nothing; its recurrence is made when asked
      if (order.startDate === undefined && order.nextDate === undefined) {
        return { _tag: "Skipped", position, orderId: order.orderId, reason: NO_ANCHOR, order, field: "startDate" }
      }
      // its end before its anchor: read whole, but no payment is ever due (not silently dropped); the bank's list
      // keeps the record as listed beside the reason
      if (order.endDate !== undefined && order.endDate < (order.startDate ?? order.nextDate)!) {
        const anchor = order.startDate === undefined ? "nextDate" : "startDate"
        const reason = `endDate ${LocalDate.format(order.endDate)} is before ${anchor} ${LocalDate.format((order.startDate ?? order.nextDate)!)}: the order never pays`
        const s = skipped(position, order.orderId, reason)
        return this.records ? { ...s, order, field: "endDate" } : s
      }
      if (this.records) {
        return new RecordedOrder(this.parts(order, position), order, this.options, spelt?.warning)
      }
      const parts = this.parts(order, position)
      return spelt === undefined
        ? new CodedOrder(parts, order.frequency, this.options)
        : new TolerantCodedOrder(parts, order.frequency, this.options, spelt.warning)
    }
    const r = decodeParties(record, { errors: "all" })
    if (Result.isFailure(r)) return this.unreadRecord(record, position, r.failure.issue)
    return this.otherStandard(r.success, record, standard, position)
  }

  private unreadRecord(record: unknown, position: number, issue: Parameters<typeof Records.describeIssue>[0]): Unread {
    const { path, message } = Records.describeIssue(issue)
    return unread("record", position, Records.orderIdOf(record), path, message, undefined)
  }

  private parts(order: Parties, position: number): Parts {
    const { debtor, creditor, instructedAmount } = order
    return {
      position,
      orderId: order.orderId,
      startDate: order.startDate,
      nextDate: order.nextDate,
      endDate: order.endDate,
      instructedAmount: { value: instructedAmount.value, currency: this.currency(instructedAmount.currency) },
      debtor: this.party(debtor.iban, debtor.name),
      creditor: this.party(creditor.iban, creditor.name)
    }
  }

  /**
   * An order of another standard with its recurrence through `Standard.decode`, or unread when its schedule cannot
   * be said: counted from its `startDate` (else `nextDate`) where the standard names no first date, ended by its
   * `endDate` too; each tolerance and each loss a warning.
   */
  private otherStandard(
    order: Parties,
    record: unknown,
    standard: Exclude<Standard.Standard, "sbas">,
    position: number
  ): Item | ReadonlyArray<Item> {
    if (standard === "rrule" && !(isObject(record) && typeof record.rrule === "string")) {
      return unread("schedule", position, order.orderId, "rrule", "the record has no rrule text", standard)
    }
    const decoded = Standard.decode(record, {
      standard,
      start: order.startDate ?? order.nextDate,
      convention: this.options?.convention
    })
    const t = decoded.translation
    if (t._tag === "Unrepresentable") return unread("schedule", position, order.orderId, "", t.reason, standard)
    const warnings: Array<Warning> = []
    for (const w of decoded.warnings) warnings.push({ _tag: "Tolerated", standard, ...w })
    if (t._tag === "Lossy") for (const l of t.losses) warnings.push({ _tag: "Lost", standard, ...l })
    const r = t.value
    const end = order.endDate !== undefined && (r.end === undefined || order.endDate < r.end) ? order.endDate : r.end
    const recurrence = end === undefined || end === r.end ? r : { ...r, end }
    // an RRULE's RDATEs are payments too (RFC 5545): each an order of one payment, the same orderId and position
    const added =
      standard === "rrule" ? rdatesOf(String((record as { rrule: string }).rrule), recurrence, order.endDate) : []
    const never = Standards.neverPays(recurrence)
    if (never !== undefined && added.length === 0) return skipped(position, order.orderId, `${standard}: ${never}`)
    const fields = {
      _tag: "Order",
      ...this.parts(order, position),
      standard,
      ownConvention: decoded.ownConvention,
      warnings: warnings.length === 0 ? EMPTY : warnings
    } as const
    const main: Order | undefined = never === undefined ? { ...fields, recurrence } : undefined
    if (added.length === 0) return main!
    const { count: _c, pauses: _p, end: _e, ...kept } = recurrence
    const once = added.map(
      (date): Order => ({
        ...fields,
        recurrence: { ...kept, rule: { _tag: "EveryDays", interval: 1 }, start: date, end: date }
      })
    )
    return main === undefined ? once : [main, ...once]
  }
}

const isItem = (x: Item | ReadonlyArray<Item>): x is Item => !Array.isArray(x)

/**
 * The `RDATE`s of an RRULE text that are payments of their own: not an `EXDATE`, not a date the rule pays already
 * (RFC 5545: a date of the set counts once), not after the record's `endDate` (the rule's UNTIL bounds the rule only).
 */
const rdatesOf = (
  text: string,
  r: Recurrence.Recurrence,
  endDate: LocalDate.LocalDate | undefined
): ReadonlyArray<LocalDate.LocalDate> => {
  const parsed = Rrule.parse(text, r.start)
  if (Result.isFailure(parsed)) return []
  const { rdates, exdates } = parsed.success.rrule
  if (rdates === undefined) return []
  const plan = Occurrence.planOf({ ...r, convention: "none" })
  return rdates.filter((d) => {
    if (exdates?.includes(d) === true || (endDate !== undefined && d > endDate)) return false
    if (Result.isFailure(plan)) return true
    const first = Occurrence.iterate(plan.success, d).next()
    return first.done === true || first.value.nominal !== d
  })
}

/** A record read whole that yields no payment, with the reason. */
const skipped = (position: number, orderId: string, reason: string): Skipped => ({
  _tag: "Skipped",
  position,
  orderId,
  reason
})

/** The fields every order has, whatever its standard. */
type Parts = Omit<Order, "_tag" | "standard" | "recurrence" | "ownConvention" | "warnings" | "creditor"> & {
  readonly creditor: Party
}

const unread = (
  kind: Unread["kind"],
  position: number | undefined,
  orderId: string | undefined,
  path: string,
  reason: string,
  standard: Standard.Standard | undefined
): Unread => ({ _tag: "Unread", kind, position, orderId, path, reason, standard })

/** The reading's options with another convention, one object per reading and convention. */
const conventionOptions = new WeakMap<object, Map<string, Options>>()
const NO_OPTIONS = {}
const withOptionsConvention = (
  options: Options | undefined,
  convention: BusinessDayConvention.BusinessDayConvention
): Options => {
  const key = options ?? NO_OPTIONS
  let byConvention = conventionOptions.get(key)
  if (byConvention === undefined) {
    byConvention = new Map()
    conventionOptions.set(key, byConvention)
  }
  let moved = byConvention.get(convention)
  if (moved === undefined) {
    moved = { ...options, convention }
    byConvention.set(convention, moved)
  }
  return moved
}

/**
 * An order of the bank's own standard: its code (unseen but by its recurrence, `Recurrence.code`) and dates, its
 * recurrence made from them when asked (so that a million orders do not each hold one).
 */
class CodedOrder implements Order {
  readonly position: number
  readonly orderId: string
  readonly startDate: LocalDate.LocalDate | undefined
  readonly nextDate: LocalDate.LocalDate | undefined
  readonly endDate: LocalDate.LocalDate | undefined
  readonly instructedAmount: Order["instructedAmount"]
  readonly debtor: Party
  readonly creditor: Party
  readonly #code: Frequency.Frequency
  /** The reading's options (one object shared by every order of a reading). */
  readonly #options: Options | undefined
  constructor(parts: Parts, code: Frequency.Frequency, options: Options | undefined) {
    this.position = parts.position
    this.orderId = parts.orderId
    this.startDate = parts.startDate
    this.nextDate = parts.nextDate
    this.endDate = parts.endDate
    this.instructedAmount = parts.instructedAmount
    this.debtor = parts.debtor
    this.creditor = parts.creditor
    this.#code = code
    this.#options = options
  }
  static code(o: CodedOrder): Frequency.Frequency {
    return o.#code
  }
  static options(o: CodedOrder): Options | undefined {
    return o.#options
  }
  // what every such order says alike lives on the prototype, not in each of a million orders
  get _tag(): "Order" {
    return "Order"
  }
  get standard(): "sbas" {
    return "sbas"
  }
  get warnings(): ReadonlyArray<Warning> {
    return EMPTY
  }
  /** DAIL and DAI7 fix their convention: they are never moved. */
  get ownConvention(): boolean {
    return this.#code === "DAIL" || this.#code === "DAI7"
  }
  get recurrence(): Recurrence.Recurrence {
    const { startDate, nextDate, endDate } = this
    return Result.getOrThrow(
      Recurrence.fromSbas(
        { frequency: this.#code, startDate, nextDate, endDate },
        { convention: this.#options?.convention }
      )
    )
  }
  /** The convention its recurrence has (without making it). */
  get convention(): BusinessDayConvention.BusinessDayConvention {
    return this.ownConvention ? "none" : (this.#options?.convention ?? BusinessDayConvention.defaultConvention)
  }
  /** An order of the same kind with these parts and options. */
  protected make(parts: Parts, options: Options | undefined): CodedOrder {
    return new CodedOrder(parts, this.#code, options)
  }
  /** The same order moved by another convention (its code kept). */
  moved(convention: BusinessDayConvention.BusinessDayConvention): CodedOrder {
    return this.make(this, withOptionsConvention(this.#options, convention))
  }
  /** The same order under another orderId. */
  renamed(orderId: string): CodedOrder {
    return this.make({ ...this, orderId }, this.#options)
  }
}

/** An order of the bank's own standard read with a tolerance (its code spelt in lower case): the warning said. */
class TolerantCodedOrder extends CodedOrder {
  readonly tolerated: ReadonlyArray<Warning>
  constructor(parts: Parts, code: Frequency.Frequency, options: Options | undefined, warning: Warning) {
    super(parts, code, options)
    this.tolerated = [warning]
  }
  override get warnings(): ReadonlyArray<Warning> {
    return this.tolerated
  }
  protected override make(parts: Parts, options: Options | undefined): CodedOrder {
    return new TolerantCodedOrder(parts, CodedOrder.code(this), options, this.tolerated[0]!)
  }
}

/**
 * An order of the bank's own standard that keeps its record whole (every field the bank listed), for the bank's list;
 * with the tolerance its reading raised, if any.
 */
class RecordedOrder extends CodedOrder {
  readonly record: StandingOrder.StandingOrder
  readonly tolerated: ReadonlyArray<Warning>
  constructor(parts: Parts, record: StandingOrder.StandingOrder, options: Options | undefined, warning?: Warning) {
    super(parts, record.frequency, options)
    this.record = record
    this.tolerated = warning === undefined ? EMPTY : [warning]
  }
  override get warnings(): ReadonlyArray<Warning> {
    return this.tolerated
  }
  protected override make(parts: Parts, options: Options | undefined): CodedOrder {
    return new RecordedOrder(parts, this.record, options, this.tolerated[0])
  }
}

// ---------------------------------------------------------------------------
// the decoder
// ---------------------------------------------------------------------------

/**
 * A list read piece by piece: `push` its text or UTF-8 bytes in pieces cut anywhere and take the items each piece
 * completes, then `end`. Memory holds one record's text and the items not yet taken, never the whole text.
 */
export interface Decoder {
  /** Reads the next piece and returns the items it completed, in position order (empty once the text failed). */
  readonly push: (piece: string | Uint8Array) => ReadonlyArray<Item>
  /** Whether the text is still possibly an orders list (`false` once known not to be: the rest need not be read). */
  readonly ok: () => boolean
  /** The rest of the items and what the list said, or why the text is not an orders list at all. */
  readonly end: () => Result.Result<Ending, NotAList>
}

/**
 * A decoder of an orders file or of the bank's list response (docs/bank-interface.md, "Standing-order list"): a bare
 * array of records or an object with a `standingOrders` array, read exactly (numbers from their source text), each
 * record read as soon as it is complete in the standard it says or reveals. Where the text is cut never changes the
 * items.
 */
export const decoder = (options?: Options): Decoder => makeDecoder(options, false)

/** The decoder; `bank`: the bank's list, its orders keeping their records, no other source's envelope read. */
const makeDecoder = (options: Options | undefined, bank: boolean): Decoder => {
  const reading = new Reading(options, bank)
  let out: Array<Item> = []
  let position = 0
  const reader = new OrdersText.Reader(
    {
      record: (read) => {
        position++
        if (read._tag === "Value") out.push(...reading.readAll(read.value, position))
        else {
          out.push(unread("record", position, Records.orderIdOf(read.value), read.path, read.message, undefined))
        }
      }
    },
    {
      maxRecordLength: options?.maxRecordLength ?? StandingOrder.MAX_RECORD_LENGTH,
      maxDepth: options?.maxDepth ?? 64
    }
  )
  const take = () => {
    if (out.length === 0) return EMPTY_ITEMS
    const items = out
    out = []
    return items
  }
  return {
    push: (piece) => {
      reader.push(piece)
      return take()
    },
    ok: () => reader.error === undefined,
    end: () => {
      const outcome = reader.end()
      if ("error" in outcome) return Result.fail(notAList(outcome.failure))
      const shape = outcome.shape
      // another source's list envelope (UK Data.StandingOrder, YNAB data.scheduled_transactions, Berlin Group
      // transactions.information) or one whole record given alone: its records read from the top-level values kept
      if (shape._tag === "Object" && shape.standingOrders === "absent" && !bank) {
        const document = Object.fromEntries(shape.members)
        const env = SourceRecord.envelope(document)
        const records =
          env.kind !== "record"
            ? env.records
            : Whole.wholeSource(document, options?.standard) === undefined
              ? undefined
              : [document]
        if (records !== undefined) {
          for (const record of records) out.push(...reading.readAll(record, ++position, env.account))
          const list = shape.problems.map((p) => unread("list", undefined, undefined, p.path, p.message, undefined))
          return Result.succeed({
            pageCount: undefined,
            listMissing: false,
            keys: shape.keys,
            items: [...list, ...take()]
          })
        }
      }
      if (shape._tag === "Object" && shape.standingOrders === "absent" && options?.body !== true) {
        return Result.fail(notAList(OrdersText.notAList))
      }
      if (shape._tag === "Object" && shape.standingOrders === "other") {
        return Result.fail(notAList(OrdersText.notAnArray))
      }
      const list: Array<Item> = []
      let pageCount: number | undefined
      if (shape._tag === "Object") {
        // a malformed pageCount first, as StandingOrder.decodeListLenient reports it, then the list's own problems
        const page = StandingOrder.decodeListLenient({ pageCount: shape.pageCount, standingOrders: [] })
        if (Result.isSuccess(page)) {
          pageCount = page.success.pageCount
          for (const e of page.success.errors)
            list.push(unread("list", undefined, undefined, e.path, e.message, undefined))
        }
        for (const p of shape.problems) list.push(unread("list", undefined, undefined, p.path, p.message, undefined))
      }
      return Result.succeed({
        pageCount,
        listMissing: shape._tag === "Object" && (shape.standingOrders === "absent" || shape.standingOrders === "null"),
        keys: shape._tag === "Object" ? shape.keys : [],
        items: [...list, ...take()]
      })
    }
  }
}

const EMPTY_ITEMS: ReadonlyArray<Item> = Object.freeze([])

/** A whole list read at once: its items sorted by kind, and what the list said. */
export interface List {
  readonly orders: Array<Order>
  /** The problems of the list itself first, then the unread records in position order. */
  readonly unread: Array<Unread>
  readonly skipped: Array<Skipped>
  readonly pageCount: number | undefined
  readonly listMissing: boolean
  readonly keys: ReadonlyArray<string>
}

/** Items sorted into their kinds, in order. */
export const collect = (items: Iterable<Item>, ending: Omit<Ending, "items">): List => {
  const orders: Array<Order> = []
  const list: Array<Unread> = []
  const records: Array<Unread> = []
  const skipped: Array<Skipped> = []
  for (const item of items) {
    if (item._tag === "Order") orders.push(item)
    else if (item._tag === "Skipped") skipped.push(item)
    else if (item.kind === "list") list.push(item)
    else records.push(item)
  }
  return {
    orders,
    unread: list.length === 0 ? records : [...list, ...records],
    skipped,
    pageCount: ending.pageCount,
    listMissing: ending.listMissing,
    keys: ending.keys
  }
}

/**
 * A whole orders file or list body (text or UTF-8 bytes) read at once: the same items as pushing it in pieces, or
 * why it is not an orders list.
 */
export const decode = (text: string | Uint8Array, options?: Options): Result.Result<List, NotAList> => {
  const d = decoder(options)
  const items = [...d.push(text)]
  return Result.map(d.end(), (ending) => collect([...items, ...ending.items], ending))
}

/** Options of {@link decodeBankList}. */
export interface BankListOptions {
  /**
   * A list response body (docs/bank-interface.md, "Standing-order list": `standingOrders` may be absent or `null`, an
   * empty page); default an orders file (a bare array, or an object with `standingOrders`).
   */
  readonly body?: boolean | undefined
  /** The deepest nesting inside a record (default 64). */
  readonly maxDepth?: number | undefined
  /** The longest record read, in characters (default `StandingOrder.MAX_RECORD_LENGTH`). */
  readonly maxRecordLength?: number | undefined
}

/**
 * The bank's list (a page of the list response, the whole list, or the text of a kept page) read through this
 * decoder, in the bank's standard, as the bank's records whole (every field it lists, for the client and the fleet to
 * keep and print as received): the orders, one error per record that cannot be read (its index in the list, from 0;
 * the list's own problems first, index −1), one warning per record kept although out of the bank's format
 * (`StandingOrder.formatWarning`) or read with a tolerance (a code in lower case). A record that pays nothing (no
 * `startDate` and `nextDate`, an `endDate` before them) is listed as the bank gave it and is in `skipped` with its
 * reason (packages/core/README.md, "Anchor"; the projection skips it).
 * Another source's envelope is no list of the bank's. Fails with {@link NotAList} as {@link decode} does.
 */
export const decodeBankList = (
  text: string | Uint8Array,
  options?: BankListOptions
): Result.Result<StandingOrder.Decoded, NotAList> => {
  const d = makeDecoder(
    {
      standard: "sbas",
      body: options?.body,
      maxDepth: options?.maxDepth,
      maxRecordLength: options?.maxRecordLength
    },
    true
  )
  const items = d.push(text)
  const ending = d.end()
  if (Result.isFailure(ending)) return Result.fail(ending.failure)
  const orders: Array<StandingOrder.StandingOrder> = []
  const list: Array<StandingOrder.RecordError> = []
  const errors: Array<StandingOrder.RecordError> = []
  const warnings: Array<StandingOrder.RecordError> = []
  const skippedRecords: Array<StandingOrder.RecordError> = []
  const kept = (record: StandingOrder.StandingOrder, position: number, tolerated: ReadonlyArray<Warning>) => {
    orders.push(record)
    for (const w of tolerated) {
      if (w._tag !== "Tolerated") continue
      const read = w.read === w.received ? "is read as given" : `is read as ${JSON.stringify(w.read)}`
      const message = `${JSON.stringify(w.received)} ${read}, because ${w.why}`
      warnings.push({ index: position - 1, orderId: record.orderId, path: w.field, message })
    }
    const warning = StandingOrder.formatWarning(record)
    if (warning !== undefined) warnings.push({ index: position - 1, orderId: record.orderId, ...warning })
  }
  for (const item of [...items, ...ending.success.items]) {
    if (item._tag === "Order") {
      if (item instanceof RecordedOrder) kept(item.record, item.position, item.warnings)
    } else if (item._tag === "Skipped") {
      if (item.order !== undefined) {
        kept(item.order, item.position, EMPTY)
        skippedRecords.push({
          index: item.position - 1,
          orderId: item.orderId,
          path: item.field ?? "",
          message: item.reason
        })
      }
    } else if (item.position === undefined) {
      list.push({ index: -1, orderId: undefined, path: item.path, message: item.reason })
    } else {
      errors.push({ index: item.position - 1, orderId: item.orderId, path: item.path, message: item.reason })
    }
  }
  const { pageCount, listMissing, keys } = ending.success
  return Result.succeed({
    pageCount,
    orders,
    errors: list.length === 0 ? errors : [...list, ...errors],
    warnings,
    skipped: skippedRecords,
    listMissing,
    keys
  })
}

/**
 * A stream of text or bytes read as a stream of items, each as soon as its record is complete; the problems of the
 * list itself come last (they are known at the end). Fails with {@link NotAList} when the text is not an orders list,
 * as soon as that is known (the rest is not read).
 */
export const stream = <E, R>(
  pieces: Stream.Stream<string | Uint8Array, E, R>,
  options?: Options
): Stream.Stream<Item, E | NotAList, R> =>
  Stream.suspend(() => {
    const d = decoder(options)
    const read = pieces.pipe(
      Stream.takeWhile(() => d.ok()),
      Stream.flatMap((piece) => Stream.fromIterable<Item>(d.push(piece)))
    )
    const rest = Stream.unwrap(
      Effect.sync(() => {
        const ending = d.end()
        return Result.isFailure(ending) ? Stream.fail(ending.failure) : Stream.fromIterable<Item>(ending.success.items)
      })
    )
    return Stream.concat(read, rest)
  })

// ---------------------------------------------------------------------------
// using orders
// ---------------------------------------------------------------------------

/**
 * The order moved by `convention` where its record leaves the convention to the bank (the bank's codes but DAIL and
 * DAI7, a recurrence read from an RRULE, …): its recurrence with that convention (a bank code's keeps its code,
 * `Recurrence.withConvention`); one that states or fixes its own (`ownConvention`), or has it already, unchanged.
 */
export const withConvention = <A extends Pick<Order, "recurrence" | "ownConvention">>(
  order: A,
  convention: BusinessDayConvention.BusinessDayConvention
): A => {
  if (order.ownConvention) return order
  if (order instanceof CodedOrder) {
    return (order.convention === convention ? order : order.moved(convention)) as unknown as A
  }
  const r = order.recurrence
  return r.convention === convention ? order : { ...order, recurrence: Recurrence.withConvention(r, convention) }
}

/**
 * The order under another orderId (`ID#N`, {@link keys}), everything else kept: an order of the bank's own standard
 * stays one (a spread `{ ...order }` of it keeps its fields but not its recurrence, made when asked).
 */
export const withOrderId = <A extends { readonly orderId: string }>(order: A, orderId: string): A =>
  order instanceof CodedOrder ? (order.renamed(orderId) as unknown as A) : { ...order, orderId }

// ---------------------------------------------------------------------------
// repeated orderIds
// ---------------------------------------------------------------------------

/** An orderId given by more than one record, with the records' positions (from 1, ascending). */
export interface Repeated {
  readonly orderId: string
  readonly positions: ReadonlyArray<number>
}

/**
 * The orderIds that more than one record gives, each with its records' positions, in the order first given. Orders
 * read from one record (a UK order's own first or final payment) share its position and are one record; an order
 * without a position (the bank's anchorless record as read) is a record of its own.
 */
export const repeated = (
  orders: Iterable<{ readonly orderId: string; readonly position?: number | undefined }>
): Array<Repeated> => {
  const seen = new Map<string, Array<number | undefined>>()
  let any = false
  for (const o of orders) {
    const positions = seen.get(o.orderId)
    if (positions === undefined) seen.set(o.orderId, [o.position])
    else if (o.position === undefined || !positions.includes(o.position)) {
      positions.push(o.position)
      any = true
    }
  }
  const out: Array<Repeated> = []
  if (!any) return out
  for (const [orderId, positions] of seen) {
    if (positions.length > 1) out.push({ orderId, positions: positions.map((p) => p ?? 0) })
  }
  return out
}

/**
 * The key of an order among others that may repeat its orderId: the orderId itself when no other record gives it,
 * else `ID#N` for the N-th record (from 1, in position order) that gives it — the name `--order`, a forecast's
 * scenario and the fleet's checks use for it.
 */
export const keys = <A extends { readonly orderId: string; readonly position?: number | undefined }>(
  orders: ReadonlyArray<A>
): Array<string> => {
  const repeats = repeated(orders)
  if (repeats.length === 0) return orders.map((o) => o.orderId)
  const numbered = new Map<string, ReadonlyArray<number>>()
  for (const r of repeats) numbered.set(r.orderId, r.positions)
  let unpositioned = 0
  return orders.map((o) => {
    const positions = numbered.get(o.orderId)
    if (positions === undefined) return o.orderId
    const n = o.position === undefined ? ++unpositioned : positions.indexOf(o.position) + 1
    return `${o.orderId}#${n}`
  })
}

/**
 * The order a name picks (`--order`): the one record with that orderId, or `ID#N`, the N-th record (from 1) with
 * orderId `ID`; `Ambiguous` with the records' positions when several records give the orderId.
 */
export const pick = <A extends { readonly orderId: string; readonly position?: number | undefined }>(
  orders: ReadonlyArray<A>,
  name: string
):
  | { readonly _tag: "Found"; readonly order: A }
  | { readonly _tag: "Ambiguous"; readonly positions: ReadonlyArray<number> }
  | { readonly _tag: "None" } => {
  const records = (id: string): Array<A> => {
    const out: Array<A> = []
    for (const o of orders) {
      if (o.orderId !== id) continue
      if (o.position !== undefined && out.some((x) => x.position === o.position)) continue
      out.push(o)
    }
    return out
  }
  const exact = records(name)
  if (exact.length === 1) return { _tag: "Found", order: exact[0]! }
  if (exact.length > 1) return { _tag: "Ambiguous", positions: exact.map((o) => o.position ?? 0) }
  const hash = name.lastIndexOf("#")
  const n = hash < 0 ? Number.NaN : Number(name.slice(hash + 1))
  if (Number.isSafeInteger(n) && n >= 1 && String(n) === name.slice(hash + 1)) {
    const numbered = records(name.slice(0, hash))
    if (numbered.length >= n) return { _tag: "Found", order: numbered[n - 1]! }
  }
  return { _tag: "None" }
}
