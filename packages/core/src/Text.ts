/**
 * Bounded texts with the bank's field lengths (docs/bank-interface.md, "Limits at a glance"). What we send is checked
 * against the limit ("outgoing" schemas); what we receive is kept whole even when it is longer
 * (README.md, "Wire formats").
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/** The bank's length limits, by field. */
export const limits = {
  iban: 34,
  currency: 3,
  tradingPartyIdentification: 35,
  tradingPartyName: 140,
  tradingPartyAddress: 70,
  countryCode: 2,
  merchantCode: 4,
  chequeNumber: 35,
  holderName: 35,
  partyName: 70,
  addressLine: 35,
  endToEndIdentification: 35,
  remittanceInformation: 140,
  standingOrderName: 40
} as const

/** An outgoing text of at most `max` characters; a longer one is rejected with a message naming the limit. */
export const bounded = (max: number) =>
  Schema.String.check(Schema.isMaxLength(max, { message: `must be at most ${max} characters` }))

/** An outgoing text of at most 35 characters (identifications, address lines, card holder name). */
export const Max35 = bounded(35)

/** An outgoing text of at most 40 characters (standing-order name). */
export const Max40 = bounded(40)

/** An outgoing text of at most 70 characters (party names, merchant address). */
export const Max70 = bounded(70)

/** An outgoing text of at most 140 characters (remittance information, merchant name). */
export const Max140 = bounded(140)

/** An incoming text: any string, kept whole even beyond the document's limit (README.md, "Wire formats"). */
export const Incoming = Schema.String

/** Whether a received text exceeds its documented limit (useful for warnings; the text itself is kept). */
export const exceeds = (text: string, max: number): boolean => text.length > max

/**
 * The characters a terminal, a spreadsheet, an HTML parser or an iCalendar reader would act on rather than show: C0
 * controls (ESC, BEL, CR, LF, tab…), DEL, C1 controls, the bidirectional and line-separator controls, and lone
 * surrogates.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding the control characters is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]/gu

const escaped = (c: string): string => {
  const code = c.charCodeAt(0)
  return code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`
}

/** Whether a text holds a character {@link printable} escapes. */
export const hasUnprintable = (text: string): boolean => {
  UNPRINTABLE.lastIndex = 0
  const found = UNPRINTABLE.test(text)
  UNPRINTABLE.lastIndex = 0
  return found
}

/**
 * Text from a bank or a file (a creditor's name, an orderId, a reason quoting them) with every control character
 * shown escaped (`ESC ]0;x BEL` as `\x1b]0;x\x07`, a bidirectional override as `\u{202e}`, a newline as `\x0a`, a
 * lone surrogate as `\u{d800}`): safe on a terminal, in a CSV cell, in HTML and in an iCalendar TEXT value, and still
 * visible; printable text is returned as it is. // => printable("a\u001bb") === "a\\x1bb"
 */
export const printable = (text: string): string => (hasUnprintable(text) ? text.replace(UNPRINTABLE, escaped) : text)
