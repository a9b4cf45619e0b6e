/**
 * The projection engine's lazy merge: the payments day by day from a calendar queue, holding one head
 * occurrence per order (three integers) instead of every payment. Each order waits in the bucket of its next
 * execution day; the days with a bucket sit in a min-heap. A day's bucket is put in planned order (a native sort
 * of positions), its payments are emitted, orders sharing an orderId put in nominal-date order
 * ({@link Plans.orderSameIds}), and each order moves on to the bucket of its next execution day.
 */
import { type LocalDate, Occurrence } from "@tppkit/core"
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

/** The payments of the planned orders day by day (each batch non-empty, in projection order). */
export function* batches(plans: Plans.Plans, window: Plans.Window): Generator<Array<Payment.Payment>> {
  const to = window.to
  const m = plans.plans.length
  const headK = new Int32Array(m)
  const headNominal = new Int32Array(m)
  const headExecution = new Int32Array(m)
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
  for (let i = 0; i < m; i++) {
    const start = plans.starts[i]!
    if (start > to) continue
    const head = Occurrence.firstOnOrAfter(plans.plans[i]!, start as LocalDate.LocalDate)
    if (head === undefined || head.execution > to) continue
    headK[i] = head.k
    headNominal[i] = head.nominal
    headExecution[i] = head.execution
    enqueue(i, head.execution)
  }
  const { templates, ranks } = plans
  while (heap.size > 0) {
    const day = heap.pop()
    const bucket = buckets.get(day)!
    buckets.delete(day)
    const due = Int32Array.from(bucket).sort()
    const out: Array<Payment.Payment> = []
    const owners: Array<number> = [] // the planned-order index of each payment, when orders share orderIds
    for (let x = 0; x < due.length; x++) {
      const i = due[x]!
      const plan = plans.plans[i]!
      const t = templates[i]!
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
        headExecution[i] = o.execution
        enqueue(i, o.execution)
      }
    }
    if (plans.sharedIds) {
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
    }
    yield out
  }
}
