/**
 * Projection of many standing orders over a window of execution dates (packages/core/README.md, "Anchor",
 * "Already paid"): as an array, or lazily (day by day, as an iterator or a Stream) with memory that grows
 * with the number of orders, not the number of payments. Dates come from core's Occurrence engine; the
 * engine behind these functions is internal. Payments are plain data.
 *
 * @since 0.1.0
 */
import { LocalDate } from "@tppkit/core"
import { type Array as Arr, Cause, Effect, Result, Stream } from "effect"
import * as Columnar from "./internal/columnar.ts"
import * as Merge from "./internal/merge.ts"
import * as Plans from "./internal/plans.ts"
import * as Sort from "./internal/sort.ts"
import type * as Payment from "./Payment.ts"

/** What the projection reads from a standing order; core's `StandingOrder` satisfies it. */
export interface ProjectableOrder extends Plans.Order {}

/** A window of execution dates, both ends inclusive. */
export interface Window extends Plans.Window {}

/**
 * The calendar and business-day convention of the projection. `calendar` is one calendar for every order (default
 * `target`) or a function giving the calendar of a currency, e.g. `Holidays.byCurrency()` (each payment then moves
 * by its own currency's holidays; the function is called once per currency); `convention` defaults to `following`.
 */
export interface Options extends Plans.Options {}

/** An order left out of the projection, with the human reason. */
export interface Skipped extends Plans.Skipped {}

/** The result of a projection: the payments in order and the orders that could not be projected. */
export interface Projection {
  readonly payments: Array<Payment.Payment>
  readonly skipped: Array<Skipped>
}

/**
 * Projects orders over a window: exactly the occurrences whose execution date lies in `from..to` and not
 * before the order's `nextDate`, ordered by execution date, then orderId, then nominal date (equal ones in
 * input order); orders that cannot be projected are listed in `skipped` with their reason while the others are
 * projected.
 */
export const project = (orders: Iterable<ProjectableOrder>, window: Window, options?: Options): Projection => {
  const plans = Plans.plan(orders, window, options)
  const { payments, columns } = Sort.payments(plans, Sort.sort(plans, window))
  Columnar.register(payments, columns)
  return { payments, skipped: plans.skipped }
}

/**
 * About how many payments {@link lazy} and {@link stream} compute ahead of their reader: a day with more is
 * handed on in pieces, so that a reader holds a few thousand payments at a time, however many orders pay that day.
 */
const SLICE = 4096

/** Flattens day batches into single payments. */
function* flatten(batches: Iterator<Array<Payment.Payment>>): Generator<Payment.Payment> {
  for (let b = batches.next(); b.done !== true; b = batches.next()) {
    const batch = b.value
    for (let i = 0; i < batch.length; i++) yield batch[i]!
  }
}

/**
 * The projection as lazy batches, one per execution date in order (each non-empty and ordered as in
 * {@link project}), holding one head occurrence per order instead of every payment.
 */
export const batches = (
  orders: Iterable<ProjectableOrder>,
  window: Window,
  options?: Options
): { readonly batches: IterableIterator<Array<Payment.Payment>>; readonly skipped: Array<Skipped> } => {
  const plans = Plans.plan(orders, window, options, true)
  return { batches: Merge.batches(plans, window), skipped: plans.skipped }
}

/**
 * The projection as a lazy, ordered sequence of payments: the same payments in the same order as
 * {@link project}, holding one head occurrence per order instead of every payment.
 */
export const lazy = (
  orders: Iterable<ProjectableOrder>,
  window: Window,
  options?: Options
): { readonly payments: IterableIterator<Payment.Payment>; readonly skipped: Array<Skipped> } => {
  const plans = Plans.plan(orders, window, options, true)
  return { payments: flatten(Merge.batches(plans, window, SLICE)), skipped: plans.skipped }
}

/**
 * The projection's payments as a Stream, in the order of {@link project}, computed lazily as the stream is
 * pulled, in chunks of one execution date each (a day of more than a few thousand payments in several chunks),
 * so that memory grows with the number of orders, not of payments. Orders that cannot be projected are left out;
 * get their reasons from {@link skipped} or {@link batches}.
 */
