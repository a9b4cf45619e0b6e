/**
 * What an `Occurrence.Plan` holds, as one class (written here, not taken from a library: the date engine is core).
 * Every plan is made by this constructor, with the same fields in the same order, so that every plan has one hidden
 * class and the engine's queries read them at monomorphic sites. A class also keeps V8 from pretenuring plans: an
 * object literal has an allocation site whose "long-lived" verdict, taken at a random collection, moved every plan of
 * a hot loop into the old generation (BENCHMARKS.md, "W4's slow JIT mode").
 */
import type * as BusinessDayConvention from "../BusinessDayConvention.ts"
import type * as Calendar from "../Calendar.ts"
import type * as LocalDate from "../LocalDate.ts"
import type * as Slots from "./slots.ts"

/** Pauses as sorted inclusive ranges `[from0, to0, from1, to1, …]` and a bit per paused month (bit 1 = January). */
export interface Pauses {
  readonly ranges: ReadonlyArray<number>
  readonly months: number
}

/** A plan's data (see the module comment); only the engine reads it. */
export class PlanData {
  /** Every n-th working day (DAIL, `EveryWorkingDays`): the anchor is the start, `workStep` is n. */
  declare readonly working: boolean
  /** The n of every n-th working day (1 for DAIL). */
  declare readonly workStep: number
  /** The general shape (several days a period, days that may be missing, selected months), or none. */
  declare readonly slots: Slots.Slots | undefined
  /** The pauses, or none. */
  declare readonly pauses: Pauses | undefined
  /** The first nominal date (`startDate`, else `nextDate`, for the bank's codes; packages/core/README.md, "Anchor"). */
  declare readonly anchor: LocalDate.LocalDate
  /** The last allowed nominal date (inclusive), or `undefined` when the schedule never ends. */
  declare readonly endDate: LocalDate.LocalDate | undefined
  declare readonly calendar: Calendar.Calendar
  declare readonly convention: BusinessDayConvention.BusinessDayConvention
  /** Whether execution dates are moved by the convention (WEEK and month-based codes, convention not `none`). */
  declare readonly adjusts: boolean
  /** Days between nominal dates: DAI7 1, WEEK 7, otherwise 0. */
  declare readonly dayStep: number
  /** Months between nominal dates: MNTH 1, QUTR 3, SEMI 6, YEAR 12, otherwise 0. */
  declare readonly monthStep: number
  /** The anchor's month as year·12 + month − 1. */
  declare readonly anchorMonth: number
  /** The day in each month: a day of month (clamped), or a code of `internal/workingDays.ts` `monthDay`. */
  declare readonly anchorDay: number
  /** The last date a nominal date may take: `endDate`, or 9999-12-31. */
  declare readonly lastNominal: LocalDate.LocalDate
  /** For calendar-based shapes the number of the last occurrence whose nominal date is not past `lastNominal` (−1: none). */
  declare readonly lastK: number

  constructor(
    working: boolean,
    workStep: number,
    slots: Slots.Slots | undefined,
    pauses: Pauses | undefined,
    anchor: LocalDate.LocalDate,
    endDate: LocalDate.LocalDate | undefined,
    calendar: Calendar.Calendar,
    convention: BusinessDayConvention.BusinessDayConvention,
    adjusts: boolean,
    dayStep: number,
    monthStep: number,
    anchorMonth: number,
    anchorDay: number,
    lastNominal: LocalDate.LocalDate,
    lastK: number
  ) {
    this.working = working
    this.workStep = workStep
    this.slots = slots
    this.pauses = pauses
    this.anchor = anchor
    this.endDate = endDate
    this.calendar = calendar
    this.convention = convention
    this.adjusts = adjusts
    this.dayStep = dayStep
    this.monthStep = monthStep
    this.anchorMonth = anchorMonth
    this.anchorDay = anchorDay
    this.lastNominal = lastNominal
    this.lastK = lastK
  }
}

/**
 * Plans kept for the process's life. V8 drops a class's hidden class at a full collection once no object has it,
 * and with it the optimized code of every engine query that checks it: a process that projects again after all its
 * plans died (a second forecast, a worker's next day) would compile the engine anew. One plan kept here prevents it.
 */
export const kept: Array<PlanData> = []
