/**
 * The types of `Lifecycle`'s events and listeners (and of the webhook outbox's deliveries they report), declared beside
 * the engines that write and make them (`lifecycleLines.ts`, `webhookOutbox.ts`): the public module re-exports each.
 */
import type { Effect } from "effect"
import type { Due, Outcome } from "../Checks.ts"

/** The worker joined the fleet: the database's `host:port` and the consents it sweeps. */
export interface Joined {
  readonly _tag: "Joined"
  readonly database: string
  readonly consents: number
}

/** The shards this worker holds changed (of `total`). */
export interface ShardsHeld {
  readonly _tag: "ShardsHeld"
  readonly count: number
  readonly total: number
}

/** When the next daily sweep runs: the instant, and the hour's day and time zone. */
export interface NextSweep {
  readonly _tag: "NextSweep"
  readonly at: number
  readonly timeZone: string
}

/** A day's sweep run started on this worker, over `consents` consents. */
export interface SweepStarted {
  readonly _tag: "SweepStarted"
  readonly day: string
  readonly run: number
  readonly consents: number
  /** The keys of the consents this run lists (absent: the worker's configured ones). */
  readonly keys?: ReadonlyArray<string> | undefined
}

/**
 * A day's sweep run finished: the checks it planned, and the consents whose listing failed with the cause
 * (`failed` empty: complete).
 */
export interface SweepFinished {
  readonly _tag: "SweepFinished"
  readonly day: string
  readonly run: number
  readonly consents: number
  readonly planned: number
  readonly failed: ReadonlyArray<{ readonly consent: string; readonly cause: string }>
  /** Each consent's part: the checks planned, the listings tried, and the cause and typed reason of a failure. */
  readonly results: ReadonlyArray<ConsentResult>
}

/** One consent's part of a finished sweep run. */
export interface ConsentResult {
  readonly consent: string
  readonly planned: number
  readonly tries: number
  readonly cause?: string | undefined
  readonly reason?: string | undefined
}

/**
 * A consent is past its validity on the sweep's day (its last valid day, `validUntil`, is before it): nothing is listed
 * or planned for it until the customer grants it again and `tppkit consents add` records the new validity.
 */
export interface ConsentExpired {
  readonly _tag: "ConsentExpired"
  readonly day: string
  readonly consent: string
  readonly validUntil: string
}

/** A listing of a consent failed on a transient fault and is tried again after `waitMillis`. */
export interface ListingRetry {
  readonly _tag: "ListingRetry"
  readonly day: string
  readonly consent: string
  readonly tries: number
  readonly waitMillis: number
  readonly cause: string
  /** The failure's typed reason (`TransportFailure`, `ServiceUnavailable`, …). */
  readonly reason?: string | undefined
}

/**
 * A consent's listing could not be read whole within its tries or its budget: the pages kept today, the pages not
 * read ("unknown" when page 0 was not), the day of the earlier complete listing their orders were planned from
 * (absent: none kept, those orders are left unplanned), and the checks planned in all and from that listing.
 */
export interface ListingPartial {
  readonly _tag: "ListingPartial"
  readonly day: string
  readonly consent: string
  readonly pagesKept: number
  readonly pagesUnread: ReadonlyArray<number> | "unknown"
  readonly plannedFrom: string | undefined
  readonly planned: number
  readonly plannedFromEarlier: number
  readonly cause: string
}

/**
 * A consent's listing named orders the sweep could not plan because their details are pending (a COBS list item of
 * an interval longer than a month names no start): they are planned once a later day's budget reads their details.
 */
export interface DetailsPending {
  readonly _tag: "DetailsPending"
  readonly day: string
  readonly consent: string
  /** The orderIds left unplanned today. */
  readonly orders: ReadonlyArray<string>
}

/**
 * A consent's listing had records that could not be read as standing orders (malformed, a required field missing or
 * invalid, or not readable in the bank's standard): the good ones were planned; these are said, never dropped.
 */
export interface RecordsUnread {
  readonly _tag: "RecordsUnread"
  readonly day: string
  readonly consent: string
  /** How many records could not be read. */
  readonly count: number
  /** The first few, with their 1-based position and the reason. */
  readonly first: ReadonlyArray<{ readonly position: string; readonly reason: string }>
  /** No record of the listing could be read: nothing was planned from it (absent: the others were read). */
  readonly nothingRead?: boolean | undefined
}

/**
 * A consent's listing had records read whole that yield no payment (an end before the start, no anchor, inactive, no
 * date the rule reaches): nothing to plan for them; they are named with core's reason.
 */
export interface RecordsSkipped {
  readonly _tag: "RecordsSkipped"
  readonly day: string
  readonly consent: string
  /** How many records pay nothing. */
  readonly count: number
  /** The first few, with their 1-based position and the reason. */
  readonly first: ReadonlyArray<{ readonly position: string; readonly reason: string }>
}