export const stream = (
  orders: Iterable<ProjectableOrder>,
  window: Window,
  options?: Options
): Stream.Stream<Payment.Payment> =>
  Stream.fromPull(
    Effect.sync(() => {
      const it = Merge.batches(Plans.plan(orders, window, options, true), window, SLICE)
      return Effect.suspend(() => {
        const next = it.next()
        return next.done === true ? Cause.done() : Effect.succeed(next.value as Arr.NonEmptyArray<Payment.Payment>)
      })
    })
  )

/** The fields all payments of one order share: a payment without its occurrence number and dates. */
export type OrderFields = Omit<Payment.Payment, "k" | "nominalDate" | "executionDate">

/**
 * One execution date of a projection as columns, for writers of very large outputs that need no object per
 * payment: payment j (j < `length`) is occurrence `k[j]` with nominal date `nominal[j]` of the order
 * `orders[order[j]]` of its {@link Columns}, in the order of {@link project}. A view, not data: the same object and
 * arrays are reused for the next date (only the first `length` entries count, and they must not be written), so
 * read it before asking for the next; {@link dayPayments} copies a date's payments out as plain payments.
 */
export interface Day {
  readonly executionDate: LocalDate.LocalDate
  readonly length: number
  readonly order: Int32Array
  readonly k: Int32Array
  readonly nominal: Int32Array
}

/** A projection as columns (see {@link columns}). */
export interface Columns {
  /** The fields of each projected order's payments, indexed by {@link Day}'s `order`. */
  readonly orders: ReadonlyArray<OrderFields>
  /** The execution dates that have payments, in order, read lazily; each {@link Day} is valid until the next. */
  readonly days: IterableIterator<Day>
  /** The orders that cannot be projected, in input order. */
  readonly skipped: Array<Skipped>
}

/**
 * The projection as columns, one execution date at a time: the payments of {@link lazy} in the same order, given
 * as indices into the orders' shared fields with each payment's occurrence number and nominal date, so that
 * nothing is allocated per payment. For writers that turn millions of payments into text; everything else is
 * simpler with {@link lazy} or {@link stream}.
 */
export const columns = (orders: Iterable<ProjectableOrder>, window: Window, options?: Options): Columns => {
  const plans = Plans.plan(orders, window, options, true)
  return { orders: plans.templates, days: dayViews(Merge.days(plans, window)), skipped: plans.skipped }
}

/** The engine's reused day columns seen through the read-only {@link Day} (a small view object per date). */
function* dayViews(days: Iterator<Merge.Day>): Generator<Day> {
  for (let d = days.next(); d.done !== true; d = days.next()) {
    const day = d.value
    yield {
      executionDate: day.day as LocalDate.LocalDate,
      length: day.length,
      order: day.order,
      k: day.k,
      nominal: day.nominal
    }
  }
}

/** The payments of one {@link Day} of a projection's {@link Columns}, as plain payments in order. */
export const dayPayments = (projection: Pick<Columns, "orders">, day: Day): Array<Payment.Payment> =>
  Merge.payments(projection.orders, day, day.executionDate)

/** The orders that cannot be projected, with their reasons (packages/core/README.md, "Anchor"), in input order. */
export const skipped = (orders: Iterable<ProjectableOrder>, options?: Options): Array<Skipped> =>
  Plans.skippedOf(orders, options)

/** Whether a date lies in the window (both ends inclusive). */
export const contains = (window: Window, d: LocalDate.LocalDate): boolean => d >= window.from && d <= window.to

/** The window `from..to` from two `YYYY-MM-DD` texts, or why they do not make one. */
export const parseWindow = (from: string, to: string): Result.Result<Window, string> =>
  Result.flatMap(LocalDate.parse(from), (f) =>
    Result.flatMap(LocalDate.parse(to), (t) =>
      t < f ? Result.fail(`the window ends (${to}) before it starts (${from})`) : Result.succeed({ from: f, to: t })
    )
  )
