/**
 * The daily budget of unattended standing-order calls (4 a day without the customer present). Every request sent
 * counts (each page, each retry), per consent key and calendar day in a configurable time zone (default
 * Europe/Bratislava); the day comes from effect's `Clock`, so `TestClock` drives it. Counts, listing leases and
 * listing snapshots live in a `BudgetStore`: in memory, in an SQLite file (Node's built-in `node:sqlite`, loaded
 * only when the store is first used), or any shared store that implements the interface (a database for a fleet).
 */
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import type { DatabaseSync, StatementSync } from "node:sqlite"
import { Context, DateTime, Effect, Layer, Option } from "effect"
import { BankConfig } from "./BankConfig.ts"
import { BudgetExhausted, BudgetStoreError } from "./BankError.ts"

/** A lease on one key: who holds it and until when (epoch milliseconds of the callers' clock). */
export interface Lease {
  /** The holder's id, unique per listing attempt (e.g. a UUID), chosen by the caller. */
  readonly holder: string
  /** The lease counts as released at this instant (epoch milliseconds). */
  readonly expiresAt: number
}

/** What `tryAcquireLease` found: the lease is now ours, or the lease somebody else holds. */
export type LeaseResult =
  | { readonly acquired: true; readonly lease: Lease }
  | { readonly acquired: false; readonly lease: Lease }

/** A complete listing kept for later callers: an opaque payload (JSON text) and when it was taken. */
export interface Snapshot {
  /** The listing, as the client encoded it; stores keep it byte for byte and never look inside. */
  readonly payload: string
  /** When the listing completed (epoch milliseconds of the caller's clock). */
  readonly takenAt: number
}

/** The count of one consent key on one day, as `usages` lists it. */
export interface Count {
  readonly consentKey: string
  readonly day: string
  readonly used: number
}

/**
 * Where the budget lives: request counts per consent key and day, a lease per listing key (so that one listing of
 * a consent runs at a time across every process sharing the store) and the last complete listing per listing key.
 *
 * The contract every implementation keeps (the memory and SQLite stores here are the reference):
 * - **Keys are opaque text** chosen by the client (a consent key names environment, bank, client and consent; a
 *   listing key adds the listing's filter). Compare them byte for byte; never parse them. `day` is "YYYY-MM-DD".
 * - **Atomicity.** `tryConsume`, `tryAcquireLease`, `releaseLease` and `writeSnapshot` are each one atomic step
 *   against every other caller of the same store, in this process or another: two `tryConsume` calls can never
 *   both be granted past the limit, and two `tryAcquireLease` calls can never both acquire the same live lease.
 *   Reads (`used`, `usages`, `readSnapshot`) see only committed states.
 * - **Time is the caller's.** Every instant is epoch milliseconds passed in by the caller (effect's `Clock`, so
 *   tests drive it); a store never consults its own clock, so every holder and waiter judges expiry alike.
 * - **A lease** on a key is a promise by its holder that it is fetching that listing now and will write its
 *   snapshot when done. It is live while `now < expiresAt`; an expired lease is as good as none (its holder
 *   crashed or stalled) and the next `tryAcquireLease` takes it over. The holder may renew by acquiring again with
 *   the same holder id and a later expiry. `releaseLease` removes the lease only when the holder id matches, so
 *   a holder whose lease expired and was taken over cannot release the new holder's lease.
 * - **A snapshot** is the last complete listing of a key. `writeSnapshot` replaces the stored one unless the stored
 *   one is newer (a larger `takenAt`); `readSnapshot` returns it unchanged. Snapshots cost no budget.
 * - **Failures are typed.** Every method fails only with `BudgetStoreError` naming the store and where it lives
 *   (file path, database), never with a defect; the client reports it as the reason of a `BankError`.
 */
