/**
 * The projection engine's lazy merge: the payments day by day from a calendar queue, holding one head
 * occurrence per order (three integers) instead of every payment. Each order waits in the bucket of its next
 * execution day; the days with a bucket sit in a min-heap. A day's bucket is put in planned order (a native sort
 * of positions), its payments are emitted, orders sharing an orderId put in nominal-date order
 * ({@link Plans.orderSameIds}), and each order moves on to the bucket of its next execution day.
 */
import { Calendar, type LocalDate, Occurrence } from "@tppkit/core"
import type * as Payment from "../Payment.ts"
import * as Plans from "./plans.ts"

/** A min-heap of day numbers. */
class DayHeap {
  readonly days: Array<number> = []
  get size(): number {
    return this.days.length
  }
  push(d: number): void {
    const days = this.days
    let i = days.length
    days.push(d)
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (days[parent]! <= d) break
      days[i] = days[parent]!
      i = parent
    }
    days[i] = d
  }
  peek(): number {
    return this.days[0]!
  }
  pop(): number {
    const days = this.days
    const top = days[0]!
    const last = days.pop()!
    const n = days.length
    if (n > 0) {
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        if (l >= n) break
        const c = l + 1 < n && days[l + 1]! < days[l]! ? l + 1 : l
        if (days[c]! >= last) break
        days[i] = days[c]!
        i = c
      }
      days[i] = last
    }
    return top
  }
}

/** How an order moves from one payment to the next in the merge. */
const QUEUED = 0 // through the calendar queue, one `Occurrence.next` at a time
const DAILY = 1 // every day of a run (DAI7: `Occurrence.fixedStep` 1)
const WORKING = 2 // every working day of a run (DAIL)

/**
 * Merges the next sorted run of planned-order indices into a sorted list, in place order: `into` receives the
 * union of `a[0..na)` and `b[0..nb)` (both ascending); returns its length.
 */
const mergeSorted = (a: Int32Array, na: number, b: ReadonlyArray<number> | Int32Array, into: Int32Array): number => {
  const nb = b.length
  let i = 0
  let j = 0
  let n = 0
  while (i < na && j < nb) into[n++] = a[i]! <= b[j]! ? a[i++]! : b[j++]!
  while (i < na) into[n++] = a[i++]!
  while (j < nb) into[n++] = b[j++]!
  return n
}

/**
 * The orders that pay on every day (or every working day) of a run, in planned order: a sorted list that orders
 * join on their first day and leave after their last, so that a day's payments of these orders need neither the
 * queue nor the plan (k and the date follow from the day's position in the run).
 */
class Runs {
  list: Int32Array
  spare: Int32Array
  length = 0
  readonly joins = new Map<number, Array<number>>()
  constructor(capacity: number) {
    this.list = new Int32Array(capacity)
    this.spare = new Int32Array(capacity)
  }
  /** Orders whose last position is before `position` leave; the orders joining on `day` enter. */
  advance(day: number, position: number, last: Int32Array): void {
    let n = 0
    const list = this.list
    for (let x = 0; x < this.length; x++) {
      const i = list[x]!
      if (last[i]! >= position) list[n++] = i
    }
    this.length = n
    const joining = this.joins.get(day)
    if (joining !== undefined) {
      this.joins.delete(day)
      const merged = this.spare
      this.length = mergeSorted(list, n, joining, merged)
      this.spare = list
      this.list = merged
    }
  }
}

/**
 * The working days of one calendar from the first DAIL payment on it to the window's end, by position (`position[x]`
 * working days in `from..(from + x − 1)`), and the orders paying on each of them ({@link Runs}).
 */
class Working {
  readonly from: number
  readonly position: Int32Array
  readonly runs: Runs
  /** Whether the current day is one of its working days. */
  open = false
  constructor(calendar: Calendar.Calendar, from: number, to: number, capacity: number) {
    const days = Number.isFinite(from) ? to - from + 1 : 0
    this.from = days > 0 ? from : 0
    this.position = new Int32Array(days + 1)
    for (let x = 0; x < days; x++) {
      this.position[x + 1] =
        this.position[x]! + (Calendar.isWorkingDay(calendar, (from + x) as LocalDate.LocalDate) ? 1 : 0)
    }
    this.runs = new Runs(capacity)
  }
  /** Whether `day` is a working day of the calendar within the span. */
  isWorking(day: number): boolean {
    const x = day - this.from
    return x >= 0 && x + 1 < this.position.length && this.position[x + 1] !== this.position[x]
  }
  /** The first working day after `day` (while orders run, `day` lies in the span), or a day after `to`. */
  nextAfter(day: number, to: number): number {
    let w = day + 1
    while (w <= to && this.position[w - this.from + 1] === this.position[w - this.from]) w++
    return w
  }
}

