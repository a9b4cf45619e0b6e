/**
 * The projection engine's planning loop: every order's plan, in orderId order, with the fields its payments
 * share. The one ordering of orders is {@link compareIds} (orderIds by UTF-16 code units, then input position).
 */
import { type BusinessDayConvention, Calendar, LocalDate, Money, Occurrence, Recurrence } from "@tppkit/core"
import { BigDecimal, Result } from "effect"
import type * as Payment from "../Payment.ts"

/** What the projection reads from a standing order (the public `Projection.ProjectableOrder`). */
export interface Order extends Occurrence.OrderSchedule {
  readonly orderId: string
  readonly instructedAmount: { readonly value: BigDecimal.BigDecimal; readonly currency: string }
  readonly debtor: { readonly iban: string }
  /** The payee; `iban` undefined when the record names no payee's account: its payments have the creditor unknown. */
  readonly creditor: { readonly iban: string | undefined; readonly name?: string | undefined }
}

/** The window of execution dates, both ends inclusive. */
export interface Window {
  readonly from: LocalDate.LocalDate
  readonly to: LocalDate.LocalDate
}

/**
 * The projection's settings (the public `Projection.Options`): one calendar for every order (default `target`), or
 * a calendar per currency, and the business-day convention (default `following`).
 */
export interface Options {
  readonly calendar?: Calendar.Calendar | ((currency: string) => Calendar.Calendar) | undefined
  readonly convention?: BusinessDayConvention.BusinessDayConvention | undefined
}

/**
 * The occurrence settings of each order: with one calendar the same for every order; with a calendar per currency
 * one per currency, each made once, numbered in the order of first use (`index`).
 */
const settingsOf = (
  options: Options | undefined
): {
  readonly of: (order: Order) => { readonly index: number; readonly options: Occurrence.Options }
  readonly calendars: Array<Calendar.Calendar>
} => {
  const calendar = options?.calendar ?? Calendar.target
  const convention = options?.convention
  if (typeof calendar !== "function") {
    const one = { index: 0, options: { calendar, convention } }
    return { of: () => one, calendars: [calendar] }
  }
  const calendars: Array<Calendar.Calendar> = []
  const byCurrency = new Map<string | undefined, { readonly index: number; readonly options: Occurrence.Options }>()
  return {
    calendars,
    of: (order) => {
      const currency = (order as { readonly instructedAmount?: { readonly currency?: string } }).instructedAmount
        ?.currency
      let found = byCurrency.get(currency)
      if (found === undefined) {
        const own = calendar(currency ?? "")
        let index = calendars.indexOf(own)
        if (index < 0) index = calendars.push(own) - 1
        found = { index, options: { calendar: own, convention } }
        byCurrency.set(currency, found)
      }
      return found
    }
  }
}

/** An order left out, with the human reason. */
export interface Skipped {
  readonly orderId: string | undefined
  readonly reason: string
  /**
   * What makes it equal to other skipped orders (the reason without this order's own date), and the words said of all
   * of them at once, so that a command lists equal ones as one line with a count.
   */
  readonly alike?: { readonly key: string; readonly said: string } | undefined
}

/** The fields every payment of one order shares. */
export interface Template {
  readonly orderId: string
  readonly amount: BigDecimal.BigDecimal
  readonly currency: string
  readonly debtorIban: string
  readonly creditorIban: string | undefined
  readonly creditorName: string | undefined
  /** The bank's `nextDate` of the order, or {@link NO_NEXT_DATE}: a payment executing on it is bank-confirmed. */
  readonly nextDate: number
}

/** The `nextDate` of an order that has none: a day number no payment executes on. */
export const NO_NEXT_DATE = -1_000_000_000

/** A payment's provenance: `bank-confirmed` when it executes on its order's `nextDate`. */
export const provenance = (nextDate: number | undefined, execution: number): Payment.Provenance =>
  execution === nextDate ? "bank-confirmed" : "engine-predicted"

