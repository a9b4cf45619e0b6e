/**
 * Error bodies the bank may answer with. The interface document shows none (section 7), so the client
 * recognises the common shapes: RFC 6749 section 5.2 OAuth errors, RFC 9457 problem details (plus `code`),
 * Berlin Group `tppMessages`, the Czech/Slovak standards' `errors[]`, and keeps the raw text otherwise.
 */
import { Schema } from "effect"

/** An OAuth 2.0 error body (RFC 6749 section 5.2), as the token endpoint answers. */
export class OAuthError extends Schema.TaggedClass<OAuthError>()("OAuthError", {
  error: Schema.String,
  errorDescription: Schema.optionalKey(Schema.String)
}) {}

/** RFC 9457 problem details, with the bank's extra `code` member. */
export class ProblemDetails extends Schema.TaggedClass<ProblemDetails>()("ProblemDetails", {
  type: Schema.optionalKey(Schema.String),
  title: Schema.optionalKey(Schema.String),
  status: Schema.optionalKey(Schema.Number),
  detail: Schema.optionalKey(Schema.String),
  code: Schema.optionalKey(Schema.String)
}) {}

/** One entry of a Berlin Group `tppMessages` array. */
export const TppMessage = Schema.Struct({
  category: Schema.optionalKey(Schema.String),
  code: Schema.optionalKey(Schema.String),
  path: Schema.optionalKey(Schema.String),
  text: Schema.optionalKey(Schema.String)
})

/** A Berlin Group error body: `{ tppMessages: [{ category, code, path, text }] }`. */
export class TppMessages extends Schema.TaggedClass<TppMessages>()("TppMessages", {
  messages: Schema.Array(TppMessage)
}) {}

/** One entry of the Czech/Slovak standards' `errors` array. */
export const StandardErrorEntry = Schema.Struct({
  error: Schema.optionalKey(Schema.String),
  scope: Schema.optionalKey(Schema.String),
  parameters: Schema.optionalKey(Schema.Array(Schema.String)),
  message: Schema.optionalKey(Schema.String)
})

/** A Czech/Slovak standard error body: `{ errors: [{ error, scope, parameters, message }] }`. */
export class StandardErrors extends Schema.TaggedClass<StandardErrors>()("StandardErrors", {
  errors: Schema.Array(StandardErrorEntry)
}) {}

/** A body that fits none of the known shapes, kept as text (empty when the response had no body). */
export class RawText extends Schema.TaggedClass<RawText>()("RawText", {
  contentType: Schema.optionalKey(Schema.String),
  text: Schema.String
}) {}

/** Every error body shape the client recognises. */
export const ErrorBody = Schema.Union([OAuthError, ProblemDetails, TppMessages, StandardErrors, RawText])

/** Every error body shape the client recognises. */
export type ErrorBody = typeof ErrorBody.Type

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const str = (u: unknown): string | undefined => (typeof u === "string" ? u : undefined)

const entries = <A>(u: unknown, f: (r: Record<string, unknown>) => A): Array<A> | undefined =>
  Array.isArray(u) && u.length > 0 && u.every(isRecord) ? u.map(f) : undefined

type Defined<A> = { [K in keyof A as undefined extends A[K] ? never : K]: A[K] } & {
  [K in keyof A as undefined extends A[K] ? K : never]?: Exclude<A[K], undefined>
}

const defined = <A extends object>(a: A): Defined<A> =>
  Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined)) as Defined<A>

const parameters = (u: unknown): Array<string> | undefined =>
  Array.isArray(u)
    ? u.map((p) => (typeof p === "string" ? p : JSON.stringify(p)))
    : typeof u === "string"
      ? [u]
      : undefined

const fromJson = (json: unknown): ErrorBody | undefined => {
  if (!isRecord(json)) return undefined
  const tpp = entries(json.tppMessages, (m) =>
    defined({ category: str(m.category), code: str(m.code), path: str(m.path), text: str(m.text) })
  )
  if (tpp !== undefined) return new TppMessages({ messages: tpp })
  const errors = entries(json.errors, (e) =>
    defined({ error: str(e.error), scope: str(e.scope), parameters: parameters(e.parameters), message: str(e.message) })
  )
  if (errors !== undefined) return new StandardErrors({ errors })
  if (typeof json.error === "string") {
    return new OAuthError(defined({ error: json.error, errorDescription: str(json.error_description) }))
  }
  if (["type", "title", "detail", "code"].some((k) => typeof json[k] === "string")) {
    return new ProblemDetails(
      defined({
        type: str(json.type),
        title: str(json.title),
        status: typeof json.status === "number" ? json.status : undefined,
        detail: str(json.detail),
        code: str(json.code)
      })
    )
  }
  return undefined
}

/** Recognises an error body from its text; anything unrecognised (or not JSON) is kept as `RawText`. */
export const decode = (text: string, contentType?: string): ErrorBody => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return fromJson(json) ?? new RawText(contentType === undefined ? { text } : { contentType, text })
}

/** A one-line summary for error messages: codes and titles only, never the whole body. */
export const summary = (body: ErrorBody): string => {
  switch (body._tag) {
    case "OAuthError":
      return body.error
    case "ProblemDetails":
      return [body.code, body.title].filter((s) => s !== undefined).join(": ")
    case "TppMessages":
      return body.messages.map((m) => m.code ?? m.category ?? "?").join(", ")
    case "StandardErrors":
      return body.errors.map((e) => e.error ?? "?").join(", ")
    case "RawText":
      return body.text === "" ? "empty body" : "unrecognised body"
  }
}
