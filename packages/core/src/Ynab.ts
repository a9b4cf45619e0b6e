/**
 * YNAB scheduled transactions (`frequency`, `date_first`) from and to `Recurrence`, each way a `Translation`
 * (packages/core/README.md, "Other standards"): an export target first. YNAB schedules have no end and no working-day
 * rule; what they cannot say is named, never rounded to a nearby cadence (no "every 15 days" for twice a month).
 *
 * @since 0.2.0
 */
import type * as Decoded from "./Decoded.ts"
import * as Standards from "./internal/standards.ts"
import * as LocalDate from "./LocalDate.ts"
import * as Recurrence from "./Recurrence.ts"
import * as Translation from "./Translation.ts"

/** YNAB's `ScheduledTransactionFrequency`. */
export const frequencies = [
  "never",
  "daily",
  "weekly",
  "everyOtherWeek",
  "twiceAMonth",
  "every4Weeks",
  "monthly",
  "everyOtherMonth",
  "every3Months",
  "every4Months",
  "twiceAYear",
  "yearly",
  "everyOtherYear"
] as const
/** A YNAB frequency. */
export type Frequency = (typeof frequencies)[number]

/** A YNAB scheduled transaction's schedule: its frequency and first date (`YYYY-MM-DD`). */
export interface ScheduledTransaction {
  readonly frequency: Frequency
  readonly date_first: string
}

const WEEKS: Partial<Record<Frequency, number>> = { weekly: 1, everyOtherWeek: 2, every4Weeks: 4 }
const MONTHS: Partial<Record<Frequency, number>> = {
  monthly: 1,
  everyOtherMonth: 2,
  every3Months: 3,
  every4Months: 4,
  twiceAYear: 6,
  yearly: 12,
  everyOtherYear: 24
}

/**
 * The recurrence of a YNAB schedule: from `date_first`, which carries the weekday or the day of the month; never
 * moved (YNAB has no working-day rule). Lossy: a day 29–31 in a month without it (YNAB does not say; read as the
 * month's last day). Unrepresentable: `never` (one payment, not a schedule), `twiceAMonth` (the second day is not
 * given), no first date.
 */
export const decode = (record: unknown): Decoded.Decoded<Recurrence.Recurrence> => {
  const warnings: Array<Decoded.Warning> = []
  const done = (translation: Translation.Translation<Recurrence.Recurrence>) => ({ translation, warnings })
  if (typeof record !== "object" || record === null)
    return done(Translation.unrepresentable("the record is not an object"))
  const o = record as Record<string, unknown>
  if (o.frequency === undefined || o.frequency === null)
    return done(Translation.unrepresentable("the record has no frequency"))
  const frequency = frequencies.find((f) => f === o.frequency)
  if (frequency === undefined)
    return done(Translation.unrepresentable(`${Standards.show(o.frequency)} is not a YNAB frequency`))
  if (frequency === "never") return done(Translation.unrepresentable("never: one transaction, not a schedule"))
  if (frequency === "twiceAMonth")
    return done(Translation.unrepresentable("twiceAMonth: YNAB does not give the second day"))
  const start = Standards.readDate(o.date_first, "date_first", warnings)
  if (start === undefined) return done(Translation.unrepresentable("the schedule has no date_first"))
  const weeks = WEEKS[frequency]
  const months = MONTHS[frequency]
  const losses: Array<Translation.Loss> = []
  let rule: Recurrence.Rule
  if (frequency === "daily") rule = { _tag: "EveryDays", interval: 1 }
  else if (weeks !== undefined) rule = { _tag: "Weekly", interval: weeks, weekdays: [LocalDate.dayOfWeek(start)] }
  else {
    const day = LocalDate.day(start)
    rule = { _tag: "MonthlyOnDay", interval: months!, day, missing: "clamp" }
    // lossy only where a month the rule reaches lacks the day (quarterly from 30 January never does)
    if (Recurrence.missesDay({ rule, start })) {
      losses.push(Standards.readAsMonthEnd("YNAB", day))
    }
  }
  return done(Translation.withLosses({ rule, start, convention: "none" }, losses))
}

