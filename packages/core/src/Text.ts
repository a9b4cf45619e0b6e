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