export class BudgetStore extends Context.Service<
  BudgetStore,
  {
    /** What the store is and where it lives, for messages: `memory`, `SQLite file /path/budget.sqlite`. */
    readonly description: string
    /** Requests counted so far for the consent key on the day; 0 when none. */
    readonly used: (consentKey: string, day: string) => Effect.Effect<number, BudgetStoreError>
    /**
     * Adds `n` to the count of the key and day when the result stays within `limit`, atomically; returns whether
     * it did and the count after (unchanged when refused).
     */
    readonly tryConsume: (
      consentKey: string,
      day: string,
      n: number,
      limit: number
    ) => Effect.Effect<{ readonly granted: boolean; readonly used: number }, BudgetStoreError>
    /** Every consent key with a count on the day, in key order. */
    readonly usages: (day: string) => Effect.Effect<ReadonlyArray<Count>, BudgetStoreError>
    /**
     * Takes the lease of the key for `holder` until `expiresAt` when nobody holds it, its lease has expired
     * (`expiresAt <= now`), or `holder` holds it already (a renewal); atomically. Otherwise returns the live lease.
     */
    readonly tryAcquireLease: (
      key: string,
      holder: string,
      now: number,
      expiresAt: number
    ) => Effect.Effect<LeaseResult, BudgetStoreError>
    /** Removes the lease of the key if `holder` holds it; does nothing otherwise. */
    readonly releaseLease: (key: string, holder: string) => Effect.Effect<void, BudgetStoreError>
    /** Stores the snapshot of the key unless a newer one (larger `takenAt`) is stored already; atomically. */
    readonly writeSnapshot: (key: string, snapshot: Snapshot) => Effect.Effect<void, BudgetStoreError>
    /** The stored snapshot of the key, if any. */
    readonly readSnapshot: (key: string) => Effect.Effect<Option.Option<Snapshot>, BudgetStoreError>
  }
