/**
 * The frequency engine: from a standing order's anchor, frequency and end date to its occurrences, each a
 * nominal date and an execution date (packages/core/README.md, "When a standing order pays"). Pure integer day
 * arithmetic: no `Date`, no clock, no Effect runtime on the hot path. Calendar-based codes answer
 * "first occurrence on or after d", "k-th occurrence" and "how many in a window" in O(1).
 *
 * Over 400 lines on purpose: one plan type and the seven codes' rules are one concept, read together; the helpers
 * that are not part of that reading live in `internal/`.
 *
 * @since 0.1.0
 */
import { type Brand, Result, Schema } from "effect"
import * as BusinessDayConvention from "./BusinessDayConvention.ts"
import * as Calendar from "./Calendar.ts"
import * as Frequency from "./Frequency.ts"
import * as WorkingDays from "./internal/workingDays.ts"
import * as LocalDate from "./LocalDate.ts"

// ---------------------------------------------------------------------------
// model
// ---------------------------------------------------------------------------

/** Occurrence number `k` (0, 1, 2, …) of a schedule: its nominal date and its execution date. */
export interface Occurrence {
  readonly k: number
  readonly nominal: LocalDate.LocalDate
  readonly execution: LocalDate.LocalDate
}

/** The schedule fields of a standing order the engine reads (packages/core/README.md, "Anchor", "Already paid"). */
export interface OrderSchedule {
  readonly frequency: Frequency.Frequency
  readonly startDate?: LocalDate.LocalDate | undefined
  readonly nextDate?: LocalDate.LocalDate | undefined
  readonly endDate?: LocalDate.LocalDate | undefined
}

/** How to turn nominal dates into execution dates: the calendar (default `target`) and convention (default `following`). */
export interface Options {
  readonly calendar?: Calendar.Calendar | undefined
  readonly convention?: BusinessDayConvention.BusinessDayConvention | undefined
}

/**
 * A schedule ready for queries: an opaque value built by {@link makePlan} from the order's anchor, end,
 * frequency, calendar and convention, with the values every query needs derived once.
 */
export interface Plan extends Brand.Brand<"Occurrence.Plan"> {}

/** What a plan holds (only this module sees it). */
interface PlanData {
  readonly frequency: Frequency.Frequency
  /** `startDate`, else `nextDate` (packages/core/README.md, "Anchor"). */
  readonly anchor: LocalDate.LocalDate
  /** The last allowed nominal date (inclusive), or `undefined` when the schedule never ends. */
  readonly endDate: LocalDate.LocalDate | undefined
  readonly calendar: Calendar.Calendar
  readonly convention: BusinessDayConvention.BusinessDayConvention
  /** Whether execution dates are moved by the convention (WEEK and month-based codes, convention not `none`). */
  readonly adjusts: boolean
  /** Days between nominal dates: DAI7 1, WEEK 7, otherwise 0. */
  readonly dayStep: number
  /** Months between nominal dates: MNTH 1, QUTR 3, SEMI 6, YEAR 12, otherwise 0. */
  readonly monthStep: number
  /** The anchor's month as year·12 + month − 1. */
  readonly anchorMonth: number
  /** The anchor's day of month. */
  readonly anchorDay: number
  /** The last date a nominal date may take: `endDate`, or 9999-12-31. */
  readonly lastNominal: LocalDate.LocalDate
  /** For calendar-based codes the number of the last occurrence whose nominal date is not past `lastNominal` (−1: none). */
  readonly lastK: number
}

const dataOf = (plan: Plan): PlanData => plan as unknown as PlanData

/**
 * Why an order cannot be projected (packages/core/README.md, "Anchor": neither `startDate` nor `nextDate`), as a value.
 */
export class NotProjectable extends Schema.TaggedError<NotProjectable>()("NotProjectable", {
  reason: Schema.String
}) {
  /** The human reason. */
  override get message(): string {
    return this.reason
  }
}

// ---------------------------------------------------------------------------
// constructors
// ---------------------------------------------------------------------------

