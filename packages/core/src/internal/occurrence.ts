/**
 * The engine of `Occurrence` and the types it works on (its public module re-exports them and documents the
 * functions).
 */
import { type Brand, Result, Schema } from "effect"
import * as BusinessDayConvention from "../BusinessDayConvention.ts"
import * as Calendar from "../Calendar.ts"
import type * as Frequency from "../Frequency.ts"
import * as LocalDate from "../LocalDate.ts"
import * as Recurrence from "../Recurrence.ts"
import * as CodePlan from "./codePlan.ts"
import { kept, type Pauses, PlanData } from "./plan.ts"
import * as Slots from "./slots.ts"
import * as WorkingDays from "./workingDays.ts"

/** Occurrence number `k` (0, 1, 2, …) of a schedule: its nominal date and its execution date. */
export interface Occurrence {
  readonly k: number
  readonly nominal: LocalDate.LocalDate
  readonly execution: LocalDate.LocalDate
}

/**
 * The schedule fields of a standing order the engine reads (packages/core/README.md, "Anchor", "Already paid"): the
 * bank's record (`StandingOrder`) with its `frequency` code and dates, or a `recurrence` (`Orders.Order`, whose
 * recurrence of a bank code remembers the code: `Recurrence.code`). An order with `frequency` is planned by the code;
 * one without it, from its recurrence.
 */
export interface OrderSchedule {
  readonly frequency?: Frequency.Frequency | undefined
  readonly startDate?: LocalDate.LocalDate | undefined
  readonly nextDate?: LocalDate.LocalDate | undefined
  readonly endDate?: LocalDate.LocalDate | undefined
  readonly recurrence?: Recurrence.Recurrence | undefined
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

/** The settings of a recurrence's plan: the calendar (default: the one the recurrence names, else `target`). */
export interface RecurrenceOptions {
  readonly calendar?: Calendar.Calendar | undefined
}

/** Whether an occurrence with this nominal date is paused (not paid; it keeps its number). */
const isPaused = (plan: PlanData, nominal: number): boolean => {
  const pauses = plan.pauses
  if (pauses === undefined) return false
  if (pauses.months !== 0 && ((pauses.months >>> ((WorkingDays.monthIndexOf(nominal) % 12) + 1)) & 1) === 1) return true
  const r = pauses.ranges
  for (let i = 0; i < r.length; i += 2) if (nominal >= r[i]! && nominal <= r[i + 1]!) return true
  return false
}

const dataOf = (plan: Plan): PlanData => plan as unknown as PlanData

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

export const makePlan = (order: OrderSchedule, options?: Options): Result.Result<Plan, NotProjectable> => {
  if (order.frequency === undefined) {
    const r = order.recurrence
    if (r === undefined) {
      return Result.fail(new NotProjectable({ reason: "the order has neither a frequency nor a recurrence" }))
    }
    // a bank code's recurrence leaves its convention to the bank, as the code does: the options' convention moves it
    const convention = options?.convention
    return planOf(convention === undefined || !movedByCode(r) ? r : Recurrence.withConvention(r, convention), options)
  }
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
  const plan = CodePlan.codePlan(
    order.frequency,
    anchor,
    order.endDate,
    options?.calendar ?? Calendar.target,
    options?.convention ?? BusinessDayConvention.defaultConvention
  )
  return Result.succeed(plan as unknown as Plan)
}

/** Whether a recurrence is a bank code's whose dates a convention moves (not DAIL or DAI7, which fix theirs). */
const movedByCode = (r: Recurrence.Recurrence): boolean => {
  const code = Recurrence.code(r)
  return code !== undefined && code !== "DAIL" && code !== "DAI7"
}

export const codeOf = (order: OrderSchedule): Frequency.Frequency | undefined =>
  order.frequency ?? (order.recurrence === undefined ? undefined : Recurrence.code(order.recurrence))

export const recurrenceOf = (
  order: OrderSchedule,
  convention?: BusinessDayConvention.BusinessDayConvention
): Recurrence.Recurrence | undefined => {
  if (order.frequency === undefined) {
    const r = order.recurrence
    return r === undefined || convention === undefined || !movedByCode(r) ? r : Recurrence.withConvention(r, convention)
  }
  const r = Recurrence.fromSbas({ ...order, frequency: order.frequency }, { convention })
  return Result.isSuccess(r) ? r.success : undefined
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))

