/**
 * Card-transaction details of the balance-check request (docs/bank-interface.md, "Balance check"): the merchant
 * category code and the masked card number carried in `references.chequeNumber`.
 *
 * @since 0.1.0
 */
import { type Brand, Schema } from "effect"

/** A merchant category code (MCC): four digits. */
export type MerchantCategoryCode = string & Brand.Brand<"MerchantCategoryCode">

/** A masked card number: four groups of four characters, the first three groups asterisks. */
export type MaskedCardNumber = string & Brand.Brand<"MaskedCardNumber">

/**
 * A merchant category code on the wire: exactly four digits (docs/bank-interface.md, "Balance check":
 * `tradingParty.merchantCode`).
 */
export const MerchantCategoryCode = Schema.String.check(
  Schema.isPattern(/^\d{4}$/, { message: "merchant category code must be four digits" })
).pipe(Schema.brand("MerchantCategoryCode"))

/** The pattern of a masked card number: 16 characters, with or without the same single space or `-` between groups. */
export const maskedCardPattern = /^\*{4}([ -]?)\*{4}\1\*{4}\1[0-9]{4}$/

/**
 * A masked card number (`references.chequeNumber`): 12 asterisks then the last four digits, with or without one
 * space or `-` between the four groups (docs/bank-interface.md, "Balance check"). // => "**** **** **** 1234"
 */
export const MaskedCardNumber = Schema.String.check(
  Schema.isPattern(maskedCardPattern, {
    message: "masked card number must be four groups of four characters, the first three masked with *"
  })
).pipe(Schema.brand("MaskedCardNumber"))

/** Whether a text is a masked card number. */
export const isMaskedCardNumber = (text: string): text is MaskedCardNumber => maskedCardPattern.test(text)

/** Masks a 16-digit card number (spaces and `-` ignored), keeping the last four digits; `undefined` for other input. */
export const maskCardNumber = (cardNumber: string): MaskedCardNumber | undefined => {
  const digits = cardNumber.replace(/[ -]/g, "")
  return /^\d{16}$/.test(digits) ? (`************${digits.slice(12)}` as MaskedCardNumber) : undefined
}
