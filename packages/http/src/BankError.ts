/**
 * The one error family of @tppkit/http: `BankError`, carrying the operation, the request identity
 * (Request-ID, Correlation-ID, Process-ID, Response-ID) and a tagged `reason` saying what happened.
 * Messages name the operation, status and codes; they never contain a secret, a token, an IBAN or a body.
 */
import { ErrorBody, Profile, RequestIdentity, StandingOrder } from "@tppkit/core"
import { Schema } from "effect"
import * as FailureClass from "./FailureClass.ts"

/** The identifiers of one request and its response, quoted in support tickets (README.md, "Request identity"). */
export const Identity = RequestIdentity.RequestIdentity

/** The identifiers of one request and its response, quoted in support tickets (README.md, "Request identity"). */
export type Identity = RequestIdentity.RequestIdentity

/**
 * The exchange did not complete: the connection was refused (`connect`), closed before the answer (`reset`), no
 * complete answer came in time (`timeout`), the body ended before its end (`truncated`), the TLS handshake failed
 * (`tls`: `detail` says which side refused and why), or another failure (`other`). `detail` is one human line.
 */
export class TransportFailure extends Schema.TaggedError<TransportFailure>()("TransportFailure", {
  kind: Schema.Literals(["connect", "reset", "timeout", "truncated", "tls", "other"]),
  detail: Schema.String
}) {}

/**
 * The answer was larger than the client accepts: its headers or its body (counted while it streamed in) passed
 * `limit` bytes, and the exchange was aborted there.
 */
export class ResponseTooLarge extends Schema.TaggedError<ResponseTooLarge>()("ResponseTooLarge", {
  part: Schema.Literals(["headers", "body"]),
  limit: Schema.Int
}) {}

/** 400: the bank refused the request; `body` is the decoded error body (core's `ErrorBody`). */
export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", { body: ErrorBody.ErrorBody }) {}

/** 401: the token was missing, expired or refused (the token endpoint: the client credentials were refused). */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", { body: ErrorBody.ErrorBody }) {}

/** 403: the token is valid but not allowed, e.g. no consent for the account. */
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", { body: ErrorBody.ErrorBody }) {}

/** 404: the bank does not know the resource or path. */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", { body: ErrorBody.ErrorBody }) {}

/** 429: too many requests; `retryAfterSeconds` is the bank's `Retry-After` when it sent one. */
export class TooManyRequests extends Schema.TaggedError<TooManyRequests>()("TooManyRequests", {
  retryAfterSeconds: Schema.optionalKey(Schema.Number),
  body: ErrorBody.ErrorBody
}) {}

/** 5xx: the bank failed. */
export class ServerError extends Schema.TaggedError<ServerError>()("ServerError", {
  status: Schema.Int,
  body: ErrorBody.ErrorBody
}) {}

/** Any other status the document does not lead us to expect. */
export class UnexpectedStatus extends Schema.TaggedError<UnexpectedStatus>()("UnexpectedStatus", {
  status: Schema.Int,
  body: ErrorBody.ErrorBody
}) {}

/**
 * A successful (2xx) response whose body is not the operation's success shape; `path` locates the offending
 * field. When the body is an error in one of the dialects core recognises (problem details, OAuth error,
 * `tppMessages`, `errors[]`), `error` carries it decoded: a bank that answers 200 with an error is never read as
 * an empty result.
 */
export class MalformedResponse extends Schema.TaggedError<MalformedResponse>()("MalformedResponse", {
  path: Schema.String,
  detail: Schema.String,
  error: Schema.optionalKey(ErrorBody.ErrorBody)
}) {}

/** The request was invalid and was never sent; `path` names the offending input. */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", {
  path: Schema.String,
  detail: Schema.String
}) {}

/**
 * The daily budget of unattended standing-order calls (docs/bank-interface.md, "Daily limit": 4 a day) cannot cover the
 * requests asked for; nothing was sent. `freesAt` is the RFC 3339 instant when the next day's budget starts.
 */
export class BudgetExhausted extends Schema.TaggedError<BudgetExhausted>()("BudgetExhausted", {
  consentKey: Schema.String,
  limit: Schema.Int,
  used: Schema.Int,
  requested: Schema.Int,
  freesAt: Schema.String,
  /** The pages the refused listing needed in all, when it was refused after its first page gave `pageCount`. */
  listingPages: Schema.optionalKey(Schema.Int)
}) {}

/** One page of a listing as read: its number, the `pageCount` it gave, its good records and its malformed ones. */
export const PageRead = Schema.Struct({
  page: Schema.Int,
  pageCount: Schema.UndefinedOr(Schema.Int),
  orders: Schema.Array(StandingOrder.StandingOrder),
  errors: Schema.Array(
    Schema.Struct({
      index: Schema.Int,
      orderId: Schema.UndefinedOr(Schema.String),
      path: Schema.String,
      message: Schema.String
    })
  )
})

