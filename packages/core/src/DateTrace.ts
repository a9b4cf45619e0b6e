/**
 * Why a payment falls on its date: a structured trace of one occurrence of a standing order, from its anchor and
 * occurrence number through the nominal date (and the month-end clamp when it applied) and each non-working day the
 * business-day convention passed (a weekend, or the holiday's name from the calendar) to the execution date, with
 * where the convention came from and the `nextDate` cut (packages/core/README.md, "When a standing order pays").
 * The dates come from the frequency engine ({@link Occurrence}); a trace only records the way there, and
 * {@link replay} walks it again from the trace alone.
 *
 * @since 0.1.0
 */
import { Result } from "effect"
import * as BusinessDayConvention from "./BusinessDayConvention.ts"
import * as Calendar from "./Calendar.ts"
import * as Frequency from "./Frequency.ts"
import * as LocalDate from "./LocalDate.ts"
import * as Occurrence from "./Occurrence.ts"

// ---------------------------------------------------------------------------
// model
// ---------------------------------------------------------------------------

/**
 * Where the convention (and calendar) came from: tppkit's `default`, a command-line `flag`, or `inferred` from a
 * listing's `nextDate`s (docs/bank-interface.md, "The bank's date rule"); `detail` says which flag or listing.
 */
export interface Source {
  readonly kind: "default" | "flag" | "inferred"
  readonly detail?: string | undefined
}

/** tppkit's own choice (packages/core/README.md, "Execution dates"). */
export const defaultSource: Source = { kind: "default" }

/** The settings a trace is made with: the engine's calendar and convention, and where they came from. */
export interface Options extends Occurrence.Options {
  readonly source?: Source | undefined
}

/** A non-working day the convention passed over, and why it is one: `weekend`, or the calendar's holiday. */
export interface Closed {
  readonly date: LocalDate.LocalDate
  readonly kind: "weekend" | "holiday"
  /** `weekend`, or the holiday's name (e.g. `"Easter Monday"`; `"holiday"` when the calendar names none). */
  readonly why: string
}

/**
 * How the convention treated the nominal date: `working` (it is a working day: nothing moves), `moved` (it is not:
 * the convention moved it), `none` (convention `none`: never moved), `notApplied` (DAIL and DAI7: no convention,
 * packages/core/README.md, "Execution dates").
 */
export type Adjustment = "working" | "moved" | "none" | "notApplied"

/** The trace of one occurrence: every step from the order's anchor to the execution date. */
export interface Trace {
  readonly frequency: Frequency.Frequency
  /** The anchor: `startDate`, else `nextDate` (packages/core/README.md, "Anchor"). */
  readonly anchor: { readonly field: "startDate" | "nextDate"; readonly date: LocalDate.LocalDate }
  /** The occurrence number (0 for the anchor; for DAIL the number of working days since the anchor). */
  readonly k: number
  /** The nominal date of occurrence `k` (packages/core/README.md, "Nominal dates"). */
  readonly nominal: LocalDate.LocalDate
  /**
   * For month-based codes whose anchor's day of month does not exist in the nominal month: that day (e.g. 31 for
   * 31 January → 29 February); the nominal date is then the month's last day.
   */
  readonly clampedFrom: number | undefined
  /** The calendar's name. */
  readonly calendar: string
  readonly convention: BusinessDayConvention.BusinessDayConvention
  /** Where the convention and calendar came from. */
  readonly source: Source
  readonly adjustment: Adjustment
  /**
   * The non-working days the convention passed, in the order it walked over them, starting with the nominal date;
   * for DAIL the non-working days skipped since the previous working day (or the anchor).
   */
  readonly passed: ReadonlyArray<Closed>
  /**
   * A modified convention whose first move left the month turned back (packages/core/README.md, "Execution dates"):
   * `passed` then holds the days of the first walk, then those of the walk the other way.
   */
  readonly turned: boolean
  /** The first move's length: how many of `passed` belong to the walk before a modified convention turned. */
  readonly firstWalk: number
  readonly execution: LocalDate.LocalDate
  /**
   * The `nextDate` cut, when the order has both `startDate` and `nextDate`: occurrences executing before `nextDate`
   * count as paid (packages/core/README.md, "Already paid"); `paid` says whether this one is one of them.
   */
  readonly cut: { readonly nextDate: LocalDate.LocalDate; readonly paid: boolean } | undefined
  /** The order's `endDate`, when it has one: no nominal date lies after it. */
  readonly endDate: LocalDate.LocalDate | undefined
}

