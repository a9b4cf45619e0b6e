/**
 * A calendar date without time of day or time zone (proleptic Gregorian, 0001-01-01 to 9999-12-31).
 * Inside it is an integer day number (1970-01-01 = 0) so that date arithmetic is integer arithmetic;
 * on the wire it is the text `YYYY-MM-DD`. No `Date` object is ever involved.
 *
 * @since 0.1.0
 */
import { type Brand, DateTime, Order as Ord, Result, Schema, SchemaTransformation } from "effect"
import { dayAt } from "./internal/digits.ts"
import * as Months from "./internal/months.ts"

/** A calendar date as its day number since 1970-01-01 (negative before it). */
export type LocalDate = number & Brand.Brand<"LocalDate">

/**
 * The bank's time zone (an IANA name). Which calendar date "today" is, for the daily limit of unattended listings,
 * a schedule's due payments or a worker's sweep, is decided on the clock of this zone unless a caller says otherwise.
 */
export const bankTimeZone = "Europe/Bratislava"

/** Year, month (1–12) and day of month (1–31) of a date. */
export interface Parts {
  readonly year: number
  readonly month: number
  readonly day: number
}

// ---------------------------------------------------------------------------
// integer calendar arithmetic (days from civil / civil from days)
// ---------------------------------------------------------------------------

const { DAYS_0000_03_01_TO_EPOCH, DAYS_PER_ERA } = Months

/** Whether `year` is a Gregorian leap year. */
export const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

const MONTH_LENGTHS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const

/** Number of days in `month` (1–12) of `year`. */
export const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (isLeapYear(year) ? 29 : 28) : MONTH_LENGTHS[month - 1]!

/** Day number of a valid year/month/day, without range checks (callers validate first). */
const toDayNumber = Months.dayNumber

/** The smallest supported date, 0001-01-01. */
export const MIN: LocalDate = toDayNumber(1, 1, 1) as LocalDate
/** The largest supported date, 9999-12-31. */
export const MAX: LocalDate = toDayNumber(9999, 12, 31) as LocalDate

/** Whether a number is the day number of a supported date. */
export const isValidDayNumber = (n: number): n is LocalDate => Number.isInteger(n) && n >= MIN && n <= MAX

/** Year, month and day of a date. */
export const toParts = (date: LocalDate): Parts => {
  const z = date + DAYS_0000_03_01_TO_EPOCH
  const era = Math.floor(z / DAYS_PER_ERA)
  const doe = z - era * DAYS_PER_ERA
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day }
}

// ---------------------------------------------------------------------------
// constructors
// ---------------------------------------------------------------------------

/** Why a year/month/day or a text is not a supported date. */
const invalidReason = (year: number, month: number, day: number): string | undefined => {
  if (!Number.isInteger(year) || year < 1 || year > 9999) return `year ${year} is outside 0001–9999`
  if (!Number.isInteger(month) || month < 1 || month > 12) return `month ${month} is outside 1–12`
  if (!Number.isInteger(day) || day < 1 || day > daysInMonth(year, month)) {
    return `day ${day} does not exist in ${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}`
  }
  return undefined
}

/** The date of a year, month and day, or the reason it does not exist. */
export const make = (year: number, month: number, day: number): Result.Result<LocalDate, string> => {
  const reason = invalidReason(year, month, day)
  return reason === undefined ? Result.succeed(toDayNumber(year, month, day) as LocalDate) : Result.fail(reason)
}

/** The date of a year, month and day; throws on a date that does not exist (tests and literals only). */
export const makeUnsafe = (year: number, month: number, day: number): LocalDate => {
  const reason = invalidReason(year, month, day)
  if (reason !== undefined) throw new RangeError(reason)
  return toDayNumber(year, month, day) as LocalDate
}

/** The date of a day number; throws outside 0001-01-01..9999-12-31. */
export const fromDayNumberUnsafe = (n: number): LocalDate => {
  if (!isValidDayNumber(n)) throw new RangeError(`day number ${n} is outside 0001-01-01..9999-12-31`)
  return n
}

const ISO_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/

/**
 * The day number of a `YYYY-MM-DD` text naming a supported date (years 0001–9999), read from the character
 * codes without a regular expression or substrings; `NaN` for anything else.
 */
const dayOfText = (text: string): number => (text.length === 10 ? dayAt(text, 0) : Number.NaN)

