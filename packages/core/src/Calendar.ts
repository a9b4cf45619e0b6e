/**
 * Working-day calendars (packages/core/README.md, "Working days"). A calendar is a value that names the holidays
 * besides Saturdays and Sundays; "is this a working day" is answered in O(1), so national calendars built from a
 * holiday library plug into the engine unchanged.
 *
 * @since 0.1.0
 */
import * as Easter from "./Easter.ts"
import * as WorkingDays from "./internal/workingDays.ts"
import * as LocalDate from "./LocalDate.ts"

/**
 * A working-day calendar: its name and its holidays besides Saturdays and Sundays
 * (packages/core/README.md, "Working days").
 */
export interface Calendar {
  /** A short name for messages and reports, e.g. `"target"`. */
  readonly name: string
  /** Whether a date is a holiday of this calendar; weekends need not be reported. Must be O(1) and pure. */
  readonly isHoliday: (date: LocalDate.LocalDate) => boolean
  /**
   * Optional fast path: how many dates in `from..to` (inclusive) fall on Monday–Friday and are holidays (on a
   * calendar whose weekends are open, on any day). Must agree with `isHoliday`; without it, working days are counted
   * day by day.
   */
  readonly countWeekdayHolidays?: ((from: LocalDate.LocalDate, to: LocalDate.LocalDate) => number) | undefined
  /**
   * Optional: the name of a holiday of this calendar (e.g. `"Easter Monday"`), `undefined` for a day that is not
   * one; read only to explain a date ({@link holidayName}), never on the engine's hot path.
   */
  readonly holidayName?: ((date: LocalDate.LocalDate) => string | undefined) | undefined
  /**
   * Optional: Saturdays and Sundays are working days too, only the holidays are closed (a bank that pays on every
   * day, {@link everyDay}); absent or false, weekends are closed (packages/core/README.md, "Working days").
   */
  readonly weekendsOpen?: boolean | undefined
}

/**
 * A calendar from a name and a holiday predicate (the predicate should answer in O(1)), optionally with a
 * counter of the holidays on weekdays in a range that agrees with the predicate and the names of its holidays.
 */
export const make = (
  name: string,
  isHoliday: (date: LocalDate.LocalDate) => boolean,
  countWeekdayHolidays?: (from: LocalDate.LocalDate, to: LocalDate.LocalDate) => number,
  holidayName?: (date: LocalDate.LocalDate) => string | undefined
): Calendar => {
  const base: Calendar =
    countWeekdayHolidays === undefined ? { name, isHoliday } : { name, isHoliday, countWeekdayHolidays }
  return holidayName === undefined ? base : { ...base, holidayName }
}

/** Saturdays and Sundays only, no holidays (packages/core/README.md, "Working days"). */
export const weekends: Calendar = make(
  "weekends",
  () => false,
  () => 0
)

/**
 * Every day a working day, weekends and holidays included (a bank that pays on every day); `withHolidays` of it
 * closes only the added days.
 */
export const everyDay: Calendar = {
  ...make(
    "every-day",
    () => false,
    () => 0
  ),
  weekendsOpen: true
}