/**
 * The projectable orders in orderId order (equal orderIds in input order), as parallel columns: each order's plan, the
 * first execution date it may still contribute (`max(from, nextDate)`: occurrences executing before nextDate count as
 * paid: packages/core/README.md, "Already paid"), the fields its payments share, and its rank (the position of the
 * first order with the same orderId: orders sharing an orderId have equal ranks).
 */
export interface Plans {
  readonly plans: Array<Occurrence.Plan>
  readonly starts: Int32Array
  readonly templates: Array<Template>
  readonly ranks: Int32Array
  /** The planned indices in input order: the order in which the plans were made and lie in memory. */
  readonly inputOrder: Int32Array
  /** Per planned order: its position in the input (skipped orders counted). */
  readonly inputIndex: Int32Array
  /** 1 for the orders paying on every working day of their calendar (DAIL), else 0. */
  readonly workingDaily: Uint8Array
  /** 1 for the weekly orders (WEEK), else 0. */
  readonly weekly: Uint8Array
  /** Per planned order: the number of its debtor IBAN in `strings` (each distinct string once). */
  readonly debtorIds: Int32Array
  readonly strings: ReadonlyArray<string>
  /** The calendars of the orders (one unless the calendar depends on the currency). */
  readonly calendars: Array<Calendar.Calendar>
  /** Per planned order: the index of its calendar in `calendars`. */
  readonly calendarOf: Int32Array
  /** Whether some orders share an orderId (their payments of one day are then ordered by nominal date). */
  readonly sharedIds: boolean
  /** The orders that cannot be projected, in input order. */
  readonly skipped: Array<Skipped>
}

/**
 * The fields every payment of one order shares, as the public API states them, and the order's `nextDate` (a
 * {@link Template} is one).
 */
export type Fields = Omit<Payment.Payment, "k" | "nominalDate" | "executionDate" | "provenance"> & {
  readonly nextDate?: number | undefined
}

/** One plain payment: an order's shared fields and one occurrence (every field an own property). */
export const payment = (t: Fields, k: number, nominal: number, execution: number): Payment.Payment => ({
  orderId: t.orderId,
  k,
  nominalDate: nominal as LocalDate.LocalDate,
  executionDate: execution as LocalDate.LocalDate,
  provenance: provenance(t.nextDate, execution),
  amount: t.amount,
  currency: t.currency,
  debtorIban: t.debtorIban,
  creditorIban: t.creditorIban,
  creditorName: t.creditorName
})

const orderIdOf = (o: unknown): string | undefined => {
  const id = typeof o === "object" && o !== null ? (o as { orderId?: unknown }).orderId : undefined
  return typeof id === "string" ? id : undefined
}

/**
 * Why an order's amount cannot be projected: one that is not a positive `[9.2]` amount (zero, negative, more than 9
 * digits before the point or more than 2 after it) is reported, never rounded or totalled (README.md, "Wire
 * formats"); `undefined` when it fits.
 */
const amountProblem = (order: Order): string | undefined => {
  const value = order.instructedAmount.value
  const reason = Money.invalidReason(value, Money.standingOrderFormat)
  return reason === undefined
    ? undefined
    : `instructedAmount.value ${Money.toPlainString(value)}: ${reason} (format [9.2]); not projected, nothing rounded`
}

/** The plan of an order, or why it cannot be projected (its amount first). */
const planOrder = (
  schedule: Occurrence.OrderSchedule,
  order: Order,
  options: Occurrence.Options
): Result.Result<Occurrence.Plan, { reason: string }> => {
  const problem = amountProblem(order)
  return problem === undefined ? Occurrence.makePlan(schedule, options) : Result.fail({ reason: problem })
}

