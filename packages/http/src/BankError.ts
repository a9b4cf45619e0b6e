/**
 * The one error family of @tppkit/http: `BankError`, carrying the operation, the request identity
 * (Request-ID, Correlation-ID, Process-ID, Response-ID) and a tagged `reason` saying what happened.
 * Messages name the operation, status and codes; they never contain a secret, a token, an IBAN or a body.
 */
import { ErrorBody } from "@tppkit/core"
import { Schema } from "effect"

/** The bank operations the client performs. */
export const Operation = Schema.Literals(["token", "balanceCheck", "standingOrders"])

/** The bank operations the client performs. */
export type Operation = typeof Operation.Type

/** The identifiers of one request and its response, quoted in support tickets (decisions: Request identity). */
export const Identity = Schema.Struct({
  requestId: Schema.optionalKey(Schema.String),
  correlationId: Schema.optionalKey(Schema.String),
  processId: Schema.optionalKey(Schema.String),
  responseId: Schema.optionalKey(Schema.String)
})

/** The identifiers of one request and its response, quoted in support tickets (decisions: Request identity). */
export type Identity = typeof Identity.Type

/** The request never got a response: connection refused, connection reset, timeout or another socket failure. */
export class TransportFailure extends Schema.TaggedError<TransportFailure>()("TransportFailure", {
  kind: Schema.Literals(["connect", "reset", "timeout", "other"]),
  detail: Schema.String
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

/** A successful response whose body could not be decoded; `path` locates the offending field. */
export class MalformedResponse extends Schema.TaggedError<MalformedResponse>()("MalformedResponse", {
  path: Schema.String,
  detail: Schema.String
}) {}

/** The request was invalid and was never sent; `path` names the offending input. */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", {
  path: Schema.String,
  detail: Schema.String
}) {}

/**
 * The daily budget of unattended standing-order calls (section 8: 4 a day) cannot cover the requests asked
 * for; nothing was sent. `freesAt` is the RFC 3339 instant when the next day's budget starts.
 */
export class BudgetExhausted extends Schema.TaggedError<BudgetExhausted>()("BudgetExhausted", {
  consentKey: Schema.String,
  limit: Schema.Int,
  used: Schema.Int,
  requested: Schema.Int,
  freesAt: Schema.String
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
  BudgetStoreError
])

/** Every reason a bank call can fail for. */
export type Reason = typeof Reason.Type

const describe = (reason: Reason): string => {
  switch (reason._tag) {
    case "TransportFailure":
      return `transport failure (${reason.kind}): ${reason.detail}`
    case "BadRequest":
      return `400 bad request (${ErrorBody.headline(reason.body)})`
    case "Unauthorized":
      return `401 unauthorized (${ErrorBody.headline(reason.body)})`
    case "Forbidden":
      return `403 forbidden (${ErrorBody.headline(reason.body)})`
    case "NotFound":
      return `404 not found (${ErrorBody.headline(reason.body)})`
    case "TooManyRequests":
      return `429 too many requests${reason.retryAfterSeconds === undefined ? "" : `, retry after ${reason.retryAfterSeconds} s`}`
    case "ServerError":
      return `${reason.status} server error (${ErrorBody.headline(reason.body)})`
    case "UnexpectedStatus":
      return `unexpected status ${reason.status} (${ErrorBody.headline(reason.body)})`
    case "MalformedResponse":
      return `malformed response at ${reason.path}: ${reason.detail}`
    case "InvalidRequest":
      return `invalid request at ${reason.path}: ${reason.detail}`
    case "BudgetExhausted":
      return `daily budget of ${reason.limit} unattended calls cannot cover ${reason.requested} more (used ${reason.used}); it frees up at ${reason.freesAt}`
    case "BudgetStoreError":
      return reason.message
  }
}

/** A failed bank call: the operation, the request identity and the reason. */
export class BankError extends Schema.TaggedError<BankError>()("BankError", {
  operation: Operation,
  identity: Identity,
  reason: Reason
}) {
  /** A one-line description naming the operation, the reason and the request identifiers; never a secret. */
  override get message(): string {
    const ids = [
      this.identity.requestId === undefined ? undefined : `Request-ID ${this.identity.requestId}`,
      this.identity.correlationId === undefined ? undefined : `Correlation-ID ${this.identity.correlationId}`,
      this.identity.responseId === undefined ? undefined : `Response-ID ${this.identity.responseId}`
    ].filter((s) => s !== undefined)
    return `${this.operation}: ${describe(this.reason)}${ids.length === 0 ? "" : ` [${ids.join(", ")}]`}`
  }
}

/** Whether a reason is transient, so that repeating the request may succeed (decisions: Limits). */
export const isTransient = (reason: Reason): boolean => {
  switch (reason._tag) {
    case "TransportFailure":
      return reason.kind !== "other"
    case "ServerError":
      return reason.status === 502 || reason.status === 503 || reason.status === 504
    case "TooManyRequests":
      return true
    default:
      return false
  }
}

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
