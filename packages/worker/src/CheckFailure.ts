/**
 * Why a funds check got no answer, kept as data with the check (in the workflow's journal and the checks table):
 * the bank client's typed failure, or a payment the worker could not send. Printing and grouping read this data;
 * nothing parses a message back.
 *
 * @since 0.1.0
 */
import * as BankError from "@tppkit/http/BankError"
import * as FailureClass from "@tppkit/http/FailureClass"
import { Schema } from "effect"

/** A payment the worker could not ask about: its amount, currency or debtor IBAN is not valid; nothing was sent. */
export class InvalidPayment extends Schema.TaggedError<InvalidPayment>()("InvalidPayment", {
  amount: Schema.String,
  currency: Schema.String,
  debtorIban: Schema.String
}) {
  /** One line naming the payment's amount and account. */
  override get message(): string {
    return `invalid payment ${this.amount} ${this.currency} on ${this.debtorIban}`
  }
}

/**
 * Why a check got no answer, as data: the bank client's failure (its operation, request identity, attempts and
 * typed reason, which http's `FailureClass` sorts into classes), or a payment the worker could not send.
 */
/**
 * A consent names a bank profile this worker has no connection to (nothing was sent): a consent added with a profile
 * the fleet's workers were not started for.
 */
export class NoBank extends Schema.TaggedError<NoBank>()("NoBank", {
  consent: Schema.String,
  profile: Schema.String
}) {
  /** One line naming the consent, its profile and what a worker needs for it. */
  override get message(): string {
    const prefix = `TPPKIT_${this.profile.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_`
    return `consent ${this.consent} names the bank profile ${this.profile}, which this worker has no bank for: start the fleet's workers with ${prefix}BASE_URL, ${prefix}CLIENT_ID and ${prefix}CLIENT_SECRET (and what the profile needs besides)`
  }
}

export const CheckFailure = Schema.Union([BankError.BankError, InvalidPayment, NoBank])

/** Why a check got no answer. */
export type CheckFailure = typeof CheckFailure.Type

/**
 * A failure in one line without the request identifiers (they differ per request, so checks that failed for the
 * same cause share the line); what `tppkit worker status` groups the failed checks by.
 */
export const describe = (failure: CheckFailure): string =>
  failure._tag === "BankError" ? BankError.headline(failure) : failure.message

/**
 * The class of a failure (http's `FailureClass`: `refused`, `unavailable`, …); a payment the worker could not send
 * is `invalid`, like a request the client refused to send.
 */
export const classify = (failure: CheckFailure): FailureClass.FailureClass =>
  failure._tag === "BankError" ? FailureClass.classify(failure.reason) : "invalid"

/** The name of what happened: the bank client's reason (`Forbidden`, `TransportFailure`, …) or `InvalidPayment`. */
export const reasonTag = (failure: CheckFailure): string =>
  failure._tag === "BankError" ? failure.reason._tag : failure._tag

const decodeText = Schema.decodeUnknownResult(Schema.fromJsonString(CheckFailure))

/** The JSON the checks table stores (`Schema`-encoded). */
export const encodeJson: (failure: CheckFailure) => unknown = Schema.encodeSync(CheckFailure)

/** A stored failure read back, or `undefined` for none or JSON that is not one (a row written by another version). */
export const decodeJson = (json: unknown): CheckFailure | undefined => {
  if (json === null || json === undefined) return undefined
  const decoded = typeof json === "string" ? decodeText(json) : Schema.decodeUnknownResult(CheckFailure)(json)
  return decoded._tag === "Success" ? decoded.success : undefined
}

/**
 * Whether a failure is a final answer about its payment: a refusal (forbidden, no consent, a request the bank
 * rejects) or a payment the worker cannot send stays so however often it is asked; any other failure (the bank
 * unavailable, a timeout, a configuration or data problem) may pass, so the check has no answer yet.
 */
export const isFinal = (failure: CheckFailure | undefined): boolean => {
  if (failure === undefined) return false
  const kind = classify(failure)
  return kind === "refused" || kind === "invalid"
}

/**
 * Whether the request of a check that failed was sent to the bank (so that it counts as an attempt): not for a
 * payment the worker could not send, a token that could not be had, a connection the bank refused, or a request
 * the client refused to send; any other failure may have reached the bank (a timeout, a reset, an error answer).
 * A token that could not be had after the check's request was answered 401 (`callRequests`) was sent.
 */
export const wasSent = (failure: CheckFailure): boolean =>
  failure._tag === "BankError" &&
  ((failure.callRequests ?? 0) > 0 ||
    (failure.operation !== "token" &&
      !(failure.reason._tag === "TransportFailure" && failure.reason.kind === "connect") &&
      failure.reason._tag !== "InvalidRequest"))
