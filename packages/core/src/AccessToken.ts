/**
 * Token by secret (OAuth 2.0 client credentials): the form-encoded request (docs/bank-interface.md, "Token") and
 * the JSON response. The client secret and the access token are `Redacted` in the domain
 * (decisions: tokens); `expires_in` is read from a JSON number or a numeric string (decisions: wire formats).
 *
 * @since 0.1.0
 */
import { Redacted, type Result, Schema, type SchemaIssue, SchemaParser, SchemaTransformation } from "effect"

/** A scope the bank defines: PISP, PIISP and AISP. */
export const Scope = Schema.Literals(["PISP", "PIISP", "AISP"])

/** A token scope. */
export type Scope = typeof Scope.Type

/** The documented lifetime of a client-credentials token in seconds (bank interface, "Token", "Limits at a glance"). */
export const LIFETIME_SECONDS = 1200

/** The `scope` form value: scopes separated by single spaces, e.g. `"PIISP AISP"`. */
export const ScopeList = Schema.String.check(
  Schema.isPattern(/^(PISP|PIISP|AISP)( (PISP|PIISP|AISP))*$/, {
    message: "scope must be PISP, PIISP or AISP, several separated by single spaces"
  })
)

/** The `scope` form value for a list of scopes (duplicates removed, order kept). */
export const scopeString = (scopes: ReadonlyArray<Scope>): string => [...new Set(scopes)].join(" ")

/** The scopes named by a `scope` value. */
export const parseScopes = (scope: string): Array<Scope> =>
  scope.split(" ").filter((s): s is Scope => s === "PISP" || s === "PIISP" || s === "AISP")

/**
 * The form fields of the token request, all mandatory strings; sent as
 * `application/x-www-form-urlencoded;charset=UTF-8`. `client_secret` is `Redacted` in the domain.
 */
export const TokenRequest = Schema.Struct({
  grant_type: Schema.Literal("client_credentials"),
  client_id: Schema.String.check(Schema.isMinLength(1, { message: "client_id must not be empty" })),
  client_secret: Schema.RedactedFromValue(
    Schema.String.check(Schema.isMinLength(1, { message: "client_secret must not be empty" })),
    { label: "client_secret" }
  ),
  scope: ScopeList
})

/** A token request. */
export type TokenRequest = typeof TokenRequest.Type

/** The form body of a token request as plain strings (the secret revealed only here, for the wire). */
export const toForm = (request: TokenRequest): Record<string, string> => ({
  grant_type: request.grant_type,
  client_id: request.client_id,
  client_secret: Redacted.value(request.client_secret),
  scope: request.scope
})

const decodeRequestSchema = SchemaParser.decodeUnknownResult(TokenRequest)

/**
 * Decodes the form fields of a token request, the one decoder the mock bank uses; the inverse of
 * {@link toForm}. The caller checks the form itself first (a field given twice, a missing field), which the field
 * record cannot show.
 */
export const decodeRequest = (form: Readonly<Record<string, string>>): Result.Result<TokenRequest, SchemaIssue.Issue> =>
  decodeRequestSchema(form)

/** A number of seconds in decimal text, as the document types `expires_in`. */
const SecondsText = Schema.String.check(
  Schema.isPattern(/^\s*\d+(\.\d+)?\s*$/, { message: "expires_in must be a number of seconds" })
)

/** `expires_in`: a JSON number or a numeric string on the wire, a non-negative number of seconds in the domain. */
export const ExpiresIn = Schema.Union([Schema.Finite, SecondsText]).pipe(
  Schema.decodeTo(
    Schema.Finite.check(Schema.makeFilter((n: number) => n >= 0 || "expires_in must not be negative")),
    SchemaTransformation.transform({
      decode: (v: number | string): number => (typeof v === "number" ? v : Number(v.trim())),
      encode: (n: number): number | string => n
    })
  )
)

/**
 * The token response body: `access_token` (kept `Redacted`), `expires_in` in seconds, `token_type`
 * (always Bearer per the document; received as any text), and the optional `scope` granted.
 */
export const TokenResponse = Schema.Struct({
  access_token: Schema.RedactedFromValue(Schema.String, { label: "access_token" }),
  expires_in: ExpiresIn,
  token_type: Schema.String,
  scope: Schema.optionalKey(Schema.String)
})

/** A token response. */
export type TokenResponse = typeof TokenResponse.Type

/** A token response in its JSON form (`expires_in` a JSON number). */
export type TokenResponseJson = typeof TokenResponse.Encoded

const encodeResponseSchema = SchemaParser.encodeResult(TokenResponse)
const decodeResponseSchema = SchemaParser.decodeUnknownResult(Schema.fromJsonString(TokenResponse))

/** Encodes a token response to its JSON form, the one encoder the mock bank uses. */
export const encodeResponse = (response: TokenResponse): Result.Result<TokenResponseJson, SchemaIssue.Issue> =>
  encodeResponseSchema(response)

/** Decodes a token response from its JSON text, the one decoder the client uses. */
export const decodeResponse = (text: string): Result.Result<TokenResponse, SchemaIssue.Issue> =>
  decodeResponseSchema(text)

/**
 * The `Authorization` header value built from a token response: the token type, a space and the access token
 * (docs/bank-interface.md, "Token"); `bearer` in any case is written `Bearer` (RFC 6750).
 */
export const authorization = (response: TokenResponse): Redacted.Redacted<string> => {
  const type = response.token_type.toLowerCase() === "bearer" ? "Bearer" : response.token_type
  return Redacted.make(`${type} ${Redacted.value(response.access_token)}`, { label: "Authorization" })
}

/** The OAuth grant type of the token request. */
export const grantType = "client_credentials" as const

/** The `Content-Type` of the token request. */
export const contentType = "application/x-www-form-urlencoded;charset=UTF-8" as const
