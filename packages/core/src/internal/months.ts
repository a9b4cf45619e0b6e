/**
 * A table of the first day of every month of 0001–9999 (about 120,000 integers, built on first use) that
 * turns "which month is this day in" and "day n of month m" into one or two lookups on the engine's hot
 * paths. Month index = year·12 + month − 1. Shares no import with the public modules (they import it).
 */

/** Days from 0000-03-01 to 1970-01-01 (the shift between the era arithmetic and day numbers). */
export const DAYS_0000_03_01_TO_EPOCH = 719_468
/** Days in a 400-year Gregorian era. */
export const DAYS_PER_ERA = 146_097

/** The day number of a valid year/month/day (days-from-civil, 1970-01-01 = 0). */
export const dayNumber = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * DAYS_PER_ERA + doe - DAYS_0000_03_01_TO_EPOCH
}

/** The month index of January 0001. */
export const FIRST_MONTH_INDEX = 12
/** The month index of December 9999. */
export const LAST_MONTH_INDEX = 9999 * 12 + 11
/** The day number of 0001-01-01. */
const FIRST_DAY = dayNumber(1, 1, 1)
/** The day number of 9999-12-31. */
const LAST_DAY = dayNumber(9999, 12, 31)
/** Months per day on average (4,800 Gregorian months per 146,097 days): a multiplication is cheaper than a division. */
const MONTHS_PER_DAY = 4800 / DAYS_PER_ERA

let starts: Int32Array | undefined

/** First day of each month index from 0 to one past December 9999 (indices before year 1 hold 0). */
export const monthStarts = (): Int32Array => {
  if (starts === undefined) {
    const s = new Int32Array(LAST_MONTH_INDEX + 2)
    for (let index = FIRST_MONTH_INDEX; index <= LAST_MONTH_INDEX + 1; index++) {
      const year = Math.floor(index / 12)
      s[index] = dayNumber(year, index - year * 12 + 1, 1)
    }
    starts = s
  }
  return starts
}

/** Whether a day number lies in 0001-01-01..9999-12-31 (the range the table covers). */
export const inRange = (d: number): boolean => d >= FIRST_DAY && d <= LAST_DAY

/** The month index of a day number within 0001–9999: an estimate from the mean month length, then corrected. */
export const monthIndexOf = (d: number): number => {
  const s = monthStarts()
  let i = FIRST_MONTH_INDEX + Math.floor((d - FIRST_DAY) * MONTHS_PER_DAY)
  if (i > LAST_MONTH_INDEX) i = LAST_MONTH_INDEX
  while (s[i]! > d) i--
  while (i < LAST_MONTH_INDEX && s[i + 1]! <= d) i++
  return i
}
