/**
 * The pieces both check stores share: a payment's key, a planned row, a row's payment, the listing order and the
 * `checkedAt` text; and the types of `Checks` they work on (its public module re-exports them and documents the store).
 */
import { BalanceCheck, Currency, Iban, LocalDate, Money } from "@tppkit/core"
import { type Effect, Schema } from "effect"
import * as CheckFailure from "../CheckFailure.ts"

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

/** How a check ended: the bank's answer, or `failed` with a `CheckFailure` (`Checks.Verdict`). */
export const Verdict = Schema.Literals([...BalanceCheck.Answer.literals, "failed"])

/** How a check ended. */
export type Verdict = typeof Verdict.Type

/** The recorded outcome of a check (`Checks.Outcome`). */
export const Outcome = Schema.Struct({
  outcome: Verdict,
  /** Why the check got no answer, when `outcome` is `failed`. */
  failure: Schema.optionalKey(CheckFailure.CheckFailure),
  requestId: Schema.optionalKey(Schema.String),
  responseId: Schema.optionalKey(Schema.String)
})

/** The recorded outcome of a check. */
export type Outcome = typeof Outcome.Type

/** What a check store does (`Checks`' service, which documents the contract). */
export interface Store {
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

/** One payment due for a funds check (`Checks.Due`, which documents it). */
export const Due = Schema.Struct({
  consent: Schema.String,
  orderId: Schema.String,
  /** Nominal date of the occurrence. */
  nominalDate: LocalDate.LocalDate,
  /** The date the bank executes the payment. */
  executionDate: LocalDate.LocalDate,
  /** The exact amount (plain decimal text encoded, e.g. "1250.5"). */
  amount: Money.PlainAmount,
  currency: Currency.CurrencyCode,
  debtorIban: Iban.Iban,
  /** The day of the sweep that planned the check. */
  sweepDay: LocalDate.LocalDate,
  /** When to check (epoch milliseconds); 0 or a past instant: right away. */
  checkAt: Schema.Number,
  /**
   * The day of the listing the payment was planned from when it is not the sweep's own (its pages could not be
   * read that day, and the latest complete listing kept for the consent stood in for them).
   */
  listedOn: Schema.optionalKey(LocalDate.LocalDate)
})

type Due = typeof Due.Type
type DueText = typeof Due.Encoded

/** The key of a payment's check: consent, orderId and nominal date (its text, the same as ever). */
export const key = (due: Pick<Due, "consent" | "orderId" | "nominalDate">): string =>
  JSON.stringify([due.consent, due.orderId, LocalDate.format(due.nominalDate)])

/** A payment as the text a store keeps (what `Due` encodes to). */
export const textOf = (d: Due): DueText => ({
  consent: d.consent,
  orderId: d.orderId,
  nominalDate: LocalDate.format(d.nominalDate),
  executionDate: LocalDate.format(d.executionDate),
  amount: Money.toPlainString(d.amount),
  currency: d.currency,
  debtorIban: d.debtorIban,
  sweepDay: LocalDate.format(d.sweepDay),
  checkAt: d.checkAt,
  ...(d.listedOn === undefined ? {} : { listedOn: LocalDate.format(d.listedOn) })
})

/** A planned row: no attempt yet, no outcome. */
export const pendingRow = (d: Due): Row => ({
  ...d,
  outcome: undefined,
  failure: undefined,
  attempts: 0,
  unconfirmed: 0,
  correlationIds: [],
  checkedAt: undefined,
  requestId: undefined,
  responseId: undefined
})

/** The payment a row is for. */
export const dueOf = (r: Row): Due => ({
  consent: r.consent,
  orderId: r.orderId,
  nominalDate: r.nominalDate,
  executionDate: r.executionDate,
  amount: r.amount,
  currency: r.currency,
  debtorIban: r.debtorIban,
  sweepDay: r.sweepDay,
  checkAt: r.checkAt,
  ...(r.listedOn === undefined ? {} : { listedOn: r.listedOn })
})

/** The listing order: execution date, orderId, nominal date, consent. */
export const compareRows = (a: Row, b: Row): number =>
  a.executionDate - b.executionDate ||
  (a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0) ||
  a.nominalDate - b.nominalDate ||
  (a.consent < b.consent ? -1 : a.consent > b.consent ? 1 : 0)

/** An instant as RFC 3339 UTC without milliseconds. */
export const isoSeconds = (millis: number): string => new Date(millis).toISOString().replace(/\.\d{3}Z$/, "Z")

/** The outcome a row records (for a try that finished already). */
export const outcomeOf = (r: Row): Outcome => ({
  outcome: r.outcome ?? "failed",
  ...(r.failure === undefined ? {} : { failure: r.failure }),
  ...(r.requestId === undefined ? {} : { requestId: r.requestId }),
  ...(r.responseId === undefined ? {} : { responseId: r.responseId })
})

/**
 * Whether an attempt's outcome moves a check's record forward: none recorded yet; or a failure recorded and the new
 * outcome is the bank's answer, or comes from the same or a later attempt (`attempt`, the number `begin` gave it;
 * undefined: unknown, treated as the latest). A bank's answer (APPR, DECL) is never replaced.
 */
export const isForward = (
  recorded: Verdict | undefined,
  recordedAttempt: number,
  next: Verdict,
  attempt: number | undefined
): boolean =>
  recorded === undefined || (recorded === "failed" && (next !== "failed" || (attempt ?? Infinity) >= recordedAttempt))
