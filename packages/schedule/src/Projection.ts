/**
 * Projection of many standing orders over a window of execution dates (spec: Anchor, nextDate and the
 * projection window): as a pure function over arrays, and as a lazy k-way merge / Stream whose memory grows
 * with the number of orders, not the number of payments. Dates come from core's Occurrence engine.
 *
 * @since 0.1.0
 */
import { LocalDate, Occurrence } from "@tppkit/core"
import { type Array as Arr, BigDecimal, Cause, Effect, Result, Stream } from "effect"
import * as CashFlow from "./CashFlow.ts"
import * as Payment from "./Payment.ts"

/**
 * What the projection reads from a standing order; core's `StandingOrder` satisfies it.
 */
export interface ProjectableOrder extends Occurrence.OrderSchedule {
  readonly orderId: string
  readonly instructedAmount: { readonly value: BigDecimal.BigDecimal; readonly currency: string }
  readonly debtor: { readonly iban: string }
  readonly creditor: { readonly iban: string; readonly name?: string | undefined }
}

/** A window of execution dates, both ends inclusive. */
export interface Window {
  readonly from: LocalDate.LocalDate
  readonly to: LocalDate.LocalDate
}

/** The calendar (default `target`) and business-day convention (default `following`) of the projection. */
export type Options = Occurrence.Options

/** An order left out of the projection, with the human reason. */
export interface Skipped {
  readonly orderId: string | undefined
  readonly reason: string
}

/** The result of a projection: the payments in order and the orders that could not be projected. */
export interface Projection {
  readonly payments: Array<Payment.Payment>
  readonly skipped: Array<Skipped>
}

// ---------------------------------------------------------------------------
// plans
// ---------------------------------------------------------------------------

/** An order with its engine plan and the first execution date it may still contribute. */
interface Planned {
  readonly order: ProjectableOrder
  readonly plan: Occurrence.Plan
  /** `max(from, nextDate)`: occurrences executing before nextDate count as paid (spec: nextDate). */
  readonly start: LocalDate.LocalDate
}

const orderIdOf = (o: unknown): string | undefined => {
  const id = typeof o === "object" && o !== null ? (o as { orderId?: unknown }).orderId : undefined
  return typeof id === "string" ? id : undefined
}

const planAll = (
  orders: Iterable<ProjectableOrder>,
  window: Window,
  options: Options | undefined
): { planned: Array<Planned>; skipped: Array<Skipped> } => {
  const planned: Array<Planned> = []
  const skipped: Array<Skipped> = []
  for (const order of orders) {
    const r = Occurrence.makePlan(order, options)
    if (Result.isFailure(r)) {
      skipped.push({ orderId: orderIdOf(order), reason: r.failure.reason })
    } else {
      const next = order.nextDate
      const start = next !== undefined && next > window.from ? next : window.from
      planned.push({ order, plan: r.success, start })
    }
  }
  return { planned, skipped }
}

// ---------------------------------------------------------------------------
// arrays
// ---------------------------------------------------------------------------

/**
 * Plans the orders in orderId order (equal orderIds in input order), with their orderIds in the same order; the
 * skipped orders stay in input order. The orders are sorted before they are planned, so that the plans are
 * allocated, and later read, in the order every pass over them takes.
 */
const planInOrder = (
  orders: Iterable<ProjectableOrder>,
  window: Window,
  options: Options | undefined
): { planned: Array<Planned>; ids: Array<string>; skipped: Array<Skipped> } => {
  const list = Array.isArray(orders) ? (orders as ReadonlyArray<ProjectableOrder>) : Array.from(orders)
  const n = list.length
  const ids = new Array<string>(n)
  let inOrder = true
  for (let i = 0; i < n; i++) {
    const id = orderIdOf(list[i])
    if (id === undefined) {
      // not a string: planned in input order and sorted afterwards, as before
      const all = planAll(list, window, options)
      const planned = sortByOrderId(all.planned)
      return { planned, ids: planned.map((p) => p.order.orderId), skipped: all.skipped }
    }
    ids[i] = id
    if (i > 0 && ids[i - 1]! > id) inOrder = false
  }
  const index = inOrder || n < 2 ? undefined : sortedIndex(ids)
  const planned: Array<Planned> = []
  const plannedIds: Array<string> = []
  const skipped: Array<Skipped> = []
  const skippedAt: Array<number> = []
  for (let x = 0; x < n; x++) {
    const i = index === undefined ? x : index[x]!
    const order = list[i]!
    const r = Occurrence.makePlan(order, options)
    if (Result.isFailure(r)) {
      skipped.push({ orderId: ids[i]!, reason: r.failure.reason })
      skippedAt.push(i)
    } else {
      const next = order.nextDate
      const start = next !== undefined && next > window.from ? next : window.from
      planned.push({ order, plan: r.success, start })
      plannedIds.push(ids[i]!)
    }
  }
  if (index === undefined || skipped.length < 2) return { planned, ids: plannedIds, skipped }
  const byInput = skipped.map((_, j) => j).sort((a, b) => skippedAt[a]! - skippedAt[b]!)
  return { planned, ids: plannedIds, skipped: byInput.map((j) => skipped[j]!) }
}

