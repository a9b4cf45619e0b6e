/**
 * The engine of `UkOpenBanking` and the types it works on (its public module re-exports them and documents the
 * functions).
 */

import type * as BusinessDayConvention from "../BusinessDayConvention.ts"
import type * as Decoded from "../Decoded.ts"
import * as Json from "../Json.ts"
import * as LocalDate from "../LocalDate.ts"
import * as Recurrence from "../Recurrence.ts"
import * as Translation from "../Translation.ts"
import * as Standards from "./standards.ts"

/** The schedule fields of a v3 standing order (`OBStandingOrder6`); dates are ISO date-times, the count is text. */
export interface V3StandingOrder {
  readonly Frequency: string
  readonly FirstPaymentDateTime?: string | undefined
  readonly NextPaymentDateTime?: string | undefined
  readonly FinalPaymentDateTime?: string | undefined
  readonly NumberOfPayments?: string | undefined
}

/**
 * What a v3 record leaves to the bank: the convention for dates on non-working days (default `following`; every
 * day and every working day are never moved) and the calendar's name.
 */
export interface Options {
  readonly convention?: BusinessDayConvention.BusinessDayConvention | undefined
  readonly calendar?: string | undefined
}

/** A v4 frequency code. */
export type V4Code = (typeof v4Codes)[number]

/** v4 `OBFrequency6`: the code, how many times a period (absent: once), and the point in the period (two digits). */
export interface OBFrequency6 {
  readonly Type: V4Code
  readonly CountPerPeriod?: number | undefined
  readonly PointInTime?: string | undefined
}

/** The schedule fields of a v4 standing order's `MandateRelatedInformation`; dates are ISO date-times. */
export interface V4MandateRelatedInformation {
  readonly Frequency: OBFrequency6 | string
  readonly FirstPaymentDateTime?: string | undefined
  readonly RecurringPaymentDateTime?: string | undefined
  readonly FinalPaymentDateTime?: string | undefined
}

/** The fixed quarter days of `QtrDay:…` (month, day). */
export const quarterDays = {
  ENGLISH: [
    [3, 25],
    [6, 24],
    [9, 29],
    [12, 25]
  ],
  SCOTTISH: [
    [2, 2],
    [5, 15],
    [8, 1],
    [11, 11]
  ],
  RECEIVED: [
    [3, 20],
    [6, 19],
    [9, 24],
    [12, 20]
  ]
} as const

/** The v3 names, by their lower-case spelling (`intrvwkday` is Santander's misspelling). */
export const NAMES: Record<string, string> = {
  notknown: "NotKnown",
  evryday: "EvryDay",
  evryworkgday: "EvryWorkgDay",
  intrvlday: "IntrvlDay",
  intrvlwkday: "IntrvlWkDay",
  intrvwkday: "IntrvlWkDay",
  wkinmnthday: "WkInMnthDay",
  intrvlmnthday: "IntrvlMnthDay",
  qtrday: "QtrDay"
}

export const MONTH_STEPS = [1, 2, 3, 4, 5, 6, 12, 24]

/** A rule read from the string, before the dates: the rule, or the reason it says no dates. */
export type Parsed =
  | { readonly _tag: "Rule"; readonly rule: Recurrence.Rule | "weekday-of-start"; readonly interval?: number }
  | { readonly _tag: "None"; readonly reason: string }

/** Two-digit form of a number as the grammar writes it (`01`, `-01`). */
export const pad = (n: number): string => (n < 0 ? `-${String(-n).padStart(2, "0")}` : String(n).padStart(2, "0"))

/**
 * The rule of a `Frequency` string, tolerating what banks send (each tolerance a warning): names in any case, the
 * misspelt `IntrvWkDay`, numbers without their leading zero, weekday `00` (read as the first payment's weekday),
 * month steps the grammar leaves out (7–11, 13–23), `IntrvlDay:01`.
 */