const isFrequency = (u: unknown): u is Frequency.Frequency => {
  switch (u) {
    case "DAIL":
    case "DAI7":
    case "WEEK":
    case "MNTH":
    case "QUTR":
    case "SEMI":
    case "YEAR":
      return true
    default:
      return false
  }
}

/** Absent, or a supported day number. */
const isDate = (d: LocalDate.LocalDate | undefined): boolean => d === undefined || LocalDate.isValidDayNumber(d)

/**
 * The plan of an order, or why it cannot be projected: the anchor is `startDate`, else `nextDate`, else the order is
 * not projectable (packages/core/README.md, "Anchor"). Calendar defaults to `target`, convention to `following`.
 */
export const makePlan = (order: OrderSchedule, options?: Options): Result.Result<Plan, NotProjectable> => {
  const anchor = order.startDate ?? order.nextDate
  if (anchor === undefined) {
    return Result.fail(
      new NotProjectable({ reason: "the order has neither startDate nor nextDate to anchor its schedule" })
    )
  }
  if (!isFrequency(order.frequency)) {
    return Result.fail(new NotProjectable({ reason: `unknown frequency ${JSON.stringify(order.frequency)}` }))
  }
  const invalid = !isDate(order.startDate)
    ? "startDate"
    : !isDate(order.nextDate)
      ? "nextDate"
      : !isDate(order.endDate)
        ? "endDate"
        : undefined
  if (invalid !== undefined) {
    return Result.fail(new NotProjectable({ reason: `${invalid} is not a date within 0001-01-01..9999-12-31` }))
  }
  const frequency = order.frequency
  const convention = options?.convention ?? BusinessDayConvention.defaultConvention
  const anchorMonth = WorkingDays.monthIndexOf(anchor)
  const anchorDay = anchor - WorkingDays.monthStart(anchorMonth) + 1
  const endDate = order.endDate
  const lastNominal = endDate === undefined ? LocalDate.MAX : endDate
  const dayStep = frequency === "DAI7" ? 1 : frequency === "WEEK" ? 7 : 0
  const monthStep = Frequency.monthStep(frequency) ?? 0
  let lastK = -1
  if (lastNominal >= anchor) {
    if (dayStep !== 0) lastK = Math.floor((lastNominal - anchor) / dayStep)
    else if (monthStep !== 0) {
      // without an end date the last nominal date is in December 9999 or before, never past it
      lastK = Math.floor(
        ((endDate === undefined ? WorkingDays.MAX_MONTH_INDEX : WorkingDays.monthIndexOf(lastNominal)) - anchorMonth) /
          monthStep
      )
      if (endDate !== undefined && rawNominal(anchorMonth, anchorDay, monthStep, lastK) > lastNominal) lastK--
    }
  }
  const data: PlanData = {
    frequency,
    anchor,
    endDate,
    calendar: options?.calendar ?? Calendar.target,
    convention,
    adjusts: Frequency.usesConvention(frequency) && convention !== "none",
    dayStep,
    monthStep,
    anchorMonth,
    anchorDay,
    lastNominal,
    lastK
  }
  return Result.succeed(data as unknown as Plan)
}

// ---------------------------------------------------------------------------
// calendar-based codes (DAI7, WEEK, MNTH, QUTR, SEMI, YEAR): random access by k
// ---------------------------------------------------------------------------

const END = WorkingDays.BEYOND_MAX

/** Nominal date k of a month-based schedule (packages/core/README.md, "Nominal dates"). */
function rawNominal(anchorMonth: number, anchorDay: number, monthStep: number, k: number): number {
  const index = anchorMonth + monthStep * k
  return index > WorkingDays.MAX_MONTH_INDEX ? END : WorkingDays.monthDayClamped(index, anchorDay)
}

/** Nominal date number k of a calendar-based plan, or `END` when it does not exist. */
const nominalAt = (plan: PlanData, k: number): number => {
  if (k > plan.lastK) return END
  return plan.dayStep !== 0
    ? plan.anchor + plan.dayStep * k
    : rawNominal(plan.anchorMonth, plan.anchorDay, plan.monthStep, k)
}

