/**
 * Cash-flow totals of projected payments: per currency, per debtor account and per day, ISO week or month.
 * Amounts are summed exactly (effect BigDecimal); amounts of different currencies are never added together.
 *
 * @since 0.1.0
 */

import { LocalDate } from "@tppkit/core"
import { BigDecimal } from "effect"
import * as Columnar from "./internal/columnar.ts"
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
// exact sums: a float-free fast path on safe integers, spilling into a bigint
// ---------------------------------------------------------------------------

const SAFE = 2 ** 52
const POW10: ReadonlyArray<number> = Array.from({ length: 16 }, (_, i) => 10 ** i)

/**
 * A running exact sum at a fixed scale: `units[0]` holds a safe integer part (in a typed array, so adding to it
 * never allocates a heap number), `big` the spilled rest.
 */
interface Sum {
  scale: number
  readonly units: Float64Array
  big: bigint
  count: number
}

/** A sum of one currency, chained to the sums of the other currencies of the same key. */
interface Entry extends Sum {
  readonly currency: string
  next: Entry | undefined
}

const newEntry = (currency: string, next: Entry | undefined): Entry => ({
  currency,
  next,
  scale: 2,
  units: new Float64Array(1),
  big: 0n,
  count: 0
})

/** The entry of `currency` in the chain starting at `head`, created at the chain's end when missing. */
const find = (head: Entry, currency: string): Entry => {
  let e = head
  while (e.currency !== currency) {
    if (e.next === undefined) {
      e.next = newEntry(currency, undefined)
      return e.next
    }
    e = e.next
  }
  return e
}

const chain = (head: Entry | undefined): Array<Entry> => {
  const out: Array<Entry> = []
  for (let e = head; e !== undefined; e = e.next) out.push(e)
  return out.sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0))
}

const spill = (s: Sum): void => {
  if (s.units[0] !== 0) {
    s.big += BigInt(s.units[0]!)
    s.units[0] = 0
  }
}

/** Adds an amount given as a safe integer number of cents (the common case: at most two decimals). */
const addCents = (s: Sum, cents: number): void => {
  s.count++
  const units = s.scale === 2 ? cents : cents * POW10[s.scale - 2]!
  if (s.scale - 2 < 16 && Number.isSafeInteger(units)) {
    const sum = s.units[0]! + units
    s.units[0] = sum
    if (sum > SAFE || sum < -SAFE) spill(s)
  } else {
    s.big += BigInt(cents) * 10n ** BigInt(s.scale - 2)
  }
}

/** Adds any amount exactly, raising the sum's scale when the amount has more decimals. */
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
  s.big += value * 10n ** BigInt(s.scale - scale)
}

// amounts with scale -3..2 whose number of cents is a small integer (below 2^30): the fast path's factor and
// bound per scale (index scale + 3), so that the cents stay small integers and never need a heap number
const CENTS_FACTOR: ReadonlyArray<number> = [100_000, 10_000, 1000, 100, 10, 1]
const CENTS_BOUND: ReadonlyArray<bigint> = CENTS_FACTOR.map((f) => BigInt(Math.floor((2 ** 30 - 1) / f)))
// negated once here: negating a bigint allocates a new one
const CENTS_FLOOR: ReadonlyArray<bigint> = CENTS_BOUND.map((b) => -b)

const sumValue = (s: Sum): BigDecimal.BigDecimal =>
  BigDecimal.normalize(BigDecimal.make(s.big + BigInt(s.units[0]!), s.scale))

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
  readonly add: (payment: Totalled) => void
  /** The tables of every payment added so far. */
  readonly result: () => Totals
}

class Tables implements Accumulator {
  count = 0
  currencies: Entry | undefined = undefined
  readonly debtors = new Map<string, Entry>()
  readonly periods = new Map<number, Entry>()
  // the period of the last execution date seen: projections arrive sorted, so this hits almost always
  lastDay = -1
  lastPeriod: Entry | undefined = undefined
  readonly period: Period
  constructor(period: Period) {
    this.period = period
  }

  readonly add = (p: Totalled): void => {
    this.count++
    const currency = p.currency
    const amount = p.amount
    const slot = amount.scale + 3
    const value = amount.value
    const fast = slot >= 0 && slot <= 5 && value <= CENTS_BOUND[slot]! && value >= CENTS_FLOOR[slot]!
    const cents = fast ? Number(value) * CENTS_FACTOR[slot]! : Number.NaN
    if (this.currencies === undefined) this.currencies = newEntry(currency, undefined)
    const c = this.currencies.currency === currency ? this.currencies : find(this.currencies, currency)
    let d = this.debtors.get(p.debtorIban)
    if (d === undefined) {
      d = newEntry(currency, undefined)
      this.debtors.set(p.debtorIban, d)
    } else if (d.currency !== currency) {
      d = find(d, currency)
    }
    let q = this.lastPeriod
    if (p.executionDate !== this.lastDay || q === undefined) {
      this.lastDay = p.executionDate
      const start = periodStart(p.executionDate, this.period)
      q = this.periods.get(start)
      if (q === undefined) {
        q = newEntry(currency, undefined)
        this.periods.set(start, q)
      }
      this.lastPeriod = q
    }
    if (q.currency !== currency) q = find(q, currency)
    if (!Number.isNaN(cents)) {
      addCents(c, cents)
      addCents(d, cents)
      addCents(q, cents)
    } else {
      addTo(c, amount)
      addTo(d, amount)
      addTo(q, amount)
    }
  }