export const parseFrequency = (text: string, warnings: Array<Decoded.Warning>): Parsed => {
  const parts = text.trim().split(":")
  const head = parts[0]!
  const name = NAMES[head.toLowerCase()]
  if (name === undefined) return { _tag: "None", reason: `"${text}" is not a UK Open Banking v3 frequency` }
  const warn = (read: string, why: string) => warnings.push({ field: "Frequency", received: text, read, why })
  // the pattern has no spaces: spaces around it are tolerated and said, as every other tolerance
  if (text !== text.trim()) warn(text.trim(), "the pattern has no spaces around it")
  if (head !== name) {
    warn(
      name,
      head.toLowerCase() === "intrvwkday"
        ? "IntrvWkDay is a misspelling of IntrvlWkDay"
        : `the grammar spells the name ${name}`
    )
  }
  const args = parts.slice(1)
  const nums: Array<number> = []
  let unpadded = false
  if (name !== "QtrDay") {
    for (const a of args) {
      if (!/^-?\d{1,2}$/.test(a)) return { _tag: "None", reason: `"${text}": "${a}" is not a number of the grammar` }
      const n = Number(a)
      if (a !== pad(n)) unpadded = true
      nums.push(n)
    }
  }
  const arity = { NotKnown: 0, EvryDay: 0, EvryWorkgDay: 0, IntrvlDay: 1, QtrDay: 1 }[name as "NotKnown"] ?? 2
  if (args.length !== arity) return { _tag: "None", reason: `"${text}": ${name} takes ${arity} value(s)` }
  if (unpadded) warn(`${name}:${nums.map(pad).join(":")}`, "numbers are written with two digits")
  const out = (rule: Recurrence.Rule | "weekday-of-start", interval?: number): Parsed =>
    interval === undefined ? { _tag: "Rule", rule } : { _tag: "Rule", rule, interval }
  const [a = 0, b = 0] = nums
  switch (name) {
    case "NotKnown":
      return { _tag: "None", reason: "NotKnown: the bank does not say when the order pays" }
    case "EvryDay":
      return out({ _tag: "EveryDays", interval: 1 })
    case "EvryWorkgDay":
      return out({ _tag: "EveryWorkingDays", interval: 1 })
    case "IntrvlDay":
      if (a < 1 || a > 31) return { _tag: "None", reason: `"${text}": IntrvlDay takes 02..31 days` }
      if (a === 1)
        warn("EvryDay", "IntrvlDay:01 is not in the grammar (its intervals are 02..31), and one day apart is every day")
      return out({ _tag: "EveryDays", interval: a })
    case "IntrvlWkDay":
      if (a < 1 || b < 0 || b > 7)
        return { _tag: "None", reason: `"${text}": IntrvlWkDay takes 01..09 weeks and weekday 01..07` }
      if (b === 0) {
        warn(
          `${name}:${pad(a)}:<the first payment's weekday>`,
          "weekday 00 is not in the grammar (01..07), and the first payment's weekday is the one meant"
        )
        return out("weekday-of-start", a)
      }
      return out({ _tag: "Weekly", interval: a, weekdays: [b] })
    case "WkInMnthDay":
      if (a < 1 || a > 5 || b < 1 || b > 7)
        return { _tag: "None", reason: `"${text}": WkInMnthDay takes week 01..05 and weekday 01..07` }
      return out({ _tag: "MonthlyOnWeekday", interval: 1, weekday: b, ordinal: a })
    case "IntrvlMnthDay":
      if (a < 1 || a > 24 || b === 0 || b < -5 || b > 31) {
        return {
          _tag: "None",
          reason: `"${text}": IntrvlMnthDay takes months 01..06, 12 or 24 and day -05..-01 or 01..31`
        }
      }
      if (!MONTH_STEPS.includes(a))
        warn(`every ${a} months`, `month step ${pad(a)} is not in the grammar (01..06, 12, 24)`)
      return out({ _tag: "MonthlyOnDay", interval: a, day: b, missing: "clamp" })
    default: {
      const which = args[0]!.toUpperCase()
      if (which !== "ENGLISH" && which !== "SCOTTISH" && which !== "RECEIVED") {
        return { _tag: "None", reason: `"${text}": QtrDay takes ENGLISH, SCOTTISH or RECEIVED` }
      }
      if (which !== args[0]) warn(`QtrDay:${which}`, "the quarter-day names are upper case")
      const dates = quarterDays[which].map(([month, day]) => ({ month, day }))
      return out({ _tag: "Yearly", interval: 1, dates: dates as never, missing: "clamp" })
    }
  }
}

