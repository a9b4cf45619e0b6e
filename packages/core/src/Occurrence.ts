/**
 * The frequency engine: from a standing order's anchor, frequency and end date, or from any `Recurrence`, to its
 * occurrences, each a nominal date and an execution date (packages/core/README.md, "When a standing order pays",
 * "Recurrences"). Pure integer day arithmetic: no `Date`, no clock, no Effect runtime on the hot path. Calendar-based
 * shapes answer "first occurrence on or after d", "k-th occurrence" and "how many in a window" in O(1) (O(log n)
 * where some months lack the day). One engine: the seven codes are the plans of their recurrences, kept on their
 * own arithmetic fast path (`internal/codePlan.ts`, taken for a recurrence a code made); the general shape's
 * arithmetic is `internal/slots.ts`.
 *
 * The engine is `internal/occurrence.ts`, which declares the types; this module re-exports them and documents its functions.
 *
 * @since 0.1.0
 */

import * as Engine from "./internal/occurrence.ts"
import type * as Recurrence from "./Recurrence.ts"

export type { Occurrence, Options, OrderSchedule, Plan, RecurrenceOptions } from "./internal/occurrence.ts"

// ---------------------------------------------------------------------------
// model
// ---------------------------------------------------------------------------

/**
 * Why an order cannot be projected (packages/core/README.md, "Anchor": neither `startDate` nor `nextDate`), as a value.
 */
export const NotProjectable: typeof Engine.NotProjectable = Engine.NotProjectable
/** NotProjectable, as a type. */
export type NotProjectable = Engine.NotProjectable

/**
 * The plan of an order, or why it cannot be projected: the anchor is `startDate`, else `nextDate`, else the order is
 * not projectable (packages/core/README.md, "Anchor"). Calendar defaults to `target`, convention to `following`. The
 * bank's record is planned as its code's recurrence (`Recurrence.fromSbas`) is, on the code's fast path inside the
 * engine without making the recurrence; an order given by its recurrence, by {@link planOf} of it, the options'
 * convention moving a bank code's recurrence (not DAIL or DAI7) as it moves the code.
 */
export const makePlan: typeof Engine.makePlan = Engine.makePlan

/**
 * The bank's code an order is planned by: its record's `frequency`, else the code its recurrence was made from
 * (`Recurrence.code`), else `undefined` (an order given by a rule).
 */
export const codeOf: typeof Engine.codeOf = Engine.codeOf

/**
 * The recurrence an order is planned on ({@link makePlan}): its record's code's (`Recurrence.fromSbas`, with the
 * given convention), else its own, a bank code's moved by the given convention as the code is; `undefined` when it
 * has neither (or no anchor).
 */
export const recurrenceOf: typeof Engine.recurrenceOf = Engine.recurrenceOf

/**
 * The plan of a recurrence (packages/core/README.md, "Recurrences"), or why it cannot be projected: the same engine
 * as the bank's codes, whose recurrences ({@link Recurrence.fromSbas}) give the same plans as {@link makePlan}. The
 * calendar is the given one, else the built-in one the recurrence names, else `target`.
 */
export const planOf: typeof Engine.planOf = Engine.planOf

/**
 * The occurrences in order, lazily, starting with the first whose execution date is on or after `from`
 * (all of them without `from`); unbounded when the plan has no `endDate` (it stops at 9999-12-31).
 * `nextDate` is not applied here: projections skip occurrences executing before it. Paused occurrences are left out.
 */
export const iterate: typeof Engine.iterate = Engine.iterate

/** The occurrences whose execution date lies in `from..to` (both inclusive), in order. */
export const between: typeof Engine.between = Engine.between

/**
 * The first occurrence whose execution date is on or after `date`, or `undefined` when the schedule has
 * ended by then. O(1) for calendar-based shapes (O(log n) where some months lack the day); for working days
 * O(log n) on calendars that count their holidays (`Calendar.countWeekdayHolidays`), else proportional to the
 * weekdays since the anchor. With pauses, the paused occurrences after it are stepped over.
 */
export const firstOnOrAfter: typeof Engine.firstOnOrAfter = Engine.firstOnOrAfter

/**
 * The execution date of {@link firstOnOrAfter}'s occurrence, without building the occurrence (no allocation,
 * and for DAIL no counting of the working days since the anchor): for hot loops that need only the date.
 */
export const firstExecutionOnOrAfter: typeof Engine.firstExecutionOnOrAfter = Engine.firstExecutionOnOrAfter

/**
 * The execution dates of the occurrences from {@link firstOnOrAfter}`(plan, from)` on while they execute on or
 * before `to`, written into `into` from index 0 as day numbers minus `base`; returns how many were written. No
 * occurrence is made for calendar-based codes without pauses (their dates come from the arithmetic and the
 * convention's table): for hot loops that add up payments by day. Returns −1 when `into` is too short for them
 * (what it holds then is of no use).
 */
export const executionsInto: typeof Engine.executionsInto = Engine.executionsInto

/**
 * Occurrence number `k` (0-based), or `undefined` when it does not exist (past `endDate`, `count` or 9999-12-31,
 * moved before 0001-01-01, or paused). O(1) for calendar-based shapes (O(log n) where some months lack the day);
 * for working days O(log² n) on calendars that count their holidays, else O(k).
 */
export const nth: typeof Engine.nth = Engine.nth

/**
 * The number of occurrences whose execution date lies in `from..to` (both inclusive), without building
 * them: O(1) for calendar-based shapes, O(log n) for working days on calendars that count their holidays, else a
 * walk over the weekdays of the window; with pauses a walk over the window's occurrences.
 */
export const count: typeof Engine.count = Engine.count

/**
 * The occurrence after `o` (an occurrence of the same plan), or `undefined` when `o` is the last: O(1) for
 * calendar-based shapes, the next working day(s) for working days; paused occurrences are stepped over.
 */
export const next: typeof Engine.next = Engine.next

/**
 * The fixed number of days between consecutive occurrences when every occurrence executes on its nominal date
 * and they are evenly spaced (DAI7: 1; WEEK with convention `none`: 7), else 0: then occurrence k executes on
 * the first one's date plus k times the step.
 */
export const fixedStep: typeof Engine.fixedStep = Engine.fixedStep

/** Whether the plan pays on every working day of its calendar, unpaused (the bank's DAIL). */
export const everyWorkingDay: typeof Engine.everyWorkingDay = Engine.everyWorkingDay

/**
 * The day a payment of the plan due on `date` executes under the plan's own rule: moved by its convention on its
 * calendar where the rule moves dates (WEEK and the month-based codes, convention not `none`), on the first working
 * day on or after `date` where the plan pays on working days (DAIL: its k-th working day on or after the anchor),
 * else on `date` itself (DAI7 pays every calendar day; convention `none`) (packages/core/README.md, "Execution
 * dates"); `undefined` when the move leaves 0001-01-01..9999-12-31. A payment delayed to a day is paid there.
 * @example executionOfDue(plan, LocalDate.parseUnsafe("2027-03-06")) // a Saturday: 2027-03-08 under `following`
 */
export const executionOfDue: typeof Engine.executionOfDue = Engine.executionOfDue

/** How many leading occurrences {@link sample} reads. */
export const SAMPLED: typeof Engine.SAMPLED = Engine.SAMPLED

/**
 * Whether the convention moves, and the pauses remove, any of a recurrence's first {@link SAMPLED} occurrences (on
 * the calendar it names, else `target`): what a translation must report as lost when the target cannot say them.
 */
export const sample: typeof Engine.sample = Engine.sample
