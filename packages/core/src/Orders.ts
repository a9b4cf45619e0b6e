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
import { Effect, Result, Schema, Stream } from "effect"
import type * as BusinessDayConvention from "./BusinessDayConvention.ts"
import * as Decoded from "./Decoded.ts"
import * as OrderKeys from "./internal/orderKeys.ts"
import * as Reading from "./internal/orderReading.ts"
import type * as OrdersText from "./internal/ordersText.ts"
import type {
  BankListOptions,
  Ending,
  Item,
  Options,
  Order,
  Repeated,
  Skipped,
  Unread,
  Warning
} from "./internal/orderTypes.ts"
import type * as LocalDate from "./LocalDate.ts"
import * as Occurrence from "./Occurrence.ts"
import * as Recurrence from "./Recurrence.ts"
import * as Sbas from "./Sbas.ts"
import * as SourceRecord from "./SourceRecord.ts"
import * as Standard from "./Standard.ts"
import type * as StandingOrder from "./StandingOrder.ts"
import * as Translation from "./Translation.ts"

export type {
  BankListOptions,
  Creditor,
  Ending,
  Item,
  Options,
  Order,
  Party,
  Repeated,
  Skipped,
  Unread,
  Warning
} from "./internal/orderTypes.ts"

// ---------------------------------------------------------------------------
// model
// ---------------------------------------------------------------------------

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

/** A whole list read at once: its items sorted by kind ({@link Gathered}'s order), and what the list said. */
export interface List {
  readonly orders: Array<Order>
  /**
   * The problems of the list itself first, then the records that are no order of their standard, then those whose
   * schedule cannot be said, each kind in position order.
   */
  readonly unread: Array<Unread>
  /** The records read that pay nothing, the bank's records read whole without an anchor among them. */
  readonly skipped: Array<Skipped>
  readonly pageCount: number | undefined
  readonly listMissing: boolean
  readonly keys: ReadonlyArray<string>
}

/**
 * The items of a list sorted into what a command or a projection uses, as {@link gatherer} and {@link gather} give
 * them: `orders` to project in position order, each bank record read whole without an anchor among them as read (the
 * projection lists it as skipped with its reason, packages/core/README.md, "Anchor"); `unread` the records not read,
 * the problems of the list itself first (`kind` `list`), then the records that are no order of their standard
 * (`record`), then those whose schedule cannot be said (`schedule`), each kind in position order; `skipped` the
 * records read whole that pay nothing and are no order to project (inactive, ended, a rule that reaches no date).
 */
export interface Gathered {
  readonly orders: Array<Order | StandingOrder.StandingOrder>
  readonly unread: Array<Unread>
  readonly skipped: Array<Skipped>
}

/** Items gathered as they come: `add` the items of each piece (in position order), then `done`. */
export interface Gatherer {
  readonly add: (items: Iterable<Item>) => void
  readonly done: () => Gathered
}

const sorter = (anchorless: "orders" | "skipped") => {
  const orders: Array<Order | StandingOrder.StandingOrder> = []
  const list: Array<Unread> = []
  const records: Array<Unread> = []
  const schedules: Array<Unread> = []
  const skipped: Array<Skipped> = []
  return {
    add: (items: Iterable<Item>): void => {
      for (const item of items) {
        if (item._tag === "Order") orders.push(item)
        else if (item._tag === "Skipped") {
          if (anchorless === "orders" && item.order !== undefined) orders.push(item.order)
          else skipped.push(item)
        } else (item.kind === "list" ? list : item.kind === "record" ? records : schedules).push(item)
      }
    },
    done: (): Gathered => ({
      orders,
      unread: list.length === 0 && schedules.length === 0 ? records : [...list, ...records, ...schedules],
      skipped
    })
  }
}

/** A {@link Gatherer}: the items of a list sorted as {@link Gathered} says, piece by piece. */
export const gatherer = (): Gatherer => sorter("orders")

/**
 * A stream of items ({@link stream}'s) gathered ({@link Gathered}); it fails as the stream fails. To keep the records
 * read before the text turned out to be no list, catch the stream's {@link NotAList} first.
 */
export const gather = <E, R>(items: Stream.Stream<Item, E, R>): Effect.Effect<Gathered, E, R> =>
  Effect.suspend(() => {
    const g = gatherer()
    return Stream.runForEachArray(items, (chunk) => Effect.sync(() => g.add(chunk))).pipe(Effect.map(g.done))
  })

