/**
 * The cash-flow tables' engine (the public `CashFlow`): exact running sums per currency, per debtor account and per
 * period, each a float-free fast path on safe integers of cents that spills into a bigint. A payment can be added
 * `n` times at once ({@link Tables.addTimes}), which the projection's writers use to add an order's payments of one
 * period together. The tables' types are declared here; `CashFlow` re-exports them.
 */
import { LocalDate, Occurrence } from "@tppkit/core"
import { BigDecimal } from "effect"
import type { Payment } from "../Payment.ts"
import type { Plans, Window } from "./plans.ts"

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

/** The length of the periods of a cash-flow table. */
export type Period = "day" | "week" | "month"

/** What the tables read of a payment: its execution date, amount, currency and debtor account. */
export type Totalled = Pick<Payment, "executionDate" | "amount" | "currency" | "debtorIban">

/** The sum and number of payments in one currency. */
export interface Total {
  readonly currency: string
  readonly amount: BigDecimal.BigDecimal
  readonly count: number
}

/** Every table of a cash flow: by currency, by debtor account and currency, by period and currency. */
export interface Totals {
  readonly period: Period
  readonly count: number
  readonly byCurrency: ReadonlyArray<Total>
  readonly byDebtor: ReadonlyArray<DebtorTotal>
  readonly byPeriod: ReadonlyArray<PeriodTotal>
}

/** An incremental cash-flow accumulator, for payments that arrive one by one (e.g. from a Stream). */
export interface Accumulator {
  /** Adds one payment. */
  readonly add: (payment: Totalled) => void
  /** The tables of every payment added so far. */
  readonly result: () => Totals
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

/** An amount as a small integer number of cents for the fast path, or NaN when it needs the exact path. */
const centsOf = (amount: BigDecimal.BigDecimal): number => {
  const slot = amount.scale + 3
  const value = amount.value
  return slot >= 0 && slot <= 5 && value <= CENTS_BOUND[slot]! && value >= CENTS_FLOOR[slot]!
    ? Number(value) * CENTS_FACTOR[slot]!
    : Number.NaN
}

/** The sum of `currency` in the per-currency table. */
const currencyEntry = (tables: Tables, currency: string): Entry => {
  const head = tables.currencies
  if (head === undefined) {
    tables.currencies = newEntry(currency, undefined)
    return tables.currencies
  }
  return head.currency === currency ? head : find(head, currency)
}

/** The sum of `debtorIban` and `currency` in the per-debtor table. */
const debtorEntry = (tables: Tables, debtorIban: string, currency: string): Entry => {
  const d = tables.debtors.get(debtorIban)
  if (d === undefined) {
    const e = newEntry(currency, undefined)
    tables.debtors.set(debtorIban, e)
    return e
  }
  return d.currency === currency ? d : find(d, currency)
}

/** Adds an amount `n` times to its currency's, debtor's and period's sums (`cents` from {@link centsOf}). */
const addThree = (
  tables: Tables,
  c: Entry,
  d: Entry,
  q: Entry,
  amount: BigDecimal.BigDecimal,
  cents: number,
  n: number
): void => {
  tables.count += n
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
    const currency = p.currency
    const amount = p.amount
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
    addThree(
      this,
      currencyEntry(this, currency),
      debtorEntry(this, p.debtorIban, currency),
      q,
      amount,
      centsOf(amount),
      n
    )
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

/** The first days of the periods that touch `from..to` (from ≤ to), ascending; the first may lie before `from`. */
const periodStarts = (from: LocalDate.LocalDate, to: LocalDate.LocalDate, period: Period): Int32Array => {
  const out: Array<number> = []
  for (
    let start = periodStart(from, period);
    start <= to;
    start = (periodEnd(start, period) + 1) as LocalDate.LocalDate
  )
    out.push(start)
  return Int32Array.from(out)
}

/** The index of the period holding `d` among `starts` (the last start on or before `d`). */
const periodIndex = (starts: Int32Array, d: number): number => {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (starts[mid]! <= d) lo = mid
    else hi = mid - 1
  }
  return lo
}

/**
 * The tables of planned orders' payments over a window, without making the payments (the public
 * `Projection.totals`): an order with more payments than periods left in the window is counted period by period
 * by the engine (`Occurrence.count`, O(1) per period for calendar-based codes), one with fewer is walked payment
 * by payment, so the work per order is the smaller of the two. Sums are exact and do not depend on the order of
 * addition, so the tables equal those of the payments added one by one.
 */
export const ofPlans = (plans: Plans, window: Window, period: Period): Totals => {
  const tables = new Tables(period)
  const to = window.to
  if (window.from > to) return tables.result()
  const starts = periodStarts(window.from, to, period)
  const periods = starts.length
  // the sums per period, by the period's index in `starts`
  const heads = new Array<Entry | undefined>(periods)
  const periodEntry = (i: number, currency: string): Entry => {
    const head = heads[i]
    if (head === undefined) {
      const e = newEntry(currency, undefined)
      heads[i] = e
      return e
    }
    return head.currency === currency ? head : find(head, currency)
  }
  for (let j = 0; j < plans.plans.length; j++) {
    const plan = plans.plans[j]!
    // the first date the order may still pay: max(window.from, nextDate)
    const from = plans.starts[j]! as LocalDate.LocalDate
    if (from > to) continue
    const all = Occurrence.count(plan, from, to)
    if (all === 0) continue
    const { amount, currency, debtorIban } = plans.templates[j]!
    const cents = centsOf(amount)
    const c = currencyEntry(tables, currency)
    const d = debtorEntry(tables, debtorIban, currency)
    let i = periodIndex(starts, from)
    if (all <= periods - i) {
      for (const o of Occurrence.iterate(plan, from)) {
        if (o.execution > to) break
        while (i + 1 < periods && starts[i + 1]! <= o.execution) i++
        addThree(tables, c, d, periodEntry(i, currency), amount, cents, 1)
      }
      continue
    }
    for (; i < periods; i++) {
      const start = Math.max(starts[i]!, from) as LocalDate.LocalDate
      const end = (i + 1 < periods ? starts[i + 1]! - 1 : to) as LocalDate.LocalDate
      const n = Occurrence.count(plan, start, end)
      if (n > 0) addThree(tables, c, d, periodEntry(i, currency), amount, cents, n)
    }
  }
  for (let i = 0; i < periods; i++) {
    const head = heads[i]
    if (head !== undefined) tables.periods.set(starts[i]!, head)
  }
  return tables.result()
}
