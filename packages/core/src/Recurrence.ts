/**
 * One recurrence model for standing orders of every standard (packages/core/README.md, "Recurrences"): what the
 * bank's seven codes, RFC 5545 RRULEs and the other standards' schedule fields can say, as one Schema-backed value.
 * The bank's codes are values of it ({@link fromSbas}); `Occurrence.planOf` projects any of it with one engine, and
 * `Sbas` / `Rrule` translate it to and from text, reporting every loss.
 *
 * @since 0.2.0
 */
import { Result, Schema } from "effect"
import * as BusinessDayConvention from "./BusinessDayConvention.ts"
import type * as Frequency from "./Frequency.ts"
import * as LocalDate from "./LocalDate.ts"

// ---------------------------------------------------------------------------
// parts
// ---------------------------------------------------------------------------

/** A whole number from 1 up to 10,000 (an interval, a count). */
export const Positive = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10_000 }))

/** An ISO weekday: 1 = Monday … 7 = Sunday. */
export const Weekday = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 7 }))

/** A month of the year, 1 = January … 12 = December. */
export const Month = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 12 }))

/** Whether a list of numbers is strictly ascending (sorted, no repeats). */
const ascending = (xs: ReadonlyArray<number>): boolean => xs.every((x, i) => i === 0 || xs[i - 1]! < x)

/** A non-empty list of weekdays, ascending. */
export const Weekdays = Schema.NonEmptyArray(Weekday).check(
  Schema.makeFilter((xs: ReadonlyArray<number>) => ascending(xs) || "weekdays must be ascending and distinct")
)

/** A non-empty list of months, ascending. */
export const Months = Schema.NonEmptyArray(Month).check(
  Schema.makeFilter((xs: ReadonlyArray<number>) => ascending(xs) || "months must be ascending and distinct")
)

/**
 * A day of the month: 1–31 counted from the month's start, or −1 (the last day) … −28 counted from its end
 * (every month has at least 28 days, so a day counted from the end always exists).
 */
export const MonthDay = Schema.Int.check(
  Schema.makeFilter(
    (n: number) => (n >= 1 && n <= 31) || (n >= -28 && n <= -1) || `day ${n} is neither 1..31 nor -1..-28`
  )
)

/**
 * How a month that lacks the day is treated (day 29–31, or 29 February in a common year): `clamp` takes the month's
 * last day (the bank's rule, RFC 7529 `SKIP=BACKWARD`), `skip` pays nothing that month (RFC 5545's rule, RFC 7529
 * `SKIP=OMIT`), `forward` pays on the first day of the next month (RFC 7529 `SKIP=FORWARD`).
 */
export const MissingDay = Schema.Literals(["clamp", "skip", "forward"])
/** How a month that lacks the day is treated. */
export type MissingDay = typeof MissingDay.Type

/** A day of the year: month and day of month (29 February allowed; the missing-day rule covers common years). */
export const YearDay = Schema.Struct({
  month: Month,
  day: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 31 }))
}).check(
  Schema.makeFilter(
    (d: { readonly month: number; readonly day: number }) =>
      d.day <= LocalDate.daysInMonth(2000, d.month) || `day ${d.day} does not exist in month ${d.month}`
  )
)
/** A day of the year. */
export type YearDay = typeof YearDay.Type

// ---------------------------------------------------------------------------
// the rules
// ---------------------------------------------------------------------------

/** Every `interval` calendar days (the bank's `DAI7` is interval 1). */
export const EveryDays = Schema.TaggedStruct("EveryDays", { interval: Positive })

/** Every `interval`-th working day of the calendar (the bank's `DAIL` is interval 1). */
export const EveryWorkingDays = Schema.TaggedStruct("EveryWorkingDays", { interval: Positive })

/** Every `interval` weeks (weeks start on Monday) on the given weekdays (the bank's `WEEK`: interval 1, one day). */
export const Weekly = Schema.TaggedStruct("Weekly", { interval: Positive, weekdays: Weekdays })

/**
 * Every `interval` months on a day of the month (from the start, or from the end), in the selected months only
 * when `months` is given (the bank's `MNTH` / `QUTR` / `SEMI`: interval 1 / 3 / 6 on the start's day).
 */
