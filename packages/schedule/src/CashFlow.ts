/**
 * Cash-flow totals of projected payments: per currency, per debtor account and per day, ISO week or month.
 * Amounts are summed exactly (effect BigDecimal); amounts of different currencies are never added together.
 *
 * @since 0.1.0
 */

import type { LocalDate } from "@tppkit/core"
import type { Accumulator, Period, Totalled, Totals } from "./internal/tables.ts"
import * as Tables from "./internal/tables.ts"

export type { Accumulator, DebtorTotal, Period, PeriodTotal, Total, Totalled, Totals } from "./internal/tables.ts"

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
