/**
 * Standing-order listings made by a bank with a given date rule (each `nextDate` from core's `BankRule`), as the
 * text of a list answer, for the reconcile suites.
 */
import { BankRule, type Frequency, LocalDate } from "@tppkit/core"
import { Result } from "effect"

/** One order of a listing: its schedule; `nextDate` is the bank's unless given. */
export interface ListedOrder {
  readonly orderId: string
  readonly frequency: Frequency.Frequency
  readonly startDate: string
  readonly endDate?: string
  readonly nextDate?: string
}

/** Monthly orders starting on each day of January 2025: enough to separate the conventions on most listing days. */
export const monthly: ReadonlyArray<ListedOrder> = Array.from({ length: 31 }, (_, i) => ({
  orderId: `SO-${String(i + 1).padStart(2, "0")}`,
  frequency: "MNTH",
  startDate: `2025-01-${String(i + 1).padStart(2, "0")}`
}))

/** The `nextDate` a bank with `rule` lists for an order on `asOf` (`undefined` when the order has ended). */
export const bankDate = (order: ListedOrder, rule: BankRule.BankRule, asOf: string): string | undefined => {
  const plan = BankRule.plan(
    {
      frequency: order.frequency,
      startDate: LocalDate.parseUnsafe(order.startDate),
      ...(order.endDate === undefined ? {} : { endDate: LocalDate.parseUnsafe(order.endDate) })
    },
    rule
  )
  const d = Result.isSuccess(plan) ? BankRule.listedDate(plan.success, LocalDate.parseUnsafe(asOf)) : undefined
  return d === undefined ? undefined : LocalDate.format(d)
}

/** The list answer of a bank with `rule` on `asOf` (an order's own `nextDate` kept when given). */
export const listing = (orders: ReadonlyArray<ListedOrder>, rule: BankRule.BankRule, asOf: string): string =>
  JSON.stringify({
    pageCount: 1,
    standingOrders: orders.map((o) => {
      const nextDate = o.nextDate ?? bankDate(o, rule, asOf)
      return {
        orderId: o.orderId,
        debtor: { name: "Debtor", iban: "SK2411000000002612345678" },
        creditor: { iban: "SK6609000000005012345678" },
        instructedAmount: { value: 10, currency: "EUR" },
        startDate: o.startDate,
        ...(o.endDate === undefined ? {} : { endDate: o.endDate }),
        ...(nextDate === undefined ? {} : { nextDate }),
        frequency: o.frequency
      }
    })
  })