/**
 * The planned orders in orderId order (equal orderIds in input order); the input is returned as it is when it is
 * already in that order (a linear check), else sorted through numeric keys over the orderId strings.
 */
const sortByOrderId = (planned: Array<Planned>): Array<Planned> => {
  const n = planned.length
  const ids = new Array<string>(n)
  let inOrder = true
  for (let i = 0; i < n; i++) {
    const id = planned[i]!.order.orderId
    ids[i] = id
    if (i > 0 && ids[i - 1]! > id) inOrder = false
  }
  if (inOrder) return planned
  const index = sortedIndex(ids)
  const out = new Array<Planned>(n)
  for (let i = 0; i < n; i++) out[i] = planned[index[i]!]!
  return out
}

/** Compares two positions of `ids` by their strings (UTF-16 code units), then by position. */
const byIdThenPosition =
  (ids: ReadonlyArray<string>) =>
  (a: number, b: number): number => {
    const x = ids[a]!
    const y = ids[b]!
    return x < y ? -1 : x > y ? 1 : a - b
  }

/** The longest prefix every string shares, as a length. */
const commonPrefix = (ids: ReadonlyArray<string>): number => {
  const first = ids[0]!
  let length = first.length
  for (let i = 1; i < ids.length && length > 0; i++) {
    const id = ids[i]!
    let j = 0
    const max = Math.min(length, id.length)
    while (j < max && id.charCodeAt(j) === first.charCodeAt(j)) j++
    length = j
  }
  return length
}

/** How many code units after the common prefix the numeric keys may read at most. */
const KEY_DEPTH = 16

/**
 * The positions of `ids` in string order (UTF-16 code units; equal strings by position), for at least two strings.
 * Each string gets a number that orders as the string does over its first code units after the common prefix
 * (each unit by its rank among the units that occur there, 0 past the end of the string), with the position in
 * the low bits: one native numeric sort orders them, and only strings with equal keys but different texts are
 * compared as strings afterwards. Strings whose units are too varied for a key are sorted by comparison.
 */
const sortedIndex = (ids: ReadonlyArray<string>): Int32Array => {
  const n = ids.length
  const prefix = commonPrefix(ids)
  // the code units occurring in the first KEY_DEPTH positions after the prefix, ranked from 1
  const rank = new Int32Array(65536)
  for (let i = 0; i < n; i++) {
    const id = ids[i]!
    const end = Math.min(id.length, prefix + KEY_DEPTH)
    for (let j = prefix; j < end; j++) rank[id.charCodeAt(j)] = 1
  }
  let units = 0
  for (let c = 0; c < 65536; c++) if (rank[c] === 1) rank[c] = ++units
  const unitBits = Math.ceil(Math.log2(units + 1))
  const positionBits = Math.max(1, Math.ceil(Math.log2(n)))
  const depth = Math.min(KEY_DEPTH, Math.floor((53 - positionBits) / Math.max(1, unitBits)))
  const index = new Int32Array(n)
  if (depth < 2) {
    for (let i = 0; i < n; i++) index[i] = i
    return index.sort(byIdThenPosition(ids))
  }
  const unitScale = 2 ** unitBits
  const positionScale = 2 ** positionBits
  const keys = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const id = ids[i]!
    let key = 0
    for (let j = prefix; j < prefix + depth; j++) key = key * unitScale + (j < id.length ? rank[id.charCodeAt(j)]! : 0)
    keys[i] = key * positionScale + i
  }
  keys.sort()
  for (let x = 0; x < n; x++) index[x] = keys[x]! % positionScale
  // runs of equal keys: their strings agree on the keyed units, so only longer strings can still be out of order
  const compare = byIdThenPosition(ids)
  for (let x = 0; x < n; ) {
    const key = Math.floor(keys[x]! / positionScale)
    let y = x + 1
    let sorted = true
    while (y < n && Math.floor(keys[y]! / positionScale) === key) {
      if (compare(index[y - 1]!, index[y]!) > 0) sorted = false
      y++
    }
    if (!sorted) index.subarray(x, y).sort(compare)
    x = y
  }
  return index
}

/** The projection's occurrences in their final order, as integer columns over the orders in orderId order. */
interface Ordered {
  /** The projectable orders in orderId order; `sorted.order` indexes them. */
  readonly planned: Array<Planned>
  /** Per planned order, how many of its occurrences are in `sorted`. */
  readonly counts: Int32Array
  readonly sorted: Columns
  readonly skipped: Array<Skipped>
}

/**
 * Plans the orders and puts all their occurrences in the window into projection order as integer columns: first
 * per order in nominal order (orders in orderId order), then a stable sort by execution date.
 */
