/**
 * The engine of `Cobs` and the types it works on (its public module re-exports them, holds the lists of codes and
 * documents the functions).
 */
import type * as BusinessDayConvention from "../BusinessDayConvention.ts"
import type * as Decoded from "../Decoded.ts"
import * as LocalDate from "../LocalDate.ts"
import * as Recurrence from "../Recurrence.ts"
import * as Translation from "../Translation.ts"
import * as Standards from "./standards.ts"

/** The schedule fields of a COBS standing order; dates `YYYY-MM-DD`. */
export interface StandingOrder {
  readonly requestedExecutionDate: string
  readonly standingOrder: {
    readonly execution: {
      readonly interval: Interval
      readonly intervalDue?: string | undefined
      readonly mode: Mode
      readonly modeDue?: ModeDue | undefined
    }
    readonly validity?: { readonly lastExecutionDate?: string | undefined; readonly maxIterations?: number | undefined }
    readonly exceptions?: {
      readonly stopages?: ReadonlyArray<string> | undefined
      readonly breaks?: ReadonlyArray<{ readonly validFromDate: string; readonly validToDate: string }> | undefined
    }
  }
}

/**
 * What a record may leave out: the convention without `modeDue` (default `following`), the calendar, and the date to
 * count from when the record has no `requestedExecutionDate` (the list of orders has none), e.g. the listing day.
 */
export interface Options {
  readonly convention?: BusinessDayConvention.BusinessDayConvention | undefined
  readonly calendar?: string | undefined
  readonly start?: LocalDate.LocalDate | undefined
}

/** `execution.interval`. */
export const intervals = [
  "DAILY",
  "WEEKLY",
  "MONTHLY",
  "BI_MONTHLY",
  "QUARTERLY",
  "HALFYEARLY",
  "YEARLY",
  "IRREGULAR"
] as const
/** An `execution.interval`. */
export type Interval = (typeof intervals)[number]

/** `execution.modeDue`: the day itself, the banking day before or after it, or the month's last day. */
export const modeDues = [
  "DUE_DAY_OF_MONTH",
  "DUE_OR_BEFORE_DAY_OF_MONTH",
  "DUE_OR_NEXT_DAY_OF_MONTH",
  "DUE_LAST_DAY_OF_MONTH"
] as const
/** An `execution.modeDue`. */
export type ModeDue = (typeof modeDues)[number]

/** `execution.mode`: how the order ends. */
export const modes = [
  "UNTIL_DATE",
  "UNTIL_CANCELLATION",
  "AFTER_MAX_ITERATION_EXCEEDED",
  "MAX_AMOUNT_EXCEEDED"
] as const
/** An `execution.mode`. */
export type Mode = (typeof modes)[number]

const MONTH_NAMES = [
  "JANUARY",
  "FEBRUARY",
  "MARCH",
  "APRIL",
  "MAY",
  "JUNE",
  "JULY",
  "AUGUST",
  "SEPTEMBER",
  "OCTOBER",
  "NOVEMBER",
  "DECEMBER"
] as const

const STEP: Record<string, number> = { MONTHLY: 1, BI_MONTHLY: 2, QUARTERLY: 3, HALFYEARLY: 6, YEARLY: 12 }

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** An enumerated text, tolerating case (a warning). */
const readEnum = <A extends string>(
  u: unknown,
  values: ReadonlyArray<A>,
  field: string,
  warnings: Array<Decoded.Warning>
): A | "bad" | undefined => {
  if (u === undefined || u === null) return undefined
  if (typeof u !== "string") return "bad"
  const exact = values.find((v) => v === u)
  if (exact !== undefined) return exact
  const loose = values.find((v) => v === u.trim().toUpperCase())
  if (loose === undefined) return "bad"
  warnings.push({ field, received: u, read: loose, why: "the value is upper case" })
  return loose
}

