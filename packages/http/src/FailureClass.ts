/**
 * What a failed bank call means to whoever decides what to do next: the bank's knowledge that sorts every
 * `BankError` reason into a class (`refused`, `unavailable`, …) and says which reasons are worth repeating.
 * A command maps the classes to exit codes, a fleet groups stored failures by them, the client's retry rule
 * repeats the transient ones.
 *
 * This module is light on purpose: it imports nothing, so `import { … } from "@tppkit/http/FailureClass"` loads
 * neither effect nor the client. It reads a reason by the shape {@link Classified} says (every `BankError.Reason`
 * is one: `BankError` checks it), so that it needs none of `BankError`'s classes.
 *
 * @since 0.1.0
 */

/**
 * What the classes read of a `BankError` reason: its tag, the fields a class depends on (the 429's error body, the
 * transport failure's kind, the status of a 5xx or another status). `BankError` checks that its `Reason` is one,
 * so a reason added there and not sorted here does not compile.
 */
export type Classified =
  | { readonly _tag: "TooManyRequests"; readonly body: { readonly raw: string } }
  | { readonly _tag: "TransportFailure"; readonly kind: string }
  | { readonly _tag: "ServerError" | "UnexpectedStatus"; readonly status: number }
  | {
      readonly _tag:
        | "Unauthorized"
        | "BudgetStoreError"
        | "BadRequest"
        | "Forbidden"
        | "NotFound"
        | "MalformedResponse"
        | "ResponseTooLarge"
        | "ListingIncomplete"
        | "InvalidRequest"
        | "BudgetExhausted"
    }

/** Every class, in the order of {@link FailureClass}'s description (a tuple, e.g. for `Schema.Literals`). */
export const all = ["refused", "unavailable", "configuration", "budget", "data", "invalid"] as const

/**
 * The classes of a bank call's failure: `refused` (the bank answered no: 400, 403, 404, another 4xx),
 * `unavailable` (no answer, or one saying "not now": the network, 429, 5xx), `configuration` (our credentials or
 * our budget store: 401, a store that failed), `budget` (the daily budget of unattended calls is spent, by our
 * count or by the bank's 429 for its daily limit), `data`
 * (an answer that cannot be used: malformed, too large, a listing that stopped before its end), `invalid` (the
 * request was invalid and never sent).
 */
export type FailureClass = (typeof all)[number]

/**
 * The bank's code for a call past its daily limit of unattended listings, sent with 429
 * (docs/bank-interface.md, "Daily limit", "Codes"); Berlin Group's code of the same meaning.
 */
export const DAILY_LIMIT_CODE = "ACCESS_EXCEEDED"

/**
 * Whether a reason is the bank's own refusal of a call past its daily limit (a 429 whose error body carries
 * {@link DAILY_LIMIT_CODE}): the same situation as a spent budget (`BudgetExhausted`), which only the next day or
 * the customer's presence changes, not a "not now" to repeat.
 */
export const isDailyLimit = (reason: Classified): boolean =>
  reason._tag === "TooManyRequests" && reason.body.raw.includes(DAILY_LIMIT_CODE)

/** The class of a bank call's failure, from its reason (the bank's daily limit is `budget`, as a spent budget). */
export const classify = (reason: Classified): FailureClass => {
  switch (reason._tag) {
    case "TooManyRequests":
      return isDailyLimit(reason) ? "budget" : "unavailable"
    case "TransportFailure":
    case "ServerError":
      return "unavailable"
    case "Unauthorized":
    case "BudgetStoreError":
      return "configuration"
    case "BadRequest":
    case "Forbidden":
    case "NotFound":
      return "refused"
    case "UnexpectedStatus":
      return reason.status >= 500 ? "unavailable" : "refused"
    case "MalformedResponse":
    case "ResponseTooLarge":
    case "ListingIncomplete":
      return "data"
    case "InvalidRequest":
      return "invalid"
    case "BudgetExhausted":
      return "budget"
  }
}

/**
 * Whether a reason is transient, so that repeating the request may succeed (README.md, "Retries"): a connection
 * refused or reset, a timeout or a truncated body (not a TLS refusal), 502/503/504, and 429 (not the daily limit's).
 */
export const isTransient = (reason: Classified): boolean => {
  switch (reason._tag) {
    case "TransportFailure":
      return reason.kind !== "other" && reason.kind !== "tls"
    case "ServerError":
      return reason.status === 502 || reason.status === 503 || reason.status === 504
    case "TooManyRequests":
      return !isDailyLimit(reason)
    default:
      return false
  }
}