/** `NumberOfPayments` (text in the standard) as a count, or absent with a warning when it is none. */
export const numberOfPayments = (u: unknown, warnings: Array<Decoded.Warning>): number | undefined => {
  if (u === undefined || u === null) return undefined
  const n = Standards.readInt(u)
  if (n?.number === true) {
    // the standard's type is text (Max35Text)
    warnings.push({
      field: "NumberOfPayments",
      received: Standards.show(u),
      read: String(n.value),
      why: "NumberOfPayments is text"
    })
  }
  if (n !== undefined && n.value >= 1 && n.value <= 1_000_000) return n.value
  warnings.push({
    field: "NumberOfPayments",
    received: Standards.show(u),
    read: "absent",
    why: "it is not a count of payments 1..1000000"
  })
  return undefined
}

/** The refusal of a number where a frequency is wanted, naming the number as written. */
const notText = (value: unknown): string =>
  `Frequency ${Json.isNumberText(value) ? value.text : String(value)} is a number, not a frequency: UK v3 writes a text such as "EvryDay" or "IntrvlMnthDay:01:05", v4 an object {"Type": "MNTH", "PointInTime": "05"}`

/**
 * The recurrence of a v3 standing order (a record of unknown shape): anchored on `FirstPaymentDateTime`, else
 * `NextPaymentDateTime` (the date part as written); `FinalPaymentDateTime` is the end, `NumberOfPayments` the
 * count. Lossy where the standard is silent: a day of the month 29–31 in a month without it is read as that month's
 * last day (the loss names it). Unrepresentable: `NotKnown`, a string outside the grammar, no first or next date.
 */
export const decodeV3 = (record: unknown, options?: Options): Decoded.Decoded<Recurrence.Recurrence> => {
  const { warnings, done } = Standards.decoding()
  if (typeof record !== "object" || record === null)
    return done(Translation.unrepresentable("the record is not an object"))
  const o = record as Record<string, unknown>
  // a number where the grammar's text is wanted: said as given, not taken for a v4 object
  if (typeof o.Frequency === "number" || Json.isNumberText(o.Frequency)) {
    return done(Translation.unrepresentable(notText(o.Frequency)))
  }
  if (typeof o.Frequency === "object" && o.Frequency !== null) {
    return done(
      Translation.unrepresentable("Frequency is a v4 OBFrequency6 object, not a v3 string: read it with decodeV4")
    )
  }
  if (typeof o.Frequency !== "string") return done(Translation.unrepresentable("the record has no Frequency string"))
  const parsed = parseFrequency(o.Frequency, warnings)
  const first = Standards.readDate(o.FirstPaymentDateTime, "FirstPaymentDateTime", warnings)
  const next = Standards.readDate(o.NextPaymentDateTime, "NextPaymentDateTime", warnings)
  const final = Standards.readDate(o.FinalPaymentDateTime, "FinalPaymentDateTime", warnings)
  const count = numberOfPayments(o.NumberOfPayments, warnings)
  if (parsed._tag === "None") return done(Translation.unrepresentable(parsed.reason))
  const start = first ?? next
  if (start === undefined) {
    return done(Translation.unrepresentable("the order has neither FirstPaymentDateTime nor NextPaymentDateTime"))
  }
  const rule: Recurrence.Rule =
    parsed.rule === "weekday-of-start"
      ? { _tag: "Weekly", interval: parsed.interval ?? 1, weekdays: [LocalDate.dayOfWeek(start)] }
      : parsed.rule
  const losses: Array<Translation.Loss> = []
  if (rule._tag === "MonthlyOnDay") {
    losses.push(...Standards.monthEndLosses("UK Open Banking", rule.day, rule, start, final, count))
  }
  const fixed = rule._tag === "EveryWorkingDays" || (rule._tag === "EveryDays" && rule.interval === 1)
  return done(Standards.fixedOrChosen(rule, start, final, count, fixed, options, losses), fixed)
}

