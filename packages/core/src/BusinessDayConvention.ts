/**
 * Business-day conventions: how a nominal date that is not a working day becomes an execution date
 * (packages/core/README.md, "Execution dates"). Applied to WEEK, MNTH, QUTR, SEMI and YEAR, never to DAIL or DAI7.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import type * as Calendar from "./Calendar.ts"
import * as WorkingDays from "./internal/workingDays.ts"
import * as LocalDate from "./LocalDate.ts"

/** Every convention, `following` (the default) first. */
export const conventions = ["following", "preceding", "modified-following", "modified-preceding", "none"] as const

/** A business-day convention name (packages/core/README.md, "Execution dates"). */
export const BusinessDayConvention = Schema.Literals(conventions)

/** A business-day convention name. */
export type BusinessDayConvention = typeof BusinessDayConvention.Type

/** The default convention, `following` (packages/core/README.md, "Execution dates"). */
export const defaultConvention: BusinessDayConvention = "following"

/**
 * The execution date of a nominal date under a convention and calendar (packages/core/README.md, "Execution dates"):
 * `following` the first working day on or after it, `preceding` the last on or before it,
 * `modified-following` following unless that lands in another calendar month (then preceding),
 * `modified-preceding` the mirror image, `none` the date itself. `undefined` when the move leaves
 * 0001-01-01..9999-12-31; a modified convention whose first move would leave the range counts that as
 * "another month" and moves the other way.
 * `adjust(2024-03-31, "following", Calendar.target)` is 2024-04-02 (Sunday, then Easter Monday).
 */
export const adjust = (
  date: LocalDate.LocalDate,
  convention: BusinessDayConvention,
  calendar: Calendar.Calendar
): LocalDate.LocalDate | undefined => {
  const d = WorkingDays.adjust(date, convention, calendar)
  return d < LocalDate.MIN || d > LocalDate.MAX ? undefined : (d as LocalDate.LocalDate)
}
