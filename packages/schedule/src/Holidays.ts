/**
 * National holiday calendars from the maintained `date-holidays` library (ISC code, CC BY-SA data), plugged
 * into core's calendar interface (packages/core/README.md, "Working days"). Only holidays of type "public" count unless
 * other types are asked for. Each year is computed once, lazily, into a set of day numbers: lookups are O(1).
 * The library itself is loaded on the first call that needs a country's holidays (`national`, `countries`, a
 * currency other than EUR in `ofCurrency`), not on import: TARGET and weekends never load it.
 *
 * @since 0.1.0
 */

import { Calendar, LocalDate } from "@tppkit/core"
import type DateHolidays from "date-holidays"
import { Result } from "effect"
import * as HolidayLibrary from "./internal/holidayLibrary.ts"

/** Holiday types of the library; a national calendar counts `public` only by default. */
export type HolidayType = "public" | "bank" | "optional" | "school" | "observance"

/** Options of {@link national}: a subdivision (ISO 3166-2 state code, optional region) and the types to count. */
export interface Options {
  readonly state?: string | undefined
  readonly region?: string | undefined
  readonly types?: ReadonlyArray<HolidayType> | undefined
}

const MS_PER_DAY = 86_400_000

let countryTable: Record<string, string> | undefined
/** The library's countries by code, or `undefined` when the library cannot be loaded. */
const countryNames = (): Record<string, string> | undefined => {
  if (countryTable === undefined) {
    const loaded = HolidayLibrary.load()
    if ("library" in loaded) countryTable = new loaded.library().getCountries("en")
  }
  return countryTable
}

/**
 * The ISO 3166-1 alpha-2 codes of every country the library knows, sorted (none where the library cannot be
 * loaded: outside Node).
 */
export const countries = (): ReadonlyArray<string> => Object.keys(countryNames() ?? {}).sort()

/** The holiday dates of one year from the library (each day of a multi-day holiday) with their names, by type. */
const yearDays = (
  source: DateHolidays,
  year: number,
  types: ReadonlySet<string>
): Array<readonly [LocalDate.LocalDate, string]> => {
  const out: Array<readonly [LocalDate.LocalDate, string]> = []
  let list: ReturnType<DateHolidays["getHolidays"]>
  try {
    list = source.getHolidays(year, "en")
  } catch {
    return out
  }
  for (const h of list ?? []) {
    if (!types.has(h.type)) continue
    // `date` is the local start "YYYY-MM-DD hh:mm:ss"; start/end give the length (≥ 1 day, DST-safe rounding)
    const first = LocalDate.parse(h.date.slice(0, 10))
    if (Result.isFailure(first)) continue
    const days = Math.max(1, Math.round((Number(h.end) - Number(h.start)) / MS_PER_DAY))
    for (let i = 0; i < days; i++) out.push([LocalDate.addDays(first.success, i), h.name])
  }
  return out
}

/**
 * The national holiday calendar of an ISO 3166 country (e.g. `SK`, `CZ`, `AT`, `DE`), optionally of one state
 * (`{ state: "BY" }` or `"DE-BY"`), or the reason it cannot be built (unknown country or state).
 * @example national("SK") // Ok: isHoliday(2026-08-29) === true
 */
export const national = (country: string, options?: Options): Result.Result<Calendar.Calendar, string> => {
  // "DE-BY" (ISO 3166-2) names a state the same way as `{ state: "BY" }`
  const [code = "", subdivision] = country.trim().toUpperCase().split("-", 2)
  const unknown = `unknown country "${country}": expected an ISO 3166-1 alpha-2 code the holiday library knows`
  if (!/^[A-Z]{2}$/.test(code)) return Result.fail(unknown) // without loading the library
  const library = HolidayLibrary.load()
  if ("problem" in library) return Result.fail(`no national calendar for "${country}": ${library.problem}`)
  const Library = library.library
  if (!(code in (countryNames() ?? {}))) return Result.fail(unknown)
  const state = (options?.state ?? subdivision)?.trim().toUpperCase()
  const region = options?.region?.trim().toUpperCase()
  if (state !== undefined) {
    const states = new Library().getStates(code) ?? {}
    if (!(state in states)) return Result.fail(`unknown state "${state}" of ${code}`)
  }
  const source =
    state === undefined
      ? new Library(code)
      : region === undefined
        ? new Library(code, state)
        : new Library(code, state, region)
  const types = new Set<string>(options?.types ?? ["public"])
  const days = new Set<number>()
  const names = new Map<number, string>()
  const loaded = new Set<number>()
  const load = (year: number): void => {
    if (loaded.has(year)) return
    loaded.add(year)
    for (const [d, holiday] of yearDays(source, year, types)) {
      days.add(d)
      // two holidays on one day: both names
      const known = names.get(d)
      names.set(d, known === undefined || known === holiday ? holiday : `${known}, ${holiday}`)
    }
  }
  const name = state === undefined ? code : `${code}-${state}${region === undefined ? "" : `-${region}`}`
  // cache the year span of the last lookup so that the common case costs two comparisons and a Set lookup
  let lo = 1
  let hi = 0
  const isHoliday = (d: LocalDate.LocalDate): boolean => {
    if (d < lo || d > hi) {
      const { year } = LocalDate.toParts(d)
      // a multi-day holiday may start in the previous year
      load(year - 1)
      load(year)
      lo = LocalDate.fromPartsUnchecked(year, 1, 1)
      hi = LocalDate.fromPartsUnchecked(year, 12, 31)
    }
    return days.has(d)
  }
  // per year, the sorted weekday holidays: counting them over a range costs two binary searches per year
  const weekdayHolidays = new Map<number, Int32Array>()
  const ofYear = (year: number): Int32Array => {
    let list = weekdayHolidays.get(year)
    if (list === undefined) {
      load(year - 1)
      load(year)
      const first = LocalDate.fromPartsUnchecked(year, 1, 1)
      const last = LocalDate.fromPartsUnchecked(year, 12, 31)
      const found: Array<number> = []
      for (let d = first; d <= last; d = LocalDate.addDays(d, 1)) {
        if (!LocalDate.isWeekend(d) && days.has(d)) found.push(d)
      }
      list = Int32Array.from(found)
      weekdayHolidays.set(year, list)
    }
    return list
  }
  const countWeekdayHolidays = (from: LocalDate.LocalDate, to: LocalDate.LocalDate): number => {
    if (to < from) return 0
    const first = LocalDate.toParts(from).year
    const last = LocalDate.toParts(to).year
    let count = 0
    for (let year = first; year <= last; year++) {
      const list = ofYear(year)
      count += (year === last ? upperBound(list, to) : list.length) - (year === first ? lowerBound(list, from) : 0)
    }
    return count
  }
  // the library's English name of the holiday (read only to explain a date)
  const holidayName = (d: LocalDate.LocalDate): string | undefined => (isHoliday(d) ? names.get(d) : undefined)
  return Result.succeed(Calendar.make(name, isHoliday, countWeekdayHolidays, holidayName))
}

