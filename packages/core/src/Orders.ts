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
import type * as BusinessDayConvention from "./BusinessDayConvention.ts"
import type * as Decoded from "./Decoded.ts"
import * as OrderKeys from "./internal/orderKeys.ts"
import * as Reading from "./internal/orderReading.ts"
import type * as OrdersText from "./internal/ordersText.ts"
import type * as LocalDate from "./LocalDate.ts"
import * as Recurrence from "./Recurrence.ts"
import type * as SourceRecord from "./SourceRecord.ts"
import type * as Standard from "./Standard.ts"
import type * as StandingOrder from "./StandingOrder.ts"
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
export const decoder = (options?: Options): Decoder => {
  const d = Reading.makeDecoder(options, false)
  return { push: d.push, ok: d.ok, end: () => Result.mapError(d.end(), notAList) }
}

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
): Result.Result<StandingOrder.Decoded, NotAList> => Result.mapError(Reading.bankList(text, options), notAList)

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
  const coded = Reading.movedCoded(order, convention)
  if (coded !== undefined) return coded as unknown as A
  const r = order.recurrence
  return r.convention === convention ? order : { ...order, recurrence: Recurrence.withConvention(r, convention) }
}

/**
 * The order under another orderId (`ID#N`, {@link keys}), everything else kept: an order of the bank's own standard
 * stays one (a spread `{ ...order }` of it keeps its fields but not its recurrence, made when asked).
 */
export const withOrderId = <A extends { readonly orderId: string }>(order: A, orderId: string): A =>
  (Reading.renamedCoded(order, orderId) as A | undefined) ?? { ...order, orderId }

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
export const repeated: (
  orders: Iterable<{ readonly orderId: string; readonly position?: number | undefined }>
) => Array<Repeated> = OrderKeys.repeated

/**
 * The key of an order among others that may repeat its orderId: the orderId itself when no other record gives it,
 * else `ID#N` for the N-th record (from 1, in position order) that gives it — the name `--order`, a forecast's
 * scenario and the fleet's checks use for it.
 */
export const keys: <A extends { readonly orderId: string; readonly position?: number | undefined }>(
  orders: ReadonlyArray<A>
) => Array<string> = OrderKeys.keys

/**
 * The order a name picks (`--order`): the one record with that orderId, or `ID#N`, the N-th record (from 1) with
 * orderId `ID`; `Ambiguous` with the records' positions when several records give the orderId.
 */
export const pick: <A extends { readonly orderId: string; readonly position?: number | undefined }>(
  orders: ReadonlyArray<A>,
  name: string
) =>
  | { readonly _tag: "Found"; readonly order: A }
  | { readonly _tag: "Ambiguous"; readonly positions: ReadonlyArray<number> }
  | { readonly _tag: "None" } = OrderKeys.pick