/** The v3 string for a rule, or the reason there is none. */
export const frequencyOf = (rule: Recurrence.Rule): string | { readonly reason: string } => {
  const no = (why: string) => ({ reason: `UK Open Banking v3 cannot say ${Recurrence.describe(rule)}: ${why}` })
  switch (rule._tag) {
    case "EveryDays":
      if (rule.interval === 1) return "EvryDay"
      if (rule.interval <= 31) return `IntrvlDay:${pad(rule.interval)}`
      return no("IntrvlDay takes at most 31 days")
    case "EveryWorkingDays":
      return rule.interval === 1 ? "EvryWorkgDay" : no("only every working day, not every n-th")
    case "Weekly":
      if (rule.weekdays.length !== 1) return no("one weekday a week only")
      if (rule.interval > 9) return no("IntrvlWkDay takes at most 9 weeks")
      return `IntrvlWkDay:${pad(rule.interval)}:${pad(rule.weekdays[0])}`
    case "MonthlyOnWeekday":
      if (rule.interval !== 1 || rule.months !== undefined) return no("the n-th weekday of every month only")
      if (rule.ordinal < 0) return no("weeks are counted from the month's start only")
      return `WkInMnthDay:${pad(rule.ordinal)}:${pad(rule.weekday)}`
    case "MonthlyOnDay":
      if (rule.months !== undefined) return no("selected months cannot be named")
      if (!MONTH_STEPS.includes(rule.interval)) return no("months step by 1..6, 12 or 24")
      if (rule.day < -5) return no("days from the month's end go to -05")
      return `IntrvlMnthDay:${pad(rule.interval)}:${pad(rule.day)}`
    case "Yearly": {
      if (rule.interval === 1 && rule.dates.length === 4) {
        for (const [name, days] of Object.entries(quarterDays)) {
          if (days.every(([m, d], i) => rule.dates[i]!.month === m && rule.dates[i]!.day === d)) return `QtrDay:${name}`
        }
      }
      if (rule.dates.length !== 1 || rule.interval > 2) return no("one day every 1 or 2 years, or the quarter days")
      return `IntrvlMnthDay:${pad(rule.interval * 12)}:${pad(rule.dates[0]!.day)}`
    }
  }
}

/**
 * The v3 standing order of a recurrence (packages/core/README.md, "Other standards"): `FirstPaymentDateTime` is the
 * first occurrence (it carries the month of yearly rules, the phase of weeks), `FinalPaymentDateTime` the last
 * occurrence on or before the end, `NumberOfPayments` the count. The convention and calendar are the bank's, not
 * fields: pass them to {@link decodeV3}. Lossy: pauses, a missing-day rule where a month lacks day 29–31 (the
 * standard does not define it), a convention on every day. Unrepresentable: what the grammar has no string for.
 */
