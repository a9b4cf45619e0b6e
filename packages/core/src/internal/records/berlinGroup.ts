/**
 * A Berlin Group NextGenPSD2 standing order read whole (`SourceRecord`): the periodic payment body
 * (`periodicPaymentInitiation_json`, also as read back with `transactionStatus`) and the AIS form, a transaction of
 * `GET /accounts/{id}/transactions?bookingStatus=information` whose `additionalInformationStructured.
 * standingOrderDetails` holds the schedule (the listed account is the payer).
 */
import { Result } from "effect"
import * as Reader from "./read.ts"

/** The identifiers of an `accountReference`, in the order they are taken. */
const KEYS = ["iban", "bban", "pan", "maskedPan", "msisdn"] as const

/** An `accountReference`: its IBAN, else the first other identifier with its name as scheme; its currency. */
const accountOf = (u: unknown, field: string, notes: Reader.Notes): Reader.Account | undefined => {
  if (!Reader.isObject(u)) return undefined
  const currency = Reader.currencyOf(u.currency, `${field}.currency`, notes)
  for (const key of KEYS) {
    const id = Reader.textOf(u[key])
    if (id === undefined) continue
    if (key === "iban") {
      const iban = Reader.ibanAccount(id, currency)
      if (iban !== undefined) return iban
      notes.warn(`${field}.iban`, id, id, "it is no valid IBAN (country length and mod-97)")
    }
    return { id, scheme: key, ...(currency === undefined ? {} : { currency }) }
  }
  const other = Reader.textOf(Reader.objectAt(u, "otherAccountIdentification")?.identification)
  return other === undefined
    ? undefined
    : { id: other, scheme: "other", ...(currency === undefined ? {} : { currency }) }
}

/**
 * A Berlin Group record read whole. A periodic payment: `instructedAmount` (signed decimal text), `debtorAccount`,
 * `creditorAccount`, `creditorName`; its ID `paymentId`, else `endToEndIdentification` or `instructionIdentification`.
 * A transaction with `standingOrderDetails`: `transactionAmount`, the listed account (the context's) as payer unless
 * the entry names a `debtorAccount`, `creditorAccount` and `creditorName`; its ID `transactionId`, else
 * `entryReference`. The standard does not say the sign of an information entry: a positive one is read as money out,
 * with a warning.
 */
export const read = (record: unknown, context: Reader.Context): Reader.Read => {
  if (!Reader.isObject(record)) return Reader.skipped("berlin-group", undefined, "the record is not an object")
  const notes = new Reader.Notes()
  const ais = Reader.isObject(record.additionalInformationStructured) || Reader.isObject(record.transactionAmount)
  const orderId = ais
    ? (Reader.textOf(record.transactionId) ?? Reader.textOf(record.entryReference))
    : (Reader.textOf(record.paymentId) ??
      Reader.textOf(record.endToEndIdentification) ??
      Reader.textOf(record.instructionIdentification))
  if (orderId === undefined) {
    notes.lack(
      ais ? "transactionId" : "paymentId",
      ais
        ? "an id of the entry (transactionId or entryReference)"
        : "the payment's id (paymentId or endToEndIdentification)",
      "the order has no ID"
    )
  }
  const amountField = ais ? "transactionAmount" : "instructedAmount"
  const amountObject = Reader.objectAt(record, amountField)
  if (amountObject === undefined || amountObject.amount === undefined || amountObject.amount === null) {
    return Reader.skipped(
      "berlin-group",
      orderId,
      Reader.missingReason(`${amountField}.amount`, "the amount of each payment (decimal text)")
    )
  }
  const signed = Reader.signedAmount(amountObject.amount)
  if (Result.isFailure(signed)) {
    return Reader.skipped(
      "berlin-group",
      orderId,
      `${amountField}.amount ${signed.failure}: tppkit expects decimal text`
    )
  }
  if (typeof amountObject.amount !== "string") {
    notes.warn(
      `${amountField}.amount`,
      amountObject.amount,
      Reader.textOf(amountObject.amount) ?? "",
      "amounts are text"
    )
  }
  const { value, negative } = Reader.magnitude(signed.success)
  if (ais && !negative) {
    notes.warn(
      `${amountField}.amount`,
      amountObject.amount,
      "money out",
      "the standard does not say the sign of a standing order listed as information: read as paid by the listed account"
    )
  }
  if (!ais && negative) {
    notes.warn(`${amountField}.amount`, amountObject.amount, "its absolute value", "a payment's amount is positive")
  }
  const currency = Reader.currencyOf(amountObject.currency, `${amountField}.currency`, notes)
  if (currency === undefined) {
    return Reader.skipped(
      "berlin-group",
      orderId,
      Reader.missingReason(`${amountField}.currency`, "the currency of the amount (ISO 4217)")
    )
  }
  const debtorAccount =
    accountOf(record.debtorAccount, "debtorAccount", notes) ??
    (ais ? accountOf(context.account, "account", notes) : undefined)
  if (debtorAccount === undefined) {
    notes.lack(
      ais ? "account" : "debtorAccount",
      ais ? "the listed account (the answer's account.iban)" : "the payer's account (debtorAccount.iban)",
      "the payer is unknown"
    )
  }
  const creditorAccount = accountOf(record.creditorAccount, "creditorAccount", notes)
  if (creditorAccount === undefined) {
    notes.lack(
      "creditorAccount",
      "the payee's account (creditorAccount.iban)",
      "the order is projected with the creditor unknown"
    )
  }
  const creditorName = Reader.textOf(record.creditorName) ?? Reader.textOf(record.ultimateCreditor)
  const debtorName = Reader.textOf(record.debtorName) ?? Reader.textOf(record.ultimateDebtor)
  const debtor: Reader.Party = {
    ...(debtorAccount === undefined ? {} : { account: debtorAccount }),
    ...(debtorName === undefined ? {} : { name: debtorName })
  }
  const text = Reader.textOf(record.remittanceInformationUnstructured)
  return Reader.order(
    {
      standard: "berlin-group",
      orderId,
      schedule: record,
      amount: { value, currency },
      direction: "out",
      debtor,
      creditor: {
        ...(creditorAccount === undefined ? {} : { account: creditorAccount }),
        ...(creditorName === undefined ? {} : { name: creditorName })
      },
      ...(text === undefined ? {} : { text })
    },
    notes
  )
}
