/**
 * The mock bank's request handling as plain synchronous functions over an in-memory state: routing, faults,
 * content type, size, headers, tokens, body validation and the three operations (spec 4, decisions.md).
 * The transport (server.ts) feeds it requests and writes its answers; nothing here touches a socket.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { BalanceCheck, DateTime, Endpoint, Headers, LocalDate, StandingOrder } from "@tppkit/core"
import { BigDecimal, DateTime as Instant, Result, SchemaIssue } from "effect"
import * as Faults from "../Faults.ts"
import type * as Fixtures from "../Fixtures.ts"
import { type Dialect, type Failure, parseDialect, type Rendered, render, renderOAuth } from "./errors.ts"

/** Which set of paths is served (spec 4 and 9.3). */
export type Environment = Endpoint.Environment

/** A request as the transport hands it over. */
export interface Incoming {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly body: string
  readonly bodyTooLarge: boolean
}

/** An answer for the transport; `action` asks it to drop the connection or cut the body. */
export interface Outgoing {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: string
  readonly outcome: string
  readonly action?: "reset" | "truncate"
  readonly delayMs?: number
}

/** What the handler needs. */
export interface Config {
  readonly fixtures: Fixtures.Fixtures
  readonly environment: Environment
  readonly dialect: Dialect
  readonly faults: Faults.GlobalFaults | undefined
  readonly now: () => number
  readonly timeZone: string
  readonly pageCountAsString: boolean
  /** How far ahead of the bank's clock a `PSU-Last-Logged-Time` may be and still count as present. */
  readonly clockSkewMillis: number
  readonly journal: () => unknown
  readonly openapi: () => string
}

interface Token {
  readonly clientId: string
  readonly scopes: ReadonlySet<Fixtures.Right>
  readonly bound: ReadonlySet<string>
  /** The consent the token stands for: its client and the accounts bound to it (decisions: limits per consent). */
  readonly consent: string
  readonly expiresAt: number
}

interface AccountState {
  readonly account: Fixtures.Account
  readonly balance: BigDecimal.BigDecimal
  /** Last valid day of an electronic consent (day number), or undefined. */
  readonly consentUntil: number | undefined
}

/** Token lifetime, seconds (spec 3 and 8). */
export const tokenLifetimeSeconds = 1200
/** Listings allowed per day without the customer present (spec 8). */
export const dailyLimit = 4

const json = "application/json"

let isoMillis = Number.NaN
let isoText = ""
/** `new Date(ms).toISOString()`, remembered for the last millisecond asked (many answers share one). */
const isoTime = (ms: number): string => {
  if (ms !== isoMillis) {
    isoText = new Date(ms).toISOString()
    isoMillis = ms
  }
  return isoText
}

const issueFormatter = SchemaIssue.makeFormatterStandardSchemaV1()

const first = (v: string | ReadonlyArray<string> | undefined): string | undefined =>
  typeof v === "string" ? v : v?.[0]

/** The instant of a `PSU-Last-Logged-Time` value by core's RFC 3339 rule, or undefined when it is not one. */
const lastLoggedMillis = (text: string): number | undefined => {
  const parsed = DateTime.parse(text.trim())
  return Result.isSuccess(parsed) ? DateTime.toEpochMillis(parsed.success) : undefined
}

/**
 * The consent a token stands for, which the daily limit counts per (decisions: limits): in this sandbox a consent is
 * the client together with the set of accounts bound to its token, e.g. `tppkit-sandbox|SK…,SK…`.
 */
export const consentKey = (clientId: string, bound: ReadonlyArray<string>): string =>
  `${clientId}|${[...new Set(bound)].sort().join(",")}`

