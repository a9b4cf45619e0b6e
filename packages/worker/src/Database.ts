/**
 * The fleet's PostgreSQL connection and tables: a pooled `SqlClient` from a `postgres://` URL (effect's
 * `@effect/sql-pg` driver) and the idempotent creation of tppkit's own tables, serialised by an advisory lock so
 * that workers starting together do not race. The cluster's own tables are created by effect's SQL storages.
 *
 * @since 0.1.0
 */
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { ConnectionError, SqlError } from "effect/sql/SqlError"
import * as BankGate from "./BankGate.ts"
import * as BankRate from "./BankRate.ts"
import * as Checks from "./Checks.ts"
import * as Consents from "./Consents.ts"
import * as ListingReconciliation from "./ListingReconciliation.ts"
import * as Listings from "./Listings.ts"
import * as PlanSettings from "./PlanSettings.ts"
import * as SweepLog from "./SweepLog.ts"
import * as Warnings from "./Warnings.ts"
import * as Webhook from "./Webhook.ts"

/** The DDL of the budget tables (idempotent); the PostgreSQL budget store's. */
export const budgetDdl: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS tppkit_budget (
    consent_key text NOT NULL, day text NOT NULL, used integer NOT NULL, PRIMARY KEY (consent_key, day))`,
  `CREATE TABLE IF NOT EXISTS tppkit_lease (
    lease_key text PRIMARY KEY, holder text NOT NULL, expires_at bigint NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS tppkit_snapshot (
    snapshot_key text PRIMARY KEY, taken_at bigint NOT NULL, payload text NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS tppkit_bank_identity (base_url text PRIMARY KEY, identity text NOT NULL)`,
  // how the identity was agreed: 'announced' (an instance heard), 'none' (the bank announces none), 'unanswered'
  // (a worker heard nothing and claimed the base URL for the fleet); rows made before are of instances heard
  `ALTER TABLE tppkit_bank_identity ADD COLUMN IF NOT EXISTS kind text NOT NULL DEFAULT 'announced'`
]

/**
 * Every DDL statement of tppkit's tables (checks, budget, leases, snapshots, the bank gate, the plan settings, the
 * sweep record, the webhook outbox, the listings' reconciliations), in order; each is idempotent.
 */
export const ddl: ReadonlyArray<string> = [
  ...Checks.ddl,
  ...budgetDdl,
  ...BankGate.ddl,
  ...BankRate.ddl,
  ...PlanSettings.ddl,
  ...SweepLog.ddl,
  ...Webhook.ddl,
  ...ListingReconciliation.ddl,
  ...Listings.ddl,
  ...Warnings.ddl
]

/** A fixed advisory-lock key for tppkit's migrations. */
const migrationLock = 7_316_505_221

/** Creates tppkit's tables when missing, holding an advisory lock for the duration. */
export const migrate: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.withTransaction(
    Effect.gen(function* () {
      yield* sql`SELECT pg_advisory_xact_lock(${migrationLock})`
      for (const statement of ddl) yield* sql.unsafe(statement)
      yield* Consents.migrate
      for (const statement of Warnings.consentsDdl) yield* sql.unsafe(statement)
    })
  )
})

/** How long connecting may take unless the URL says otherwise with `connect_timeout` (seconds, as libpq reads it). */
export const defaultConnectTimeoutSeconds = 10

/**
 * The cause of the `ConnectionError` a {@link layer} fails with when its first connection is not made within the
 * connect timeout (the host does not answer): how `problemOf` knows a timeout by its type.
 */
export class ConnectTimeout extends Error {
  readonly _tag = "ConnectTimeout"
  /** The time allowed, in seconds. */
  readonly seconds: number
  constructor(seconds: number) {
    super(`no connection within ${seconds} s`)
    this.seconds = seconds
  }
}

const urlOf = (url: Redacted.Redacted<string>): URL | undefined => {
  try {
    return new URL(Redacted.value(url))
  } catch {
    return undefined
  }
}

/**
 * The connect timeout of a URL in seconds: its `connect_timeout` (0: none), else {@link defaultConnectTimeoutSeconds};
 * undefined for a value the driver refuses (it fails with its own message then).
 */
const connectSecondsOf = (url: Redacted.Redacted<string>): number | undefined => {
  const given = urlOf(url)?.searchParams.get("connect_timeout")
  if (given === undefined || given === null) return defaultConnectTimeoutSeconds
  const seconds = Number(given)
  return Number.isInteger(seconds) && seconds >= 0 ? seconds : undefined
}

/** The pool's first connection, made and given back within `seconds` (0: no limit), else a {@link ConnectTimeout}. */
const firstConnection = (seconds: number | undefined): Effect.Effect<void, SqlError, SqlClient.SqlClient> => {
  const connect = Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.scoped(sql.reserve))
  if (seconds === undefined || seconds === 0) return Effect.asVoid(connect)
  return Effect.asVoid(connect).pipe(
    Effect.timeoutOrElse({
      duration: Duration.seconds(seconds),
      orElse: () =>
        Effect.fail(
          new SqlError({
            reason: new ConnectionError({
              cause: new ConnectTimeout(seconds),
              message: `tppkit: no connection within ${seconds} s`,
              operation: "connect"
            })
          })
        )
    })
  )
}

/**
 * A pooled PostgreSQL client from a `postgres://` URL, with tppkit's tables created; connecting gives up after
 * {@link defaultConnectTimeoutSeconds}, or the URL's `connect_timeout` seconds, with a {@link ConnectTimeout}. (The
 * driver's own timeout, a second later, bounds the connections the pool opens afterwards.)
 */
export const layer = (
  url: Redacted.Redacted<string>,
  options?: {
    readonly maxConnections?: number | undefined
    /** The sessions' `application_name` (default `tppkit`); a worker's own names the holder of its shard locks. */
    readonly applicationName?: string | undefined
  }
): Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, SqlError> => {
  const seconds = connectSecondsOf(url)
  return Layer.effectDiscard(Effect.andThen(firstConnection(seconds), migrate)).pipe(
    Layer.provideMerge(
      PgClient.layer({
        url,
        maxConnections: options?.maxConnections ?? 10,
        applicationName: options?.applicationName ?? "tppkit",
        ...(seconds === undefined
          ? {}
          : { connectTimeout: seconds === 0 ? Duration.infinity : Duration.seconds(seconds + 1) })
      })
    )
  )
}

/** The host of a `postgres://` URL (`localhost` when it names none, as libpq reads it). */
export const host = (url: Redacted.Redacted<string>): string => {
  const u = urlOf(url)
  return u === undefined || u.hostname === "" ? "localhost" : u.hostname.replace(/^\[|\]$/g, "")
}

/** `host:port` of a `postgres://` URL (port 5432 when it names none), never its user or password. */
export const address = (url: Redacted.Redacted<string>): string => {
  const u = urlOf(url)
  if (u === undefined) return "PostgreSQL"
  return `${u.hostname}:${u.port === "" ? "5432" : u.port}`
}

/**
 * Why the database could not be used, as a class an operator acts on: nothing listens at the address
 * (`refused`), no answer within the connect timeout (`timedOut`), no route or no such host (`unreachable`), the
 * server refused the user or password (`authentication`), the database does not exist (`noDatabase`), or any other
 * failure of a statement (`other`).
 */
export type Problem = "refused" | "timedOut" | "unreachable" | "authentication" | "noDatabase" | "other"

const codeOf = (u: unknown): string | undefined =>
  typeof u === "object" && u !== null && "code" in u && typeof u.code === "string" ? u.code : undefined

/**
 * The class of a database failure, from the driver's typed reason and its cause's code: PostgreSQL's SQLSTATE
 * (class 28 authentication, 3D000 no such database) or Node's socket code (ECONNREFUSED, ETIMEDOUT, EHOSTUNREACH,
 * ENETUNREACH, ENOTFOUND, EAI_AGAIN), or tppkit's own connect timeout ({@link ConnectTimeout}, the cause). The
 * driver's timeout carries no code and no type of its own (other connect failures look the same): `other`.
 */
export const problemOf = (error: SqlError): Problem => {
  const reason = error.reason
  const code = codeOf(reason.cause)
  if (code === "3D000") return "noDatabase"
  if (reason._tag === "AuthenticationError" || code === "28P01" || code === "28000") return "authentication"
  if (code === "ECONNREFUSED") return "refused"
  if (code === "ETIMEDOUT") return "timedOut"
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return "unreachable"
  }
  if (reason._tag === "ConnectionError" && reason.cause instanceof ConnectTimeout) return "timedOut"
  return "other"
}

const userOf = (url: Redacted.Redacted<string>): string => decodeURIComponent(urlOf(url)?.username ?? "")
const databaseOf = (url: Redacted.Redacted<string>): string =>
  decodeURIComponent(urlOf(url)?.pathname.replace(/^\//, "") ?? "")

/**
 * One line naming the database's `host:port` and what went wrong in plain words (never the password), e.g.
 * `database 127.0.0.1:5433: connection refused (is PostgreSQL running there? tppkit db start starts one)`.
 */
export const describeFailure = (url: Redacted.Redacted<string>, error: SqlError): string => {
  const at = `database ${address(url)}`
  const code = codeOf(error.reason.cause)
  switch (problemOf(error)) {
    case "refused":
      return `${at}: connection refused (is PostgreSQL running there? tppkit db start starts one)`
    case "timedOut":
      return `${at}: timed out connecting (no answer; check the host, the port and the firewall)`
    case "unreachable":
      return `${at}: unreachable (${code === "ENOTFOUND" || code === "EAI_AGAIN" ? "no such host" : "no route to the host"})`
    case "authentication":
      return `${at}: authentication failed for user ${JSON.stringify(userOf(url))} (check the user and password in the URL)`
    case "noDatabase":
      return `${at}: no such database ${JSON.stringify(databaseOf(url))} (create it, or name another in the URL)`
    case "other": {
      const cause = error.reason.cause
      const detail = cause instanceof Error && cause.message !== error.message ? ` (${cause.message})` : ""
      return `${at}: ${error.message}${code === undefined ? "" : ` [${code}]`}${detail}`
    }
  }
}