/** The first index whose value is not below `x`. */
const lowerBound = (list: Int32Array, x: number): number => {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (list[mid]! < x) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The first index whose value is above `x`. */
const upperBound = (list: Int32Array, x: number): number => lowerBound(list, x + 1)

/** The national holiday calendar of a country; throws on an unknown country (tests and literals only). */
export const nationalUnsafe = (country: string, options?: Options): Calendar.Calendar => {
  const r = national(country, options)
  if (Result.isFailure(r)) throw new RangeError(r.failure)
  return r.success
}

/**
 * The calendar of a currency, the one its settlement system keeps: EUR follows TARGET; any other currency the
 * national calendar of the country whose ISO 3166 code begins its ISO 4217 code (CZK → CZ, USD → US, GBP → GB,
 * CHF → CH); a currency without such a country (XAU, XDR …, or any where the holiday library cannot be loaded)
 * counts weekends only. The calendar's `name` says which: `target`, the country code, or `weekends`. Only a
 * currency other than EUR loads the holiday library.
 */
export const ofCurrency = (currency: string): Calendar.Calendar => {
  const code = currency.trim().toUpperCase()
  if (code === "EUR") return Calendar.target
  const country = code.slice(0, 2)
  const calendar = /^[A-Z]{2}$/.test(country) && !country.startsWith("X") ? national(country) : undefined
  return calendar !== undefined && Result.isSuccess(calendar) ? calendar.success : Calendar.weekends
}

/**
 * Each currency's calendar ({@link ofCurrency}, each built once) with `extra` holidays added (keeping its name):
 * the `calendar` option of a projection in which every payment moves by its own currency's holidays.
 */
export const byCurrency = (
  extra: ReadonlyArray<LocalDate.LocalDate> = []
): ((currency: string) => Calendar.Calendar) => {
  const cache = new Map<string, Calendar.Calendar>()
  return (currency) => {
    let found = cache.get(currency)
    if (found === undefined) {
      const base = ofCurrency(currency)
      found = extra.length === 0 ? base : Calendar.withHolidays(base, extra, base.name)
      cache.set(currency, found)
    }
    return found
  }
}

/**
 * A calendar whose holidays are those of every given calendar, e.g. `union([Calendar.target, sk])`; add custom
 * dates with core's `Calendar.withHolidays`.
 */
export const union = (calendars: ReadonlyArray<Calendar.Calendar>, name?: string): Calendar.Calendar => {
  const predicates = calendars.map((c) => c.isHoliday)
  return Calendar.make(
    name ?? calendars.map((c) => c.name).join("+"),
    (d) => {
      for (const isHoliday of predicates) if (isHoliday(d)) return true
      return false
    },
    undefined,
    (d) => {
      for (const c of calendars) if (c.isHoliday(d)) return c.holidayName?.(d) ?? `a holiday of ${c.name}`
      return undefined
    }
  )
}

/** The holidays of a calendar within `from`..`to` (inclusive), weekends excluded, in date order. */
export const between = (
  calendar: Calendar.Calendar,
  from: LocalDate.LocalDate,
  to: LocalDate.LocalDate
): Array<LocalDate.LocalDate> => {
  const out: Array<LocalDate.LocalDate> = []
  for (let d = from; d <= to; d = LocalDate.addDays(d, 1)) if (calendar.isHoliday(d)) out.push(d)
  return out
}
