/**
 * The pieces both check stores share: a payment's key, a planned row, a row's payment, the listing order and the
 * `checkedAt` text.
 */
import { Currency, Iban, LocalDate, Money } from "@tppkit/core"
import { Schema } from "effect"
import type { Outcome, Row, Verdict } from "../Checks.ts"

/** One payment due for a funds check (`Checks.Due`, which documents it). */
export const Due = Schema.Struct({
  consent: Schema.String,
  orderId: Schema.String,
  /** Nominal date of the occurrence. */
  nominalDate: LocalDate.LocalDate,
  /** The date the bank executes the payment. */
  executionDate: LocalDate.LocalDate,
  /** The exact amount (plain decimal text encoded, e.g. "1250.5"). */
  amount: Money.PlainAmount,
  currency: Currency.CurrencyCode,
  debtorIban: Iban.Iban,
  /** The day of the sweep that planned the check. */
  sweepDay: LocalDate.LocalDate,
  /** When to check (epoch milliseconds); 0 or a past instant: right away. */
  checkAt: Schema.Number,
  /**
   * The day of the listing the payment was planned from when it is not the sweep's own (its pages could not be
   * read that day, and the latest complete listing kept for the consent stood in for them).
   */
  listedOn: Schema.optionalKey(LocalDate.LocalDate)
})

type Due = typeof Due.Type
type DueText = typeof Due.Encoded

/** The key of a payment's check: consent, orderId and nominal date (its text, the same as ever). */
export const key = (due: Pick<Due, "consent" | "orderId" | "nominalDate">): string =>
  JSON.stringify([due.consent, due.orderId, LocalDate.format(due.nominalDate)])

/** A payment as the text a store keeps (what `Due` encodes to). */
export const textOf = (d: Due): DueText => ({
  consent: d.consent,
  orderId: d.orderId,
  nominalDate: LocalDate.format(d.nominalDate),
  executionDate: LocalDate.format(d.executionDate),
  amount: Money.toPlainString(d.amount),
  currency: d.currency,
  debtorIban: d.debtorIban,
  sweepDay: LocalDate.format(d.sweepDay),
  checkAt: d.checkAt,
  ...(d.listedOn === undefined ? {} : { listedOn: LocalDate.format(d.listedOn) })
})

/** A planned row: no attempt yet, no outcome. */
export const pendingRow = (d: Due): Row => ({
  ...d,
  outcome: undefined,
  failure: undefined,
  attempts: 0,
  unconfirmed: 0,
  correlationIds: [],
  checkedAt: undefined,
  requestId: undefined,
  responseId: undefined
})

/** The payment a row is for. */
export const dueOf = (r: Row): Due => ({
  consent: r.consent,
  orderId: r.orderId,
  nominalDate: r.nominalDate,
  executionDate: r.executionDate,
  amount: r.amount,
  currency: r.currency,
  debtorIban: r.debtorIban,
  sweepDay: r.sweepDay,
  checkAt: r.checkAt,
  ...(r.listedOn === undefined ? {} : { listedOn: r.listedOn })
})

/** The listing order: execution date, orderId, nominal date, consent. */
export const compareRows = (a: Row, b: Row): number =>
  a.executionDate - b.executionDate ||
  (a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0) ||
  a.nominalDate - b.nominalDate ||
  (a.consent < b.consent ? -1 : a.consent > b.consent ? 1 : 0)

/** An instant as RFC 3339 UTC without milliseconds. */
export const isoSeconds = (millis: number): string => new Date(millis).toISOString().replace(/\.\d{3}Z$/, "Z")

/** The outcome a row records (for a try that finished already). */
export const outcomeOf = (r: Row): Outcome => ({
  outcome: r.outcome ?? "failed",
  ...(r.failure === undefined ? {} : { failure: r.failure }),
  ...(r.requestId === undefined ? {} : { requestId: r.requestId }),
  ...(r.responseId === undefined ? {} : { responseId: r.responseId })
})

/**
 * Whether an attempt's outcome moves a check's record forward: none recorded yet; or a failure recorded and the new
 * outcome is the bank's answer, or comes from the same or a later attempt (`attempt`, the number `begin` gave it;
 * undefined: unknown, treated as the latest). A bank's answer (APPR, DECL) is never replaced.
 */
export const isForward = (
  recorded: Verdict | undefined,
  recordedAttempt: number,
  next: Verdict,
  attempt: number | undefined
): boolean =>
  recorded === undefined || (recorded === "failed" && (next !== "failed" || (attempt ?? Infinity) >= recordedAttempt))
