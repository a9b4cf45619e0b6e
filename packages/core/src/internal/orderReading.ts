/**
 * The engine of `Orders` (its public module holds the types and documents the functions): each record read into an
 * item in the standard it says or reveals (the bank's `StandingOrder` schema for who pays what, `Standard.decode` for
 * another standard's schedule, `internal/records/orders.ts` for a whole record of another source), the bank's own
 * orders as {@link CodedOrder}s whose recurrence is made when asked, and the decoder over `internal/ordersText.ts`.
 */
import { Result, Schema } from "effect"
import * as BusinessDayConvention from "../BusinessDayConvention.ts"
import * as Frequency from "../Frequency.ts"
import * as Json from "../Json.ts"
import * as LocalDate from "../LocalDate.ts"
import * as Occurrence from "../Occurrence.ts"
import * as Recurrence from "../Recurrence.ts"
import * as Rrule from "../Rrule.ts"
import * as SourceRecord from "../SourceRecord.ts"
import * as Standard from "../Standard.ts"
import * as StandingOrder from "../StandingOrder.ts"
import * as OrdersText from "./ordersText.ts"
import type { BankListOptions, Ending, Item, Options, Order, Party, Skipped, Unread, Warning } from "./orderTypes.ts"
import * as Whole from "./records/orders.ts"
import * as Records from "./records.ts"
import * as Standards from "./standards.ts"

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

/** The fields the bank's record names (docs/bank-interface.md), nested ones under their parent, and `standard`. */
const BANK_FIELDS = new Set(Object.keys(StandingOrder.StandingOrder.fields).concat("standard"))
const BANK_NESTED: Readonly<Record<string, ReadonlySet<string>>> = {
  debtor: new Set(Object.keys(StandingOrder.Debtor.fields)),
  creditor: new Set(Object.keys(StandingOrder.Creditor.fields)),
  instructedAmount: new Set(Object.keys(StandingOrder.InstructedAmount.fields))
}

/** Why a field the bank's record does not name is a loss (one wording for every such field, so they group). */
const NOT_A_BANK_FIELD = "the bank's standing order (docs/bank-interface.md) has no such field: it is not used"

/**
 * The fields of the bank's record its schema does not name (`memo`, `creditor.bic`), each a loss naming it: not read,
 * not kept (a field given `null` says nothing and is passed over).
 */