const ordered = (orders: Iterable<ProjectableOrder>, window: Window, options: Options | undefined): Ordered => {
  const all = planInOrder(orders, window, options)
  const skipped = all.skipped
  if (window.to < window.from) return { planned: [], counts: new Int32Array(0), sorted: new Columns(0), skipped }
  const planned = all.planned
  const m = planned.length
  const counts = new Int32Array(m)
  let total = 0
  for (let i = 0; i < m; i++) {
    const p = planned[i]!
    if (p.start <= window.to) {
      const c = Occurrence.count(p.plan, p.start, window.to)
      counts[i] = c
      total += c
    }
  }
  // equal orderIds get equal ranks; orders sharing an orderId need their payments merged by nominal date
  const rank = new Int32Array(m)
  const shared = new Uint8Array(m) // 1: another order has the same orderId
  const sharedAt: Array<number> = [] // sorted positions of their occurrences
  let duplicateIds = false
  const ids = all.ids
  for (let i = 1; i < m; i++) {
    if (ids[i - 1] === ids[i]) {
      duplicateIds = true
      rank[i] = rank[i - 1]!
      shared[i] = 1
      shared[i - 1] = 1
    } else {
      rank[i] = i
    }
  }
  const days = window.to - window.from + 1
  const sorted =
    days > 4 * total + 1024
      ? comparisonSorted(planned, counts, total, window.to, shared, sharedAt)
      : countingSorted(planned, counts, window, shared, sharedAt)
  if (duplicateIds) sortSameRankRuns(sorted, rank, sharedAt)
  return { planned, counts, sorted, skipped }
}

/**
 * Whether an order's occurrences are a fixed number of days apart and execute on their nominal dates (DAI7, or
 * WEEK with convention none): then they follow from the engine's first one by arithmetic.
 */
const isRun = (plan: Occurrence.Plan): boolean => !plan.adjusts && plan.dayStep !== 0

/**
 * Ordering for long windows with few payments: the occurrences as columns in orderId order, then a stable
 * comparison sort of their positions by execution date.
 */
const comparisonSorted = (
  planned: ReadonlyArray<Planned>,
  counts: Int32Array,
  total: number,
  to: LocalDate.LocalDate,
  shared: Uint8Array,
  sharedAt: Array<number>
): Columns => {
  const cols = new Columns(total)
  for (let i = 0; i < planned.length; i++) {
    if (counts[i] === 0) continue
    const p = planned[i]!
    for (const o of Occurrence.between(p.plan, p.start, to)) cols.push(i, o.k, o.nominal, o.execution)
  }
  const n = cols.length
  const sorted = new Columns(n)
  sorted.length = n
  const order = new Int32Array(n)
  for (let i = 0; i < n; i++) order[i] = i
  order.sort((a, b) => cols.execution[a]! - cols.execution[b]! || a - b)
  for (let x = 0; x < n; x++) {
    const i = order[x]!
    sorted.set(x, cols.order[i]!, cols.k[i]!, cols.nominal[i]!, cols.execution[i]!)
    if (shared[cols.order[i]!] === 1) sharedAt.push(x)
  }
  return sorted
}

/**
 * Ordering by a counting sort over the window's days: the payments per day are counted first (a range for each
 * run of consecutive days, one by one for the other orders, whose occurrences are kept in columns), then every
 * occurrence is written straight to its final position, orders in orderId order (a stable sort by day).
 */
const countingSorted = (
  planned: ReadonlyArray<Planned>,
  counts: Int32Array,
  window: Window,
  shared: Uint8Array,
  sharedAt: Array<number>
): Columns => {
  const m = planned.length
  const from = window.from
  const days = window.to - from + 1
  // per day: how many payments (prefix sums of `ranges` add the daily runs, `perDay` counts the others)
  const ranges = new Int32Array(days + 1)
  const perDay = new Int32Array(days)
  const firstK = new Int32Array(m)
  const firstNominal = new Int32Array(m)
  let otherCount = 0
  for (let i = 0; i < m; i++) if (!isRun(planned[i]!.plan)) otherCount += counts[i]!
  const others = new Columns(otherCount) // sized by the engine's count
  for (let i = 0; i < m; i++) {
    const c = counts[i]!
    if (c === 0) continue
    const p = planned[i]!
    const plan = p.plan
    if (isRun(plan)) {
      const first = Occurrence.firstOnOrAfter(plan, p.start)!
      firstK[i] = first.k
      firstNominal[i] = first.nominal
      const step = plan.dayStep
      if (step === 1) {
        ranges[first.nominal - from]!++
        ranges[first.nominal - from + c]!--
      } else {
        for (let j = 0, d = first.nominal - from; j < c; j++, d += step) perDay[d]!++
      }
    } else {
      for (const o of Occurrence.between(plan, p.start, window.to)) {
        others.push(i, o.k, o.nominal, o.execution)
        perDay[o.execution - from]!++
      }
    }
  }
  // next[d]: the next free position of day d
  const next = new Int32Array(days + 1)
  let running = 0
  for (let d = 0; d < days; d++) {
    running += ranges[d]!
    next[d + 1] = next[d]! + running + perDay[d]!
  }
  const n = next[days]! // the engine's count: `total`
  const sorted = new Columns(n)
  sorted.length = n
  // the execution column is filled day by day
  for (let d = 0; d < days; d++) sorted.execution.fill(from + d, next[d]!, next[d + 1]!)
  const order = sorted.order
  const k = sorted.k
  const nominal = sorted.nominal
  const runStep = new Int32Array(m)
  sorted.runs = { step: runStep, firstK, firstNominal }
  let other = 0
  for (let i = 0; i < m; i++) {
    const c = counts[i]!
    if (c === 0) continue
    const plan = planned[i]!.plan
    const isShared = shared[i] === 1
    if (isRun(plan) && !isShared) {
      // k and the nominal day follow from the execution day (see `Columns.runs`): only the order is written
      const step = plan.dayStep
      runStep[i] = step
      for (let j = 0, d = firstNominal[i]! - from; j < c; j++, d += step) order[next[d]!++] = i
    } else if (isRun(plan)) {
      const step = plan.dayStep
      const k0 = firstK[i]!
      let day = firstNominal[i]!
      for (let j = 0; j < c; j++, day += step) {
        const x = next[day - from]!++
        order[x] = i
        k[x] = k0 + j
        nominal[x] = day
        sharedAt.push(x)
      }
    } else {
      for (; other < others.length && others.order[other] === i; other++) {
        const x = next[others.execution[other]! - from]!++
        order[x] = i
        k[x] = others.k[other]!
        nominal[x] = others.nominal[other]!
        if (isShared) sharedAt.push(x)
      }
    }
  }
  return sorted
}