export const MonthlyOnDay = Schema.TaggedStruct("MonthlyOnDay", {
  interval: Positive,
  day: MonthDay,
  missing: MissingDay,
  months: Schema.optionalKey(Months)
})

/**
 * Every `interval` months on the `ordinal`-th given weekday of the month (1–5 from the start, −1 the last … −5 from
 * the end), in the selected months only when `months` is given; a month without a fifth such weekday is skipped
 * (as RFC 5545 does).
 */
export const MonthlyOnWeekday = Schema.TaggedStruct("MonthlyOnWeekday", {
  interval: Positive,
  weekday: Weekday,
  ordinal: Schema.Int.check(
    Schema.makeFilter((n: number) => (n >= 1 && n <= 5) || (n >= -5 && n <= -1) || `ordinal ${n} is not ±1..±5`)
  ),
  months: Schema.optionalKey(Months)
})

/** Whether the days of a year are ascending and never collide once the missing-day rule moves 29 February. */
const yearDaysProblem = (dates: ReadonlyArray<YearDay>, missing: MissingDay): string | undefined => {
  for (let i = 1; i < dates.length; i++) {
    const a = dates[i - 1]!
    const b = dates[i]!
    if (a.month > b.month || (a.month === b.month && a.day >= b.day)) return "dates must be ascending and distinct"
  }
  const has = (month: number, day: number) => dates.some((d) => d.month === month && d.day === day)
  if (has(2, 29) && missing === "clamp" && has(2, 28)) return "29 February clamped and 28 February would pay twice"
  if (has(2, 29) && missing === "forward" && has(3, 1)) return "29 February moved forward and 1 March would pay twice"
  return undefined
}

/** Every `interval` years on the given days of the year (the bank's `YEAR`: interval 1 on the start's day). */
export const Yearly = Schema.TaggedStruct("Yearly", {
  interval: Positive,
  dates: Schema.NonEmptyArray(YearDay),
  missing: MissingDay
}).check(
  Schema.makeFilter(
    (r: { readonly dates: ReadonlyArray<YearDay>; readonly missing: MissingDay }) =>
      yearDaysProblem(r.dates, r.missing) ?? true
  )
)

/** The shape of a recurrence: which dates it names. */
export const Rule = Schema.Union([EveryDays, EveryWorkingDays, Weekly, MonthlyOnDay, MonthlyOnWeekday, Yearly])
/** The shape of a recurrence. */
export type Rule = typeof Rule.Type

/** A range of dates without payments, both ends inclusive. */
export const PauseRange = Schema.Struct({ from: LocalDate.LocalDate, to: LocalDate.LocalDate }).check(
  Schema.makeFilter(
    (r: { readonly from: number; readonly to: number }) => r.from <= r.to || "a pause must not end before it starts"
  )
)

/**
 * Times without payments: date ranges and months of every year. A paused occurrence is not paid but still counts
 * towards `count` and keeps its number (as an RFC 5545 `EXDATE` does); it is matched on its nominal date.
 */
export const Pauses = Schema.Struct({
  ranges: Schema.Array(PauseRange),
  months: Schema.Array(Month)
})
/** Times without payments. */
export type Pauses = typeof Pauses.Type

/**
 * A recurrence: its rule; `start`, from which dates count (the first occurrence is the rule's first date on or after
 * it); optional `end` (the last nominal date allowed, inclusive) and `count` (at most that many occurrences); the
 * business-day convention that moves a nominal date off a non-working day and the calendar's name (absent: the
 * projection's calendar); and pauses.
 */
export const Recurrence = Schema.Struct({
  rule: Rule,
  start: LocalDate.LocalDate,
  end: Schema.optionalKey(LocalDate.LocalDate),
  count: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1_000_000 }))),
  convention: BusinessDayConvention.BusinessDayConvention,
  calendar: Schema.optionalKey(Schema.String),
  pauses: Schema.optionalKey(Pauses)
})

/** A recurrence (the decoded value: dates are day numbers). */
export type Recurrence = typeof Recurrence.Type

/** The recurrence from its JSON form (dates `YYYY-MM-DD`), or the schema's message. */
export const decodeJson = (u: unknown): Result.Result<Recurrence, string> => {
  const r = Schema.decodeUnknownResult(Recurrence)(u)
  return Result.isSuccess(r) ? Result.succeed(r.success) : Result.fail(String(r.failure))
}

