/**
 * The columns behind a projection's payment array, seen only by the package: `Projection.project` registers its
 * array with the planned-order index and the execution day of each payment and the orders' shared fields, and
 * `CashFlow.totals` of exactly that array (same length) sums per order and per day from them while it checks
 * that every payment still has its day and its order's amount, currency and debtor account (so a changed array
 * is totalled payment by payment, as any other).
 */
import type * as Payment from "../Payment.ts"
import type { Template } from "./plans.ts"

/**
 * A registered array's columns: per payment, the index of its order in `templates`; per order, how many payments
 * it has (`counts`); the payments of day `days[s]` at positions `bounds[s]..bounds[s + 1]` (exclusive), days
 * ascending.
 */
export interface Columns {
  readonly order: Int32Array
  readonly templates: ReadonlyArray<Template>
  readonly counts: Int32Array
  readonly bounds: Int32Array
  readonly days: Int32Array
}

const registry = new WeakMap<ReadonlyArray<unknown>, Columns>()

/** Remembers the order column of a projection's payment array. */
export const register = (payments: ReadonlyArray<Payment.Payment>, columns: Columns): void => {
  registry.set(payments, columns)
}

/**
 * The column of `payments` when it is a registered array of the length it was registered with, else undefined;
 * the caller still checks each payment against its order's template.
 */
export const columnsOf = (payments: unknown): Columns | undefined => {
  if (!Array.isArray(payments)) return undefined
  const columns = registry.get(payments)
  return columns !== undefined && columns.order.length === payments.length ? columns : undefined
}
