/**
 * YNAB scheduled transactions and Actual Budget schedules read whole (`SourceRecord`). Neither carries a bank account
 * or a currency: the account is the app's account id (an accounts file maps it to an IBAN and a currency). A negative
 * amount is money out of that account, a positive one money in.
 */
import { BigDecimal, Result } from "effect"
import * as Money from "../../Money.ts"
import * as Standards from "../standards.ts"
import {
  type Amount,
  dateOf,
  idAccount,
  isObject,
  magnitude,
  minorUnits,
  missingReason,
  Notes,
  order,
  type Party,
  type Read,
  skipped,
  textOf
} from "./read.ts"

/** The app's account and the other party, placed by the amount's direction. */
const parties = (
  direction: "out" | "in",
  account: Party,
  other: Party
): { readonly debtor: Party; readonly creditor: Party } =>
  direction === "out" ? { debtor: account, creditor: other } : { debtor: other, creditor: account }

/**
 * A YNAB `ScheduledTransactionDetail` read whole: ID `id`, amount in milliunits (exact: -2500000 is 2500.000 out),
 * `account_id` the app's account, `payee_name` the other party (`transfer_account_id` its account when a transfer),
 * `date_next` the app's next date (a nominal date: YNAB moves nothing), `memo` the text. A deleted one is skipped.
 */
export const readYnab = (record: unknown): Read => {
  if (!isObject(record)) return skipped("ynab", undefined, "the record is not an object")
  const notes = new Notes()
  const orderId = textOf(record.id)
  if (orderId === undefined) notes.lack("id", "the scheduled transaction's id", "the order has no ID")
  if (record.deleted === true) return skipped("ynab", orderId, "deleted: the scheduled transaction was deleted in YNAB")
  if (record.amount === undefined || record.amount === null) {
    return skipped("ynab", orderId, missingReason("amount", "the amount in milliunits (an integer)"))
  }
  const signed = minorUnits(record.amount, 3)
  if (Result.isFailure(signed)) {
    return skipped("ynab", orderId, `amount ${signed.failure}: tppkit expects milliunits (an integer)`)
  }
  if (BigDecimal.isZero(signed.success)) return skipped("ynab", orderId, "amount 0: the schedule moves no money")
  const { value, negative } = magnitude(signed.success)
  const direction = negative ? "out" : "in"
  const accountId = textOf(record.account_id)
  if (accountId === undefined) notes.lack("account_id", "the YNAB account's id", "the account is unknown")
  const account: Party = {
    ...(accountId === undefined ? {} : { account: idAccount(accountId, "ynab") }),
    ...(textOf(record.account_name) === undefined ? {} : { name: textOf(record.account_name) })
  }
  const transfer = textOf(record.transfer_account_id)
  const payee = textOf(record.payee_name)
  const other: Party = {
    ...(transfer === undefined ? {} : { account: idAccount(transfer, "ynab") }),
    ...(payee === undefined ? {} : { name: payee })
  }
  const nextDate = dateOf(record.date_next, "date_next", notes)
  const text = textOf(record.memo)
  return order(
    {
      standard: "ynab",
      orderId,
      schedule: record,
      amount: { value },
      direction,
      ...parties(direction, account, other),
      ...(text === undefined ? {} : { text }),
      ...(nextDate === undefined ? {} : { nextDate })
    },
    notes
  )
}

/** Actual's rounding of a range's midpoint (`getScheduledAmount`: `Math.round((num1 + num2) / 2)`, halves up). */
const midpoint = (a: bigint, b: bigint): bigint => {
  // Math.round(x) is floor(x + 1/2): floor((a + b + 1) / 2), with a floor division (BigInt's truncates toward 0)
  const n = a + b + 1n
  return (n - (((n % 2n) + 2n) % 2n)) / 2n
}

const cents = (u: unknown): bigint | undefined => {
  const t = textOf(u)
  return t !== undefined && /^-?\d{1,18}$/.test(t) ? BigInt(t) : undefined
}

