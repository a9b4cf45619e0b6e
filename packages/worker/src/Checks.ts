/**
 * The record of funds checks shared by the fleet: one row per payment, keyed by (consent, orderId, nominalDate),
 * planned by the daily sweep, counted before each balance check is sent (so a check repeated after a crash shows
 * `attempts: 2`), and finished with the outcome and the bank's Request-ID and Response-ID; a check without an
 * answer keeps its typed failure as data (the bank client's `BankError`, reason and all). In memory for tests, or
 * in PostgreSQL for a fleet.
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import type { Store } from "./internal/checkRows.ts"
import * as CheckRows from "./internal/checkRows.ts"
import * as ChecksMemory from "./internal/checksMemory.ts"
import * as ChecksSql from "./internal/checksSql.ts"

export type { Begun, Fence, Filter, Finished, Row, Store, Summary } from "./internal/checkRows.ts"

/** Failures of the check store: the database's, as one typed error. */
export { ChecksError } from "./internal/checkRows.ts"

/**
 * One payment due for a funds check, as the sweep plans it and the workflow receives it: read once where it enters
 * (the plan, a store's row, a journal), typed with core's schemas; encoded (a workflow's payload, a journal) every
 * field is the text it was before (dates `YYYY-MM-DD`, the amount plain decimal text, the IBAN electronic).
 */
export const Due: typeof CheckRows.Due = CheckRows.Due

/** One payment due for a funds check. */
export type Due = typeof Due.Type

/** A payment due as text (a workflow's payload, a store's row, a journal). */
export type DueText = typeof Due.Encoded

/** A payment as the text a store keeps and a workflow's payload carries (what `Due` encodes to). */
export const text: (due: Due) => DueText = CheckRows.textOf

/** The key of a payment's check: consent, orderId and nominal date; one check per key in the whole fleet. */
export const key: (due: Pick<Due, "consent" | "orderId" | "nominalDate">) => string = CheckRows.key

/** How a check ended: the bank's answer, or `failed` with a `CheckFailure`. */
export const Verdict: typeof CheckRows.Verdict = CheckRows.Verdict

/** How a check ended. */
export type Verdict = typeof Verdict.Type

/** The recorded outcome of a check: its verdict, why it failed, and the identifiers of the request that got it. */
export const Outcome: typeof CheckRows.Outcome = CheckRows.Outcome

/** The recorded outcome of a check. */
export type Outcome = typeof Outcome.Type

/**
 * Where the fleet keeps its checks. The contract every store keeps: `plan` never changes a planned row; `begin`
 * counts an attempt atomically (two runners checking one payment count two attempts), marks it in flight, creates
 * the row when the sweep did not plan it, and sends nothing for a try whose outcome is recorded; an attempt still
 * in flight when the next one begins (its worker died) stays counted and is marked `unconfirmed`; `finish`
 * moves the record forward only (a bank's answer is never replaced by a failure or an older attempt's outcome) and
 * takes back the count of a request that was never sent; a write under a fence that does not hold changes nothing
 * (the store in memory, one process, has no fences); the reads see every change made before them. `test/worker/Checks.test.ts` runs one suite against both stores.
 */
export class Checks extends Context.Service<Checks, Store>()("@tppkit/worker/Checks") {
  /** Checks in memory (tests and single-process runs). */
  static readonly layerMemory: Layer.Layer<Checks> = Layer.sync(Checks, () => Checks.of(ChecksMemory.make()))

  /** Checks in PostgreSQL (table `tppkit_checks`, created by `Database.migrate`). */
  static readonly layerSql: Layer.Layer<Checks, never, SqlClient.SqlClient> = Layer.effect(
    Checks,
    Effect.map(
      ChecksSql.make((message) => new CheckRows.ChecksError({ message })),
      (store) => Checks.of(store)
    )
  )
}

/** The DDL of the checks table (idempotent). */
export const ddl: ReadonlyArray<string> = ChecksSql.ddl
