/**
 * The engine of `DateTrace` and the types it works on (its public module re-exports them and documents the
 * functions).
 */
import { Result } from "effect"
import * as BusinessDayConvention from "../BusinessDayConvention.ts"
import * as Calendar from "../Calendar.ts"
import * as Frequency from "../Frequency.ts"
import * as LocalDate from "../LocalDate.ts"
import * as Occurrence from "../Occurrence.ts"
import type * as Recurrence from "../Recurrence.ts"

/**
 * Where the convention (and calendar) came from: tppkit's `default`, a command-line `flag`, `inferred` from a
 * listing's `nextDate`s (docs/bank-interface.md, "The bank's date rule"), or the `order`'s own record (a standard
 * that states its convention, e.g. a Berlin Group `executionRule`); `detail` says which flag, listing or field.
 */
export interface Source {
  readonly kind: "default" | "flag" | "inferred" | "order"
  readonly detail?: string | undefined
}

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
 * the convention moved it), `none` (convention `none`: never moved), `notApplied` (DAIL and DAI7, and every n-th
 * working day: no convention, packages/core/README.md, "Execution dates").
 */
export type Adjustment = "working" | "moved" | "none" | "notApplied"

/** Paused occurrences a trace stepped over: how many, and the nominal dates of the first and the last. */
export interface Paused {
  readonly count: number
  readonly first: LocalDate.LocalDate
  readonly last: LocalDate.LocalDate
}

/** The trace of one occurrence: every step from the order's anchor to the execution date. */
export interface Trace {
  /** The bank's code when the order is given by one; `undefined` when it carries its own recurrence (an RRULE …). */
  readonly frequency: Frequency.Frequency | undefined
  /**
   * The recurrence the dates come from: the order's own, else its code's (`Recurrence.fromSbas`, convention as
   * traced). {@link replay} reads its rule, start, end, count and pauses.
   */
  readonly recurrence: Recurrence.Recurrence
  /**
   * The anchor: `startDate`, else `nextDate` (packages/core/README.md, "Anchor"); for an order given as a
   * recurrence its `start` (an RRULE's `DTSTART`), from which the rule's dates count.
   */
  readonly anchor: { readonly field: "startDate" | "nextDate" | "start"; readonly date: LocalDate.LocalDate }
  /**
   * The occurrence number (0 for the first; for DAIL the number of working days since the anchor); paused
   * occurrences keep their numbers (packages/core/README.md, "Recurrences").
   */
  readonly k: number
  /** The nominal date of occurrence `k` (packages/core/README.md, "Nominal dates"). */
  readonly nominal: LocalDate.LocalDate
  /**
   * When the rule's day of month does not exist in the nominal month and the month's last day is taken instead
   * (the bank's codes, RFC 7529 `SKIP=BACKWARD`): that day (e.g. 31 for 31 January → 29 February).
   */
  readonly clampedFrom: number | undefined
  /**
   * When the rule's day does not exist in the month before and the payment moved forward to the next month's first
   * day (RFC 7529 `SKIP=FORWARD`): that day (e.g. 30 for 30 February → 1 March).
   */
  readonly forwardFrom: number | undefined
  /** The paused occurrences stepped over from the day asked for up to this one ({@link onOrAfter}), if any. */
  readonly pausedBefore: Paused | undefined
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
  /** The order's `endDate` (or its recurrence's end), when it has one: no nominal date lies after it. */
  readonly endDate: LocalDate.LocalDate | undefined
}

/** tppkit's own choice (packages/core/README.md, "Execution dates"). */
export const defaultSource: Source = { kind: "default" }

// ---------------------------------------------------------------------------
// constructors
// ---------------------------------------------------------------------------

export const closedDay = (calendar: Calendar.Calendar, date: number): Closed | undefined => {
  const why = Calendar.closure(calendar, date as LocalDate.LocalDate)
  return why === undefined
    ? undefined
    : { date: date as LocalDate.LocalDate, kind: why === "weekend" ? "weekend" : "holiday", why }
}

/** The non-working days from `from` on, walking by `step`, up to the first working day (exclusive). */
export const walk = (calendar: Calendar.Calendar, from: number, step: 1 | -1): Array<Closed> => {
  const out: Array<Closed> = []
  for (let d = from; d >= LocalDate.MIN && d <= LocalDate.MAX; d += step) {
    const c = closedDay(calendar, d)
    if (c === undefined) break
    out.push(c)
  }
  return out
}

