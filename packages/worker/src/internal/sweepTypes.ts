/**
 * The types, services and workflows of `Sweep` (the public module re-exports them): what the sweep's engines
 * (`consentSweep.ts`, `dailySweep.ts`, `sweepPlan.ts`, `partialListing.ts`, `sweepRun.ts`, …) work on, declared here so
 * that no engine imports the public module.
 */
import { Backoff, type BusinessDayConvention, type Calendar } from "@tppkit/core"
import type { Projection } from "@tppkit/schedule"
import { Context, type Effect, Schema } from "effect"
import type { SqlError } from "effect/sql/SqlError"
import { Workflow } from "effect/workflow"
import { type ListingFailed, ListingFailure } from "./listingFailure.ts"
import { type Consent, ConsentSchema, RecordWarnings, SkippedRecords, UnreadRecords } from "./sweepJournal.ts"

/** What every worker of a fleet is configured with (the same on every worker). */
export interface Settings {
  readonly consents: ReadonlyArray<Consent>
  /** Working days after the sweep day whose payments are checked (default 2). */
  readonly daysBefore: number
  readonly calendar: Calendar.Calendar
  readonly convention?: BusinessDayConvention.BusinessDayConvention | undefined
  /** IANA time zone of the sweep hour and of "today" (default Europe/Bratislava). */
  readonly timeZone: string
  /** Local hour of the daily sweep (default 8). */
  readonly hour: number
  /** How a listing that failed on a transient fault is tried again (default {@link defaultRetry}). */
  readonly retry?: Retry | undefined
}

/**
 * How the sweep tries a consent's listing again after a transient failure (a connection refused or reset, a
 * timeout, 502/503/504, 429 after its Retry-After, a listing cut off by its deadline): the waits of `backoff` (its
 * nominal waits: a workflow's waits are the same when it is replayed, so no jitter is drawn), at most `tries` tries in
 * all. Every try is paid from the consent's daily budget, so the budget bounds the tries too: a try that no longer
 * fits ends the sweep of that consent.
 */
export interface Retry {
  readonly backoff: Backoff.Backoff
  readonly tries: number
}

/** The default retry of a listing: 5 s, doubled up to 5 minutes, 8 tries (about 11 minutes of outage). */
export const defaultRetry: Retry = {
  backoff: Backoff.exponential({ initial: "5 seconds", cap: "5 minutes" }),
  tries: 8
}

/**
 * Where a sweep run reads the consents it lists (the fleet's consents table: `Consents.layerSource`); without it, the
 * settings' consents. Read once per run, as a journaled activity, so a run resumed elsewhere lists the same ones.
 */
export class ConsentSource extends Context.Service<
  ConsentSource,
  { readonly current: Effect.Effect<ReadonlyArray<Consent>, SqlError> }
>()("@tppkit/worker/ConsentSource") {}

/** The sweep's settings as a service. */
export class SweepSettings extends Context.Service<SweepSettings, Settings>()("@tppkit/worker/SweepSettings") {}

/**
 * A consent's standing orders as listed, the listing's pages they came on, and the last complete listing of an
 * earlier day the fleet keeps (absent: none), which the change feed compares the day's with.
 */
export interface Listed {
  readonly orders: ReadonlyArray<Projection.ProjectableOrder>
  readonly pages: number
  /**
   * Orders listed but not planned because their details are pending (a COBS list item of an interval longer than a
   * month names no start: core skips it until its detail is read within a later day's budget), by orderId.
   */
  readonly detailsPending?: ReadonlyArray<string> | undefined
  /** The listing's records that could not be read as orders (absent: none); the good ones around them are planned. */
  readonly unread?: UnreadRecords | undefined
  /** The listing's records read whole that pay nothing, with core's reason (absent: none); the exit is unchanged. */
  readonly skipped?: SkippedRecords | undefined
  /** The warnings of the listing's reading, one per field and reason with a count (absent: none); planned as read. */
  readonly warnings?: RecordWarnings | undefined
  readonly previous?: { readonly day: string; readonly orders: ReadonlyArray<Projection.ProjectableOrder> } | undefined
}

/**
 * What the fleet watches ahead of its checks (`Warnings.layerSql`): the consents a run lists (those the bank said
 * are no longer valid left out, the notices of those near their end raised), each listing read whole (compared with
 * the last one for the change feed), a listing refused because the consent is no longer valid, and the day's orders
 * of every consent swept (the forecast of the accounts with balances for payments at risk). None by default. Watching
 * never holds up a sweep: a failure to record is the watcher's to swallow.
 */
