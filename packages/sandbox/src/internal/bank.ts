/**
 * The mock bank's request handling, composed: routing by path and method, the admin endpoints (`/__journal`, with
 * the optional admin token), faults, and the three operations, each in its own module over state that the value
 * `make` returns owns. The transport (server.ts) feeds it requests and writes its answers.
 */
import { Endpoint, type LocalDate, Profile } from "@tppkit/core"
import type * as Faults from "../Faults.ts"
import type * as Fixtures from "../Fixtures.ts"
import type * as Journal from "../Journal.ts"
import * as Personality from "../Personality.ts"
import * as Admin from "./admin.ts"
import * as ApiChecks from "./apiChecks.ts"
import * as BalanceCheck from "./balanceCheck.ts"
import * as BankDay from "./bankDay.ts"
import * as Cobs from "./cobs.ts"
import * as Consent from "./consent.ts"
import * as DailyLimit from "./dailyLimit.ts"
import { badRequest, type Dialect, fail, methodNotAllowed, oauthFail, parseDialect } from "./errors.ts"
import { first, type Incoming, type Outgoing } from "./exchange.ts"
import * as FaultAnswers from "./faultAnswers.ts"
import * as OAuth from "./oauth.ts"
import * as StandingOrders from "./standingOrders.ts"

/** The `Retry-After` of an answer refused because the bank is busy. */
const retryShortly: Readonly<Record<string, string>> = { "retry-after": "1" }

/** Which set of paths is served (docs/bank-interface.md, "Environments and paths"). */
export type Environment = Endpoint.Environment

/** What the handler needs. */
export interface Config {
  readonly fixtures: Fixtures.Loaded
  readonly environment: Environment
  readonly dialect: Dialect
  readonly faults: Faults.GlobalFaults | undefined
  readonly now: () => number
  readonly timeZone: string
  readonly pageCountAsString: boolean
  /** How far ahead of the bank's clock a `PSU-Last-Logged-Time` may be and still count as present. */
  readonly clockSkewMillis: number
  readonly journal: Journal.Journal["Service"]
  readonly openapi: () => string
  /** When set, the admin endpoints and the `X-Sandbox-Fault` header need it in `X-Sandbox-Admin`. */
  readonly adminToken: string | undefined
  /** Moves the sandbox clock (for `POST /__clock`). */
  readonly moveClock: { readonly set: (epochMillis: number) => void; readonly adjust: (millis: number) => void }
  /** The largest request body read, in bytes (the token endpoint reads at most `OAuth.maxFormBytes` of it). */
  readonly bodyLimit: number
  /**
   * The rule each listed `nextDate` is computed by, from the listing day (default `{}`: tppkit's own), or
   * `"as-given"`: the fixtures' `nextDate`s listed as they are.
   */
  readonly personality?: Personality.Personality | typeof Personality.asGiven | undefined
  /** The day the bank lists its `nextDate`s as of (default: the day of its clock in its time zone). */
  readonly listingDay?: LocalDate.LocalDate | undefined
  /** What a listing's daily limit counts on: the token's consent, or one listed account's own. */
  readonly listingConsent?: "client" | "account" | undefined
  /** The bank's profile (default `Profile.sbas`): its paths, methods, headers, dialect and technical breaks. */
  readonly profile?: Profile.Profile | undefined
  /** The API key a profile's operations check (default `sandbox-api-key`). */
  readonly apiKey?: string | undefined
}

/** The API key of the mock bank when it plays a profile whose operations need one. */
export const defaultApiKey = "sandbox-api-key"

/** The path of the authorization endpoint of a profile with the authorization-code grant (the sandbox approves at once). */
export const authorizePath = "/oauth2/auth"