>()("@tppkit/http/BudgetStore") {
  /** Everything in memory: shared by the users of one layer in this process, lost when it ends. */
  static readonly layerMemory: Layer.Layer<BudgetStore> = Layer.sync(BudgetStore, () => {
    const counts = new Map<string, number>()
    const leases = new Map<string, Lease>()
    const snapshots = new Map<string, Snapshot>()
    const k = (key: string, day: string) => JSON.stringify([key, day])
    return BudgetStore.of({
      description: "memory",
      used: (key, day) => Effect.sync(() => counts.get(k(key, day)) ?? 0),
      tryConsume: (key, day, n, limit) =>
        Effect.sync(() => {
          const used = counts.get(k(key, day)) ?? 0
          if (used + n > limit) return { granted: false, used }
          counts.set(k(key, day), used + n)
          return { granted: true, used: used + n }
        }),
      usages: (day) =>
        Effect.sync(() =>
          [...counts]
            .map(([id, used]) => {
              const [consentKey, d] = JSON.parse(id) as [string, string]
              return { consentKey, day: d, used }
            })
            .filter((c) => c.day === day)
            .sort((a, b) => (a.consentKey < b.consentKey ? -1 : a.consentKey > b.consentKey ? 1 : 0))
        ),
      tryAcquireLease: (key, holder, now, expiresAt) =>
        Effect.sync(() => {
          const current = leases.get(key)
          if (current !== undefined && current.holder !== holder && current.expiresAt > now) {
            return { acquired: false, lease: current }
          }
          const lease = { holder, expiresAt }
          leases.set(key, lease)
          return { acquired: true, lease }
        }),
      releaseLease: (key, holder) =>
        Effect.sync(() => {
          if (leases.get(key)?.holder === holder) leases.delete(key)
        }),
      writeSnapshot: (key, snapshot) =>
        Effect.sync(() => {
          const current = snapshots.get(key)
          if (current === undefined || current.takenAt <= snapshot.takenAt) snapshots.set(key, snapshot)
        }),
      readSnapshot: (key) => Effect.sync(() => Option.fromNullishOr(snapshots.get(key)))
    })
  })

  /**
   * Everything in an SQLite file that survives restarts and is safe to share between processes on one machine:
   * each change is one `BEGIN IMMEDIATE` transaction. SQLite is built into Node (`node:sqlite`, Node 22.13 and
   * later); it is imported, and the file opened, only when the store is first used, so a program that never
   * spends budget never needs either. With `createDirectory` the file's folder is made on first use. Every
   * failure, opening included, is a `BudgetStoreError` naming the file. The database is closed with the layer.
   */
  static readonly layerSqlite = (
    path: string,
    options?: { readonly createDirectory?: boolean }
  ): Layer.Layer<BudgetStore> =>
    Layer.effect(
      BudgetStore,
      Effect.gen(function* () {
        const description = `SQLite file ${path}`
        const fail = (operation: string) => (cause: unknown) =>
          new BudgetStoreError({ store: description, operation, detail: detailOf(cause) })
        let opened: DatabaseSync | undefined
        yield* Effect.addFinalizer(() => Effect.sync(() => opened?.close()))
        const open = yield* Effect.cached(
          Effect.gen(function* () {
            if (options?.createDirectory === true) {
              yield* Effect.try({ try: () => mkdirSync(dirname(path), { recursive: true }), catch: fail("open") })
            }
            const sqlite = yield* Effect.tryPromise({
              try: () => import("node:sqlite"),
              catch: (e) =>
                new BudgetStoreError({
                  store: description,
                  operation: "open",
                  detail: `this Node (${process.version}) has no node:sqlite (Node 22.13 or later has it): ${detailOf(e)}`
                })
            })
            return yield* Effect.try({
              try: () => {
                const db = new sqlite.DatabaseSync(path)
                opened = db
                db.exec("PRAGMA busy_timeout = 5000")
                db.exec("PRAGMA journal_mode = WAL")
                db.exec(
                  "CREATE TABLE IF NOT EXISTS tppkit_budget (consent_key TEXT NOT NULL, day TEXT NOT NULL, used INTEGER NOT NULL, PRIMARY KEY (consent_key, day))"
                )
                db.exec(
                  "CREATE TABLE IF NOT EXISTS tppkit_lease (lease_key TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL)"
                )
                db.exec(
                  "CREATE TABLE IF NOT EXISTS tppkit_snapshot (snapshot_key TEXT PRIMARY KEY, taken_at INTEGER NOT NULL, payload TEXT NOT NULL)"
                )
                return sqliteStatements(db)
              },
              catch: fail("open")
            })
          })
        )
        /** Runs `f` on the open database, in one immediate transaction when `write` is set; failures typed. */
        const run = <A>(operation: string, write: boolean, f: (s: Statements) => A) =>
          Effect.flatMap(open, (s) =>
            Effect.try({
              try: () => {
                if (!write) return f(s)
                s.db.exec("BEGIN IMMEDIATE")
                try {
                  const result = f(s)
                  s.db.exec("COMMIT")
                  return result
                } catch (e) {
                  s.db.exec("ROLLBACK")
                  throw e
                }
              },
              catch: fail(operation)
            })
          )
        const usedOf = (s: Statements, key: string, day: string): number => {
          const row = s.selectUsed.get(key, day) as { used?: number } | undefined
          return typeof row?.used === "number" ? row.used : 0
        }
        return BudgetStore.of({
          description,
          used: (key, day) => run("used", false, (s) => usedOf(s, key, day)),
          tryConsume: (key, day, n, limit) =>
            run("tryConsume", true, (s) => {
              s.insertUsed.run(key, day)
              const changed = s.addUsed.run(n, key, day, n, limit).changes
              return { granted: Number(changed) === 1, used: usedOf(s, key, day) }
            }),
          usages: (day) =>
            run("usages", false, (s) =>
              (s.selectDay.all(day) as Array<{ consent_key: string; used: number }>).map((r) => ({
                consentKey: r.consent_key,
                day,
                used: r.used
              }))
            ),
          tryAcquireLease: (key, holder, now, expiresAt) =>
            run("tryAcquireLease", true, (s) => {
              const row = s.selectLease.get(key) as { holder: string; expires_at: number } | undefined
              if (row !== undefined && row.holder !== holder && row.expires_at > now) {
                return { acquired: false, lease: { holder: row.holder, expiresAt: row.expires_at } } as const
              }
              s.upsertLease.run(key, holder, expiresAt)
              return { acquired: true, lease: { holder, expiresAt } } as const
            }),
          releaseLease: (key, holder) =>
            run("releaseLease", true, (s) => {
              s.deleteLease.run(key, holder)
            }),
          writeSnapshot: (key, snapshot) =>
            run("writeSnapshot", true, (s) => {
              s.upsertSnapshot.run(key, snapshot.takenAt, snapshot.payload)
            }),
          readSnapshot: (key) =>
            run("readSnapshot", false, (s) => {
              const row = s.selectSnapshot.get(key) as { taken_at: number; payload: string } | undefined
              return row === undefined ? Option.none() : Option.some({ payload: row.payload, takenAt: row.taken_at })
            })
        })
      })
    )
}