/** Items sorted into their kinds ({@link Gathered}'s order, the anchorless records among `skipped`), and the ending. */
export const collect = (items: Iterable<Item>, ending: Omit<Ending, "items">): List => {
  const s = sorter("skipped")
  s.add(items)
  const { orders, unread, skipped } = s.done()
  return {
    orders: orders as Array<Order>,
    unread,
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
 * `Recurrence.withConvention`) and the warning naming the convention its record left unstated saying this one; one
 * that states or fixes its own (`ownConvention`), or has it already, unchanged.
 */
export const withConvention = <A extends Pick<Order, "recurrence" | "ownConvention">>(
  order: A,
  convention: BusinessDayConvention.BusinessDayConvention
): A => {
  if (order.ownConvention) return order
  const coded = Reading.movedCoded(order, convention)
  if (coded !== undefined) return coded as unknown as A
  const r = order.recurrence
  if (r.convention === convention) return order
  const moved = { ...order, recurrence: Recurrence.withConvention(r, convention) }
  // the warning that says which convention the record left unstated says the one it has now
  const warnings = (order as { readonly warnings?: ReadonlyArray<Warning> }).warnings
  return warnings === undefined ? moved : { ...moved, warnings: Reading.reconvened(order, warnings, convention) }
}

/**
 * Each order moved by `convention` ({@link withConvention}), in order: a value that is no `Order` (the bank's record
 * read whole without an anchor, for a projection to list) as it is, and the array itself when nothing moves.
 */
export const withConventions = <A>(
  orders: ReadonlyArray<A>,
  convention: BusinessDayConvention.BusinessDayConvention
): ReadonlyArray<A> => {
  let out: Array<A> | undefined
  for (let i = 0; i < orders.length; i++) {
    const o = orders[i]!
    const moved =
      (o as { _tag?: unknown })._tag === "Order" ? (withConvention(o as unknown as Order, convention) as A) : o
    if (moved !== o && out === undefined) out = orders.slice(0, i)
    out?.push(moved)
  }
  return out ?? orders
}

/**
 * The order under another orderId (`ID#N`, {@link keys}), everything else kept: an order of the bank's own standard
 * stays one (a spread `{ ...order }` of it keeps its fields but not its recurrence, made when asked).
 */
export const withOrderId = <A extends { readonly orderId: string }>(order: A, orderId: string): A =>
  (Reading.renamedCoded(order, orderId) as A | undefined) ?? { ...order, orderId }

/**
 * An order's recurrence as a translation to another standard reads it (`tppkit translate`): a bank code's read by
 * `Sbas.decode` with `convention` and the calendar's name, any other the recurrence read from its record with
 * `convention` where the record leaves it to the bank (`ownConvention` keeps its own); then, when `holidays` (the
 * bank's own closing days, which no standard's record says) move one of its payments, their loss
 * (`Standard.holidaysLoss`). Unrepresentable for the bank's record without an anchor.
 */
export const translation = (
  order: Occurrence.OrderSchedule & { readonly ownConvention?: boolean | undefined },
  options: {
    readonly convention: BusinessDayConvention.BusinessDayConvention
    readonly calendar?: string | undefined
    readonly holidays?: ReadonlyArray<LocalDate.LocalDate> | undefined
  }
): Translation.Translation<Recurrence.Recurrence> => {
  const code = Occurrence.codeOf(order)
  const source =
    code !== undefined
      ? Sbas.decode(
          { frequency: code, startDate: order.startDate, nextDate: order.nextDate, endDate: order.endDate },
          { convention: options.convention, calendar: options.calendar }
        )
      : order.recurrence === undefined
        ? Translation.unrepresentable("the order has neither a frequency nor a recurrence")
        : Translation.exact(
            order.ownConvention === true ? order.recurrence : { ...order.recurrence, convention: options.convention }
          )
  return source._tag === "Unrepresentable"
    ? source
    : Translation.addLoss(source, Standard.holidaysLoss(source.value, options.holidays ?? []))
}

/**
 * Whether an order counts from the day its list was read (`Options.listedOn`): a COBS list item names no start, and
 * its `Missing` warning of `requestedExecutionDate` says so (packages/core/README.md, "Other standards").
 */
export const countsFromListing = (order: Order): boolean =>
  order.warnings.some((w) => w._tag === "Missing" && w.field === "requestedExecutionDate")

// ---------------------------------------------------------------------------
// repeated orderIds
// ---------------------------------------------------------------------------

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
 * Each order under its key ({@link keys}): one of an orderId that several records give as `ID#N` ({@link withOrderId},
 * so that a forecast's scenario can name it and tells it from the others), the others as read; the array itself when
 * no orderId repeats.
 */
export const keyed = <A extends { readonly orderId: string; readonly position?: number | undefined }>(
  orders: ReadonlyArray<A>
): ReadonlyArray<A> => {
  const named = keys(orders)
  return named.every((k, i) => k === orders[i]!.orderId)
    ? orders
    : orders.map((o, i) => (named[i] === o.orderId ? o : withOrderId(o, named[i]!)))
}

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

/**
 * A warning of an order's reading in words, as the commands and the fleet say it: `STANDARD: tolerated: …`
 * (`Decoded.describe`), `STANDARD: …` for a field missing (`SourceRecord.describeMissing`), `STANDARD: lossy: …`
 * (`Translation.describe`).
 */
export const describeWarning = (w: Warning): string =>
  w._tag === "Tolerated"
    ? `${w.standard}: tolerated: ${Decoded.describe(w)}`
    : w._tag === "Missing"
      ? `${w.standard}: ${SourceRecord.describeMissing(w)}`
      : `${w.standard}: lossy: ${Translation.describe(w)}`

/**
 * The group a warning falls in, to say the warnings of many records once each with a count: its kind, standard,
 * field and why (a missing field's consequence), whatever the text received.
 */
export const warningGroup = (w: Warning): string =>
  `${w._tag}\u0000${w.standard}\u0000${w.field}\u0000${w._tag === "Missing" ? w.consequence : w.why}`
