/**
 * A COBS standing order read whole (`SourceRecord`): a list item of `GET /my/standingorders` or the detail of
 * `GET /my/standingorders/{id}`, with the traps the rule book's own material has (`intervalDue` as text, `stoppages`,
 * `breaks` as one object, `AFTER_MAX_AMOUNT_EXCEEDED`, the amount inside `paymentTypeInformation`, a Czech account
 * number with or without its bank code).
 */
import { Result } from "effect"
import * as Cobs from "../../Cobs.ts"
import * as Reader from "./read.ts"

/**
 * A Czech account number in its human form `prefix-number/bank` (prefix and leading zeroes left out), from the local
 * form (16 digits, zero-padded, or `prefix-number`, or `number/bank` as the rule book's example writes it) and the
 * bank code when given apart; undefined when the text is none of these.
 */
export const czechAccount = (text: string, bankCode: string | undefined): string | undefined => {
  const m = /^(?:(\d{1,6})-)?(\d{1,16})(?:\/(\d{4}))?$/.exec(text.replace(/\s+/g, ""))
  if (m === null) return undefined
  let prefix = m[1] ?? ""
  let number = m[2]!
  if (m[1] === undefined && number.length > 10) {
    prefix = number.slice(0, number.length - 10)
    number = number.slice(number.length - 10)
  }
  if (number.length > 10) return undefined
  const bank = m[3] ?? bankCode
  const p = prefix.replace(/^0+/, "")
  const n = number.replace(/^0+/, "") || "0"
  return `${p.length > 0 ? `${p}-` : ""}${n}${bank === undefined ? "" : `/${bank}`}`
}

/** The bank code of an agent (`financialInstitutionIdentification.clearingSystemMemberIdentification.memberIdentification`). */
const bankCodeOf = (agent: unknown): string | undefined => {
  const code = Reader.textOf(
    Reader.objectAt(agent, "financialInstitutionIdentification", "clearingSystemMemberIdentification")
      ?.memberIdentification
  )
  return code !== undefined && /^\d{4}$/.test(code) ? code : undefined
}

/**
 * An account object of COBS (`debtorAccount`, `creditorAccount`): the IBAN, else the local number (`other`) in the
 * Czech form with the agent's bank code, else the bank's API id (`id`); the account's currency.
 */
const accountOf = (
  u: Record<string, unknown>,
  field: string,
  bankCode: string | undefined,
  notes: Reader.Notes
): Reader.Account | undefined => {
  const currency = Reader.currencyOf(u.currency, `${field}.currency`, notes)
  const identification = Reader.isObject(u.identification) ? u.identification : {}
  const iban = Reader.textOf(identification.iban)
  if (iban !== undefined) {
    const account = Reader.ibanAccount(iban, currency)
    if (account !== undefined) return account
    notes.warn(`${field}.identification.iban`, iban, iban, "it is no valid IBAN (country length and mod-97)")
    return { id: iban, scheme: "iban", ...(currency === undefined ? {} : { currency }) }
  }
  const other = Reader.textOf(Reader.objectAt(identification, "other")?.identification)
  if (other !== undefined) {
    const cz = czechAccount(other, bankCode)
    if (cz === undefined) return { id: other, scheme: "other", ...(currency === undefined ? {} : { currency }) }
    if (other.includes("/"))
      notes.warn(`${field}.identification.other.identification`, other, cz, "the local number is digits only")
    return { id: cz, scheme: "cz", ...(currency === undefined ? {} : { currency }) }
  }
  const id = Reader.textOf(u.id)
  return id === undefined ? undefined : Reader.idAccount(id, "account-id", currency)
}

/** The intervals whose dates follow from `intervalDue` alone (the month and day come from the start otherwise). */
const FROM_DUE = new Set(["DAILY", "WEEKLY", "MONTHLY"])

/**
 * A COBS record read whole. The ID is `standingOrderIdentification.transactionIdentification` (else
 * `instructionIdentification`); the amount `amount.instructedAmount`; the payer `debtorAccount`, the payee
 * `creditorAccount` (a list item has none: the creditor is unknown) named by `creditorAccount.name`, else
 * `ultimateCreditor.name` or `creditor.name`. A list item names no start: a DAILY, WEEKLY or MONTHLY order counts from
 * the listing day, a longer interval is skipped (its month is in `requestedExecutionDate`, on the detail).
 */