interface Statements {
  readonly db: DatabaseSync
  readonly selectUsed: StatementSync
  readonly insertUsed: StatementSync
  readonly addUsed: StatementSync
  readonly selectDay: StatementSync
  readonly selectLease: StatementSync
  readonly upsertLease: StatementSync
  readonly deleteLease: StatementSync
  readonly upsertSnapshot: StatementSync
  readonly selectSnapshot: StatementSync
}

const sqliteStatements = (db: DatabaseSync): Statements => ({
  db,
  selectUsed: db.prepare("SELECT used FROM tppkit_budget WHERE consent_key = ? AND day = ?"),
  insertUsed: db.prepare("INSERT INTO tppkit_budget (consent_key, day, used) VALUES (?, ?, 0) ON CONFLICT DO NOTHING"),
  addUsed: db.prepare("UPDATE tppkit_budget SET used = used + ? WHERE consent_key = ? AND day = ? AND used + ? <= ?"),
  selectDay: db.prepare("SELECT consent_key, used FROM tppkit_budget WHERE day = ? ORDER BY consent_key"),
  selectLease: db.prepare("SELECT holder, expires_at FROM tppkit_lease WHERE lease_key = ?"),
  upsertLease: db.prepare(
    "INSERT INTO tppkit_lease (lease_key, holder, expires_at) VALUES (?, ?, ?) ON CONFLICT (lease_key) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at"
  ),
  deleteLease: db.prepare("DELETE FROM tppkit_lease WHERE lease_key = ? AND holder = ?"),
  upsertSnapshot: db.prepare(
    "INSERT INTO tppkit_snapshot (snapshot_key, taken_at, payload) VALUES (?, ?, ?) ON CONFLICT (snapshot_key) DO UPDATE SET taken_at = excluded.taken_at, payload = excluded.payload WHERE excluded.taken_at >= tppkit_snapshot.taken_at"
  ),
  selectSnapshot: db.prepare("SELECT taken_at, payload FROM tppkit_snapshot WHERE snapshot_key = ?")
})

const detailOf = (cause: unknown): string =>
  cause instanceof Error ? cause.message : typeof cause === "string" ? cause : "unknown failure"

/** What a consent key names: the environment, the bank (its base URL), the TPP client and the consent. */
export interface ConsentKeyParts {
  readonly environment: string
  readonly baseUrl: string
  readonly clientId: string
  readonly consent: string
}

/**
 * The budget key of a consent at a bank: environment, base URL, client id and consent as JSON text, so that sandbox
 * and live, two banks, or two clients never share counts.
 */
export const consentKey = (parts: ConsentKeyParts): string =>
  JSON.stringify([parts.environment, parts.baseUrl, parts.clientId, parts.consent])

/** The parts of a key made by `consentKey`, or undefined for any other text (a key from elsewhere). */
export const parseConsentKey = (key: string): ConsentKeyParts | undefined => {
  try {
    const parsed: unknown = JSON.parse(key)
    if (Array.isArray(parsed) && parsed.length === 4 && parsed.every((p) => typeof p === "string")) {
      const [environment, baseUrl, clientId, consent] = parsed as [string, string, string, string]
      return { environment, baseUrl, clientId, consent }
    }
  } catch {
    // not a key of ours
  }
  return undefined
}

