/**
 * The tables of `tppkit standing-orders`: the orders listed grouped by debtor account, and one payment of each summed
 * per frequency and currency.
 *
 * @since 0.1.0
 */

import { Frequency, LocalDate, Money } from "@tppkit/core"
import * as CashFlow from "@tppkit/schedule/CashFlow"
import type { BigDecimal } from "effect"
import { table, WIDTH } from "./Render.ts"

/** A standing order as the list table needs it (structurally core's `StandingOrder`). */
export interface StandingOrderRow {
  readonly orderId: string
  readonly frequency: string
  readonly startDate?: LocalDate.LocalDate | undefined
  readonly nextDate?: LocalDate.LocalDate | undefined
  readonly debtor?: { readonly iban: string } | undefined
  readonly creditor: { readonly name?: string | undefined; readonly iban: string }
  readonly instructedAmount: { readonly value: BigDecimal.BigDecimal; readonly currency: string }
}

/**
 * The orders grouped by debtor account (an IBAN, or "" when the bank gave none), each group in the list's order,
 * the groups in the order their first order comes: a list that spans several accounts is shown one account at a
 * time, each account's IBAN whole.
 */
export const byDebtor = <A extends StandingOrderRow>(
  orders: ReadonlyArray<A>
): ReadonlyArray<readonly [string, ReadonlyArray<A>]> => {
  const groups = new Map<string, Array<A>>()
  for (const o of orders) {
    const iban = o.debtor?.iban ?? ""
    const group = groups.get(iban)
    if (group === undefined) groups.set(iban, [o])
    else group.push(o)
  }
  return [...groups]
}

/**
 * Standing orders as table rows: id, frequency, the date shown and which it is (`next`: the bank's next execution
 * date; `start`: the start date, when the bank gave no next date), the creditor, the amount.
 */
export const ordersTable = (orders: ReadonlyArray<StandingOrderRow>, width: number = WIDTH): Array<string> =>
  table(
    [
      { header: "Order", flex: true },
      { header: "Freq" },
      { header: "Date" },
      { header: "Creditor", flex: true },
      { header: "Amount", align: "right" },
      { header: "Cur" }
    ],
    orders.map((o) => {
      const date =
        o.nextDate !== undefined
          ? `${LocalDate.format(o.nextDate)} next`
          : o.startDate !== undefined
            ? `${LocalDate.format(o.startDate)} start`
            : ""
      return [
        o.orderId,
        o.frequency,
        date,
        o.creditor.name ?? o.creditor.iban,
        Money.formatMinor(o.instructedAmount.value, o.instructedAmount.currency),
        o.instructedAmount.currency
      ]
    }),
    width
  )

/**
 * Per frequency and currency, the count of orders and the sum of one payment of each (`CashFlow.totals`), in the
 * frequencies' order: a daily amount is never added to a yearly one, and nothing is converted or rounded.
 */
export const orderTotalsTable = (orders: ReadonlyArray<StandingOrderRow>, width: number = WIDTH): Array<string> => {
  const frequencies = [...new Set(orders.map((o) => o.frequency))].sort(
    (a, b) => frequencyRank(a) - frequencyRank(b) || a.localeCompare(b)
  )
  const rows = frequencies.flatMap((frequency) => {
    const onePaymentEach = orders
      .filter((o) => o.frequency === frequency)
      .map((o) => ({
        executionDate: LocalDate.MIN,
        amount: o.instructedAmount.value,
        currency: o.instructedAmount.currency,
        debtorIban: ""
      }))
    return CashFlow.totals(onePaymentEach).byCurrency.map((t) => [
      frequency,
      t.currency,
      String(t.count),
      Money.formatMinor(t.amount, t.currency)
    ])
  })
  return table(
    [
      { header: "Freq" },
      { header: "Currency" },
      { header: "Orders", align: "right" },
      { header: "One payment each", align: "right" }
    ],
    rows,
    width
  )
}

/** A frequency's place in the bank's list of codes (unknown codes last). */
const frequencyRank = (code: string): number => {
  const i = (Frequency.codes as ReadonlyArray<string>).indexOf(code)
  return i < 0 ? Frequency.codes.length : i
}