/**
 * An Actual schedule read whole (`APIScheduleEntity`, or a `getSchedules` row with `_date`, `_amount`, …): ID `id`,
 * the rule `date` (a `RecurConfig`; a plain date is a one-off and skipped), `amount` in cents with `amountOp`
 * (`isbetween`: the rounded midpoint of the range, as Actual projects it, with a warning naming the range;
 * `isapprox`: the amount, with a warning), `account` the app's account, `payee` the other party's id, `next_date`
 * the app's next date (already moved off a weekend), `name` the text. A completed or deleted schedule is skipped.
 */
export const readActual = (record: unknown): Read => {
  if (!isObject(record)) return skipped("actual", undefined, "the record is not an object")
  const notes = new Notes()
  const field = (name: string): unknown => record[name] ?? record[`_${name}`]
  const orderId = textOf(record.id)
  if (orderId === undefined) notes.lack("id", "the schedule's id", "the order has no ID")
  if (record.tombstone === true) return skipped("actual", orderId, "tombstone: the schedule was deleted in Actual")
  if (record.completed === true) return skipped("actual", orderId, "completed: the schedule is finished")
  const date = field("date")
  if (typeof date === "string") return skipped("actual", orderId, `date ${date}: a one-off transaction, not a schedule`)
  if (!isObject(date)) {
    return skipped("actual", orderId, missingReason("date", "the schedule's RecurConfig (frequency, start, …)"))
  }
  const raw = field("amount")
  const op = textOf(field("amountOp")) ?? "is"
  let amount: bigint | undefined
  if (isObject(raw)) {
    const a = cents(raw.num1)
    const b = cents(raw.num2)
    if (a === undefined || b === undefined) {
      return skipped("actual", orderId, `amount ${Standards.show(raw)}: tppkit expects num1 and num2 in cents`)
    }
    amount = midpoint(a, b)
    const show = (n: bigint) => Money.toPlainString(BigDecimal.make(n, 2))
    notes.warn(
      "amount",
      `${op} ${show(a)} and ${show(b)}`,
      show(amount),
      "the amount lies between the two: read as their midpoint, rounded to the cent, as Actual projects it"
    )
    if (op !== "isbetween") notes.warn("amountOp", op, "isbetween", "a range of amounts goes with isbetween")
  } else {
    if (raw === undefined || raw === null) {
      return skipped("actual", orderId, missingReason("amount", "the amount in cents (an integer)"))
    }
    amount = cents(raw)
    if (amount === undefined) {
      return skipped("actual", orderId, `amount ${Standards.show(raw)} is not a whole number: tppkit expects cents`)
    }
    if (op === "isapprox") {
      notes.warn("amountOp", op, "is", "the amount is approximate (Actual matches within 7.5 %): read as the amount")
    }
  }
  if (amount === 0n) return skipped("actual", orderId, "amount 0: the schedule moves no money")
  const { value, negative } = magnitude(BigDecimal.normalize(BigDecimal.make(amount, 2)))
  const direction = negative ? "out" : "in"
  const accountId = textOf(field("account"))
  if (accountId === undefined) notes.lack("account", "the Actual account's id", "the account is unknown")
  const payee = textOf(field("payee"))
  const nextDate = dateOf(record.next_date, "next_date", notes)
  const text = textOf(record.name)
  const amountOut: Amount = { value }
  return order(
    {
      standard: "actual",
      orderId,
      schedule: date,
      amount: amountOut,
      direction,
      ...parties(
        direction,
        accountId === undefined ? {} : { account: idAccount(accountId, "actual") },
        payee === undefined ? {} : { account: idAccount(payee, "actual-payee") }
      ),
      ...(text === undefined ? {} : { text }),
      ...(nextDate === undefined ? {} : { nextDate, nextDateMoved: true })
    },
    notes
  )
}