export const encodeV3 = (recurrence: Recurrence.Recurrence): Translation.Translation<V3StandingOrder> => {
  const r = Recurrence.canonical(recurrence)
  const rule = r.rule
  const frequency = frequencyOf(rule)
  if (typeof frequency !== "string") return Translation.unrepresentable(frequency.reason)
  const first = Standards.firstNominal(r)
  if (first === undefined) return Translation.unrepresentable("the recurrence has no occurrence at all")
  const candidates: Array<Standards.Candidate> = []
  if (!(rule._tag === "MonthlyOnDay" && rule.day < 0) && Recurrence.missesDay(r)) {
    candidates.push(
      Standards.missingNotDefined(rule, "UK Open Banking does not say when a day is paid in a month without it")
    )
  }
  if (rule._tag === "EveryDays" && rule.interval === 1)
    candidates.push(...Standards.conventionLost(r, "EvryDay pays on every calendar day"))
  candidates.push(...Standards.pausesLost(r, "UK Open Banking cannot pause an order"))
  const { losses, target } = Standards.lossesOf(r, candidates)
  const last = r.end === undefined ? undefined : Standards.lastNominal(withoutCount(target))
  return Translation.withLosses(
    {
      Frequency: frequency,
      FirstPaymentDateTime: Standards.dateTime(first),
      ...(r.end === undefined ? {} : { FinalPaymentDateTime: Standards.dateTime(last ?? r.end) }),
      ...(r.count === undefined ? {} : { NumberOfPayments: String(r.count) })
    },
    losses
  )
}

export const withoutCount = (r: Recurrence.Recurrence): Recurrence.Recurrence => {
  const { count: _, ...rest } = r
  return rest
}

// ---------------------------------------------------------------------------
// v4: OBFrequency6
// ---------------------------------------------------------------------------

/** v4 `OBFrequency6Code`: the API's codes and the OB internal code set's (WODL, FOWK, TWMH, ALMH, FOMH, FIMH, TWYR, …). */
export const v4Codes = [
  "ADHO",
  "YEAR",
  "DAIL",
  "FRTN",
  "INDA",
  "MNTH",
  "QURT",
  "MIAN",
  "WEEK",
  "WODL",
  "FOWK",
  "TWMH",
  "ALMH",
  "FOMH",
  "FIMH",
  "TWYR",
  "LWMH",
  "LXMH",
  "NONE"
] as const

/** Weeks and months each v4 code steps by. */
export const V4_WEEKS: Partial<Record<V4Code, number>> = { WEEK: 1, FRTN: 2, FOWK: 4 }

export const V4_MONTHS: Partial<Record<V4Code, number>> = {
  MNTH: 1,
  TWMH: 2,
  ALMH: 2,
  QURT: 3,
  FOMH: 4,
  FIMH: 5,
  MIAN: 6,
  YEAR: 12,
  TWYR: 24
}

export const V4_NONE: Partial<Record<V4Code, string>> = {
  ADHO: "ADHO: the payments are made on request, not on dates",
  INDA: "INDA: several times a day, at times not given",
  NONE: "NONE: the mandate has no frequency",
  LWMH: "LWMH: the code set does not document its dates",
  LXMH: "LXMH: the code set does not document its dates"
}

/**
 * The recurrence of a v4 standing order's `MandateRelatedInformation` (a record of unknown shape; a `Frequency`
 * text is the legacy v3 string v4 still allows, read by {@link decodeV3}'s rules): anchored on
 * `FirstPaymentDateTime`, else `RecurringPaymentDateTime`; `FinalPaymentDateTime` the end, the order's own
 * `NumberOfPayments` (restored in v4.0-Update-4) the count. `PointInTime` is the
 * weekday of the week codes (01 = Monday) and the day of the month codes (else the start's). Lossy where the standard
 * is silent: day 29–31 in a shorter month. Unrepresentable: ADHO, INDA, NONE, the undocumented LWMH / LXMH, more than
 * one payment a period (the days are not given), a negative count, no first date.
 */
