/**
 * The mock bank playing a COBS bank (Czech Open Banking Standard 7/8; packages/sandbox/README.md, "Profiles"): the
 * authorization-code flow with refresh tokens (`GET /oauth2/auth` approves at once, the sandbox's stand-in for the
 * customer's strong authentication; `POST /oauth2/token` with `authorization_code` or `refresh_token`), the list
 * (`GET /my/standingorders?size=&page=`), the detail (`GET /my/standingorders/{transactionIdentification}`) and the
 * balance check (`POST /accounts/balanceCheck`, API key and certificate, no token). Requests are validated against
 * the profile (its required headers, its API key, the token's scopes) and answered in COBS's error dialect
 * (`{"errors":[{"error","scope","parameters","message"}]}`) with the rule book's codes. The fixture orders are the
 * seed bank's, written as COBS records with core's `Cobs.encode` of their recurrence; `User-Involved: false` spends the
 * same daily limit the seed bank's listing does, the detail included.
 */
import { randomBytes } from "node:crypto"
import { Cobs, type Profile, Sbas, type StandingOrder, Translation } from "@tppkit/core"
import { BigDecimal } from "effect"
import type * as Fixtures from "../Fixtures.ts"
import type * as Consent from "./consent.ts"
import type * as DailyLimit from "./dailyLimit.ts"
import { type Failure, oauthFail } from "./errors.ts"
import { first, type Incoming, type Outgoing } from "./exchange.ts"
import { consentKey, type Token } from "./oauth.ts"

/** The access token's lifetime (the rule book's example: 3,600 s). */
export const accessLifetimeSeconds = 3600

/** The operations a COBS bank routes, the authorization endpoint included. */
export type Route = "authorize" | "token" | "balanceCheck" | "standingOrders" | "standingOrder"

/** A COBS failure: status, code, and the request element at fault. */
const cobsFailure = (status: number, code: string, detail: string, scope?: string, headers?: Record<string, string>) =>
  ({
    status,
    code,
    title: code,
    detail,
    ...(scope === undefined ? {} : { field: scope }),
    ...(headers === undefined ? {} : { headers })
  }) satisfies Failure

const missing = (scope: string) => cobsFailure(400, "FIELD_MISSING", `${scope} is missing`, scope)
const fieldInvalid = (scope: string, detail: string) => cobsFailure(400, "FIELD_INVALID", detail, scope)

/** A fixture order as a COBS list item and detail (`undefined` when COBS cannot say its schedule). */
export const records = (
  order: StandingOrder.StandingOrder
): { readonly item: object; readonly detail: object } | undefined => {
  const recurrence = Translation.getValue(Sbas.decode(order))
  if (recurrence === undefined) return undefined
  const cobs = Translation.getValue(Cobs.encode(recurrence))
  if (cobs === undefined) return undefined
  const amount = {
    instructedAmount: {
      value: Number(BigDecimal.format(order.instructedAmount.value)),
      currency: order.instructedAmount.currency
    }
  }
  const item = {
    standingOrderIdentification: { transactionIdentification: order.orderId },
    amount,
    standingOrder: {
      ...(order.standingOrderName === undefined ? {} : { alias: order.standingOrderName }),
      execution: {
        ...cobs.standingOrder.execution,
        // the schema's type: a number (the examples' string is read by tppkit, not written)
        ...(cobs.standingOrder.execution.intervalDue === undefined
          ? {}
          : { intervalDue: Number(cobs.standingOrder.execution.intervalDue) })
      },
      ...(cobs.standingOrder.validity === undefined ? {} : { validity: cobs.standingOrder.validity }),
      ...(cobs.standingOrder.exceptions === undefined ? {} : { exceptions: cobs.standingOrder.exceptions })
    },
    debtorAccount: { identification: { iban: order.debtor.iban }, currency: order.instructedAmount.currency }
  }
  const detail = {
    ...item,
    paymentTypeInformation: { serviceLevel: { code: order.creditor.iban.startsWith("CZ") ? "DMCT" : "ESCT" } },
    requestedExecutionDate: cobs.requestedExecutionDate,
    creditorAccount: {
      identification: { iban: order.creditor.iban },
      ...(order.creditor.name === undefined ? {} : { name: order.creditor.name })
    },
    ...(order.remittanceInformation === undefined
      ? {}
      : { remittanceInformation: { unstructured: order.remittanceInformation } })
  }
  return { item, detail }
}