/**
 * The payments of one execution day (or a piece of one) as columns: payment j (j < `length`) is occurrence
 * `k[j]`, nominal day `nominal[j]`, of planned order `order[j]`. The arrays are reused and may be longer than
 * `length`.
 */
export interface Day {
  day: number
  length: number
  order: Int32Array
  k: Int32Array
  nominal: Int32Array
}

/**
 * The payments of the planned orders in projection order as columns, in non-empty pieces of one execution day
 * each: a whole day per piece, or, with `limit`, pieces of about `limit` payments that end between two orderIds
 * (so that a consumer reading payment by payment holds few of them). The one object yielded is reused: it is
 * valid until the next is asked for. Orders paying every day (DAI7) or every working day (DAIL) move through
 * {@link Runs}; the others wait in the bucket of their next execution day, the days with a bucket in a min-heap.
 */
export function* days(
  plans: Plans.Plans,
  window: Plans.Window,
  limit: number = Number.POSITIVE_INFINITY
): Generator<Day> {
  const to = window.to
  const m = plans.plans.length
  const kind = new Uint8Array(m)
  const headK = new Int32Array(m) // QUEUED: the head's k; runs: k minus the first payment's position
  const headNominal = new Int32Array(m) // QUEUED: the head's nominal day; runs: the last payment's position
  const buckets = new Map<number, Array<number>>()
  const heap = new DayHeap()
  const enqueue = (i: number, day: number): void => {
    const bucket = buckets.get(day)
    if (bucket === undefined) {
      buckets.set(day, [i])
      heap.push(day)
    } else {
      bucket.push(i)
    }
  }
  // per calendar, the working days from its first DAIL payment to the window's end, by position (prefix counts)
  const workFrom = plans.calendars.map(() => Number.POSITIVE_INFINITY)
  const heads = new Array<Occurrence.Occurrence | undefined>(m)
  for (let i = 0; i < m; i++) {
    const start = plans.starts[i]!
    if (start > to) continue
    const head = Occurrence.firstOnOrAfter(plans.plans[i]!, start as LocalDate.LocalDate)
    if (head === undefined || head.execution > to) continue
    heads[i] = head
    if (plans.workingDaily[i] === 1) {
      const c = plans.calendarOf[i]!
      workFrom[c] = Math.min(workFrom[c]!, head.execution)
    }
  }
  let dailyCount = 0
  const workingCount = plans.calendars.map(() => 0)
  for (let i = 0; i < m; i++) {
    const head = heads[i]
    if (head === undefined) continue
    const plan = plans.plans[i]!
    if (Occurrence.fixedStep(plan) === 1) {
      kind[i] = DAILY
      dailyCount++
    } else if (plans.workingDaily[i] === 1) {
      kind[i] = WORKING
      workingCount[plans.calendarOf[i]!]!++
    }
  }
  const daily = new Runs(dailyCount)
  const working = plans.calendars.map((calendar, c) => new Working(calendar, workFrom[c]!, to, workingCount[c]!))
  // per calendar, the position of the current day among its working days
  const workAt = new Int32Array(working.length)
  const { calendarOf } = plans
  for (let i = 0; i < m; i++) {
    const head = heads[i]
    if (head === undefined) continue
    const day = head.execution
    if (kind[i] === QUEUED) {
      headK[i] = head.k
      headNominal[i] = head.nominal
      enqueue(i, day)
      continue
    }
    const plan = plans.plans[i]!
    const count = Occurrence.count(plan, plans.starts[i]! as LocalDate.LocalDate, to)
    const work = kind[i] === DAILY ? undefined : working[calendarOf[i]!]!
    const position = work === undefined ? day : work.position[day - work.from]!
    headK[i] = head.k - position
    headNominal[i] = position + count - 1
    const runs = work === undefined ? daily : work.runs
    const joining = runs.joins.get(day)
    if (joining === undefined) {
      runs.joins.set(day, [i])
      heap.push(day)
    } else {
      joining.push(i)
    }
  }
  heads.length = 0
  const { ranks } = plans
  const columns: Day = {
    day: 0,
    length: 0,
    order: new Int32Array(64),
    k: new Int32Array(64),
    nominal: new Int32Array(64)
  }
  let due = new Int32Array(0)
  let merged = new Int32Array(0)
  let day = Number.NEGATIVE_INFINITY
  for (;;) {
    // the next day with a payment: a queued day, or the day after this one while a run goes on
    let next = heap.size > 0 ? heap.peek() : Number.POSITIVE_INFINITY
    if (daily.length > 0) next = Math.min(next, day + 1)
    for (const work of working) if (work.runs.length > 0) next = Math.min(next, work.nextAfter(day, to))
    if (next > to) return
    day = next
    while (heap.size > 0 && heap.peek() === day) heap.pop()
    const bucket = buckets.get(day)
    if (bucket !== undefined) buckets.delete(day)
    daily.advance(day, day, headNominal)
    let total = daily.length
    for (let c = 0; c < working.length; c++) {
      const work = working[c]!
      work.open = work.isWorking(day)
      if (!work.open) continue
      workAt[c] = work.position[day - work.from]!
      work.runs.advance(day, workAt[c]!, headNominal)
      total += work.runs.length
    }
    // the day's orders in planned order: the queued ones sorted, merged with the runs
    const queued = bucket === undefined ? new Int32Array(0) : Int32Array.from(bucket).sort()
    total += queued.length
    if (total === 0) continue
    if (due.length < total) {
      due = new Int32Array(Math.max(total, due.length * 2))
      merged = new Int32Array(due.length)
    }
    let n = mergeSorted(daily.list, daily.length, queued, due)
    for (const work of working) {
      if (!work.open || work.runs.length === 0) continue
      n = mergeSorted(due, n, work.runs.list.subarray(0, work.runs.length), merged)
      const swap = due
      due = merged
      merged = swap
    }
    const out = columns
    out.day = day
    if (out.order.length < n) grow(out, n)
    let size = 0
    for (let x = 0; x < n; x++) {
      const i = due[x]!
      const how = kind[i]
      if (how === DAILY || how === WORKING) {
        if (size === out.order.length) grow(out, size + 1)
        out.order[size] = i
        out.k[size] = headK[i]! + (how === DAILY ? day : workAt[calendarOf[i]!]!)
        out.nominal[size++] = day
      } else {
        const plan = plans.plans[i]!
        let o: Occurrence.Occurrence | undefined = {
          k: headK[i]!,
          nominal: headNominal[i]! as LocalDate.LocalDate,
          execution: day as LocalDate.LocalDate
        }
        while (o !== undefined && o.execution === day) {
          if (size === out.order.length) grow(out, size + 1)
          out.order[size] = i
          out.k[size] = o.k
          out.nominal[size++] = o.nominal
          o = Occurrence.next(plan, o)
        }
        if (o !== undefined && o.execution <= to) {
          headK[i] = o.k
          headNominal[i] = o.nominal
          enqueue(i, o.execution)
        }
      }
      if (size >= limit && x + 1 < n && ranks[due[x + 1]!] !== ranks[i]) {
        out.length = size
        if (plans.sharedIds) orderSameIds(ranks, out)
        yield out
        size = 0
      }
    }
    if (size > 0) {
      out.length = size
      if (plans.sharedIds) orderSameIds(ranks, out)
      yield out
    }
  }
}

