/**
 * The mock bank's own endpoints beside the interface: `GET /openapi.json` (always open), and the admin endpoints
 * `GET /__journal?since=&limit=` (streamed), `GET`/`POST /__clock` (read, set or move the sandbox clock) and
 * `GET`/`PUT /__faults` (read or replace the global fault injection). With an admin token configured, the admin
 * endpoints answer 401 unless the request carries it in `X-Sandbox-Admin`.
 */
import { timingSafeEqual } from "node:crypto"
import { Timestamp } from "@tppkit/core"
import { Result, Schema, type SchemaIssue, SchemaParser } from "effect"
import * as Faults from "../Faults.ts"
import type * as Journal from "../Journal.ts"
import { parseJsonObject, withFloats } from "./apiChecks.ts"
import {
  badRequest,
  type Dialect,
  type Failure,
  fail,
  methodNotAllowed,
  schemaFailure,
  unauthorized
} from "./errors.ts"
import { first, type Incoming, json, type Outgoing } from "./exchange.ts"

/** The header that carries the admin token. */
export const adminHeader = "x-sandbox-admin"

/** The paths served here. */
export const paths: ReadonlySet<string> = new Set([
  "/openapi.json",
  "/__instance",
  "/__journal",
  "/__clock",
  "/__faults"
])

/**
 * The path where the mock bank says which running bank it is: `{"instance": "<uuid>"}`, a new id each time a mock
 * bank starts (its state lives in memory), so that a client counting a daily budget can tell a restarted mock bank
 * on the same address from the one it counted against.
 */
export const instancePath = "/__instance"

/** What the admin endpoints act on. */
export interface Config {
  readonly adminToken: string | undefined
  /** This running bank's id, served at {@link instancePath}. */
  readonly instance: string
  readonly openapi: () => string
  readonly journal: Journal.Journal["Service"]
  readonly clock: {
    readonly now: () => number
    readonly set: (epochMillis: number) => void
    readonly adjust: (millis: number) => void
  }
  readonly faults: {
    readonly global: () => Faults.GlobalFaults | undefined
    readonly setGlobal: (next: Faults.GlobalFaults | undefined) => void
  }
}

/** Whether a request carries the admin token (always, when none is configured); compared in constant time. */
export const isAdmin = (req: Incoming, token: string | undefined): boolean => {
  if (token === undefined) return true
  const given = Buffer.from(first(req.headers[adminHeader]) ?? "")
  const wanted = Buffer.from(token)
  return given.length === wanted.length && timingSafeEqual(given, wanted)
}

/** The 401 of a request without the admin token. */
export const refused: Failure = {
  ...unauthorized("ADMIN_TOKEN_REQUIRED", "this needs the sandbox admin token in the X-Sandbox-Admin header"),
  headers: { "www-authenticate": 'X-Sandbox-Admin realm="tppkit-sandbox"' }
}

/** A non-negative integer query parameter, absent, or `false` when it is something else. */
const queryInt = (params: URLSearchParams, name: string): number | undefined | false => {
  const v = params.get(name)
  if (v === null) return undefined
  return /^\d{1,15}$/.test(v) ? Number(v) : false
}

/** The journal as a JSON array written one entry at a time. */
function* journalBody(entries: Iterable<Uint8Array>): Generator<string | Uint8Array> {
  let sep = "["
  for (const e of entries) {
    yield sep
    yield e
    sep = ","
  }
  yield sep === "[" ? "[]" : "]"
}

/** `POST /__clock`: either an instant to set or seconds to move by (negative: back). */
const ClockChange = Schema.Union([
  Schema.Struct({ set: Timestamp.Timestamp }),
  Schema.Struct({ adjustSeconds: Schema.Finite })
])
const decodeClockChange = SchemaParser.decodeUnknownResult(ClockChange)
const decodeFaults = SchemaParser.decodeUnknownResult(Faults.GlobalFaultsJson)

const noStore = { "cache-control": "no-store" }

/** The handler of the paths in {@link paths}. */
export const make = (config: Config) => {
  const clockAnswer = () => {
    const now = config.clock.now()
    return json(200, JSON.stringify({ now: new Date(now).toISOString(), epochMillis: now }), "ok", noStore)
  }
  const faultsAnswer = () => json(200, JSON.stringify(config.faults.global() ?? { rate: 0 }), "ok", noStore)
  const isRead = (req: Incoming) => req.method === "GET" || req.method === "HEAD"

  const journal = (req: Incoming, query: string, dialect: Dialect): Outgoing => {
    if (!isRead(req)) return fail(methodNotAllowed(req.method, "/__journal", "GET"), dialect, {})
    const params = new URLSearchParams(query)
    const since = queryInt(params, "since")
    const limit = queryInt(params, "limit")
    if (since === false || limit === false) {
      const field = since === false ? "since" : "limit"
      return fail(badRequest(`query parameter ${field} must be a non-negative integer`, field), dialect, {})
    }
    const read = { ...(since !== undefined ? { since } : {}), ...(limit !== undefined ? { limit } : {}) }
    return {
      status: 200,
      headers: { "content-type": "application/json", ...noStore },
      body: journalBody(config.journal.readJsonUnsafe(read)),
      outcome: "ok"
    }
  }

  /**
   * A setting read and changed at `path`: GET or HEAD answers it, `method` with a JSON body `decode` accepts changes
   * it (`change`) and answers it anew; anything else is refused with the failure's own answer.
   */
  const setting =
    <A>(
      path: string,
      method: string,
      decode: (json: unknown) => Result.Result<A, SchemaIssue.Issue>,
      change: (value: A) => void,
      answer: () => Outgoing
    ) =>
    (req: Incoming, dialect: Dialect): Outgoing => {
      if (isRead(req)) return answer()
      if (req.method !== method) return fail(methodNotAllowed(req.method, path, `GET, ${method}`), dialect, {})
      const parsed = parseJsonObject(req.body)
      if (!("value" in parsed)) return fail(parsed, dialect, {})
      const value = decode(withFloats(parsed.value))
      if (Result.isFailure(value)) return fail(schemaFailure(value.failure), dialect, {})
      change(value.success)
      return answer()
    }

  const clock = setting(
    "/__clock",
    "POST",
    decodeClockChange,
    (change) => {
      if ("set" in change) config.clock.set(Timestamp.toEpochMillis(change.set))
      else config.clock.adjust(Math.round(change.adjustSeconds * 1000))
    },
    clockAnswer
  )

  const faults = setting(
    "/__faults",
    "PUT",
    decodeFaults,
    (next) => config.faults.setGlobal(next.rate > 0 ? next : undefined),
    faultsAnswer
  )

  /** Answers a request to one of {@link paths}. */
  const handle = (req: Incoming, path: string, query: string, dialect: Dialect): Outgoing => {
    if (path === instancePath) {
      return isRead(req)
        ? json(200, JSON.stringify({ instance: config.instance }), "ok", noStore)
        : fail(methodNotAllowed(req.method, path, "GET"), dialect, {})
    }
    if (path === "/openapi.json") {
      return isRead(req)
        ? json(200, config.openapi(), "ok", noStore)
        : fail(methodNotAllowed(req.method, path, "GET"), dialect, {})
    }
    if (!isAdmin(req, config.adminToken)) return fail(refused, dialect, {})
    return path === "/__journal"
      ? journal(req, query, dialect)
      : path === "/__clock"
        ? clock(req, dialect)
        : faults(req, dialect)
  }

  /** Whether a request to one of {@link paths} has a body to read. */
  const readsBody = (method: string): boolean => method === "POST" || method === "PUT"

  return { handle, readsBody }
}