/**
 * A consent's listing was read with warnings of one field and reason (a tolerance such as a frequency code in lower
 * case, an amount kept out of the bank's format, another standard's loss or default): how many records raised it and
 * the first few orderIds; they were planned as read. One event per field and reason.
 */
export interface RecordsWarned {
  readonly _tag: "RecordsWarned"
  readonly day: string
  readonly consent: string
  readonly field: string
  readonly reason: string
  /** How many records raised it. */
  readonly count: number
  /** The first few of them. */
  readonly orderIds: ReadonlyArray<string>
}

/**
 * A balance check finished on this worker: its payment, outcome, attempt and time at the bank. One that failed on
 * a transient fault is tried again with back-off (a retry scheduled); one that failed otherwise has its final answer.
 */
export interface CheckFinished {
  readonly _tag: "CheckFinished"
  readonly due: Due
  readonly outcome: Outcome
  readonly attempt: number
  readonly millis: number
}

/** A webhook delivery failed and is tried again after `waitMillis` (the event stays in the outbox meanwhile). */
export interface WebhookRetry extends Retry {
  readonly _tag: "WebhookRetry"
}

/**
 * A webhook delivery given up: its last attempt failed, or its endpoint answered 410 Gone and is disabled (`tppkit
 * webhook replay` sends it again, `tppkit webhook enable` turns the endpoint back on).
 */
export interface WebhookFailed extends Failed {
  readonly _tag: "WebhookFailed"
}

/** The fleet's database stopped answering this worker (a query got no answer within its deadline, or failed). */
export interface DatabaseUnreachable {
  readonly _tag: "DatabaseUnreachable"
  readonly cause: string
}

/** The fleet's database answers this worker again, `afterMillis` after it stopped. */
export interface DatabaseBack {
  readonly _tag: "DatabaseBack"
  readonly afterMillis: number
}

/**
 * This worker lost the shards it held (`held` before): its process was paused or stalled for `pausedMillis` (longer
 * than its shard locks last), or they went to other workers; the checks on them are the new owners' to run, and this
 * worker writes nothing for them.
 */
export interface ShardsLost {
  readonly _tag: "ShardsLost"
  readonly held: number
  readonly pausedMillis: number | undefined
}

/**
 * A `--once` run's day is done: its checks, every check asked more than once (its attempts, and how many of them
 * were in flight when a worker died, so the bank may not have seen them), how many of the day's checks an earlier
 * day's listing stood in for (`listedOn`), and each consent whose payments were left unplanned (its pages not read,
 * and why).
 */
export interface RunFinished {
  readonly _tag: "RunFinished"
  readonly day: string
  readonly checks: number
  readonly repeats: ReadonlyArray<{
    readonly consent: string
    readonly orderId: string
    readonly nominalDate: string
    readonly attempts: number
    readonly unconfirmed: number
  }>
  readonly standIns: number
  readonly unplanned: ReadonlyArray<{
    readonly consent: string
    readonly pagesUnread: ReadonlyArray<number> | "unknown"
    readonly cause: string
  }>
}

/** The worker left the fleet (its shards handed to the others). */
export interface Left {
  readonly _tag: "Left"
  readonly reason: string
}

/** Every lifecycle event of a worker. */
export type Event =
  | Joined
  | ShardsHeld
  | NextSweep
  | SweepStarted
  | SweepFinished
  | ListingRetry
  | ListingPartial
  | ConsentExpired
  | DetailsPending
  | RecordsUnread
  | RecordsSkipped
  | RecordsWarned
  | CheckFinished
  | WebhookRetry
  | WebhookFailed
  | DatabaseUnreachable
  | DatabaseBack
  | ShardsLost
  | RunFinished
  | Left

/** Something told of each event (the log, the metrics). */
export interface Listener {
  readonly emit: (event: Event) => Effect.Effect<void>
}

/** How lines are written: logfmt (`key=value …`) or one JSON object a line. */
export type Format = "logfmt" | "json"

/** A delivery that failed and is tried again. */
export interface Retry {
  readonly eventId: string
  readonly type: string
  /** The endpoint as `Webhook.displayUrl` shows it. */
  readonly endpoint: string
  readonly attempt: number
  readonly waitMillis: number
  readonly cause: string
}

/** A delivery given up: its last attempt failed, or its endpoint answered 410 Gone and is disabled now. */
export interface Failed {
  readonly eventId: string
  readonly type: string
  /** The endpoint as `Webhook.displayUrl` shows it. */
  readonly endpoint: string
  readonly attempt: number
  readonly cause: string
  /** The endpoint answered 410 Gone: no more deliveries to it until `tppkit webhook enable` turns it back on. */
  readonly disabled: boolean
}
