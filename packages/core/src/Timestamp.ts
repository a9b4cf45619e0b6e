/**
 * RFC 3339 date-times (`creationDateTime`, `dateTime`, `PSU-Last-Logged-Time`: docs/bank-interface.md, "Headers"), kept
 * as their exact text so that nothing is lost, with pure conversions to and from epoch milliseconds. No `Date` object
 * is involved: the calendar part is a {@link LocalDate.LocalDate} day number.
 *
 * @since 0.1.0
 */
import { type Brand, Result, Schema } from "effect"
import { dayAt, digitAt, twoDigits } from "./internal/digits.ts"
import * as LocalDate from "./LocalDate.ts"

/** A date-time text in RFC 3339 form (or, when received, the slightly looser form {@link Incoming} accepts). */
export type Timestamp = string & Brand.Brand<"Timestamp">

const MS_PER_DAY = 86_400_000

/** The parts of a date-time text. `offsetMinutes` is `undefined` when a received text carried no offset. */
export interface Parts {
  readonly date: LocalDate.LocalDate
  readonly hour: number
  readonly minute: number
  readonly second: number
  readonly millisecond: number
  readonly offsetMinutes: number | undefined
}

const STRICT = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/
const LOOSE = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/

const toParts = (text: string, strict: boolean): Result.Result<Parts, string> => {
  const m = (strict ? STRICT : LOOSE).exec(text)
  if (m === null) {
    return Result.fail(`"${text}" is not an RFC 3339 date-time (YYYY-MM-DDThh:mm:ss[.fff]Z or ±hh:mm)`)
  }
  const date = LocalDate.parse(m[1] ?? "")
  if (Result.isFailure(date)) return Result.fail(`"${text}" has an invalid date: ${date.failure}`)
  const hour = Number(m[2])
  const minute = Number(m[3])
  const second = m[4] === undefined ? 0 : Number(m[4])
  if (hour > 23 || minute > 59 || second > 60) return Result.fail(`"${text}" has an invalid time of day`)
  const millisecond = m[5] === undefined ? 0 : Math.floor(Number(`0${m[5]}`) * 1000)
  let offsetMinutes: number | undefined
  const offset = m[6]
  if (offset === undefined) {
    offsetMinutes = undefined
  } else if (offset === "Z" || offset === "z") {
    offsetMinutes = 0
  } else {
    const digits = offset.slice(1).replace(":", "")
    const oh = Number(digits.slice(0, 2))
    const om = Number(digits.slice(2))
    if (oh > 23 || om > 59) return Result.fail(`"${text}" has an invalid time-zone offset`)
    offsetMinutes = (offset.startsWith("-") ? -1 : 1) * (oh * 60 + om)
  }
  return Result.succeed({ date: date.success, hour, minute, second, millisecond, offsetMinutes })
}

/**
 * Whether a text is a valid date-time in the common full form `YYYY-MM-DDThh:mm:ss[.fff…](Z|±hh:mm)`, read
 * character by character (no regular expression, no allocation). `true` implies that the strict and the tolerant
 * reading both accept it; `false` says nothing, and the full parser decides (and words the error).
 */
const isCommonForm = (text: string): boolean => {
  const n = text.length
  if (n < 20 || Number.isNaN(dayAt(text, 0))) return false
  const t = text.charCodeAt(10)
  if ((t !== 84 && t !== 116) || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return false
  const hour = twoDigits(text, 11)
  const minute = twoDigits(text, 14)
  const second = twoDigits(text, 17)
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) return false
  let i = 19
  if (text.charCodeAt(i) === 46) {
    i++
    const start = i
    while (i < n && digitAt(text, i) >= 0) i++
    if (i === start) return false
  }
  const z = text.charCodeAt(i)
  if (z === 90 || z === 122) return i + 1 === n
  if ((z !== 43 && z !== 45) || i + 6 !== n || text.charCodeAt(i + 3) !== 58) return false
  const oh = twoDigits(text, i + 1)
  const om = twoDigits(text, i + 4)
  return oh >= 0 && oh <= 23 && om >= 0 && om <= 59
}

