/**
 * Token by secret (OAuth 2.0 client credentials): the form-encoded request (docs/bank-interface.md, "Token") and
 * the JSON response. The client secret and the access token are `Redacted` in the domain
 * (README.md, "Tokens"); `expires_in` is read from a JSON number or a numeric string (README.md, "Wire formats").
 *
 * @since 0.1.0
 */
import {
  Effect,
  Option,
  Redacted,
  type Result,
  Schema,
  SchemaGetter,
  type SchemaIssue,
  SchemaParser,
  SchemaTransformation
} from "effect"

/** A scope the bank defines: PISP, PIISP and AISP. */
export const Scope = Schema.Literals(["PISP", "PIISP", "AISP"])

/** A token scope. */
export type Scope = typeof Scope.Type

/**
 * The documented lifetime of a client-credentials token in seconds (docs/bank-interface.md, "Token",
 * "Limits at a glance").
 */
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

/** The longest token lifetime believed, in seconds: one day (the document's tokens live 1200 s). */
export const MAX_LIFETIME_SECONDS = 86_400

/** A number of seconds in decimal text, as the document types `expires_in`. */
const SecondsText = Schema.String.check(
  Schema.isPattern(/^\s*\d+(\.\d+)?\s*$/, { message: "expires_in must be a number of seconds" })
)

const lifetimeMessage = `expires_in must be a whole number of seconds from 1 to ${MAX_LIFETIME_SECONDS}`

/** A token lifetime in the domain: a whole number of seconds from 1 to {@link MAX_LIFETIME_SECONDS}. */
export const Lifetime = Schema.Finite.check(
  Schema.makeFilter(
    (n: number) =>
      (Number.isInteger(n) && n >= 1 && n <= MAX_LIFETIME_SECONDS) ||
      `${lifetimeMessage}, got ${String(n).slice(0, 40)}`
  )
)

/**
 * `expires_in`: a JSON number or a numeric string on the wire (README.md, "Wire formats"), `null` read as missing;
 * in the domain a whole number of seconds from 1 to a day. 0, negatives, fractions and absurd values such as
 * `1e308` are refused with a message naming the bounds.
 */
export const ExpiresIn = Schema.Union([Schema.Finite, SecondsText, Schema.Null])
  .annotate({ message: "expires_in must be a number of seconds" })
  .pipe(
    Schema.decodeTo(
      Lifetime,
      SchemaTransformation.transform({
        decode: (v: number | string | null): number =>
          v === null ? LIFETIME_SECONDS : typeof v === "number" ? v : Number(v.trim()),
        encode: (n: number): number | string | null => n
      })
    )
  )

/** `access_token`: a non-empty text of printable ASCII (it goes into a header), kept `Redacted`. */
const AccessTokenValue = Schema.RedactedFromValue(
  Schema.String.check(
    Schema.isMinLength(1, { message: "access_token must not be empty" }),
    Schema.isPattern(/^[\x20-\x7e]*$/, { message: "access_token contains control or non-ASCII characters" })
  ),
  { label: "access_token" }
).pipe(Schema.annotateKey({ messageMissingKey: "access_token is missing" }))

/** `token_type`: Bearer in any case on the wire (RFC 6750), written `Bearer` in the domain. */
export const TokenType = Schema.String.check(
  Schema.makeFilter(
    (s: string) => s.toLowerCase() === "bearer" || `token_type must be Bearer, got ${JSON.stringify(s.slice(0, 20))}`
  )
).pipe(
  Schema.decodeTo(
    Schema.Literal("Bearer"),
    SchemaTransformation.transform({ decode: (): "Bearer" => "Bearer", encode: (t: "Bearer"): string => t })
  ),
  Schema.annotateKey({ messageMissingKey: "token_type is missing" })
)

/** `scope`: the scopes granted, optional; `null` read as absent. */
const GrantedScope = Schema.optionalKey(Schema.NullOr(Schema.String)).pipe(
  Schema.decodeTo(Schema.optionalKey(Schema.String), {
    decode: SchemaGetter.transformOptional((o: Option.Option<string | null>) =>
      Option.filter(o, (s): s is string => s !== null)
    ),
    encode: SchemaGetter.passthroughSupertype()
  })
)

/**
 * The token response body, strictly: `access_token` a non-empty printable text (kept `Redacted`), `expires_in` a
 * whole number of seconds from 1 to a day (a number or numeric string; missing or `null` meaning the document's
 * 1200 s), `token_type` Bearer in any case (written `Bearer`), and the optional `scope` granted. Other members are
 * ignored.
 */
export const TokenResponse = Schema.Struct({
  access_token: AccessTokenValue,
  token_type: TokenType,
  expires_in: ExpiresIn.pipe(Schema.withDecodingDefaultKey(Effect.succeed(null))),
  scope: GrantedScope
})

/** A token response. */
export type TokenResponse = typeof TokenResponse.Type

/** A token response in its JSON form (`expires_in` a JSON number). */
export type TokenResponseJson = typeof TokenResponse.Encoded

const encodeResponseSchema = SchemaParser.encodeResult(TokenResponse)
const decodeResponseSchema = SchemaParser.decodeUnknownResult(TokenResponse)

/** Encodes a token response to its JSON form, the one encoder the mock bank uses. */
export const encodeResponse = (response: TokenResponse): Result.Result<TokenResponseJson, SchemaIssue.Issue> =>
  encodeResponseSchema(response)

/**
 * Decodes a token response from parsed JSON, the one decoder the client uses (it parses the text itself, within
 * its depth limit): the strict rules of {@link TokenResponse}, a failure naming the first offending field.
 */
export const decodeResponse = (json: unknown): Result.Result<TokenResponse, SchemaIssue.Issue> =>
  decodeResponseSchema(json)

/**
 * The `Authorization` header value built from a token response: the token type, a space and the access token
 * (docs/bank-interface.md, "Token"); the type is always written `Bearer` (RFC 6750).
 */
export const authorization = (response: TokenResponse): Redacted.Redacted<string> => {
  return Redacted.make(`${response.token_type} ${Redacted.value(response.access_token)}`, { label: "Authorization" })
}

/** The OAuth grant type of the token request. */
export const grantType = "client_credentials" as const

/** The `Content-Type` of the token request. */
export const contentType = "application/x-www-form-urlencoded;charset=UTF-8" as const
