/**
 * Schemas the mock bank validates with (spec sections 2.2, 2.4, 2.5; decisions "Wire formats"): core's where core
 * has them, private stand-ins otherwise (the balance-check request, until core's `BalanceCheck` lands; the
 * standing order in its wire form, for fixture files).
 */
import { Iban as CoreIban, Frequency, LocalDate, Money } from "@tppkit/core"
import { Schema } from "effect"

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
