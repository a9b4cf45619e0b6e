/**
 * Reading ASCII digits from a text by character code, for the date and date-time readers (no regular
 * expression, no substring, no allocation).
 */

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