/** Execution day of a nominal day: `END` past the range or the end date, below `MIN` when it moved before 0001-01-01. */
const executionOf = (plan: PlanData, nominal: number): number =>
  nominal === END || !plan.adjusts ? nominal : WorkingDays.adjust(nominal, plan.convention, plan.calendar)

/** Execution day of occurrence k (see {@link executionOf}). */
const executionAt = (plan: PlanData, k: number): number => executionOf(plan, nominalAt(plan, k))

/** The smallest k whose execution day is on or after `d`, or whose occurrence is past the end (`END`). */
const firstIndex = (plan: PlanData, date: number): number => {
  const d = Math.min(date, END) // every schedule has ended by then: the search stops at its end
  // the estimate is the first nominal date on or after d's day (DAI7, WEEK) or in d's month (month-based codes)
  let k: number
  if (plan.dayStep !== 0) {
    k = Math.max(0, Math.ceil((d - plan.anchor) / plan.dayStep))
  } else {
    const clamped = Math.min(Math.max(d, LocalDate.MIN), LocalDate.MAX)
    k = Math.max(0, Math.ceil((WorkingDays.monthIndexOf(clamped) - plan.anchorMonth) / plan.monthStep))
  }
  if (k > plan.lastK + 1) k = plan.lastK + 1
  // a convention moves dates by a few days: an earlier nominal date may execute on or after d
  if (plan.adjusts) while (k > 0 && executionAt(plan, k - 1) >= d) k--
  while (executionAt(plan, k) < d) k++
  return k
}

const occurrence = (k: number, nominal: number, execution: number): Occurrence => ({
  k,
  nominal: nominal as LocalDate.LocalDate,
  execution: execution as LocalDate.LocalDate
})

// ---------------------------------------------------------------------------
// DAIL: the k-th working day on or after the anchor
// ---------------------------------------------------------------------------

/** Working days of `calendar` in `from..to` (inclusive), weekends skipped without calling the calendar. */
const countWorking = (calendar: Calendar.Calendar, from: number, to: number): number =>
  to < from ? 0 : Calendar.countWorkingDays(calendar, from as LocalDate.LocalDate, to as LocalDate.LocalDate)

/** Lazy DAIL occurrences: the working days from `start` up to the plan's last nominal date. */
class DailyIterator implements IterableIterator<Occurrence> {
  private d: number
  private k: number
  private readonly plan: PlanData
  constructor(plan: PlanData, from: number) {
    this.plan = plan
    this.d = Math.max(from, plan.anchor)
    this.k = countWorking(plan.calendar, plan.anchor, this.d - 1)
  }
  next(): IteratorResult<Occurrence, undefined> {
    const { calendar, lastNominal } = this.plan
    for (let d = this.d; d <= lastNominal; d++) {
      if (WorkingDays.isWorking(calendar, d)) {
        this.d = d + 1
        return { done: false, value: occurrence(this.k++, d, d) }
      }
    }
    this.d = lastNominal + 1
    return { done: true, value: undefined }
  }
  [Symbol.iterator](): this {
    return this
  }
}

// ---------------------------------------------------------------------------
// queries
// ---------------------------------------------------------------------------

/** Lazy occurrences of a calendar-based plan from occurrence number `k` on, executing on or after `from`. */
class CalendarIterator implements IterableIterator<Occurrence> {
  private k: number
  private readonly plan: PlanData
  private readonly from: number
  constructor(plan: PlanData, from: number) {
    this.plan = plan
    this.from = from
    this.k = from <= LocalDate.MIN ? 0 : firstIndex(plan, from)
  }
  next(): IteratorResult<Occurrence, undefined> {
    for (;;) {
      const k = this.k
      const n = nominalAt(this.plan, k)
      const e = executionOf(this.plan, n)
      // past the end date, or past 9999-12-31: no such date (packages/core/README.md, "When a standing order pays")
      if (e > LocalDate.MAX) break
      this.k = k + 1
      if (e >= this.from) return { done: false, value: occurrence(k, n, e) } // below MIN: does not exist
    }
    return { done: true, value: undefined }
  }
  [Symbol.iterator](): this {
    return this
  }
}

