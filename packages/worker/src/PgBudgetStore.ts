/**
 * http's `BudgetStore` on PostgreSQL, so that every worker of a fleet (and every `tppkit` bank command given
 * `--database-url`) shares one daily budget, one listing lease per key and one listing snapshot per key. Each
 * change is one statement, hence one transaction: a reservation is an `INSERT … ON CONFLICT DO UPDATE … WHERE`
 * that only raises the count while it stays within the limit, exact under any number of processes; a lease is
 * taken by an upsert whose `WHERE` admits only a free, expired or own lease; a snapshot is replaced only by a
 * newer one. Time is always the caller's (the store never reads the database clock). Its tables are created by
 * `Database.migrate`.
 *
 * @since 0.1.0
 */
import { Backoff } from "@tppkit/core"
import { BankError, type Budget, BudgetStore } from "@tppkit/http"
import { Duration, Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import * as Database from "./Database.ts"

/** The store over the fleet's `SqlClient`; `description` names the database (never its password). */
export const layer = (description = "PostgreSQL"): Layer.Layer<BudgetStore.BudgetStore, never, SqlClient.SqlClient> =>
  Layer.effect(
    BudgetStore.BudgetStore,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const fail = (operation: string) => (e: SqlError) =>
        new BankError.BudgetStoreError({
          store: description,
          operation,
          detail: `${e.message}${e.cause instanceof Error ? ` (${e.cause.message})` : ""}`
        })
      return BudgetStore.BudgetStore.of({
        description,
        used: (key, day) =>
          sql<{ used: number }>`SELECT used FROM tppkit_budget WHERE consent_key = ${key} AND day = ${day}`.pipe(
            Effect.map((rows) => Number(rows[0]?.used ?? 0)),
            Effect.mapError(fail("used"))
          ),
        tryConsume: (key, day, n, limit) =>
          Effect.gen(function* () {
            // granted exactly when a row comes back: the insert or the guarded increment happened
            const granted = yield* sql<{ used: number }>`
              INSERT INTO tppkit_budget AS b (consent_key, day, used)
              SELECT ${key}, ${day}, ${n} WHERE ${n}::int <= ${limit}::int
              ON CONFLICT (consent_key, day) DO UPDATE SET used = b.used + ${n}::int
              WHERE b.used + ${n}::int <= ${limit}::int
              RETURNING used`
            if (granted.length > 0) return { granted: true, used: Number(granted[0]?.used) }
            const rows = yield* sql<{ used: number }>`
              SELECT used FROM tppkit_budget WHERE consent_key = ${key} AND day = ${day}`
            return { granted: false, used: Number(rows[0]?.used ?? 0) }
          }).pipe(Effect.mapError(fail("tryConsume"))),
        usages: (day) =>
          sql<{ consent_key: string; day: string; used: number }>`
            SELECT consent_key, day, used FROM tppkit_budget WHERE day = ${day} ORDER BY consent_key COLLATE "C"`.pipe(
            Effect.map((rows) => rows.map((r) => ({ consentKey: r.consent_key, day: r.day, used: Number(r.used) }))),
            Effect.mapError(fail("usages"))
          ),
        tryAcquireLease: (key, holder, now, expiresAt) =>
          Effect.gen(function* () {
            const taken = yield* sql<{ holder: string; expires_at: string }>`
              INSERT INTO tppkit_lease AS l (lease_key, holder, expires_at) VALUES (${key}, ${holder}, ${expiresAt})
              ON CONFLICT (lease_key) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
              WHERE l.holder = EXCLUDED.holder OR l.expires_at <= ${now}
              RETURNING holder, expires_at`
            if (taken.length > 0) return { acquired: true as const, lease: { holder, expiresAt } }
            const rows = yield* sql<{ holder: string; expires_at: string }>`
              SELECT holder, expires_at FROM tppkit_lease WHERE lease_key = ${key}`
            const row = rows[0]
            // the lease vanished between the two statements (released): try once more
            if (row === undefined) return { acquired: false as const, lease: { holder: "", expiresAt: now } }
            return { acquired: false as const, lease: { holder: row.holder, expiresAt: Number(row.expires_at) } }
          }).pipe(Effect.mapError(fail("tryAcquireLease"))),
        releaseLease: (key, holder) =>
          sql`DELETE FROM tppkit_lease WHERE lease_key = ${key} AND holder = ${holder}`.pipe(
            Effect.asVoid,
            Effect.mapError(fail("releaseLease"))
          ),
        writeSnapshot: (key, snapshot) =>
          sql`INSERT INTO tppkit_snapshot AS s (snapshot_key, taken_at, payload)
              VALUES (${key}, ${snapshot.takenAt}, ${snapshot.payload})
              ON CONFLICT (snapshot_key) DO UPDATE SET taken_at = EXCLUDED.taken_at, payload = EXCLUDED.payload
              WHERE s.taken_at <= EXCLUDED.taken_at`.pipe(Effect.asVoid, Effect.mapError(fail("writeSnapshot"))),
        readSnapshot: (key) =>
          sql<{ taken_at: string; payload: string }>`
            SELECT taken_at, payload FROM tppkit_snapshot WHERE snapshot_key = ${key}`.pipe(
            Effect.map((rows) =>
              Option.map(Option.fromNullishOr(rows[0]), (r) => ({ payload: r.payload, takenAt: Number(r.taken_at) }))
            ),
            Effect.mapError(fail("readSnapshot"))
          )
      })
    })
  )