interface Code {
  readonly clientId: string
  readonly scopes: ReadonlySet<string>
  readonly redirectUri: string
  readonly expiresAt: number
}

interface Refresh {
  readonly clientId: string
  readonly scopes: ReadonlySet<string>
}

const isInt = (text: string | null): boolean => text !== null && /^\d{1,6}$/.test(text)

/** The COBS bank over the fixtures' clients, accounts and orders, with its own token store. */
export const make = (options: {
  readonly profile: Profile.Profile
  readonly clients: ReadonlyArray<Fixtures.LoadedClient>
  readonly orders: ReadonlyArray<StandingOrder.StandingOrder>
  readonly accounts: ReturnType<typeof Consent.make>
  readonly limit: ReturnType<typeof DailyLimit.make>
  readonly now: () => number
  /** The API key every client presents (the sandbox's: `sandbox-api-key`). */
  readonly apiKey: string
}) => {
  const { profile, now } = options
  const byClient = new Map(options.clients.map((c) => [c.clientId, c]))
  const codes = new Map<string, Code>()
  const refreshes = new Map<string, Refresh>()
  const tokens = new Map<string, Token>()
  const byDebtor = new Map<string, Array<{ id: string; item: object; detail: object }>>()
  const byId = new Map<string, { debtor: string; detail: object }>()
  for (const o of options.orders) {
    const r = records(o)
    if (r === undefined) continue
    const list = byDebtor.get(o.debtor.iban) ?? []
    list.push({ id: o.orderId, ...r })
    byDebtor.set(o.debtor.iban, list)
    byId.set(o.orderId, { debtor: o.debtor.iban, detail: r.detail })
  }
  const seenExchangeIds = new Set<string>()

  const json = (status: number, body: unknown, outcome: string, headers: Record<string, string> = {}): Outgoing => ({
    status,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    outcome
  })

  /** `GET /oauth2/auth`: approves at once and redirects with a code (the customer's authentication stood in for). */
  const authorize = (query: URLSearchParams): Outgoing => {
    const client = byClient.get(query.get("client_id") ?? "")
    const redirect = query.get("redirect_uri") ?? ""
    if (query.get("response_type") !== "code") return oauthFail(400, "invalid_request", "response_type must be code")
    if (client === undefined) return oauthFail(401, "invalid_client", "unknown client")
    if (!/^https?:\/\//.test(redirect)) return oauthFail(400, "invalid_redirect_uri", "redirect_uri is not a URL")
    const scopes = new Set((query.get("scope") ?? "").split(" ").filter((s) => s !== ""))
    if (scopes.size === 0) return oauthFail(400, "invalid_scope", "missing scope")
    if ([...scopes].some((s) => s.toUpperCase().startsWith("AISP") && !client.rights.includes("AISP")))
      return oauthFail(400, "invalid_scope", "the client has no AISP right")
    const code = randomBytes(16).toString("base64url")
    codes.set(code, { clientId: client.clientId, scopes, redirectUri: redirect, expiresAt: now() + 600_000 })
    const state = query.get("state")
    const location = `${redirect}${redirect.includes("?") ? "&" : "?"}code=${code}${state === null ? "" : `&state=${encodeURIComponent(state)}`}`
    return { status: 302, headers: { location }, body: "", outcome: "ok:authorized" }
  }

  const issue = (clientId: string, scopes: ReadonlySet<string>, refreshToken: string): Outgoing => {
    const client = byClient.get(clientId) as Fixtures.LoadedClient
    const access = randomBytes(24).toString("base64url")
    const bound = [...scopes].some((s) => s.toUpperCase().startsWith("AISP")) ? client.aispAccounts : []
    tokens.set(access, {
      clientId,
      scopes: new Set([...scopes].map((s) => (s.toUpperCase() === "AISP" ? "AISP" : s))) as Token["scopes"],
      bound: new Set(bound),
      consent: consentKey(clientId, bound),
      expiresAt: now() + accessLifetimeSeconds * 1000
    })
    return json(
      200,
      {
        access_token: access,
        refresh_token: refreshToken,
        expires_in: accessLifetimeSeconds,
        token_type: "Bearer",
        scope: [...scopes].join(" ")
      },
      "ok",
      { "cache-control": "no-store" }
    )
  }

  /** `POST /oauth2/token`: an authorization code or a refresh token for an access token (RFC 6749 4.1.3, 6). */
  const token = (req: Incoming): Outgoing => {
    const type = first(req.headers["content-type"])?.toLowerCase() ?? ""
    if (!type.startsWith("application/x-www-form-urlencoded"))
      return oauthFail(415, "invalid_request", "content type must be application/x-www-form-urlencoded")
    const form = new URLSearchParams(req.body)
    const client = byClient.get(form.get("client_id") ?? "")
    if (client === undefined || client.clientSecret !== form.get("client_secret"))
      return oauthFail(401, "invalid_client", "unknown client or wrong secret")
    const grant = form.get("grant_type")
    if (grant === "authorization_code") {
      const code = codes.get(form.get("code") ?? "")
      codes.delete(form.get("code") ?? "")
      if (code === undefined || code.clientId !== client.clientId || code.expiresAt <= now())
        return oauthFail(400, "invalid_grant", "unknown, used or expired code")
      if (form.get("redirect_uri") !== code.redirectUri)
        return oauthFail(400, "invalid_grant", "redirect_uri differs from the authorization request's")
      const refresh = randomBytes(24).toString("base64url")
      refreshes.set(refresh, { clientId: client.clientId, scopes: code.scopes })
      return issue(client.clientId, code.scopes, refresh)
    }
    if (grant === "refresh_token") {
      const given = form.get("refresh_token") ?? ""
      const refresh = refreshes.get(given)
      if (refresh === undefined || refresh.clientId !== client.clientId)
        return oauthFail(400, "invalid_grant", "unknown refresh token")
      return issue(client.clientId, refresh.scopes, given)
    }
    return oauthFail(400, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token")
  }

  /**
   * The media types (rule book, "HTTP statuses": 415 for an unsupported media type or language): the body's
   * `Content-Type` and what `Accept` admits must be JSON.
   */
  const checkMediaTypes = (req: Incoming): Failure | undefined => {
    const type = first(req.headers["content-type"])
    if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type.trim()))
      return cobsFailure(415, "UNSUPPORTED_MEDIA_TYPE", `Content-Type ${type} is not application/json`, "Content-Type")
    const accept = first(req.headers.accept)
    if (
      accept !== undefined &&
      !accept.split(",").some((t) => /^\s*(application\/json|application\/\*|\*\/\*)\s*(;|$)/i.test(t))
    )
      return cobsFailure(415, "UNSUPPORTED_MEDIA_TYPE", `Accept ${accept} admits no application/json`, "Accept")
    return undefined
  }

  /** The media types, the profile's required headers, and the API key. */
  const checkHeaders = (req: Incoming, withToken: boolean): Failure | undefined => {
    const media = checkMediaTypes(req)
    if (media !== undefined) return media
    for (const h of profile.headers) {
      if (!h.required) continue
      if (h.from === "authorization" && !withToken) continue
      const v = first(req.headers[h.name.toLowerCase()])
      if (v === undefined || v.trim() === "")
        return h.from === "authorization"
          ? cobsFailure(401, "UNAUTHORISED", "the access token is missing")
          : missing(h.name)
    }
    const requestId = first(req.headers["x-request-id"]) ?? ""
    if (requestId.length > 60) return fieldInvalid("X-Request-ID", "X-Request-ID holds at most 60 characters")
    const involved = first(req.headers["user-involved"])
    if (involved !== undefined && involved !== "true" && involved !== "false")
      return fieldInvalid("User-Involved", "User-Involved must be true or false")
    const key = first(req.headers["api-key"])
    if (key === undefined) return cobsFailure(401, "UNAUTHORISED", "the API key is missing")
    if (key !== options.apiKey) return cobsFailure(401, "UNAUTHORISED", "unknown API key")
    return undefined
  }

  const bearer = (req: Incoming): Token | Failure => {
    const auth = first(req.headers.authorization) ?? ""
    const m = /^Bearer +(\S+)\s*$/i.exec(auth)
    const t = m === null ? undefined : tokens.get(m[1] ?? "")
    if (t === undefined) return cobsFailure(401, "UNAUTHORISED", "unknown access token")
    if (t.expiresAt <= now()) return cobsFailure(403, "FORBIDDEN", "the access token has expired")
    if (!t.scopes.has("AISP") && !t.scopes.has("aisp.standingorders" as never))
      return cobsFailure(403, "FORBIDDEN", "the token has no AISP scope")
    return t
  }

  /** Spends the daily limit when the call is made without the customer (`User-Involved: false`). */
  const spend = (req: Incoming, t: Token): Failure | undefined => {
    if (first(req.headers["user-involved"]) === "true") return undefined
    const spent = options.limit.spend(t.consent, now(), undefined)
    return typeof spent === "string" ? undefined : spent
  }

  const list = (req: Incoming, query: URLSearchParams): Outgoing | Failure => {
    const problem = checkHeaders(req, true)
    if (problem !== undefined) return problem
    const t = bearer(req)
    if ("status" in t) return t
    for (const name of [profile.paging.size, profile.paging.page]) {
      const v = query.get(name)
      if (v !== null && !isInt(v)) return cobsFailure(400, "PARAMETER_INVALID", `${name} must be a whole number`, name)
    }
    const sizeText = query.get(profile.paging.size)
    const page = Number(query.get(profile.paging.page) ?? "0") - profile.paging.firstPage
    const selected: Array<object> = []
    for (const iban of t.bound) for (const o of byDebtor.get(iban) ?? []) selected.push(o.item)
    // without size, the whole set on one page (§1.3); a bank's own cap applies to a larger one
    const size = sizeText === null ? Math.max(1, selected.length) : Math.min(Number(sizeText), profile.paging.maxSize)
    if (size < 1) return cobsFailure(400, "PARAMETER_INVALID", "size must be at least 1", profile.paging.size)
    const pageCount = Math.max(1, Math.ceil(selected.length / size))
    if (page < 0 || (page > 0 && page >= pageCount))
      return cobsFailure(400, "PAGE_NOT_FOUND", `page ${page} does not exist`, profile.paging.page)
    const over = spend(req, t)
    if (over !== undefined) return over
    const records = selected.slice(page * size, (page + 1) * size)
    const last = page + 1 >= pageCount
    return json(
      200,
      {
        pageNumber: page + profile.paging.firstPage,
        pageCount,
        pageSize: records.length,
        // the rule book's example writes 0 on the last page (§1.9 trap 5): so does this bank
        nextPage: last ? 0 : page + 1 + profile.paging.firstPage,
        totalCount: selected.length,
        standingOrders: records
      },
      first(req.headers["user-involved"]) === "true" ? "ok" : "ok:unattended"
    )
  }

  const detail = (req: Incoming, id: string): Outgoing | Failure => {
    const problem = checkHeaders(req, true)
    if (problem !== undefined) return problem
    const t = bearer(req)
    if ("status" in t) return t
    const found = byId.get(id)
    if (found === undefined || !t.bound.has(found.debtor))
      return cobsFailure(404, "ID_NOT_FOUND", `no standing order ${id}`, "transactionIdentification")
    const over = profile.unattended.counts.includes("standingOrder") ? spend(req, t) : undefined
    if (over !== undefined) return over
    return json(200, found.detail, first(req.headers["user-involved"]) === "true" ? "ok" : "ok:unattended")
  }

  const balanceCheck = (req: Incoming, clientId: string): Outgoing | Failure => {
    const problem = checkHeaders(req, false)
    if (problem !== undefined) return problem
    let body: Record<string, unknown>
    try {
      const parsed: unknown = JSON.parse(req.body)
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
        return cobsFailure(400, "FF01", "the body must be a JSON object")
      body = parsed as Record<string, unknown>
    } catch {
      return cobsFailure(400, "FF01", "the body is not valid JSON")
    }
    const id = body.exchangeIdentification
    if (id === undefined) return missing("exchangeIdentification")
    if (typeof id !== "string" || id.length > 18)
      return fieldInvalid("exchangeIdentification", "exchangeIdentification is a string of at most 18 characters")
    if (!/^[a-zA-Z0-9/\-?:().,'+ ]+$/.test(id))
      return cobsFailure(400, "RR10", "not SWIFT characters", "exchangeIdentification")
    const account = body.debtorAccount as { identification?: { iban?: unknown } } | undefined
    if (account === undefined) return missing("debtorAccount")
    const iban = account.identification?.iban
    if (iban === undefined) return missing("debtorAccount.identification.iban")
    const details = body.transactionDetails as { currency?: unknown; totalAmount?: unknown } | undefined
    if (details === undefined) return missing("transactionDetails")
    if (details.currency === undefined) return missing("transactionDetails.currency")
    if (details.totalAmount === undefined) return missing("transactionDetails.totalAmount")
    if (typeof details.currency !== "string" || !/^[A-Z]{3}$/.test(details.currency))
      return cobsFailure(400, "AM11", "currency not supported", "transactionDetails.currency")
    const amount = details.totalAmount
    if (typeof amount !== "number" || !(amount > 0) || !/^\d{1,12}(\.\d{1,2})?$/.test(String(amount)))
      return cobsFailure(400, "AM12", "invalid amount", "transactionDetails.totalAmount")
    const key = `${clientId}|${id}`
    if (seenExchangeIds.has(key))
      return cobsFailure(400, "RF01", "exchangeIdentification is not unique", "exchangeIdentification")
    seenExchangeIds.add(key)
    const fakeToken: Token = {
      clientId,
      scopes: new Set(["PIISP"]) as Token["scopes"],
      bound: new Set(),
      consent: "",
      expiresAt: Number.POSITIVE_INFINITY
    }
    const state = options.accounts.forBalanceCheck(String(iban), fakeToken)
    if ("status" in state) {
      if (state.code === "CONSENT_MISSING" && options.accounts.known(String(iban)) === false)
        return cobsFailure(400, "AC02", "unknown account", "debtorAccount.identification.iban")
      // the electronic consent is given outside the API in COBS: only a missing or expired one refuses
      if (state.code !== "SCA_REQUIRED")
        return cobsFailure(400, "AG01", "no consent for balance checks on this account", "debtorAccount")
    }
    const held = options.accounts.state(String(iban))
    if (held === undefined) return cobsFailure(400, "AC02", "unknown account", "debtorAccount.identification.iban")
    if (held.account.currency !== details.currency)
      return cobsFailure(400, "AC09", "the account is held in another currency", "transactionDetails.currency")
    const covered = BigDecimal.isLessThanOrEqualTo(BigDecimal.fromStringUnsafe(String(amount)), held.balance)
    return json(
      200,
      {
        responseIdentification: Number(randomBytes(4).readUInt32BE(0)),
        exchangeIdentification: id,
        response: covered ? "APPR" : "DECL"
      },
      covered ? "ok:APPR" : "ok:DECL"
    )
  }

  return { authorize, token, list, detail, balanceCheck }
}