/** The number of values of a sorted array within `from..to` (inclusive), by binary search. */
const countSortedBetween = (sorted: Int32Array, from: number, to: number): number => {
  const lowerBound = (x: number): number => {
    let lo = 0
    let hi = sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (sorted[mid]! < x) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  return to < from ? 0 : lowerBound(to + 1) - lowerBound(from)
}

const isWeekday = (d: number): boolean => (((d + 3) % 7) + 7) % 7 < 5

// ---------------------------------------------------------------------------
// TARGET2: a bitmap over 0001-01-01..9999-12-31 (about 60,000 holidays), filled a span of years at a time around
// the dates asked for: a command that looks at one quarter computes a hundred years' Easters, not ten thousand
// ---------------------------------------------------------------------------

/** Years filled on either side of a date outside the years known so far. */
const TARGET_MARGIN = 50

let targetBits: Uint32Array | undefined
/** The years whose closing days are in the bitmap and the list (none at first), and their first and last day. */
let targetFirstYear = 1
let targetLastYear = 0
let targetFirstDay = 1
let targetLastDay = 0
/** The closing days of the known years that fall on weekdays, in date order (for counting them in a range). */
let targetWeekdayHolidays: Int32Array = new Int32Array(0)

/** Sets one year's closing days in the bitmap and appends those on weekdays, in date order, to `weekdays`. */
const fillTargetYear = (bits: Uint32Array, year: number, weekdays: Array<number>): void => {
  const easter = Easter.sunday(year)
  for (const d of [
    LocalDate.fromPartsUnchecked(year, 1, 1),
    easter - 2,
    easter + 1,
    LocalDate.fromPartsUnchecked(year, 5, 1),
    LocalDate.fromPartsUnchecked(year, 12, 25),
    LocalDate.fromPartsUnchecked(year, 12, 26)
  ]) {
    const i = d - LocalDate.MIN
    bits[i >>> 5]! |= 1 << (i & 31)
    if (isWeekday(d)) weekdays.push(d)
  }
}

/** Makes the years `first`..`last` (and a margin around them, within 0001–9999) known, keeping those known. */
const knowTargetYears = (first: number, last: number): Uint32Array => {
  targetBits ??= new Uint32Array(((LocalDate.MAX - LocalDate.MIN) >>> 5) + 1)
  const bits = targetBits
  const known = targetFirstYear <= targetLastYear
  const from = Math.max(1, Math.min(first - TARGET_MARGIN, known ? targetFirstYear : 9999))
  const to = Math.min(9999, Math.max(last + TARGET_MARGIN, known ? targetLastYear : 1))
  const before: Array<number> = []
  const after: Array<number> = []
  for (let year = from; year <= to; year++) {
    if (!known || year < targetFirstYear) fillTargetYear(bits, year, before)
    else if (year > targetLastYear) fillTargetYear(bits, year, after)
  }
  const list = new Int32Array(before.length + targetWeekdayHolidays.length + after.length)
  list.set(before)
  list.set(targetWeekdayHolidays, before.length)
  list.set(after, before.length + targetWeekdayHolidays.length)
  targetWeekdayHolidays = list
  targetFirstYear = from
  targetLastYear = to
  targetFirstDay = LocalDate.fromPartsUnchecked(from, 1, 1)
  targetLastDay = LocalDate.fromPartsUnchecked(to, 12, 31)
  return bits
}

/** Whether a date is a TARGET2 closing day (packages/core/README.md, "Working days"); false outside 0001–9999. */
export const isTargetHoliday = (date: LocalDate.LocalDate): boolean => {
  const i = date - LocalDate.MIN
  if (i < 0 || date > LocalDate.MAX) return false
  let bits = targetBits!
  if (date < targetFirstDay || date > targetLastDay) {
    const { year } = LocalDate.toParts(date)
    bits = knowTargetYears(year, year)
  }
  return ((bits[i >>> 5]! >>> (i & 31)) & 1) === 1
}

/** How many TARGET2 closing days fall on weekdays within `from`..`to`. */
const countTargetWeekdayHolidays = (from: LocalDate.LocalDate, to: LocalDate.LocalDate): number => {
  const first = Math.max(from, LocalDate.MIN)
  const last = Math.min(to, LocalDate.MAX)
  if (last < first) return 0
  if (first < targetFirstDay || last > targetLastDay) {
    knowTargetYears(
      LocalDate.toParts(first as LocalDate.LocalDate).year,
      LocalDate.toParts(last as LocalDate.LocalDate).year
    )
  }
  return countSortedBetween(targetWeekdayHolidays, first, last)
}

/** The name of a TARGET2 closing day, or `undefined` for a day that is not one. */
const targetHolidayName = (date: LocalDate.LocalDate): string | undefined => {
  if (!isTargetHoliday(date)) return undefined
  const { year, month, day } = LocalDate.toParts(date)
  if (month === 1 && day === 1) return "New Year's Day"
  if (month === 5 && day === 1) return "Labour Day"
  if (month === 12 && day === 25) return "Christmas Day"
  if (month === 12 && day === 26) return "26 December (Christmas holiday)"
  const easter = Easter.sunday(year)
  if (date === easter - 2) return "Good Friday"
  if (date === easter + 1) return "Easter Monday"
  return undefined
}

/**
 * The TARGET2 closing days (packages/core/README.md, "Working days"): 1 January, Good Friday, Easter Monday,
 * 1 May, 25 and 26 December of every year, Easter by the Gregorian computus.
 */
export const target: Calendar = make("target", isTargetHoliday, countTargetWeekdayHolidays, targetHolidayName)

/**
 * The calendars core defines itself (packages/core/README.md, "Working days"): `weekends` and `target`, the default.
 */
export const builtIn: ReadonlyArray<Calendar> = [weekends, target]

/** The built-in calendar of that name (`weekends` or `target`, any letter case), or `undefined`. */
export const builtInNamed = (name: string): Calendar | undefined => {
  const lower = name.toLowerCase()
  return builtIn.find((c) => c.name === lower)
}

/**
 * `base` plus extra holiday dates given by the user (packages/core/README.md, "Working days"); returns a new calendar
 * and leaves `base` unchanged.
 */
export const withHolidays = (
  base: Calendar,
  dates: Iterable<LocalDate.LocalDate>,
  name: string = `${base.name}+custom`
): Calendar => {
  const extra = new Set<number>(dates)
  const baseIsHoliday = base.isHoliday
  const baseCount = base.countWeekdayHolidays
  const baseName = base.holidayName
  const open = base.weekendsOpen === true
  // the base's open weekends stay open
  const keep = (c: Calendar): Calendar => (open ? { ...c, weekendsOpen: true } : c)
  if (extra.size === 0) return keep(make(name, baseIsHoliday, baseCount, baseName))
  const isHoliday = (date: LocalDate.LocalDate): boolean => extra.has(date) || baseIsHoliday(date)
  // a date of both keeps the base calendar's name; an added one is named as added
  const holidayName = (date: LocalDate.LocalDate): string | undefined =>
    baseName?.(date) ?? (extra.has(date) ? addedHolidayName : undefined)
  if (baseCount === undefined) return keep(make(name, isHoliday, undefined, holidayName))
  // the extra dates that close a day the base calendar works (a weekday, or any day when weekends are open), sorted
  const added = Int32Array.from(
    [...extra].filter((d) => (open || isWeekday(d)) && !baseIsHoliday(d as LocalDate.LocalDate))
  ).sort()
  return keep(
    make(name, isHoliday, (from, to) => baseCount(from, to) + countSortedBetween(added, from, to), holidayName)
  )
}

/** The name {@link withHolidays} gives the dates it adds. */
export const addedHolidayName = "an added holiday"

/**
 * Why a date is not a working day of `calendar`: `"weekend"` for a Saturday or Sunday, the holiday's name when the
 * calendar names it (e.g. `"Easter Monday"`), `"holiday"` for a holiday it does not name, `undefined` for a working
 * day (packages/core/README.md, "Working days").
 * @example closure(target, 2026-04-06) // "Easter Monday"
 */
export const closure = (calendar: Calendar, date: LocalDate.LocalDate): string | undefined => {
  if (!isWeekday(date) && calendar.weekendsOpen !== true) return "weekend"
  if (!calendar.isHoliday(date)) return undefined
  return calendar.holidayName?.(date) ?? "holiday"
}

// ---------------------------------------------------------------------------
// queries
// ---------------------------------------------------------------------------

/**
 * Whether a date is a working day: neither Saturday nor Sunday (unless the calendar's weekends are open) nor a
 * holiday of `calendar` (packages/core/README.md, "Working days").
 */
export const isWorkingDay = (calendar: Calendar, date: LocalDate.LocalDate): boolean =>
  WorkingDays.isWorking(calendar, date)

/** The first working day on or after `date`, or `undefined` when there is none up to 9999-12-31. */
export const nextWorkingDay = (calendar: Calendar, date: LocalDate.LocalDate): LocalDate.LocalDate | undefined => {
  const d = WorkingDays.following(calendar, date)
  return d > LocalDate.MAX ? undefined : (d as LocalDate.LocalDate)
}

/** The last working day on or before `date`, or `undefined` when there is none down to 0001-01-01. */
export const previousWorkingDay = (calendar: Calendar, date: LocalDate.LocalDate): LocalDate.LocalDate | undefined => {
  const d = WorkingDays.preceding(calendar, date)
  return d < LocalDate.MIN ? undefined : (d as LocalDate.LocalDate)
}

/**
 * The date `n` working days after `date` (before it for negative `n`; `date` itself is not counted); for
 * `n = 0`, `date` when it is a working day, else the next working day. `undefined` when the walk leaves
 * 0001–9999.
 */
export const addWorkingDays = (
  calendar: Calendar,
  date: LocalDate.LocalDate,
  n: number
): LocalDate.LocalDate | undefined => {
  if (n === 0) return nextWorkingDay(calendar, date)
  const step = n > 0 ? 1 : -1
  let remaining = Math.abs(n)
  let d: number = date
  while (remaining > 0) {
    d += step
    if (d < LocalDate.MIN || d > LocalDate.MAX) return undefined
    if (WorkingDays.isWorking(calendar, d)) remaining--
  }
  return d as LocalDate.LocalDate
}

/** Monday–Friday dates before day number `d`, counted from a Monday long before 0001-01-01. */
const weekdaysBefore = (d: number): number => {
  const t = d + 770_003 // day −770003 is a Monday
  const rest = t % 7
  return ((t - rest) / 7) * 5 + Math.min(rest, 5)
}

/**
 * The number of working days from `from` to `to`, both inclusive (0 when `to` is before `from`): O(log n)
 * when the calendar counts its holidays (`weekends`, `target`, `everyDay`, `withHolidays` of those), else day by
 * day over the weekdays (over every day when the calendar's weekends are open).
 */
export const countWorkingDays = (calendar: Calendar, from: LocalDate.LocalDate, to: LocalDate.LocalDate): number => {
  const first = Math.max(from, LocalDate.MIN)
  const last = Math.min(to, LocalDate.MAX)
  if (last < first) return 0
  const counter = calendar.countWeekdayHolidays
  if (calendar.weekendsOpen === true) {
    if (counter !== undefined)
      return last - first + 1 - counter(first as LocalDate.LocalDate, last as LocalDate.LocalDate)
    let open = 0
    for (let d = first; d <= last; d++) if (!calendar.isHoliday(d as LocalDate.LocalDate)) open++
    return open
  }
  if (counter !== undefined) {
    return (
      weekdaysBefore(last + 1) -
      weekdaysBefore(first) -
      counter(first as LocalDate.LocalDate, last as LocalDate.LocalDate)
    )
  }
  let count = 0
  for (let d = first; d <= last; d++) {
    const dow = (((d + 3) % 7) + 7) % 7
    if (dow >= 5) {
      d += 6 - dow // jump to Sunday; the loop's increment lands on Monday
      continue
    }
    if (!calendar.isHoliday(d as LocalDate.LocalDate)) count++
  }
  return count
}