/** `true` for a valid date-time (strict or tolerant reading), else why it is not one: the common form first. */
const check = (text: string, strict: boolean): true | string => {
  if (isCommonForm(text)) return true
  const r = toParts(text, strict)
  return Result.isSuccess(r) || r.failure
}

/** Whether a text is an RFC 3339 date-time: the same answer as `Result.isSuccess(parse(text))`, faster. */
export const isValid = (text: string): boolean => check(text, true) === true

/** Whether a received text is a date-time: the same answer as `Result.isSuccess(parseIncoming(text))`, faster. */
export const isValidIncoming = (text: string): boolean => check(text, false) === true

/** Parses an RFC 3339 date-time (section 5.6 `date-time`), or explains why it is not one. */
export const parse = (text: string): Result.Result<Timestamp, string> =>
  Result.map(toParts(text, true), () => text as Timestamp)

/** Parses a received date-time tolerantly: also a space for `T`, no seconds, no offset, or `+hhmm`. */
export const parseIncoming = (text: string): Result.Result<Timestamp, string> =>
  Result.map(toParts(text, false), () => text as Timestamp)

/** Parses an RFC 3339 date-time; throws on anything else (tests and literals only). */
export const parseUnsafe = (text: string): Timestamp => {
  const r = parse(text)
  if (Result.isFailure(r)) throw new RangeError(r.failure)
  return r.success
}

/** The parts of a date-time (its text was validated when it was decoded). */
export const parts = (dateTime: Timestamp): Parts => {
  const r = toParts(dateTime, false)
  if (Result.isFailure(r)) throw new RangeError(r.failure)
  return r.success
}

/**
 * The instant of a date-time in milliseconds since 1970-01-01T00:00:00Z. A text without offset (only ever received)
 * is read as UTC; a leap second `:60` counts as the first second of the next minute.
 */
export const toEpochMillis = (dateTime: Timestamp): number => {
  const p = parts(dateTime)
  return (
    p.date * MS_PER_DAY + ((p.hour * 60 + p.minute - (p.offsetMinutes ?? 0)) * 60 + p.second) * 1000 + p.millisecond
  )
}

const pad = (n: number, width: number): string => `${n}`.padStart(width, "0")

/**
 * The RFC 3339 text of an instant, at an offset from UTC in minutes (default 0, written `Z`); milliseconds appear
 * only when not zero. // => fromEpochMillis(0) = "1970-01-01T00:00:00Z"
 */
export const fromEpochMillis = (epochMillis: number, offsetMinutes = 0): Timestamp => {
  const local = Math.floor(epochMillis) + offsetMinutes * 60_000
  const day = Math.floor(local / MS_PER_DAY)
  let rest = local - day * MS_PER_DAY
  const hour = Math.floor(rest / 3_600_000)
  rest -= hour * 3_600_000
  const minute = Math.floor(rest / 60_000)
  rest -= minute * 60_000
  const second = Math.floor(rest / 1000)
  const ms = rest - second * 1000
  const abs = Math.abs(offsetMinutes)
  const zone =
    offsetMinutes === 0 ? "Z" : `${offsetMinutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60), 2)}:${pad(abs % 60, 2)}`
  const fraction = ms === 0 ? "" : `.${pad(ms, 3)}`
  return `${LocalDate.format(day as LocalDate.LocalDate)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}${fraction}${zone}` as Timestamp
}

/** The calendar date of a date-time in its own offset (the `YYYY-MM-DD` part). */
export const localDate = (dateTime: Timestamp): LocalDate.LocalDate => parts(dateTime).date

/** A date-time we send: strict RFC 3339, kept as text (`creationDateTime`, `PSU-Last-Logged-Time`). */
export const Timestamp = Schema.String.check(Schema.makeFilter((s: string) => check(s, true))).pipe(
  Schema.brand("Timestamp")
)

/**
 * A date-time we receive (the balance check's `dateTime`): RFC 3339, tolerating a space for `T`, missing seconds, a
 * missing offset and `+hhmm`; the text is kept exactly as received.
 */
export const Incoming = Schema.String.check(Schema.makeFilter((s: string) => check(s, false))).pipe(
  Schema.brand("Timestamp")
)