/** Creates a handler with its own state (tokens, daily counters). */
export const make = (config: Config) => {
  const paths = Endpoint.paths(config.environment)
  const calendar = BankDay.make(config.timeZone)
  let isoMillis = Number.NaN
  let isoText = ""
  /** The current time as RFC 3339 UTC, remembered for the last millisecond asked (many answers share one). */
  const dateTime = (): string => {
    const ms = config.now()
    if (ms !== isoMillis) {
      isoText = new Date(ms).toISOString()
      isoMillis = ms
    }
    return isoText
  }
  const oauth = OAuth.make(config.fixtures.clients, config.now)
  const accounts = Consent.make(config.fixtures.accounts, calendar, config.now(), config.now)
  const balanceCheck = BalanceCheck.make(accounts, dateTime)
  const personality = config.personality ?? {}
  const listingDay = config.listingDay
  const standingOrders = StandingOrders.make({
    orders: config.fixtures.standingOrders,
    limit: DailyLimit.make(calendar, config.clockSkewMillis),
    pageCountAsText: config.pageCountAsString,
    now: config.now,
    perAccount: config.listingConsent === "account",
    listed:
      personality === Personality.asGiven
        ? undefined
        : (orders, now) => Personality.list(personality, orders, listingDay ?? calendar.day(now))
  })
  const faults = FaultAnswers.make(config.faults)
  const profile = config.profile ?? Profile.sbas
  const sbas = Profile.isSbas(profile)
  const routes = new Map<string, Endpoint.Operation>([
    [paths.token, "token"],
    [paths.balanceCheck, "balanceCheck"],
    [paths.standingOrders, "standingOrders"]
  ])
  const cobs = sbas
    ? undefined
    : Cobs.make({
        profile,
        clients: config.fixtures.clients,
        orders: config.fixtures.standingOrders,
        accounts,
        limit: DailyLimit.make(calendar, config.clockSkewMillis),
        now: config.now,
        apiKey: config.apiKey ?? defaultApiKey
      })
  const env = config.environment
  const detailPath = profile.operations.standingOrder?.paths[env]
  const detailPrefix = detailPath?.slice(0, detailPath.indexOf(Profile.idPlaceholder))
  const profileRoutes = new Map<string, Cobs.Route>([
    [profile.operations.token.paths[env], "token"],
    [profile.operations.balanceCheck.paths[env], "balanceCheck"],
    [profile.operations.standingOrders.paths[env], "standingOrders"],
    [authorizePath, "authorize"]
  ])
  /** A profile's route of a path, with the order's id of a detail path. */
  const profileRoute = (path: string): { readonly route: Cobs.Route; readonly id?: string } | undefined => {
    const exact = profileRoutes.get(path)
    if (exact !== undefined) return { route: exact }
    if (detailPrefix !== undefined && path.startsWith(detailPrefix) && path.length > detailPrefix.length) {
      const rest = path.slice(detailPrefix.length)
      if (!rest.includes("/")) return { route: "standingOrder", id: decodeURIComponent(rest) }
    }
    return undefined
  }
  const methodOf = (route: Cobs.Route): string =>
    route === "authorize" ? "GET" : route === "token" ? "POST" : (profile.operations[route]?.method ?? "POST")

  const api = (
    req: Incoming,
    kind: Exclude<Endpoint.Operation, "token">,
    dialect: Dialect,
    ids: Record<string, string>
  ) => {
    const problem = ApiChecks.check(req)
    if (problem) return fail(problem, dialect, ids)
    const token = oauth.authenticate(req)
    if ("status" in token) return fail(token, dialect, ids)
    const result = kind === "balanceCheck" ? balanceCheck.check(req, token) : standingOrders.list(req, token)
    if ("code" in result) return fail(result, dialect, ids)
    return { ...result, headers: { ...result.headers, ...ids } }
  }

  const admin = Admin.make({
    adminToken: config.adminToken,
    instance: crypto.randomUUID(),
    openapi: config.openapi,
    journal: config.journal,
    clock: { now: config.now, ...config.moveClock },
    faults
  })

  /** Answers one request of a profile other than the seed bank's (see `cobs.ts`). */
  /**
   * The selected faults in order: the answer of the first that answers (with the delays before it), else the delay
   * they add up to and whether one asks for an expired token (only where `expires`: the token endpoint of the bank
   * that issues its own).
   */
  const runFaults = (
    faults: ReadonlyArray<Faults.Fault>,
    isToken: boolean,
    expires: boolean,
    dialect: Dialect,
    ids: Record<string, string>
  ): { readonly answer: Outgoing } | { readonly delayMs: number; readonly expiredFault: boolean } => {
    let delayMs = 0
    let expiredFault = false
    for (const f of faults) {
      if (f.kind === "delay") delayMs += f.delayMs ?? 0
      else if (f.kind === "expired-token" && expires) expiredFault = true
      else if (f.kind === "error") {
        if (!isToken) {
          const out = FaultAnswers.errorAnswer(f.code ?? "", dialect, ids)
          return { answer: delayMs > 0 ? { ...out, delayMs } : out }
        }
      } else {
        const out = FaultAnswers.answer(f.kind, isToken, dialect, ids, dateTime)
        if (out) return { answer: delayMs > 0 ? { ...out, delayMs } : out }
      }
    }
    return { delayMs, expiredFault }
  }

  const handleProfiled = (req: Incoming, bank: ReturnType<typeof Cobs.make>): Outgoing => {
    const q = req.url.indexOf("?")
    const path = q === -1 ? req.url : req.url.slice(0, q)
    const query = new URLSearchParams(q === -1 ? "" : req.url.slice(q + 1))
    const dialect = parseDialect(first(req.headers["x-sandbox-error-dialect"])) ?? config.dialect
    const found = profileRoute(path)
    if (found === undefined) {
      if (Admin.paths.has(path)) return admin.handle(req, path, q === -1 ? "" : req.url.slice(q + 1), dialect)
      return fail(
        { status: 404, code: "ID_NOT_FOUND", title: "Not Found", detail: `no resource at ${path}` },
        dialect,
        {}
      )
    }
    const { route } = found
    const allowed = methodOf(route)
    if (req.method !== allowed) return fail(methodNotAllowed(req.method, path, allowed), dialect, {})
    const isToken = route === "token" || route === "authorize"
    const ids: Record<string, string> = {}
    if (!isToken) {
      const requestId = first(req.headers["x-request-id"])
      ids["x-request-id"] = requestId?.trim() ? requestId : crypto.randomUUID()
      const action = first(req.headers["action-id"])
      if (action !== undefined) ids["action-id"] = action
    }
    if (req.headers["x-sandbox-fault"] !== undefined && !Admin.isAdmin(req, config.adminToken)) {
      return isToken
        ? oauthFail(401, "invalid_client", "X-Sandbox-Fault needs the sandbox admin token in X-Sandbox-Admin")
        : fail(Admin.refused, dialect, ids)
    }
    // a technical break of the profile: the bank does not answer its operations (503, no body, as COBS declares)
    const breakEnd = Profile.breakEnd(profile, config.now())
    if (breakEnd !== undefined)
      return {
        status: 503,
        headers: { ...ids, "retry-after": String(Math.max(1, Math.ceil((breakEnd - config.now()) / 1000))) },
        body: "",
        outcome: "technical-break"
      }
    const selection = faults.select(req, isToken, route === "balanceCheck", dialect, ids)
    if ("refused" in selection) return selection.refused
    const run = runFaults(selection.faults, isToken, false, dialect, ids)
    if ("answer" in run) return run.answer
    const { delayMs } = run
    let out: Outgoing
    if (req.refused === "busy" || req.refused === "tooLarge") {
      out = fail(
        req.refused === "busy"
          ? {
              status: 503,
              code: "SERVICE_UNAVAILABLE",
              title: "Service Unavailable",
              detail: "busy",
              headers: retryShortly
            }
          : { status: 413, code: "PAYLOAD_TOO_LARGE", title: "Content Too Large", detail: "request body too large" },
        dialect,
        ids
      )
    } else if (req.invalidUtf8 === true) {
      out = fail(badRequest("the request body is not valid UTF-8"), dialect, ids)
    } else {
      const result =
        route === "authorize"
          ? bank.authorize(query)
          : route === "token"
            ? bank.token(req)
            : route === "standingOrders"
              ? bank.list(req, query)
              : route === "standingOrder"
                ? bank.detail(req, found.id ?? "")
                : bank.balanceCheck(req, config.fixtures.clients[0]?.clientId ?? "")
      out = "code" in result ? fail(result, dialect, ids) : { ...result, headers: { ...result.headers, ...ids } }
    }
    return delayMs > 0 ? { ...out, delayMs } : out
  }

  /** Answers one request. */
  const handle = (req: Incoming): Outgoing => {
    if (cobs !== undefined) return handleProfiled(req, cobs)
    const q = req.url.indexOf("?")
    const path = q === -1 ? req.url : req.url.slice(0, q)
    const dialect = parseDialect(first(req.headers["x-sandbox-error-dialect"])) ?? config.dialect
    const route = routes.get(path)
    if (route === undefined) {
      if (Admin.paths.has(path)) return admin.handle(req, path, q === -1 ? "" : req.url.slice(q + 1), dialect)
      return fail(
        { status: 404, code: "RESOURCE_UNKNOWN", title: "Not Found", detail: `no resource at ${path}` },
        dialect,
        {}
      )
    }
    if (req.method !== "POST") return fail(methodNotAllowed(req.method, path, "POST"), dialect, {})
    const isToken = route === "token"
    const ids = isToken ? {} : ApiChecks.responseIds(req)
    if (req.headers["x-sandbox-fault"] !== undefined && !Admin.isAdmin(req, config.adminToken)) {
      return isToken
        ? oauthFail(401, "invalid_client", "X-Sandbox-Fault needs the sandbox admin token in X-Sandbox-Admin")
        : fail(Admin.refused, dialect, ids)
    }
    const selection = faults.select(req, isToken, route === "balanceCheck", dialect, ids)
    if ("refused" in selection) return selection.refused
    const run = runFaults(selection.faults, isToken, isToken, dialect, ids)
    if ("answer" in run) return run.answer
    const { delayMs, expiredFault } = run
    let out: Outgoing
    if (req.refused === "busy") {
      const detail = "the bank is receiving too many request bodies at once; retry shortly"
      out = isToken
        ? oauthFail(503, "temporarily_unavailable", detail, retryShortly)
        : fail(
            { status: 503, code: "SERVICE_UNAVAILABLE", title: "Service Unavailable", detail, headers: retryShortly },
            dialect,
            ids
          )
    } else if (req.refused === "tooLarge") {
      out = isToken
        ? oauthFail(413, "invalid_request", "request body too large")
        : fail(
            { status: 413, code: "PAYLOAD_TOO_LARGE", title: "Content Too Large", detail: "request body too large" },
            dialect,
            ids
          )
    } else if (req.invalidUtf8 === true) {
      const detail = "the request body is not valid UTF-8"
      out = isToken ? oauthFail(400, "invalid_request", detail) : fail(badRequest(detail), dialect, ids)
    } else out = isToken ? oauth.issue(req, expiredFault) : api(req, route, dialect, ids)
    return delayMs > 0 ? { ...out, delayMs } : out
  }

  /**
   * How many bytes of the body of such a request `handle` reads (a POST to an operation, a change to an admin
   * endpoint; a token request only a form's worth), or 0 when it reads none.
   */
  const bodyLimitOf = (method: string, url: string): number => {
    const q = url.indexOf("?")
    const path = q === -1 ? url : url.slice(0, q)
    if (cobs !== undefined) {
      const route = profileRoute(path)?.route
      if (method === "POST" && (route === "token" || route === "balanceCheck")) return config.bodyLimit
      return Admin.paths.has(path) && admin.readsBody(method) ? config.bodyLimit : 0
    }
    const reads =
      method === "POST" ? routes.has(path) || Admin.paths.has(path) : Admin.paths.has(path) && admin.readsBody(method)
    if (!reads) return 0
    return path === paths.token ? Math.min(config.bodyLimit, OAuth.maxFormBytes) : config.bodyLimit
  }

  return {
    handle,
    bodyLimitOf,
    paths: sbas
      ? paths
      : {
          token: profile.operations.token.paths[env],
          balanceCheck: profile.operations.balanceCheck.paths[env],
          standingOrders: profile.operations.standingOrders.paths[env]
        }
  }
}