export const stepOf = (convention: BusinessDayConvention.BusinessDayConvention): 1 | -1 =>
  convention === "preceding" || convention === "modified-preceding" ? -1 : 1

/** The calendar a recurrence's plan uses: the given one, else the built-in one it names, else `target`. */
export const calendarOf = (r: Recurrence.Recurrence | undefined, options?: Options): Calendar.Calendar =>
  options?.calendar ?? (r?.calendar === undefined ? undefined : Calendar.builtInNamed(r.calendar)) ?? Calendar.target

/** The day of the rule that did not exist in the month, when the nominal date is the rule's clamp or move of it. */
export const missingDayOf = (
  rule: Recurrence.Rule,
  nominal: LocalDate.LocalDate
): { readonly clampedFrom?: number; readonly forwardFrom?: number } => {
  const { month, day } = LocalDate.toParts(nominal)
  if (rule._tag === "MonthlyOnDay" && rule.day > 28) {
    if (rule.missing === "clamp" && day < rule.day && day >= 28) return { clampedFrom: rule.day }
    if (rule.missing === "forward" && day === 1) return { forwardFrom: rule.day }
  }
  if (rule._tag === "Yearly" && rule.dates.some((d) => d.month === 2 && d.day === 29)) {
    if (rule.missing === "clamp" && month === 2 && day === 28) return { clampedFrom: 29 }
    if (rule.missing === "forward" && month === 3 && day === 1 && !rule.dates.some((d) => d.month === 3 && d.day === 1))
      return { forwardFrom: 29 }
  }
  return {}
}

/**
 * The trace of an occurrence the engine made for `order` (one of `Occurrence.iterate`'s, `nth`'s or `between`'s
 * answers for a plan made with the same options): the walk is recorded on the options' calendar (for an order given
 * as a recurrence: the calendar its plan uses) and checked against the engine's execution date.
 */