export const read = (record: unknown, context: Reader.Context): Reader.Read => {
  if (!Reader.isObject(record)) return Reader.skipped("cobs", undefined, "the record is not an object")
  const notes = new Reader.Notes()
  const ids = Reader.isObject(record.standingOrderIdentification) ? record.standingOrderIdentification : {}
  const orderId = Reader.textOf(ids.transactionIdentification) ?? Reader.textOf(ids.instructionIdentification)
  if (orderId === undefined) {
    notes.lack(
      "standingOrderIdentification.transactionIdentification",
      "the bank's id of the order",
      "the order has no ID"
    )
  }
  // the rule book's detail example puts amount … inside paymentTypeInformation
  let amountObject = Reader.objectAt(record, "amount", "instructedAmount")
  if (amountObject === undefined) {
    const inside = Reader.objectAt(record, "paymentTypeInformation", "amount", "instructedAmount")
    if (inside !== undefined) {
      amountObject = inside
      notes.warn("paymentTypeInformation.amount", "amount", "amount", "amount is a field of the order itself")
    }
  }
  if (amountObject === undefined || amountObject.value === undefined || amountObject.value === null) {
    return Reader.skipped(
      "cobs",
      orderId,
      Reader.missingReason("amount.instructedAmount.value", "the amount of each payment (a number)")
    )
  }
  const signed = Reader.signedAmount(amountObject.value)
  if (Result.isFailure(signed)) {
    return Reader.skipped(
      "cobs",
      orderId,
      `amount.instructedAmount.value ${signed.failure}: tppkit expects the amount of each payment`
    )
  }
  const { value, negative } = Reader.magnitude(signed.success)
  if (negative)
    notes.warn("amount.instructedAmount.value", amountObject.value, "its absolute value", "amounts are positive")
  const debtorCurrency = Reader.currencyOf(
    Reader.objectAt(record, "debtorAccount")?.currency,
    "debtorAccount.currency",
    new Reader.Notes()
  )
  const currency = Reader.currencyOf(amountObject.currency, "amount.instructedAmount.currency", notes) ?? debtorCurrency
  if (amountObject.currency === undefined && debtorCurrency !== undefined) {
    notes.warn("amount.instructedAmount.currency", "absent", debtorCurrency, "the debtor account's currency is used")
  }
  if (currency === undefined) {
    return Reader.skipped(
      "cobs",
      orderId,
      Reader.missingReason("amount.instructedAmount.currency", "the currency of the amount (ISO 4217)")
    )
  }
  // the payer
  const debtorObject = Reader.objectAt(record, "debtorAccount")
  const debtorAccount =
    debtorObject === undefined ? undefined : accountOf(debtorObject, "debtorAccount", undefined, notes)
  if (debtorAccount === undefined) {
    notes.lack(
      "debtorAccount.identification.iban",
      "the payer's IBAN (or debtorAccount.id with an accounts file)",
      "the payer is unknown"
    )
  }
  const debtor: Reader.Party = {
    ...(debtorAccount === undefined ? {} : { account: debtorAccount }),
    ...(Reader.textOf(Reader.objectAt(record, "debtor")?.name) === undefined
      ? {}
      : { name: Reader.textOf(Reader.objectAt(record, "debtor")?.name) })
  }
  // the payee
  const creditorObject = Reader.objectAt(record, "creditorAccount")
  const creditorAccount =
    creditorObject === undefined
      ? undefined
      : accountOf(creditorObject, "creditorAccount", bankCodeOf(record.creditorAgent), notes)
  if (creditorAccount === undefined) {
    notes.lack(
      "creditorAccount",
      "the payee's account (creditorAccount.identification.iban or .other.identification; a list item has none: read the detail)",
      "the order is projected with the creditor unknown"
    )
  }
  const creditorName =
    Reader.textOf(creditorObject?.name) ??
    Reader.textOf(Reader.objectAt(record, "ultimateCreditor")?.name) ??
    Reader.textOf(Reader.objectAt(record, "creditor")?.name)
  const creditor: Reader.Party = {
    ...(creditorAccount === undefined ? {} : { account: creditorAccount }),
    ...(creditorName === undefined ? {} : { name: creditorName })
  }
  // the schedule: the record, with the rule book's other spellings and shapes read as the schema's
  const standingOrder = Reader.objectAt(record, "standingOrder")
  const execution = Reader.objectAt(standingOrder, "execution")
  let schedule: Record<string, unknown> = record
  if (standingOrder !== undefined && execution !== undefined) {
    let fixedExecution = execution
    if (execution.mode === "AFTER_MAX_AMOUNT_EXCEEDED") {
      notes.warn(
        "standingOrder.execution.mode",
        execution.mode,
        "MAX_AMOUNT_EXCEEDED",
        "the schema names the mode MAX_AMOUNT_EXCEEDED"
      )
      fixedExecution = { ...execution, mode: "MAX_AMOUNT_EXCEEDED" }
    }
    const exceptions = Reader.objectAt(standingOrder, "exceptions")
    let fixedExceptions = exceptions
    // breaks: one object in the schema, an array in the examples
    if (exceptions !== undefined && Reader.isObject(exceptions.breaks)) {
      fixedExceptions = { ...exceptions, breaks: [exceptions.breaks] }
    }
    if (fixedExecution !== execution || fixedExceptions !== exceptions) {
      schedule = {
        ...record,
        standingOrder: {
          ...standingOrder,
          execution: fixedExecution,
          ...(fixedExceptions === undefined ? {} : { exceptions: fixedExceptions })
        }
      }
    }
  }
  // a list item names no start
  let start: ReturnType<typeof Reader.dateOf>
  if (record.requestedExecutionDate === undefined || record.requestedExecutionDate === null) {
    const interval = Reader.textOf(execution?.interval)?.toUpperCase()
    if (interval !== undefined && Cobs.intervals.includes(interval as never) && !FROM_DUE.has(interval)) {
      return Reader.skipped(
        "cobs",
        orderId,
        `${Reader.missingReason(
          "requestedExecutionDate",
          `the date a ${interval} order counts from (a list item has none: read the detail, GET /my/standingorders/{id})`
        )}`
      )
    }
    start = context.listedOn
    if (start === undefined) {
      notes.lack(
        "requestedExecutionDate",
        "the date the order counts from (a list item has none: read the detail, or give the listing day)",
        "the order cannot be scheduled"
      )
    } else {
      notes.lack(
        "requestedExecutionDate",
        "the date the order counts from (a list item has none)",
        "the order counts from the listing day"
      )
    }
  }
  const text =
    Reader.textOf(standingOrder?.alias) ?? Reader.textOf(Reader.objectAt(record, "remittanceInformation")?.unstructured)
  return Reader.order(
    {
      standard: "cobs",
      orderId,
      schedule,
      ...(start === undefined ? {} : { start }),
      amount: { value, currency },
      direction: "out",
      debtor,
      creditor,
      ...(text === undefined ? {} : { text })
    },
    notes
  )
}