/** One page of a listing as read. */
export type PageRead = typeof PageRead.Type

/**
 * A listing of every page stopped before its end: `pageCountChanged` (a later page gave another `pageCount` than
 * the first), `pageLimit` (more pages than the listing's limit, announced or met), `deadline` (no complete
 * listing within its overall deadline). Nothing read is lost: `pages` holds every page read.
 */
export class ListingIncomplete extends Schema.TaggedError<ListingIncomplete>()("ListingIncomplete", {
  kind: Schema.Literals(["pageCountChanged", "pageLimit", "deadline"]),
  detail: Schema.String,
  pages: Schema.Array(PageRead)
}) {}

/**
 * The budget store itself failed (a file that cannot be opened or written, a database that refused): `store` names
 * the store and where it lives (e.g. `SQLite file /var/lib/tpp/budget.sqlite`), `operation` the store method.
 */
export class BudgetStoreError extends Schema.TaggedError<BudgetStoreError>()("BudgetStoreError", {
  store: Schema.String,
  operation: Schema.String,
  detail: Schema.String
}) {
  /** One line naming the store, where it lives and what failed. */
  override get message(): string {
    return `budget store (${this.store}): ${this.operation} failed: ${this.detail}`
  }
}

/** Every reason a bank call can fail for. */
export const Reason = Schema.Union([
  TransportFailure,
  ResponseTooLarge,
  BadRequest,
  Unauthorized,
  Forbidden,
  NotFound,
  TooManyRequests,
  ServerError,
  UnexpectedStatus,
  MalformedResponse,
  InvalidRequest,
  BudgetExhausted,
  BudgetStoreError,
  ListingIncomplete
])

/** Every reason a bank call can fail for. */
export type Reason = typeof Reason.Type

/** The ways past the daily limit, as a refusal names them (docs/bank-interface.md, "Daily limit"). */
const WAYS_OUT =
  "Ways out: list with the customer present (PSU-Last-Logged-Time under an hour old; tppkit --psu-last-logged-time), or accept a recent complete listing (maxAge; tppkit --max-age)"

const describe = (reason: Reason): string => {
  switch (reason._tag) {
    case "TransportFailure":
      return reason.detail
    case "ResponseTooLarge":
      return `the answer's ${reason.part} passed the limit of ${bytes(reason.limit)}; the exchange was aborted`
    case "BadRequest":
      return `400 bad request (${ErrorBody.headline(reason.body)})`
    case "Unauthorized":
      return `401 unauthorized (${ErrorBody.headline(reason.body)})`
    case "Forbidden":
      return `403 forbidden (${ErrorBody.headline(reason.body)})`
    case "NotFound":
      return `404 not found (${ErrorBody.headline(reason.body)})`
    case "TooManyRequests":
      return FailureClass.isDailyLimit(reason)
        ? `429 too many requests (${FailureClass.DAILY_LIMIT_CODE}): the bank's daily limit of unattended listings is reached${reason.retryAfterSeconds === undefined ? "" : `; it frees up in ${reason.retryAfterSeconds} s`}. ${WAYS_OUT}`
        : `429 too many requests${reason.retryAfterSeconds === undefined ? "" : `, retry after ${reason.retryAfterSeconds} s`}`
    case "ServerError":
      return `${reason.status} server error (${ErrorBody.headline(reason.body)})`
    case "UnexpectedStatus":
      return `unexpected status ${reason.status} (${ErrorBody.headline(reason.body)})`
    case "MalformedResponse":
      return reason.error === undefined
        ? `malformed response at ${reason.path}: ${reason.detail}`
        : `a success status with an error body (${ErrorBody.headline(reason.error)})`
    case "InvalidRequest":
      return `invalid request at ${reason.path}: ${reason.detail}`
    case "BudgetExhausted":
      return `${
        reason.listingPages === undefined
          ? `daily budget of ${reason.limit} unattended calls cannot cover ${reason.requested} more`
          : `daily budget of ${reason.limit} unattended calls cannot cover the ${reason.requested} more pages of this ${reason.listingPages}-page listing`
      } (used ${reason.used}); it frees up at ${reason.freesAt}. ${WAYS_OUT}`
    case "ListingIncomplete": {
      const orders = reason.pages.reduce((n, p) => n + p.orders.length, 0)
      return `listing stopped after ${reason.pages.length} page(s) (${orders} order(s) read, kept in the error): ${reason.detail}`
    }
    case "BudgetStoreError":
      return reason.message
  }
}

