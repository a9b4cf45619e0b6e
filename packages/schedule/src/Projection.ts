/**
 * Projection of many standing orders over a window of execution dates (packages/core/README.md, "Anchor",
 * "Already paid"): as an array, or lazily (day by day, as an iterator or a Stream) with memory that grows
 * with the number of orders, not the number of payments, and its cash-flow {@link totals} without the payments;
 * `Export` writes it as bytes. Dates come from core's Occurrence engine; the engine behind these functions is
 * internal. Payments are plain data.
 *
 * @since 0.1.0
 */
import { DateTrace, LocalDate } from "@tppkit/core"
import { type Array as Arr, Cause, Effect, Result, Stream } from "effect"
import type * as CashFlow from "./CashFlow.ts"
import * as Merge from "./internal/merge.ts"
import * as Plans from "./internal/plans.ts"
import * as Sort from "./internal/sort.ts"
import * as Tables from "./internal/tables.ts"
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
  return { payments: Sort.payments(plans, Sort.sort(plans, window)), skipped: plans.skipped }
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

/**
 * The cash-flow tables of a projection (`CashFlow.Totals`, by `period`, default `"month"`), equal to
 * `CashFlow.totals` of {@link project}'s payments, computed from the orders' plans without making the payments:
 * each order's payments of one period are counted by the engine and added together.
 */
export const totals = (
  orders: Iterable<ProjectableOrder>,
  window: Window,
  options?: Options & CashFlow.Options
): CashFlow.Totals => Tables.ofPlans(Plans.plan(orders, window, options), window, options?.period ?? "month")

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

/**
 * Why one of an order's payments falls on its date (core's `DateTrace`): the trace of the first occurrence executing
 * on or after `date`, or, without `date`, of the first payment a projection lists (the first executing on or after
 * `nextDate`: earlier ones count as paid, packages/core/README.md, "Already paid"); on the order's calendar (its
 * currency's when `options.calendar` is a function). `undefined` when the schedule has ended by then; why the order
 * cannot be projected as a failure.
 */
export const explain = (
  order: ProjectableOrder,
  options?: Options & { readonly source?: DateTrace.Source | undefined },
  date?: LocalDate.LocalDate
): Result.Result<DateTrace.Trace | undefined, string> => {
  const chosen = options?.calendar
  const calendar = typeof chosen === "function" ? chosen(order.instructedAmount.currency) : chosen
  const problem = Plans.skippedOf([order], options)[0]
  if (problem !== undefined) return Result.fail(problem.reason)
  return Result.mapError(
    DateTrace.onOrAfter(order, date ?? order.nextDate, {
      calendar,
      convention: options?.convention,
      source: options?.source
    }),
    (e) => e.reason
  )
}