/** What a COBS list item says at a glance, as given (`undefined` where it has no text). */
export interface Glance {
  readonly amount: string | undefined
  readonly currency: string | undefined
  readonly interval: string | undefined
  readonly intervalDue: string | undefined
}

/** A COBS record's amount, currency, interval and interval day as it gives them, for a listing to show. */
export const glance = (record: unknown): Glance => {
  const amount = Reader.objectAt(record, "amount", "instructedAmount")
  const execution = Reader.objectAt(record, "standingOrder", "execution")
  return {
    amount: Reader.textOf(amount?.value),
    currency: Reader.textOf(amount?.currency),
    interval: Reader.textOf(execution?.interval),
    intervalDue: Reader.textOf(execution?.intervalDue)
  }
}

/** What a COBS list page says about paging (rule book, "Paging"; the list example's `nextPage: 0` on its last page). */
export interface Page {
  readonly pageNumber: number | undefined
  readonly pageCount: number | undefined
  readonly pageSize: number | undefined
  readonly nextPage: number | undefined
  readonly totalCount: number | undefined
  /** No page follows: `pageNumber + 1 >= pageCount`, else no `nextPage`. */
  readonly last: boolean
}

const intOf = (u: unknown): number | undefined => {
  const t = Reader.textOf(u)
  return t !== undefined && /^\d{1,9}$/.test(t) ? Number(t) : undefined
}

/** The paging fields of a COBS list page. */
export const page = (body: unknown): Page => {
  const o = Reader.isObject(body) ? body : {}
  const pageNumber = intOf(o.pageNumber)
  const pageCount = intOf(o.pageCount)
  const nextPage = intOf(o.nextPage)
  const last =
    pageNumber !== undefined && pageCount !== undefined
      ? pageNumber + 1 >= pageCount
      : nextPage === undefined || (pageNumber !== undefined && nextPage <= pageNumber)
  return {
    pageNumber,
    pageCount,
    pageSize: intOf(o.pageSize),
    nextPage,
    totalCount: intOf(o.totalCount),
    last
  }
}
