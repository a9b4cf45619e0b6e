/**
 * The identifiers of one request and its response (README.md, "Request identity"): the Request-ID and
 * Correlation-ID a client sends, the Process-ID and Response-ID the bank answers, each when known. A failure
 * carries them so that a support ticket can quote them; the http client's `BankError` and the command's failure
 * report share this one shape.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/** The identifiers of one request and its response, each when known (README.md, "Request identity"). */
export const RequestIdentity = Schema.Struct({
  requestId: Schema.optionalKey(Schema.String),
  correlationId: Schema.optionalKey(Schema.String),
  processId: Schema.optionalKey(Schema.String),
  responseId: Schema.optionalKey(Schema.String)
})

/** The identifiers of one request and its response (README.md, "Request identity"). */
export type RequestIdentity = typeof RequestIdentity.Type
