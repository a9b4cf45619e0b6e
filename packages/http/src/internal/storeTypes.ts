/**
 * The types of `BudgetStore`'s contract, declared beside its engine (`sqliteStore.ts`): the public module re-exports
 * each and documents the contract.
 */
import type { Effect, Option } from "effect"
import type { BudgetStoreError } from "../BankError.ts"

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

/** What a budget store does (`BudgetStore`'s service): its counts, leases and snapshots. */
export interface Store {
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
