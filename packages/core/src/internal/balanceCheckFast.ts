/**
 * Hand-written fast paths of the balance-check wire shapes (docs/bank-interface.md, "Balance check"), for the common
 * case only: the three mandatory request fields without optional parts, and a valid response. Each calls the same core
 * checks the schemas call, so whatever it returns equals the schema's answer; for anything else it returns `undefined`
 * and `BalanceCheck` falls back to the schema, which also words the error. Only `BalanceCheck` calls these.
 */
import { BigDecimal, Result } from "effect"
import * as Currency from "../Currency.ts"
import * as Iban from "../Iban.ts"
import * as Money from "../Money.ts"
import * as Timestamp from "../Timestamp.ts"
import { NumberText } from "./json.ts"

/** The bank's answers to a balance check: `APPR` sufficient funds, `DECL` insufficient funds. */
export const answers = ["APPR", "DECL"] as const

/** The common request in its domain form. */
export interface CommonRequest {
  readonly instructionIdentification: string
  readonly iban: Iban.Iban
  readonly amount: { readonly value: BigDecimal.BigDecimal; readonly currency: Currency.CurrencyCode }
}

/** The common request in its JSON form. */
export interface CommonRequestJson {
  readonly instructionIdentification: string
  readonly iban: string
  readonly amount: { readonly value: number; readonly currency: string }
}

/** A valid response in its domain form (and, the same, its JSON form). */
export interface ResponseValue {
  readonly response: (typeof answers)[number]
  readonly dateTime: Timestamp.Timestamp
}

const hasOptionalParts = (o: Record<string, unknown>): boolean =>
  o.creationDateTime !== undefined || o.relatedParties !== undefined || o.references !== undefined

/** Encodes the common request: non-empty id, valid IBAN, positive `[12.2]` amount, ISO 4217 code. */
export const encodeRequest = (request: object): CommonRequestJson | undefined => {
  const o = request as Record<string, unknown>
  if (hasOptionalParts(o)) return undefined
  const { instructionIdentification: id, iban, amount } = o
  if (typeof id !== "string" || id.length === 0 || typeof iban !== "string") return undefined
  if (typeof amount !== "object" || amount === null) return undefined
  const { value, currency } = amount as Record<string, unknown>
  if (typeof currency !== "string" || !Currency.isCurrencyCode(currency) || !Iban.isValid(iban)) return undefined
  if (!BigDecimal.isBigDecimal(value) || Money.invalidReason(value, Money.balanceCheckFormat) !== undefined) {
    return undefined
  }
  const number = Money.toJsonNumber(value)
  return number === undefined ? undefined : { instructionIdentification: id, iban, amount: { value: number, currency } }
}

/**
 * The exact `[12.2]` amount a JSON number stands for, as the schema reads it, or `undefined`. Fast path: a positive
 * number of whole cents below 10^14, i.e. the double nearest to `cents / 100`; such a decimal has at most 14
 * significant digits, so it is also the number's shortest text.
 */
const requestAmount = (value: number): BigDecimal.BigDecimal | undefined => {
  const cents = Math.round(value * 100)
  if (cents > 0 && cents < 1e14 && cents / 100 === value) return BigDecimal.make(BigInt(cents), 2)
  const exact = Money.fromJsonNumber(value)
  return exact === undefined || Money.invalidReason(exact, Money.balanceCheckFormat) !== undefined ? undefined : exact
}

/** The exact amount of a number's source text (as `Json.parse` keeps it) when it is a valid request amount. */
const requestAmountText = (text: string): BigDecimal.BigDecimal | undefined => {
  const exact = Money.fromNumberText(text)
  return Result.isFailure(exact) || Money.invalidReason(exact.success, Money.balanceCheckFormat) !== undefined
    ? undefined
    : exact.success
}

/**
 * Decodes the common request from JSON: the three mandatory fields, valid, none of the optional ones. An IBAN in
 * print form or lower case is left to the schema (which normalises it), as is every other shape.
 */
export const decodeRequest = (json: unknown): CommonRequest | undefined => {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined
  const o = json as Record<string, unknown>
  if (Object.hasOwn(o, "creationDateTime") || Object.hasOwn(o, "relatedParties") || Object.hasOwn(o, "references")) {
    return undefined
  }
  const { instructionIdentification: id, iban, amount } = o
  if (typeof id !== "string" || id.length === 0 || typeof iban !== "string") return undefined
  if (typeof amount !== "object" || amount === null || Array.isArray(amount)) return undefined
  const { value, currency } = amount as Record<string, unknown>
  const isText = value instanceof NumberText
  if ((typeof value !== "number" && !isText) || typeof currency !== "string" || !Currency.isCurrencyCode(currency)) {
    return undefined
  }
  // A valid IBAN consists of upper-case letters and digits only, so the schema's normalisation leaves it as is.
  if (!Iban.isValid(iban)) return undefined
  const exact = isText ? requestAmountText(value.text) : requestAmount(value as number)
  if (exact === undefined) return undefined
  return { instructionIdentification: id, iban: iban as Iban.Iban, amount: { value: exact, currency } }
}

/** Decodes a valid response: `response` APPR or DECL and a valid `dateTime`, other keys ignored. */
export const decodeResponse = (json: unknown): ResponseValue | undefined => {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined
  const { response, dateTime } = json as { readonly response?: unknown; readonly dateTime?: unknown }
  if ((response !== "APPR" && response !== "DECL") || typeof dateTime !== "string") return undefined
  return Timestamp.isValidIncoming(dateTime) ? { response, dateTime: dateTime as Timestamp.Timestamp } : undefined
}

/** Encodes a response whose `dateTime` is a valid RFC 3339 text, or `undefined`. */
export const encodeResponse = (response: object): ResponseValue | undefined => {
  const { response: answer, dateTime } = response as { readonly response?: unknown; readonly dateTime?: unknown }
  if ((answer !== "APPR" && answer !== "DECL") || typeof dateTime !== "string") return undefined
  return Timestamp.isValidIncoming(dateTime)
    ? { response: answer, dateTime: dateTime as Timestamp.Timestamp }
    : undefined
}