export const ofOccurrence = (
  order: Occurrence.OrderSchedule,
  occurrence: Occurrence.Occurrence,
  options?: Options,
  pausedBefore?: Paused
): Trace => {
  // an order given by a bank code (its record's, or the one its recurrence was made from) is traced as the code
  const code = Occurrence.codeOf(order)
  const byCode = code !== undefined
  const optionConvention = options?.convention ?? BusinessDayConvention.defaultConvention
  const recurrence = Occurrence.recurrenceOf(order, optionConvention)!
  const calendar = calendarOf(byCode ? undefined : recurrence, options)
  // a code's convention is the options' (DAIL and DAI7 show it, unapplied); a recurrence carries its own
  const convention = byCode ? optionConvention : recurrence.convention
  // a code's anchor is its record's startDate, else nextDate (a code's recurrence alone says its start)
  const field = !byCode
    ? "start"
    : order.startDate !== undefined
      ? "startDate"
      : order.nextDate !== undefined
        ? "nextDate"
        : "start"
  const anchor = recurrence.start
  const { k, nominal, execution } = occurrence
  let clampedFrom: number | undefined
  let forwardFrom: number | undefined
  if (byCode) {
    const anchorDay = LocalDate.day(anchor)
    clampedFrom = Frequency.monthStep(code) !== undefined && LocalDate.day(nominal) < anchorDay ? anchorDay : undefined
  } else {
    ;({ clampedFrom, forwardFrom } = missingDayOf(recurrence.rule, nominal))
  }
  const working = recurrence.rule._tag === "EveryWorkingDays"
  let adjustment: Adjustment
  let passed: Array<Closed> = []
  let turned = false
  let firstWalk = 0
  if (working) {
    adjustment = "notApplied"
    // the non-working days before this working day, back to the previous one or the anchor
    passed = walk(calendar, execution - 1, -1)
      .filter((c) => c.date >= anchor)
      .reverse()
    firstWalk = passed.length
  } else if (byCode && !Frequency.usesConvention(code)) {
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
  // the nextDate cut: a code anchored on nextDate has nothing before it; a recurrence counts from its own start
  const cuts = next !== undefined && (!byCode || order.startDate !== undefined)
  return {
    frequency: code,
    recurrence,
    anchor: { field, date: anchor },
    k,
    nominal,
    clampedFrom,
    forwardFrom,
    pausedBefore,
    calendar: calendar.name,
    convention,
    source: options?.source ?? defaultSource,
    adjustment,
    passed,
    turned,
    firstWalk,
    execution,
    cut: cuts ? { nextDate: next, paid: execution < next } : undefined,
    endDate: recurrence.end
  }
}

/** The paused occurrences executing from `date` on before `o` (none without pauses), counted on the unpaused plan. */
export const pausedBetween = (
  order: Occurrence.OrderSchedule,
  options: Options | undefined,
  date: LocalDate.LocalDate,
  o: Occurrence.Occurrence
): Paused | undefined => {
  const r = Occurrence.codeOf(order) === undefined ? order.recurrence : undefined
  if (r?.pauses === undefined || (r.pauses.ranges.length === 0 && r.pauses.months.length === 0)) return undefined
  const bare = Occurrence.planOf({ ...r, pauses: { ranges: [], months: [] } }, options)
  if (Result.isFailure(bare)) return undefined
  let count = 0
  let first: LocalDate.LocalDate | undefined
  let last: LocalDate.LocalDate | undefined
  for (const x of Occurrence.iterate(bare.success, date)) {
    if (x.k >= o.k) break
    count++
    first ??= x.nominal
    last = x.nominal
  }
  return count === 0 ? undefined : { count, first: first!, last: last! }
}

/**
 * The trace of the order's first occurrence executing on or after `date` (the first one at all without `date`), or
 * `undefined` when the schedule has ended by then; why the order cannot be planned as a failure
 * (packages/core/README.md, "Anchor"). The paused occurrences stepped over on the way are counted in the trace.
 * @example onOrAfter({ frequency: "MNTH", startDate: 2024-01-31 }, 2024-02-01) // nominal 2024-02-29, clampedFrom 31
 */
export const onOrAfter = (
  order: Occurrence.OrderSchedule,
  date?: LocalDate.LocalDate,
  options?: Options
): Result.Result<Trace | undefined, Occurrence.NotProjectable> =>
  Result.map(Occurrence.makePlan(order, options), (plan) => {
    const from = date ?? LocalDate.MIN
    const o = Occurrence.firstOnOrAfter(plan, from)
    if (o === undefined) return undefined
    const calendar =
      Occurrence.codeOf(order) !== undefined || order.recurrence === undefined
        ? options
        : { ...options, calendar: calendarOf(order.recurrence, options) }
    return ofOccurrence(order, o, options, pausedBetween(order, calendar, from, o))
  })

// ---------------------------------------------------------------------------
// replay
// ---------------------------------------------------------------------------

/** Nominal dates of a rule's periods, walked in order (months as year·12 + month − 1). */
export const monthParts = (index: number): { readonly year: number; readonly month: number } => {
  const year = Math.floor(index / 12)
  return { year, month: index - 12 * year + 1 }
}

/** The date of a day of month (from the start, or from the end) by the missing-day rule, or `undefined` (skipped). */
export const dayInMonth = (
  year: number,
  month: number,
  day: number,
  missing: Recurrence.MissingDay
): number | undefined => {
  const length = LocalDate.daysInMonth(year, month)
  if (day < 0) return LocalDate.makeUnsafe(year, month, length + day + 1)
  if (day <= length) return LocalDate.makeUnsafe(year, month, day)
  if (missing === "skip") return undefined
  return LocalDate.makeUnsafe(year, month, length) + (missing === "forward" ? 1 : 0)
}

/** The `ordinal`-th `weekday` of a month (from the end when negative), or `undefined` when the month has none. */
export const weekdayInMonth = (year: number, month: number, weekday: number, ordinal: number): number | undefined => {
  const length = LocalDate.daysInMonth(year, month)
  const first = LocalDate.makeUnsafe(year, month, 1)
  const last = first + length - 1
  const d =
    ordinal > 0
      ? first + ((weekday - LocalDate.dayOfWeek(first) + 7) % 7) + 7 * (ordinal - 1)
      : last - ((LocalDate.dayOfWeek(last as LocalDate.LocalDate) - weekday + 7) % 7) + 7 * (ordinal + 1)
  return d >= first && d <= last ? d : undefined
}

/**
 * The nominal date of occurrence `k` of a rule counted from `start`, by walking its periods (days, weeks, months or
 * years from the start's own) and the dates each names; `undefined` past 9999-12-31. Every n-th working day has no
 * date without a calendar: `undefined`.
 */
export const nthNominal = (r: Recurrence.Recurrence, k: number): number | undefined => {
  const rule = r.rule
  const start: number = r.start
  const startIndex = LocalDate.toParts(r.start).year * 12 + LocalDate.month(r.start) - 1
  let seen = 0
  /** Counts a period's dates on or after the start; the k-th is the answer. */
  const take = (dates: ReadonlyArray<number | undefined>): number | undefined => {
    for (const x of dates) {
      if (x === undefined || x < start) continue
      if (seen++ === k) return x
    }
    return undefined
  }
  const within = (x: number | undefined) => (x === undefined || x > LocalDate.MAX ? undefined : x)
  switch (rule._tag) {
    case "EveryWorkingDays":
      return undefined
    case "EveryDays":
      return within(start + rule.interval * k)
    case "Weekly": {
      const monday = start - LocalDate.dayOfWeek(r.start) + 1
      const firstWeek = rule.weekdays.filter((w) => monday + w - 1 >= start).length
      if (k < firstWeek) return monday + rule.weekdays[rule.weekdays.length - firstWeek + k]! - 1
      const rest = k - firstWeek
      const week = 1 + Math.floor(rest / rule.weekdays.length)
      return within(monday + 7 * rule.interval * week + rule.weekdays[rest % rule.weekdays.length]! - 1)
    }
    case "MonthlyOnDay":
    case "MonthlyOnWeekday":
      for (let index = startIndex; index <= 9999 * 12 + 11; index += rule.interval) {
        const { year, month } = monthParts(index)
        if (rule.months !== undefined && !rule.months.includes(month)) continue
        const x =
          rule._tag === "MonthlyOnDay"
            ? dayInMonth(year, month, rule.day, rule.missing)
            : weekdayInMonth(year, month, rule.weekday, rule.ordinal)
        const found = take([x])
        if (found !== undefined) return within(found)
      }
      return undefined
    case "Yearly":
      for (let year = LocalDate.toParts(r.start).year; year <= 9999; year += rule.interval) {
        const found = take(rule.dates.map((d) => dayInMonth(year, d.month, d.day, rule.missing)))
        if (found !== undefined) return within(found)
      }
      return undefined
  }
}

/** Whether a nominal date lies in one of a recurrence's pauses (a range, or a paused month). */
export const isPaused = (r: Recurrence.Recurrence, nominal: LocalDate.LocalDate): boolean =>
  r.pauses !== undefined &&
  (r.pauses.months.includes(LocalDate.month(nominal)) ||
    r.pauses.ranges.some((p) => nominal >= p.from && nominal <= p.to))

/**
 * The nominal date occurrence `k` of the trace's recurrence has, by date arithmetic alone: the rule's dates walked
 * period by period from its start (packages/core/README.md, "Nominal dates", "Recurrences"): every n days `nk` days
 * on, weekdays week by week, days of the month clamped, skipped or moved forward as the rule says, weekdays of the
 * month, days of the year. Every n-th working day's nominal date is its working day, which only a calendar knows:
 * the trace's own. `undefined` past 9999-12-31.
 */
export const nominalOf = (trace: Trace): LocalDate.LocalDate | undefined => {
  if (trace.recurrence.rule._tag === "EveryWorkingDays") return trace.nominal
  return nthNominal(trace.recurrence, trace.k) as LocalDate.LocalDate | undefined
}

/**
 * The execution date a trace leads to, from the trace alone (no calendar, no engine): the nominal date again from
 * the recurrence and `k` ({@link nominalOf}), within its end and count and outside its pauses, then the convention's
 * walk over exactly the recorded non-working days (and back the other way from the nominal date when it turned); a
 * failure when the trace does not hold together (another nominal date, a paused or ended one, a gap in the walk, a
 * day left over).
 */
export const replay = (trace: Trace): Result.Result<LocalDate.LocalDate, string> => {
  const nominal = nominalOf(trace)
  const r = trace.recurrence
  if (nominal !== trace.nominal) {
    return Result.fail(
      `occurrence ${trace.k} from ${LocalDate.format(trace.anchor.date)} is ${nominal === undefined ? "past 9999-12-31" : LocalDate.format(nominal)}`
    )
  }
  if (r.count !== undefined && trace.k >= r.count)
    return Result.fail(`occurrence ${trace.k} is past the count ${r.count}`)
  if (trace.endDate !== undefined && nominal > trace.endDate) {
    return Result.fail(`${LocalDate.format(nominal)} is after the end ${LocalDate.format(trace.endDate)}`)
  }
  if (isPaused(r, nominal)) return Result.fail(`${LocalDate.format(nominal)} is paused`)
  if (trace.adjustment !== "moved") {
    if (r.rule._tag !== "EveryWorkingDays") return Result.succeed(nominal)
    // working days: the skipped days end the day before the working day, which is the nominal date
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
