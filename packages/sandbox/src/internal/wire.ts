/**
 * Schemas the mock bank validates with (spec sections 2.2, 2.4, 2.5; decisions "Wire formats"): core's where core
 * has them, private stand-ins otherwise (the balance-check request, until core's `BalanceCheck` lands; the
 * standing order in its wire form, for fixture files).
 */
import {
  BalanceCheck as CoreBalanceCheck,
  Currency as CoreCurrency,
  Iban as CoreIban,
  StandingOrder as CoreStandingOrder,
  Frequency,
  LocalDate,
  Money
} from "@tppkit/core"
import { BigDecimal, Schema } from "effect"

const maxLen = (n: number) => Schema.String.check(Schema.isMaxLength(n))

/** An IBAN with a valid mod-97 checksum, at most 34 characters (spaces and case are not tolerated on the wire). */
export const Iban = Schema.String.check(Schema.makeFilter((s) => CoreIban.invalidReason(s) ?? true))

/** ISO 4217 alphabetic code: three upper-case letters (decisions: currency). */
export const Currency = Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/))

/** A positive JSON number with at most `digits` digits before the point and at most 2 after it (core's `Money` rule). */
export const positiveAmount = (digits: number) => {
  const format: Money.Format = { integerDigits: digits, fractionDigits: 2 }
  return Schema.Finite.check(
    Schema.makeFilter((n) => {
      const amount = Money.fromJsonNumber(n)
      return (
        (amount !== undefined && Money.fits(amount, format)) || `expected a positive amount in format [${digits}.2]`
      )
    })
  )
}

/** The balance-check request body: core's schema (spec 2.2). */
export const BalanceCheckRequest = CoreBalanceCheck.Request

/** The standing-order list request body: core's schema (spec 2.4; decisions: iban is an optional filter). */
export const ListRequest = CoreStandingOrder.ListRequest

/** One standing order as the bank sends it (spec 2.5), used to validate fixture files. */
export const StandingOrder = Schema.Struct({
  orderId: Schema.String.check(Schema.isNonEmpty()),
  debtor: Schema.Struct({ name: maxLen(70), iban: Iban }),
  creditor: Schema.Struct({
    name: Schema.optionalKey(maxLen(70)),
    addressLine1: Schema.optionalKey(maxLen(35)),
    addressLine2: Schema.optionalKey(maxLen(35)),
    iban: Iban
  }),
  instructedAmount: Schema.Struct({ value: positiveAmount(9), currency: Currency }),
  endToEndIdentification: Schema.optionalKey(maxLen(35)),
  remittanceInformation: Schema.optionalKey(maxLen(140)),
  standingOrderName: Schema.optionalKey(maxLen(40)),
  startDate: Schema.optionalKey(LocalDate.IsoDateString),
  nextDate: Schema.optionalKey(LocalDate.IsoDateString),
  endDate: Schema.optionalKey(LocalDate.IsoDateString),
  frequency: Frequency.Frequency
})

/** The wire shape of one standing order. */
export type StandingOrder = typeof StandingOrder.Type

/** IBANs already found valid (a memo of `CoreIban.isValid(iban)`, at most 4096 kept). */
const validIbans = new Set<string>()
const isValidIban = (iban: string): boolean => {
  if (validIbans.has(iban)) return true
  if (!CoreIban.isValid(iban)) return false
  if (validIbans.size >= 4096) validIbans.clear()
  validIbans.add(iban)
  return true
}

/**
 * The exact `[12.2]` amount a JSON number stands for, as `Money.fromJsonNumber` and `Money.invalidReason` would
 * accept it, or `undefined`. Fast path: a positive number of whole cents below 10^14, i.e. the double nearest to
 * `cents / 100`; such a decimal has at most 14 significant digits, so it is also the number's shortest text.
 */
const balanceCheckAmount = (value: number): BigDecimal.BigDecimal | undefined => {
  const cents = Math.round(value * 100)
  if (cents > 0 && cents < 1e14 && cents / 100 === value) return BigDecimal.make(BigInt(cents), 2)
  const exact = Money.fromJsonNumber(value)
  return exact === undefined || Money.invalidReason(exact, Money.balanceCheckFormat) !== undefined ? undefined : exact
}

/**
 * The balance-check body decoded without the schema interpreter, for the common shape only: the three mandatory
 * fields, valid, and none of the optional ones (`creationDateTime`, `relatedParties`, `references`). Whatever it
 * accepts, {@link BalanceCheckRequest} accepts with the same value (the same core checks, called directly); for
 * anything else it answers `undefined` and the caller decodes with the schema, which also words the error.
 */
export const decodeBalanceCheckFast = (json: object): typeof BalanceCheckRequest.Type | undefined => {
  const o = json as Record<string, unknown>
  if (Object.hasOwn(o, "creationDateTime") || Object.hasOwn(o, "relatedParties") || Object.hasOwn(o, "references")) {
    return undefined
  }
  const id = o.instructionIdentification
  const iban = o.iban
  const amount = o.amount
  if (typeof id !== "string" || id.length === 0 || typeof iban !== "string") return undefined
  if (typeof amount !== "object" || amount === null || Array.isArray(amount)) return undefined
  const { value, currency } = amount as Record<string, unknown>
  if (typeof value !== "number" || typeof currency !== "string" || !CoreCurrency.isCurrencyCode(currency))
    return undefined
  // A valid IBAN consists of upper-case letters and digits only, so the wire schema's normalisation leaves it as is.
  if (!isValidIban(iban)) return undefined
  const exact = balanceCheckAmount(value)
  if (exact === undefined) return undefined
  return {
    instructionIdentification: id,
    iban: iban as CoreIban.Iban,
    amount: { value: exact, currency: currency as CoreCurrency.CurrencyCode }
  }
}
