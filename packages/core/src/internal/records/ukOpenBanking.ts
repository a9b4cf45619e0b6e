/**
 * A UK Open Banking account-information standing order read whole (`SourceRecord`), v3.1 (`OBStandingOrder6`, a
 * `Frequency` string, `Reference`, `Active`/`Inactive`) and v4 (`MandateRelatedInformation`, `RemittanceInformation`,
 * `ACTV`/`CANC`/`EXPI`/`SUSP`): the paying account is `AccountId`, the bank's API id, not an IBAN.
 */
import { BigDecimal, Result } from "effect"
import {
  type Account,
  type Amount,
  currencyOf,
  dateOf,
  ibanAccount,
  idAccount,
  isObject,
  missingReason,
  Notes,
  objectAt,
  order,
  type Read,
  signedAmount,
  skipped,
  textOf
} from "./read.ts"

/** v4 statuses of an order that pays no more (v3: `Inactive`). */
const ENDED: Readonly<Record<string, string>> = {
  Inactive: "StandingOrderStatusCode Inactive: the order makes no more payments",
  CANC: "StandingOrderStatusCode CANC: the order was cancelled",
  EXPI: "StandingOrderStatusCode EXPI: the order has expired",
  SUSP: "StandingOrderStatusCode SUSP: the order is suspended"
}

/** An `OB…Amount` (`{Amount, Currency}`, unsigned decimal text) read exactly, or the reason. */
const amountOf = (u: unknown, field: string, notes: Notes): Amount | string | undefined => {
  if (!isObject(u)) return undefined
  if (u.Amount === undefined || u.Amount === null) return missingReason(`${field}.Amount`, "the amount as decimal text")
  const v = signedAmount(u.Amount)
  if (Result.isFailure(v)) return `${field}.Amount ${v.failure}: tppkit expects the amount as decimal text`
  if (typeof u.Amount !== "string") notes.warn(`${field}.Amount`, u.Amount, textOf(u.Amount) ?? "", "Amount is text")
  if (BigDecimal.isNegative(v.success))
    return `${field}.Amount ${textOf(u.Amount)} is negative: UK amounts are unsigned`
  const currency = currencyOf(u.Currency, `${field}.Currency`, notes)
  return { value: v.success, ...(currency === undefined ? {} : { currency }) }
}

const sameAmount = (a: Amount, b: Amount) => BigDecimal.equals(a.value, b.value) && a.currency === b.currency

/** `CreditorAccount`: an IBAN by its scheme (`UK.OBIE.IBAN`, `UK.OB.IBAN`), else the identification as given with its scheme. */
const creditorOf = (u: Record<string, unknown>, notes: Notes): Account | undefined => {
  const id = textOf(u.Identification)
  if (id === undefined) return undefined
  const scheme = textOf(u.SchemeName) ?? "unknown"
  if (/^UK\.OBI?E?\.IBAN$/i.test(scheme) || scheme.toUpperCase().endsWith(".IBAN")) {
    const iban = ibanAccount(id)
    if (iban !== undefined) return iban
    notes.warn("CreditorAccount.Identification", id, id, `it is no valid IBAN, although SchemeName is ${scheme}`)
  }
  return { id, scheme }
}

/**
 * A UK record read whole, v3 or v4 (`version`). The ID is `StandingOrderId`; every payment's amount
 * `NextPaymentAmount` (the first and the final carry their own, `FirstPaymentAmount` and `FinalPaymentAmount`);
 * `NextPaymentDateTime` is the bank's next date. An inactive order is skipped with its status; a v4 order without
 * `MandateRelatedInformation` has no frequency and is skipped; `NumberOfPayments` counts from the first payment, so
 * without `FirstPaymentDateTime` it is left out with a warning.
 */
