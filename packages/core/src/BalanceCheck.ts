/**
 * The balance check (PIISP): request body (docs/bank-interface.md, "Balance check") and response body.
 * The request is what we send, so every limit is checked before sending: IBAN, `[12.2]` amount, ISO 4217 currency,
 * text lengths, country code, MCC and masked card number (README.md, "Wire formats").
 *
 * @since 0.1.0
 */
import { Result, Schema, type SchemaIssue, SchemaParser } from "effect"
import * as Card from "./Card.ts"
import * as Currency from "./Currency.ts"
import * as Iban from "./Iban.ts"
import * as Fast from "./internal/balanceCheckFast.ts"
import * as Money from "./Money.ts"
import * as Text from "./Text.ts"
import * as Timestamp from "./Timestamp.ts"

/** The amount to check: `amount.value` in format [12.2] as a JSON number, `amount.currency` ISO 4217. */
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

/** `relatedParties` of the balance-check request. */
export const RelatedParties = Schema.Struct({
  tradingParty: Schema.optionalKey(TradingParty)
})

/** Card references: the masked card number (`chequeNumber`, max 35) and the holder name (max 35). */
export const References = Schema.Struct({
  chequeNumber: Schema.optionalKey(Card.MaskedCardNumber.check(Schema.isMaxLength(Text.limits.chequeNumber))),
  holderName: Schema.optionalKey(Text.Max35)
})

/** `instructionIdentification`: the PIISP's technical identification of the payment, a non-empty text. */
export const InstructionIdentification = Schema.String.check(
  Schema.isMinLength(1, { message: "instructionIdentification must not be empty" })
)

/** The balance-check request body; optional parts are optional keys, absent when not given. */
export const Request = Schema.Struct({
  instructionIdentification: InstructionIdentification,
  creationDateTime: Schema.optionalKey(Timestamp.Timestamp),
  iban: Iban.Iban,
  amount: Amount,
  relatedParties: Schema.optionalKey(RelatedParties),
  references: Schema.optionalKey(References)
})

/** A balance-check request. */
export type Request = typeof Request.Type

/** A balance-check request in its JSON form, as `Schema.encode(Request)` produces it. */
export type RequestJson = typeof Request.Encoded

/** The bank's answer: `APPR` sufficient funds, `DECL` insufficient funds. */
export const Answer = Schema.Literals(Fast.answers)

/** The bank's answer to a balance check. */
export type Answer = typeof Answer.Type

/** The balance-check response body: the answer and when the check was made (RFC 3339, kept as text). */
export const Response = Schema.Struct({
  response: Answer,
  dateTime: Timestamp.Incoming
})

/** A balance-check response. */
export type Response = typeof Response.Type

/** A balance-check response in its JSON form. */
export type ResponseJson = typeof Response.Encoded

/** The hand-written path's answer where it has one, else the schema's (which words every failure). */
const fastOr =
  <I, O>(fast: (input: I) => O | undefined, schema: (input: I) => Result.Result<O, SchemaIssue.Issue>) =>
  (input: I): Result.Result<O, SchemaIssue.Issue> => {
    const done = fast(input)
    return done !== undefined ? Result.succeed(done) : schema(input)
  }

/**
 * Encodes a request to its JSON form, the one encoder the client and the mock bank's tests use. The
 * common request (the three mandatory fields) takes a hand-written path that calls the same checks as
 * {@link Request}; every other request, and every failure's wording, comes from the schema.
 */
export const encodeRequest: (request: Request) => Result.Result<RequestJson, SchemaIssue.Issue> = fastOr(
  Fast.encodeRequest,
  SchemaParser.encodeResult(Request)
)

/**
 * Decodes a request from parsed JSON, the one decoder the mock bank uses: a hand-written path for the
 * common request, {@link Request} for the rest and for the wording of every failure.
 */
export const decodeRequest: (json: unknown) => Result.Result<Request, SchemaIssue.Issue> = fastOr(
  Fast.decodeRequest,
  SchemaParser.decodeUnknownResult(Request)
)

/** Encodes a response to its JSON form: a hand-written path for a valid one, else {@link Response}. */
export const encodeResponse: (response: Response) => Result.Result<ResponseJson, SchemaIssue.Issue> = fastOr(
  Fast.encodeResponse,
  SchemaParser.encodeResult(Response)
)

/**
 * Decodes a response from parsed JSON, the one decoder the client uses: a hand-written path for a
 * valid answer (other keys ignored), {@link Response} for the rest and for the wording of every failure.
 */
export const decodeResponse: (json: unknown) => Result.Result<Response, SchemaIssue.Issue> = fastOr(
  Fast.decodeResponse,
  SchemaParser.decodeUnknownResult(Response)
)

/** Whether the answer says the funds are available. */
export const isApproved = (response: Response): boolean => response.response === "APPR"

/** The token scope a balance check needs: PIISP (docs/bank-interface.md, "Balance check"). */
export const scope = "PIISP" as const