/** Parses `YYYY-MM-DD` into a date, or explains why it is not one. */
export const parse = (text: string): Result.Result<LocalDate, string> => {
  const fast = dayOfText(text)
  if (!Number.isNaN(fast)) return Result.succeed(fast as LocalDate)
  // not a valid date: the regular expression and the range checks say why
  const m = ISO_PATTERN.exec(text)
  if (m === null) return Result.fail(`"${text}" is not a date of the form YYYY-MM-DD`)
  const reason = invalidReason(Number(m[1]), Number(m[2]), Number(m[3]))
  return reason === undefined
    ? Result.succeed(toDayNumber(Number(m[1]), Number(m[2]), Number(m[3])) as LocalDate)
    : Result.fail(`"${text}" is not a calendar date: ${reason}`)
}

/** Parses `YYYY-MM-DD`; throws on anything else (tests and literals only). */
export const parseUnsafe = (text: string): LocalDate => {
  const r = parse(text)
  if (Result.isFailure(r)) throw new RangeError(r.failure)
  return r.success
}

// ---------------------------------------------------------------------------
// queries and operations
// ---------------------------------------------------------------------------

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`)
const pad4 = (n: number): string => (n >= 1000 ? `${n}` : n >= 100 ? `0${n}` : n >= 10 ? `00${n}` : `000${n}`)

/** `-MM-DD` texts indexed by month·32 + day, and `YYYY` texts of the years 0001–9999 (built on first use). */
const MONTH_DAY_TEXT: ReadonlyArray<string> = Array.from(
  { length: 13 * 32 },
  (_, i) => `-${pad2(i >> 5)}-${pad2(i & 31)}`
)
let yearTexts: Array<string> | undefined

/**
 * `n` empty texts, filled natively: at start-up `Array.from` with a function, or a loop of pushes, takes some
 * 20 times as long (a few milliseconds for the 109,573 days of the text cache).
 */
const emptyTexts = (n: number): Array<string> => new Array<string>(n).fill("")

/** A year's text, made on first use (making all 10,000 at once cost a command's start-up a few milliseconds). */
const yearText = (year: number): string => {
  if (year < 1 || year > 9999) return pad4(year)
  yearTexts ??= emptyTexts(10_000)
  const text = yearTexts[year]!
  if (text !== "") return text
  const made = pad4(year)
  yearTexts[year] = made
  return made
}

/** The ISO text of a date from a month-start table lookup and cached pieces. */
const buildText = (date: LocalDate): string => {
  if (Months.inRange(date)) {
    const index = Months.monthIndexOf(date)
    const year = (index / 12) | 0
    const day = date - Months.monthStarts()[index]! + 1
    return yearText(year) + MONTH_DAY_TEXT[(index - year * 12 + 1) * 32 + day]!
  }
  const { year, month, day } = toParts(date)
  return `${pad4(year)}-${pad2(month)}-${pad2(day)}`
}

/** The first day whose text {@link format} keeps once made (1900-01-01), and how many days it keeps (to 2199-12-31). */
const TEXT_CACHE_FIRST = toDayNumber(1900, 1, 1)
const TEXT_CACHE_DAYS = toDayNumber(2200, 1, 1) - TEXT_CACHE_FIRST
/** The texts made so far for the days of 1900–2199 ("" until first asked for; about 0.9 MB, built on first use). */
let textCache: Array<string> | undefined

/**
 * The ISO text `YYYY-MM-DD` of a date. A hot path: the text of a day in 1900–2199 is made once and then shared
 * (strings are immutable), so repeated and kept dates cost a lookup and no allocation.
 */
export const format = (date: LocalDate): string => {
  const i = date - TEXT_CACHE_FIRST
  if (i >= 0 && i < TEXT_CACHE_DAYS && (i | 0) === i) {
    textCache ??= emptyTexts(TEXT_CACHE_DAYS)
    const text = textCache[i]!
    if (text !== "") return text
    const made = buildText(date)
    textCache[i] = made
    return made
  }
  return buildText(date)
}

/** The months' English names, January first: `monthNames[month - 1]`, as explanations and losses name them. */
export const monthNames: ReadonlyArray<string> = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December"
]

/** ISO weekday: 1 = Monday … 7 = Sunday. 1970-01-01 was a Thursday. */
export const dayOfWeek = (date: LocalDate): number => ((((date + 3) % 7) + 7) % 7) + 1

/** Whether a date is a Saturday or a Sunday. */
export const isWeekend = (date: LocalDate): boolean => dayOfWeek(date) >= 6

/** The date `n` days later (earlier for negative `n`). The caller keeps the result within 0001–9999. */
export const addDays = (date: LocalDate, n: number): LocalDate => (date + n) as LocalDate

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: LocalDate, to: LocalDate): number => to - from

/**
 * The same day of month `n` months later, clamped to the last day of a shorter month.
 * From 2024-01-31: +1 → 2024-02-29, +2 → 2024-03-31 (packages/core/README.md, "Nominal dates").
 */
export const addMonthsClamped = (date: LocalDate, n: number): LocalDate => {
  const { year, month, day } = toParts(date)
  const index = year * 12 + (month - 1) + n
  const y = Math.floor(index / 12)
  return ofMonthClamped(y, index - y * 12 + 1, day)
}

/** Year/month/day-of-month clamped into a date: the day is capped at the month's last day. */
export const ofMonthClamped = (year: number, month: number, day: number): LocalDate => {
  const dim = daysInMonth(year, month)
  return toDayNumber(year, month, Math.min(day, dim)) as LocalDate
}

/** Alias to build a date from parts already known to be valid (no checks; hot paths). */
export const fromPartsUnchecked = (year: number, month: number, day: number): LocalDate =>
  toDayNumber(year, month, day) as LocalDate

/**
 * The calendar date of an instant (epoch milliseconds) in a time zone (an IANA name such as {@link bankTimeZone}, or
 * effect's `DateTime.TimeZone`); an unknown zone name throws, so check a name from outside first.
 */
export const ofInstant = (epochMillis: number, timeZone: string | DateTime.TimeZone): LocalDate => {
  const parts = DateTime.toParts(DateTime.makeZonedUnsafe(epochMillis, { timeZone }))
  return fromPartsUnchecked(parts.year, parts.month, parts.day)
}

/**
 * The instant a date begins at UTC midnight (epoch milliseconds); `ofInstant(toEpochMillis(d), "UTC")` is `d`, and
 * any instant of that UTC day is read back as `d` by `ofInstant`.
 */
export const toEpochMillis = (date: LocalDate): number => date * 86_400_000

/** The year of a date. */
export const year = (date: LocalDate): number => toParts(date).year
/** The month (1–12) of a date. */
export const month = (date: LocalDate): number => toParts(date).month
/** The day of month (1–31) of a date. */
export const day = (date: LocalDate): number => toParts(date).day

/** Chronological order of dates. */
export const Order: Ord.Order<LocalDate> = Ord.Number as Ord.Order<LocalDate>

/** The earlier of two dates. */
export const min = (a: LocalDate, b: LocalDate): LocalDate => (a <= b ? a : b)
/** The later of two dates. */
export const max = (a: LocalDate, b: LocalDate): LocalDate => (a >= b ? a : b)

// ---------------------------------------------------------------------------
// schemas
// ---------------------------------------------------------------------------

/** The domain value: a branded integer day number within 0001-01-01..9999-12-31. */
export const LocalDateFromSelf = Schema.Int.check(
  Schema.makeFilter((n: number) => isValidDayNumber(n) || `day number ${n} is outside 0001-01-01..9999-12-31`)
).pipe(Schema.brand("LocalDate"))

const DATE_TEXT = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/

/**
 * The wire form: text `YYYY-MM-DD` naming a date that exists, years 0001–9999; a refusal names the text as given, in
 * words (a five-digit year: `"20260-01-05" is not a date written YYYY-MM-DD …`). JSON Schema: the pattern.
 */
export const IsoDateString = Schema.String.check(
  Schema.makeFilter(
    (s: string) => {
      if (!DATE_TEXT.test(s)) {
        return `${JSON.stringify(s)} is not a date written YYYY-MM-DD (a year of four digits 0001 to 9999, a month 01 to 12, a day 01 to 31)`
      }
      const r = parse(s)
      return Result.isSuccess(r) || r.failure
    },
    { toJsonSchema: () => ({ pattern: DATE_TEXT.source }) }
  )
)

/** `YYYY-MM-DD` on the wire ↔ {@link LocalDate} in the domain (the text is checked before it is converted). */
export const LocalDate = IsoDateString.pipe(
  Schema.decodeTo(
    LocalDateFromSelf,
    SchemaTransformation.transform({
      decode: (s: string): number => parseUnsafe(s),
      encode: (n: number): string => format(n as LocalDate)
    })
  )
)