export interface Watcher {
  readonly consents: (day: string, consents: ReadonlyArray<Consent>) => Effect.Effect<ReadonlyArray<Consent>>
  readonly listed: (consent: Consent, day: string, listed: Listed) => Effect.Effect<void>
  readonly expired: (consent: Consent, day: string, failure: ListingFailure) => Effect.Effect<void>
  /**
   * Whether the forecast ahead has accounts to forecast (opening balances given): when not, the day's listings are
   * neither kept nor gathered for it.
   */
  readonly forecasts: Effect.Effect<boolean>
  /**
   * Keeps what of a consent's listing of `day` the day's forecast ahead reads, until the day's run forecasts: the
   * orders paying from or into an account with an opening balance, each reduced to what the forecast reads
   * (`AtRisk.forecastOrders`); nothing when there are no accounts to forecast. `Warnings.layerSql` keeps them in the
   * fleet's database, never in the process.
   */
  readonly keepAhead: (
    consent: string,
    day: string,
    orders: ReadonlyArray<Projection.ProjectableOrder>
  ) => Effect.Effect<void>
  /**
   * The consents among `consents` whose orders of `day` are not kept for the forecast ahead ({@link keepAhead}): a
   * listing that degraded to what is kept, or read by an earlier version.
   */
  readonly unkept: (day: string, consents: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>>
  /** The forecast ahead of `day` from the orders kept for the run's `consents` (in the run's order). */
  readonly ahead: (day: string, consents: ReadonlyArray<string>) => Effect.Effect<void>
}

/** The sweep's watcher, if any. */
export const Watch = Context.Reference<Watcher | undefined>("@tppkit/worker/Sweep/Watch", {
  defaultValue: () => undefined
})

/**
 * What is kept of a consent's listing when it could not be read whole: the orders on the pages kept today, the page
 * numbers kept and not read (undefined: unknown, page 0 was not read or the bank gives no page count), and the
 * orders of the pages not read today as the latest complete listing of an earlier day has them; the records of both
 * that could not be read (`unread`) or pay nothing (`skipped`), the orders whose details are pending
 * (`detailsPending`) and the reading's warnings (`warnings`), as a whole listing names them (absent: none).
 */
export interface Kept {
  readonly orders: ReadonlyArray<Projection.ProjectableOrder>
  readonly pagesKept: ReadonlyArray<number>
  readonly pagesUnread: ReadonlyArray<number> | undefined
  readonly earlier: { readonly day: string; readonly orders: ReadonlyArray<Projection.ProjectableOrder> } | undefined
  readonly unread?: UnreadRecords | undefined
  readonly skipped?: SkippedRecords | undefined
  readonly detailsPending?: ReadonlyArray<string> | undefined
  /** The warnings of what is kept's reading, grouped (see {@link Listed}'s). */
  readonly warnings?: RecordWarnings | undefined
}

/** Where the sweep gets a consent's standing orders; the bank client satisfies it in a worker. */
export class OrderSource extends Context.Service<
  OrderSource,
  {
    /** The consent's whole listing for the sweep of `day`. */
    readonly list: (consent: Consent, day: string) => Effect.Effect<Listed, ListingFailed>
    /** What is kept of the consent's listing of `day` when `list` could not read it whole (absent: nothing). */
    readonly kept?: ((consent: Consent, day: string) => Effect.Effect<Kept, ListingFailed>) | undefined
  }
>()("@tppkit/worker/OrderSource") {}

/** One consent's part of a sweep: the checks planned and started, the listing tries, or why its listing failed. */
export const ConsentSummary = Schema.Struct({
  consent: Schema.String,
  planned: Schema.Number,
  /** The pages of the listing the checks were planned from (absent: carried over from an earlier run). */
  pages: Schema.optionalKey(Schema.Number),
  /** Listings tried for this consent by this run (absent: one, or carried over from an earlier run). */
  tries: Schema.optionalKey(Schema.Number),
  /** The bank profile the consent was listed with (absent: the worker's own). */
  profile: Schema.optionalKey(Schema.String),
  /** A consent past its validity on the sweep's day: its last valid day; nothing was listed or planned. */
  expired: Schema.optionalKey(Schema.String),
  failure: Schema.optionalKey(ListingFailure),
  /** A listing not read whole: the pages kept today. */
  pagesKept: Schema.optionalKey(Schema.Number),
  /** A listing not read whole: the pages not read today ("unknown" when page 0 was not read). */
  pagesUnread: Schema.optionalKey(Schema.Union([Schema.Array(Schema.Number), Schema.Literal("unknown")])),
  /** The day of the earlier complete listing the orders of the pages not read were planned from. */
  plannedFrom: Schema.optionalKey(Schema.String),
  /** How many of `planned` came from that earlier listing. */
  plannedFromEarlier: Schema.optionalKey(Schema.Number),
  /** Orders listed but not planned because their details are pending (read within a later day's budget). */
  detailsPending: Schema.optionalKey(Schema.Array(Schema.String)),
  /** Records of the listing that could not be read (the good ones around them are planned; `worker --once` exits 7). */
  unread: Schema.optionalKey(UnreadRecords),
  /** Records of the listing read whole that pay nothing, with the reason (nothing to plan; the exit is unchanged). */
  skipped: Schema.optionalKey(SkippedRecords),
  /** The warnings of the listing's reading, one per field and reason with a count (the records planned as read). */
  warnings: Schema.optionalKey(RecordWarnings)
})

/** One consent's part of a sweep. */
export type ConsentSummary = typeof ConsentSummary.Type

/**
 * What a day's sweep did: per consent, the checks planned and started, or why its listing failed (as data);
 * `run` is the run of the day (absent: the first; a failed sweep run again is run 1, 2, …).
 */
export const Summary = Schema.Struct({
  day: Schema.String,
  run: Schema.optionalKey(Schema.Number),
  consents: Schema.Array(ConsentSummary)
})

/** What a day's sweep did. */
export type Summary = typeof Summary.Type

/** Whether a sweep completed: every consent listed and its checks planned and started. */
export const isComplete = (summary: Summary): boolean => summary.consents.every((c) => c.failure === undefined)

/**
 * The sweep of one day, keyed by the day and its run: each run executes once in the whole cluster. The first run
 * of a day is keyed by the day alone; a day whose sweep failed is run again as run 1, 2, … (`sweepNow`), carrying
 * the consents already swept (`carried`) so that they are neither listed nor planned again.
 */
export const DailySweep = Workflow.make("tppkit/DailySweep", {
  payload: {
    day: Schema.String,
    run: Schema.optionalKey(Schema.Number),
    carried: Schema.optionalKey(Schema.Array(ConsentSummary))
  },
  success: Summary,
  idempotencyKey: (p) => (p.run === undefined || p.run === 0 ? p.day : `${p.day}#${p.run}`)
})

/**
 * A consent's part of a day's sweep run: its own workflow keyed by day, run and consent, so that it runs once in the
 * fleet, on the consent's shard (the consents of a day spread over the fleet's workers, each listing at once), and a
 * run resumed elsewhere neither repeats a finished try nor waits again for a wait that has passed.
 */
export const ConsentSweep = Workflow.make("tppkit/ConsentSweep", {
  payload: {
    day: Schema.String,
    run: Schema.optionalKey(Schema.Number),
    consent: ConsentSchema
  },
  success: ConsentSummary,
  idempotencyKey: (p) => `${p.day}#${p.run ?? 0}/${p.consent.key}/${p.consent.iban ?? ""}`
})

/**
 * How many consents' workflows a sweep run has started and not finished at once, fleet-wide (default 64); a fleet on
 * its database raises it to twice the listings its healthy runners read at once (runners × `ListingsInFlight` × 2).
 */
export const SweepFanOut = Context.Reference<number>("@tppkit/worker/Sweep/SweepFanOut", { defaultValue: () => 64 })

/**
 * The most listings one worker reads at once (default 8): the consents' workflows on its shards wait for a place,
 * so that a worker's memory and its share of the bank's rate stay bounded however many consents its shards hold.
 */
export const ListingsInFlight = Context.Reference<number>("@tppkit/worker/Sweep/ListingsInFlight", {
  defaultValue: () => 8
})

/** The payload of a day's sweep run: the day, its run (absent: the first) and the consents it carries. */
export type RunPayload = typeof DailySweep.payloadSchema.Type
