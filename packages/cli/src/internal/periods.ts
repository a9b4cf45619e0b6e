/**
 * Period totals that a window cuts: a month (or week) whose first or last days lie outside the window holds only
 * part of its payments, and every table and picture of period totals says so next to its label.
 */
import { LocalDate } from "@tppkit/core"

/** What a period total needs for its label: the period's first and last day and its own label. */
export interface Period {
  readonly label: string
  readonly start: LocalDate.LocalDate
  readonly end: LocalDate.LocalDate
}

/** Whether the window `from..to` leaves out some of the period's days. */
export const isPartial = (period: Period, from: LocalDate.LocalDate, to: LocalDate.LocalDate): boolean =>
  period.start < from || period.end > to

/**
 * The days of the period the window covers, when it cuts the period: day numbers within one month
 * (`25–30`, `1–22`, `31`), dates otherwise (`2026-11-30 to 2026-12-02`); `undefined` for a whole period.
 */
export const coveredDays = (period: Period, from: LocalDate.LocalDate, to: LocalDate.LocalDate): string | undefined => {
  if (!isPartial(period, from, to)) return undefined
  const first = LocalDate.max(period.start, from)
  const last = LocalDate.min(period.end, to)
  const a = LocalDate.toParts(first)
  const b = LocalDate.toParts(last)
  const sameMonth = a.year === b.year && a.month === b.month
  const text = (d: LocalDate.LocalDate, day: number) => (sameMonth ? String(day) : LocalDate.format(d))
  if (first === last) return text(first, a.day)
  return `${text(first, a.day)}${sameMonth ? "–" : " to "}${text(last, b.day)}`
}

/** The period's label, marked when the window cuts it: `2026-11 (partial: 25–30)`, else `2026-12`. */
export const label = (period: Period, from: LocalDate.LocalDate, to: LocalDate.LocalDate): string => {
  const days = coveredDays(period, from, to)
  return days === undefined ? period.label : `${period.label} (partial: ${days})`
}
