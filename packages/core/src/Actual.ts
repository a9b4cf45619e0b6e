/**
 * Actual Budget schedules (`RecurConfig`: `frequency`, `interval`, `patterns`, `skipWeekend`, `weekendSolveMode`,
 * `endMode`) from and to `Recurrence`, each way a `Translation` (packages/core/README.md, "Other standards"): an
 * export target first. Actual moves dates off weekends only, never off holidays; what it cannot say is named.
 *
 * @since 0.2.0
 */
import type * as Decoded from "./Decoded.ts"
import * as Standards from "./internal/standards.ts"
import * as LocalDate from "./LocalDate.ts"
import * as Recurrence from "./Recurrence.ts"
import * as Translation from "./Translation.ts"

/** Weekday pattern names, Sunday first as Actual writes them. */
const WEEKDAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"] as const
/** Actual's pattern: a day of the month (−1 the last) or the n-th weekday (−1 the last). */
export interface Pattern {
  readonly type: "day" | (typeof WEEKDAYS)[number]
  readonly value: number
}

/** Actual's `RecurConfig`; dates `YYYY-MM-DD`. */
export interface RecurConfig {
  readonly frequency: "daily" | "weekly" | "monthly" | "yearly"
  readonly interval: number
  readonly patterns?: ReadonlyArray<Pattern> | undefined
  readonly skipWeekend: boolean
  readonly weekendSolveMode: "before" | "after"
  readonly endMode: "never" | "after_n_occurrences" | "on_date"
  readonly endOccurrences?: number | undefined
  readonly endDate?: string | undefined
  readonly start: string
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** ISO weekday (1 Monday … 7 Sunday) of a pattern name. */
const isoOf = (name: string): number => {
  const i = WEEKDAYS.indexOf(name as never)
  return i === 0 ? 7 : i
}

/**
 * The recurrence of a `RecurConfig`: from `start` (the weekday of weekly ones, the day of monthly and yearly ones
 * without patterns); one pattern a month; `skipWeekend` as `following` (after) or `preceding` (before) on the
 * weekends calendar (Actual knows no holidays), else never moved; `endOccurrences` the count, `endDate` the end.
 * Lossy: a day 29–31 in a month without it (not defined; read as the month's last day). Unrepresentable: several
 * patterns a month, no start.
 */
export const decode = (record: unknown): Decoded.Decoded<Recurrence.Recurrence> => {
  const warnings: Array<Decoded.Warning> = []
  const done = (translation: Translation.Translation<Recurrence.Recurrence>) => ({ translation, warnings })
  const no = (reason: string) => done(Translation.unrepresentable(reason))
  if (!isObject(record)) return no("the record is not an object")
  const frequency = record.frequency
  if (frequency === undefined || frequency === null) return no("the record has no frequency")
  if (frequency !== "daily" && frequency !== "weekly" && frequency !== "monthly" && frequency !== "yearly") {
    return no(`${Standards.show(frequency)} is not an Actual frequency`)
  }
  const n = record.interval === undefined ? { value: 1 } : Standards.readNumber(record.interval, "interval", warnings)
  if (n === undefined || n.value < 1 || n.value > 1000)
    return no(`interval ${Standards.show(record.interval)} is not a step`)
  const start = Standards.readDate(record.start, "start", warnings)
  if (start === undefined) return no("the schedule has no start")
  const patterns = Array.isArray(record.patterns) ? record.patterns : []
  const losses: Array<Translation.Loss> = []
  let rule: Recurrence.Rule
  // the day of the month as the pattern or the start gives it (-1: Actual's own last day, which no month lacks)
  let dayOfMonth = 0
  if (frequency === "daily") rule = { _tag: "EveryDays", interval: n.value }
  else if (frequency === "weekly") rule = { _tag: "Weekly", interval: n.value, weekdays: [LocalDate.dayOfWeek(start)] }
  else {
    if (frequency === "yearly" && patterns.length > 0) return no("patterns of a yearly schedule are not defined")
    if (patterns.length > 1) return no("several days a month: tppkit's recurrences have one")
    const p = patterns[0] as Record<string, unknown> | undefined
    const value = p?.value === undefined ? undefined : Standards.readNumber(p.value, "value", warnings)?.value
    if (p?.value !== undefined && value === undefined)
      return no(`pattern value ${Standards.show(p.value)} is not a whole number`)
    const step = frequency === "yearly" ? 12 * n.value : n.value
    if (p !== undefined && p.type !== "day") {
      const weekday = typeof p.type === "string" ? WEEKDAYS.indexOf(p.type as never) : -1
      if (weekday < 0 || value === undefined || value === 0 || value < -5 || value > 5)
        return no(`pattern ${Standards.show(p)} is not a weekday of the month`)
      rule = { _tag: "MonthlyOnWeekday", interval: step, weekday: isoOf(p.type as string), ordinal: value }
    } else {
      const day = value ?? LocalDate.day(start)
      if (!(day === -1 || (day >= 1 && day <= 31))) return no(`pattern day ${day} is not a day of the month`)
      rule = { _tag: "MonthlyOnDay", interval: step, day: day === 31 ? -1 : day, missing: "clamp" }
      dayOfMonth = day
    }
  }
  const skip = record.skipWeekend === true
  const count =
    record.endMode === "after_n_occurrences"
      ? Standards.readNumber(record.endOccurrences, "endOccurrences", warnings)?.value
      : undefined
  if (record.endMode === "after_n_occurrences" && (count === undefined || count < 1))
    return no(`endOccurrences ${Standards.show(record.endOccurrences)} is not a number of payments`)
  const end = record.endMode === "on_date" ? Standards.readDate(record.endDate, "endDate", warnings) : undefined
  // a day 29–31 Actual does not define in a month without it: lossy only where a month the rule reaches lacks it
  const bounds = { ...(end === undefined ? {} : { end }), ...(count === undefined || count < 1 ? {} : { count }) }
  if (dayOfMonth >= 29 && Recurrence.missesDay({ rule, start, ...bounds }, dayOfMonth)) {
    losses.push(Standards.readAsMonthEnd("Actual", dayOfMonth))
  }
  return done(
    Translation.withLosses(
      {
        rule,
        start,
        ...(end === undefined ? {} : { end }),
        ...(count === undefined || count < 1 ? {} : { count }),
        convention: !skip ? "none" : record.weekendSolveMode === "before" ? "preceding" : "following",
        calendar: "weekends"
      },
      losses
    )
  )
}

/**
 * The `RecurConfig` of a recurrence: `start` the first occurrence, one pattern for monthly rules, the convention as
 * `skipWeekend` with `weekendSolveMode`, the count as `after_n_occurrences`, an end as `on_date` (the last
 * occurrence it allows). Lossy: the calendar's holidays (Actual moves off weekends only), the modified conventions,
 * pauses, day 29–31 (not defined; the month's last day is pattern day -1, exact). Unrepresentable: working days, several weekdays, days
 * from the end other than the last, selected months, several days a year.
 */
export const encode = (recurrence: Recurrence.Recurrence): Translation.Translation<RecurConfig> => {
  const { r, rule, no } = Standards.encoding<RecurConfig>(recurrence, "Actual")
  let frequency: RecurConfig["frequency"]
  let interval: number
  let patterns: Array<Pattern> | undefined
  const candidates: Array<Standards.Candidate> = []
  const notDefined = (day: number) =>
    candidates.push(
      Standards.missingNotDefined(rule, `Actual does not say when day ${day} is paid in a month without it`)
    )
  switch (rule._tag) {
    case "EveryDays":
      frequency = "daily"
      interval = rule.interval
      break
    case "EveryWorkingDays":
      return no("Actual has no working days")
    case "Weekly":
      if (rule.weekdays.length !== 1) return no("one weekday a week only")
      frequency = "weekly"
      interval = rule.interval
      break
    case "MonthlyOnWeekday":
      if (rule.months !== undefined) return no("selected months cannot be named")
      frequency = "monthly"
      interval = rule.interval
      patterns = [{ type: WEEKDAYS[rule.weekday % 7]!, value: rule.ordinal }]
      break
    case "MonthlyOnDay":
      if (rule.months !== undefined) return no("selected months cannot be named")
      if (rule.day < -1) return no("of days from the month's end only the last")
      frequency = "monthly"
      interval = rule.interval
      patterns = [{ type: "day", value: rule.day }]
      // day -1 is Actual's own "last day" (decode reads it exactly): only days 29–31 can miss a month
      if (rule.day >= 29 && Recurrence.missesDay(r)) notDefined(rule.day)
      break
    case "Yearly":
      if (rule.dates.length !== 1) return no("one day a year only")
      frequency = "yearly"
      interval = rule.interval
      if (Recurrence.missesDay(r)) notDefined(29)
  }
  const modified = r.convention === "modified-following" || r.convention === "modified-preceding"
  if (modified) {
    const to = r.convention === "modified-following" ? "following" : "preceding"
    candidates.push({
      loss: {
        field: "convention",
        from: r.convention,
        to,
        why: "Actual moves off weekends, never back into the month"
      },
      apply: (x) => ({ ...x, convention: to })
    })
  }
  if (r.convention !== "none" && r.calendar !== "weekends") {
    candidates.push({
      loss: {
        field: "calendar",
        from: r.calendar ?? "target",
        to: "weekends",
        why: "Actual moves dates off weekends only, not off holidays"
      },
      apply: (x) => ({ ...x, calendar: "weekends" })
    })
  }
  candidates.push(...Standards.pausesLost(r, "Actual cannot pause a schedule"))
  let first = Standards.firstNominal(r)
  if (first === undefined) return Translation.unrepresentable("the recurrence has no occurrence at all")
  // a yearly schedule takes its day from start: 29 February starts on the first 29 February
  if (rule._tag === "Yearly" && LocalDate.day(first) !== rule.dates[0]!.day) {
    const moved = Standards.startOnDay(r, first, rule.dates[0]!.day, "Actual takes a yearly schedule's day from start")
    if (moved === undefined) return no("no occurrence falls on the day itself to start from")
    candidates.push(...moved.candidates)
    first = moved.start
  }
  const { losses, target } = Standards.lossesOf(r, candidates)
  const byCount = r.count !== undefined && r.end === undefined
  const end = byCount ? undefined : (Standards.lastNominal(target) ?? r.end)
  const skip = r.convention !== "none"
  return Translation.withLosses(
    {
      frequency,
      interval,
      ...(patterns === undefined ? {} : { patterns }),
      skipWeekend: skip,
      weekendSolveMode: r.convention.endsWith("preceding") ? "before" : "after",
      endMode: byCount ? "after_n_occurrences" : end === undefined ? "never" : "on_date",
      ...(byCount ? { endOccurrences: r.count! } : {}),
      ...(end === undefined ? {} : { endDate: LocalDate.format(end) }),
      start: LocalDate.format(first)
    },
    losses
  )
}