/** The general shape of a month-based rule: periods of `length` months from `origin`, the selected months only. */
const monthSlots = (
  origin: number,
  interval: number,
  months: ReadonlyArray<number> | undefined,
  day: number,
  weekday: number,
  ordinal: number,
  missing: number
): Slots.Slots => {
  const length = months === undefined ? interval : (interval * 12) / gcd(interval, 12)
  const offsets: Array<number> = []
  for (let off = 0; off < length; off += interval) {
    if (months === undefined || months.includes(((origin + off) % 12) + 1)) offsets.push(off)
  }
  const m = offsets.length
  const variable = (day > 0 && day >= 29 && missing === Slots.SKIP) || ordinal === 5 || ordinal === -5
  return {
    months: true,
    origin,
    length,
    offsets: Int32Array.from(offsets),
    dayOf: new Int32Array(m).fill(day),
    weekdayOf: new Int32Array(m).fill(weekday),
    ordinalOf: new Int32Array(m).fill(ordinal),
    missing,
    variable,
    first: 0,
    table: undefined
  }
}

const missingCode = (m: Recurrence.MissingDay): number =>
  m === "clamp" ? Slots.CLAMP : m === "skip" ? Slots.SKIP : Slots.FORWARD

export const planOf = (r: Recurrence.Recurrence, options?: RecurrenceOptions): Result.Result<Plan, NotProjectable> => {
  if (!LocalDate.isValidDayNumber(r.start)) return notProjectable("start is not a date within 0001-01-01..9999-12-31")
  if (r.end !== undefined && !LocalDate.isValidDayNumber(r.end)) {
    return notProjectable("end is not a date within 0001-01-01..9999-12-31")
  }
  let calendar = options?.calendar
  if (calendar === undefined && r.calendar !== undefined) {
    calendar = Calendar.builtInNamed(r.calendar)
    if (calendar === undefined) return notProjectable(`calendar ${JSON.stringify(r.calendar)} is not built in: pass it`)
  }
  // a bank code's recurrence: the code's own arithmetic (internal/codePlan.ts), the plan the general path makes
  const code = Recurrence.code(r)
  if (code !== undefined) {
    const plan = CodePlan.codePlan(code, r.start, r.end, calendar ?? Calendar.target, r.convention)
    return Result.succeed(plan as unknown as Plan)
  }
  const rule = r.rule
  const start: number = r.start
  const lastNominal = (r.end ?? LocalDate.MAX) as LocalDate.LocalDate
  let anchor = start
  let dayStep = 0
  // month arithmetic (shape 0 on months): one day in every monthStep-th month from anchorMonth, named by a
  // WorkingDays.monthDay code (a day of month clamped, a day from the end, or the k-th weekday, ±1…±4)
  let monthStep = 0
  let anchorMonth = 0
  let anchorDay = 0
  let slots: Slots.Slots | undefined
  const startMonth = WorkingDays.monthIndexOf(start)
  switch (rule._tag) {
    case "EveryDays":
      dayStep = rule.interval
      break
    case "EveryWorkingDays":
      break
    case "Weekly": {
      const monday = start - LocalDate.dayOfWeek(r.start) + 1
      const length = 7 * rule.interval
      if (rule.weekdays.length === 1) {
        dayStep = length
        const day = monday + rule.weekdays[0]! - 1
        anchor = day >= start ? day : day + length
      } else {
        const offsets = Int32Array.from(rule.weekdays, (w) => w - 1)
        const none = new Int32Array(offsets.length)
        slots = {
          months: false,
          origin: monday,
          length,
          offsets,
          dayOf: none,
          weekdayOf: none,
          ordinalOf: none,
          missing: Slots.CLAMP,
          variable: false,
          first: 0,
          table: undefined
        }
      }
      break
    }
    case "MonthlyOnDay":
      if (rule.months === undefined && (rule.day <= 28 || rule.missing === "clamp")) {
        // a day from the start (clamped, or one every month has) or from the end: every month has it
        monthStep = rule.interval
        anchorMonth = startMonth
        anchorDay = rule.day
      } else {
        slots = monthSlots(startMonth, rule.interval, rule.months, rule.day, 0, 0, missingCode(rule.missing))
      }
      break
    case "MonthlyOnWeekday":
      if (rule.months === undefined && rule.ordinal !== 5 && rule.ordinal !== -5) {
        // the first four (and last four) of each weekday are in every month
        monthStep = rule.interval
        anchorMonth = startMonth
        anchorDay = WorkingDays.weekdayOfMonth(rule.weekday, rule.ordinal)
      } else {
        slots = monthSlots(startMonth, rule.interval, rule.months, 0, rule.weekday, rule.ordinal, Slots.CLAMP)
      }
      break
    case "Yearly": {
      const january = startMonth - (startMonth % 12)
      const only = rule.dates.length === 1 ? rule.dates[0]! : undefined
      if (only !== undefined && (rule.missing === "clamp" || only.month !== 2 || only.day !== 29)) {
        monthStep = 12 * rule.interval
        anchorMonth = january + only.month - 1
        anchorDay = only.day
      } else {
        const m = rule.dates.length
        slots = {
          months: true,
          origin: january,
          length: 12 * rule.interval,
          offsets: Int32Array.from(rule.dates, (d) => d.month - 1),
          dayOf: Int32Array.from(rule.dates, (d) => d.day),
          weekdayOf: new Int32Array(m),
          ordinalOf: new Int32Array(m),
          missing: missingCode(rule.missing),
          variable: rule.missing === "skip" && rule.dates.some((d) => d.month === 2 && d.day === 29),
          first: 0,
          table: undefined
        }
      }
      break
    }
  }
  if (monthStep !== 0) {
    // the first period from anchorMonth on whose day is on or after the start
    if (WorkingDays.monthDay(anchorMonth, anchorDay) < start) anchorMonth += monthStep
    anchor = rawNominal(anchorMonth, anchorDay, monthStep, 0)
  }
  const convention = r.convention
  const working = rule._tag === "EveryWorkingDays"
  let lastK = -1
  if (slots !== undefined) {
    if (slots.offsets.length === 0) {
      // selected months that the interval never reaches: no occurrence at all
      slots = { ...slots, offsets: Int32Array.of(0), dayOf: Int32Array.of(1) }
      slots.first = 0
      lastK = -1
      anchor = Slots.END
    } else {
      Slots.setStart(slots, start)
      anchor = Slots.dateOf(slots, slots.first)
      lastK = Slots.occurrenceOf(slots, Slots.seek(slots, lastNominal + 1)) - 1
    }
  } else if (!working && anchor <= lastNominal) {
    if (dayStep !== 0) lastK = Math.floor((lastNominal - anchor) / dayStep)
    else {
      lastK = Math.floor(
        ((r.end === undefined ? WorkingDays.MAX_MONTH_INDEX : WorkingDays.monthIndexOf(lastNominal)) - anchorMonth) /
          monthStep
      )
      if (r.end !== undefined && rawNominal(anchorMonth, anchorDay, monthStep, lastK) > lastNominal) lastK--
    }
  }
  const workStep = working ? rule.interval : 1
  const resolved = calendar ?? Calendar.target
  // the count's last occurrence ends a working-day schedule when it comes before the end date
  const last =
    working && r.count !== undefined
      ? Math.min(lastNominal, nthWorkingOf(anchor, resolved, lastNominal, (r.count - 1) * workStep))
      : lastNominal
  if (r.count !== undefined && !working) lastK = Math.min(lastK, r.count - 1)
  const data = new PlanData(
    working,
    workStep,
    slots,
    pausesOf(r.pauses),
    anchor as LocalDate.LocalDate,
    r.end,
    resolved,
    convention,
    !working && convention !== "none",
    dayStep,
    monthStep,
    anchorMonth,
    anchorDay,
    last as LocalDate.LocalDate,
    lastK
  )
  return Result.succeed(data as unknown as Plan)
}

