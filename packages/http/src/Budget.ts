/**
 * The daily budget of section 8: standing-order calls without the customer present are limited to 4 a day.
 * Every request sent counts (each page, each retry), per consent key and calendar day in a configurable time
 * zone (default Europe/Bratislava); the day comes from effect's `Clock`, so `TestClock` drives it. Counts live
 * in a `BudgetStore`: in memory, or in an SQLite file (Node's built-in `node:sqlite`) that survives restarts.
 */
import { DatabaseSync } from "node:sqlite"
import { Context, DateTime, Effect, Layer } from "effect"
import { BankConfig } from "./BankConfig.ts"
import { BudgetExhausted } from "./BankError.ts"

/** Where the counts are kept: one integer per consent key and day, increased atomically within a limit. */
export class BudgetStore extends Context.Service<
  BudgetStore,
  {
    /** Requests counted so far for the key on the day ("YYYY-MM-DD"). */
    readonly used: (consentKey: string, day: string) => Effect.Effect<number>
    /** Adds `n` when the count stays within `limit`, atomically; returns whether it did and the count after. */
    readonly tryConsume: (
      consentKey: string,
      day: string,
      n: number,
      limit: number
    ) => Effect.Effect<{ readonly granted: boolean; readonly used: number }>
  }
>()("@tppkit/http/BudgetStore") {
  /** Counts in memory: lost when the process ends. */
  static readonly layerMemory: Layer.Layer<BudgetStore> = Layer.sync(BudgetStore, () => {
    const counts = new Map<string, number>()
    const k = (key: string, day: string) => JSON.stringify([key, day])
    return BudgetStore.of({
      used: (key, day) => Effect.sync(() => counts.get(k(key, day)) ?? 0),
      tryConsume: (key, day, n, limit) =>
        Effect.sync(() => {
          const used = counts.get(k(key, day)) ?? 0
          if (used + n > limit) return { granted: false, used }
          counts.set(k(key, day), used + n)
          return { granted: true, used: used + n }
        })
    })
  })

  /**
   * Counts in an SQLite file that survives restarts and is safe to share between processes: each increase is
   * one `BEGIN IMMEDIATE` transaction. SQLite is built into Node (no dependency), durable, and atomic across
   * processes, which a plain key-value file is not. The database is closed with the layer.
   */
  static readonly layerSqlite = (path: string): Layer.Layer<BudgetStore> =>
    Layer.effect(
      BudgetStore,
      Effect.gen(function* () {
        const db = yield* Effect.acquireRelease(
          Effect.sync(() => {
            const db = new DatabaseSync(path)
            db.exec("PRAGMA busy_timeout = 5000")
            db.exec("PRAGMA journal_mode = WAL")
            db.exec(
              "CREATE TABLE IF NOT EXISTS tppkit_budget (consent_key TEXT NOT NULL, day TEXT NOT NULL, used INTEGER NOT NULL, PRIMARY KEY (consent_key, day))"
            )
            return db
          }),
          (db) => Effect.sync(() => db.close())
        )
        const select = db.prepare("SELECT used FROM tppkit_budget WHERE consent_key = ? AND day = ?")
        const insert = db.prepare(
          "INSERT INTO tppkit_budget (consent_key, day, used) VALUES (?, ?, 0) ON CONFLICT DO NOTHING"
        )
        const add = db.prepare(
          "UPDATE tppkit_budget SET used = used + ? WHERE consent_key = ? AND day = ? AND used + ? <= ?"
        )
        const read = (key: string, day: string): number => {
          const row = select.get(key, day) as { used?: number } | undefined
          return typeof row?.used === "number" ? row.used : 0
        }
        return BudgetStore.of({
          used: (key, day) => Effect.sync(() => read(key, day)),
          tryConsume: (key, day, n, limit) =>
            Effect.sync(() => {
              db.exec("BEGIN IMMEDIATE")
              try {
                insert.run(key, day)
                const changed = add.run(n, key, day, n, limit).changes
                const used = read(key, day)
                db.exec("COMMIT")
                return { granted: Number(changed) === 1, used }
              } catch (e) {
                db.exec("ROLLBACK")
                throw e
              }
            })
        })
      })
    )
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
    readonly usage: (consentKey: string) => Effect.Effect<Usage>
    /** Fails with `BudgetExhausted` when `n` more requests would not fit today; spends nothing. */
    readonly ensure: (consentKey: string, n: number) => Effect.Effect<Usage, BudgetExhausted>
    /** Counts `n` requests about to be sent, or fails with `BudgetExhausted` without counting. */
    readonly spend: (consentKey: string, n: number) => Effect.Effect<Usage, BudgetExhausted>
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
      const exhausted = (u: Usage, requested: number) =>
        new BudgetExhausted({ consentKey: u.consentKey, limit, used: u.used, requested, freesAt: u.freesAt })
      return Budget.of({
        usage: (consentKey) =>
          Effect.gen(function* () {
            const { day, freesAt } = yield* today
            return usage(consentKey, yield* store.used(consentKey, day), day, freesAt)
          }),
        ensure: (consentKey, n) =>
          Effect.gen(function* () {
            const { day, freesAt } = yield* today
            const u = usage(consentKey, yield* store.used(consentKey, day), day, freesAt)
            return u.remaining >= n ? u : yield* exhausted(u, n)
          }),
        spend: (consentKey, n) =>
          Effect.gen(function* () {
            const { day, freesAt } = yield* today
            const { granted, used } = yield* store.tryConsume(consentKey, day, n, limit)
            const u = usage(consentKey, used, day, freesAt)
            return granted ? u : yield* exhausted(u, n)
          })
      })
    })
  )
}
