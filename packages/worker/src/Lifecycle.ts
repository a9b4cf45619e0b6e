/**
 * A worker's life as events (joined, shards held, next sweep, sweep started/finished, retries scheduled, left),
 * handed to the listeners in {@link Listeners} (the log lines, the metrics), and their one-line form: logfmt by
 * default, or one JSON object a line, always with the cause first when there is one and never a stack trace. The
 * same shortening applies to effect's own log messages (the cluster's warnings) through {@link logger}.
 *
 * @since 0.1.0
 */

import type { Cause } from "effect"
import { Context, Effect, Layer } from "effect"
import { CheckObserver } from "./FundsCheckWorkflow.ts"
import type { Event, Listener } from "./internal/lifecycleEvents.ts"
import * as Lines from "./internal/lifecycleLines.ts"

export type {
  CheckFinished,
  ConsentExpired,
  ConsentResult,
  DatabaseBack,
  DatabaseUnreachable,
  DetailsPending,
  Event,
  Format,
  Joined,
  Left,
  Listener,
  ListingPartial,
  ListingRetry,
  NextSweep,
  RecordsSkipped,
  RecordsUnread,
  RecordsWarned,
  RunFinished,
  ShardsHeld,
  ShardsLost,
  SweepFinished,
  SweepStarted,
  WebhookFailed,
  WebhookRetry
} from "./internal/lifecycleEvents.ts"

/** How many repeated checks a `run_finished` line names (the rest are counted; `worker status` lists them all). */
export const namedRepeats: typeof Lines.namedRepeats = Lines.namedRepeats

/**
 * A sweep's listing failure in the words of a worker's operator: a refusal by the daily budget names only the ways
 * out a worker has (the day's sweep runs again later; a consent too large for the budget is split), not the bank
 * commands' flags (README.md, "Daily budget"); anything else is its own message.
 */
export const listingCause: (failure: { readonly message: string }) => string = Lines.listingCause

/**
 * The typed reason of a failure: a `BankError`'s reason tag (`BudgetExhausted`, `TransportFailure`, …), or the
 * failure's own tag (`InvalidIban`, `ChecksError`).
 */
export const reasonOf: (failure: { readonly message: string }) => string | undefined = Lines.reasonOf

/** The `SweepFinished` event of a sweep run's consents (each planned count, or its listing's failure). */
export const finished: typeof Lines.finished = Lines.finished

/** The listeners of this worker's events; none by default. */
export const Listeners = Context.Reference<ReadonlyArray<Listener>>("@tppkit/worker/Lifecycle/Listeners", {
  defaultValue: () => []
})

/** Tells every listener of an event. */
export const emit = (event: Event): Effect.Effect<void> =>
  Effect.flatMap(Listeners, (listeners) =>
    listeners.length === 0 ? Effect.void : Effect.forEach(listeners, (l) => l.emit(event), { discard: true })
  )

/** The longest message or cause a line carries; the rest is cut with `…`. */
export const maxText: typeof Lines.maxText = Lines.maxText

/** A text on one line without stack-trace lines, cut to {@link maxText} characters. */
export const shorten: (text: string) => string = Lines.shorten

/** The instant in a time zone, as `2026-11-26T08:00:00+01:00`. */
export const localTime: (at: number, timeZone: string) => string = Lines.localTime

/**
 * An event's fields in line order: the level and name first, then the cause (if any), then the rest. A finished
 * check has a line only when it is tried again (`check_retry`); answers and final failures are counted in the
 * metrics and listed by `worker status`, not logged.
 */
export const fields: (event: Event) => ReadonlyArray<readonly [string, string | number]> = Lines.fields

/** Fields as one line: `time=… key=value …` (logfmt, quoted where needed) or one JSON object. */
export const format: typeof Lines.format = Lines.format

/** An event as one line. */
export const line: typeof Lines.line = Lines.line

/** A listener that writes each event as one line to `write` (e.g. stderr); events without fields are not written. */
export const lineListener: typeof Lines.lineListener = Lines.lineListener
/**
 * The listeners of this worker's events, and the check observer that tells them of each finished check
 * (`CheckFinished`).
 */
export const layer = (listeners: ReadonlyArray<Listener>): Layer.Layer<never> =>
  Layer.mergeAll(
    Layer.succeed(Listeners)(listeners),
    Layer.succeed(CheckObserver)({
      finished: (due, outcome, attempt, millis) =>
        Effect.forEach(listeners, (l) => l.emit({ _tag: "CheckFinished", due, outcome, attempt, millis }), {
          discard: true
        })
    })
  )

/**
 * An error in one line: its message (or its short name when it has none, as effect's cluster errors), followed by
 * what caused it when that says more (`PersistenceError: Failed to connect: connect ECONNREFUSED 127.0.0.1:5433`),
 * up to three causes deep; never a stack.
 */
export const errorText: typeof Lines.errorText = Lines.errorText

/** The first failure's message of a cause, without its stack (interruptions and defects named as such). */
export const causeText: (cause: Cause.Cause<unknown>) => string | undefined = Lines.causeText

/**
 * A logger for effect's own messages (the cluster's warnings, the workflow engine's errors): one line each, the
 * cause first and cut short, then the message cut short, never a stack trace, at most at level `warn` (what a fault
 * cost is said by the worker's own events); the same message again within {@link repeatWindowMillis} is counted
 * and its count written with its next line (`repeated=N`); `write` gets the line.
 */
export const logger: typeof Lines.logger = Lines.logger

/** How long an effect log message repeated is counted instead of written again. */
export const repeatWindowMillis: typeof Lines.repeatWindowMillis = Lines.repeatWindowMillis