/** A plan's pauses (sorted ranges, a bit per month), or none when there are none. */
const pausesOf = (pauses: Recurrence.Pauses | undefined): Pauses | undefined =>
  pauses === undefined || (pauses.ranges.length === 0 && pauses.months.length === 0)
    ? undefined
    : {
        ranges: [...pauses.ranges].sort((a, b) => a.from - b.from).flatMap((p) => [p.from, p.to]),
        months: pauses.months.reduce((bits, m) => bits | (1 << m), 0)
      }

const notProjectable = (reason: string): Result.Result<Plan, NotProjectable> =>
  Result.fail(new NotProjectable({ reason }))

// ---------------------------------------------------------------------------
// calendar-based codes (DAI7, WEEK, MNTH, QUTR, SEMI, YEAR): random access by k
// ---------------------------------------------------------------------------

const END = WorkingDays.BEYOND_MAX

const rawNominal = CodePlan.rawNominal

/** Nominal date number k of a calendar-based plan, or `END` when it does not exist. */
const nominalAt = (plan: PlanData, k: number): number => {
  if (k > plan.lastK) return END
  return plan.dayStep !== 0
    ? plan.anchor + plan.dayStep * k
    : plan.monthStep !== 0
      ? rawNominal(plan.anchorMonth, plan.anchorDay, plan.monthStep, k)
      : Slots.dateOf(plan.slots!, Slots.slotOf(plan.slots!, k))
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
  } else if (plan.monthStep !== 0) {
    const clamped = Math.min(Math.max(d, LocalDate.MIN), LocalDate.MAX)
    k = Math.max(0, Math.ceil((WorkingDays.monthIndexOf(clamped) - plan.anchorMonth) / plan.monthStep))
  } else {
    const slots = plan.slots!
    k = Slots.occurrenceOf(slots, Slots.seek(slots, d))
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

/** The working day `n` working days after working day `d` (`d` itself for n = 0), or past 9999-12-31. */
const skipWorking = (calendar: Calendar.Calendar, d: number, n: number): number => {
  for (let i = 0; i < n && d <= LocalDate.MAX; i++) d = WorkingDays.following(calendar, d + 1)
  return d
}

/** Working day number `i` (0-based) on or after the anchor, or past the last nominal date: by binary search. */
const nthWorking = (plan: PlanData, i: number): number => nthWorkingOf(plan.anchor, plan.calendar, plan.lastNominal, i)

/** {@link nthWorking} from its parts. */
const nthWorkingOf = (anchor: number, calendar: Calendar.Calendar, lastNominal: number, i: number): number => {
  if (calendar.countWeekdayHolidays !== undefined) {
    // binary search for the first day by which i + 1 working days have passed, within a bound found by doubling a
    // span from the anchor: counting up to lastNominal itself (9999-12-31 when there is no end) would compute every
    // year's holidays to there (a minute for a national calendar's 8,000 years)
    let lo: number = anchor
    let hi: number = lastNominal
    for (let span = 2 * (i + 1) + 14; anchor + span < lastNominal; span *= 2) {
      if (countWorking(calendar, anchor, anchor + span) > i) {
        hi = anchor + span
        break
      }
      lo = anchor + span + 1
    }
    if (hi === lastNominal && countWorking(calendar, anchor, lastNominal) <= i) return END
    while (lo < hi) {
      const mid = lo + Math.floor((hi - lo) / 2)
      if (countWorking(calendar, anchor, mid) > i) hi = mid
      else lo = mid + 1
    }
    return lo
  }
  const d = skipWorking(calendar, WorkingDays.following(calendar, anchor), i)
  return d > lastNominal ? END : d
}

/** Every n-th working day (n > 1): the first occurrence on or after `date`, or `undefined`. */
const firstStepped = (plan: PlanData, date: number): Occurrence | undefined => {
  const start = Math.max(date, plan.anchor)
  const c = countWorking(plan.calendar, plan.anchor, start - 1)
  const k = Math.ceil(c / plan.workStep)
  const d = skipWorking(plan.calendar, WorkingDays.following(plan.calendar, start), k * plan.workStep - c)
  return d > plan.lastNominal ? undefined : occurrence(k, d, d)
}

/** Every n-th working day (n > 1): the occurrence after `o`, or `undefined`. */
const nextStepped = (plan: PlanData, o: Occurrence): Occurrence | undefined => {
  const d = skipWorking(plan.calendar, o.execution, plan.workStep)
  return d > plan.lastNominal ? undefined : occurrence(o.k + 1, d, d)
}

/** Lazy occurrences of every n-th working day (n > 1) executing on or after `from`. */
class SteppedIterator implements IterableIterator<Occurrence> {
  private o: Occurrence | undefined
  private readonly plan: PlanData
  constructor(plan: PlanData, from: number) {
    this.plan = plan
    this.o = firstStepped(plan, from)
  }
  next(): IteratorResult<Occurrence, undefined> {
    const o = this.o
    if (o === undefined) return { done: true, value: undefined }
    this.o = nextStepped(this.plan, o)
    return { done: false, value: o }
  }
  [Symbol.iterator](): this {
    return this
  }
}

/** The occurrences of another iterator that are not paused. */
class UnpausedIterator implements IterableIterator<Occurrence> {
  private readonly inner: Iterator<Occurrence>
  private readonly plan: PlanData
  constructor(plan: PlanData, inner: Iterator<Occurrence>) {
    this.plan = plan
    this.inner = inner
  }
  next(): IteratorResult<Occurrence, undefined> {
    for (;;) {
      const r = this.inner.next()
      if (r.done === true) return { done: true, value: undefined }
      if (!isPaused(this.plan, r.value.nominal)) return r
    }
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

export const iterate = (handle: Plan, from?: LocalDate.LocalDate): IterableIterator<Occurrence> => {
  const plan = dataOf(handle)
  const start = from ?? LocalDate.MIN
  const all = plan.working
    ? plan.workStep === 1
      ? new DailyIterator(plan, start)
      : new SteppedIterator(plan, start)
    : new CalendarIterator(plan, start)
  return plan.pauses === undefined ? all : new UnpausedIterator(plan, all)
}

export const between = (handle: Plan, from: LocalDate.LocalDate, to: LocalDate.LocalDate): Array<Occurrence> => {
  const plan = dataOf(handle)
  let out: Array<Occurrence> = []
  if (to < from) return out
  if (plan.working && plan.workStep === 1) {
    const start = Math.max(from, plan.anchor)
    const last = Math.min(to, plan.lastNominal)
    let k = countWorking(plan.calendar, plan.anchor, start - 1)
    for (let d = start; d <= last; d++) {
      if (WorkingDays.isWorking(plan.calendar, d)) out.push(occurrence(k++, d, d))
    }
  } else if (plan.working) {
    for (let o = firstStepped(plan, from); o !== undefined && o.execution <= to; o = nextStepped(plan, o)) out.push(o)
  } else {
    for (let k = firstIndex(plan, from); ; k++) {
      const n = nominalAt(plan, k)
      if (n === END) break
      const e = executionOf(plan, n)
      if (e > to) break
      if (e >= from) out.push(occurrence(k, n, e))
    }
  }
  if (plan.pauses !== undefined) out = out.filter((o) => !isPaused(plan, o.nominal))
  return out
}

/**
 * The number of the first occurrence of a calendar-based plan executing on or after `date`, or −1 when the
 * schedule has ended by then. No allocation: {@link firstOnOrAfter} and {@link firstExecutionOnOrAfter} share it.
 */
const firstCalendar = (plan: PlanData, date: number): number => {
  if (plan.adjusts || plan.slots !== undefined) {
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
  if (WorkingDays.monthDay(anchorMonth + monthStep * k, anchorDay) >= date) return k
  return k + 1 > lastK ? -1 : k + 1
}

/** {@link firstOnOrAfter} without pauses. */
const firstAny = (plan: PlanData, date: number): Occurrence | undefined => {
  if (plan.working) {
    if (plan.workStep !== 1) return firstStepped(plan, date)
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

/** {@link next} without pauses. */
const nextAny = (plan: PlanData, o: Occurrence): Occurrence | undefined => {
  if (plan.working) {
    if (plan.workStep !== 1) return nextStepped(plan, o)
    const d = WorkingDays.following(plan.calendar, o.execution + 1)
    return d > plan.lastNominal ? undefined : occurrence(o.k + 1, d, d)
  }
  const n = nominalAt(plan, o.k + 1)
  const e = executionOf(plan, n)
  return e < LocalDate.MIN || e > LocalDate.MAX ? undefined : occurrence(o.k + 1, n, e)
}

/** The first occurrence from `o` on (itself included) that is not paused. */
const unpaused = (plan: PlanData, o: Occurrence | undefined): Occurrence | undefined => {
  while (o !== undefined && isPaused(plan, o.nominal)) o = nextAny(plan, o)
  return o
}

export const firstOnOrAfter = (handle: Plan, date: LocalDate.LocalDate): Occurrence | undefined => {
  const plan = dataOf(handle)
  const o = firstAny(plan, date)
  return plan.pauses === undefined ? o : unpaused(plan, o)
}

export const firstExecutionOnOrAfter = (handle: Plan, date: LocalDate.LocalDate): LocalDate.LocalDate | undefined => {
  const plan = dataOf(handle)
  if (plan.pauses !== undefined || (plan.working && plan.workStep !== 1)) return firstOnOrAfter(handle, date)?.execution
  if (plan.working) {
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

export const executionsInto = (
  handle: Plan,
  from: LocalDate.LocalDate,
  to: LocalDate.LocalDate,
  into: Int32Array,
  base: number
): number => {
  const plan = dataOf(handle)
  let n = 0
  if (plan.working || plan.pauses !== undefined) {
    for (let o = firstOnOrAfter(handle, from); o !== undefined && o.execution <= to; o = next(handle, o)) {
      if (n === into.length) return -1
      into[n++] = o.execution - base
    }
    return n
  }
  const k0 = firstCalendar(plan, from)
  if (k0 < 0) return 0
  // as firstOnOrAfter then next: the first occurrence's date is on or after `from`; the walk ends past `to` or
  // where a date does not exist
  for (let k = k0; ; k++) {
    const e = executionOf(plan, nominalAt(plan, k))
    if (e > to || (k > k0 && (e < LocalDate.MIN || e > LocalDate.MAX))) break
    if (n === into.length) return -1
    into[n++] = e - base
  }
  return n
}

export const nth = (handle: Plan, k: number): Occurrence | undefined => {
  if (!Number.isInteger(k) || k < 0) return undefined
  const plan = dataOf(handle)
  let o: Occurrence | undefined
  if (plan.working) {
    const d = nthWorking(plan, k * plan.workStep)
    o = d > plan.lastNominal ? undefined : occurrence(k, d, d)
  } else {
    const n = nominalAt(plan, k)
    const e = executionOf(plan, n)
    o = e < LocalDate.MIN || e > LocalDate.MAX ? undefined : occurrence(k, n, e)
  }
  return o !== undefined && plan.pauses !== undefined && isPaused(plan, o.nominal) ? undefined : o
}

export const count = (handle: Plan, from: LocalDate.LocalDate, to: LocalDate.LocalDate): number => {
  if (to < from) return 0
  const plan = dataOf(handle)
  if (plan.pauses !== undefined) return between(handle, from, to).length
  if (plan.working) {
    if (plan.workStep === 1) {
      return countWorking(plan.calendar, Math.max(from, plan.anchor), Math.min(to, plan.lastNominal))
    }
    const n = plan.workStep
    const before = countWorking(plan.calendar, plan.anchor, Math.max(from, plan.anchor) - 1)
    const through = countWorking(plan.calendar, plan.anchor, Math.min(to, plan.lastNominal))
    return Math.max(0, Math.ceil(through / n) - Math.ceil(before / n))
  }
  return Math.max(0, firstIndex(plan, to + 1) - firstIndex(plan, from))
}

export const next = (handle: Plan, o: Occurrence): Occurrence | undefined => {
  const plan = dataOf(handle)
  const n = nextAny(plan, o)
  return plan.pauses === undefined ? n : unpaused(plan, n)
}

export const fixedStep = (handle: Plan): number => {
  const plan = dataOf(handle)
  return plan.adjusts || plan.pauses !== undefined ? 0 : plan.dayStep
}

export const everyWorkingDay = (handle: Plan): boolean => {
  const plan = dataOf(handle)
  return plan.working && plan.workStep === 1 && plan.pauses === undefined
}

export const executionOfDue = (handle: Plan, date: LocalDate.LocalDate): LocalDate.LocalDate | undefined => {
  const plan = dataOf(handle)
  const day = plan.adjusts
    ? WorkingDays.adjust(date, plan.convention, plan.calendar)
    : plan.working
      ? WorkingDays.following(plan.calendar, date)
      : date
  return day < LocalDate.MIN || day > LocalDate.MAX ? undefined : (day as LocalDate.LocalDate)
}

export const SAMPLED = 5_000

export const sample = (
  r: Recurrence.Recurrence,
  options?: RecurrenceOptions
): { readonly moved: boolean; readonly paused: boolean; readonly holidays: boolean } => {
  // a calendar core does not know is read as `target`: its holidays are what a translation cannot carry
  const calendar =
    options?.calendar ?? (r.calendar === undefined ? undefined : Calendar.builtInNamed(r.calendar)) ?? Calendar.target
  const planned = planOf({ ...r, pauses: { ranges: [], months: [] } }, { calendar })
  if (Result.isFailure(planned)) return { moved: false, paused: false, holidays: false }
  const plan = dataOf(planned.success)
  const pauses = planOf(r, { calendar })
  const paused = Result.isSuccess(pauses) ? dataOf(pauses.success) : plan
  let moved = false
  let anyPaused = false
  let holidays = false
  // working days: the dates on weekends alone, to tell whether the calendar's holidays change any
  const weekendsOnly = plan.working
    ? iterate(Result.getOrThrow(planOf({ ...r, pauses: { ranges: [], months: [] } }, { calendar: Calendar.weekends })))
    : undefined
  // each answer is looked for only where it can be yes; the walk stops once every one is known
  const seekMoved = !plan.working && plan.adjusts
  const seekPaused = r.pauses !== undefined && (r.pauses.ranges.length > 0 || r.pauses.months.length > 0)
  let i = 0
  for (const o of iterate(planned.success)) {
    if (i++ >= SAMPLED) break
    if ((moved || !seekMoved) && (anyPaused || !seekPaused) && (holidays || weekendsOnly === undefined)) break
    const isOff = isPaused(paused, o.nominal)
    if (!moved && !plan.working && !WorkingDays.isWorking(plan.calendar, o.nominal)) moved = true
    if (isOff) anyPaused = true
    if (!holidays && weekendsOnly !== undefined && weekendsOnly.next().value?.nominal !== o.nominal) holidays = true
  }
  if (!holidays && weekendsOnly !== undefined && i < SAMPLED && weekendsOnly.next().done !== true) holidays = true
  return { moved, paused: anyPaused, holidays }
}

// one plan kept for the process's life, so that its hidden class and the engine's optimized code stay (internal/plan.ts)
kept.push(
  Result.getOrThrow(makePlan({ frequency: "MNTH", startDate: 1 as LocalDate.LocalDate })) as unknown as PlanData
)
