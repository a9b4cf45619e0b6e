/**
 * The token endpoint (docs/bank-interface.md, "Token"; RFC 6749 4.4 and 5.2) and the bearer check of the API
 * paths (RFC 6750): the tokens issued live in a store owned by the value `make` returns. The form is read with core's
 * `AccessToken.decodeRequest` and the answer written with `AccessToken.encodeResponse`.
 */
import { randomBytes } from "node:crypto"
import { AccessToken, SchemaProblem } from "@tppkit/core"
import { Redacted, Result } from "effect"
import type * as Fixtures from "../Fixtures.ts"
import { type Failure, oauthFail, unauthorized } from "./errors.ts"
import { first, type Incoming, type Outgoing } from "./exchange.ts"

/** Token lifetime, seconds (1200: docs/bank-interface.md, "Token"). */
export const tokenLifetimeSeconds = AccessToken.LIFETIME_SECONDS

/** An issued token. */
export interface Token {
  readonly clientId: string
  readonly scopes: ReadonlySet<AccessToken.Scope>
  readonly bound: ReadonlySet<string>
  /** The consent the token stands for: its client and the accounts bound to it (README.md, "Daily budget"). */
  readonly consent: string
  readonly expiresAt: number
}

/**
 * The consent a token stands for, which the daily limit counts per (README.md, "Daily budget"): in this sandbox a
 * consent is the client together with the set of accounts bound to its token, e.g. `tppkit-sandbox|SK…,SK…`.
 */
export const consentKey = (clientId: string, bound: ReadonlyArray<string>): string =>
  `${clientId}|${[...new Set(bound)].sort().join(",")}`

const formFields = ["grant_type", "client_id", "client_secret", "scope"] as const

/**
 * The form's media type, parameters (such as `charset`) allowed after a `;` (RFC 9110 8.3.1): names are
 * case-insensitive, so the header is lower-cased first; a longer subtype (`…-urlencoded-evil`) is another type.
 */
const formType = /^application\/x-www-form-urlencoded[ \t]*(;|$)/

/**
 * The largest token request body read, in bytes (the form has four short fields; the server refuses a larger body
 * with 413 before reading it, so that a flood of large forms costs no memory).
 */
export const maxFormBytes = 8_192

const fieldNames: ReadonlySet<string> = new Set(formFields)
const longestField = Math.max(...formFields.map((f) => f.length))

/** One name or value of a form, decoded as `URLSearchParams` decodes it (`+` a space, `%xx` UTF-8 bytes). */
const decodeComponent = (text: string): string =>
  text.includes("%") || text.includes("+") ? (new URLSearchParams(`v=${text}`).get("v") ?? "") : text

/**
 * Every value of the four fields the endpoint reads, in order, scanned without building the whole form: a form of
 * thousands of other fields allocates no string for them.
 */
const readFields = (body: string): Map<string, Array<string>> => {
  const found = new Map<string, Array<string>>()
  let start = 0
  while (start < body.length) {
    const amp = body.indexOf("&", start)
    const end = amp === -1 ? body.length : amp
    const eq = body.indexOf("=", start)
    const nameEnd = eq === -1 || eq > end ? end : eq
    // a plain name longer than every field is none of them (an encoded one may be longer: it is decoded)
    const raw =
      nameEnd - start <= longestField || body.slice(start, nameEnd).includes("%") ? body.slice(start, nameEnd) : ""
    const name = raw === "" ? "" : decodeComponent(raw)
    if (fieldNames.has(name)) {
      const value = nameEnd < end ? decodeComponent(body.slice(nameEnd + 1, end)) : ""
      const values = found.get(name)
      if (values === undefined) found.set(name, [value])
      else values.push(value)
    }
    start = end + 1
  }
  return found
}