export const decodeV4 = (record: unknown, options?: Options): Decoded.Decoded<Recurrence.Recurrence> => {
  const { warnings, done, no } = Standards.decoding()
  if (typeof record !== "object" || record === null) return no("the record is not an object")
  const top = record as Record<string, unknown>
  const o = (
    typeof top.MandateRelatedInformation === "object" && top.MandateRelatedInformation !== null
      ? top.MandateRelatedInformation
      : top
  ) as Record<string, unknown>
  const start =
    Standards.readDate(o.FirstPaymentDateTime, "FirstPaymentDateTime", warnings) ??
    Standards.readDate(o.RecurringPaymentDateTime, "RecurringPaymentDateTime", warnings)
  if (typeof o.Frequency === "string") {
    const v3 = decodeV3(
      {
        Frequency: o.Frequency,
        FirstPaymentDateTime: start === undefined ? undefined : Standards.dateTime(start),
        FinalPaymentDateTime: o.FinalPaymentDateTime
      },
      options
    )
    return { translation: v3.translation, warnings: [...warnings, ...v3.warnings] }
  }
  const f = o.Frequency
  if (typeof f === "number" || Json.isNumberText(f)) return no(notText(f))
  if (typeof f !== "object" || f === null) return no("the record has no Frequency")
  const freq = f as Record<string, unknown>
  if (freq.Type === undefined) return no("Frequency has no Type (an OBFrequency6 code such as MNTH or WEEK)")
  const raw = typeof freq.Type === "string" ? freq.Type : undefined
  const code = v4Codes.find((c) => c === raw?.trim().toUpperCase())
  if (code === undefined) return no(`Type ${Standards.show(freq.Type)} is not an OBFrequency6 code`)
  if (code !== raw) warnings.push({ field: "Type", received: raw!, read: code, why: "the codes are upper case" })
  const none = V4_NONE[code]
  if (none !== undefined) return no(none)
  if (freq.CountPerPeriod !== undefined && freq.CountPerPeriod !== null) {
    const n = Standards.readNumber(freq.CountPerPeriod, "CountPerPeriod", warnings)
    if (n === undefined || n.value < 1)
      return no(`CountPerPeriod ${Standards.show(freq.CountPerPeriod)} is not a count of payments`)
    if (n.value > 1) return no(`${n.value} payments every ${code} period: the standard does not say on which days`)
  }
  let point: number | undefined
  if (freq.PointInTime !== undefined && freq.PointInTime !== null) {
    const n = Standards.readInt(freq.PointInTime)
    if (n === undefined || n.value < 1 || n.value > 31)
      return no(`PointInTime ${Standards.show(freq.PointInTime)} is not a day`)
    if (typeof freq.PointInTime !== "string" || freq.PointInTime.trim() !== pad(n.value)) {
      warnings.push({
        field: "PointInTime",
        received: Standards.show(freq.PointInTime),
        read: pad(n.value),
        why: "PointInTime is two digits"
      })
    }
    point = n.value
  }
  if (start === undefined) return no("the order has neither FirstPaymentDateTime nor RecurringPaymentDateTime")
  const end = Standards.readDate(o.FinalPaymentDateTime, "FinalPaymentDateTime", warnings)
  // NumberOfPayments: removed in v4.0, restored beside MandateRelatedInformation in v4.0-Update-4
  const count = numberOfPayments(top.NumberOfPayments, warnings)
  const losses: Array<Translation.Loss> = []
  let rule: Recurrence.Rule
  const weeks = V4_WEEKS[code]
  const months = V4_MONTHS[code]
  if (code === "DAIL") rule = { _tag: "EveryDays", interval: 1 }
  else if (code === "WODL") rule = { _tag: "EveryWorkingDays", interval: 1 }
  else if (weeks !== undefined) {
    if (point !== undefined && point > 7) return no(`PointInTime ${point} is not a weekday 01..07`)
    rule = { _tag: "Weekly", interval: weeks, weekdays: [point ?? LocalDate.dayOfWeek(start)] }
  } else {
    const day = point ?? LocalDate.day(start)
    rule = { _tag: "MonthlyOnDay", interval: months!, day, missing: "clamp" }
    losses.push(...Standards.monthEndLosses("UK Open Banking", day, rule, start, end, count))
  }
  const fixed = code === "DAIL" || code === "WODL"
  return done(Standards.fixedOrChosen(rule, start, end, count, fixed, options, losses), fixed)
}