/** The orders that cannot be projected, with their reasons, in input order. */
export const skippedOf = (orders: Iterable<Order>, options: Options | undefined): Array<Skipped> => {
  const out: Array<Skipped> = []
  const settings = settingsOf(options)
  for (const order of orders) {
    const r = planOrder(order, order, settings.of(order).options)
    if (Result.isFailure(r)) out.push({ orderId: orderIdOf(order), reason: r.failure.reason })
  }
  return out
}

/**
 * The planned orders that pay nothing in the window although they pay (packages/core/README.md, "Already paid"): none
 * of their payments executes from their first date in the window (`from`, or the bank's `nextDate` when later) to its
 * end. Each named with the reason, in input order: the next payment after the window, or that the payments ended
 * before it — an order that never pays is skipped when read, not here.
 */
export const idleOf = (plans: Plans, window: { readonly from: number; readonly to: number }): Array<Skipped> => {
  const out: Array<Skipped> = []
  const span = `${LocalDate.format(window.from as LocalDate.LocalDate)} to ${LocalDate.format(window.to as LocalDate.LocalDate)}`
  for (let q = 0; q < plans.inputOrder.length; q++) {
    const j = plans.inputOrder[q]!
    const start = plans.starts[j]!
    if (start > window.to) {
      const next = plans.templates[j]!.nextDate
      out.push({
        orderId: plans.templates[j]!.orderId,
        reason: `no payment in this window (${span}): the bank's next date is ${LocalDate.format(next as LocalDate.LocalDate)}`,
        alike: idle(`no payment in this window (${span}): the bank's next date is after it`)
      })
      continue
    }
    const first = Occurrence.firstExecutionOnOrAfter(plans.plans[j]!, start as LocalDate.LocalDate)
    if (first !== undefined && first <= window.to) continue
    const ended = `no payment in this window (${span}): its payments ended before it`
    out.push({
      orderId: plans.templates[j]!.orderId,
      reason:
        first === undefined ? ended : `no payment in this window (${span}): the next is on ${LocalDate.format(first)}`,
      alike: idle(first === undefined ? ended : `no payment in this window (${span}): the next is after it`)
    })
  }
  return out
}

const idle = (said: string): { readonly key: string; readonly said: string } => ({ key: said, said })

/**
 * The one ordering of orders: by orderId (UTF-16 code units; an order without a string orderId sorts first),
 * then by input position.
 */
