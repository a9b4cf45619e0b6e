/**
 * Projection of many standing orders over a window of execution dates (spec: Anchor, nextDate and the
 * projection window): as a pure function over arrays, and as a lazy k-way merge / Stream whose memory grows
 * with the number of orders, not the number of payments. Dates come from core's Occurrence engine.
 *
 * @since 0.1.0
 */
import { LocalDate, Occurrence } from "@tppkit/core"
import { BigDecimal, Result, Stream } from "effect"
import type * as Payment from "./Payment.ts"

/**
 * What the projection reads from a standing order; core's `StandingOrder` satisfies it.
 */
export interface ProjectableOrder extends Occurrence.OrderSchedule {
  readonly orderId: string
  readonly instructedAmount: { readonly value: BigDecimal.BigDecimal; readonly currency: string }
  readonly debtor: { readonly iban: string }
  readonly creditor: { readonly iban: string; readonly name?: string | undefined }
}

/** A window of execution dates, both ends inclusive. */
export interface Window {
  readonly from: LocalDate.LocalDate
  readonly to: LocalDate.LocalDate
}

/** The calendar (default `target`) and business-day convention (default `following`) of the projection. */
export type Options = Occurrence.Options

/** An order left out of the projection, with the human reason. */
export interface Skipped {
  readonly orderId: string | undefined
  readonly reason: string
}

/** The result of a projection: the payments in order and the orders that could not be projected. */
export interface Projection {
  readonly payments: Array<Payment.Payment>
  readonly skipped: Array<Skipped>
}

// ---------------------------------------------------------------------------
// plans
// ---------------------------------------------------------------------------

/** An order with its engine plan and the first execution date it may still contribute. */
interface Planned {
  readonly order: ProjectableOrder
  readonly plan: Occurrence.Plan
  /** `max(from, nextDate)`: occurrences executing before nextDate count as paid (spec: nextDate). */
  readonly start: LocalDate.LocalDate
  readonly index: number
}

const orderIdOf = (o: unknown): string | undefined => {
  const id = typeof o === "object" && o !== null ? (o as { orderId?: unknown }).orderId : undefined
  return typeof id === "string" ? id : undefined
}

const planAll = (
  orders: Iterable<ProjectableOrder>,
  window: Window,
  options: Options | undefined
): { planned: Array<Planned>; skipped: Array<Skipped> } => {
  const planned: Array<Planned> = []
  const skipped: Array<Skipped> = []
  let index = 0
  for (const order of orders) {
    const r = Occurrence.makePlan(order, options)
    if (Result.isFailure(r)) {
      skipped.push({ orderId: orderIdOf(order), reason: r.failure.reason })
    } else {
      const next = order.nextDate
      const start = next !== undefined && next > window.from ? next : window.from
      planned.push({ order, plan: r.success, start, index })
    }
    index++
  }
  return { planned, skipped }
}

const byOrderId = (a: Planned, b: Planned): number =>
  a.order.orderId < b.order.orderId ? -1 : a.order.orderId > b.order.orderId ? 1 : a.index - b.index

const toPayment = (order: ProjectableOrder, o: Occurrence.Occurrence): Payment.Payment => ({
  orderId: order.orderId,
  k: o.k,
  nominalDate: o.nominal,
  executionDate: o.execution,
  amount: order.instructedAmount.value,
  currency: order.instructedAmount.currency,
  debtorIban: order.debtor.iban,
  creditorIban: order.creditor.iban,
  creditorName: order.creditor.name
})

// ---------------------------------------------------------------------------
// arrays
// ---------------------------------------------------------------------------

/**
 * Projects orders over a window: exactly the occurrences whose execution date lies in `from..to` and not
 * before the order's `nextDate`, ordered by execution date, then orderId, then nominal date; orders that
 * cannot be projected are listed in `skipped` with their reason while the others are projected.
 */
