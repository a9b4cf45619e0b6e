/**
 * The cash-flow tables' engine (the public `CashFlow`): exact running sums per currency, per debtor account and per
 * period, each a float-free fast path on safe integers of cents that spills into a bigint. A payment can be added
 * `n` times at once ({@link Tables.addTimes}), which the projection's writers use to add an order's payments of one
 * period together.
 */
import { LocalDate } from "@tppkit/core"
import { BigDecimal } from "effect"
import type { Accumulator, Period, Total, Totalled, Totals } from "../CashFlow.ts"

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

/** Adds `n` times an amount given as a safe integer number of cents (the common case: at most two decimals). */
const addCents = (s: Sum, cents: number, n: number): void => {
  s.count += n
  const units = (s.scale === 2 ? cents : cents * POW10[s.scale - 2]!) * n
  if (s.scale - 2 < 16 && Number.isSafeInteger(units)) {
    const sum = s.units[0]! + units
    s.units[0] = sum
    if (sum > SAFE || sum < -SAFE) spill(s)
  } else {
    s.big += BigInt(cents) * BigInt(n) * 10n ** BigInt(s.scale - 2)
  }
}

/** Adds `n` times any amount exactly, raising the sum's scale when the amount has more decimals. */
const addTo = (s: Sum, amount: BigDecimal.BigDecimal, n: number): void => {
  s.count += n
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
  s.big += value * BigInt(n) * 10n ** BigInt(s.scale - scale)
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

/** The tables of the payments added so far: an {@link Accumulator} that can also add a payment `n` times at once. */
export class Tables implements Accumulator {
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

  readonly add = (p: Totalled): void => this.addTimes(p, 1)

  /** Adds a payment `n` times (n ≥ 1), as `n` calls of `add` would. */
  readonly addTimes = (p: Totalled, n: number): void => {
    this.count += n
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
      addCents(c, cents, n)
      addCents(d, cents, n)
      addCents(q, cents, n)
    } else {
      addTo(c, amount, n)
      addTo(d, amount, n)
      addTo(q, amount, n)
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

/**
 * Adds the payments counted per order (`counts[i]` payments of order `i` for each `i` of `touched`) to the tables,
 * each order's at once as a payment on `day` (a day of the period they belong to), and clears the counts.
 */
export const addCounted = (
  tables: Tables,
  orders: ReadonlyArray<Omit<Totalled, "executionDate">>,
  counts: Int32Array,
  touched: Array<number>,
  day: number
): void => {
  for (const i of touched) {
    const o = orders[i]!
    const p: Totalled = {
      executionDate: day as LocalDate.LocalDate,
      amount: o.amount,
      currency: o.currency,
      debtorIban: o.debtorIban
    }
    tables.addTimes(p, counts[i]!)
    counts[i] = 0
  }
  touched.length = 0
}
