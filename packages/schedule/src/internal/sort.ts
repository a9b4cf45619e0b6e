/**
 * The projection engine's counting-sort kernel: every occurrence of the planned orders in a window put in
 * projection order by a stable counting sort by execution day over orders in orderId order, then orders sharing
 * an orderId put in nominal-date order ({@link Plans.orderSameIds}). The sort writes one integer per payment;
 * {@link payments} then builds the plain payments in one pass, in their final order.
 */
import { type LocalDate, Occurrence } from "@tppkit/core"
import type * as Payment from "../Payment.ts"
import * as Plans from "./plans.ts"

/**
 * Occurrences in projection order. `slot` holds, per position, the planned-order index `i` of an order with a
 * fixed step (its k and nominal day follow from the execution day), or `~i` for an enumerated occurrence. The
 * enumerated occurrences' k and nominal day follow in `kNominal` (two integers each) in projection order, so
 * that building the payments reads them in sequence (the sort scatters them once instead). Slot `s` covers positions
 * `bounds[s]..bounds[s + 1]` (exclusive), all executing on day `slotDays[s]` (or `from + s`).
 */
export interface Sorted {
  readonly length: number
  readonly slot: Int32Array
  readonly kNominal: Int32Array
  readonly bounds: Int32Array
  readonly slotDays: Int32Array | undefined
  readonly from: number
  /** Per planned order: how many of its occurrences the window holds. */
  readonly counts: Int32Array
  /** Per planned order: the day step (0 when its occurrences are enumerated), first k and first day. */
  readonly steps: Int32Array
  readonly firstK: Int32Array
  readonly firstDay: Int32Array
}

/**
 * Columns, sized by the engine's count, for the occurrences that are enumerated before they are placed (each
 * order's at the positions the caller reserved for them).
 */