export const unnamedFields = (record: unknown): ReadonlyArray<Warning> => {
  if (!isObject(record)) return EMPTY
  let out: Array<Warning> | undefined
  const lost = (field: string, value: unknown) => {
    out ??= []
    out.push({
      _tag: "Lost",
      standard: "sbas",
      field,
      from: Standards.show(value),
      to: "not read",
      why: NOT_A_BANK_FIELD
    })
  }
  for (const k in record) {
    const v = record[k]
    if (v === null || v === undefined) continue
    if (!BANK_FIELDS.has(k)) lost(k, v)
    else {
      const nested = BANK_NESTED[k]
      if (nested === undefined || !isObject(v)) continue
      for (const n in v) if (!nested.has(n) && v[n] !== null && v[n] !== undefined) lost(`${k}.${n}`, v[n])
    }
  }
  return out ?? EMPTY
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
export class Reading {
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
      const unnamed = unnamedFields(record)
      const said = spelt === undefined ? unnamed : [spelt.warning, ...unnamed]
      if (this.records) return new RecordedOrder(this.parts(order, position), order, this.options, said)
      const parts = this.parts(order, position)
      return said.length === 0
        ? new CodedOrder(parts, order.frequency, this.options)
        : new TolerantCodedOrder(parts, order.frequency, this.options, said)
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
    // an RRULE's dates are the dates; a reader given a convention moves them by it, as every record's that leaves it
    const given = this.options?.convention
    const r =
      standard === "rrule" && given !== undefined && !decoded.ownConvention && t.value.convention !== given
        ? Recurrence.withConvention(t.value, given)
        : t.value
    const end = order.endDate !== undefined && (r.end === undefined || order.endDate < r.end) ? order.endDate : r.end
    const recurrence = end === undefined || end === r.end ? r : { ...r, end }
    // an RRULE's RDATEs are payments too (RFC 5545): each an order of one payment, the same orderId and position
    const added =
      standard === "rrule" ? rdatesOf(String((record as { rrule: string }).rrule), recurrence, order.endDate) : []
    const never = Standards.neverPays(recurrence)
    if (never !== undefined && added.length === 0) return skipped(position, order.orderId, `${standard}: ${never}`)
    // the business-day convention the record leaves unstated: the reader's, said
    const unstated = Standards.conventionUnstated(standard, decoded.ownConvention, recurrence.convention)
    if (unstated !== undefined) warnings.push({ _tag: "Lost", standard, ...unstated })
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

/**
 * An order of the bank's own standard read with warnings (its code spelt in lower case, a field its schema does not
 * name): the warnings said.
 */
class TolerantCodedOrder extends CodedOrder {
  readonly tolerated: ReadonlyArray<Warning>
  constructor(parts: Parts, code: Frequency.Frequency, options: Options | undefined, warnings: ReadonlyArray<Warning>) {
    super(parts, code, options)
    this.tolerated = warnings
  }
  override get warnings(): ReadonlyArray<Warning> {
    return this.tolerated
  }
  protected override make(parts: Parts, options: Options | undefined): CodedOrder {
    return new TolerantCodedOrder(parts, CodedOrder.code(this), options, this.tolerated)
  }
}

/**
 * An order of the bank's own standard that keeps its record whole (every field the bank listed), for the bank's list;
 * with the warnings its reading raised, if any.
 */
class RecordedOrder extends CodedOrder {
  readonly record: StandingOrder.StandingOrder
  readonly tolerated: ReadonlyArray<Warning>
  constructor(
    parts: Parts,
    record: StandingOrder.StandingOrder,
    options: Options | undefined,
    warnings: ReadonlyArray<Warning>
  ) {
    super(parts, record.frequency, options)
    this.record = record
    this.tolerated = warnings
  }
  override get warnings(): ReadonlyArray<Warning> {
    return this.tolerated
  }
  protected override make(parts: Parts, options: Options | undefined): CodedOrder {
    return new RecordedOrder(parts, this.record, options, this.tolerated)
  }
}

/**
 * An order's warnings with the convention its record left unstated now `convention` (`Orders.withConvention`): the
 * loss says the new one, or goes when an RRULE is left unmoved.
 */
export const reconvened = (
  order: object,
  warnings: ReadonlyArray<Warning>,
  convention: BusinessDayConvention.BusinessDayConvention
): ReadonlyArray<Warning> => {
  const { standard, ownConvention } = order as { readonly standard?: unknown; readonly ownConvention?: boolean }
  if (typeof standard !== "string") return warnings
  const loss = Standards.conventionUnstated(standard, ownConvention === true, convention)
  const now: ReadonlyArray<Warning> =
    loss === undefined ? [] : [{ _tag: "Lost", standard: standard as Standard.Standard, ...loss }]
  const at = warnings.findIndex((w) => w._tag === "Lost" && Standards.isConventionUnstated(w))
  if (at < 0) return now.length === 0 ? warnings : [...warnings, ...now]
  return [...warnings.slice(0, at), ...now, ...warnings.slice(at + 1)]
}

/** The order moved by another convention, when it is the bank's own (its code kept); else `undefined`. */
export const movedCoded = (
  order: object,
  convention: BusinessDayConvention.BusinessDayConvention
): Order | undefined =>
  order instanceof CodedOrder ? (order.convention === convention ? order : order.moved(convention)) : undefined

/** The order under another orderId, when it is the bank's own; else `undefined`. */
export const renamedCoded = (order: object, orderId: string): Order | undefined =>
  order instanceof CodedOrder ? order.renamed(orderId) : undefined

// ---------------------------------------------------------------------------
// the decoder
// ---------------------------------------------------------------------------

/** The decoder's engine: `end` fails with the text's failure (the public decoder words it as `NotAList`). */
export interface Engine {
  readonly push: (piece: string | Uint8Array) => ReadonlyArray<Item>
  readonly ok: () => boolean
  readonly end: () => Result.Result<Ending, OrdersText.TextFailure>
}

/** The decoder; `bank`: the bank's list, its orders keeping their records, no other source's envelope read. */
export const makeDecoder = (options: Options | undefined, bank: boolean): Engine => {
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
      if ("error" in outcome) return Result.fail(outcome.failure)
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
        return Result.fail(OrdersText.notAList)
      }
      if (shape._tag === "Object" && shape.standingOrders === "other") {
        return Result.fail(OrdersText.notAnArray)
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

/** A listed record's field its schema does not name, as the bank list's warning says it. */
const NOT_READ = "is not a field of the bank's standing order: not read, not kept"

/** The bank's list read through the decoder in the bank's standard, its records whole (`Orders.decodeBankList`). */
export const bankList = (
  text: string | Uint8Array,
  options: BankListOptions | undefined
): Result.Result<StandingOrder.Decoded, OrdersText.TextFailure> => {
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
      if (w._tag === "Lost" && w.to === "not read") {
        // a field the schema does not name: one wording, without its value, so that a listing's are said together
        warnings.push({ index: position - 1, orderId: record.orderId, path: w.field, message: NOT_READ })
        continue
      }
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