/** The JSON form of a recurrence (dates as `YYYY-MM-DD`). */
export const encodeJson = (r: Recurrence): unknown => Schema.encodeSync(Recurrence)(r)

// ---------------------------------------------------------------------------
// the bank's codes as values
// ---------------------------------------------------------------------------

/** The settings the bank's codes leave to the bank: convention (default `following`) and calendar name. */
export interface SbasOptions {
  readonly convention?: BusinessDayConvention.BusinessDayConvention | undefined
  readonly calendar?: string | undefined
}

/** The fields of a standing order that say when it pays (docs/bank-interface.md, "Standing-order list"). */
export interface SbasSchedule {
  readonly frequency: Frequency.Frequency
  readonly startDate?: LocalDate.LocalDate | undefined
  readonly nextDate?: LocalDate.LocalDate | undefined
  readonly endDate?: LocalDate.LocalDate | undefined
}

/**
 * The rule a bank code names for an anchor (packages/core/README.md, "Nominal dates"): DAIL every working day, DAI7
 * every day, WEEK the anchor's weekday weekly, MNTH / QUTR / SEMI every 1 / 3 / 6 months and YEAR yearly on the
 * anchor's day, clamped to shorter months.
 */
export const ruleOfCode = (frequency: Frequency.Frequency, anchor: LocalDate.LocalDate): Rule => {
  switch (frequency) {
    case "DAIL":
      return { _tag: "EveryWorkingDays", interval: 1 }
    case "DAI7":
      return { _tag: "EveryDays", interval: 1 }
    case "WEEK":
      return { _tag: "Weekly", interval: 1, weekdays: [LocalDate.dayOfWeek(anchor)] }
    case "MNTH":
    case "QUTR":
    case "SEMI": {
      const interval = frequency === "MNTH" ? 1 : frequency === "QUTR" ? 3 : 6
      return { _tag: "MonthlyOnDay", interval, day: LocalDate.day(anchor), missing: "clamp" }
    }
    case "YEAR": {
      const { month, day } = LocalDate.toParts(anchor)
      return { _tag: "Yearly", interval: 1, dates: [{ month, day }], missing: "clamp" }
    }
  }
}

/**
 * A bank code's recurrence: the fields of a {@link Recurrence} (own properties, as a plain one has them) and, unseen
 * by anything but {@link code}, the code it says, so that the engine plans it on the code's own arithmetic. A copy
 * (`{ ...r }`) is a plain recurrence with the same dates, planned by the general path.
 */
class CodeRecurrence {
  declare readonly rule: Rule
  declare readonly start: LocalDate.LocalDate
  declare readonly end?: LocalDate.LocalDate
  declare readonly convention: BusinessDayConvention.BusinessDayConvention
  declare readonly calendar?: string
  readonly #code: Frequency.Frequency
  constructor(
    code: Frequency.Frequency,
    rule: Rule,
    start: LocalDate.LocalDate,
    end: LocalDate.LocalDate | undefined,
    convention: BusinessDayConvention.BusinessDayConvention,
    calendar: string | undefined
  ) {
    this.#code = code
    ;(this as { rule: Rule }).rule = rule
    ;(this as { start: LocalDate.LocalDate }).start = start
    if (end !== undefined) (this as { end?: LocalDate.LocalDate }).end = end
    ;(this as { convention: BusinessDayConvention.BusinessDayConvention }).convention = convention
    if (calendar !== undefined) (this as { calendar?: string }).calendar = calendar
  }
  static codeOf(r: Recurrence): Frequency.Frequency | undefined {
    return #code in r ? (r as CodeRecurrence).#code : undefined
  }
}

/**
 * A standing order's schedule as a recurrence (packages/core/README.md, "Anchor", "Nominal dates", "Execution dates"):
 * anchored on `startDate`, else `nextDate`; `endDate` kept; DAIL and DAI7 never moved (convention `none`), the others
 * with the given convention (default `following`). Fails with the reason when neither date is there. The recurrence
 * remembers its code ({@link code}): `Occurrence.planOf` plans it on the code's fast path.
 */