/** The payment objects of ordered columns, allocated in their final order, each referring to its order's template. */
const paymentsOf = (sorted: Columns, templates: ReadonlyArray<Template>): Array<Payment.Payment> => {
  const n = sorted.length
  const payments = new Array<Payment.Payment>(n)
  const { order, k, nominal, execution, runs } = sorted
  if (runs === undefined) {
    for (let x = 0; x < n; x++) {
      payments[x] = new Payment.Projected(
        templates[order[x]!]!,
        k[x]!,
        nominal[x]! as LocalDate.LocalDate,
        execution[x]! as LocalDate.LocalDate
      )
    }
    return payments
  }
  const { step, firstK, firstNominal } = runs
  for (let x = 0; x < n; x++) {
    const o = order[x]!
    const e = execution[x]!
    const s = step[o]!
    // `| 0` keeps k a small integer (a division may give a double representation)
    const kx = s === 0 ? k[x]! : (firstK[o]! + (e - firstNominal[o]!) / s) | 0
    const nx = s === 0 ? nominal[x]! : e
    payments[x] = new Payment.Projected(templates[o]!, kx, nx as LocalDate.LocalDate, e as LocalDate.LocalDate)
  }
  return payments
}

/**
 * Projects orders over a window: exactly the occurrences whose execution date lies in `from..to` and not
 * before the order's `nextDate`, ordered by execution date, then orderId, then nominal date; orders that
 * cannot be projected are listed in `skipped` with their reason while the others are projected.
 */
export const project = (orders: Iterable<ProjectableOrder>, window: Window, options?: Options): Projection => {
  const { planned, sorted, skipped } = ordered(orders, window, options)
  return { payments: paymentsOf(sorted, templatesOf(planned)), skipped }
}

/** Options of {@link projectWithTotals}: the projection's calendar and convention, and the totals' period. */
export interface TotalsOptions extends Options {
  /** The period length of the `byPeriod` table (default `"month"`). */
  readonly period?: CashFlow.Period | undefined
}

/** A projection together with the cash-flow totals of its payments. */
export interface ProjectionWithTotals extends Projection {
  readonly totals: CashFlow.Totals
}

/**
 * {@link project} and `CashFlow.totals` of its payments in one call, equal to
 * `CashFlow.totals(project(orders, window, options).payments, options)`; faster, because the totals are
 * summed per order (its count of payments times its exact amount) and per period from the projection's
 * integer columns instead of payment by payment.
 */
export const projectWithTotals = (
  orders: Iterable<ProjectableOrder>,
  window: Window,
  options?: TotalsOptions
): ProjectionWithTotals => {
  const { planned, counts, sorted, skipped } = ordered(orders, window, options)
  const templates = templatesOf(planned)
  const payments = paymentsOf(sorted, templates)
  const period = options?.period ?? "month"
  const totals = columnTotals(templates, counts, sorted, period) ?? CashFlow.totals(payments, { period })
  return { payments, skipped, totals }
}

/** Factor from an amount's units to cents, by scale + 3 (scales −3..2). */
const TO_CENTS: ReadonlyArray<number> = [100_000, 10_000, 1000, 100, 10, 1]
/** Amounts whose value lies in ±2^53 convert to a number exactly. */
const SAFE_VALUE = 2n ** 53n
const NEG_SAFE_VALUE = -SAFE_VALUE

/** An exact sum of cents as a normalized BigDecimal. */
const fromCents = (cents: number): BigDecimal.BigDecimal => BigDecimal.normalize(BigDecimal.make(BigInt(cents), 2))

const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The cash-flow totals of ordered columns, equal to `CashFlow.totals` of their payments, when every amount is a
 * whole number of cents and all the sums stay below 2^50 cents (so that every sum in a float is exact); else
 * `undefined`. Per currency and debtor: each order's amount times its count; per period: one addition per
 * payment into a small table of (period, currency) sums.
 */