// ---------------------------------------------------------------------------
// constructors
// ---------------------------------------------------------------------------

const closedDay = (calendar: Calendar.Calendar, date: number): Closed | undefined => {
  const why = Calendar.closure(calendar, date as LocalDate.LocalDate)
  return why === undefined
    ? undefined
    : { date: date as LocalDate.LocalDate, kind: why === "weekend" ? "weekend" : "holiday", why }
}

/** The non-working days from `from` on, walking by `step`, up to the first working day (exclusive). */
const walk = (calendar: Calendar.Calendar, from: number, step: 1 | -1): Array<Closed> => {
  const out: Array<Closed> = []
  for (let d = from; d >= LocalDate.MIN && d <= LocalDate.MAX; d += step) {
    const c = closedDay(calendar, d)
    if (c === undefined) break
    out.push(c)
  }
  return out
}

const stepOf = (convention: BusinessDayConvention.BusinessDayConvention): 1 | -1 =>
  convention === "preceding" || convention === "modified-preceding" ? -1 : 1

/**
 * The trace of an occurrence the engine made for `order` (one of `Occurrence.iterate`'s, `nth`'s or `between`'s
 * answers for a plan made with the same options): the walk is recorded on the options' calendar and checked against
 * the engine's execution date.
 */
export const ofOccurrence = (
  order: Occurrence.OrderSchedule,
  occurrence: Occurrence.Occurrence,
  options?: Options
): Trace => {
  const calendar = options?.calendar ?? Calendar.target
  const convention = options?.convention ?? BusinessDayConvention.defaultConvention
  const field = order.startDate !== undefined ? "startDate" : "nextDate"
  const anchor = (order.startDate ?? order.nextDate)!
  const { k, nominal, execution } = occurrence
  const monthStep = Frequency.monthStep(order.frequency)
  const anchorDay = LocalDate.day(anchor)
  const clampedFrom = monthStep !== undefined && LocalDate.day(nominal) < anchorDay ? anchorDay : undefined
  let adjustment: Adjustment
  let passed: Array<Closed> = []
  let turned = false
  let firstWalk = 0
  if (order.frequency === "DAIL") {
    adjustment = "notApplied"
    // the non-working days before this working day, back to the previous one or the anchor
    passed = walk(calendar, execution - 1, -1)
      .filter((c) => c.date >= anchor)
      .reverse()
    firstWalk = passed.length
  } else if (!Frequency.usesConvention(order.frequency)) {
    adjustment = "notApplied"
  } else if (convention === "none") {
    adjustment = "none"
  } else if (nominal === execution && Calendar.isWorkingDay(calendar, nominal)) {
    adjustment = "working"
  } else {
    adjustment = "moved"
    const step = stepOf(convention)
    passed = walk(calendar, nominal, step)
    firstWalk = passed.length
    const landed = nominal + step * passed.length
    if (landed !== execution) {
      // a modified convention turned back at the month's end: the walk the other way from the nominal date
      turned = true
      passed = passed.concat(walk(calendar, nominal - step, step === 1 ? -1 : 1))
    }
  }
  const next = order.nextDate
  return {
    frequency: order.frequency,
    anchor: { field, date: anchor },
    k,
    nominal,
    clampedFrom,
    calendar: calendar.name,
    convention,
    source: options?.source ?? defaultSource,
    adjustment,
    passed,
    turned,
    firstWalk,
    execution,
    cut: order.startDate !== undefined && next !== undefined ? { nextDate: next, paid: execution < next } : undefined,
    endDate: order.endDate
  }
}