/**
 * The YNAB schedule of a recurrence: `date_first` the first occurrence, on the day itself for month steps. Lossy: the
 * end and count (YNAB schedules do not end), the convention (never moved), pauses, a day 29–31 (not defined), a start
 * moved to the first occurrence on the day itself. Unrepresentable: working days, other steps, several days a
 * period, weekdays of the month, days from the end other than the last, selected months.
 */
export const encode = (recurrence: Recurrence.Recurrence): Translation.Translation<ScheduledTransaction> => {
  const { r, rule, no } = Standards.encoding<ScheduledTransaction>(recurrence, "YNAB")
  let frequency: Frequency | undefined
  let day: number | undefined
  switch (rule._tag) {
    case "EveryDays":
      frequency =
        rule.interval === 1
          ? "daily"
          : rule.interval === 7
            ? "weekly"
            : rule.interval === 14
              ? "everyOtherWeek"
              : rule.interval === 28
                ? "every4Weeks"
                : undefined
      if (frequency === undefined) return no("days step by 1, 7, 14 or 28")
      break
    case "EveryWorkingDays":
      return no("YNAB has no working days")
    case "MonthlyOnWeekday":
      return no("YNAB has no weekday of the month")
    case "Weekly":
      frequency = (Object.entries(WEEKS) as Array<[Frequency, number]>).find(([, n]) => n === rule.interval)?.[0]
      if (frequency === undefined || rule.weekdays.length !== 1) return no("one weekday every 1, 2 or 4 weeks only")
      break
    case "MonthlyOnDay":
      frequency = (Object.entries(MONTHS) as Array<[Frequency, number]>).find(([, n]) => n === rule.interval)?.[0]
      if (frequency === undefined) return no("months step by 1, 2, 3, 4, 6, 12 or 24")
      if (rule.months !== undefined) return no("selected months cannot be named")
      if (rule.day < -1) return no("days from the month's end cannot be named")
      day = rule.day
      break
    case "Yearly":
      if (rule.dates.length !== 1 || rule.interval > 2) return no("one day every 1 or 2 years only")
      frequency = rule.interval === 1 ? "yearly" : "everyOtherYear"
      day = rule.dates[0]!.day
  }
  const candidates: Array<Standards.Candidate> = []
  // a YNAB schedule does not end: the months reached are those of the rule without its end and count
  if (day !== undefined && Recurrence.missesDay({ rule, start: r.start }, day === -1 ? 31 : undefined)) {
    candidates.push(Standards.missingNotDefined(rule, "YNAB does not say when a day is paid in a month without it"))
  }
  candidates.push(...Standards.conventionLost(r, "YNAB has no working-day rule"))
  candidates.push(...Standards.pausesLost(r, "YNAB cannot pause a schedule"))
  if (r.end !== undefined || r.count !== undefined) {
    const last = Standards.lastNominal(r)
    candidates.push({
      loss: {
        field: "end",
        from: last === undefined ? "no occurrence" : LocalDate.format(last),
        to: "none",
        why: "YNAB schedules do not end"
      },
      apply: (x) => {
        const { end: _e, count: _c, ...rest } = x
        return rest
      }
    })
  }
  let first = Standards.firstNominal(r)
  if (first === undefined) return Translation.unrepresentable("the recurrence has no occurrence at all")
  // the month's last day is written as day 31
  const wanted = day === -1 ? 31 : day
  if (wanted !== undefined) {
    const moved = Standards.startOnDay(
      r,
      first,
      wanted,
      "YNAB takes the day from date_first: the schedule starts on the day itself"
    )
    if (moved === undefined) return no(`no occurrence falls on day ${wanted} to start from`)
    candidates.push(...moved.candidates)
    first = moved.start
  }
  const { losses } = Standards.lossesOf(r, candidates)
  return Translation.withLosses({ frequency, date_first: LocalDate.format(first) }, losses)
}