export const decode = (record: unknown, options?: Options): Decoded.Decoded<Recurrence.Recurrence> => {
  const { warnings, done, no } = Standards.decoding()
  if (!isObject(record)) return no("the record is not an object")
  const order = isObject(record.standingOrder) ? record.standingOrder : record
  const execution = isObject(order.execution) ? order.execution : undefined
  if (execution === undefined) return no("the record has no standingOrder.execution")
  const interval = readEnum(execution.interval, intervals, "interval", warnings)
  if (interval === undefined || interval === "bad")
    return no(`interval ${Standards.show(execution.interval)} is not a COBS interval`)
  if (interval === "IRREGULAR") return no("IRREGULAR: the order pays on no schedule")
  const modeDue = readEnum(execution.modeDue, modeDues, "modeDue", warnings)
  if (modeDue === "bad") return no(`modeDue ${Standards.show(execution.modeDue)} is not a COBS modeDue`)
  let due: number | undefined
  if (execution.intervalDue !== undefined && execution.intervalDue !== null) {
    const n = Standards.readInt(execution.intervalDue)
    if (n === undefined || n.value < 1 || n.value > 31)
      return no(`intervalDue ${Standards.show(execution.intervalDue)} is not a day`)
    // a number in the schema, plain text ("25") in every example of the rule book: both read as they are
    if (!n.number && !n.plain) {
      warnings.push({
        field: "intervalDue",
        received: Standards.show(execution.intervalDue),
        read: String(n.value),
        why: "intervalDue is a number (the rule book's examples write it as text without leading zeroes)"
      })
    }
    due = n.value
  }
  const start = Standards.readDate(record.requestedExecutionDate, "requestedExecutionDate", warnings) ?? options?.start
  if (start === undefined)
    return no(
      "the order has no requestedExecutionDate, the date to count from (give it, or a startDate beside the record's fields; in code: the start option)"
    )
  const validity = isObject(order.validity) ? order.validity : {}
  const end = Standards.readDate(validity.lastExecutionDate, "lastExecutionDate", warnings)
  let count: number | undefined
  if (validity.maxIterations !== undefined && validity.maxIterations !== null) {
    const n = Standards.readNumber(validity.maxIterations, "maxIterations", warnings)
    if (n === undefined || n.value < 1 || n.value > 1_000_000)
      return no(`maxIterations ${Standards.show(validity.maxIterations)} is not a count`)
    count = n.value
  }
  // mode is required: without it, or with UNTIL_DATE and no last date, what is read is said, never guessed silently
  const mode = readEnum(execution.mode, modes, "mode", warnings)
  if (mode === "bad") return no(`mode ${Standards.show(execution.mode)} is not a COBS mode`)
  if (mode === undefined) {
    const read =
      end !== undefined ? "UNTIL_DATE" : count !== undefined ? "AFTER_MAX_ITERATION_EXCEEDED" : "UNTIL_CANCELLATION"
    warnings.push({
      field: "mode",
      received: "absent",
      read,
      why: "COBS requires execution.mode: read from the validity fields the record gives"
    })
  } else if (mode === "UNTIL_DATE" && end === undefined) {
    warnings.push({
      field: "lastExecutionDate",
      received: "absent",
      read: "no end",
      why: "mode UNTIL_DATE names no validity.lastExecutionDate: the order is read as never ending"
    })
  } else if (mode === "AFTER_MAX_ITERATION_EXCEEDED" && count === undefined) {
    warnings.push({
      field: "maxIterations",
      received: "absent",
      read: "no count",
      why: "mode AFTER_MAX_ITERATION_EXCEEDED names no validity.maxIterations: the order is read as never ending"
    })
  }
  // exceptions: the schema spells the stopped months "stopages"; its examples "stoppages"
  const exceptions = isObject(order.exceptions) ? order.exceptions : {}
  let stopped = exceptions.stopages
  if (stopped === undefined && exceptions.stoppages !== undefined) {
    stopped = exceptions.stoppages
    warnings.push({
      field: "stopages",
      received: "stoppages",
      read: "stopages",
      why: "the schema names the field stopages"
    })
  }
  const months: Array<number> = []
  for (const m of Array.isArray(stopped) ? stopped : []) {
    const i = typeof m === "string" ? MONTH_NAMES.indexOf(m.trim().toUpperCase() as never) : -1
    if (i < 0) return no(`stopped month ${Standards.show(m)} is not a month name`)
    if (m !== MONTH_NAMES[i])
      warnings.push({ field: "stopages", received: m, read: MONTH_NAMES[i]!, why: "month names are upper case" })
    if (!months.includes(i + 1)) months.push(i + 1)
  }
  months.sort((a, b) => a - b)
  const ranges: Array<{ from: LocalDate.LocalDate; to: LocalDate.LocalDate }> = []
  for (const b of Array.isArray(exceptions.breaks) ? exceptions.breaks : []) {
    const from = isObject(b) ? Standards.readDate(b.validFromDate, "breaks.validFromDate", warnings) : undefined
    const to = isObject(b) ? Standards.readDate(b.validToDate, "breaks.validToDate", warnings) : undefined
    if (from === undefined || to === undefined || to < from)
      return no(`break ${Standards.show(b)} is not a range of dates`)
    ranges.push({ from, to })
  }
  const losses: Array<Translation.Loss> = []
  let rule: Recurrence.Rule
  if (interval === "DAILY") {
    rule = { _tag: "EveryDays", interval: 1 }
    losses.push({
      field: "interval",
      from: "DAILY",
      to: "every calendar day",
      why: "COBS does not say whether DAILY pays on non-banking days: read as every calendar day"
    })
  } else if (interval === "WEEKLY") {
    if (due !== undefined && due > 7) return no(`intervalDue ${due} is not a weekday 1..7`)
    rule = { _tag: "Weekly", interval: 1, weekdays: [due ?? LocalDate.dayOfWeek(start)] }
  } else {
    const step = STEP[interval]!
    let day =
      modeDue === "DUE_LAST_DAY_OF_MONTH"
        ? -1
        : interval === "MONTHLY"
          ? (due ?? LocalDate.day(start))
          : LocalDate.day(start)
    if (interval === "MONTHLY" && due !== undefined && due > 28 && modeDue !== "DUE_LAST_DAY_OF_MONTH") {
      warnings.push({
        field: "intervalDue",
        received: String(due),
        read: String(due),
        why: "COBS allows days 1..28 for MONTHLY"
      })
    }
    // the day the start gives, or the month's last day, says nothing more: no loss
    const same = due === LocalDate.day(start) || (due === 31 && modeDue === "DUE_LAST_DAY_OF_MONTH")
    if (interval !== "MONTHLY" && due !== undefined && !same) {
      losses.push({
        field: "intervalDue",
        from: String(due),
        to: "not defined",
        why: `COBS does not say what intervalDue means for ${interval}: the day and month are read from the start`
      })
    }
    if (day === 31) day = -1
    rule = { _tag: "MonthlyOnDay", interval: step, day, missing: "clamp" }
    // lossy only where a month the rule reaches lacks the day (quarterly from 30 January never does)
    losses.push(...Standards.monthEndLosses("COBS", day, rule, start, end, count))
  }
  if (count !== undefined && (months.length > 0 || ranges.length > 0)) {
    losses.push({
      field: "maxIterations",
      from: String(count),
      to: "paused payments counted",
      why: "COBS does not say whether a stopped payment counts toward maxIterations: read as counted"
    })
  }
  if (isObject(validity.maxAmount) || execution.mode === "MAX_AMOUNT_EXCEEDED") {
    losses.push({
      field: "maxAmount",
      from: isObject(validity.maxAmount)
        ? `${Standards.show(validity.maxAmount.value)} ${Standards.show(validity.maxAmount.currency)}`
        : "a total",
      to: "no end",
      why: "the order ends when the next payment would pass the total: the dates alone cannot say when"
    })
  }
  const convention: BusinessDayConvention.BusinessDayConvention =
    modeDue === "DUE_DAY_OF_MONTH"
      ? "none"
      : modeDue === "DUE_OR_BEFORE_DAY_OF_MONTH"
        ? "preceding"
        : modeDue === "DUE_OR_NEXT_DAY_OF_MONTH"
          ? "following"
          : interval === "DAILY"
            ? "none"
            : (options?.convention ?? "following")
  const own =
    modeDue === "DUE_DAY_OF_MONTH" ||
    modeDue === "DUE_OR_BEFORE_DAY_OF_MONTH" ||
    modeDue === "DUE_OR_NEXT_DAY_OF_MONTH" ||
    interval === "DAILY"
  const pauses = months.length > 0 || ranges.length > 0 ? { pauses: { ranges, months } } : {}
  return done(
    Translation.withLosses(
      { ...Standards.recurrence(rule, start, end, count, convention, options?.calendar), ...pauses },
      losses
    ),
    own
  )
}