const columnTotals = (
  templates: ReadonlyArray<Template>,
  counts: Int32Array,
  sorted: Columns,
  period: CashFlow.Period
): CashFlow.Totals | undefined => {
  const m = templates.length
  const currencyIndex = new Map<string, number>()
  const debtorIndex = new Map<string, number>()
  const currencyOf = new Int32Array(m)
  const debtorOf = new Int32Array(m)
  const cents = new Float64Array(m)
  let bound = 0
  for (let o = 0; o < m; o++) {
    const count = counts[o]!
    if (count === 0) continue
    const t = templates[o]!
    const { scale, value } = t.amount
    if (scale < -3 || scale > 2 || value > SAFE_VALUE || value < NEG_SAFE_VALUE) return undefined
    const c = Number(value) * TO_CENTS[scale + 3]!
    if (!Number.isSafeInteger(c)) return undefined
    cents[o] = c
    bound += Math.abs(c) * count
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
  if (!(bound < 2 ** 50)) return undefined
  const nc = currencyIndex.size
  const currencySum = new Float64Array(nc)
  const currencyCount = new Float64Array(nc)
  const debtorSum = new Float64Array(debtorIndex.size * nc)
  const debtorCount = new Float64Array(debtorIndex.size * nc)
  for (let o = 0; o < m; o++) {
    const count = counts[o]!
    if (count === 0) continue
    const ci = currencyOf[o]!
    const amount = cents[o]! * count
    currencySum[ci]! += amount
    currencyCount[ci]! += count
    const cell = debtorOf[o]! * nc + ci
    debtorSum[cell]! += amount
    debtorCount[cell]! += count
  }
  // periods: the payments are in execution order, so their periods come in order, one after the other
  const periodStarts: Array<number> = []
  const periodSums: Array<Float64Array> = []
  const periodCounts: Array<Float64Array> = []
  const { order, execution } = sorted
  const n = sorted.length
  let lastDay = -1
  let lastStart = -1
  let sums = new Float64Array(0)
  let ns = new Float64Array(0)
  for (let x = 0; x < n; x++) {
    const e = execution[x]!
    if (e !== lastDay) {
      lastDay = e
      const start = CashFlow.periodStart(e as LocalDate.LocalDate, period)
      if (start !== lastStart) {
        lastStart = start
        sums = new Float64Array(nc)
        ns = new Float64Array(nc)
        periodStarts.push(start)
        periodSums.push(sums)
        periodCounts.push(ns)
      }
    }
    const o = order[x]!
    const ci = currencyOf[o]!
    sums[ci]! += cents[o]!
    ns[ci]!++
  }
  const currencies = [...currencyIndex].sort(([a], [b]) => compareStrings(a, b))
  const totalsOf = (sum: Float64Array, count: Float64Array, base: number): Array<CashFlow.Total> => {
    const out: Array<CashFlow.Total> = []
    for (const [currency, ci] of currencies) {
      const c = count[base + ci]!
      if (c > 0) out.push({ currency, amount: fromCents(sum[base + ci]!), count: c })
    }
    return out
  }
  const byCurrency = totalsOf(currencySum, currencyCount, 0)
  const byDebtor = [...debtorIndex]
    .sort(([a], [b]) => compareStrings(a, b))
    .flatMap(([debtorIban, di]) => totalsOf(debtorSum, debtorCount, di * nc).map((t) => ({ debtorIban, ...t })))
  const byPeriod = periodStarts.flatMap((s, i) => {
    const start = s as LocalDate.LocalDate
    const label = CashFlow.periodLabel(start, period)
    const end = CashFlow.periodEnd(start, period)
    return totalsOf(periodSums[i]!, periodCounts[i]!, 0).map((t) => ({ label, start, end, ...t }))
  })
  return { period, count: n, byCurrency, byDebtor, byPeriod }
}

/**
 * Orders sharing an orderId are adjacent in orderId order, so on one execution day their occurrences form one
 * run of equal rank in the sorted columns; each run of two or more is put in nominal-date order (stable).
 * `at` lists the sorted positions of every occurrence of such orders.
 */
const sortSameRankRuns = (sorted: Columns, rank: Int32Array, at: Array<number>): void => {
  at.sort((a, b) => a - b)
  let i = 0
  while (i < at.length) {
    const start = at[i]!
    const e = sorted.execution[start]!
    const r = rank[sorted.order[start]!]!
    let j = i + 1
    while (
      j < at.length &&
      at[j] === start + (j - i) &&
      sorted.execution[at[j]!] === e &&
      rank[sorted.order[at[j]!]!] === r
    ) {
      j++
    }
    if (j - i > 1) {
      const run = Array.from({ length: j - i }, (_, x) => start + x).sort(
        (a, b) => sorted.nominal[a]! - sorted.nominal[b]! || a - b
      )
      const copy = run.map((x) => [sorted.order[x]!, sorted.k[x]!, sorted.nominal[x]!] as const)
      for (let x = 0; x < copy.length; x++) sorted.set(start + x, copy[x]![0], copy[x]![1], copy[x]![2], e)
    }
    i = j
  }
}

/** The fields every payment of an order shares, in one flat object. */
type Template = Payment.NumberedShared

/**
 * Flat templates in orderId order. Equal debtor IBANs and currencies are shared (one string each: totals look
 * them up per payment), and each amount is copied next to its template, so that a pass over the payments (in
 * orderId order within each day) reads templates and amounts almost in sequence.
 */
const templatesOf = (planned: ReadonlyArray<Planned>): Array<Template> => {
  const strings = new Map<string, string>()
  const intern = (s: string): string => {
    const known = strings.get(s)
    if (known !== undefined) return known
    strings.set(s, s)
    return s
  }
  const templates = new Array<Template>(planned.length)
  const group = Object.freeze({})
  for (let i = 0; i < planned.length; i++) {
    const order = planned[i]!.order
    const value = order.instructedAmount.value
    templates[i] = {
      orderId: order.orderId,
      amount: BigDecimal.make(value.value, value.scale),
      currency: intern(order.instructedAmount.currency),
      debtorIban: intern(order.debtor.iban),
      creditorIban: order.creditor.iban,
      creditorName: order.creditor.name,
      group,
      slot: i
    }
  }
  return templates
}

/** Growable integer columns of occurrences: planned-order index, k, nominal day and execution day. */
class Columns {
  length = 0
  order: Int32Array<ArrayBuffer>
  k: Int32Array<ArrayBuffer>
  nominal: Int32Array<ArrayBuffer>
  execution: Int32Array<ArrayBuffer>
  /**
   * Set by the counting sort: per planned order, the day step of a run whose payments' k and nominal day are left
   * out of the columns (they follow from the execution day: nominal = execution, k = firstK + (day − firstNominal)
   * / step), else 0; with the first occurrence's k and nominal day per order.
   */
  runs: { readonly step: Int32Array; readonly firstK: Int32Array; readonly firstNominal: Int32Array } | undefined =
    undefined
  constructor(capacity = 1024) {
    const size = Math.max(1, capacity)
    this.order = new Int32Array(size)
    this.k = new Int32Array(size)
    this.nominal = new Int32Array(size)
    this.execution = new Int32Array(size)
  }
  set(i: number, order: number, k: number, nominal: number, execution: number): void {
    this.order[i] = order
    this.k[i] = k
    this.nominal[i] = nominal
    this.execution[i] = execution
  }
  push(order: number, k: number, nominal: number, execution: number): void {
    if (this.length === this.order.length) this.grow()
    const i = this.length++
    this.order[i] = order
    this.k[i] = k
    this.nominal[i] = nominal
    this.execution[i] = execution
  }
  private grow(): void {
    const size = this.order.length * 2
    const widen = (a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(size)
      b.set(a)
      return b
    }
    this.order = widen(this.order)
    this.k = widen(this.k)
    this.nominal = widen(this.nominal)
    this.execution = widen(this.execution)
  }
}

/**
 * Orders sharing an orderId are adjacent after the orderId sort, so on one execution day their payments form
 * one run; each run of two or more is put in nominal-date order (stable).
 */
const sortSameOrderIdRuns = (payments: Array<Payment.Payment>): void => {
  let i = 0
  while (i < payments.length) {
    const first = payments[i]!
    let j = i + 1
    while (
      j < payments.length &&
      payments[j]!.executionDate === first.executionDate &&
      payments[j]!.orderId === first.orderId
    ) {
      j++
    }
    if (j - i > 1) {
      const run = payments.slice(i, j).sort((a, b) => a.nominalDate - b.nominalDate)
      for (let x = 0; x < run.length; x++) payments[i + x] = run[x]!
    }
    i = j
  }
}

// ---------------------------------------------------------------------------
// lazy k-way merge
// ---------------------------------------------------------------------------

/** Days of occurrences a cursor fetches from the engine at once. */
const BLOCK_DAYS = 32

/** One order's occurrences, fetched from the engine a block of days at a time. */
interface Cursor {
  readonly template: Template
  /** Position in (orderId, input index) order. */
  readonly position: number
  readonly plan: Occurrence.Plan
  block: Array<Occurrence.Occurrence>
  index: number
  /** The first execution date not fetched yet. */
  nextFrom: number
}

const byPosition = (a: Cursor, b: Cursor): number => a.position - b.position

/** Fills the cursor's block with the next occurrences up to `to`; false when there are none left. */
const refill = (cursor: Cursor, to: number): boolean => {
  while (cursor.nextFrom <= to) {
    const first = Occurrence.firstOnOrAfter(cursor.plan, cursor.nextFrom as LocalDate.LocalDate)
    if (first === undefined || first.execution > to) return false
    const end = Math.min(to, first.execution + BLOCK_DAYS - 1)
    cursor.block = Occurrence.between(cursor.plan, first.execution, end as LocalDate.LocalDate)
    cursor.index = 0
    cursor.nextFrom = end + 1
    if (cursor.block.length > 0) return true
  }
  return false
}

/** A min-heap of day numbers. */
class DayHeap {
  readonly days: Array<number> = []
  get size(): number {
    return this.days.length
  }
  push(d: number): void {
    const days = this.days
    let i = days.length
    days.push(d)
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (days[parent]! <= d) break
      days[i] = days[parent]!
      i = parent
    }
    days[i] = d
  }
  pop(): number {
    const days = this.days
    const top = days[0]!
    const last = days.pop()!
    const n = days.length
    if (n > 0) {
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        if (l >= n) break
        const c = l + 1 < n && days[l + 1]! < days[l]! ? l + 1 : l
        if (days[c]! >= last) break
        days[i] = days[c]!
        i = c
      }
      days[i] = last
    }
    return top
  }
}

