/**
 * Berlin Group NextGenPSD2 1.3.x standing orders (`standingOrderDetails` of a transaction read with booking status
 * `information`, and periodic payments: `frequency`, `dayOfExecution`, `executionRule`, `withinAMonthFlag`,
 * `monthsOfExecution`, `multiplicator`, `startDate`, `endDate`) to and from `Recurrence`, each way a `Translation`
 * (packages/core/README.md, "Other standards"). Written here: no library translates these fields.
 *
 * @since 0.2.0
 */
import type * as BusinessDayConvention from "./BusinessDayConvention.ts"
import type * as Decoded from "./Decoded.ts"
import * as Standards from "./internal/standards.ts"
import * as LocalDate from "./LocalDate.ts"
import * as Recurrence from "./Recurrence.ts"
import * as Translation from "./Translation.ts"

/** The Berlin Group frequency codes (the names of ISO 20022 EventFrequency7Code). */
export const frequencies = [
  "Daily",
  "Weekly",
  "EveryTwoWeeks",
  "Monthly",
  "EveryTwoMonths",
  "Quarterly",
  "SemiAnnual",
  "Annual",
  "MonthlyVariable"
] as const
/** A Berlin Group frequency code. */
export type FrequencyCode = (typeof frequencies)[number]

/** The schedule fields of `standingOrderDetails` (and of a periodic payment); dates `YYYY-MM-DD`. */
export interface StandingOrderDetails {
  readonly startDate: string
  readonly endDate?: string | undefined
  readonly frequency: FrequencyCode
  readonly executionRule?: "following" | "preceding" | undefined
  readonly withinAMonthFlag?: boolean | undefined
  readonly monthsOfExecution?: ReadonlyArray<string> | undefined
  readonly multiplicator?: number | undefined
  readonly dayOfExecution?: string | undefined
}

/** What a record leaves to the bank: the convention when `executionRule` is absent (default `following`), the calendar. */
export interface Options {
  readonly convention?: BusinessDayConvention.BusinessDayConvention | undefined
  readonly calendar?: string | undefined
}

/** Months each code steps by (MonthlyVariable: every month, the listed ones only). */
const STEP: Record<FrequencyCode, number> = {
  Daily: 0,
  Weekly: 0,
  EveryTwoWeeks: 0,
  Monthly: 1,
  EveryTwoMonths: 2,
  Quarterly: 3,
  SemiAnnual: 6,
  Annual: 12,
  MonthlyVariable: 1
}

