/**
 * Cash-flow totals of projected payments: per currency, per debtor account and per day, ISO week or month.
 * Amounts are summed exactly (effect BigDecimal); amounts of different currencies are never added together.
 *
 * @since 0.1.0
 */

import { LocalDate } from "@tppkit/core"
import { BigDecimal } from "effect"
import type { Payment } from "./Payment.ts"

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
// exact sums: a float-free fast path on safe integers, spilling into a bigint
// ---------------------------------------------------------------------------

const SAFE = 2 ** 52
const BIG_SAFE = BigInt(Number.MAX_SAFE_INTEGER)
const POW10: ReadonlyArray<number> = Array.from({ length: 16 }, (_, i) => 10 ** i)

/** A running exact sum at a fixed scale: `units` holds a safe integer part, `big` the spilled rest. */
interface Sum {
  scale: number
  units: number
  big: bigint
  count: number
}

const newSum = (): Sum => ({ scale: 2, units: 0, big: 0n, count: 0 })

const spill = (s: Sum): void => {
  if (s.units !== 0) {
    s.big += BigInt(s.units)
    s.units = 0
  }
}

const addTo = (s: Sum, amount: BigDecimal.BigDecimal): void => {
  s.count++
  let scale = amount.scale
  let value = amount.value
  if (scale < 0) {
    value = value * 10n ** BigInt(-scale)
    scale = 0
  }
  if (scale > s.scale) {
    spill(s)
    s.big = s.big * 10n ** BigInt(scale - s.scale)
    s.scale = scale
  }
  const shift = s.scale - scale
  if (shift < 16 && value <= BIG_SAFE && value >= -BIG_SAFE) {
    const units = Number(value) * POW10[shift]!
    if (Number.isSafeInteger(units)) {
      s.units += units
      if (s.units > SAFE || s.units < -SAFE) spill(s)
      return
    }
  }
  s.big += value * 10n ** BigInt(shift)
}

const sumValue = (s: Sum): BigDecimal.BigDecimal =>
  BigDecimal.normalize(BigDecimal.make(s.big + BigInt(s.units), s.scale))

// ---------------------------------------------------------------------------
// periods
// ---------------------------------------------------------------------------

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`)

/** The first day of the period holding `d`: the day itself, the ISO week's Monday, or the month's first day. */
export const periodStart = (d: LocalDate.LocalDate, period: Period): LocalDate.LocalDate => {
  switch (period) {
    case "day":
      return d
    case "week":
      return LocalDate.addDays(d, 1 - LocalDate.dayOfWeek(d))
    case "month": {
      const { year, month } = LocalDate.toParts(d)
      return LocalDate.fromPartsUnchecked(year, month, 1)
    }
  }
}

/** The last day of the period that starts on `start`. */
export const periodEnd = (start: LocalDate.LocalDate, period: Period): LocalDate.LocalDate => {
  switch (period) {
    case "day":
      return start
    case "week":
      return LocalDate.addDays(start, 6)
    case "month": {
      const { year, month } = LocalDate.toParts(start)
      return LocalDate.ofMonthClamped(year, month, 31)
    }
  }
}

/** The label of the period starting on `start`: `2026-01-05`, ISO week `2026-W02`, or `2026-01`. */
export const periodLabel = (start: LocalDate.LocalDate, period: Period): string => {
  switch (period) {
    case "day":
      return LocalDate.format(start)
    case "week": {
      // ISO 8601: a week belongs to the year of its Thursday
      const thursday = LocalDate.addDays(start, 3)
      const year = LocalDate.year(thursday)
      const week = Math.floor((thursday - LocalDate.fromPartsUnchecked(year, 1, 1)) / 7) + 1
      return `${LocalDate.format(thursday).slice(0, 4)}-W${pad2(week)}`
    }
    case "month":
      return LocalDate.format(start).slice(0, 7)
  }
}

// ---------------------------------------------------------------------------
// accumulator and totals
// ---------------------------------------------------------------------------

/** An incremental cash-flow accumulator, for payments that arrive one by one (e.g. from a Stream). */
export interface Accumulator {
  /** Adds one payment. */
  readonly add: (payment: Payment) => void
  /** The tables of every payment added so far. */
  readonly result: () => Totals
}

const byKey = <A>(entries: Iterable<[string, A]>): Array<[string, A]> =>
  [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))

/** A fresh accumulator for the given period length (default `"month"`). */
export const accumulator = (options?: Options): Accumulator => {
  const period = options?.period ?? "month"
  let count = 0
  const currencies = new Map<string, Sum>()
  const debtors = new Map<string, Map<string, Sum>>()
  const periods = new Map<number, Map<string, Sum>>()
  // periodStart of the last execution date seen: projections arrive sorted, so this hits almost always
  let lastDay = Number.NaN
  let lastStart = 0
  const cell = (outer: Map<string, Sum>, currency: string): Sum => {
    let s = outer.get(currency)
    if (s === undefined) {
      s = newSum()
      outer.set(currency, s)
    }
    return s
  }
  const add = (p: Payment): void => {
    count++
    addTo(cell(currencies, p.currency), p.amount)
    let d = debtors.get(p.debtorIban)
    if (d === undefined) {
      d = new Map()
      debtors.set(p.debtorIban, d)
    }
    addTo(cell(d, p.currency), p.amount)
    if (p.executionDate !== lastDay) {
      lastDay = p.executionDate
      lastStart = periodStart(p.executionDate, period)
    }
    let q = periods.get(lastStart)
    if (q === undefined) {
      q = new Map()
      periods.set(lastStart, q)
    }
    addTo(cell(q, p.currency), p.amount)
  }
  const result = (): Totals => {
    const byCurrency = byKey(currencies).map(([currency, s]) => ({ currency, amount: sumValue(s), count: s.count }))
    const byDebtor = byKey(debtors).flatMap(([debtorIban, m]) =>
      byKey(m).map(([currency, s]) => ({ debtorIban, currency, amount: sumValue(s), count: s.count }))
    )
    const byPeriod = [...periods]
      .sort(([a], [b]) => a - b)
      .flatMap(([start, m]) => {
        const startDate = start as LocalDate.LocalDate
        const label = periodLabel(startDate, period)
        const end = periodEnd(startDate, period)
        return byKey(m).map(([currency, s]) => ({
          label,
          start: startDate,
          end,
          currency,
          amount: sumValue(s),
          count: s.count
        }))
      })
    return { period, count, byCurrency, byDebtor, byPeriod }
  }
  return { add, result }
}

/**
 * Totals of payments per currency, per debtor account and currency, and per period and currency; every sum
 * is exact (spec: amounts are carried exactly as decimals, in single payments and in totals).
 */
export const totals = (payments: Iterable<Payment>, options?: Options): Totals => {
  const acc = accumulator(options)
  for (const p of payments) acc.add(p)
  return acc.result()
}