  readonly result = (): Totals => {
    const period = this.period
    const total = (e: Entry): Total => ({ currency: e.currency, amount: sumValue(e), count: e.count })
    const byCurrency = chain(this.currencies).map(total)
    const byDebtor = [...this.debtors]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .flatMap(([debtorIban, head]) => chain(head).map((e) => ({ debtorIban, ...total(e) })))
    const byPeriod = [...this.periods]
      .sort(([a], [b]) => a - b)
      .flatMap(([start, head]) => {
        const startDate = start as LocalDate.LocalDate
        const label = periodLabel(startDate, period)
        const end = periodEnd(startDate, period)
        return chain(head).map((e) => ({ label, start: startDate, end, ...total(e) }))
      })
    return { period, count: this.count, byCurrency, byDebtor, byPeriod }
  }
}

/** A fresh accumulator for the given period length (default `"month"`). */
export const accumulator = (options?: Options): Accumulator => new Tables(options?.period ?? "month")

/**
 * Totals of payments per currency, per debtor account and currency, and per period and currency; every sum
 * is exact (packages/core/README.md, "Rules it follows").
 */
export const totals = (payments: Iterable<Totalled>, options?: Options): Totals => {
  const period = options?.period ?? "month"
  const columns = Columnar.columnsOf(payments)
  const fromColumns =
    columns === undefined ? undefined : columnTotals(payments as ReadonlyArray<Totalled>, columns, period)
  if (fromColumns !== undefined) return fromColumns
  const acc = new Tables(period)
  if (Array.isArray(payments)) {
    const list: ReadonlyArray<Totalled> = payments
    for (let i = 0; i < list.length; i++) acc.add(list[i]!)
  } else {
    for (const p of payments) acc.add(p)
  }
  return acc.result()
}

/** Factor from an amount's units to cents, by scale + 3 (scales −3..2). */
const TO_CENTS: ReadonlyArray<number> = [100_000, 10_000, 1000, 100, 10, 1]
/** Amounts whose value lies in ±2^53 convert to a number exactly. */
const SAFE_VALUE = 2n ** 53n
const NEG_SAFE_VALUE = -SAFE_VALUE