/**
 * The v4 `MandateRelatedInformation` of a recurrence (packages/core/README.md, "Other standards"): an `OBFrequency6`
 * object, never the legacy string (the two shapes are kept apart; {@link encodeV3} writes the string). Codes of the
 * OB internal code set (WODL, FOWK, TWMH, FOMH, FIMH, TWYR) are used where the API's own have none.
 * `FirstPaymentDateTime` is the first occurrence, `FinalPaymentDateTime` the last one the end and count allow. Lossy:
 * pauses, day 29–31 and the month's last day (not defined), a convention on DAIL. Unrepresentable: what no code says.
 */
export const encodeV4 = (recurrence: Recurrence.Recurrence): Translation.Translation<V4MandateRelatedInformation> => {
  const { r, rule, no } = Standards.encoding<V4MandateRelatedInformation>(recurrence, "UK Open Banking v4")
  let frequency: OBFrequency6
  let day: number | undefined
  switch (rule._tag) {
    case "EveryDays":
      if (rule.interval !== 1) return no("DAIL is the only day code")
      frequency = { Type: "DAIL" }
      break
    case "EveryWorkingDays":
      if (rule.interval !== 1) return no("WODL is every working day, not every n-th")
      frequency = { Type: "WODL" }
      break
    case "MonthlyOnWeekday":
      return no("no code names a weekday of the month")
    case "Weekly": {
      const code = (Object.entries(V4_WEEKS) as Array<[V4Code, number]>).find(([, n]) => n === rule.interval)?.[0]
      if (code === undefined || rule.weekdays.length !== 1) return no("one weekday every 1, 2 or 4 weeks only")
      frequency = { Type: code, PointInTime: pad(rule.weekdays[0]) }
      break
    }
    case "MonthlyOnDay": {
      const code = (Object.entries(V4_MONTHS) as Array<[V4Code, number]>).find(
        ([c, n]) => n === rule.interval && c !== "ALMH"
      )?.[0]
      if (code === undefined) return no("months step by 1..6, 12 or 24")
      if (rule.months !== undefined) return no("selected months cannot be named")
      if (rule.day < -1) return no("days from the month's end cannot be named")
      day = rule.day === -1 ? 31 : rule.day
      frequency = { Type: code, PointInTime: pad(day) }
      break
    }
    case "Yearly":
      if (rule.dates.length !== 1 || rule.interval > 2) return no("one day every 1 or 2 years only")
      day = rule.dates[0]!.day
      frequency = { Type: rule.interval === 1 ? "YEAR" : "TWYR", PointInTime: pad(day) }
  }
  const candidates: Array<Standards.Candidate> = []
  if (day !== undefined && Recurrence.missesDay(r, day)) {
    candidates.push(
      Standards.missingNotDefined(rule, "UK Open Banking does not say when a day is paid in a month without it")
    )
  }
  if (rule._tag === "EveryDays") candidates.push(...Standards.conventionLost(r, "DAIL pays on every calendar day"))
  candidates.push(...Standards.pausesLost(r, "UK Open Banking cannot pause an order"))
  const first = Standards.firstNominal(r)
  if (first === undefined) return Translation.unrepresentable("the recurrence has no occurrence at all")
  const { losses, target } = Standards.lossesOf(r, candidates)
  const end = Standards.lastNominal(target) ?? r.end
  return Translation.withLosses(
    {
      Frequency: frequency,
      FirstPaymentDateTime: Standards.dateTime(first),
      ...(end === undefined ? {} : { FinalPaymentDateTime: Standards.dateTime(end) })
    },
    losses
  )
}