/**
 * The trace of the order's first occurrence executing on or after `date` (the first one at all without `date`), or
 * `undefined` when the schedule has ended by then; why the order cannot be planned as a failure
 * (packages/core/README.md, "Anchor").
 * @example onOrAfter({ frequency: "MNTH", startDate: 2024-01-31 }, 2024-02-01) // nominal 2024-02-29, clampedFrom 31
 */
export const onOrAfter = (
  order: Occurrence.OrderSchedule,
  date?: LocalDate.LocalDate,
  options?: Options
): Result.Result<Trace | undefined, Occurrence.NotProjectable> =>
  Result.map(Occurrence.makePlan(order, options), (plan) => {
    const o = Occurrence.firstOnOrAfter(plan, date ?? LocalDate.MIN)
    return o === undefined ? undefined : ofOccurrence(order, o, options)
  })

// ---------------------------------------------------------------------------
// replay
// ---------------------------------------------------------------------------

/**
 * The nominal date occurrence `k` of the trace's anchor and frequency has, by date arithmetic alone: DAI7 `k` days,
 * WEEK `7k` days, month-based codes `k` steps of months clamped to the month's end (packages/core/README.md, "Nominal
 * dates"); DAIL's nominal date is its working day, which only a calendar knows: the trace's own.
 */
export const nominalOf = (trace: Trace): LocalDate.LocalDate => {
  const { anchor, frequency, k } = trace
  if (frequency === "DAIL") return trace.nominal
  if (frequency === "DAI7") return LocalDate.addDays(anchor.date, k)
  if (frequency === "WEEK") return LocalDate.addDays(anchor.date, 7 * k)
  return LocalDate.addMonthsClamped(anchor.date, Frequency.monthStep(frequency)! * k)
}

/**
 * The execution date a trace leads to, from the trace alone (no calendar, no engine): the nominal date again from
 * the anchor and `k` ({@link nominalOf}), then the convention's walk over exactly the recorded non-working days (and
 * back the other way from the nominal date when it turned); a failure when the trace does not hold together (another
 * nominal date, a gap in the walk, a day left over).
 */
export const replay = (trace: Trace): Result.Result<LocalDate.LocalDate, string> => {
  const nominal = nominalOf(trace)
  if (nominal !== trace.nominal) {
    return Result.fail(
      `occurrence ${trace.k} from ${LocalDate.format(trace.anchor.date)} is ${LocalDate.format(nominal)}`
    )
  }
  if (trace.adjustment !== "moved") {
    if (trace.frequency !== "DAIL") return Result.succeed(nominal)
    // DAIL: the skipped days end the day before the working day, which is the nominal date
    const gap = trace.passed.some((c, i) => c.date !== nominal - trace.passed.length + i)
    return gap ? Result.fail("the skipped days do not end the day before the payment") : Result.succeed(nominal)
  }
  const step = stepOf(trace.convention)
  let d: number = nominal
  let i = 0
  for (; i < trace.firstWalk; i++, d += step) {
    if (trace.passed[i]?.date !== d) return Result.fail(`the walk misses ${LocalDate.format(d as LocalDate.LocalDate)}`)
  }
  if (trace.turned) {
    d = nominal - step
    for (; i < trace.passed.length; i++, d -= step) {
      if (trace.passed[i]!.date !== d) {
        return Result.fail(`the walk back misses ${LocalDate.format(d as LocalDate.LocalDate)}`)
      }
    }
  }
  if (i !== trace.passed.length) return Result.fail("days are left over after the walk")
  return Result.succeed(d as LocalDate.LocalDate)
}
