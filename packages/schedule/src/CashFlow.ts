/**
 * Cash-flow totals of projected payments: per currency, per debtor account and per day, ISO week or month.
 * Amounts are summed exactly (effect BigDecimal); amounts of different currencies are never added together.
 *
 * @since 0.1.0
 */

import type { LocalDate } from "@tppkit/core"
import type { BigDecimal } from "effect"
import * as Tables from "./internal/tables.ts"
import type { Payment } from "./Payment.ts"

/** What the tables read of a payment: its execution date, amount, currency and debtor account. */
export type Totalled = Pick<Payment, "executionDate" | "amount" | "currency" | "debtorIban">

/** The length of the periods of a cash-flow table. */
export type Period = "day" | "week" | "month"

/** The sum and number of payments in one currency. */
export interface Total {
  readonly currency: string
  readonly amount: BigDecimal.BigDecimal
  readonly count: number
}

/** The total of one debtor account in one currency. */
export interface DebtorTotal extends Total {
  readonly debtorIban: string
}

/** The total of one period in one currency; `label` is `2026-01-05`, `2026-W02` or `2026-01`. */
export interface PeriodTotal extends Total {
  readonly label: string
  readonly start: LocalDate.LocalDate
  readonly end: LocalDate.LocalDate
}

/** Every table of a cash flow: by currency, by debtor account and currency, by period and currency. */
export interface Totals {
  readonly period: Period
  readonly count: number
  readonly byCurrency: ReadonlyArray<Total>
  readonly byDebtor: ReadonlyArray<DebtorTotal>
  readonly byPeriod: ReadonlyArray<PeriodTotal>
}

/** Options of {@link totals}: the period length of the `byPeriod` table (default `"month"`). */
export interface Options {
  readonly period?: Period | undefined
}

// ---------------------------------------------------------------------------
// periods
// ---------------------------------------------------------------------------

/** The first day of the period holding `d`: the day itself, the ISO week's Monday, or the month's first day. */
export const periodStart: (d: LocalDate.LocalDate, period: Period) => LocalDate.LocalDate = Tables.periodStart

/** The last day of the period that starts on `start`. */
export const periodEnd: (start: LocalDate.LocalDate, period: Period) => LocalDate.LocalDate = Tables.periodEnd

/** The label of the period starting on `start`: `2026-01-05`, ISO week `2026-W02`, or `2026-01`. */
export const periodLabel: (start: LocalDate.LocalDate, period: Period) => string = Tables.periodLabel

// ---------------------------------------------------------------------------
// accumulator and totals
// ---------------------------------------------------------------------------

/** An incremental cash-flow accumulator, for payments that arrive one by one (e.g. from a Stream). */
export interface Accumulator {
  /** Adds one payment. */
  readonly add: (payment: Totalled) => void
  /** The tables of every payment added so far. */
  readonly result: () => Totals
}

/** A fresh accumulator for the given period length (default `"month"`). */
export const accumulator = (options?: Options): Accumulator => new Tables.Tables(options?.period ?? "month")

/**
 * Totals of payments per currency, per debtor account and currency, and per period and currency, summed payment by
 * payment; every sum is exact (spec: amounts are carried exactly as decimals, in single payments and in totals). For
 * the totals of a projection without its payments, see `Projection.totals`.
 */
export const totals = (payments: Iterable<Totalled>, options?: Options): Totals => {
  const acc = new Tables.Tables(options?.period ?? "month")
  if (Array.isArray(payments)) {
    const list: ReadonlyArray<Totalled> = payments
    for (let i = 0; i < list.length; i++) acc.add(list[i]!)
  } else {
    for (const p of payments) acc.add(p)
  }
  return acc.result()
}