/**
 * The occurrences in order, lazily, starting with the first whose execution date is on or after `from`
 * (all of them without `from`); unbounded when the plan has no `endDate` (it stops at 9999-12-31).
 * `nextDate` is not applied here: projections skip occurrences executing before it.
 */
export const iterate = (handle: Plan, from?: LocalDate.LocalDate): IterableIterator<Occurrence> => {
  const plan = dataOf(handle)
  const start = from ?? LocalDate.MIN
  return plan.frequency === "DAIL" ? new DailyIterator(plan, start) : new CalendarIterator(plan, start)
}

/** The occurrences whose execution date lies in `from..to` (both inclusive), in order. */
export const between = (handle: Plan, from: LocalDate.LocalDate, to: LocalDate.LocalDate): Array<Occurrence> => {
  const plan = dataOf(handle)
  const out: Array<Occurrence> = []
  if (to < from) return out
  if (plan.frequency === "DAIL") {
    const start = Math.max(from, plan.anchor)
    const last = Math.min(to, plan.lastNominal)
    let k = countWorking(plan.calendar, plan.anchor, start - 1)
    for (let d = start; d <= last; d++) {
      if (WorkingDays.isWorking(plan.calendar, d)) out.push(occurrence(k++, d, d))
    }
    return out
  }
  for (let k = firstIndex(plan, from); ; k++) {
    const n = nominalAt(plan, k)
    if (n === END) break
    const e = executionOf(plan, n)
    if (e > to) break
    if (e >= from) out.push(occurrence(k, n, e))
  }
  return out
}

/**
 * The number of the first occurrence of a calendar-based plan executing on or after `date`, or −1 when the
 * schedule has ended by then. No allocation: {@link firstOnOrAfter} and {@link firstExecutionOnOrAfter} share it.
 */
const firstCalendar = (plan: PlanData, date: number): number => {
  if (plan.adjusts) {
    const k = firstIndex(plan, date)
    return executionAt(plan, k) > LocalDate.MAX ? -1 : k
  }
  // execution = nominal (DAI7, or convention none): straight from the arithmetic, no search
  const { anchor, dayStep, lastK } = plan
  if (dayStep !== 0) {
    const k = date <= anchor ? 0 : Math.ceil((date - anchor) / dayStep)
    return k > lastK ? -1 : k
  }
  // the first nominal date in `date`'s month when it is not before `date`, else the next one
  const { anchorMonth, anchorDay, monthStep } = plan
  const clamped = Math.min(Math.max(date, LocalDate.MIN), LocalDate.MAX)
  const months = WorkingDays.monthIndexOf(clamped) - anchorMonth
  const k = months <= 0 ? 0 : monthStep === 1 ? months : Math.ceil(months / monthStep)
  if (k > lastK) return -1
  if (WorkingDays.monthDayClamped(anchorMonth + monthStep * k, anchorDay) >= date) return k
  return k + 1 > lastK ? -1 : k + 1
}

/**
 * The first occurrence whose execution date is on or after `date`, or `undefined` when the schedule has
 * ended by then. O(1) for calendar-based codes; for DAIL O(log n) on calendars that count their holidays
 * (`Calendar.countWeekdayHolidays`), else proportional to the weekdays since the anchor.
 */
export const firstOnOrAfter = (handle: Plan, date: LocalDate.LocalDate): Occurrence | undefined => {
  const plan = dataOf(handle)
  if (plan.frequency === "DAIL") {
    const start = Math.max(date, plan.anchor)
    const d = WorkingDays.following(plan.calendar, start)
    if (d > plan.lastNominal) return undefined
    return occurrence(countWorking(plan.calendar, plan.anchor, start - 1), d, d)
  }
  const k = firstCalendar(plan, date)
  if (k < 0) return undefined
  const n = nominalAt(plan, k)
  return occurrence(k, n, executionOf(plan, n))
}

/**
 * The execution date of {@link firstOnOrAfter}'s occurrence, without building the occurrence (no allocation,
 * and for DAIL no counting of the working days since the anchor): for hot loops that need only the date.
 */