class Pending {
  readonly length: number
  readonly k: Int32Array
  readonly nominal: Int32Array
  readonly execution: Int32Array
  constructor(length: number) {
    this.length = length
    this.k = new Int32Array(length)
    this.nominal = new Int32Array(length)
    this.execution = new Int32Array(length)
  }
  set(x: number, o: Occurrence.Occurrence): void {
    this.k[x] = o.k
    this.nominal[x] = o.nominal
    this.execution[x] = o.execution
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

const none = new Int32Array(0)

/**
 * Sorts every occurrence in the window into projection order (before the nominal-date order of shared
 * orderIds, which {@link payments} applies). Slots are the window's days when the window is dense (at most 4
 * days per payment), else the distinct execution days. Orders with a fixed step (DAI7, WEEK without
 * adjustment) are counted per slot by arithmetic and never enumerated; the others are enumerated once into
 * pending columns.
 */
export const sort = (plans: Plans.Plans, window: Plans.Window): Sorted => {
  const { from, to } = window
  const m = plans.plans.length
  const steps = new Int32Array(m)
  const firstK = new Int32Array(m)
  const firstDay = new Int32Array(m)
  if (to < from) {
    const bounds = new Int32Array(1)
    const counts = new Int32Array(m)
    return { length: 0, slot: none, kNominal: none, bounds, slotDays: none, from, counts, steps, firstK, firstDay }
  }
  // the per-order loops visit the plans in input order, the order they lie in memory (plans.inputOrder)
  const { inputOrder } = plans
  const counts = new Int32Array(m)
  let total = 0
  for (let q = 0; q < m; q++) {
    const i = inputOrder[q]!
    const start = plans.starts[i]!
    if (start <= to) {
      const c = Occurrence.count(plans.plans[i]!, start as LocalDate.LocalDate, to)
      counts[i] = c
      total += c
    }
  }
  const days = to - from + 1
  const dense = days <= 4 * total + 1024
  for (let q = 0; q < m; q++) {
    const i = inputOrder[q]!
    if (counts[i] === 0) continue
    const plan = plans.plans[i]!
    const step = dense ? Occurrence.fixedStep(plan) : 0
    steps[i] = step
    if (step !== 0) {
      const first = Occurrence.firstOnOrAfter(plan, plans.starts[i]! as LocalDate.LocalDate)!
      firstK[i] = first.k
      firstDay[i] = first.execution
    }
  }
  // the enumerated occurrences, order after order in planned order: order i's from pendingAt[i] on
  const pendingAt = new Int32Array(m + 1)
  for (let i = 0; i < m; i++) pendingAt[i + 1] = pendingAt[i]! + (steps[i] === 0 ? counts[i]! : 0)
  const pending = new Pending(pendingAt[m]!)
  for (let q = 0; q < m; q++) {
    const i = inputOrder[q]!
    if (counts[i] === 0 || steps[i] !== 0) continue
    const occurrences = Occurrence.between(plans.plans[i]!, plans.starts[i]! as LocalDate.LocalDate, to)
    for (let j = 0, x = pendingAt[i]!; j < occurrences.length; j++, x++) pending.set(x, occurrences[j]!)
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
  // bounds[s]: where slot s starts; next[s]: its next free position
  const bounds = new Int32Array(slots + 1)
  let running = 0
  for (let s = 0; s < slots; s++) {
    running += ranges[s]!
    bounds[s + 1] = bounds[s]! + running + perSlot[s]!
  }
  const next = bounds.slice(0, slots)
  const n = bounds[slots]!
  const slot = new Int32Array(n)
  // the enumerated occurrences in projection order: where each slot's start among them
  const pendingNext = new Int32Array(slots)
  for (let x = 0; x < pending.length; x++) pendingNext[slotOf(pending.execution[x]!)]!++
  for (let s = 0, sum = 0; s < slots; s++) {
    const c = pendingNext[s]!
    pendingNext[s] = sum
    sum += c
  }
  const kNominal = new Int32Array(2 * pending.length)
  // orders in planned order: each slot's payments are written in that order (stable)
  for (let i = 0; i < m; i++) {
    const step = steps[i]!
    if (step !== 0) {
      for (let j = 0, d = firstDay[i]! - from; j < counts[i]!; j++, d += step) slot[next[d]!++] = i
    } else {
      for (let p = pendingAt[i]!; p < pendingAt[i + 1]!; p++) {
        const s = slotOf(pending.execution[p]!)
        slot[next[s]!++] = ~i
        const y = 2 * pendingNext[s]!++
        kNominal[y] = pending.k[p]!
        kNominal[y + 1] = pending.nominal[p]!
      }
    }
  }
  return { length: n, slot, kNominal, bounds, slotDays, from, counts, steps, firstK, firstDay }
}

/**
 * One payment of the array projection: the same fields in the same order as {@link Plans.payment} (so the same
 * hidden class), but an object literal of its own. V8 decides per literal whether to allocate its objects in
 * the old generation straight away; these payments live as long as the array, while the lazy merge's die young,
 * and one shared literal let each path's run undo the other's decision (every array payment then copied by the
 * young-generation collector).
 */
const arrayPayment = (t: Plans.Template, k: number, nominal: number, execution: number): Payment.Payment => ({
  orderId: t.orderId,
  k,
  nominalDate: nominal as LocalDate.LocalDate,
  executionDate: execution as LocalDate.LocalDate,
  provenance: Plans.provenance(t.nextDate, execution),
  amount: t.amount,
  currency: t.currency,
  debtorIban: t.debtorIban,
  creditorIban: t.creditorIban,
  creditorName: t.creditorName
})

/**
 * The payments of sorted occurrences, built in one pass in their final order (one object shape, made by
 * {@link arrayPayment}), with the planned-order index of each (the `slot` column turned into an order column
 * in place); orders sharing an orderId are put in nominal-date order within each day.
 */
export const payments = (plans: Plans.Plans, sorted: Sorted): Array<Payment.Payment> => {
  const { length: n, slot: order, kNominal, bounds, slotDays, from, steps, firstK, firstDay } = sorted
  const { templates } = plans
  const out = new Array<Payment.Payment>(n)
  const slots = bounds.length - 1
  const days = slotDays ?? new Int32Array(slots)
  let y = 0 // the next enumerated occurrence's k in kNominal
  for (let s = 0; s < slots; s++) {
    if (slotDays === undefined) days[s] = from + s
    const day = days[s]!
    const end = bounds[s + 1]!
    for (let x = bounds[s]!; x < end; x++) {
      const o = order[x]!
      if (o >= 0) {
        const step = steps[o]!
        // `| 0` keeps k a small integer (a division may give a double representation)
        const k = step === 1 ? firstK[o]! + day - firstDay[o]! : (firstK[o]! + (day - firstDay[o]!) / step) | 0
        out[x] = arrayPayment(templates[o]!, k, day, day)
      } else {
        const i = ~o
        order[x] = i
        out[x] = arrayPayment(templates[i]!, kNominal[y]!, kNominal[y + 1]!, day)
        y += 2
      }
    }
  }
  if (plans.sharedIds) {
    const move = (run: ReadonlyArray<number>, start: number): void => {
      const moved = run.map((x) => out[x]!)
      const orders = run.map((x) => order[x]!)
      for (let j = 0; j < run.length; j++) {
        out[start + j] = moved[j]!
        order[start + j] = orders[j]!
      }
    }
    // only the payments of orders that share their orderId are looked at (their ranks are equal)
    const { ranks } = plans
    const m = ranks.length
    const shared = new Uint8Array(m)
    for (let o = 1; o < m; o++) if (ranks[o] === ranks[o - 1]) shared[o] = shared[o - 1] = 1
    for (let s = 0; s < slots; s++) {
      const end = bounds[s + 1]!
      for (let x = bounds[s]!; x < end; x++) {
        if (shared[order[x]!] === 0) continue
        let y = x + 1
        while (y < end && ranks[order[y]!] === ranks[order[x]!]) y++
        if (y - x > 1) {
          Plans.orderSameIds(
            ranks,
            (z) => order[z]!,
            (z) => out[z]!.nominalDate,
            x,
            y,
            move
          )
        }
        x = y - 1
      }
    }
  }
  return out
}