const FIELDS = [
  "startDate",
  "endDate",
  "frequency",
  "executionRule",
  "withinAMonthFlag",
  "monthsOfExecution",
  "multiplicator",
  "dayOfExecution"
] as const

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * The schedule fields of a record: a transaction's `additionalInformationStructured.standingOrderDetails`, a
 * `standingOrderDetails` object, or the record itself. A transaction's fields found outside `standingOrderDetails`
 * (as the standard's own example has them) are taken, each with a warning.
 */
const fieldsOf = (record: Record<string, unknown>, warnings: Array<Decoded.Warning>): Record<string, unknown> => {
  const info = isObject(record.additionalInformationStructured) ? record.additionalInformationStructured : undefined
  const details = isObject(info?.standingOrderDetails)
    ? info.standingOrderDetails
    : isObject(record.standingOrderDetails)
      ? record.standingOrderDetails
      : undefined
  if (details === undefined) return { ...record }
  const out: Record<string, unknown> = { ...details }
  for (const field of FIELDS) {
    if (out[field] !== undefined) continue
    const outside = info?.[field] ?? record[field]
    if (outside === undefined) continue
    out[field] = outside
    warnings.push({
      field,
      received: Standards.show(outside),
      read: `standingOrderDetails.${field}`,
      why: "the field belongs inside standingOrderDetails"
    })
  }
  return out
}

/** Day 1..31 of `dayOfExecution`, tolerating leading zeroes ("01", older 1.3 versions) and numbers. */
const readDay = (u: unknown, warnings: Array<Decoded.Warning>): number | "bad" | undefined => {
  if (u === undefined || u === null) return undefined
  const n = Standards.readInt(u)
  if (n === undefined || n.value < 1 || n.value > 31) return "bad"
  if (!n.plain) {
    warnings.push({
      field: "dayOfExecution",
      received: Standards.show(u),
      read: String(n.value),
      why: n.number ? "dayOfExecution is text, not a number" : "dayOfExecution is text without leading zeroes"
    })
  }
  return n.value
}

/**
 * The recurrence of a Berlin Group standing order (a record of unknown shape). `startDate` is where dates start
 * (the first payment is the rule's first date on or after it); the weekday of weekly codes is the start's, the day
 * of monthly ones `dayOfExecution` (else the start's), "31" the month's last day; `multiplicator` multiplies the
 * step; `executionRule` following / preceding with `withinAMonthFlag` the modified ones (absent: the option, default
 * `following`; Daily is never moved). Lossy where the standard is silent: day 29 or 30 in a month without it,
 * `dayOfExecution` of a weekly code, `executionRule` of Daily. Unrepresentable: no start, an unknown code,
 * MonthlyVariable without months.
 */
export const decode = (record: unknown, options?: Options): Decoded.Decoded<Recurrence.Recurrence> => {
  const { warnings, done, no } = Standards.decoding()
  if (!isObject(record)) return no("the record is not an object")
  const f = fieldsOf(record, warnings)
  const warn = (field: string, received: unknown, read: string, why: string) =>
    warnings.push({ field, received: Standards.show(received), read, why })
  // frequency (some generated examples name the field frequencyCode, after its type)
  if (f.frequency === undefined && typeof f.frequencyCode === "string") {
    warn("frequency", f.frequencyCode, "frequency", "the field is named frequency, not frequencyCode")
    f.frequency = f.frequencyCode
  }
  if (typeof f.frequency !== "string") return no("the record has no frequency")
  let code = frequencies.find((c) => c === f.frequency)
  if (code === undefined) {
    code = frequencies.find((c) => c.toLowerCase() === (f.frequency as string).trim().toLowerCase())
    if (code === undefined) return no(`"${f.frequency}" is not a Berlin Group frequency code`)
    warn("frequency", f.frequency, code, `the code is spelt ${code}`)
  }
  const start = Standards.readDate(f.startDate, "startDate", warnings)
  const end = Standards.readDate(f.endDate, "endDate", warnings)
  if (start === undefined) return no("the order has no startDate")
  // multiplicator
  let mult = 1
  if (f.multiplicator !== undefined && f.multiplicator !== null) {
    const n = Standards.readInt(f.multiplicator)
    if (n === undefined || n.value < 1 || n.value > 1000)
      return no(`multiplicator ${Standards.show(f.multiplicator)} is not a whole number 1..1000`)
    if (!n.number) warn("multiplicator", f.multiplicator, String(n.value), "multiplicator is a number")
    mult = n.value
  }
  const day = readDay(f.dayOfExecution, warnings)
  if (day === "bad") return no(`dayOfExecution ${Standards.show(f.dayOfExecution)} is not a day 1..31`)
  // months of execution
  let months: Array<number> | undefined
  if (f.monthsOfExecution !== undefined && f.monthsOfExecution !== null) {
    if (code !== "MonthlyVariable") {
      warn("monthsOfExecution", f.monthsOfExecution, "ignored", "monthsOfExecution is given only with MonthlyVariable")
    } else {
      const raw = Array.isArray(f.monthsOfExecution) ? f.monthsOfExecution : [f.monthsOfExecution]
      const read = raw.map((m) => Standards.readInt(m))
      if (read.some((m) => m === undefined || m.value < 1 || m.value > 12)) {
        return no(`monthsOfExecution ${Standards.show(f.monthsOfExecution)} are not months 1..12`)
      }
      months = [...new Set(read.map((m) => m!.value))].sort((a, b) => a - b)
      if (read.some((m) => !m!.plain) || months.length !== raw.length || months.some((m, i) => m !== read[i]!.value)) {
        warn(
          "monthsOfExecution",
          f.monthsOfExecution,
          months.map(String).join(","),
          "months are distinct texts without leading zeroes"
        )
      }
    }
  }
  // execution rule
  let rule: "following" | "preceding" | undefined
  if (f.executionRule !== undefined && f.executionRule !== null) {
    const text = String(f.executionRule).trim().toLowerCase()
    if (text !== "following" && text !== "preceding")
      return no(`executionRule ${Standards.show(f.executionRule)} is neither following nor preceding`)
    if (f.executionRule !== text) warn("executionRule", f.executionRule, text, "the rule is spelt in lower case")
    rule = text
  }
  const within = f.withinAMonthFlag === true || f.withinAMonthFlag === "true"
  if (f.withinAMonthFlag === "true") warn("withinAMonthFlag", "true", "true", "withinAMonthFlag is a boolean")
  const losses: Array<Translation.Loss> = []
  let r: Recurrence.Rule
  let fixed = false
  switch (code) {
    case "Daily":
      r = { _tag: "EveryDays", interval: mult }
      fixed = true
      if (rule !== undefined) {
        losses.push({
          field: "executionRule",
          from: rule,
          to: "not applied",
          why: "Berlin Group does not say whether a daily order's weekend dates move: read as paid every calendar day"
        })
      } else {
        // the standard is silent on a daily order's weekends, as COBS is on DAILY: read, and said (issue 34)
        losses.push({
          field: "frequency",
          from: "Daily",
          to: "every calendar day",
          why: "Berlin Group does not say whether Daily pays on weekends and holidays: read as every calendar day"
        })
      }
      break
    case "Weekly":
    case "EveryTwoWeeks":
      r = { _tag: "Weekly", interval: (code === "Weekly" ? 1 : 2) * mult, weekdays: [LocalDate.dayOfWeek(start)] }
      if (day !== undefined) {
        losses.push({
          field: "dayOfExecution",
          from: String(day),
          to: "the startDate's weekday",
          why: "Berlin Group does not define dayOfExecution for weekly codes"
        })
      }
      break
    default: {
      if (code === "MonthlyVariable" && months === undefined) return no("MonthlyVariable without monthsOfExecution")
      if (code === "MonthlyVariable" && mult !== 1)
        return no("Berlin Group does not define multiplicator with MonthlyVariable")
      const d = day ?? LocalDate.day(start)
      r = {
        _tag: "MonthlyOnDay",
        interval: STEP[code] * mult,
        day: d === 31 ? -1 : d,
        missing: "clamp",
        ...(months === undefined ? {} : { months: months as never })
      }
      // lossy only where a month the rule reaches lacks the day (quarterly from 30 January never does)
      if ((d === 29 || d === 30) && Recurrence.missesDay({ rule: r, start, ...(end === undefined ? {} : { end }) })) {
        losses.push(Standards.readAsMonthEnd("Berlin Group", d))
      }
    }
  }
  const convention: BusinessDayConvention.BusinessDayConvention = fixed
    ? "none"
    : rule === undefined
      ? (options?.convention ?? "following")
      : within
        ? `modified-${rule}`
        : rule
  return done(
    Translation.withLosses(Standards.recurrence(r, start, end, undefined, convention, options?.calendar), losses),
    fixed || rule !== undefined
  )
}

/** The code and multiplicator of a step in months, or undefined. */
const monthCode = (interval: number): { readonly code: FrequencyCode; readonly mult: number } => {
  for (const [code, step] of [
    ["Annual", 12],
    ["SemiAnnual", 6],
    ["Quarterly", 3],
    ["EveryTwoMonths", 2]
  ] as const) {
    if (interval === step) return { code, mult: 1 }
  }
  return interval % 12 === 0 ? { code: "Annual", mult: interval / 12 } : { code: "Monthly", mult: interval }
}

/**
 * The `standingOrderDetails` of a recurrence (packages/core/README.md, "Other standards"): `startDate` the first
 * occurrence, `endDate` the last one the end and count allow, the convention as `executionRule` (the modified ones
 * with `withinAMonthFlag`). Steps without a code of their own use `multiplicator` (which the standard marks rarely
 * supported). Lossy: pauses; a missing-day rule other than the month-end clamp (day 29–30 is not defined, 31 is the
 * month's last day); the convention `none` (no `executionRule` says it; read back as `following`); a convention on
 * Daily. Unrepresentable: working days, several weekdays or days, weekdays of the month, days from the end other
 * than the last, selected months with a step.
 */
export const encode = (recurrence: Recurrence.Recurrence): Translation.Translation<StandingOrderDetails> => {
  const { r, rule, no } = Standards.encoding<StandingOrderDetails>(recurrence, "Berlin Group")
  let code: FrequencyCode
  let mult = 1
  let day: number | undefined
  let months: ReadonlyArray<number> | undefined
  const candidates: Array<Standards.Candidate> = []
  switch (rule._tag) {
    case "EveryDays":
      code = "Daily"
      mult = rule.interval
      // every calendar day (the bank's DAI7) is not what Berlin Group says of Daily: the standard is silent on weekends
      candidates.push(
        Standards.everyDayNotDefined(
          "frequency",
          "Berlin Group does not say whether Daily pays on weekends and holidays"
        )
      )
      break
    case "EveryWorkingDays":
      return no("it has no working-day code (Daily with following would pay Monday twice)")
    case "MonthlyOnWeekday":
      return no("it has no weekday of the month")
    case "Weekly":
      if (rule.weekdays.length !== 1) return no("one weekday a week only")
      code = rule.interval === 2 ? "EveryTwoWeeks" : "Weekly"
      mult = rule.interval === 2 ? 1 : rule.interval
      break
    case "MonthlyOnDay": {
      if (rule.day < -1) return no('of days from the month\'s end only the last ("31")')
      if (rule.months !== undefined) {
        if (rule.interval !== 1) return no("selected months only every month (MonthlyVariable)")
        code = "MonthlyVariable"
        months = rule.months
      } else ({ code, mult } = monthCode(rule.interval))
      day = rule.day === -1 ? 31 : rule.day
      break
    }
    case "Yearly":
      if (rule.dates.length !== 1) return no("one day a year only")
      code = "Annual"
      mult = rule.interval
      day = rule.dates[0]!.day
  }
  const clampIt = (x: Recurrence.Recurrence) => ({ ...x, rule: Standards.clamped(x.rule) })
  if (!(rule._tag === "MonthlyOnDay" && rule.day < 0) && Recurrence.missesDay(r)) {
    const missing = rule._tag === "MonthlyOnDay" || rule._tag === "Yearly" ? rule.missing : "clamp"
    if (day === 31) {
      if (missing !== "clamp") {
        candidates.push({
          loss: {
            field: "missing",
            from: missing,
            to: "clamp",
            why: "Berlin Group's day \"31\" is the month's last day"
          },
          apply: clampIt
        })
      }
    } else {
      candidates.push(
        Standards.missingNotDefined(rule, `Berlin Group does not say when day ${day} is paid in a month without it`)
      )
    }
  }
  if (code === "Daily") candidates.push(...Standards.conventionLost(r, "Berlin Group does not say that Daily moves"))
  if (code !== "Daily" && r.convention === "none") {
    candidates.push({
      loss: {
        field: "convention",
        from: "none",
        to: "following",
        why: "Berlin Group cannot say that dates are never moved: an order without executionRule is read as following"
      },
      apply: (x) => ({ ...x, convention: "following" })
    })
  }
  candidates.push(...Standards.pausesLost(r, "Berlin Group cannot pause an order"))
  const { losses, target } = Standards.lossesOf(r, candidates)
  const first = Standards.firstNominal(r)
  if (first === undefined) return Translation.unrepresentable("the recurrence has no occurrence at all")
  const last = Standards.lastNominal(target)
  const endDate = last ?? r.end
  const moves = code !== "Daily" && r.convention !== "none"
  return Translation.withLosses(
    {
      startDate: LocalDate.format(first),
      ...(endDate === undefined ? {} : { endDate: LocalDate.format(endDate) }),
      frequency: code,
      ...(moves ? { executionRule: r.convention.endsWith("preceding") ? "preceding" : "following" } : {}),
      ...(moves && r.convention.startsWith("modified-") ? { withinAMonthFlag: true } : {}),
      ...(months === undefined ? {} : { monthsOfExecution: months.map(String) }),
      ...(mult === 1 ? {} : { multiplicator: mult }),
      ...(day === undefined ? {} : { dayOfExecution: String(day) })
    },
    losses
  )
}