export const encode = (recurrence: Recurrence.Recurrence): Translation.Translation<StandingOrder> => {
  const { r, rule, no } = Standards.encoding<StandingOrder>(recurrence, "COBS")
  let interval: Interval
  let intervalDue: number | undefined
  let last = false
  let day: number | undefined
  let selected: ReadonlyArray<number> | undefined
  const candidates: Array<Standards.Candidate> = []
  switch (rule._tag) {
    case "EveryDays":
      if (rule.interval !== 1) return no("DAILY is the only day interval")
      interval = "DAILY"
      candidates.push(
        Standards.everyDayNotDefined("interval", "COBS does not say whether DAILY pays on non-banking days")
      )
      break
    case "EveryWorkingDays":
      return no("no interval counts banking days")
    case "MonthlyOnWeekday":
      return no("no interval names a weekday of the month")
    case "Weekly":
      if (rule.interval !== 1 || rule.weekdays.length !== 1) return no("one weekday every week only")
      interval = "WEEKLY"
      intervalDue = rule.weekdays[0]
      break
    case "MonthlyOnDay": {
      const code = Object.entries(STEP).find(([, step]) => step === rule.interval)?.[0] as Interval | undefined
      if (code === undefined) return no("months step by 1, 2, 3, 6 or 12")
      if (rule.day < -1) return no("of days from the month's end only the last")
      if (rule.months !== undefined && (code !== "MONTHLY" || r.count !== undefined)) {
        return no("selected months only every month, without a count (stopped months may not count)")
      }
      interval = code
      selected = rule.months
      if (rule.day === -1) last = true
      else if (code === "MONTHLY") {
        if (rule.day > 28) return no("MONTHLY takes days 1..28 (or the month's last day)")
        intervalDue = rule.day
      } else day = rule.day
      break
    }
    case "Yearly":
      if (rule.interval !== 1 || rule.dates.length !== 1) return no("one day every year only")
      interval = "YEARLY"
      day = rule.dates[0]!.day
  }
  if (day !== undefined && day >= 29) {
    if (Recurrence.missesDay(r)) {
      candidates.push(
        Standards.missingNotDefined(rule, `COBS does not say when day ${day} is paid in a month without it`)
      )
    }
  }
  let modeDue: ModeDue | undefined
  if (last) {
    // the month's last day takes modeDue: its convention is the bank's, as without modeDue (pass it to decode)
    modeDue = "DUE_LAST_DAY_OF_MONTH"
  } else {
    const c = r.convention
    modeDue =
      c === "none"
        ? "DUE_DAY_OF_MONTH"
        : c.endsWith("preceding")
          ? "DUE_OR_BEFORE_DAY_OF_MONTH"
          : "DUE_OR_NEXT_DAY_OF_MONTH"
    if (c.startsWith("modified-")) {
      const to = c === "modified-following" ? "following" : "preceding"
      candidates.push({
        loss: {
          field: "convention",
          from: c,
          to,
          why: "COBS moves to the banking day before or after, never back into the month"
        },
        apply: (x) => ({ ...x, convention: to })
      })
    }
  }
  // the start: the first occurrence, on the day itself when the day comes from it
  let first = Standards.firstNominal(r)
  if (first === undefined) return Translation.unrepresentable("the recurrence has no occurrence at all")
  if (day !== undefined && LocalDate.day(first) !== day) {
    const moved = Standards.startOnDay(
      r,
      first,
      day,
      `COBS takes the day from requestedExecutionDate: the order starts on the first day ${day}`
    )
    if (moved === undefined) return no(`no occurrence falls on day ${day} to start from`)
    candidates.push(...moved.candidates)
    first = moved.start
  }
  const { losses, target } = Standards.lossesOf(r, candidates)
  const pauses = r.pauses
  const stopped = new Set<number>(pauses?.months ?? [])
  if (selected !== undefined) for (let m = 1; m <= 12; m++) if (!selected.includes(m)) stopped.add(m)
  const breaks = (pauses?.ranges ?? []).map((x) => ({
    validFromDate: LocalDate.format(x.from),
    validToDate: LocalDate.format(x.to)
  }))
  // a count alone stays a count; with an end, or with pauses (which may not count), it becomes the end
  const byCount = r.count !== undefined && r.end === undefined && stopped.size === 0 && breaks.length === 0
  const end = byCount ? undefined : (Standards.lastNominal(target) ?? r.end)
  const mode: Mode = byCount ? "AFTER_MAX_ITERATION_EXCEEDED" : end === undefined ? "UNTIL_CANCELLATION" : "UNTIL_DATE"
  return Translation.withLosses(
    {
      requestedExecutionDate: LocalDate.format(first),
      standingOrder: {
        execution: {
          interval,
          ...(intervalDue === undefined ? {} : { intervalDue: String(intervalDue) }),
          mode,
          modeDue
        },
        ...(byCount
          ? { validity: { maxIterations: r.count! } }
          : end === undefined
            ? {}
            : { validity: { lastExecutionDate: LocalDate.format(end) } }),
        ...(stopped.size === 0 && breaks.length === 0
          ? {}
          : {
              exceptions: {
                ...(stopped.size === 0
                  ? {}
                  : { stopages: [...stopped].sort((a, b) => a - b).map((m) => MONTH_NAMES[m - 1]!) }),
                ...(breaks.length === 0 ? {} : { breaks })
              }
            })
      }
    },
    losses
  )
}
