/**
 * Error answers of the mock bank (README.md, "Errors"): a failure is described once, independent of its rendering,
 * and written with core's `ErrorBody.encode` in the dialect asked for — RFC 9457 problem details (default), Berlin
 * Group `tppMessages` or the Czech/Slovak standards' `errors[]` on the API paths, RFC 6749 5.2 on the token
 * endpoint — so that whatever the mock bank writes, core's `ErrorBody.decode` reads back.
 */
import { ErrorBody, SchemaProblem } from "@tppkit/core"
import { Result, type SchemaIssue } from "effect"
import type { Outgoing } from "./exchange.ts"

/** Which error body shape the API paths answer with. */
export type Dialect = "problem" | "berlin-group" | "cz-sk"

/** The dialects, for flags and documents. */
export const dialects: ReadonlyArray<Dialect> = ["problem", "berlin-group", "cz-sk"]

/** An error condition, independent of its rendering. */
export interface Failure {
  readonly status: number
  /** Stable upper-case code, e.g. `FORMAT_ERROR`, `TOKEN_EXPIRED`. */
  readonly code: string
  readonly title: string
  readonly detail: string
  /** The request field or header the error is about, when there is one. */
  readonly field?: string
  readonly headers?: Readonly<Record<string, string>>
}

/** The problem type URI of a code. */
export const problemType = (code: string): string =>
  `https://tppkit.dev/sandbox/problems/${code.toLowerCase().replaceAll("_", "-")}`

/** The body of a failure in a dialect, as core's `ErrorBody` shapes it. */
export const shape = (failure: Failure, dialect: Dialect): ErrorBody.Outgoing => {
  switch (dialect) {
    case "problem":
      return {
        _tag: "Problem",
        body: {
          type: problemType(failure.code),
          title: failure.title,
          status: failure.status,
          detail: failure.detail,
          code: failure.code
        }
      }
    case "berlin-group":
      return {
        _tag: "TppMessages",
        body: {
          tppMessages: [
            {
              category: "ERROR",
              code: failure.code,
              ...(failure.field !== undefined ? { path: failure.field } : {}),
              text: failure.detail
            }
          ]
        }
      }
    case "cz-sk":
      return {
        _tag: "Errors",
        body: {
          errors: [
            {
              error: failure.code,
              scope: failure.field ?? null,
              parameters: failure.field !== undefined ? [failure.field] : [],
              message: failure.detail
            }
          ]
        }
      }
  }
}

/** Writes an error body with core's encoder (its shapes are plain texts and numbers, so it does not fail). */
const write = (body: ErrorBody.Outgoing): ErrorBody.Encoded => {
  const encoded = ErrorBody.encode(body)
  return Result.isSuccess(encoded)
    ? encoded.success
    : { contentType: "application/json", text: '{"error":"server_error","error_description":"unencodable error"}' }
}

/** The answer for a failure of an API path in a dialect, with the request's IDs echoed. */
export const fail = (failure: Failure, dialect: Dialect, ids: Readonly<Record<string, string>>): Outgoing => {
  const { contentType, text } = write(shape(failure, dialect))
  return {
    status: failure.status,
    headers: { "content-type": contentType, ...ids, ...failure.headers },
    body: text,
    outcome: failure.code
  }
}

/** The answer for an RFC 6749 section 5.2 error of the token endpoint (never cached). */
export const oauthFail = (
  status: number,
  error: string,
  description: string,
  headers: Readonly<Record<string, string>> = {}
): Outgoing => {
  const { contentType, text } = write({ _tag: "OAuth", body: { error, error_description: description } })
  return {
    status,
    headers: { "content-type": contentType, "cache-control": "no-store", ...headers },
    body: text,
    outcome: error
  }
}

/** A 400 about the request's format, naming the field when there is one. */
export const badRequest = (detail: string, field?: string): Failure => ({
  status: 400,
  code: "FORMAT_ERROR",
  title: "Bad Request",
  detail,
  ...(field !== undefined ? { field } : {})
})

/** A 401 with the `WWW-Authenticate` challenge of RFC 6750 (with its error code when there is one). */
export const unauthorized = (code: string, detail: string, error?: string): Failure => ({
  status: 401,
  code,
  title: "Unauthorized",
  detail,
  headers: {
    "www-authenticate":
      error === undefined ? 'Bearer realm="tppkit-sandbox"' : `Bearer realm="tppkit-sandbox", error="${error}"`
  }
})

/** A 403. */
export const forbidden = (code: string, detail: string, field?: string): Failure => ({
  status: 403,
  code,
  title: "Forbidden",
  detail,
  ...(field !== undefined ? { field } : {})
})

/** A 405 naming the methods allowed. */
export const methodNotAllowed = (method: string, path: string, allow: string): Failure => ({
  status: 405,
  code: "METHOD_NOT_ALLOWED",
  title: "Method Not Allowed",
  detail: `${method} is not allowed on ${path}; use ${allow}`,
  headers: { allow }
})

/** A 400 for a body that failed core's schema, naming the first offending field. */
export const schemaFailure = (issue: SchemaIssue.Issue): Failure => {
  const { path: field, message } = SchemaProblem.first(issue)
  return badRequest(field !== undefined ? `invalid field ${field}: ${message}` : `invalid body: ${message}`, field)
}

/** Parses a dialect name (for the `X-Sandbox-Error-Dialect` header and the CLI flag). */
export const parseDialect = (s: string | undefined): Dialect | undefined =>
  s === "problem" || s === "berlin-group" || s === "cz-sk" ? s : undefined

/** A 500 for an answer the mock bank could not encode with core's schema (a fixture the document forbids). */
export const encodingFailure = (issue: SchemaIssue.Issue): Failure => ({
  status: 500,
  code: "INTERNAL_ERROR",
  title: "Internal Server Error",
  detail: `the answer could not be encoded: ${SchemaProblem.first(issue).message}`
})