/**
 * The payments day by day (each batch non-empty, in projection order), from a calendar queue: each cursor waits
 * in the bucket of its next execution date and the days with a bucket sit in a min-heap. A day's bucket is
 * sorted by position (TimSort sees a few sorted runs), its payments are emitted, and each cursor moves on to the
 * bucket of its next execution date. Memory: one cursor and at most one block of occurrences per order.
 */
function* dayBatches(input: Array<Planned>, to: LocalDate.LocalDate): Generator<Array<Payment.Payment>> {
  const planned = sortByOrderId(input)
  const templates = templatesOf(planned)
  let duplicateIds = false
  const buckets = new Map<number, Array<Cursor>>()
  const days = new DayHeap()
  const enqueue = (cursor: Cursor): void => {
    const d = cursor.block[cursor.index]!.execution
    const bucket = buckets.get(d)
    if (bucket === undefined) {
      buckets.set(d, [cursor])
      days.push(d)
    } else {
      bucket.push(cursor)
    }
  }
  for (let i = 0; i < planned.length; i++) {
    const p = planned[i]!
    if (i > 0 && planned[i - 1]!.order.orderId === p.order.orderId) duplicateIds = true
    const cursor: Cursor = {
      template: templates[i]!,
      position: i,
      plan: p.plan,
      block: [],
      index: 0,
      nextFrom: p.start
    }
    if (refill(cursor, to)) enqueue(cursor)
  }
  while (days.size > 0) {
    const day = days.pop()
    const bucket = buckets.get(day)!
    buckets.delete(day)
    bucket.sort(byPosition)
    const out: Array<Payment.Payment> = []
    for (const cursor of bucket) {
      const t = cursor.template
      let more = true
      for (;;) {
        const o = cursor.block[cursor.index]!
        if (o.execution !== day) break
        out.push(new Payment.Projected(t, o.k, o.nominal, o.execution))
        cursor.index++
        if (cursor.index === cursor.block.length && !refill(cursor, to)) {
          more = false
          break
        }
      }
      if (more) enqueue(cursor)
    }
    if (duplicateIds) sortSameOrderIdRuns(out)
    yield out
  }
}