/** Creates a handler with its own state (tokens, daily counters). */
export const make = (config: Config) => {
  const paths = Endpoint.paths(config.environment)
  const clients = new Map(config.fixtures.clients.map((c) => [c.clientId, c]))
  const dayFormat = new Intl.DateTimeFormat("en-CA", {
    timeZone: config.timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit"
  })
  /** The calendar day of an instant in the bank's time zone. */
  const localParts = (ms: number) => {
    const p: Record<string, string> = {}
    for (const part of dayFormat.formatToParts(ms)) p[part.type] = part.value
    return { day: LocalDate.parseUnsafe(`${p.year}-${p.month}-${p.day}`) }
  }
  /** Seconds from `ms` to the next midnight in the bank's time zone (23 or 25 hours long on clock-change days). */
  const secondsToNextDay = (ms: number): number => {
    const zoned = Instant.setZoneNamedUnsafe(Instant.makeUnsafe(ms), config.timeZone)
    const next = Instant.startOf(Instant.add(Instant.startOf(zoned, "day"), { days: 1 }), "day")
    return Math.max(1, Math.ceil((Instant.toEpochMillis(next) - ms) / 1000))
  }
  const startDay = localParts(config.now()).day
  const accounts = new Map<string, AccountState>(
    config.fixtures.accounts.map((a) => {
      const granted = a.consent.grantedOn !== undefined ? LocalDate.parseUnsafe(a.consent.grantedOn) : startDay
      return [
        a.iban,
        {
          account: a,
          balance: BigDecimal.fromStringUnsafe(a.balance),
          consentUntil: a.consent.kind === "electronic" ? granted + 89 : undefined
        }
      ]
    })
  )
  const ordersByDebtor = new Map<string, Array<Fixtures.StandingOrder>>()
  for (const o of config.fixtures.standingOrders) {
    const list = ordersByDebtor.get(o.debtor.iban) ?? []
    list.push(o)
    ordersByDebtor.set(o.debtor.iban, list)
  }
  const tokens = new Map<string, Token>()
  const listings = new Map<string, number>()
  const pickGlobal = config.faults ? Faults.picker(config.faults) : undefined

  // -------------------------------------------------------------------------
  // answers
  // -------------------------------------------------------------------------

  const answer = (
    status: number,
    rendered: Rendered,
    outcome: string,
    headers: Record<string, string> = {}
  ): Outgoing => ({
    status,
    headers: { "content-type": rendered.contentType, ...headers },
    body: rendered.body,
    outcome
  })

  const fail = (f: Failure, dialect: Dialect, ids: Record<string, string>): Outgoing =>
    answer(f.status, render(f, dialect), f.code, { ...ids, ...f.headers })

  const oauthFail = (status: number, error: string, description: string, headers: Record<string, string> = {}) =>
    answer(status, renderOAuth(error, description), error, { "cache-control": "no-store", ...headers })

  const badRequest = (detail: string, field?: string): Failure => ({
    status: 400,
    code: "FORMAT_ERROR",
    title: "Bad Request",
    detail,
    ...(field !== undefined ? { field } : {})
  })

  const schemaFailure = (issue: SchemaIssue.Issue): Failure => {
    const top = issueFormatter(issue).issues[0]
    const field = top?.path?.length ? top.path.map(String).join(".") : undefined
    const detail = top
      ? field !== undefined
        ? `invalid field ${field}: ${top.message}`
        : `invalid body: ${top.message}`
      : "invalid body"
    return badRequest(detail, field)
  }

  const faultAnswer = (
    kind: Faults.Kind,
    isToken: boolean,
    dialect: Dialect,
    ids: Record<string, string>
  ): Outgoing | undefined => {
    const outcome = `fault:${kind}`
    switch (kind) {
      case "delay":
        return undefined
      case "503":
        return isToken
          ? { ...oauthFail(503, "temporarily_unavailable", "sandbox fault: 503"), outcome }
          : {
              ...fail(
                {
                  status: 503,
                  code: "SERVICE_UNAVAILABLE",
                  title: "Service Unavailable",
                  detail: "sandbox fault: 503",
                  headers: { "retry-after": "1" }
                },
                dialect,
                ids
              ),
              outcome
            }
      case "429":
        return {
          ...fail(
            {
              status: 429,
              code: "TOO_MANY_REQUESTS",
              title: "Too Many Requests",
              detail: "sandbox fault: 429",
              headers: { "retry-after": "1" }
            },
            dialect,
            ids
          ),
          outcome
        }
      case "502":
        return {
          status: 502,
          headers: { "content-type": "text/html" },
          body: "<html><body><h1>502 Bad Gateway</h1></body></html>",
          outcome
        }
      case "reset":
        return { status: 0, headers: {}, body: "", outcome, action: "reset" }
      case "truncate":
        return {
          status: 200,
          headers: { "content-type": json, ...ids },
          body: isToken
            ? JSON.stringify({ access_token: "truncated-token-value", expires_in: 1200, token_type: "Bearer" })
            : JSON.stringify({ response: "APPR", dateTime: new Date(config.now()).toISOString() }),
          outcome,
          action: "truncate"
        }
      case "nonjson":
        return {
          status: 200,
          headers: { "content-type": json, ...ids },
          body: "<html><body>Maintenance</body></html>",
          outcome
        }
      case "expired-token":
        return isToken
          ? undefined
          : {
              ...fail(
                {
                  status: 401,
                  code: "TOKEN_EXPIRED",
                  title: "Unauthorized",
                  detail: "the access token has expired",
                  headers: { "www-authenticate": 'Bearer error="invalid_token", error_description="token expired"' }
                },
                dialect,
                ids
              ),
              outcome
            }
    }
  }

  // -------------------------------------------------------------------------
  // token endpoint (spec 4.1, RFC 6749 4.4 and 5.2)
  // -------------------------------------------------------------------------

  const issueToken = (req: Incoming, expiredFault: boolean): Outgoing => {
    const type = first(req.headers["content-type"])?.toLowerCase() ?? ""
    if (!type.startsWith("application/x-www-form-urlencoded")) {
      return oauthFail(415, "invalid_request", "content type must be application/x-www-form-urlencoded")
    }
    const form = new URLSearchParams(req.body)
    for (const key of ["grant_type", "client_id", "client_secret", "scope"]) {
      const all = form.getAll(key)
      if (all.length > 1) return oauthFail(400, "invalid_request", `parameter ${key} given more than once`)
      if (all.length === 0 || all[0] === "") {
        if (key === "grant_type" || key === "client_id" || key === "client_secret" || key === "scope") {
          return oauthFail(400, "invalid_request", `missing parameter ${key}`)
        }
      }
    }
    if (form.get("grant_type") !== "client_credentials") {
      return oauthFail(400, "unsupported_grant_type", "grant_type must be client_credentials")
    }
    const client = clients.get(form.get("client_id") ?? "")
    if (client === undefined || client.clientSecret !== form.get("client_secret")) {
      return oauthFail(401, "invalid_client", "unknown client or wrong secret")
    }
    const scopes = new Set<Fixtures.Right>()
    for (const s of (form.get("scope") ?? "").split(" ")) {
      if (s === "") continue
      if (s !== "PISP" && s !== "PIISP" && s !== "AISP") {
        return oauthFail(400, "invalid_scope", `unknown scope ${s}`)
      }
      if (!client.rights.includes(s)) return oauthFail(400, "invalid_scope", `the client has no ${s} right`)
      scopes.add(s)
    }
    if (scopes.size === 0) return oauthFail(400, "invalid_request", "missing parameter scope")
    const now = config.now()
    if (tokens.size > 50_000) for (const [k, t] of tokens) if (t.expiresAt <= now) tokens.delete(k)
    const accessToken = randomBytes(24).toString("base64url")
    const bound = scopes.has("AISP") ? client.aispAccounts : []
    tokens.set(accessToken, {
      clientId: client.clientId,
      scopes,
      bound: new Set(bound),
      consent: consentKey(client.clientId, bound),
      expiresAt: expiredFault ? now : now + tokenLifetimeSeconds * 1000
    })
    return {
      status: 200,
      headers: { "content-type": json, "cache-control": "no-store", pragma: "no-cache" },
      body: JSON.stringify({
        access_token: accessToken,
        expires_in: tokenLifetimeSeconds,
        token_type: "Bearer",
        scope: [...scopes].join(" ")
      }),
      outcome: expiredFault ? "fault:expired-token" : "ok"
    }
  }

  // -------------------------------------------------------------------------
  // API paths (spec 4.2, 4.3)
  // -------------------------------------------------------------------------

  const mandatory = [
    ["request-id", "Request-ID"],
    ["psu-ip-address", "PSU-IP-Address"],
    ["psu-device-os", "PSU-Device-OS"],
    ["psu-user-agent", "PSU-User-Agent"]
  ] as const

  const checkHeaders = (req: Incoming): Failure | undefined => {
    for (const [key, name] of mandatory) {
      const v = first(req.headers[key])
      if (v === undefined || v.trim() === "") return badRequest(`missing mandatory header ${name}`, name)
    }
    const ip = first(req.headers["psu-ip-address"]) ?? ""
    if (!Headers.isIpAddress(ip.trim()))
      return badRequest("header PSU-IP-Address is not an IPv4 or IPv6 address", "PSU-IP-Address")
    for (const [key, name] of [
      ["psu-geolocation", "PSU-GeoLocation"],
      ["psu-geo-location", "PSU-Geo-Location"]
    ] as const) {
      const v = first(req.headers[key])
      if (v !== undefined && !Headers.isGeoLocation(v))
        return badRequest(`header ${name} must be "latitude, longitude"`, name)
    }
    const last = first(req.headers["psu-last-logged-time"])
    if (last !== undefined && lastLoggedMillis(last) === undefined) {
      return badRequest("header PSU-Last-Logged-Time is not an RFC 3339 date-time", "PSU-Last-Logged-Time")
    }
    return undefined
  }

  const unauthorized = (code: string, detail: string, error?: string): Failure => ({
    status: 401,
    code,
    title: "Unauthorized",
    detail,
    headers: {
      "www-authenticate":
        error === undefined ? 'Bearer realm="tppkit-sandbox"' : `Bearer realm="tppkit-sandbox", error="${error}"`
    }
  })

  const forbidden = (code: string, detail: string, field?: string): Failure => ({
    status: 403,
    code,
    title: "Forbidden",
    detail,
    ...(field !== undefined ? { field } : {})
  })

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
    if (token.expiresAt <= config.now()) {
      return unauthorized("TOKEN_EXPIRED", "the access token has expired", "invalid_token")
    }
    return token
  }

  const parseJson = (body: string): Result.Result<unknown, Failure> => {
    try {
      const value: unknown = JSON.parse(body)
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        return Result.fail(badRequest("the body must be a JSON object"))
      }
      return Result.succeed(value)
    } catch {
      return Result.fail(badRequest("the body is not valid JSON"))
    }
  }

  const balanceCheck = (req: Incoming, token: Token): Outgoing | Failure => {
    if (!token.scopes.has("PIISP")) {
      return forbidden("SCOPE_INSUFFICIENT", "the balance check needs a token with the PIISP scope")
    }
    const parsed = parseJson(req.body)
    if (Result.isFailure(parsed)) return parsed.failure
    const decoded = BalanceCheck.decodeRequest(parsed.success)
    if (Result.isFailure(decoded)) return schemaFailure(decoded.failure)
    const body = decoded.success
    const state = accounts.get(body.iban)
    if (state === undefined || state.account.consent.kind === "none") {
      return forbidden("CONSENT_MISSING", "no consent for balance checks on this account", "iban")
    }
    if (state.consentUntil !== undefined) {
      if (localParts(config.now()).day > state.consentUntil) {
        return forbidden("CONSENT_EXPIRED", "the electronic consent for this account has expired (90 days)", "iban")
      }
      if (!token.scopes.has("AISP") || !token.bound.has(body.iban)) {
        return forbidden(
          "SCA_REQUIRED",
          "an electronic consent needs a token from strong customer authentication (in this sandbox: scope PIISP AISP, bound to the account)",
          "iban"
        )
      }
    }
    const covered =
      body.amount.currency === state.account.currency &&
      BigDecimal.isLessThanOrEqualTo(body.amount.value, state.balance)
    return {
      status: 200,
      headers: { "content-type": json },
      body: `{"response":"${covered ? "APPR" : "DECL"}","dateTime":"${isoTime(config.now())}"}`,
      outcome: covered ? "ok:APPR" : "ok:DECL"
    }
  }

  const standingOrders = (req: Incoming, token: Token): Outgoing | Failure => {
    if (!token.scopes.has("AISP")) {
      return forbidden("SCOPE_INSUFFICIENT", "the standing-order list needs a token with the AISP scope")
    }
    const parsed = parseJson(req.body)
    if (Result.isFailure(parsed)) return parsed.failure
    const decoded = StandingOrder.decodeListRequest(parsed.success)
    if (Result.isFailure(decoded)) return schemaFailure(decoded.failure)
    const body = decoded.success
    if (body.iban !== undefined && !token.bound.has(body.iban)) {
      return forbidden("ACCOUNT_NOT_BOUND", "the account is not bound to this access token", "iban")
    }
    const now = config.now()
    const last = first(req.headers["psu-last-logged-time"])
    const lastMillis = last === undefined ? undefined : lastLoggedMillis(last)
    const present = Headers.isAttended(lastMillis, now, config.clockSkewMillis)
    if (!present) {
      const { day } = localParts(now)
      const key = `${token.consent}|${day}`
      const used = listings.get(key) ?? 0
      if (used >= dailyLimit) {
        return {
          status: 429,
          code: "ACCESS_EXCEEDED",
          title: "Too Many Requests",
          detail: `the limit of ${dailyLimit} standing-order listings a day without the customer present is reached`,
          headers: { "retry-after": String(secondsToNextDay(now)) }
        }
      }
      listings.set(key, used + 1)
    }
    const selected: Array<Fixtures.StandingOrder> = []
    for (const iban of body.iban !== undefined ? [body.iban] : token.bound) {
      const list = ordersByDebtor.get(iban)
      if (list) for (const o of list) selected.push(o)
    }
    const pageSize = body.pageSize ?? 50
    const page = body.page ?? 0
    const pageCount = Math.ceil(selected.length / pageSize)
    return {
      status: 200,
      headers: { "content-type": json },
      body: JSON.stringify({
        pageCount: config.pageCountAsString ? String(pageCount) : pageCount,
        standingOrders: selected.slice(page * pageSize, (page + 1) * pageSize)
      }),
      outcome: present ? "ok" : "ok:unattended"
    }
  }

  const api = (req: Incoming, kind: "balanceCheck" | "standingOrder", dialect: Dialect): Outgoing => {
    const requestId = first(req.headers["request-id"])
    const ids: Record<string, string> = { "response-id": requestId?.trim() ? requestId : randomUUID() }
    const correlation = first(req.headers["correlation-id"])
    if (correlation !== undefined) ids["correlation-id"] = correlation
    const process = first(req.headers["process-id"])
    if (process !== undefined) ids["process-id"] = process
    const type = first(req.headers["content-type"])?.toLowerCase() ?? ""
    if (!/^application\/json\s*(;|$)/.test(type)) {
      return fail(
        {
          status: 415,
          code: "UNSUPPORTED_MEDIA_TYPE",
          title: "Unsupported Media Type",
          detail: "content type must be application/json",
          field: "Content-Type"
        },
        dialect,
        ids
      )
    }
    const headerProblem = checkHeaders(req)
    if (headerProblem) return fail(headerProblem, dialect, ids)
    const token = authenticate(req)
    if ("status" in token) return fail(token, dialect, ids)
    const result = kind === "balanceCheck" ? balanceCheck(req, token) : standingOrders(req, token)
    if ("code" in result) return fail(result, dialect, ids)
    return { ...result, headers: { ...result.headers, ...ids } }
  }

  // -------------------------------------------------------------------------
  // routing
  // -------------------------------------------------------------------------

  const routes = new Map<string, "token" | "balanceCheck" | "standingOrder">([
    [paths.token, "token"],
    [paths.balanceCheck, "balanceCheck"],
    [paths.standingOrder, "standingOrder"]
  ])

  /** Answers one request. */
  const handle = (req: Incoming): Outgoing => {
    const q = req.url.indexOf("?")
    const path = q === -1 ? req.url : req.url.slice(0, q)
    const dialect = parseDialect(first(req.headers["x-sandbox-error-dialect"])) ?? config.dialect
    const route = routes.get(path)
    if (route === undefined) {
      if (path === "/openapi.json" || path === "/__journal") {
        if (req.method !== "GET" && req.method !== "HEAD") {
          return fail(
            {
              status: 405,
              code: "METHOD_NOT_ALLOWED",
              title: "Method Not Allowed",
              detail: `${req.method} is not allowed on ${path}`,
              headers: { allow: "GET" }
            },
            dialect,
            {}
          )
        }
        return {
          status: 200,
          headers: { "content-type": json, "cache-control": "no-store" },
          body: path === "/openapi.json" ? config.openapi() : JSON.stringify(config.journal()),
          outcome: "ok"
        }
      }
      return fail(
        { status: 404, code: "RESOURCE_UNKNOWN", title: "Not Found", detail: `no resource at ${path}` },
        dialect,
        {}
      )
    }
    if (req.method !== "POST") {
      return fail(
        {
          status: 405,
          code: "METHOD_NOT_ALLOWED",
          title: "Method Not Allowed",
          detail: `${req.method} is not allowed on ${path}; use POST`,
          headers: { allow: "POST" }
        },
        dialect,
        {}
      )
    }
    const isToken = route === "token"
    const requestId = first(req.headers["request-id"])
    const ids: Record<string, string> = isToken ? {} : { "response-id": requestId?.trim() ? requestId : randomUUID() }
    const faultHeader = first(req.headers[Faults.header])
    let faults: Array<Faults.Fault> = []
    if (faultHeader !== undefined) {
      const parsed = Faults.parse(faultHeader)
      if (parsed.unknown.length > 0) {
        const detail = `unknown sandbox fault ${parsed.unknown.join(", ")}; known: ${Faults.kinds.join(", ")}`
        return isToken
          ? oauthFail(400, "invalid_request", detail)
          : fail(badRequest(detail, "X-Sandbox-Fault"), dialect, ids)
      }
      faults = parsed.faults
    } else {
      const magic = route === "balanceCheck" ? Faults.fromBalanceCheckBody(req.body) : undefined
      const f = magic ?? pickGlobal?.()
      if (f) faults = [f]
    }
    let delayMs = 0
    let expiredFault = false
    for (const f of faults) {
      if (f.kind === "delay") delayMs += f.delayMs ?? 0
      else if (f.kind === "expired-token" && isToken) expiredFault = true
      else {
        const out = faultAnswer(f.kind, isToken, dialect, ids)
        if (out) return delayMs > 0 ? { ...out, delayMs } : out
      }
    }
    let out: Outgoing
    if (req.bodyTooLarge) {
      out = isToken
        ? oauthFail(413, "invalid_request", "request body too large")
        : fail(
            { status: 413, code: "PAYLOAD_TOO_LARGE", title: "Content Too Large", detail: "request body too large" },
            dialect,
            ids
          )
    } else out = isToken ? issueToken(req, expiredFault) : api(req, route, dialect)
    return delayMs > 0 ? { ...out, delayMs } : out
  }

  return { handle, paths }
}
