/**
 * Error bodies. The bank documents none (docs/bank-interface.md, "Codes"), so we recognise the common shapes
 * (README.md, "Errors"): OAuth 2.0 errors (RFC 6749 section 5.2), RFC 9457 problem details with the bank's `code`,
 * Berlin Group `tppMessages`, and the Czech/Slovak standards' `errors: [{ error, scope, parameters, message }]`;
 * anything else is kept as raw text. Every decoded body also keeps the raw text, so nothing is lost.
 *
 * @since 0.1.0
 */
import { Result, Schema, type SchemaIssue, SchemaParser } from "effect"

/** An OAuth 2.0 error body (RFC 6749 section 5.2), as token endpoints answer. */
export const OAuthError = Schema.Struct({
  error: Schema.String,
  error_description: Schema.optionalKey(Schema.String),
  error_uri: Schema.optionalKey(Schema.String)
})

/** An OAuth 2.0 error body. */
export type OAuthError = typeof OAuthError.Type

/** RFC 9457 problem details (`application/problem+json`) with the extra member `code`. */
export const ProblemDetails = Schema.Struct({
  type: Schema.optionalKey(Schema.String),
  title: Schema.optionalKey(Schema.String),
  status: Schema.optionalKey(Schema.Int),
  detail: Schema.optionalKey(Schema.String),
  instance: Schema.optionalKey(Schema.String),
  code: Schema.optionalKey(Schema.String)
})

/** RFC 9457 problem details. */
export type ProblemDetails = typeof ProblemDetails.Type

/** One Berlin Group TPP message (`category` ERROR or WARNING, a code, optionally the path and a text). */
export const TppMessage = Schema.Struct({
  category: Schema.optionalKey(Schema.String),
  code: Schema.String,
  path: Schema.optionalKey(Schema.String),
  text: Schema.optionalKey(Schema.String)
})

/** A Berlin Group error body: `{ tppMessages: [...] }`. */
export const TppMessages = Schema.Struct({ tppMessages: Schema.Array(TppMessage) })

/**
 * One entry of a Czech/Slovak standard error body; `scope` names the field concerned, or is `null` when the error
 * concerns no field (as these standards write it).
 */
export const StandardError = Schema.Struct({
  error: Schema.String,
  scope: Schema.optionalKey(Schema.NullOr(Schema.String)),
  parameters: Schema.optionalKey(Schema.Unknown),
  message: Schema.optionalKey(Schema.String)
})

/** A Czech/Slovak standard error body: `{ errors: [{ error, scope, parameters, message }] }`. */
export const StandardErrors = Schema.Struct({ errors: Schema.Array(StandardError) })

/** A decoded error body as a schema (so that typed errors can carry it): one of the known shapes, or the raw text. */
export const ErrorBody = Schema.Union([
  Schema.TaggedStruct("OAuth", { body: OAuthError, raw: Schema.String }),
  Schema.TaggedStruct("Problem", { body: ProblemDetails, raw: Schema.String }),
  Schema.TaggedStruct("TppMessages", { body: TppMessages, raw: Schema.String }),
  Schema.TaggedStruct("Errors", { body: StandardErrors, raw: Schema.String }),
  Schema.TaggedStruct("Raw", { raw: Schema.String })
])

/** A decoded error body: one of the known shapes (each with the raw text), or the raw text alone. */
export type ErrorBody = typeof ErrorBody.Type

/** An error body to write: one of the known shapes, without raw text. */
export type Outgoing =
  | { readonly _tag: "OAuth"; readonly body: OAuthError }
  | { readonly _tag: "Problem"; readonly body: ProblemDetails }
  | { readonly _tag: "TppMessages"; readonly body: TppMessages }
  | { readonly _tag: "Errors"; readonly body: StandardErrors }

/** A Berlin Group error body. */
export type TppMessages = typeof TppMessages.Type

/** A Czech/Slovak standard error body. */
export type StandardErrors = typeof StandardErrors.Type

/** An encoded error body: its `Content-Type` and JSON text. */
export interface Encoded {
  readonly contentType: string
  readonly text: string
}

const encoders: Record<Outgoing["_tag"], (u: unknown) => Result.Result<unknown, SchemaIssue.Issue>> = {
  OAuth: SchemaParser.encodeUnknownResult(OAuthError),
  Problem: SchemaParser.encodeUnknownResult(ProblemDetails),
  TppMessages: SchemaParser.encodeUnknownResult(TppMessages),
  Errors: SchemaParser.encodeUnknownResult(StandardErrors)
}