/**
 * The next occurrence after `o` in the engine's order: by number for calendar-based codes (O(1)), by date for
 * DAIL (whose `nth` walks from the anchor).
 */
const after = (plan: Occurrence.Plan, o: Occurrence.Occurrence): Occurrence.Occurrence | undefined =>
  plan.frequency === "DAIL"
    ? Occurrence.firstOnOrAfter(plan, LocalDate.addDays(o.execution, 1))
    : Occurrence.nth(plan, o.k + 1)

/**
 * A day-by-day scan: each order keeps its next occurrence and its execution day in an integer column; each day
 * every order due that day, in orderId order, emits its payments. Costs one comparison per order and day, so it
 * is used when the window is dense (few orders idle on most days); memory: one entry per order.
 */
class DayScan {
  readonly plans: Array<Occurrence.Plan>
  readonly templates: Array<Template>
  readonly heads: Array<Occurrence.Occurrence | undefined>
  readonly next: Int32Array
  readonly to: number
  readonly rank: Int32Array
  readonly shared: Uint8Array
  day: number
  constructor(planned: ReadonlyArray<Planned>, templates: Array<Template>, to: number) {
    const n = planned.length
    this.plans = planned.map((p) => p.plan)
    this.templates = templates
    this.heads = new Array<Occurrence.Occurrence | undefined>(n)
    this.next = new Int32Array(n)
    this.to = to
    // orders sharing an orderId are adjacent (orderId order) and share a rank; their payments of one day are
    // merged by nominal date
    this.rank = new Int32Array(n)
    this.shared = new Uint8Array(n)
    for (let i = 1; i < n; i++) {
      if (planned[i - 1]!.order.orderId === planned[i]!.order.orderId) {
        this.rank[i] = this.rank[i - 1]!
        this.shared[i] = 1
        this.shared[i - 1] = 1
      } else {
        this.rank[i] = i
      }
    }
    let first = to + 1
    for (let i = 0; i < n; i++) {
      const p = planned[i]!
      const head = p.start > to ? undefined : Occurrence.firstOnOrAfter(p.plan, p.start)
      if (head === undefined || head.execution > to) {
        this.next[i] = to + 1
      } else {
        this.heads[i] = head
        this.next[i] = head.execution
        if (head.execution < first) first = head.execution
      }
    }
    this.day = first
  }

