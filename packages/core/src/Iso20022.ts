/**
 * ISO 20022 frequencies (`Frequency6Code`, `EventFrequency7Code` and the `Frequency36Choice` of pain.001 / pain.009
 * / pain.013: a code, a count per period, or a code with a point in time) with a schedule's start and end dates, to
 * and from `Recurrence`, each way a `Translation` (packages/core/README.md, "Other standards"). The two code sets
 * spell quarterly and half-yearly differently (QURT / MIAN against QUTR / SEMI), and ISO `DAIL` is every calendar
 * day, not the bank's every working day. Written here: no library translates these codes.
 *
 * @since 0.2.0
 */
import type * as BusinessDayConvention from "./BusinessDayConvention.ts"
import type * as Decoded from "./Decoded.ts"
import * as Standards from "./internal/standards.ts"
import * as LocalDate from "./LocalDate.ts"
import * as Recurrence from "./Recurrence.ts"
import * as Translation from "./Translation.ts"

/** `Frequency6Code`. */
export const frequency6 = ["YEAR", "MNTH", "QURT", "MIAN", "WEEK", "DAIL", "ADHO", "INDA", "FRTN"] as const
/** A `Frequency6Code`. */
export type Frequency6Code = (typeof frequency6)[number]

/** `EventFrequency7Code`. */
export const eventFrequency7 = [
  "YEAR",
  "ADHO",
  "MNTH",
  "DAIL",
  "INDA",
  "WEEK",
  "SEMI",
  "QUTR",
  "TOMN",
  "TOWK",
  "TWMN",
  "OVNG",
  "ONDE"
] as const
/** An `EventFrequency7Code`. */
export type EventFrequency7Code = (typeof eventFrequency7)[number]

/** `Frequency36Choice`: a code, a count per period, or a code with a point in time (`PtInTm`, two digits). */
export type Frequency36Choice =
  | { readonly Tp: Frequency6Code }
  | { readonly Prd: { readonly Tp: Frequency6Code; readonly CntPerPrd: number } }
  | { readonly PtInTm: { readonly Tp: Frequency6Code; readonly PtInTm: string } }

/** A standing order's schedule: the frequency (a choice, or a bare code of either set) and its dates `YYYY-MM-DD`. */
export interface StandingOrder {
  readonly frequency: Frequency36Choice | Frequency6Code | EventFrequency7Code
  readonly startDate: string
  readonly endDate?: string | undefined
}

/** What the codes leave to the bank: the convention (default `following`; DAIL is never moved) and the calendar. */
export interface Options {
  readonly convention?: BusinessDayConvention.BusinessDayConvention | undefined
  readonly calendar?: string | undefined
}

/** The code set an encoder writes: a `Frequency36Choice` of Frequency6 codes, or a bare EventFrequency7 code. */
export type CodeSet = "Frequency6" | "EventFrequency7"