const bytes = (n: number): string =>
  n >= 1 << 20 && n % (1 << 20) === 0
    ? `${n / (1 << 20)} MiB`
    : n >= 1024 && n % 1024 === 0
      ? `${n / 1024} KiB`
      : `${n} bytes`

/** How messages name an operation: "token request", "balance check", "standing-order list", "standing-order detail". */
export const operationLabel = (operation: Profile.Operation): string =>
  operation === "token"
    ? "token request"
    : operation === "balanceCheck"
      ? "balance check"
      : operation === "standingOrders"
        ? "standing-order list"
        : "standing-order detail"

/**
 * A failed bank call: the operation, the request identity, the reason, and when known the request (method and
 * URL path, e.g. `POST /piisp-test/api/v1/accounts/balanceCheck`) and the number of attempts made. `callRequests`
 * is set when the call's own request reached the bank before another operation failed it: a request answered 401
 * whose token renewal then failed (the failure is the token request's, yet the bank saw the call's request).
 */
export class BankError extends Schema.TaggedError<BankError>()("BankError", {
  operation: Profile.Operation,
  identity: Identity,
  reason: Reason,
  request: Schema.optionalKey(Schema.String),
  attempts: Schema.optionalKey(Schema.Int),
  callRequests: Schema.optionalKey(Schema.Int)
}) {
  /**
   * One line naming the operation, the request, the reason, the attempts and the request identifiers, e.g.
   * `balance check POST /…/balanceCheck: no answer within 10 s (3 attempts) [Request-ID …]`; never a secret.
   */
  override get message(): string {
    const ids = [
      this.identity.requestId === undefined ? undefined : `Request-ID ${this.identity.requestId}`,
      this.identity.correlationId === undefined ? undefined : `Correlation-ID ${this.identity.correlationId}`,
      this.identity.responseId === undefined ? undefined : `Response-ID ${this.identity.responseId}`
    ].filter((s) => s !== undefined)
    return `${headline(this)}${ids.length === 0 ? "" : ` [${ids.join(", ")}]`}`
  }
}

/**
 * Why a call failed, in one line without the operation, the request and its identifiers: the reason, and the
 * attempts when they are news (several, or one that got no answer at all); e.g. `403 forbidden (CONSENT_MISSING)`.
 */
export const reasonLine = (error: Pick<BankError, "reason" | "attempts">): string => {
  const attempts =
    error.attempts === undefined || (error.attempts === 1 && error.reason._tag !== "TransportFailure")
      ? ""
      : ` (${error.attempts} attempt${error.attempts === 1 ? "" : "s"})`
  return `${describe(error.reason)}${attempts}`
}

/**
 * The message without the request identifiers (they differ per request, so failures that share a headline share a
 * cause): the operation, the request when known, and {@link reasonLine}.
 */
export const headline = (error: Pick<BankError, "operation" | "request" | "reason" | "attempts">): string =>
  `${error.request === undefined ? operationLabel(error.operation) : `${operationLabel(error.operation)} ${error.request}`}: ${reasonLine(error)}`

/** The same failure with its counts of attempts and of the call's requests as given. */
const withCounts = (error: BankError, attempts: number | undefined, callRequests: number | undefined): BankError =>
  new BankError({
    operation: error.operation,
    identity: error.identity,
    reason: error.reason,
    ...(error.request === undefined ? {} : { request: error.request }),
    ...(attempts === undefined ? {} : { attempts }),
    ...(callRequests === undefined ? {} : { callRequests })
  })

/** The same failure with the number of attempts made (set once the retries are over). */
export const withAttempts = (error: BankError, attempts: number): BankError =>
  withCounts(error, attempts, error.callRequests)

/** The same failure saying that `requests` of the call's own requests reached the bank before it (see `BankError`). */
export const withCallRequests = (error: BankError, requests: number): BankError =>
  withCounts(error, error.attempts, requests)

/**
 * Whether a reason is transient, so that repeating the request may succeed (README.md, "Retries"); see `FailureClass`.
 * Typed by {@link Reason}, it checks that every reason is one `FailureClass` sorts (`FailureClass.Classified`).
 */
export const isTransient: (reason: Reason) => boolean = FailureClass.isTransient

/** A failure raised while building the client from its configuration (e.g. LIVE over plain `http://`). */
export class BankConfigError extends Schema.TaggedError<BankConfigError>()("BankConfigError", {
  setting: Schema.String,
  detail: Schema.String
}) {
  /** A one-line description naming the setting; never its secret value. */
  override get message(): string {
    return `invalid configuration ${this.setting}: ${this.detail}`
  }
}
