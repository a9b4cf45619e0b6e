/**
 * Where the daily budget lives (see `Budget`): the contract every store keeps, the store in memory, and the store in
 * an SQLite file (its engine is `internal/sqliteStore.ts`). A shared store for a fleet implements the same contract
 * (the worker's `PgBudgetStore` on PostgreSQL).
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer, Option } from "effect"
import * as SqliteStore from "./internal/sqliteStore.ts"

import type { Lease, Snapshot, Store } from "./internal/storeTypes.ts"

export type { Count, Lease, LeaseResult, Snapshot, Store } from "./internal/storeTypes.ts"

/**
 * Where the budget lives: request counts per consent key and day, a lease per listing key (so that one listing of
 * a consent runs at a time across every process sharing the store) and the last complete listing per listing key.
 *
 * The contract every implementation keeps (the memory and SQLite stores here are the reference):
 * - **Keys are opaque text** chosen by the client (a consent key names environment, bank, client and consent; a
 *   listing key adds the listing's filter). Compare them byte for byte; never parse them. `day` is "YYYY-MM-DD".
 * - **Refunds.** `tryConsume` with a negative `n` gives back requests counted but never sent (always granted:
 *   it lowers the count); the count of a day never goes below what was granted and not given back.
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
export class BudgetStore extends Context.Service<BudgetStore, Store>()("@tppkit/http/BudgetStore") {
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
  ): Layer.Layer<BudgetStore> => Layer.effect(BudgetStore, Effect.map(SqliteStore.make(path, options), BudgetStore.of))
}