/** The budget of one consent key today. */
export interface Usage {
  readonly consentKey: string
  /** The calendar day in the budget's time zone, "YYYY-MM-DD". */
  readonly day: string
  readonly used: number
  readonly limit: number
  readonly remaining: number
  /** When the next day's budget starts (RFC 3339, UTC). */
  readonly freesAt: string
}

/** The calendar day of an instant in a time zone, and the instant the following day starts there. */
export const dayOf = (now: DateTime.DateTime, timeZone: string): { readonly day: string; readonly freesAt: string } => {
  const zoned = DateTime.setZoneNamedUnsafe(now, timeZone)
  const nextDay = DateTime.startOf(DateTime.add(DateTime.startOf(zoned, "day"), { days: 1 }), "day")
  return { day: DateTime.formatIsoDate(zoned), freesAt: DateTime.formatIso(DateTime.toUtc(nextDay)) }
}

/** The daily budget of unattended standing-order calls. */
export class Budget extends Context.Service<
  Budget,
  {
    /** Today's usage of the key. */
    readonly usage: (consentKey: string) => Effect.Effect<Usage, BudgetStoreError>
    /** Today's usage of every key that has spent something today. */
    readonly usages: Effect.Effect<ReadonlyArray<Usage>, BudgetStoreError>
    /** Fails with `BudgetExhausted` when `n` more requests would not fit today; spends nothing. */
    readonly ensure: (consentKey: string, n: number) => Effect.Effect<Usage, BudgetExhausted | BudgetStoreError>
    /**
     * Counts `n` requests about to be sent, or fails with `BudgetExhausted` without counting; `listingPages`, when
     * the requests are the rest of a listing of that many pages, is quoted in the refusal.
     */
    readonly spend: (
      consentKey: string,
      n: number,
      listingPages?: number
    ) => Effect.Effect<Usage, BudgetExhausted | BudgetStoreError>
    /** The store underneath, for listing leases and snapshots. */
    readonly store: BudgetStore["Service"]
  }
>()("@tppkit/http/Budget") {
  /** The budget with the configured limit and time zone, over the given store. */
  static readonly layer: Layer.Layer<Budget, never, BankConfig | BudgetStore> = Layer.effect(
    Budget,
    Effect.gen(function* () {
      const config = yield* BankConfig
      const store = yield* BudgetStore
      const { dailyLimit: limit, timeZone } = config.budget
      const today = Effect.map(DateTime.now, (now) => dayOf(now, timeZone))
      const usage = (consentKey: string, used: number, day: string, freesAt: string): Usage => ({
        consentKey,
        day,
        used,
        limit,
        remaining: Math.max(0, limit - used),
        freesAt
      })
      const exhausted = (u: Usage, requested: number, listingPages?: number) =>
        new BudgetExhausted({
          consentKey: u.consentKey,
          limit,
          used: u.used,
          requested,
          freesAt: u.freesAt,
          ...(listingPages === undefined ? {} : { listingPages })
        })
      return Budget.of({
        usage: (consentKey) =>
          Effect.gen(function* () {
            const { day, freesAt } = yield* today
            return usage(consentKey, yield* store.used(consentKey, day), day, freesAt)
          }),
        usages: Effect.gen(function* () {
          const { day, freesAt } = yield* today
          const counts = yield* store.usages(day)
          return counts.map((c) => usage(c.consentKey, c.used, day, freesAt))
        }),
        ensure: (consentKey, n) =>
          Effect.gen(function* () {
            const { day, freesAt } = yield* today
            const u = usage(consentKey, yield* store.used(consentKey, day), day, freesAt)
            return u.remaining >= n ? u : yield* exhausted(u, n)
          }),
        spend: (consentKey, n, listingPages) =>
          Effect.gen(function* () {
            const { day, freesAt } = yield* today
            const { granted, used } = yield* store.tryConsume(consentKey, day, n, limit)
            const u = usage(consentKey, used, day, freesAt)
            return granted ? u : yield* exhausted(u, n, listingPages)
          }),
        store
      })
    })
  )
}