/**
 * Encodes an error body of a known shape with its schema, the one encoder behind every error the mock bank writes:
 * problem details as `application/problem+json` (RFC 9457), the other shapes as `application/json`. {@link decode}
 * reads every result back as the same shape.
 */
export const encode = (outgoing: Outgoing): Result.Result<Encoded, SchemaIssue.Issue> =>
  Result.map(encoders[outgoing._tag](outgoing.body), (json) => ({
    contentType: outgoing._tag === "Problem" ? "application/problem+json" : "application/json",
    text: JSON.stringify(json)
  }))

const decodeOAuth = Schema.decodeUnknownResult(OAuthError)
const decodeProblem = Schema.decodeUnknownResult(ProblemDetails)
const decodeTpp = Schema.decodeUnknownResult(TppMessages)
const decodeStandard = Schema.decodeUnknownResult(StandardErrors)

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * Recognises an error body from its status, content type and text. Order: Berlin Group `tppMessages`, the
 * Czech/Slovak `errors` array, OAuth `error` (a string), then problem details (by content type or by any of its
 * members); anything else is `Raw`. Never fails.
 */
export const decode = (status: number, contentType: string | undefined, text: string): ErrorBody => {
  const json = parseJson(text)
  if (!isObject(json)) return { _tag: "Raw", raw: text }
  if (Array.isArray(json.tppMessages)) {
    const r = decodeTpp(json)
    if (Result.isSuccess(r)) return { _tag: "TppMessages", body: r.success, raw: text }
  }
  if (Array.isArray(json.errors)) {
    const r = decodeStandard(json)
    if (Result.isSuccess(r)) return { _tag: "Errors", body: r.success, raw: text }
  }
  if (typeof json.error === "string") {
    const r = decodeOAuth(json)
    if (Result.isSuccess(r)) return { _tag: "OAuth", body: r.success, raw: text }
  }
  const problemType = (contentType ?? "").toLowerCase().includes("problem+json")
  const looksLikeProblem = ["type", "title", "detail", "code", "status"].some((k) => k in json)
  if (problemType || looksLikeProblem) {
    const r = decodeProblem(json)
    if (Result.isSuccess(r)) {
      const body = r.success.status === undefined && status > 0 ? { ...r.success, status } : r.success
      return { _tag: "Problem", body, raw: text }
    }
  }
  return { _tag: "Raw", raw: text }
}

/** A bank's error code from a decoded body (OAuth `error`, problem `code`, the first TPP message or error), if any. */
export const code = (body: ErrorBody): string | undefined => {
  switch (body._tag) {
    case "OAuth":
      return body.body.error
    case "Problem":
      return body.body.code
    case "TppMessages":
      return body.body.tppMessages[0]?.code
    case "Errors":
      return body.body.errors[0]?.error
    case "Raw":
      return undefined
  }
}

/** A one-line human summary of a decoded body (code and description), at most `max` characters (default 200). */
export const summary = (body: ErrorBody, max = 200): string => {
  let text: string
  switch (body._tag) {
    case "OAuth":
      text = [body.body.error, body.body.error_description].filter((s) => s !== undefined).join(": ")
      break
    case "Problem":
      text = [body.body.code, body.body.title, body.body.detail].filter((s) => s !== undefined).join(": ")
      break
    case "TppMessages":
      text = body.body.tppMessages.map((m) => [m.code, m.text].filter((s) => s !== undefined).join(": ")).join("; ")
      break
    case "Errors":
      text = body.body.errors.map((e) => [e.error, e.message].filter((s) => s !== undefined).join(": ")).join("; ")
      break
    case "Raw":
      text = body.raw.replace(/\s+/g, " ").trim()
      break
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/**
 * The bank's codes and titles only, never free text or the raw body: safe for error messages and logs
 * (README.md, "Errors"). An unrecognised body reads "unrecognised body" ("empty body" when empty).
 */
export const headline = (body: ErrorBody): string => {
  switch (body._tag) {
    case "OAuth":
      return body.body.error
    case "Problem":
      return [body.body.code, body.body.title].filter((s) => s !== undefined).join(": ") || "problem details"
    case "TppMessages":
      return body.body.tppMessages.map((m) => m.code).join(", ")
    case "Errors":
      return body.body.errors.map((e) => e.error).join(", ")
    case "Raw":
      return body.raw === "" ? "empty body" : "unrecognised body"
  }
}