export const project = (orders: Iterable<ProjectableOrder>, window: Window, options?: Options): Projection => {
  const { planned, skipped } = planAll(orders, window, options)
  if (window.to < window.from) return { payments: [], skipped }
  planned.sort(byOrderId)
  // 1. occurrences as columns, in orderId order and per order in nominal order
  const cols = new Columns()
  let duplicateIds = false
  for (let i = 0; i < planned.length; i++) {
    const p = planned[i]!
    if (i > 0 && planned[i - 1]!.order.orderId === p.order.orderId) duplicateIds = true
    if (p.start > window.to) continue
    for (const o of Occurrence.between(p.plan, p.start, window.to)) cols.push(i, o.k, o.nominal, o.execution)
  }
  // 2. a stable sort by execution date gives the full ordering: counting sort over the window's days, unless the
  //    window is much longer than the output
  const n = cols.length
  const order = new Int32Array(n)
  const days = window.to - window.from + 1
  if (days > 4 * n + 1024) {
    for (let i = 0; i < n; i++) order[i] = i
    order.sort((a, b) => cols.execution[a]! - cols.execution[b]! || a - b)
  } else {
    const counts = new Int32Array(days + 1)
    for (let i = 0; i < n; i++) counts[cols.execution[i]! - window.from + 1]!++
    for (let i = 1; i <= days; i++) counts[i]! += counts[i - 1]!
    for (let i = 0; i < n; i++) order[counts[cols.execution[i]! - window.from]!++] = i
  }
  // 3. the payment objects, allocated in their final order from flat per-order templates laid out in orderId
  //    order (later passes over the payments then read memory mostly in sequence)
  const templates = templatesOf(planned)
  const payments = new Array<Payment.Payment>(n)
  for (let x = 0; x < n; x++) {
    const i = order[x]!
    const t = templates[cols.order[i]!]!
    payments[x] = {
      orderId: t.orderId,
      k: cols.k[i]!,
      nominalDate: cols.nominal[i]! as LocalDate.LocalDate,
      executionDate: cols.execution[i]! as LocalDate.LocalDate,
      amount: t.amount,
      currency: t.currency,
      debtorIban: t.debtorIban,
      creditorIban: t.creditorIban,
      creditorName: t.creditorName
    }
  }
  if (duplicateIds) sortSameOrderIdRuns(payments)
  return { payments, skipped }
}

/** The fields every payment of an order shares, in one flat object. */
interface Template {
  readonly orderId: string
  readonly amount: BigDecimal.BigDecimal
  readonly currency: string
  readonly debtorIban: string
  readonly creditorIban: string
  readonly creditorName: string | undefined
}

/**
 * Flat templates in orderId order. Equal account and currency texts are shared (one string per IBAN), and each
 * amount is copied next to its template, so that a pass over the payments touches few, nearby objects.
 */
const templatesOf = (planned: ReadonlyArray<Planned>): Array<Template> => {
  const strings = new Map<string, string>()
  const intern = (s: string): string => {
    const known = strings.get(s)
    if (known !== undefined) return known
    strings.set(s, s)
    return s
  }
  return planned.map(({ order }) => {
    const value = order.instructedAmount.value
    return {
      orderId: order.orderId,
      amount: BigDecimal.make(value.value + 0n, value.scale),
      currency: intern(order.instructedAmount.currency),
      debtorIban: intern(order.debtor.iban),
      creditorIban: intern(order.creditor.iban),
      creditorName: order.creditor.name
    }
  })
}

/** Growable integer columns of occurrences: planned-order index, k, nominal day and execution day. */
class Columns {
  length = 0
  order = new Int32Array(1024)
  k = new Int32Array(1024)
  nominal = new Int32Array(1024)
  execution = new Int32Array(1024)
  push(order: number, k: number, nominal: number, execution: number): void {
    if (this.length === this.order.length) this.grow()
    const i = this.length++
    this.order[i] = order
    this.k[i] = k
    this.nominal[i] = nominal
    this.execution[i] = execution
  }
  private grow(): void {
    const size = this.order.length * 2
    const widen = (a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(size)
      b.set(a)
      return b
    }
    this.order = widen(this.order)
    this.k = widen(this.k)
    this.nominal = widen(this.nominal)
    this.execution = widen(this.execution)
  }
}

/**
 * Orders sharing an orderId are adjacent after the orderId sort, so on one execution day their payments form
 * one run; each run of two or more is put in nominal-date order (stable).
 */
const sortSameOrderIdRuns = (payments: Array<Payment.Payment>): void => {
  let i = 0
  while (i < payments.length) {
    const first = payments[i]!
    let j = i + 1
    while (
      j < payments.length &&
      payments[j]!.executionDate === first.executionDate &&
      payments[j]!.orderId === first.orderId
    ) {
      j++
    }
    if (j - i > 1) {
      const run = payments.slice(i, j).sort((a, b) => a.nominalDate - b.nominalDate)
      for (let x = 0; x < run.length; x++) payments[i + x] = run[x]!
    }
    i = j
  }
}

