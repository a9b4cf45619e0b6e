/**
 * How the sweep judges a listing's failure: the wait before the next try (the back-off's nominal wait, or the bank's
 * Retry-After when longer), whether the fault may pass, and whether the day may fall back to what is kept.
 */
import { Backoff } from "@tppkit/core"
import * as FailureClass from "@tppkit/http/FailureClass"
import type { ListingFailure } from "./listingFailure.ts"
import type { Retry } from "./sweepTypes.ts"

/** The wait before try `n + 1` (n ≥ 1) after `failure`: the back-off, or the bank's Retry-After when longer. */
export const backoffMillis = (retry: Retry, n: number, failure: ListingFailure): number => {
  const wait = Backoff.nominalMillis(retry.backoff, n) ?? 0
  const after =
    failure._tag === "BankError" && failure.reason._tag === "TooManyRequests"
      ? (failure.reason.retryAfterSeconds ?? 0) * 1000
      : 0
  return Math.max(wait, after)
}

/**
 * Whether a listing failure may pass, so that the sweep tries again: http's transient reasons, a listing cut off by
 * its deadline (docs/bank-interface.md, "Daily limit": the sweep owns the listing and may try again later), and the
 * fleet's database out of reach (the budget store, or the check store while the checks are planned).
 */
export const isTransient = (failure: ListingFailure): boolean =>
  failure._tag === "ChecksError" ||
  (failure._tag === "BankError" &&
    (FailureClass.isTransient(failure.reason) ||
      failure.reason._tag === "BudgetStoreError" ||
      (failure.reason._tag === "ListingIncomplete" && failure.reason.kind === "deadline")))

/**
 * Whether a listing's failure leaves a consent's day to what is kept (the pages read, an earlier listing): a fault
 * that may pass and did not within the tries, or the daily budget spent; not a refusal (a consent revoked, a
 * client refused), which no kept listing can stand in for.
 */
export const degradable = (failure: ListingFailure): boolean =>
  isTransient(failure) || (failure._tag === "BankError" && failure.reason._tag === "BudgetExhausted")
