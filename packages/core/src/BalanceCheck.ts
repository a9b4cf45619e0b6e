/**
 * The balance check (PIISP): request body (interface document, section 2.2) and response body (section 2.3).
 * The request is what we send, so every limit is checked before sending: IBAN, `[12.2]` amount, ISO 4217 currency,
 * text lengths, country code, MCC and masked card number (decisions: wire formats).
 *
 * @since 0.1.0
 */
import { BigDecimal, Schema } from "effect"
import * as Card from "./Card.ts"
import * as Currency from "./Currency.ts"
import * as DateTime from "./DateTime.ts"
import * as Iban from "./Iban.ts"
import * as Money from "./Money.ts"
import * as Text from "./Text.ts"

/** The amount to check: `amount.value` in format [12.2] as a JSON number, `amount.currency` ISO 4217 (section 2.2). */
export const Amount = Schema.Struct({
  value: Money.BalanceCheckAmountValue,
  currency: Currency.CurrencyCode
})

/** The third party of the transaction, for a card transaction the merchant (`relatedParties.tradingParty`, 2.2). */
export const TradingParty = Schema.Struct({
  identification: Schema.optionalKey(Text.Max35),
  name: Schema.optionalKey(Text.Max140),
  address: Schema.optionalKey(Text.Max70),
  countryCode: Schema.optionalKey(Currency.CountryCode),
  merchantCode: Schema.optionalKey(Card.MerchantCategoryCode)
})

/** `relatedParties` of the balance-check request (section 2.2). */
export const RelatedParties = Schema.Struct({
  tradingParty: Schema.optionalKey(TradingParty)
})

/** Card references: the masked card number (`chequeNumber`, max 35) and the holder name (max 35) (section 2.2). */
export const References = Schema.Struct({
  chequeNumber: Schema.optionalKey(Card.MaskedCardNumber.check(Schema.isMaxLength(Text.limits.chequeNumber))),
  holderName: Schema.optionalKey(Text.Max35)
})

/** `instructionIdentification`: the PIISP's technical identification of the payment, a non-empty text (2.2). */
export const InstructionIdentification = Schema.String.check(
  Schema.isMinLength(1, { message: "instructionIdentification must not be empty" })
)

/** The balance-check request body (section 2.2); optional parts are optional keys, absent when not given. */
export const Request = Schema.Struct({
  instructionIdentification: InstructionIdentification,
  creationDateTime: Schema.optionalKey(DateTime.DateTime),
  iban: Iban.Iban,
  amount: Amount,
  relatedParties: Schema.optionalKey(RelatedParties),
  references: Schema.optionalKey(References)
})

/** A balance-check request. */
export type Request = typeof Request.Type

/** A balance-check request in its JSON form, as `Schema.encode(Request)` produces it. */
export type RequestJson = typeof Request.Encoded

/**
 * Encodes the common request, the three mandatory fields and none of the optional ones, without the schema
 * interpreter: the same checks as {@link Request} (non-empty instruction identification, valid IBAN, positive
 * `[12.2]` amount, ISO 4217 code), called directly. Whatever it returns equals what `Schema.encode(Request)`
 * returns. It answers `undefined` for a request with optional parts or a failed check: encode that one with
 * {@link Request}, which also words the error.
 */
export const encodeRequestFast = (request: Request): RequestJson | undefined => {
  const { instructionIdentification: id, iban, amount } = request
  if (
    request.creationDateTime !== undefined ||
    request.relatedParties !== undefined ||
    request.references !== undefined ||
    typeof id !== "string" ||
    id.length === 0 ||
    typeof iban !== "string" ||
    typeof amount !== "object" ||
    amount === null
  ) {
    return undefined
  }
  const { value, currency } = amount
  if (typeof currency !== "string" || !Currency.isCurrencyCode(currency) || !Iban.isValid(iban)) return undefined
  if (!BigDecimal.isBigDecimal(value) || Money.invalidReason(value, Money.balanceCheckFormat) !== undefined) {
    return undefined
  }
  const number = Money.toJsonNumber(value)
  return number === undefined ? undefined : { instructionIdentification: id, iban, amount: { value: number, currency } }
}

/** The bank's answer: `APPR` sufficient funds, `DECL` insufficient funds (section 2.3). */
export const Answer = Schema.Literals(["APPR", "DECL"])

/** The bank's answer to a balance check. */
export type Answer = typeof Answer.Type

/** The balance-check response body (section 2.3): the answer and when the check was made (RFC 3339, kept as text). */
export const Response = Schema.Struct({
  response: Answer,
  dateTime: DateTime.Incoming
})

/** A balance-check response. */
export type Response = typeof Response.Type

/**
 * Decodes a response without the schema interpreter: `response` APPR or DECL and a valid `dateTime`, other keys
 * ignored, as {@link Response} does. Whatever it returns equals what `Schema.decodeUnknown(Response)` returns; it
 * answers `undefined` for anything else: decode that with {@link Response}, which also words the error.
 */
export const decodeResponseFast = (json: unknown): Response | undefined => {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined
  const { response, dateTime } = json as { readonly response?: unknown; readonly dateTime?: unknown }
  if ((response !== "APPR" && response !== "DECL") || typeof dateTime !== "string") return undefined
  return DateTime.isValidIncoming(dateTime) ? { response, dateTime: dateTime as DateTime.DateTime } : undefined
}

/** Whether the answer says the funds are available. */
export const isApproved = (response: Response): boolean => response.response === "APPR"

/** The token scope a balance check needs: PIISP (decisions: balance-check token scope). */
export const scope = "PIISP" as const
