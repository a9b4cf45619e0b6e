/**
 * Reading ASCII digits from a text by character code, for the date and date-time readers (no regular
 * expression, no substring, no allocation).
 */
import { monthStarts } from "./months.ts"

/** The value of the ASCII digit at `i` of `text`, or −1 when it is not one. */
export const digitAt = (text: string, i: number): number => {
  const d = text.charCodeAt(i) - 48
  return d >= 0 && d <= 9 ? d : -1
}

/** The two-digit number at `i` of `text`, or −1 when either character is not a digit. */
export const twoDigits = (text: string, i: number): number => {
  const a = digitAt(text, i)
  const b = digitAt(text, i + 1)
  return a < 0 || b < 0 ? -1 : a * 10 + b
}

/**
 * The day number of the `YYYY-MM-DD` at `i` of `text` naming a supported date (years 0001–9999), read from the
 * character codes; `NaN` for anything else (what follows the date is not read).
 */
export const dayAt = (text: string, i: number): number => {
  if (text.charCodeAt(i + 4) !== 45 || text.charCodeAt(i + 7) !== 45) return Number.NaN
  const y0 = digitAt(text, i)
  const y1 = digitAt(text, i + 1)
  const y2 = digitAt(text, i + 2)
  const y3 = digitAt(text, i + 3)
  const m0 = digitAt(text, i + 5)
  const m1 = digitAt(text, i + 6)
  const d0 = digitAt(text, i + 8)
  const d1 = digitAt(text, i + 9)
  if ((y0 | y1 | y2 | y3 | m0 | m1 | d0 | d1) < 0) return Number.NaN
  const year = y0 * 1000 + y1 * 100 + y2 * 10 + y3
  const month = m0 * 10 + m1
  const day = d0 * 10 + d1
  if (year < 1 || month < 1 || month > 12 || day < 1) return Number.NaN
  const index = year * 12 + month - 1
  const starts = monthStarts()
  const start = starts[index]!
  return day <= starts[index + 1]! - start ? start + day - 1 : Number.NaN
}