export const read = (record: unknown, version: "uk-v3" | "uk-v4"): Read => {
  if (!isObject(record)) return skipped(version, undefined, "the record is not an object")
  const notes = new Notes()
  const orderId = textOf(record.StandingOrderId)
  if (orderId === undefined) notes.lack("StandingOrderId", "the bank's id of the order", "the order has no ID")
  const status = textOf(record.StandingOrderStatusCode)
  if (status !== undefined) {
    const ended = ENDED[status] ?? ENDED[status.toUpperCase()]
    if (ended !== undefined) return skipped(version, orderId, ended)
  }
  const mandate = objectAt(record, "MandateRelatedInformation")
  if (
    version === "uk-v4" &&
    mandate === undefined &&
    !isObject(record.Frequency) &&
    typeof record.Frequency !== "string"
  ) {
    return skipped(
      version,
      orderId,
      missingReason(
        "MandateRelatedInformation",
        "MandateRelatedInformation.Frequency (a v4 order without it has no frequency)"
      )
    )
  }
  // amounts
  const next = amountOf(record.NextPaymentAmount, "NextPaymentAmount", notes)
  const first = amountOf(record.FirstPaymentAmount, "FirstPaymentAmount", notes)
  const final = amountOf(record.FinalPaymentAmount, "FinalPaymentAmount", notes)
  for (const a of [next, first, final]) if (typeof a === "string") return skipped(version, orderId, a)
  const regular = (next ?? first ?? final) as Amount | undefined
  if (regular === undefined) {
    return skipped(
      version,
      orderId,
      missingReason("NextPaymentAmount", "the amount of the payments (NextPaymentAmount, else FirstPaymentAmount)")
    )
  }
  if (next === undefined) {
    notes.warn(
      "NextPaymentAmount",
      "absent",
      first === undefined ? "FinalPaymentAmount" : "FirstPaymentAmount",
      "every payment but the first and the final is NextPaymentAmount"
    )
  }
  if (regular.currency === undefined) {
    return skipped(
      version,
      orderId,
      missingReason("NextPaymentAmount.Currency", "the currency of the amount (ISO 4217)")
    )
  }
  const firstAmount =
    first !== undefined && typeof first !== "string" && !sameAmount(first, regular) ? first : undefined
  const finalAmount =
    final !== undefined && typeof final !== "string" && !sameAmount(final, regular) ? final : undefined
  // accounts
  const accountId = textOf(record.AccountId)
  if (accountId === undefined) {
    notes.lack("AccountId", "the paying account's id (an accounts file maps it to an IBAN)", "the payer is unknown")
  }
  const creditorObject = objectAt(record, "CreditorAccount")
  const creditorAccount = creditorObject === undefined ? undefined : creditorOf(creditorObject, notes)
  if (creditorAccount === undefined) {
    notes.lack(
      "CreditorAccount",
      "the payee's account (CreditorAccount.SchemeName and Identification; granted with ReadStandingOrdersDetail)",
      "the order is projected with the creditor unknown"
    )
  }
  const creditorName = textOf(creditorObject?.Name)
  // the schedule: NumberOfPayments counts from FirstPaymentDateTime
  let schedule: Record<string, unknown> = record
  const firstDate = record.FirstPaymentDateTime ?? mandate?.FirstPaymentDateTime
  const count = record.NumberOfPayments
  if (count !== undefined && count !== null && (firstDate === undefined || firstDate === null)) {
    notes.warn(
      "NumberOfPayments",
      count,
      "absent",
      "it counts from the first payment, and FirstPaymentDateTime is missing: the order is read without a count"
    )
    // the record without its count, as a view: a spread would take every field and the unread ones go unsaid
    schedule = withoutField(record, "NumberOfPayments")
  }
  const nextDate = dateOf(record.NextPaymentDateTime, "NextPaymentDateTime", notes)
  const unstructured = objectAt(record, "RemittanceInformation")?.Unstructured
  const text =
    textOf(record.Reference) ?? (Array.isArray(unstructured) ? textOf(unstructured[0]) : textOf(unstructured))
  return order(
    {
      standard: version,
      orderId,
      schedule,
      amount: regular,
      ...(firstAmount === undefined ? {} : { firstAmount }),
      ...(finalAmount === undefined ? {} : { finalAmount }),
      direction: "out",
      debtor: accountId === undefined ? {} : { account: idAccount(accountId, "account-id") },
      creditor: {
        ...(creditorAccount === undefined ? {} : { account: creditorAccount }),
        ...(creditorName === undefined ? {} : { name: creditorName })
      },
      ...(text === undefined ? {} : { text }),
      ...(nextDate === undefined ? {} : { nextDate })
    },
    notes
  )
}

/** `record` seen without `field` (absent to reads, `in` and its keys); the other fields are read through it as they are. */
const withoutField = (record: Record<string, unknown>, field: string): Record<string, unknown> =>
  new Proxy(record, {
    get: (target, key, receiver) => (key === field ? undefined : Reflect.get(target, key, receiver)),
    has: (target, key) => key !== field && Reflect.has(target, key),
    ownKeys: (target) => Reflect.ownKeys(target).filter((key) => key !== field),
    getOwnPropertyDescriptor: (target, key) =>
      key === field ? undefined : Reflect.getOwnPropertyDescriptor(target, key)
  })
