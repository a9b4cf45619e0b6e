/**
 * The pieces both check stores share: a payment's key, a planned row, a row's payment, the listing order and the
 * `checkedAt` text.
 */
import type { Due, Outcome, Row, Verdict } from "../Checks.ts"

/** The key of a payment's check: consent, orderId and nominal date. */
export const key = (due: Pick<Due, "consent" | "orderId" | "nominalDate">): string =>
  JSON.stringify([due.consent, due.orderId, due.nominalDate])

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
  a.executionDate.localeCompare(b.executionDate) ||
  (a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0) ||
  a.nominalDate.localeCompare(b.nominalDate) ||
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