export const firstExecutionOnOrAfter = (handle: Plan, date: LocalDate.LocalDate): LocalDate.LocalDate | undefined => {
  const plan = dataOf(handle)
  if (plan.frequency === "DAIL") {
    const d = WorkingDays.following(plan.calendar, Math.max(date, plan.anchor))
    return d > plan.lastNominal ? undefined : (d as LocalDate.LocalDate)
  }
  if (!plan.adjusts && plan.monthStep !== 0) {
    const d = WorkingDays.firstMonthDayOnOrAfter(plan.anchorMonth, plan.anchorDay, plan.monthStep, plan.lastK, date)
    return d === END ? undefined : (d as LocalDate.LocalDate)
  }
  const k = firstCalendar(plan, date)
  return k < 0 ? undefined : (executionAt(plan, k) as LocalDate.LocalDate)
}

/**
 * Occurrence number `k` (0-based), or `undefined` when it does not exist (past `endDate` or 9999-12-31, or
 * moved before 0001-01-01). O(1) for calendar-based codes; for DAIL O(log² n) on calendars that count their
 * holidays, else O(k).
 */
export const nth = (handle: Plan, k: number): Occurrence | undefined => {
  if (!Number.isInteger(k) || k < 0) return undefined
  const plan = dataOf(handle)
  if (plan.frequency === "DAIL") {
    const { anchor, calendar, lastNominal } = plan
    if (calendar.countWeekdayHolidays !== undefined) {
      // binary search for the first day by which k + 1 working days have passed
      if (countWorking(calendar, anchor, lastNominal) <= k) return undefined
      let lo: number = anchor
      let hi: number = lastNominal
      while (lo < hi) {
        const mid = lo + Math.floor((hi - lo) / 2)
        if (countWorking(calendar, anchor, mid) > k) hi = mid
        else lo = mid + 1
      }
      return occurrence(k, lo, lo)
    }
    let d = WorkingDays.following(calendar, anchor)
    for (let i = 0; i < k && d <= lastNominal; i++) d = WorkingDays.following(calendar, d + 1)
    return d > lastNominal ? undefined : occurrence(k, d, d)
  }
  const n = nominalAt(plan, k)
  const e = executionOf(plan, n)
  return e < LocalDate.MIN || e > LocalDate.MAX ? undefined : occurrence(k, n, e)
}

/**
 * The number of occurrences whose execution date lies in `from..to` (both inclusive), without building
 * them: O(1) for calendar-based codes, a walk over the weekdays of the window for DAIL.
 */
export const count = (handle: Plan, from: LocalDate.LocalDate, to: LocalDate.LocalDate): number => {
  if (to < from) return 0
  const plan = dataOf(handle)
  if (plan.frequency === "DAIL") {
    return countWorking(plan.calendar, Math.max(from, plan.anchor), Math.min(to, plan.lastNominal))
  }
  return Math.max(0, firstIndex(plan, to + 1) - firstIndex(plan, from))
}

/**
 * The occurrence after `o` (an occurrence of the same plan), or `undefined` when `o` is the last: O(1) for
 * calendar-based codes, the next working day for DAIL.
 */
export const next = (handle: Plan, o: Occurrence): Occurrence | undefined => {
  const plan = dataOf(handle)
  if (plan.frequency === "DAIL") {
    const d = WorkingDays.following(plan.calendar, o.execution + 1)
    return d > plan.lastNominal ? undefined : occurrence(o.k + 1, d, d)
  }
  const n = nominalAt(plan, o.k + 1)
  const e = executionOf(plan, n)
  return e < LocalDate.MIN || e > LocalDate.MAX ? undefined : occurrence(o.k + 1, n, e)
}

/**
 * The fixed number of days between consecutive occurrences when every occurrence executes on its nominal date
 * and they are evenly spaced (DAI7: 1; WEEK with convention `none`: 7), else 0: then occurrence k executes on
 * the first one's date plus k times the step.
 */
export const fixedStep = (handle: Plan): number => {
  const plan = dataOf(handle)
  return plan.adjusts ? 0 : plan.dayStep
}
