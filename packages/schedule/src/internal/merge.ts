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
 * The payments of the planned orders in projection order, in non-empty batches of one execution day each: a
 * whole day per batch, or, with `limit`, batches of about `limit` payments that end between two orderIds (so
 * that a consumer reading payment by payment holds few of them and they die young). Orders paying every day
 * (DAI7) or every working day (DAIL) move through {@link Runs}; the others wait in the bucket of their next
 * execution day, the days with a bucket in a min-heap.
 */
export function* batches(
  plans: Plans.Plans,
  window: Plans.Window,
  options: Occurrence.Options | undefined,
  limit: number = Number.POSITIVE_INFINITY
): Generator<Array<Payment.Payment>> {
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
  // the working days from the first DAIL payment to the window's end, by position (prefix counts)
  const calendar = options?.calendar ?? Calendar.target
  let workFrom = Number.POSITIVE_INFINITY
  const heads = new Array<Occurrence.Occurrence | undefined>(m)
  for (let i = 0; i < m; i++) {
    const start = plans.starts[i]!
    if (start > to) continue
    const head = Occurrence.firstOnOrAfter(plans.plans[i]!, start as LocalDate.LocalDate)
    if (head === undefined || head.execution > to) continue
    heads[i] = head
    if (plans.workingDaily[i] === 1) workFrom = Math.min(workFrom, head.execution)
  }
  const workDays = Number.isFinite(workFrom) ? to - workFrom + 1 : 0
  const workPosition = new Int32Array(workDays + 1) // working days in workFrom..(workFrom + x − 1)
  for (let x = 0; x < workDays; x++) {
    workPosition[x + 1] =
      workPosition[x]! + (Calendar.isWorkingDay(calendar, (workFrom + x) as LocalDate.LocalDate) ? 1 : 0)
  }
  let dailyCount = 0
  let workingCount = 0
  for (let i = 0; i < m; i++) {
    const head = heads[i]
    if (head === undefined) continue
    const plan = plans.plans[i]!
    if (Occurrence.fixedStep(plan) === 1) {
      kind[i] = DAILY
      dailyCount++
    } else if (plans.workingDaily[i] === 1) {
      kind[i] = WORKING
      workingCount++
    }
  }
  const daily = new Runs(dailyCount)
  const working = new Runs(workingCount)
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
    const position = kind[i] === DAILY ? day : workPosition[day - workFrom]!
    headK[i] = head.k - position
    headNominal[i] = position + count - 1
    const runs = kind[i] === DAILY ? daily : working
    const joining = runs.joins.get(day)
    if (joining === undefined) {
      runs.joins.set(day, [i])
      heap.push(day)
    } else {
      joining.push(i)
    }
  }
  heads.length = 0
  const { templates, ranks } = plans
  let due = new Int32Array(0)
  let merged = new Int32Array(0)
  let day = Number.NEGATIVE_INFINITY
  for (;;) {
    // the next day with a payment: a queued day, or the day after this one while a run goes on
    let next = heap.size > 0 ? heap.peek() : Number.POSITIVE_INFINITY
    if (daily.length > 0) next = Math.min(next, day + 1)
    if (working.length > 0) {
      let w = day + 1
      while (w <= to && workPosition[w - workFrom + 1] === workPosition[w - workFrom]) w++
      next = Math.min(next, w)
    }
    if (next > to) return
    day = next
    while (heap.size > 0 && heap.peek() === day) heap.pop()
    const bucket = buckets.get(day)
    if (bucket !== undefined) buckets.delete(day)
    daily.advance(day, day, headNominal)
    const isWorking =
      workDays > 0 && day >= workFrom && workPosition[day - workFrom + 1] !== workPosition[day - workFrom]
    const workingAt = isWorking ? workPosition[day - workFrom]! : 0
    if (isWorking) working.advance(day, workingAt, headNominal)
    // the day's orders in planned order: the queued ones sorted, merged with the two runs
    const queued = bucket === undefined ? new Int32Array(0) : Int32Array.from(bucket).sort()
    const total = queued.length + daily.length + (isWorking ? working.length : 0)
    if (total === 0) continue
    if (due.length < total) {
      due = new Int32Array(Math.max(total, due.length * 2))
      merged = new Int32Array(due.length)
    }
    let n = mergeSorted(daily.list, daily.length, queued, due)
    if (isWorking && working.length > 0) {
      n = mergeSorted(due, n, working.list.subarray(0, working.length), merged)
      const swap = due
      due = merged
      merged = swap
    }
    let out: Array<Payment.Payment> = []
    let owners: Array<number> = [] // the planned-order index of each payment, when orders share orderIds
    for (let x = 0; x < n; x++) {
      const i = due[x]!
      const t = templates[i]!
      const how = kind[i]
      if (how === DAILY) {
        out.push(Plans.payment(t, headK[i]! + day, day, day))
        if (plans.sharedIds) owners.push(i)
      } else if (how === WORKING) {
        out.push(Plans.payment(t, headK[i]! + workingAt, day, day))
        if (plans.sharedIds) owners.push(i)
      } else {
        const plan = plans.plans[i]!
        let o: Occurrence.Occurrence | undefined = {
          k: headK[i]!,
          nominal: headNominal[i]! as LocalDate.LocalDate,
          execution: day as LocalDate.LocalDate
        }
        while (o !== undefined && o.execution === day) {
          out.push(Plans.payment(t, o.k, o.nominal, day))
          if (plans.sharedIds) owners.push(i)
          o = Occurrence.next(plan, o)
        }
        if (o !== undefined && o.execution <= to) {
          headK[i] = o.k
          headNominal[i] = o.nominal
          enqueue(i, o.execution)
        }
      }
      if (out.length >= limit && x + 1 < n && ranks[due[x + 1]!] !== ranks[i]) {
        if (plans.sharedIds) orderSameIds(ranks, owners, out)
        yield out
        out = []
        owners = []
      }
    }
    if (out.length > 0) {
      if (plans.sharedIds) orderSameIds(ranks, owners, out)
      yield out
    }
  }
}

/** Payments of one day whose orders share an orderId put in nominal-date order (`owners`: each one's order). */
const orderSameIds = (ranks: Int32Array, owners: ReadonlyArray<number>, out: Array<Payment.Payment>): void =>
  Plans.orderSameIds(
    ranks,
    (z) => owners[z]!,
    (z) => out[z]!.nominalDate,
    0,
    out.length,
    (run, start) => {
      const copy = run.map((z) => out[z]!)
      for (let j = 0; j < copy.length; j++) out[start + j] = copy[j]!
    }
  )