export const fromSbas = (order: SbasSchedule, options?: SbasOptions): Result.Result<Recurrence, string> => {
  const anchor = order.startDate ?? order.nextDate
  if (anchor === undefined) return Result.fail("the order has neither startDate nor nextDate to anchor its schedule")
  const moves = order.frequency !== "DAIL" && order.frequency !== "DAI7"
  const convention = moves ? (options?.convention ?? BusinessDayConvention.defaultConvention) : "none"
  return Result.succeed(
    new CodeRecurrence(
      order.frequency,
      ruleOfCode(order.frequency, anchor),
      anchor,
      order.endDate,
      convention,
      options?.calendar
    )
  )
}

/**
 * The bank's code a recurrence was made from ({@link fromSbas}), or `undefined` for any other recurrence (one decoded,
 * written by hand or copied: the same dates may be said without a code).
 */
export const code = (r: Recurrence): Frequency.Frequency | undefined => CodeRecurrence.codeOf(r)

/**
 * The recurrence moved by `convention` (packages/core/README.md, "Execution dates"): the same rule and dates, another
 * convention; a bank code's recurrence stays one ({@link code} still says its code), any other is copied.
 */
export const withConvention = (r: Recurrence, convention: BusinessDayConvention.BusinessDayConvention): Recurrence => {
  if (r.convention === convention) return r
  const c = CodeRecurrence.codeOf(r)
  return c === undefined ? { ...r, convention } : new CodeRecurrence(c, r.rule, r.start, r.end, convention, r.calendar)
}

// ---------------------------------------------------------------------------
// queries
// ---------------------------------------------------------------------------

/** Whether a rule's nominal dates are working days by construction, so that no convention ever moves them. */
export const onWorkingDaysOnly = (rule: Rule): boolean => rule._tag === "EveryWorkingDays"

/** Whether some month (or year) can lack the rule's day, so that the missing-day rule matters. */
export const canMissDay = (rule: Rule): boolean => {
  switch (rule._tag) {
    case "MonthlyOnDay":
      return rule.day >= 29
    case "Yearly":
      return rule.dates.some((d) => d.month === 2 && d.day === 29)
    default:
      return false
  }
}

/** The Gregorian calendar repeats every 400 years: 4,800 months. */
const CYCLE_MONTHS = 4_800

/**
 * Whether some month (or year) the recurrence reaches lacks its day, so that its missing-day rule changes a date:
 * from its start, by its interval, in its selected months, up to its end and count (each month counted as the clamp
 * counts it, and a 1 March that `forward` pays on or after the start), up to 9999. Quarterly from 30 January reaches January, April, July and October, which all have a 30th:
 * no month lacks it. `day` replaces the rule's day (−1, the month's last day, written by a target as 31, say).
 * Pauses are not looked at (a paused month that lacks the day still counts).
 */
export const missesDay = (r: Pick<Recurrence, "rule" | "start" | "end" | "count">, day?: number): boolean => {
  const rule = r.rule
  const end = r.end ?? LocalDate.MAX
  const count = r.count ?? Number.POSITIVE_INFINITY
  const start = LocalDate.toParts(r.start)
  if (rule._tag === "MonthlyOnDay") {
    const d = day ?? rule.day
    if (d < 29) return false
    const origin = start.year * 12 + start.month - 1
    let paid = 0
    // the months reached, counted from the origin modulo the calendar's 4,800, repeat within 4,800 steps
    for (let k = 0, off = 0; k <= CYCLE_MONTHS && paid < count; k++, off += rule.interval) {
      const year = Math.floor((origin + off) / 12)
      const month = ((origin + off) % 12) + 1
      if (year > 9999) return false
      if (rule.months !== undefined && !rule.months.includes(month)) continue
      const last = LocalDate.daysInMonth(year, month)
      if (last < d) return LocalDate.fromPartsUnchecked(year, month, last) <= end
      const date = LocalDate.fromPartsUnchecked(year, month, d)
      if (date < r.start) continue
      if (date > end) return false
      paid++
    }
    return false
  }
  if (rule._tag === "Yearly") {
    if (!rule.dates.some((x) => x.month === 2 && x.day === 29)) return false
    let paid = 0
    // the years reached, modulo the calendar's 400, repeat within 400 steps
    for (let k = 0, year = start.year; k <= 400 && year <= 9999 && paid < count; k++, year += rule.interval) {
      for (const x of rule.dates) {
        if (paid >= count) return false
        if (x.month === 2 && x.day === 29 && !LocalDate.isLeapYear(year)) {
          const last = LocalDate.fromPartsUnchecked(year, 2, 28)
          if (last >= r.start) return last <= end
          // moved forward, the year's date is 1 March: on or after a start that the clamp's 28 February is before
          if (rule.missing === "forward" && last + 1 >= r.start) return last + 1 <= end
          continue
        }
        const date = LocalDate.fromPartsUnchecked(year, x.month, x.day)
        if (date < r.start) continue
        if (date > end) return false
        paid++
      }
    }
    return false
  }
  return false
}