// ---------------------------------------------------------------------------
// lazy k-way merge
// ---------------------------------------------------------------------------

/** One order's lazy sequence of occurrences with its current head. */
interface Cursor {
  readonly planned: Planned
  readonly rest: Iterator<Occurrence.Occurrence>
  head: Occurrence.Occurrence
}

const before = (a: Cursor, b: Cursor): boolean => {
  if (a.head.execution !== b.head.execution) return a.head.execution < b.head.execution
  const ia = a.planned.order.orderId
  const ib = b.planned.order.orderId
  if (ia !== ib) return ia < ib
  if (a.head.nominal !== b.head.nominal) return a.head.nominal < b.head.nominal
  return a.planned.index < b.planned.index
}

function* mergePlans(planned: ReadonlyArray<Planned>, to: LocalDate.LocalDate): Generator<Payment.Payment> {
  // a binary min-heap of cursors: one entry per order that still has occurrences in the window
  const heap: Array<Cursor> = []
  const siftDown = (i: number): void => {
    const n = heap.length
    const x = heap[i]!
    for (;;) {
      const l = 2 * i + 1
      if (l >= n) break
      const r = l + 1
      const c = r < n && before(heap[r]!, heap[l]!) ? r : l
      if (!before(heap[c]!, x)) break
      heap[i] = heap[c]!
      i = c
    }
    heap[i] = x
  }
  for (const p of planned) {
    if (p.start > to) continue
    const rest = Occurrence.iterate(p.plan, p.start)
    const first = rest.next()
    if (first.done === true || first.value.execution > to) continue
    heap.push({ planned: p, rest, head: first.value })
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(i)
  while (heap.length > 0) {
    const top = heap[0]!
    yield toPayment(top.planned.order, top.head)
    const next = top.rest.next()
    if (next.done === true || next.value.execution > to) {
      const last = heap.pop()!
      if (heap.length > 0) {
        heap[0] = last
        siftDown(0)
      }
    } else {
      top.head = next.value
      siftDown(0)
    }
  }
}

/**
 * The projection as a lazy, ordered sequence (a k-way merge of the per-order occurrence sequences): the same
 * payments in the same order as {@link project}, holding one cursor per order instead of every payment.
 */
export const lazy = (
  orders: Iterable<ProjectableOrder>,
  window: Window,
  options?: Options
): { readonly payments: IterableIterator<Payment.Payment>; readonly skipped: Array<Skipped> } => {
  const { planned, skipped } = planAll(orders, window, options)
  return { payments: mergePlans(planned, window.to), skipped }
}

/**
 * The projection's payments as a Stream, in the order of {@link project}, computed lazily as the stream is
 * pulled (memory grows with the number of orders). Orders that cannot be projected are left out; get their
 * reasons from {@link skipped} or {@link lazy}.
 */
export const stream = (
  orders: Iterable<ProjectableOrder>,
  window: Window,
  options?: Options & { readonly chunkSize?: number | undefined }
): Stream.Stream<Payment.Payment> =>
  Stream.suspend(() => Stream.fromIteratorSucceed(lazy(orders, window, options).payments, options?.chunkSize ?? 4096))

/** The orders that cannot be projected, with their reasons (spec: Anchor). */
export const skipped = (orders: Iterable<ProjectableOrder>, options?: Options): Array<Skipped> => {
  const out: Array<Skipped> = []
  for (const order of orders) {
    const r = Occurrence.makePlan(order, options)
    if (Result.isFailure(r)) out.push({ orderId: orderIdOf(order), reason: r.failure.reason })
  }
  return out
}

/** Whether a date lies in the window (both ends inclusive). */
export const contains = (window: Window, d: LocalDate.LocalDate): boolean => d >= window.from && d <= window.to

/** The window `from..to` from two `YYYY-MM-DD` texts, or why they do not make one. */
export const parseWindow = (from: string, to: string): Result.Result<Window, string> =>
  Result.flatMap(LocalDate.parse(from), (f) =>
    Result.flatMap(LocalDate.parse(to), (t) =>
      t < f ? Result.fail(`the window ends (${to}) before it starts (${from})`) : Result.succeed({ from: f, to: t })
    )
  )