/** Makes the columns of `day` hold at least `n` payments, keeping the ones they hold. */
const grow = (day: Day, n: number): void => {
  const capacity = Math.max(n, 2 * day.order.length)
  const widen = (a: Int32Array): Int32Array => {
    const b = new Int32Array(capacity)
    b.set(a)
    return b
  }
  day.order = widen(day.order)
  day.k = widen(day.k)
  day.nominal = widen(day.nominal)
}

/** The payments of a day's columns (orders indexed by `order`), as plain payments in the same order. */
export const payments = (
  orders: ReadonlyArray<Plans.Fields>,
  day: Pick<Day, "order" | "k" | "nominal" | "length">,
  executionDate: number
): Array<Payment.Payment> => {
  const { order, k, nominal, length } = day
  const out = new Array<Payment.Payment>(length)
  for (let j = 0; j < length; j++) out[j] = Plans.payment(orders[order[j]!]!, k[j]!, nominal[j]!, executionDate)
  return out
}

/**
 * The payments of the planned orders in projection order, in non-empty batches of one execution day each (or,
 * with `limit`, pieces of about `limit` payments ending between two orderIds): {@link days} as plain payments.
 */
export function* batches(
  plans: Plans.Plans,
  window: Plans.Window,
  limit: number = Number.POSITIVE_INFINITY
): Generator<Array<Payment.Payment>> {
  for (const day of days(plans, window, limit)) yield payments(plans.templates, day, day.day)
}

/** Payments of a day's columns whose orders share an orderId put in nominal-date order. */
const orderSameIds = (ranks: Int32Array, day: Day): void =>
  Plans.orderSameIds(
    ranks,
    (z) => day.order[z]!,
    (z) => day.nominal[z]!,
    0,
    day.length,
    (run, start) => {
      const order = run.map((z) => day.order[z]!)
      const k = run.map((z) => day.k[z]!)
      const nominal = run.map((z) => day.nominal[z]!)
      for (let j = 0; j < run.length; j++) {
        day.order[start + j] = order[j]!
        day.k[start + j] = k[j]!
        day.nominal[start + j] = nominal[j]!
      }
    }
  )
