/**
 * The orders a consent's listing gives the day's forecast ahead, as the fleet keeps them in PostgreSQL
 * (`tppkit_ahead_orders`): each order reduced to what the forecast reads (`AtRisk.forecastOrders`) written as one JSON
 * tuple, exactly (the amount's digits and scale, the dates' day numbers, a recurrence's JSON form and the bank code it
 * was made from), and read back to the same order. Pure.
 */
import { type BusinessDayConvention, type Frequency, type LocalDate, Recurrence } from "@tppkit/core"
import type { Projection } from "@tppkit/schedule"
import { BigDecimal, Result } from "effect"

/**
 * One order as kept: orderId, the amount's digits and scale, currency, debtor's and creditor's IBAN, frequency,
 * start, next and end dates (day numbers), the recurrence's JSON form and its bank code (`null` where absent).
 */
type Tuple = [
  orderId: string,
  digits: string,
  scale: number,
  currency: string,
  debtor: string,
  creditor: string | null,
  frequency: string | null,
  start: number | null,
  next: number | null,
  end: number | null,
  recurrence: unknown,
  code: string | null
]

const tupleOf = (o: Projection.ProjectableOrder): Tuple => [
  o.orderId,
  o.instructedAmount.value.value.toString(),
  o.instructedAmount.value.scale,
  o.instructedAmount.currency,
  o.debtor.iban,
  o.creditor.iban ?? null,
  o.frequency ?? null,
  o.startDate ?? null,
  o.nextDate ?? null,
  o.endDate ?? null,
  o.recurrence === undefined ? null : Recurrence.encodeJson(o.recurrence),
  o.recurrence === undefined ? null : (Recurrence.code(o.recurrence) ?? null)
]

/**
 * A recurrence read back: a bank code's made again from its code (so that the engine plans it on the code's own
 * arithmetic, as the listing's was) when that gives the same fields, else the recurrence as its JSON says (the same
 * dates, planned by the general path).
 */
const recurrenceOf = (json: unknown, code: string | null): Recurrence.Recurrence | undefined => {
  const decoded = Recurrence.decodeJson(json)
  if (Result.isFailure(decoded)) return undefined
  const r = decoded.success
  if (code === null) return r
  const made = Recurrence.fromSbas(
    { frequency: code as Frequency.Frequency, startDate: r.start, endDate: r.end },
    r.calendar === undefined ? {} : { calendar: r.calendar }
  )
  if (Result.isFailure(made)) return r
  const again = Recurrence.withConvention(made.success, r.convention as BusinessDayConvention.BusinessDayConvention)
  return JSON.stringify(Recurrence.encodeJson(again)) === JSON.stringify(json) ? again : r
}

const orderOf = (t: Tuple): Projection.ProjectableOrder => {
  const [orderId, digits, scale, currency, debtor, creditor, frequency, start, next, end, json, code] = t
  const recurrence = json === null ? undefined : recurrenceOf(json, code)
  return {
    orderId,
    instructedAmount: { value: BigDecimal.make(BigInt(digits), scale), currency },
    debtor: { iban: debtor },
    creditor: { iban: creditor ?? undefined },
    ...(frequency === null ? {} : { frequency: frequency as Frequency.Frequency }),
    ...(start === null ? {} : { startDate: start as LocalDate.LocalDate }),
    ...(next === null ? {} : { nextDate: next as LocalDate.LocalDate }),
    ...(end === null ? {} : { endDate: end as LocalDate.LocalDate }),
    ...(recurrence === undefined ? {} : { recurrence })
  }
}

/** The orders' text as kept (a JSON array of one tuple per order, in the listing's order). */
export const encode = (orders: ReadonlyArray<Projection.ProjectableOrder>): string =>
  JSON.stringify(orders.map(tupleOf))

/**
 * The orders of a kept text, in its order; only those `wanted` says (by debtor's and creditor's IBAN) are made into
 * orders, so that reading a consent's orders for some accounts never holds the others.
 */
export const decode = (
  text: string,
  wanted: (debtor: string, creditor: string | undefined) => boolean = () => true
): Array<Projection.ProjectableOrder> => {
  const out: Array<Projection.ProjectableOrder> = []
  for (const t of JSON.parse(text) as ReadonlyArray<Tuple>) {
    if (wanted(t[4], t[5] ?? undefined)) out.push(orderOf(t))
  }
  return out
}

/**
 * How many of the orders pay from or into each of `accounts` (an order between two of them counts for both), in the
 * order the accounts are first met: what the day's run sizes its parts by without reading the orders.
 */
export const touches = (
  orders: ReadonlyArray<Projection.ProjectableOrder>,
  accounts: ReadonlySet<string>
): Array<[iban: string, orders: number]> => {
  const counts = new Map<string, number>()
  const touch = (iban: string | undefined) => {
    if (iban !== undefined && accounts.has(iban)) counts.set(iban, (counts.get(iban) ?? 0) + 1)
  }
  for (const o of orders) {
    touch(o.debtor.iban)
    if (o.creditor.iban !== o.debtor.iban) touch(o.creditor.iban)
  }
  return [...counts]
}