/** The token endpoint and the bearer check over one store of issued tokens. */
export const make = (clients: ReadonlyArray<Fixtures.LoadedClient>, now: () => number) => {
  const byId = new Map(clients.map((c) => [c.clientId, c]))
  const tokens = new Map<string, Token>()

  /** Answers a token request; `expired` issues a token that is already expired (the `expired-token` fault). */
  const issue = (req: Incoming, expired: boolean): Outgoing => {
    const type = first(req.headers["content-type"])?.toLowerCase() ?? ""
    if (!formType.test(type)) {
      return oauthFail(415, "invalid_request", "content type must be application/x-www-form-urlencoded")
    }
    const form = readFields(req.body)
    const fields: Record<string, string> = {}
    for (const key of formFields) {
      const all = form.get(key) ?? []
      if (all.length > 1) return oauthFail(400, "invalid_request", `parameter ${key} given more than once`)
      if (all.length === 0 || all[0] === "") return oauthFail(400, "invalid_request", `missing parameter ${key}`)
      fields[key] = all[0] as string
    }
    if (fields.grant_type !== AccessToken.grantType) {
      return oauthFail(400, "unsupported_grant_type", "grant_type must be client_credentials")
    }
    const client = byId.get(fields.client_id ?? "")
    if (client === undefined || client.clientSecret !== fields.client_secret) {
      return oauthFail(401, "invalid_client", "unknown client or wrong secret")
    }
    const unknown = (fields.scope ?? "").split(" ").find((s) => s !== "" && !AccessToken.parseScopes(s).length)
    if (unknown !== undefined) return oauthFail(400, "invalid_scope", `unknown scope ${unknown}`)
    if (AccessToken.parseScopes(fields.scope ?? "").length === 0) {
      return oauthFail(400, "invalid_request", "missing parameter scope")
    }
    // blanks between scopes are tolerated as RFC 6749 3.3 reads them; core's schema wants single spaces
    const decoded = AccessToken.decodeRequest({
      ...fields,
      scope: AccessToken.parseScopes(fields.scope ?? "").join(" ")
    })
    if (Result.isFailure(decoded)) {
      const { path: field, message } = SchemaProblem.first(decoded.failure)
      return oauthFail(400, field === "scope" ? "invalid_scope" : "invalid_request", message)
    }
    const scopes = new Set(AccessToken.parseScopes(decoded.success.scope))
    for (const s of scopes) {
      if (!client.rights.includes(s)) return oauthFail(400, "invalid_scope", `the client has no ${s} right`)
    }
    const at = now()
    if (tokens.size > 50_000) for (const [k, t] of tokens) if (t.expiresAt <= at) tokens.delete(k)
    const accessToken = randomBytes(24).toString("base64url")
    const bound = scopes.has("AISP") ? client.aispAccounts : []
    tokens.set(accessToken, {
      clientId: client.clientId,
      scopes,
      bound: new Set(bound),
      consent: consentKey(client.clientId, bound),
      expiresAt: expired ? at : at + tokenLifetimeSeconds * 1000
    })
    const body = AccessToken.encodeResponse({
      access_token: Redacted.make(accessToken, { label: "access_token" }),
      expires_in: tokenLifetimeSeconds,
      token_type: "Bearer",
      scope: AccessToken.scopeString([...scopes])
    })
    if (Result.isFailure(body)) return oauthFail(500, "server_error", "the token response could not be encoded")
    return {
      status: 200,
      headers: { "content-type": "application/json", "cache-control": "no-store", pragma: "no-cache" },
      body: JSON.stringify(body.success),
      outcome: expired ? "fault:expired-token" : "ok"
    }
  }

  /** The token of an API request's `Authorization: Bearer …` header, or why there is none. */
  const authenticate = (req: Incoming): Token | Failure => {
    const auth = first(req.headers.authorization)
    if (auth === undefined || auth.trim() === "") return unauthorized("TOKEN_MISSING", "missing Authorization header")
    // Fast path: exactly `Bearer <issued token>` (issued tokens are base64url, without spaces), which the pattern
    // below would accept with the same token.
    let token = auth.startsWith("Bearer ") ? tokens.get(auth.slice(7)) : undefined
    if (token === undefined) {
      const m = /^Bearer +(\S+)\s*$/i.exec(auth)
      if (m === null) return unauthorized("TOKEN_INVALID", "Authorization must be Bearer <token>", "invalid_request")
      token = tokens.get(m[1] ?? "")
    }
    if (token === undefined) return unauthorized("TOKEN_INVALID", "unknown access token", "invalid_token")
    if (token.expiresAt <= now()) return unauthorized("TOKEN_EXPIRED", "the access token has expired", "invalid_token")
    return token
  }

  return { issue, authenticate }
}
