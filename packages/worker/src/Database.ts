/**
 * The fleet's PostgreSQL connection and tables: a pooled `SqlClient` from a `postgres://` URL (effect's
 * `@effect/sql-pg` driver) and the idempotent creation of tppkit's own tables, serialised by an advisory lock so
 * that workers starting together do not race. The cluster's own tables are created by effect's SQL storages.
 *
 * @since 0.1.0
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, type Redacted } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import * as BankGate from "./BankGate.ts"
import * as Checks from "./Checks.ts"

/** The DDL of the budget tables (idempotent); the PostgreSQL budget store's. */
export const budgetDdl: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS tppkit_budget (
    consent_key text NOT NULL, day text NOT NULL, used integer NOT NULL, PRIMARY KEY (consent_key, day))`,
  `CREATE TABLE IF NOT EXISTS tppkit_lease (
    lease_key text PRIMARY KEY, holder text NOT NULL, expires_at bigint NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS tppkit_snapshot (
    snapshot_key text PRIMARY KEY, taken_at bigint NOT NULL, payload text NOT NULL)`
]

/**
 * Every DDL statement of tppkit's tables (checks, budget, leases, snapshots, the bank gate), in order; each is
 * idempotent.
 */
export const ddl: ReadonlyArray<string> = [...Checks.ddl, ...budgetDdl, ...BankGate.ddl]

/** A fixed advisory-lock key for tppkit's migrations. */
const migrationLock = 7_316_505_221

/** Creates tppkit's tables when missing, holding an advisory lock for the duration. */
export const migrate: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.withTransaction(
    Effect.gen(function* () {
      yield* sql`SELECT pg_advisory_xact_lock(${migrationLock})`
      for (const statement of ddl) yield* sql.unsafe(statement)
    })
  )
})

/** A pooled PostgreSQL client from a `postgres://` URL, with tppkit's tables created. */
export const layer = (
  url: Redacted.Redacted<string>,
  options?: { readonly maxConnections?: number | undefined }
): Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, SqlError> =>
  Layer.effectDiscard(migrate).pipe(
    Layer.provideMerge(
      PgClient.layer({
        url,
        maxConnections: options?.maxConnections ?? 10,
        applicationName: "tppkit",
        connectTimeout: "10 seconds"
      })
    )
  )
