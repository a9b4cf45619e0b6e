/**
 * The projection engine's counting-sort kernel: every occurrence of the planned orders in a window, written
 * straight into its final position in integer columns (a stable counting sort by execution day over orders in
 * orderId order), then orders sharing an orderId put in nominal-date order ({@link Plans.orderSameIds}).
 */
import { type LocalDate, Occurrence } from "@tppkit/core"
import * as Plans from "./plans.ts"

/** Occurrences in projection order as columns: planned-order index, k, nominal day, execution day. */
export interface Sorted {
  readonly length: number
  readonly order: Int32Array
  readonly k: Int32Array
  readonly nominal: Int32Array
  readonly execution: Int32Array
}

/** Columns, sized by the engine's count, for the occurrences that are enumerated before they are placed. */
class Pending {
  length = 0
  readonly order: Int32Array
  readonly k: Int32Array
  readonly nominal: Int32Array
  readonly execution: Int32Array
  constructor(capacity: number) {
    const size = Math.max(1, capacity)
    this.order = new Int32Array(size)
    this.k = new Int32Array(size)
    this.nominal = new Int32Array(size)
    this.execution = new Int32Array(size)
  }
  push(order: number, o: Occurrence.Occurrence): void {
    const i = this.length++
    this.order[i] = order
    this.k[i] = o.k
    this.nominal[i] = o.nominal
    this.execution[i] = o.execution
  }
}

/** The slot of an execution day among the sorted distinct days (binary search). */
const slotIn = (days: Int32Array, day: number): number => {
  let lo = 0
  let hi = days.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (days[mid]! < day) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Sorts every occurrence in the window into projection order. Slots are the window's days when the window is
 * dense (at most 4 days per payment), else the distinct execution days. Orders with a fixed step (DAI7, WEEK
 * without adjustment) are counted per slot by arithmetic and never enumerated twice; the others are enumerated
 * once into pending columns.
 */
export const sort = (plans: Plans.Plans, window: Plans.Window): Sorted => {
  const { from, to } = window
  if (to < from) {
    const none = new Int32Array(0)
    return { length: 0, order: none, k: none, nominal: none, execution: none }
  }
  const m = plans.plans.length
  const counts = new Int32Array(m)
  let total = 0
  for (let i = 0; i < m; i++) {
    const start = plans.starts[i]!
    if (start <= to) {
      const c = Occurrence.count(plans.plans[i]!, start as LocalDate.LocalDate, to)
      counts[i] = c
      total += c
    }
  }
  const days = to - from + 1
  const dense = days <= 4 * total + 1024
  const steps = new Int32Array(m)
  let pendingCount = 0
  for (let i = 0; i < m; i++) {
    if (counts[i] === 0) continue
    const step = dense ? Occurrence.fixedStep(plans.plans[i]!) : 0
    steps[i] = step
    if (step === 0) pendingCount += counts[i]!
  }
  const pending = new Pending(pendingCount)
  const firstK = new Int32Array(m)
  const firstDay = new Int32Array(m)
  for (let i = 0; i < m; i++) {
    if (counts[i] === 0) continue
    const plan = plans.plans[i]!
    const start = plans.starts[i]! as LocalDate.LocalDate
    if (steps[i] !== 0) {
      const first = Occurrence.firstOnOrAfter(plan, start)!
      firstK[i] = first.k
      firstDay[i] = first.execution
    } else {
      for (const o of Occurrence.between(plan, start, to)) pending.push(i, o)
    }
  }
  // slots: the window's days, or the distinct execution days of a sparse window
  let slotDays: Int32Array | undefined
  if (!dense) {
    const all = pending.execution.slice(0, pending.length).sort()
    let distinct = 0
    for (let x = 0; x < all.length; x++) if (x === 0 || all[x] !== all[x - 1]) all[distinct++] = all[x]!
    slotDays = all.slice(0, distinct)
  }
  const slots = slotDays === undefined ? days : slotDays.length
  const slotOf = (day: number): number => (slotDays === undefined ? day - from : slotIn(slotDays, day))
  // per slot: how many payments (prefix sums of `ranges` add the daily runs, `perSlot` counts the others)
  const ranges = new Int32Array(slots + 1)
  const perSlot = new Int32Array(slots)
  for (let i = 0; i < m; i++) {
    const step = steps[i]!
    if (step === 1) {
      ranges[firstDay[i]! - from]!++
      ranges[firstDay[i]! - from + counts[i]!]!--
    } else if (step !== 0) {
      for (let j = 0, d = firstDay[i]! - from; j < counts[i]!; j++, d += step) perSlot[d]!++
    }
  }
  for (let x = 0; x < pending.length; x++) perSlot[slotOf(pending.execution[x]!)]!++
  // next[s]: the next free position of slot s
  const next = new Int32Array(slots + 1)
  let running = 0
  for (let s = 0; s < slots; s++) {
    running += ranges[s]!
    next[s + 1] = next[s]! + running + perSlot[s]!
  }
  const n = next[slots]!
  const sorted: Sorted = {
    length: n,
    order: new Int32Array(n),
    k: new Int32Array(n),
    nominal: new Int32Array(n),
    execution: new Int32Array(n)
  }
  const { order, k, nominal, execution } = sorted
  // orders in planned order: each slot's payments are written in that order (stable)
  let p = 0
  for (let i = 0; i < m; i++) {
    const step = steps[i]!
    if (step !== 0) {
      const k0 = firstK[i]!
      for (let j = 0, day = firstDay[i]!; j < counts[i]!; j++, day += step) {
        const x = next[day - from]!++
        order[x] = i
        k[x] = k0 + j
        nominal[x] = day
        execution[x] = day
      }
    } else {
      for (; p < pending.length && pending.order[p] === i; p++) {
        const e = pending.execution[p]!
        const x = next[slotOf(e)]!++
        order[x] = i
        k[x] = pending.k[p]!
        nominal[x] = pending.nominal[p]!
        execution[x] = e
      }
    }
  }
  if (plans.sharedIds) {
    const move = (run: ReadonlyArray<number>, start: number): void => {
      const copy = run.map((x) => [order[x]!, k[x]!, nominal[x]!] as const)
      for (let j = 0; j < copy.length; j++) {
        order[start + j] = copy[j]![0]
        k[start + j] = copy[j]![1]
        nominal[start + j] = copy[j]![2]
      }
    }
    for (let x = 0; x < n; ) {
      let y = x + 1
      while (y < n && execution[y] === execution[x]) y++
      Plans.orderSameIds(
        plans.ranks,
        (z) => order[z]!,
        (z) => nominal[z]!,
        x,
        y,
        move
      )
      x = y
    }
  }
  return sorted
}