/** Months each month code steps by. */
const MONTHS: Record<string, number> = { MNTH: 1, TOMN: 2, QURT: 3, QUTR: 3, MIAN: 6, SEMI: 6, YEAR: 12 }
/** What the codes that name no dates mean. */
const NO_DATES: Record<string, string> = {
  ADHO: "ADHO: the event takes place on request, not on dates",
  INDA: "INDA: several times a day, at times not given",
  OVNG: "OVNG: overnight, not a schedule of dates",
  ONDE: "ONDE: on demand, not on dates",
  TWMN: "TWMN: twice a month, on days not given"
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** A code of either set, tolerating case (a warning); `choice` says whether it sits in a Frequency6 choice. */
const readCode = (u: unknown, choice: boolean, warnings: Array<Decoded.Warning>): string | undefined => {
  if (typeof u !== "string") return undefined
  const code = u.trim().toUpperCase()
  const known =
    (frequency6 as ReadonlyArray<string>).includes(code) || (eventFrequency7 as ReadonlyArray<string>).includes(code)
  if (!known) return undefined
  if (code !== u) warnings.push({ field: "Tp", received: u, read: code, why: "ISO 20022 codes are upper case" })
  if (choice && !(frequency6 as ReadonlyArray<string>).includes(code)) {
    const other = code === "QUTR" ? "QURT" : code === "SEMI" ? "MIAN" : code === "TOWK" ? "FRTN" : undefined
    warnings.push({
      field: "Tp",
      received: code,
      read: code,
      why: `${code} is an EventFrequency7Code; Frequency6Code ${other === undefined ? "has no such code" : `spells it ${other}`}`
    })
  }
  return code
}

/**
 * The recurrence of a schedule (of unknown shape): from `startDate` (which carries the weekday of WEEK and FRTN /
 * TOWK, and the day of the month codes unless `PtInTm` gives it), to `endDate`. DAIL is every calendar day; a count
 * per period of 1 is the code itself. Lossy where the standard is silent: a day 29–31 in a month without it, a
 * weekly point in time (read as ISO weekday 01 = Monday). Unrepresentable: ADHO, INDA, OVNG, ONDE, TWMN, more than one
 * event a period (the days are not given), no start.
 */
export const decode = (record: unknown, options?: Options): Decoded.Decoded<Recurrence.Recurrence> => {
  const { warnings, done, no } = Standards.decoding()
  if (!isObject(record)) return no("the record is not an object")
  const f = record.frequency
  if (f === undefined || f === null) return no("the record has no frequency")
  let code: string | undefined
  let point: number | undefined
  if (typeof f === "string") code = readCode(f, false, warnings)
  else if (isObject(f)) {
    if (f.Tp !== undefined) code = readCode(f.Tp, true, warnings)
    else if (isObject(f.Prd)) {
      code = readCode(f.Prd.Tp, true, warnings)
      const n = Standards.readNumber(f.Prd.CntPerPrd, "CntPerPrd", warnings)
      if (n === undefined || n.value < 1) return no(`CntPerPrd ${Standards.show(f.Prd.CntPerPrd)} is not a count`)
      if (n.value !== 1 && code !== undefined) {
        return no(`${n.value} events every ${code} period: ISO 20022 does not say on which days`)
      }
    } else if (isObject(f.PtInTm)) {
      code = readCode(f.PtInTm.Tp, true, warnings)
      const n = Standards.readInt(f.PtInTm.PtInTm)
      if (n === undefined || n.value < 1 || n.value > 31)
        return no(`PtInTm ${Standards.show(f.PtInTm.PtInTm)} is not a day 01..31`)
      if (typeof f.PtInTm.PtInTm !== "string" || f.PtInTm.PtInTm.trim().length !== 2) {
        warnings.push({
          field: "PtInTm",
          received: Standards.show(f.PtInTm.PtInTm),
          read: String(n.value).padStart(2, "0"),
          why: "PtInTm is two digits"
        })
      }
      point = n.value
    }
  }
  if (code === undefined) return no(`${Standards.show(f)} is not an ISO 20022 frequency`)
  const reason = NO_DATES[code]
  if (reason !== undefined) return no(reason)
  const start = Standards.readDate(record.startDate, "startDate", warnings)
  const end = Standards.readDate(record.endDate, "endDate", warnings)
  if (start === undefined) return no("the schedule has no startDate")
  const losses: Array<Translation.Loss> = []
  let rule: Recurrence.Rule
  if (code === "DAIL") rule = { _tag: "EveryDays", interval: 1 }
  else if (code === "WEEK" || code === "FRTN" || code === "TOWK") {
    let weekday = LocalDate.dayOfWeek(start)
    if (point !== undefined) {
      if (point > 7) return no(`PtInTm ${point} is not a day of the week`)
      weekday = point
      losses.push({
        field: "PtInTm",
        from: "not defined",
        to: `ISO weekday ${point}`,
        why: "ISO 20022 does not say how a weekly point in time counts days: read as 01 = Monday"
      })
    }
    rule = { _tag: "Weekly", interval: code === "WEEK" ? 1 : 2, weekdays: [weekday] }
  } else {
    const day = point ?? LocalDate.day(start)
    rule = { _tag: "MonthlyOnDay", interval: MONTHS[code]!, day, missing: "clamp" }
    // lossy only where a month the rule reaches lacks the day (quarterly from 30 January never does)
    losses.push(...Standards.monthEndLosses("ISO 20022", day, rule, start, end, undefined))
  }
  return done(Standards.fixedOrChosen(rule, start, end, undefined, code === "DAIL", options, losses), code === "DAIL")
}

/** The code of a step in months in a code set, or undefined. */
const monthCode = (interval: number, set: CodeSet): string | undefined => {
  switch (interval) {
    case 1:
      return "MNTH"
    case 2:
      return set === "EventFrequency7" ? "TOMN" : undefined
    case 3:
      return set === "EventFrequency7" ? "QUTR" : "QURT"
    case 6:
      return set === "EventFrequency7" ? "SEMI" : "MIAN"
    case 12:
      return "YEAR"
    default:
      return undefined
  }
}

/**
 * The schedule of a recurrence (packages/core/README.md, "Other standards"): `startDate` the first occurrence,
 * `endDate` the last one the end and count allow; as a `Frequency36Choice` of Frequency6 codes (the day of the month
 * codes in `PtInTm`) or as a bare EventFrequency7 code (`codeSet`). The convention and calendar are the bank's: pass them to
 * {@link decode}. Lossy: pauses, a missing-day rule (a month lacking day 29–31, the month's last day: not defined),
 * a convention on DAIL, a bare code's start moved to the first occurrence on the day itself. Unrepresentable: working days (ISO DAIL is every day), other steps, several days, days from
 * the end other than the last, weekdays of the month, selected months.
 */
export const encode = (
  recurrence: Recurrence.Recurrence,
  codeSet: CodeSet = "Frequency6"
): Translation.Translation<StandingOrder> => {
  const { r, rule, no } = Standards.encoding<StandingOrder>(recurrence, `ISO 20022 ${codeSet}`)
  let code: string | undefined
  let day: number | undefined
  switch (rule._tag) {
    case "EveryDays":
      if (rule.interval !== 1) return no("DAIL is the only day code")
      code = "DAIL"
      break
    case "EveryWorkingDays":
      return no("DAIL means every calendar day, and no code means working days")
    case "MonthlyOnWeekday":
      return no("no code names a weekday of the month")
    case "Weekly":
      if (rule.weekdays.length !== 1 || rule.interval > 2) return no("one weekday every week or two weeks only")
      code = rule.interval === 1 ? "WEEK" : codeSet === "EventFrequency7" ? "TOWK" : "FRTN"
      break
    case "MonthlyOnDay":
      if (rule.months !== undefined) return no("selected months cannot be named")
      if (rule.day < -1) return no("days from the month's end cannot be named")
      code = monthCode(rule.interval, codeSet)
      if (code === undefined) return no(`no code steps by ${rule.interval} months`)
      day = rule.day === -1 ? 31 : rule.day
      break
    case "Yearly":
      if (rule.dates.length !== 1 || rule.interval !== 1) return no("one day every year only")
      code = "YEAR"
      day = rule.dates[0]!.day
  }
  const candidates: Array<Standards.Candidate> = []
  // the month's last day is written as day 31, which ISO leaves undefined in shorter months as well
  if (day !== undefined && Recurrence.missesDay(r, day)) {
    candidates.push(
      Standards.missingNotDefined(rule, `ISO 20022 does not say when day ${day} is paid in a month without it`)
    )
  }
  if (code === "DAIL") candidates.push(...Standards.conventionLost(r, "DAIL is every calendar day"))
  candidates.push(...Standards.pausesLost(r, "ISO 20022 frequencies cannot pause"))
  let first = Standards.firstNominal(r)
  if (first === undefined) return Translation.unrepresentable("the recurrence has no occurrence at all")
  // a bare code takes the day of the month from startDate: start on the first occurrence that has the day itself
  if (codeSet === "EventFrequency7" && day !== undefined && LocalDate.day(first) !== day) {
    const moved = Standards.startOnDay(
      r,
      first,
      day,
      `an EventFrequency7 code takes the day from startDate: the schedule starts on the first day ${day}`
    )
    if (moved === undefined) return no(`no occurrence falls on day ${day} to start from`)
    candidates.push(...moved.candidates)
    first = moved.start
  }
  const { losses, target } = Standards.lossesOf(r, candidates)
  const endDate = Standards.lastNominal(target) ?? r.end
  const frequency: StandingOrder["frequency"] =
    codeSet === "EventFrequency7"
      ? (code as EventFrequency7Code)
      : day === undefined
        ? { Tp: code as Frequency6Code }
        : { PtInTm: { Tp: code as Frequency6Code, PtInTm: String(day).padStart(2, "0") } }
  return Translation.withLosses(
    {
      frequency,
      startDate: LocalDate.format(first),
      ...(endDate === undefined ? {} : { endDate: LocalDate.format(endDate) })
    },
    losses
  )
}