export const compareIds =
  (ids: ReadonlyArray<string | undefined>) =>
  (a: number, b: number): number => {
    const x = ids[a]
    const y = ids[b]
    if (x !== y) {
      if (x === undefined) return -1
      if (y === undefined) return 1
      return x < y ? -1 : 1
    }
    return a - b
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

/** Up to how many orders are sorted by comparison rather than by {@link sortedIndex}'s numeric keys. */
const SMALL = 256

/** How many code units after the common prefix the numeric keys may read at most. */
const KEY_DEPTH = 16

/**
 * The positions of `ids` in {@link compareIds} order, for at least two strings. Each string gets a number that
 * orders as the string does over its first code units after the common prefix (each unit by its rank among the
 * units that occur there, 0 past the end), with the position in the low bits: one native numeric sort orders
 * them, and only runs of equal keys are compared as strings afterwards.
 */
const sortedIndex = (ids: ReadonlyArray<string>): Int32Array => {
  const n = ids.length
  const compare = compareIds(ids)
  const prefix = commonPrefix(ids)
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
    return index.sort(compare)
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
  // runs of equal keys agree on the keyed units: only longer strings can still be out of order
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

/**
 * The planning loop: plans every order once, in input order (so that each order is read where it lies in memory,
 * next to the one before), keeping what its payments share in flat columns; then lays the plans out in
 * {@link compareIds} order (a linear check first: input already in order is kept) and allocates the templates from
 * the columns, those of daily orders first, so that a day's passes read them mostly in sequence. Equal
 * debtor IBANs and currencies become one string each (totals compare them per payment); with `shareCreditors`
 * equal creditor IBANs and names too, so that the state of a lazy projection, which outlives the caller's orders,
 * stays small when many orders name the same accounts.
 */
export const plan = (
  orders: Iterable<Order>,
  window: Window,
  options: Options | undefined,
  shareCreditors = false
): Plans => {
  const settings = settingsOf(options)
  const list = Array.isArray(orders) ? (orders as ReadonlyArray<Order>) : Array.from(orders)
  const n = list.length
  // each distinct string once, numbered: `interned` is the number of the last one asked for
  const strings = new Map<string, number>()
  const distinct: Array<string> = []
  let interned = 0
  const intern = (s: string): string => {
    const known = strings.get(s)
    if (known !== undefined) {
      interned = known
      return distinct[known]!
    }
    interned = distinct.push(s) - 1
    strings.set(s, interned)
    return s
  }
  const ids = new Array<string | undefined>(n)
  const planOf = new Array<Occurrence.Plan | undefined>(n)
  const values = new Array<bigint>(n)
  const scales = new Array<number>(n)
  const currencies = new Array<string>(n)
  const debtors = new Array<string>(n)
  const debtorIdOf = new Int32Array(n)
  const creditors = new Array<string | undefined>(n)
  const names = new Array<string | undefined>(n)
  const startOf = new Int32Array(n)
  const nextOf = new Int32Array(n)
  const dailyOf = new Uint8Array(n)
  const groupOf = new Uint8Array(n)
  const calendarOfInput = new Int32Array(n)
  const skipped: Array<Skipped> = []
  let inOrder = true
  let allStrings = true
  for (let i = 0; i < n; i++) {
    const order = list[i]!
    const id = orderIdOf(order)
    ids[i] = id
    if (id === undefined) allStrings = false
    else if (i > 0 && inOrder && ids[i - 1] !== undefined && ids[i - 1]! > id) inOrder = false
    const own = settings.of(order)
    // the recurrence made once (an order of the bank's standard makes it when asked): planned, and its code read
    const recurrence = order.frequency === undefined ? order.recurrence : undefined
    const r = planOrder(recurrence === undefined ? order : { recurrence }, order, own.options)
    if (Result.isFailure(r)) {
      skipped.push({ orderId: id, reason: r.failure.reason })
      continue
    }
    calendarOfInput[i] = own.index
    planOf[i] = r.success
    const next = order.nextDate
    startOf[i] = next !== undefined && next > window.from ? next : window.from
    nextOf[i] = next ?? NO_NEXT_DATE
    const frequency = recurrence === undefined ? order.frequency : Recurrence.code(recurrence)
    if (frequency !== undefined) {
      dailyOf[i] = frequency === "DAIL" ? 1 : 0
      groupOf[i] = frequency === "DAI7" || frequency === "DAIL" ? 0 : frequency === "WEEK" ? 1 : 2
    } else {
      // an order given as a recurrence (an RRULE): every working day only when its plan says so
      dailyOf[i] = Occurrence.everyWorkingDay(r.success) ? 1 : 0
      groupOf[i] = dailyOf[i] === 1 || Occurrence.fixedStep(r.success) === 1 ? 0 : 2
    }
    const value = order.instructedAmount.value
    values[i] = value.value
    scales[i] = value.scale
    currencies[i] = intern(order.instructedAmount.currency)
    debtors[i] = intern(order.debtor.iban)
    debtorIdOf[i] = interned
    const creditor = order.creditor
    creditors[i] = creditor.iban === undefined || !shareCreditors ? creditor.iban : intern(creditor.iban)
    names[i] = creditor.name === undefined || !shareCreditors ? creditor.name : intern(creditor.name)
  }
  let index: Int32Array | undefined
  if (!allStrings) {
    index = new Int32Array(n)
    for (let i = 0; i < n; i++) index[i] = i
    index.sort(compareIds(ids))
  } else if (!inOrder && n > 1) {
    // a few orders are sorted by comparison: the keys' table of every code unit costs more than that
    if (n <= SMALL) {
      index = new Int32Array(n)
      for (let i = 0; i < n; i++) index[i] = i
      index.sort(compareIds(ids))
    } else {
      index = sortedIndex(ids as ReadonlyArray<string>)
    }
  }
  const m = n - skipped.length
  const plans = new Array<Occurrence.Plan>(m)
  const starts = new Int32Array(m)
  const ranks = new Int32Array(m)
  const workingDaily = new Uint8Array(m)
  const weekly = new Uint8Array(m)
  const debtorIds = new Int32Array(m)
  const calendarOf = new Int32Array(m)
  const planned = new Int32Array(m)
  let sharedIds = false
  let lastId: string | undefined
  for (let x = 0, j = 0; x < n; x++) {
    const i = index === undefined ? x : index[x]!
    const p = planOf[i]
    if (p === undefined) continue
    const id = allStrings ? ids[i]! : list[i]!.orderId
    if (j > 0 && id === lastId) {
      sharedIds = true
      ranks[j] = ranks[j - 1]!
    } else {
      ranks[j] = j
    }
    lastId = id
    plans[j] = p
    starts[j] = startOf[i]!
    workingDaily[j] = dailyOf[i]!
    weekly[j] = groupOf[i] === 1 ? 1 : 0
    debtorIds[j] = debtorIdOf[i]!
    calendarOf[j] = calendarOfInput[i]!
    planned[j] = i
    j++
  }
  const planOfInput = new Int32Array(n).fill(-1)
  for (let j = 0; j < m; j++) planOfInput[planned[j]!] = j
  const inputOrder = new Int32Array(m)
  for (let i = 0, q = 0; i < n; i++) if (planOfInput[i]! >= 0) inputOrder[q++] = planOfInput[i]!
  // the amounts, then the templates, daily orders first, then weekly ones, then the others (each group in planned
  // order): the passes over a day's payments read the templates of that day's orders in planned order, and most of
  // them are those of the daily orders, which thus lie next to each other in memory instead of spread over all
  const amounts = new Array<BigDecimal.BigDecimal>(m)
  for (let j = 0; j < m; j++) amounts[j] = BigDecimal.make(values[planned[j]!]!, scales[planned[j]!]!)
  const templates = new Array<Template>(m)
  for (let group = 0; group < 3; group++) {
    for (let j = 0; j < m; j++) {
      const i = planned[j]!
      if (groupOf[i] !== group) continue
      templates[j] = {
        orderId: allStrings ? ids[i]! : list[i]!.orderId,
        amount: amounts[j]!,
        currency: currencies[i]!,
        debtorIban: debtors[i]!,
        creditorIban: creditors[i],
        creditorName: names[i],
        nextDate: nextOf[i]!
      }
    }
  }
  return {
    plans,
    starts,
    templates,
    ranks,
    inputOrder,
    inputIndex: planned,
    workingDaily,
    weekly,
    debtorIds,
    strings: distinct,
    calendars: settings.calendars,
    calendarOf,
    sharedIds,
    skipped
  }
}

/**
 * The one ordering of payments of one execution day, given as positions `from..to` (exclusive) of columns
 * already in planned-order order: orders sharing an orderId (equal ranks, adjacent) are put in nominal-date
 * order, stable. `swap` exchanges two positions of the caller's columns.
 */
export const orderSameIds = (
  ranks: Int32Array,
  orderAt: (x: number) => number,
  nominalAt: (x: number) => number,
  from: number,
  to: number,
  move: (permutation: ReadonlyArray<number>, start: number) => void
): void => {
  for (let x = from; x < to; ) {
    const r = ranks[orderAt(x)]!
    let y = x + 1
    while (y < to && ranks[orderAt(y)] === r) y++
    if (y - x > 1) {
      const run = Array.from({ length: y - x }, (_, j) => x + j)
      run.sort((a, b) => nominalAt(a) - nominalAt(b) || a - b)
      move(run, x)
    }
    x = y
  }
}
