/**
 * Easter Sunday of the Gregorian calendar (packages/core/README.md, "Working days": "Easter by the
 * Gregorian computus"). Pure integer arithmetic; used by the TARGET2 calendar for Good Friday and Easter Monday.
 *
 * @since 0.1.0
 */
import * as LocalDate from "./LocalDate.ts"

/**
 * Month (3 or 4) and day of Easter Sunday in a Gregorian `year`, by the anonymous Gregorian computus
 * (Meeus/Jones/Butcher): golden number, century corrections, epact, then the following Sunday.
 */
export const monthDay = (year: number): { readonly month: number; readonly day: number } => {
  const golden = year % 19
  const century = Math.floor(year / 100)
  const yearOfCentury = year % 100
  const leapCenturies = Math.floor(century / 4)
  const centuryRest = century % 4
  const lunarCorrection = Math.floor((century + 8) / 25)
  const moonCorrection = Math.floor((century - lunarCorrection + 1) / 3)
  const epact = (19 * golden + century - leapCenturies - moonCorrection + 15) % 30
  const leapYears = Math.floor(yearOfCentury / 4)
  const yearRest = yearOfCentury % 4
  const weekday = (32 + 2 * centuryRest + 2 * leapYears - epact - yearRest) % 7
  const correction = Math.floor((golden + 11 * epact + 22 * weekday) / 451)
  const n = epact + weekday - 7 * correction + 114
  return { month: Math.floor(n / 31), day: (n % 31) + 1 }
}

/**
 * The date of Easter Sunday in a Gregorian `year` (0001–9999): always between 22 March and 25 April.
 * `Easter.sunday(2024)` is 2024-03-31; `Easter.sunday(2026)` is 2026-04-05.
 */
export const sunday = (year: number): LocalDate.LocalDate => {
  const { month, day } = monthDay(year)
  return LocalDate.fromPartsUnchecked(year, month, day)
}