  /** Appends the payments of the next day that has any to `out`; returns how many (0: the scan is over). */
  step(out: Array<Payment.Payment>): number {
    const { next, heads, plans, templates, to } = this
    const n = next.length
    while (this.day <= to) {
      const day = this.day++
      const before = out.length
      // the run of payments of orders sharing one orderId: [groupStart, out.length) for rank groupRank
      let groupStart = -1
      let groupRank = -1
      for (let i = 0; i < n; i++) {
        if (next[i] !== day) continue
        if (this.shared[i] === 1) {
          if (this.rank[i] !== groupRank) {
            if (groupStart >= 0) byNominal(out, groupStart)
            groupStart = out.length
            groupRank = this.rank[i]!
          }
        } else if (groupStart >= 0) {
          byNominal(out, groupStart)
          groupStart = -1
          groupRank = -1
        }
        const t = templates[i]!
        let o = heads[i]!
        let following: Occurrence.Occurrence | undefined
        for (;;) {
          out.push(new Payment.Projected(t, o.k, o.nominal, o.execution))
          following = after(plans[i]!, o)
          if (following === undefined || following.execution !== day) break
          o = following
        }
        if (following === undefined || following.execution > to) {
          next[i] = to + 1
          heads[i] = undefined
        } else {
          next[i] = following.execution
          heads[i] = following
        }
      }
      if (groupStart >= 0) byNominal(out, groupStart)
      const count = out.length - before
      if (count > 0) return count
    }
    return 0
  }
}

/** Puts the payments from `start` to the end of `out` in nominal-date order (stable). */
const byNominal = (out: Array<Payment.Payment>, start: number): void => {
  if (out.length - start < 2) return
  const run = out.slice(start).sort((a, b) => a.nominalDate - b.nominalDate)
  for (let x = 0; x < run.length; x++) out[start + x] = run[x]!
}

/** Whether a day scan suits the window: at most 16 idle order-days per payment. */
const dense = (orders: number, days: number, payments: number): boolean => days * orders <= 16 * payments + 1024

/** The payments day by day, from a day scan when the window is dense, else from the calendar queue. */
function* batchesOf(planned: Array<Planned>, window: Window): Generator<Array<Payment.Payment>> {
  let total = 0
  for (const p of planned) if (p.start <= window.to) total += Occurrence.count(p.plan, p.start, window.to)
  if (!dense(planned.length, window.to - window.from + 1, total)) {
    yield* dayBatches(planned, window.to)
    return
  }
  const inOrder = sortByOrderId(planned)
  const scan = new DayScan(inOrder, templatesOf(inOrder), window.to)
  for (;;) {
    const out: Array<Payment.Payment> = []
    if (scan.step(out) === 0) return
    yield out
  }
}

/** Flattens day batches into single payments. */
function* flatten(batches: Iterator<Array<Payment.Payment>>): Generator<Payment.Payment> {
  for (let b = batches.next(); b.done !== true; b = batches.next()) {
    const batch = b.value
    for (let i = 0; i < batch.length; i++) yield batch[i]!
  }
}

/**
 * The projection as lazy batches, one per execution date in order (each non-empty and ordered as in
 * {@link project}), holding one cursor per order instead of every payment.
 */
export const batches = (
  orders: Iterable<ProjectableOrder>,
  window: Window,
  options?: Options
): { readonly batches: IterableIterator<Array<Payment.Payment>>; readonly skipped: Array<Skipped> } => {
  const { planned, skipped } = planAll(orders, window, options)
  return { batches: batchesOf(planned, window), skipped }
}

/**
 * The projection as a lazy, ordered sequence of payments: the same payments in the same order as
 * {@link project}, holding one cursor per order instead of every payment.
 */
export const lazy = (
  orders: Iterable<ProjectableOrder>,
  window: Window,
  options?: Options
): { readonly payments: IterableIterator<Payment.Payment>; readonly skipped: Array<Skipped> } => {
  const { planned, skipped } = planAll(orders, window, options)
  return { payments: flatten(batchesOf(planned, window)), skipped }
}

/**
 * The projection's payments as a Stream, in the order of {@link project}, computed lazily as the stream is
 * pulled, one chunk per execution date (memory grows with the number of orders). Orders that cannot be
 * projected are left out; get their reasons from {@link skipped} or {@link batches}.
 */
export const stream = (
  orders: Iterable<ProjectableOrder>,
  window: Window,
  options?: Options
): Stream.Stream<Payment.Payment> =>
  Stream.fromPull(
    Effect.sync(() => {
      const it = batches(orders, window, options).batches
      return Effect.suspend(() => {
        const next = it.next()
        return next.done === true ? Cause.done() : Effect.succeed(next.value as Arr.NonEmptyArray<Payment.Payment>)
      })
    })
  )

/** The orders that cannot be projected, with their reasons (spec: Anchor). */
export const skipped = (orders: Iterable<ProjectableOrder>, options?: Options): Array<Skipped> => {
  const out: Array<Skipped> = []
  for (const order of orders) {
    const r = Occurrence.makePlan(order, options)
    if (Result.isFailure(r)) out.push({ orderId: orderIdOf(order), reason: r.failure.reason })
  }
  return out
}

/** Whether a date lies in the window (both ends inclusive). */
export const contains = (window: Window, d: LocalDate.LocalDate): boolean => d >= window.from && d <= window.to

/** The window `from..to` from two `YYYY-MM-DD` texts, or why they do not make one. */
export const parseWindow = (from: string, to: string): Result.Result<Window, string> =>
  Result.flatMap(LocalDate.parse(from), (f) =>
    Result.flatMap(LocalDate.parse(to), (t) =>
      t < f ? Result.fail(`the window ends (${to}) before it starts (${from})`) : Result.succeed({ from: f, to: t })
    )
  )
