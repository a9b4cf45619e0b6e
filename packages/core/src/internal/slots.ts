/**
 * The frequency engine's general shape (written here, not taken from a library: the date engine is core and its
 * speed matters): a recurrence as periods of `length` days or months from an `origin`, each with the same ascending
 * slots (a day offset, or a month offset and a day of that month). Slot `g` overall is slot `g mod m` of period
 * `⌊g / m⌋`, so nominal dates come by arithmetic. When some slot may not exist in some month (day 29–31 skipped,
 * a fifth weekday), existence repeats every 400 years (4,800 months, a whole number of weeks): a prefix count
 * over one cycle, shared by plans of the same phase, turns "how many exist before g" and its inverse into O(1)
 * and O(log n).
 */
import * as LocalDate from "../LocalDate.ts"
import * as Months from "./months.ts"

/** No date in this period (the slot's day does not exist and is skipped). */
export const NONE = -1_000_000_000
/** Past 9999-12-31. */
export const END: number = LocalDate.MAX + 1

/** Missing-day rules as numbers: clamp to the month's end, skip, or forward to the next month's first day. */
export const CLAMP = 0
export const SKIP = 1
export const FORWARD = 2

/** A general schedule's arithmetic (see the module comment). */
export interface Slots {
  /** Units: months (true) or days (false). */
  readonly months: boolean
  /** First day, or month index (year·12 + month − 1), of period 0. */
  readonly origin: number
  /** Period length in units. */
  readonly length: number
  /** Each slot's offset in units within its period, ascending. */
  readonly offsets: Int32Array
  /** Months: each slot's day (1..31 from the start, −1..−28 from the end, 0 for a weekday of the month). */
  readonly dayOf: Int32Array
  /** Months: each slot's weekday (1 Monday … 7 Sunday) when its day is 0. */
  readonly weekdayOf: Int32Array
  /** Months: each slot's ordinal (1..5, −1..−5) when its day is 0. */
  readonly ordinalOf: Int32Array
  /** The missing-day rule ({@link CLAMP}, {@link SKIP}, {@link FORWARD}). */
  readonly missing: number
  /** Whether some slot can be absent in some period. */
  readonly variable: boolean
  /** The first slot on or after the schedule's start whose date exists (occurrence 0). */
  first: number
  /** Variable shapes: existing slots before each slot of one cycle, from slot 0 (built on first use). */
  table: Int32Array | undefined
}

/** ISO weekday of a day number (1 Monday … 7 Sunday). */
const dow = (d: number): number => ((((d + 3) % 7) + 7) % 7) + 1

/** The date of slot `i` of a month, or `NONE` when it does not exist there (`END` past December 9999). */
const inMonth = (s: Slots, index: number, i: number): number => {
  if (index > Months.LAST_MONTH_INDEX) return END
  const starts = Months.monthStarts()
  const start = starts[index]!
  const length = starts[index + 1]! - start
  const day = s.dayOf[i]!
  if (day > 0) {
    if (day <= length) return start + day - 1
    return s.missing === CLAMP ? start + length - 1 : s.missing === FORWARD ? start + length : NONE
  }
  if (day < 0) return start + length + day
  const w = s.weekdayOf[i]!
  const o = s.ordinalOf[i]!
  if (o > 0) {
    const d = start + ((w - dow(start) + 7) % 7) + 7 * (o - 1)
    return d < start + length ? d : NONE
  }
  const last = start + length - 1
  const d = last - ((dow(last) - w + 7) % 7) + 7 * (o + 1)
  return d >= start ? d : NONE
}

/** The nominal date of slot `g`, `NONE` when it does not exist, `END` past 9999-12-31. */
export const dateOf = (s: Slots, g: number): number => {
  const m = s.offsets.length
  const p = Math.floor(g / m)
  const i = g - p * m
  if (s.months) return inMonth(s, s.origin + p * s.length + s.offsets[i]!, i)
  const d = s.origin + p * s.length + s.offsets[i]!
  return d > LocalDate.MAX ? END : d
}

/** The first slot from `from` on whose date exists and is on or after `date` (`END` counts as after). */
const scan = (s: Slots, from: number, date: number): number => {
  for (let g = from; ; g++) {
    const d = dateOf(s, g)
    if (d !== NONE && d >= date) return g
  }
}

/** The first slot (from occurrence 0 on) whose date exists and is on or after `date`: arithmetic, then a short scan. */
export const seek = (s: Slots, date: number): number => {
  const clamped = Math.min(Math.max(date, LocalDate.MIN), LocalDate.MAX)
  const units = s.months ? Months.monthIndexOf(clamped) - s.origin : clamped - s.origin
  // one period back: a day moved forward out of its month belongs to the period before
  const p = Math.floor(units / s.length) - 1
  return scan(s, Math.max(s.first, p * s.offsets.length), date)
}

/** Sets occurrence 0: the first existing slot on or after `start`. */
export const setStart = (s: Slots, start: number): void => {
  s.first = scan(s, 0, start)
}

const tables = new Map<string, Int32Array>()

/** Slots of one existence cycle (4,800 months) and their prefix counts, shared by plans of the same phase. */
const tableOf = (s: Slots): Int32Array => {
  if (s.table !== undefined) return s.table
  const m = s.offsets.length
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))
  const periods = 4800 / gcd(s.length, 4800)
  const phase = ((s.origin % 4800) + 4800) % 4800
  const key = `${phase}|${s.length}|${s.missing}|${s.offsets}|${s.dayOf}|${s.weekdayOf}|${s.ordinalOf}`
  let table = tables.get(key)
  if (table === undefined) {
    table = new Int32Array(periods * m + 1)
    // month index 4800 + (i mod 4800) has the same length and weekdays as month i (years 400–799)
    for (let g = 0; g < periods * m; g++) {
      const p = Math.floor(g / m)
      const i = g - p * m
      const index = 4800 + ((phase + p * (s.length % 4800) + s.offsets[i]!) % 4800)
      table[g + 1] = table[g]! + (inMonth(s, index, i) === NONE ? 0 : 1)
    }
    if (tables.size > 256) tables.clear()
    tables.set(key, table)
  }
  s.table = table
  return table
}

/** Existing slots before slot `g`, counted from slot 0. */
const existingBefore = (s: Slots, g: number): number => {
  const table = tableOf(s)
  const cycle = table.length - 1
  const q = Math.floor(g / cycle)
  return q * table[cycle]! + table[g - q * cycle]!
}

/** The occurrence number of slot `g` (an existing slot at or after occurrence 0). */
export const occurrenceOf = (s: Slots, g: number): number =>
  s.variable ? existingBefore(s, g) - existingBefore(s, s.first) : g - s.first

/** The slot of occurrence `k`. */
export const slotOf = (s: Slots, k: number): number => {
  if (!s.variable) return k + s.first
  const table = tableOf(s)
  const cycle = table.length - 1
  const total = table[cycle]!
  const t = k + existingBefore(s, s.first)
  const q = Math.floor(t / total)
  const r = t - q * total
  // the first slot of the cycle with r existing slots before it and itself existing
  let lo = 0
  let hi = cycle - 1
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (table[mid + 1]! > r) hi = mid
    else lo = mid + 1
  }
  return q * cycle + lo
}
