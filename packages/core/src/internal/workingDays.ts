/**
 * Hot-path helpers of the frequency engine on plain day numbers. Out-of-range answers are signalled by the
 * sentinels `BEYOND_MAX` (past 9999-12-31) and `BEFORE_MIN` (before 0001-01-01) instead of allocations.
 */
import * as LocalDate from "../LocalDate.ts"
import * as Months from "./months.ts"

/** The part of a calendar the helpers need (structural, so that this module does not import Calendar). */
export interface HolidaySource {
  readonly isHoliday: (date: LocalDate.LocalDate) => boolean
  /** Saturdays and Sundays are working days unless holidays (a bank paying on every day). */
  readonly weekendsOpen?: boolean | undefined
}

/** A day number past 9999-12-31: "no such date up to the end of the range". */
export const BEYOND_MAX: number = LocalDate.MAX + 1
/** A day number before 0001-01-01: "no such date down to the start of the range". */
export const BEFORE_MIN: number = LocalDate.MIN - 1
/** The month index (year·12 + month − 1) of December 9999. */
export const MAX_MONTH_INDEX = Months.LAST_MONTH_INDEX

/**
 * Whether a day number is a working day of a calendar: not a holiday, and a weekday unless the calendar's weekends
 * are open (the flag is read on weekends only, so the weekday path is unchanged).
 */
export const isWorking = (calendar: HolidaySource, d: number): boolean => {
  const dow = (((d + 3) % 7) + 7) % 7 // 0 = Monday … 6 = Sunday
  return (dow < 5 || calendar.weekendsOpen === true) && !calendar.isHoliday(d as LocalDate.LocalDate)
}

/** The first working day on or after `d`, or `BEYOND_MAX`. */
export const following = (calendar: HolidaySource, d: number): number => {
  for (; d <= LocalDate.MAX; d++) if (isWorking(calendar, d)) return d
  return BEYOND_MAX
}

/** The last working day on or before `d`, or `BEFORE_MIN`. */
export const preceding = (calendar: HolidaySource, d: number): number => {
  for (; d >= LocalDate.MIN; d--) if (isWorking(calendar, d)) return d
  return BEFORE_MIN
}

/** Year·12 + month − 1 of a day number within 0001–9999 (callers clamp first). */
export const monthIndexOf = (date: number): number => Months.monthIndexOf(date)

/** The first day of month `index` (year·12 + month − 1, years 0001–9999): a table lookup. */
export const monthStart = (index: number): number => Months.monthStarts()[index]!

/**
 * The day number of `day` in month `index` (year·12 + month − 1, years 0001–9999), or of the month's last day
 * when the month is shorter (packages/core/README.md, "Nominal dates"). A table lookup: this is the hot path.
 */
export const monthDayClamped = (index: number, day: number): number => {
  const starts = Months.monthStarts()
  const start = starts[index]!
  const length = starts[index + 1]! - start
  return start + Math.min(day, length) - 1
}

/** ISO weekday of a day number (1 Monday … 7 Sunday). */
const isoWeekday = (d: number): number => ((((d + 3) % 7) + 7) % 7) + 1

/**
 * The code of the `ordinal`-th `weekday` (1 Monday … 7 Sunday) of the month for {@link monthDay}: ordinal 1…4 from
 * the month's start, −1…−4 from its end (every month has four of each weekday, so the day always exists).
 */
export const weekdayOfMonth = (weekday: number, ordinal: number): number => -(100 + (ordinal + 5) * 8 + weekday)

/** {@link monthDay} for a code other than a day of month, in the month from `start` of `length` days. */
const otherMonthDay = (start: number, length: number, code: number): number => {
  if (code > -100) return start + length + code
  const c = -code - 100
  const weekday = c & 7
  const ordinal = (c >> 3) - 5
  if (ordinal > 0) return start + ((weekday - isoWeekday(start) + 7) % 7) + 7 * (ordinal - 1)
  const last = start + length - 1
  return last - ((isoWeekday(last) - weekday + 7) % 7) + 7 * (ordinal + 1)
}

/**
 * The day number of a day in month `index` (years 0001–9999) named by a code: 1…31 that day of month, clamped to a
 * shorter month (as {@link monthDayClamped}); −1…−28 counted from the month's end (−1 its last day); or a
 * {@link weekdayOfMonth} code. Every code names a day inside its month, so month arithmetic seeks it in O(1).
 */
export const monthDay = (index: number, code: number): number => {
  const starts = Months.monthStarts()
  const start = starts[index]!
  const length = starts[index + 1]! - start
  return code > 0 ? start + Math.min(code, length) - 1 : otherMonthDay(start, length, code)
}

/**
 * The first of the dates `anchorDay` (a {@link monthDay} code) of month `anchorMonth + monthStep·k` (k = 0 … lastK)
 * that is on or after `date`, or `BEYOND_MAX` when none is (packages/core/README.md, "Nominal dates"): a month-based
 * schedule whose execution dates are its nominal dates, answered from the month-start table alone.
 */
export const firstMonthDayOnOrAfter = (
  anchorMonth: number,
  anchorDay: number,
  monthStep: number,
  lastK: number,
  date: number
): number => {
  const starts = Months.monthStarts()
  const month =
    date < LocalDate.MIN ? Months.FIRST_MONTH_INDEX : date > LocalDate.MAX ? MAX_MONTH_INDEX : monthIndexOf(date)
  const months = month - anchorMonth
  let k = months <= 0 ? 0 : monthStep === 1 ? months : Math.ceil(months / monthStep)
  for (; k <= lastK; k++) {
    // at most twice: the nominal date of k is in `date`'s month or later, the next one is past `date`
    const index = anchorMonth + monthStep * k
    const start = starts[index]!
    const length = starts[index + 1]! - start
    const d = anchorDay > 0 ? start + Math.min(anchorDay, length) - 1 : otherMonthDay(start, length, anchorDay)
    if (d >= date) return d
  }
  return BEYOND_MAX
}

/** Whether two day numbers lie in the same calendar month (either may be a sentinel). */
const sameMonth = (a: number, b: number): boolean =>
  a >= LocalDate.MIN && a <= LocalDate.MAX && monthIndexOf(a) === monthIndexOf(b)

/**
 * The business-day convention applied to `d` (packages/core/README.md, "Execution dates"), with sentinels when the
 * range ends.
 */
export const adjust = (
  d: number,
  convention: "following" | "preceding" | "modified-following" | "modified-preceding" | "none",
  calendar: HolidaySource
): number => {
  if (convention === "none" || isWorking(calendar, d)) return d
  switch (convention) {
    case "following":
      return following(calendar, d)
    case "preceding":
      return preceding(calendar, d)
    case "modified-following": {
      const f = following(calendar, d)
      return sameMonth(f, d) ? f : preceding(calendar, d)
    }
    case "modified-preceding": {
      const p = preceding(calendar, d)
      return sameMonth(p, d) ? p : following(calendar, d)
    }
  }
}
