/**
 * Why a consent's standing orders could not be listed or its checks planned, as data: the bank client's failure, a
 * bad IBAN filter, the check store's failure, a profile this worker has no bank for, or no customer refresh token.
 */
import * as BankError from "@tppkit/http/BankError"
import { Schema } from "effect"
import { NoBank } from "../CheckFailure.ts"
import { ChecksError } from "../Checks.ts"

/** A consent's IBAN filter that is not an IBAN: nothing was sent. */
export class InvalidIban extends Schema.TaggedError<InvalidIban>()("InvalidIban", { iban: Schema.String }) {
  /** One line naming the text that is not an IBAN. */
  override get message(): string {
    return `invalid IBAN ${this.iban}`
  }
}

/**
 * A consent whose profile lists with the customer's own token (COBS) and for which the fleet keeps no refresh token:
 * nothing was sent.
 */
export class NoGrant extends Schema.TaggedError<NoGrant>()("NoGrant", {
  consent: Schema.String,
  profile: Schema.String
}) {
  /** One line naming the consent and how to give its customer's refresh token. */
  override get message(): string {
    return `consent ${this.consent} (profile ${this.profile}) has no customer refresh token: the ${this.profile} bank lists standing orders only with the customer's token; give it with tppkit consents add ${this.consent} --profile ${this.profile} (TPPKIT_REFRESH_TOKEN)`
  }
}

/**
 * Why a consent's standing orders could not be listed or its checks planned, as data: the bank client's failure, a
 * bad IBAN filter, the check store's failure, a profile this worker has no bank for, or no customer refresh token.
 */
export const ListingFailure = Schema.Union([BankError.BankError, InvalidIban, ChecksError, NoBank, NoGrant])

/** Why a consent's standing orders could not be listed. */
export type ListingFailure = typeof ListingFailure.Type

/** A consent whose standing orders could not be listed, and why (its message is the failure's). */
export class ListingFailed extends Schema.TaggedError<ListingFailed>()("ListingFailed", {
  consent: Schema.String,
  failure: ListingFailure
}) {
  /** The failure's one line. */
  override get message(): string {
    return this.failure.message
  }
}