/**
 * The canonical form of a recurrence: the same dates, one spelling. Day 31 clamped becomes day −1 (both are the
 * month's last day); a missing-day rule that cannot matter becomes `clamp`; selected months covering the whole year
 * are dropped; empty pauses are dropped; a convention that cannot move a working-day rule becomes `none`.
 */
export const canonical = (r: Recurrence): Recurrence => {
  let rule: Rule = r.rule
  if (rule._tag === "MonthlyOnDay") {
    const months = rule.months !== undefined && rule.months.length < 12 ? rule.months : undefined
    const day = rule.day === 31 && rule.missing === "clamp" ? -1 : rule.day
    const missing: MissingDay = day >= 29 ? rule.missing : "clamp"
    rule = { _tag: "MonthlyOnDay", interval: rule.interval, day, missing, ...(months ? { months } : {}) }
  } else if (rule._tag === "MonthlyOnWeekday") {
    const months = rule.months !== undefined && rule.months.length < 12 ? rule.months : undefined
    rule = {
      _tag: "MonthlyOnWeekday",
      interval: rule.interval,
      weekday: rule.weekday,
      ordinal: rule.ordinal,
      ...(months ? { months } : {})
    }
  } else if (rule._tag === "Yearly" && !canMissDay(rule)) {
    rule = { ...rule, missing: "clamp" }
  }
  const pauses =
    r.pauses !== undefined && (r.pauses.ranges.length > 0 || r.pauses.months.length > 0) ? r.pauses : undefined
  const { pauses: _p, rule: _r, ...rest } = r
  return {
    ...rest,
    rule,
    convention: onWorkingDaysOnly(rule) ? "none" : r.convention,
    ...(pauses === undefined ? {} : { pauses })
  }
}

/** 1st, 2nd, 3rd, 4th, 11th, 21st …: an ordinal in English, for reasons. */
const ordinal = (n: number): string => {
  const tens = n % 100
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th")
  return `${n}${suffix}`
}

/** The k-th weekday of a month in words: "2nd Tuesday", "last Friday", "3rd-to-last Monday". */
const weekdayOfMonth = (k: number, name: string | undefined): string =>
  k > 0 ? `${ordinal(k)} ${name}` : k === -1 ? `last ${name}` : `${ordinal(-k)}-to-last ${name}`

/** A rule in a few words, for reasons. */
export const describe = (rule: Rule): string => {
  const every = (n: number, unit: string) => (n === 1 ? `every ${unit}` : `every ${n} ${unit}s`)
  const names = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
  const months = (ms: ReadonlyArray<number> | undefined) => (ms === undefined ? "" : ` in months ${ms.join(",")}`)
  switch (rule._tag) {
    case "EveryDays":
      return every(rule.interval, "day")
    case "EveryWorkingDays":
      return rule.interval === 1 ? "every working day" : `every ${ordinal(rule.interval)} working day`
    case "Weekly":
      return `${every(rule.interval, "week")} on ${rule.weekdays.map((w) => names[w - 1]).join(", ")}`
    case "MonthlyOnDay":
      return `${every(rule.interval, "month")} on day ${rule.day}${months(rule.months)}`
    case "MonthlyOnWeekday":
      return `${every(rule.interval, "month")} on the ${weekdayOfMonth(rule.ordinal, names[rule.weekday - 1])}${months(rule.months)}`
    case "Yearly":
      return `${every(rule.interval, "year")} on ${rule.dates.map((d) => `${d.month}-${d.day}`).join(", ")}`
  }
}