const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The pass over a registered array, day by day: checks that every payment still has its day and its order's
 * amount, currency and debtor account (else `undefined`) and returns the sums of cents and the counts of payments
 * per day and currency index (`nc` cells per day). What a payment is checked against lies in one flat array (each
 * order's amount, currency and debtor account side by side) and `perOrder` holds each order's cents and currency
 * index side by side, so that a payment costs two reads besides its own fields instead of its order's template
 * and three per-order arrays. The inner loop has no other branch, so that its compiled code never meets a path it
 * has not seen.
 */
const dayPass = (
  list: ReadonlyArray<Totalled>,
  columns: Columnar.Columns,
  perOrder: Float64Array,
  nc: number
): { readonly sums: Float64Array; readonly counts: Float64Array } | undefined => {
  const { order, templates, bounds, days } = columns
  const m = templates.length
  const expected = new Array<unknown>(3 * m)
  for (let o = 0; o < m; o++) {
    const t = templates[o]!
    expected[3 * o] = t.amount
    expected[3 * o + 1] = t.currency
    expected[3 * o + 2] = t.debtorIban
  }
  const slots = days.length
  const sums = new Float64Array(slots * nc)
  const dayCounts = new Float64Array(slots * nc)
  for (let s = 0; s < slots; s++) {
    const day = days[s]!
    const base = s * nc
    const end = bounds[s + 1]!
    for (let x = bounds[s]!; x < end; x++) {
      const p = list[x]
      const o = order[x]!
      const e = 3 * o
      if (
        p === undefined ||
        p.executionDate !== day ||
        p.amount !== expected[e] ||
        p.currency !== expected[e + 1] ||
        p.debtorIban !== expected[e + 2]
      ) {
        return undefined
      }
      const cell = base + perOrder[2 * o + 1]!
      sums[cell]! += perOrder[2 * o]!
      dayCounts[cell]!++
    }
  }
  return { sums, counts: dayCounts }
}

/**
 * The tables of a projection's own payment array from its columns, equal to summing payment by payment, or
 * `undefined` (then the caller does that) when some payment no longer has its day and its order's amount,
 * currency and debtor account, an amount of a counted order is not a whole number of cents, or a sum could reach
 * 2^50 cents (below that each float sum is exact). One pass ({@link dayPass}) checks every payment and adds its
 * cents into a small table of (day, currency) sums; per currency and debtor, each order's amount times its
 * count; per period, the sums of its days.
 */
const columnTotals = (list: ReadonlyArray<Totalled>, columns: Columnar.Columns, period: Period): Totals | undefined => {
  const { templates } = columns
  const m = templates.length
  const currencyIndex = new Map<string, number>()
  const debtorIndex = new Map<string, number>()
  const currencyOf = new Int32Array(m)
  const debtorOf = new Int32Array(m)
  // NaN for an amount the fast path cannot take: a sum it reaches ends up NaN, and the tables are not used
  const cents = new Float64Array(m)
  for (let o = 0; o < m; o++) {
    const t = templates[o]!
    const { scale, value } = t.amount
    const x =
      scale < -3 || scale > 2 || value > SAFE_VALUE || value < NEG_SAFE_VALUE
        ? Number.NaN
        : Number(value) * TO_CENTS[scale + 3]!
    cents[o] = Number.isSafeInteger(x) ? x : Number.NaN
    let ci = currencyIndex.get(t.currency)
    if (ci === undefined) {
      ci = currencyIndex.size
      currencyIndex.set(t.currency, ci)
    }
    currencyOf[o] = ci
    let di = debtorIndex.get(t.debtorIban)
    if (di === undefined) {
      di = debtorIndex.size
      debtorIndex.set(t.debtorIban, di)
    }
    debtorOf[o] = di
  }
  const nc = currencyIndex.size
  const perOrder = new Float64Array(2 * m)
  for (let o = 0; o < m; o++) {
    perOrder[2 * o] = cents[o]!
    perOrder[2 * o + 1] = currencyOf[o]!
  }
  const perDay = dayPass(list, columns, perOrder, nc)
  if (perDay === undefined) return undefined
  // every payment is its order's (checked above): each order has the payments the projection counted
  const { counts } = columns
  const n = list.length
  const currencySum = new Float64Array(nc)
  const currencyCount = new Float64Array(nc)
  const debtorSum = new Float64Array(debtorIndex.size * nc)
  const debtorCount = new Float64Array(debtorIndex.size * nc)
  let bound = 0
  for (let o = 0; o < m; o++) {
    const count = counts[o]!
    if (count === 0) continue
    const ci = currencyOf[o]!
    const amount = cents[o]! * count
    bound += Math.abs(amount)
    currencySum[ci]! += amount
    currencyCount[ci]! += count
    const cell = debtorOf[o]! * nc + ci
    debtorSum[cell]! += amount
    debtorCount[cell]! += count
  }
  // NaN (an amount off the fast path) fails this too
  if (!(bound < 2 ** 50)) return undefined
  // periods: the days ascend, so their periods come one after the other
  const { days, bounds } = columns
  const periodStarts: Array<number> = []
  const periodSums: Array<Float64Array> = []
  const periodCounts: Array<Float64Array> = []
  let sums = new Float64Array(0)
  let ns = new Float64Array(0)
  for (let s = 0; s < days.length; s++) {
    if (bounds[s + 1] === bounds[s]) continue
    const start = periodStart(days[s]! as LocalDate.LocalDate, period)
    if (start !== periodStarts[periodStarts.length - 1]) {
      sums = new Float64Array(nc)
      ns = new Float64Array(nc)
      periodStarts.push(start)
      periodSums.push(sums)
      periodCounts.push(ns)
    }
    for (let ci = 0; ci < nc; ci++) {
      sums[ci]! += perDay.sums[s * nc + ci]!
      ns[ci]! += perDay.counts[s * nc + ci]!
    }
  }
  const currencies = [...currencyIndex].sort(([a], [b]) => compareStrings(a, b))
  const fromCents = (x: number) => BigDecimal.normalize(BigDecimal.make(BigInt(x), 2))
  const totalsOf = (sum: Float64Array, count: Float64Array, base: number): Array<Total> => {
    const out: Array<Total> = []
    for (const [currency, ci] of currencies) {
      const n = count[base + ci]!
      if (n > 0) out.push({ currency, amount: fromCents(sum[base + ci]!), count: n })
    }
    return out
  }
  return {
    period,
    count: n,
    byCurrency: totalsOf(currencySum, currencyCount, 0),
    byDebtor: [...debtorIndex]
      .sort(([a], [b]) => compareStrings(a, b))
      .flatMap(([debtorIban, di]) => totalsOf(debtorSum, debtorCount, di * nc).map((t) => ({ debtorIban, ...t }))),
    byPeriod: periodStarts.flatMap((s, i) => {
      const start = s as LocalDate.LocalDate
      const label = periodLabel(start, period)
      const end = periodEnd(start, period)
      return totalsOf(periodSums[i]!, periodCounts[i]!, 0).map((t) => ({ label, start, end, ...t }))
    })
  }
}
