/**
 * The record of funds checks shared by the fleet: one row per payment, keyed by (consent, orderId, nominalDate),
 * planned by the daily sweep, counted before each balance check is sent (so a check repeated after a crash shows
 * `attempts: 2`), and finished with the outcome and the bank's Request-ID and Response-ID; a check without an
 * answer keeps its typed failure as data (the bank client's `BankError`, reason and all). In memory for tests, or
 * in PostgreSQL for a fleet.
 *
 * @since 0.1.0
 */
import { BalanceCheck } from "@tppkit/core"
import { Context, Effect, Layer, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import * as CheckFailure from "./CheckFailure.ts"
import * as CheckRows from "./internal/checkRows.ts"
import * as ChecksMemory from "./internal/checksMemory.ts"
import * as ChecksSql from "./internal/checksSql.ts"

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
export const Verdict = Schema.Literals([...BalanceCheck.Answer.literals, "failed"])

/** How a check ended. */
export type Verdict = typeof Verdict.Type

/** The recorded outcome of a check: its verdict, why it failed, and the identifiers of the request that got it. */
export const Outcome = Schema.Struct({
  outcome: Verdict,
  /** Why the check got no answer, when `outcome` is `failed`. */
  failure: Schema.optionalKey(CheckFailure.CheckFailure),
  requestId: Schema.optionalKey(Schema.String),
  responseId: Schema.optionalKey(Schema.String)
})

/** The recorded outcome of a check. */
export type Outcome = typeof Outcome.Type

/** One row of `tppkit worker status`. */
export interface Row extends Due {
  readonly outcome: Verdict | undefined
  /** Why the check got no answer (a `failed` outcome recorded by this version; older rows have none). */
  readonly failure: CheckFailure.CheckFailure | undefined
  /**
   * Balance-check requests sent for this payment: what the bank received, except that a request in flight when
   * its worker was killed counts as sent although the bank may not have seen it (see `unconfirmed`).
   */
  readonly attempts: number
  /**
   * How many of `attempts` were in flight when their worker died (killed before the answer was recorded): the bank
   * may or may not have received them. 0 for a payment whose every request is confirmed.
   */
  readonly unconfirmed: number
  /** The Correlation-ID of each attempt, in order (each attempt is one logical bank call). */
  readonly correlationIds: ReadonlyArray<string>
  /** When the outcome was recorded (RFC 3339, UTC). */
  readonly checkedAt: string | undefined
  readonly requestId: string | undefined
  readonly responseId: string | undefined
}

/**
 * What `begin` found: the number of the attempt about to be sent, or, when this try of the check had finished
 * already (its worker died after recording the outcome and before the workflow journaled it), the recorded outcome:
 * then nothing is sent again.
 */
export interface Begun {
  readonly attempt: number
  readonly recorded: Outcome | undefined
  /** True when the fence did not hold (this worker no longer owns the check's shard): nothing counted, nothing to send. */
  readonly fenced?: boolean | undefined
}

/**
 * The fencing token of a write for a check: the advisory lock of the check's shard (effect's cluster holds one per
 * shard, `namespace` and `lock` its two keys) and the `application_name` of this worker's database sessions. A write
 * under a fence happens only when, in the same statement, that lock is held by a session of this worker: a worker
 * that lost its shards while it was paused writes nothing for them when it wakes.
 */
export interface Fence {
  readonly namespace: number
  readonly lock: number
  readonly holder: string
}

/** How an attempt ended, for `finish`: its try, its Correlation-ID, and whether its request was sent at all. */
export interface Finished {
  /** The try of the check (1 for the first; a try that failed on a transient fault is followed by try 2, …). */
  readonly tryNo: number
  readonly correlationId: string
  /** False when the request never reached the bank (nothing was sent): the attempt is not counted. */
  readonly sent: boolean
  /** The attempt's number (`Begun.attempt`): an older attempt's outcome never replaces a newer one's. */
  readonly attempt?: number | undefined
  /** The fence of the write (absent: none). */
  readonly fence?: Fence | undefined
  /** Requests the attempt sent beyond its first (a request answered 401, sent again with a new token): counted too. */
  readonly extra?: number | undefined
}

/** Which rows to read. */
export interface Filter {
  /** Only checks planned by this day's sweep. */
  readonly sweepDay?: string | undefined
}

/**
 * The counts of one sweep day's checks: planned, by outcome, still pending, repeated (more than one attempt), the
 * balance-check requests sent for them (every attempt counted), and how many of those were in flight when their
 * worker died (the bank may or may not have seen them).
 */
export interface Summary {
  readonly checks: number
  readonly APPR: number
  readonly DECL: number
  readonly failed: number
  readonly pending: number
  readonly repeated: number
  readonly requests: number
  readonly unconfirmed: number
}

/** Failures of the check store: the database's, as one typed error. */
export class ChecksError extends Schema.TaggedError<ChecksError>()("ChecksError", {
  message: Schema.String
}) {}

/**
 * Where the fleet keeps its checks. The contract every store keeps: `plan` never changes a planned row; `begin`
 * counts an attempt atomically (two runners checking one payment count two attempts), marks it in flight, creates
 * the row when the sweep did not plan it, and sends nothing for a try whose outcome is recorded; an attempt still
 * in flight when the next one begins (its worker died) stays counted and is marked `unconfirmed`; `finish`
 * moves the record forward only (a bank's answer is never replaced by a failure or an older attempt's outcome) and
 * takes back the count of a request that was never sent; a write under a fence that does not hold changes nothing
 * (the store in memory, one process, has no fences); the reads see every change made before them. `test/worker/Checks.test.ts` runs one suite against both stores.
 */
export class Checks extends Context.Service<
  Checks,
  {
    /** Records payments as planned (pending); a payment already planned is left as it is. */
    readonly plan: (due: ReadonlyArray<Due>) => Effect.Effect<void, ChecksError>
    /** Planned payments of a sweep day and consent, in key order. */
    readonly planned: (sweepDay: string, consent: string) => Effect.Effect<ReadonlyArray<Due>, ChecksError>
    /**
     * Counts one attempt of try `tryNo` (default 1) before its request is sent and marks it in flight; or, when
     * that try's outcome is recorded already, returns it (nothing is to be sent).
     */
    readonly begin: (
      due: Due,
      correlationId: string,
      tryNo?: number,
      fence?: Fence | undefined
    ) => Effect.Effect<Begun, ChecksError>
    /**
     * Records the outcome of an attempt and when it arrived, when it moves the record forward (a bank's answer is
     * never replaced; a failure only by an answer or a newer attempt's outcome); an attempt whose request was never
     * sent is no longer counted. Under a fence that does not hold nothing is written.
     */
    readonly finish: (
      due: Due,
      outcome: Outcome,
      checkedAtMillis: number,
      attempt?: Finished
    ) => Effect.Effect<void, ChecksError>
    /** The rows, in execution-date, orderId, nominal-date order. */
    readonly list: (filter?: Filter) => Effect.Effect<ReadonlyArray<Row>, ChecksError>
    /** How many planned checks of a sweep day have no outcome yet. */
    readonly pending: (sweepDay: string) => Effect.Effect<number, ChecksError>
    /** The counts of a sweep day's checks (one aggregate query, not the rows). */
    readonly summary: (sweepDay: string) => Effect.Effect<Summary, ChecksError>
  }
>()("@tppkit/worker/Checks") {
  /** Checks in memory (tests and single-process runs). */
  static readonly layerMemory: Layer.Layer<Checks> = Layer.sync(Checks, () => Checks.of(ChecksMemory.make()))

  /** Checks in PostgreSQL (table `tppkit_checks`, created by `Database.migrate`). */
  static readonly layerSql: Layer.Layer<Checks, never, SqlClient.SqlClient> = Layer.effect(
    Checks,
    Effect.map(
      ChecksSql.make((message) => new ChecksError({ message })),
      (store) => Checks.of(store)
    )
  )
}

/** The DDL of the checks table (idempotent). */
export const ddl: ReadonlyArray<string> = ChecksSql.ddl
