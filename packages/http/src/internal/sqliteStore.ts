/**
 * The budget store in an SQLite file (Node's built-in `node:sqlite`, imported and the file opened on first use),
 * each change one `BEGIN IMMEDIATE` transaction; `BudgetStore.layerSqlite` is its public face.
 */
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import type { DatabaseSync, StatementSync } from "node:sqlite"
import { Effect, Option, type Scope } from "effect"
import { BudgetStoreError } from "../BankError.ts"
import type { Store } from "./storeTypes.ts"

/**
 * The store over the SQLite file at `path` (its folder made on first use with `createDirectory`), closed with the
 * scope.
 */
export const make = (
  path: string,
  options: { readonly createDirectory?: boolean } | undefined
): Effect.Effect<Store, never, Scope.Scope> =>
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
    return {
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
    }
  })

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