/**
 * The store on the database at `url` (its own small pool, tables created), e.g. for a bank command given
 * `--database-url`; a database that cannot be reached is a `BudgetStoreError`.
 */
export const layerUrl = (
  url: Redacted.Redacted<string>
): Layer.Layer<BudgetStore.BudgetStore, BankError.BudgetStoreError> =>
  layer(describeUrl(url)).pipe(
    Layer.provide(Database.layer(url, { maxConnections: 2 })),
    Layer.catch((e) =>
      Layer.effect(BudgetStore.BudgetStore)(
        Effect.fail(
          new BankError.BudgetStoreError({
            store: describeUrl(url),
            operation: "open",
            detail: `${e.message}${e.cause instanceof Error && e.cause.message !== e.message ? ` (${e.cause.message})` : ""}`
          })
        )
      )
    )
  )

/**
 * The bank's identity for the daily budget (http's `BankConfig.Settings.bankIdentity`) that every worker of a fleet
 * uses, agreed through its database from what this worker heard the bank announce (README.md, "Daily budget"),
 * whichever worker asks first: an instance (`baseUrl#instance=…`) or a bank that announces none (its base URL) is
 * kept as the fleet's for `baseUrl` and used, replacing an identity another answer gave (the mock bank restarted: a
 * new count); no answer uses the identity kept, and when none is kept yet claims the base URL for the fleet, a claim
 * that every later worker takes whatever it hears. So two workers never count one bank in two budgets: a fleet whose
 * first worker heard nothing counts under the base URL, a mock bank restarted on that address sharing its count
 * (stricter, never more than the bank allows) until the row is removed.
 */
export const bankIdentity = (
  baseUrl: string,
  heard: Budget.Announcement
): Effect.Effect<string, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    if (heard._tag === "NoAnswer") {
      yield* sql`INSERT INTO tppkit_bank_identity (base_url, identity, kind) VALUES (${baseUrl}, ${baseUrl}, 'unanswered')
        ON CONFLICT (base_url) DO NOTHING`
    } else {
      const identity = heard._tag === "Instance" ? heard.identity : baseUrl
      const kind = heard._tag === "Instance" ? "announced" : "none"
      yield* sql`INSERT INTO tppkit_bank_identity (base_url, identity, kind) VALUES (${baseUrl}, ${identity}, ${kind})
        ON CONFLICT (base_url) DO UPDATE SET identity = EXCLUDED.identity, kind = EXCLUDED.kind
        WHERE tppkit_bank_identity.kind <> 'unanswered'`
    }
    const rows = yield* sql<{ identity: string }>`SELECT identity FROM tppkit_bank_identity WHERE base_url = ${baseUrl}`
    return rows[0]?.identity ?? baseUrl
  })

/** The identity a fleet agreed for a bank and what this worker heard of it (`PgBudgetStore.agreeIdentity`). */
export interface Agreed {
  /** The fleet's identity of the bank for the daily budget. */
  readonly identity: string
  /** What this worker heard when it last asked the bank. */
  readonly heard: Budget.Announcement
}

/**
 * Asks the bank which instance it is (`ask`, http's `Budget.announcement`) and agrees the fleet's identity from the
 * answer ({@link bankIdentity}). No answer is asked again, up to `tries` times in all (default 3) after the back-off's
 * waits (default 250 ms, doubled), unless another worker's answer is kept meanwhile (it is then the fleet's): only a
 * bank silent through every try leaves this worker to claim the base URL.
 */
export const agreeIdentity = (
  baseUrl: string,
  ask: Effect.Effect<Budget.Announcement>,
  options?: { readonly tries?: number | undefined; readonly backoff?: Backoff.Backoff | undefined }
): Effect.Effect<Agreed, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const tries = Math.max(1, options?.tries ?? 3)
    const backoff = options?.backoff ?? Backoff.exponential({ initial: "250 millis" })
    let heard = yield* ask
    for (let failures = 1; heard._tag === "NoAnswer" && failures < tries; failures++) {
      const kept = yield* sql<{ identity: string }>`SELECT identity FROM tppkit_bank_identity
        WHERE base_url = ${baseUrl} AND kind <> 'unanswered'`
      if (kept[0] !== undefined) return { identity: kept[0].identity, heard }
      yield* Effect.sleep(Duration.millis(Backoff.nominalMillis(backoff, failures) ?? 0))
      heard = yield* ask
    }
    return { identity: yield* bankIdentity(baseUrl, heard), heard }
  })

/** `PostgreSQL at host:port/database`, without the user or password. */
export const describeUrl = (url: Redacted.Redacted<string>): string => {
  try {
    const u = new URL(Redacted.value(url))
    return `PostgreSQL at ${u.host}${u.pathname}`
  } catch {
    return "PostgreSQL"
  }
}
