/**
 * The columns behind a projection's payment array, seen only by the package: `Projection.project` registers
 * its array here, and `CashFlow.totals` of exactly that array sums per order and per period from the columns
 * once it has checked that every payment still has the execution date, amount, currency and debtor account the
 * columns say (so a changed array is totalled payment by payment, as any other).
 */
import type { LocalDate } from "@tppkit/core"
import type { BigDecimal } from "effect"
import type * as Payment from "../Payment.ts"
import type { Template } from "./plans.ts"
import type { Sorted } from "./sort.ts"

interface Columns {
  readonly sorted: Sorted
  readonly templates: ReadonlyArray<Template>
}

const registry = new WeakMap<ReadonlyArray<unknown>, Columns>()

/** Remembers the columns of a projection's payment array. */
export const register = (
  payments: ReadonlyArray<Payment.Payment>,
  sorted: Sorted,
  templates: ReadonlyArray<Template>
) => registry.set(payments, { sorted, templates })

/** What the totals need of a registered array whose payments all still match their columns. */
export interface Checked {
  readonly templates: ReadonlyArray<Template>
  /** Per order, how many of its payments the array holds. */
  readonly counts: Float64Array
  readonly order: Int32Array
  readonly execution: Int32Array
  readonly length: number
}

/** The columns of `payments` when it is a registered array whose every payment matches them, else undefined. */
export const check = (
  payments: Iterable<{
    readonly executionDate: LocalDate.LocalDate
    readonly amount: BigDecimal.BigDecimal
    readonly currency: string
    readonly debtorIban: string
  }>
): Checked | undefined => {
  if (!Array.isArray(payments)) return undefined
  const columns = registry.get(payments)
  if (columns === undefined) return undefined
  const { sorted, templates } = columns
  const list = payments as ReadonlyArray<Payment.Payment>
  const n = sorted.length
  if (list.length !== n) return undefined
  const counts = new Float64Array(templates.length)
  const { order, execution } = sorted
  for (let x = 0; x < n; x++) {
    const p = list[x]
    const o = order[x]!
    const t = templates[o]!
    if (
      p === undefined ||
      p.executionDate !== execution[x] ||
      p.amount !== t.amount ||
      p.currency !== t.currency ||
      p.debtorIban !== t.debtorIban
    ) {
      return undefined
    }
    counts[o]!++
  }
  return { templates, counts, order, execution, length: n }
}
