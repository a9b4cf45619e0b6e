/**
 * fast-check generators of the bank client's failures as a worker records them: every kind of reason, error bodies
 * in each dialect core recognises (one code or several, upper- and lower-case, with and without titles), attempts
 * and request identifiers present or not.
 */
import { ErrorBody } from "@tppkit/core"
import { BankError } from "@tppkit/http"
import fc from "fast-check"

const code = fc.constantFrom("CONSENT_MISSING", "SCA_REQUIRED", "FORMAT_ERROR", "invalid_token", "Bad", "X")
const text = fc.constantFrom("Forbidden", "No consent", "try (later)", "")

/** An error body as the bank sends it (status, content type, text), decoded as the client decodes it. */
export const errorBody = (status: number): fc.Arbitrary<ErrorBody.ErrorBody> =>
  fc
    .oneof(
      fc.record({ code, title: text }).map(({ code, title }) => ({
        type: "application/problem+json",
        body: JSON.stringify(title === "" ? { code } : { code, title })
      })),
      fc
        .record({ title: text })
        .map(({ title }) => ({ type: "application/problem+json", body: JSON.stringify({ title }) })),
      fc.array(code, { minLength: 1, maxLength: 3 }).map((codes) => ({
        type: "application/json",
        body: JSON.stringify({ tppMessages: codes.map((c) => ({ category: "ERROR", code: c })) })
      })),
      fc.array(code, { minLength: 1, maxLength: 2 }).map((codes) => ({
        type: "application/json",
        body: JSON.stringify({ errors: codes.map((c) => ({ error: c, scope: null })) })
      })),
      code.map((c) => ({ type: "application/json", body: JSON.stringify({ error: c }) })),
      fc.constantFrom("", "<html>oops</html>").map((raw) => ({ type: "text/html", body: raw }))
    )
    .map(({ type, body }) => ErrorBody.decode(status, type, body))

/** Every kind of reason a balance check can fail for. */
export const reason: fc.Arbitrary<BankError.Reason> = fc.oneof(
  errorBody(400).map((body) => new BankError.BadRequest({ body })),
  errorBody(401).map((body) => new BankError.Unauthorized({ body })),
  errorBody(403).map((body) => new BankError.Forbidden({ body })),
  errorBody(404).map((body) => new BankError.NotFound({ body })),
  fc.record({ status: fc.constantFrom(500, 502, 503), body: errorBody(503) }).map((r) => new BankError.ServerError(r)),
  fc.record({ status: fc.constantFrom(409, 418), body: errorBody(418) }).map((r) => new BankError.UnexpectedStatus(r)),
  fc
    .record({ retry: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }), body: errorBody(429) })
    .map(
      ({ retry, body }) =>
        new BankError.TooManyRequests(retry === undefined ? { body } : { retryAfterSeconds: retry, body })
    ),
  fc
    .constantFrom("connect", "reset", "timeout", "truncated", "tls", "other")
    .map((kind) => new BankError.TransportFailure({ kind, detail: `${kind}: no answer (of the bank)` })),
  fc.record({ error: fc.option(errorBody(200), { nil: undefined }) }).map(
    ({ error }) =>
      new BankError.MalformedResponse({
        path: "response",
        detail: "expected APPR or DECL",
        ...(error === undefined ? {} : { error })
      })
  ),
  fc.constant(new BankError.InvalidRequest({ path: "amount.value", detail: "more than 2 decimals" }))
)

const id = fc.option(fc.uuid(), { nil: undefined })

/** A failed balance check, as the client reports it. */
export const bankError: fc.Arbitrary<BankError.BankError> = fc
  .record({
    reason,
    attempts: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
    request: fc.option(fc.constant("POST /piisp/api/v1/accounts/balanceCheck"), { nil: undefined }),
    requestId: id,
    correlationId: id,
    responseId: id
  })
  .map(
    (r) =>
      new BankError.BankError({
        operation: "balanceCheck",
        identity: {
          ...(r.requestId === undefined ? {} : { requestId: r.requestId }),
          ...(r.correlationId === undefined ? {} : { correlationId: r.correlationId }),
          ...(r.responseId === undefined ? {} : { responseId: r.responseId })
        },
        reason: r.reason,
        ...(r.request === undefined ? {} : { request: r.request }),
        ...(r.attempts === undefined ? {} : { attempts: r.attempts })
      })
  )
