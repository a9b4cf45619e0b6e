/**
 * The daily sweep: for each configured consent, list the standing orders (an unattended listing, within the daily
 * budget), project them with the schedule package and plan a funds check for every payment executing from the
 * sweep day up to and including the N-th working day after it; then start each payment's durable workflow. The
 * sweep of a day is itself a workflow keyed by the day, so however many workers ask for it, it runs once; the
 * cluster-wide `ClusterCron` asks for it every day at the configured hour in the configured time zone
 * (DST-correct), and a run missed while the fleet was down is caught up when it comes back.
 *
 * @since 0.1.0
 */
import { Backoff, type BusinessDayConvention, Calendar, LocalDate, type Orders } from "@tppkit/core"
import type { Projection } from "@tppkit/schedule"
import { Context, Cron, DateTime, Effect, Exit, Layer, Option, Schema, Semaphore } from "effect"
import { ClusterCron } from "effect/cluster"
import type { Sharding } from "effect/cluster/Sharding"
import type { SqlError } from "effect/sql/SqlError"
import { Workflow, type WorkflowEngine } from "effect/workflow"
import type { Checks, ChecksError, Due } from "./Checks.ts"
import * as ConsentSweepRun from "./internal/consentSweep.ts"
import * as DailySweepRun from "./internal/dailySweep.ts"
import { type ListingFailed, ListingFailure } from "./internal/listingFailure.ts"
import * as ListingRetry from "./internal/listingRetry.ts"
import * as PartialListing from "./internal/partialListing.ts"
import { abandonOnShardLoss } from "./internal/shardGuard.ts"
import { ConsentSchema, RecordWarnings, SkippedRecords, UnreadRecords } from "./internal/sweepJournal.ts"
import * as SweepPlan from "./internal/sweepPlan.ts"

/**
 * A consent whose standing orders the sweep lists: its budget key, and optionally one account (IBAN filter), the bank
 * profile it is listed and checked with (absent: the worker's own) and the last day it is valid (absent: no end known).
 */
export interface Consent {
  readonly key: string
  readonly iban?: string | undefined
  readonly profile?: string | undefined
  readonly validUntil?: string | undefined
}

/**
 * Whether a consent is past its validity on a day (its `validUntil` before the day): the sweep lists nothing for it
 * and says so, since the bank would refuse the listing (the customer must grant it again).
 */
export const isExpired: (consent: Consent, day: string) => boolean = SweepPlan.isExpired

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

/** The wait before try `n + 1` (n ≥ 1) after `failure`: the back-off, or the bank's Retry-After when longer. */
export const backoffMillis: (retry: Retry, n: number, failure: ListingFailure) => number = ListingRetry.backoffMillis

/**
 * Whether a listing failure may pass, so that the sweep tries again: http's transient reasons, a listing cut off by
 * its deadline (docs/bank-interface.md, "Daily limit": the sweep owns the listing and may try again later), and the
 * fleet's database out of reach (the budget store, or the check store while the checks are planned).
 */
export const isTransient: (failure: ListingFailure) => boolean = ListingRetry.isTransient

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
 * Why a consent's standing orders could not be listed (`ListingFailure`, a schema and its type: the bank client's
 * failure, a bad IBAN filter (`InvalidIban`), the check store's failure, a profile this worker has no bank for, or no
 * customer refresh token (`NoGrant`)), and a consent whose listing failed with it (`ListingFailed`).
 */
export { InvalidIban, ListingFailed, ListingFailure, NoGrant } from "./internal/listingFailure.ts"

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
   * neither held in memory nor gathered for it.
   */
  readonly forecasts: Effect.Effect<boolean>
  /**
   * What of a listing the day's forecast ahead reads, held until it runs: the orders paying from or into an account
   * with an opening balance, each reduced to what the forecast reads (`AtRisk.forecastOrders`); undefined when there
   * are no accounts to forecast (nothing is held).
   */
  readonly aheadOrders: (
    orders: ReadonlyArray<Projection.ProjectableOrder>
  ) => Effect.Effect<ReadonlyArray<Projection.ProjectableOrder> | undefined>
  readonly ahead: (
    day: string,
    listings: ReadonlyArray<{ readonly consent: string; readonly orders: ReadonlyArray<Projection.ProjectableOrder> }>
  ) => Effect.Effect<void>
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

/**
 * A listing's orders keyed for the fleet: an orderId that several records of the listing give becomes `ID#N`, the
 * N-th record (from 1, in listing order) that gives it (core's `Orders.keys`), so that each record's payments are
 * checked on their own, never merged into one check (issue 34); the orders as they are when no orderId repeats.
 * `repeated` names each such orderId with its records' positions (from 1).
 */
export const keyed: <A extends { readonly orderId: string }>(
  orders: ReadonlyArray<A>
) => { readonly orders: ReadonlyArray<A>; readonly repeated: ReadonlyArray<Orders.Repeated> } = SweepPlan.keyed

/** The instant a day's sweep hour begins in a time zone (epoch milliseconds), DST-correct. */
export const instantOf: (day: LocalDate.LocalDate, hour: number, timeZone: string) => number = SweepPlan.instantOf

/**
 * The checks a sweep on `day` plans for one consent's orders (pure): every payment executing from `day` up to and
 * including the `daysBefore`-th working day after it, each to be checked on its trigger day (`daysBefore` working
 * days before its execution date) or right away when that day is not after the sweep day.
 */
export const plan: (
  orders: ReadonlyArray<Projection.ProjectableOrder>,
  consent: string,
  day: LocalDate.LocalDate,
  settings: Pick<Settings, "daysBefore" | "calendar" | "convention" | "timeZone" | "hour">
) => Array<Due> = SweepPlan.plan

/** A payment the sweep cannot check: its debtor IBAN or currency is not one (nothing can be sent for it). */
export interface Unplannable extends SweepPlan.Unplannable {}

/**
 * An order the projection refuses whole although core read it: its amount is not a positive `[9.2]` amount (README.md,
 * "Wire formats"; kept exactly, never rounded), so it pays nothing: its 1-based position, orderId and the reason.
 */
export interface Refused extends SweepPlan.Refused {}

/**
 * The checks a sweep plans ({@link plan}), the payments it cannot check, each with why (a debtor IBAN or currency
 * that is not one): the sweep logs those; and the orders whose amount the rules refuse (`refused`): the sweep names
 * them with the listing's skipped records.
 */
export const planned: (
  orders: ReadonlyArray<Projection.ProjectableOrder>,
  consent: string,
  day: LocalDate.LocalDate,
  settings: Pick<Settings, "daysBefore" | "calendar" | "convention" | "timeZone" | "hour">
) => {
  readonly due: Array<Due>
  readonly unplannable: Array<Unplannable>
  readonly refused: Array<Refused>
} = SweepPlan.planned

/**
 * The records of a consent's listing that could not be read as standing orders (malformed, a required field missing
 * or invalid, or not readable in the bank's `standard`): how many, and the first few (at most `unreadNamed`) with
 * their 1-based position and core's reason (issue 34, "Nothing silent"). A schema and its type.
 */
/**
 * The records of a consent's listing read whole that yield no payment (core's reason: an end before the start, no
 * anchor, inactive, no date the rule reaches): how many, and the first few (at most
 * `unreadNamed`) with their 1-based position and reason (issue 34, "Nothing silent"). A schema and its type.
 */
/**
 * The warnings of a consent's listing's reading, grouped (issue 34, "Said, never guessed"): one entry per field and
 * reason (a tolerance such as a frequency code in lower case, an amount kept out of the bank's format, another
 * standard's loss or default) with how many records raised it and the first few (`warnedNamed`) orderIds; the records
 * are planned as read. A schema and its type.
 */
export { RecordWarnings, SkippedRecords, UnreadRecords, unreadNamed, warnedNamed } from "./internal/sweepJournal.ts"

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

/** How many workflow starts are in flight at once while a sweep starts its checks. */
export const startConcurrency: number = ConsentSweepRun.startConcurrency

/** Starts the durable check of every planned payment of a day and consent (each start is idempotent). */
export const startPlanned: (
  day: string,
  consent: string
) => Effect.Effect<number, ChecksError, Checks | WorkflowEngine.WorkflowEngine> = ConsentSweepRun.startPlanned

/** What the sweep planned of a consent whose listing could not be read whole. */
export const PartialSchema: typeof PartialListing.PartialSchema = PartialListing.PartialSchema

/** What the sweep planned of a consent whose listing could not be read whole. */
export type Partial = PartialListing.Partial

/** Whether every page not read today was planned from an earlier complete listing (or every page was kept). */
export const isCovered: (partial: Partial) => boolean = PartialListing.isCovered

/**
 * Whether a listing's failure leaves a consent's day to what is kept (the pages read, an earlier listing): a fault
 * that may pass and did not within the tries, or the daily budget spent; not a refusal (a consent revoked, a
 * client refused), which no kept listing can stand in for.
 */
export const degradable: (failure: ListingFailure) => boolean = ListingRetry.degradable

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

/** How many consents' workflows a sweep run has started and not finished at once, fleet-wide (default 64). */
export const SweepFanOut = Context.Reference<number>("@tppkit/worker/Sweep/SweepFanOut", { defaultValue: () => 64 })

/**
 * The most listings one worker reads at once (default 8): the consents' workflows on its shards wait for a place,
 * so that a worker's memory and its share of the bank's rate stay bounded however many consents its shards hold.
 */
export const ListingsInFlight = Context.Reference<number>("@tppkit/worker/Sweep/ListingsInFlight", {
  defaultValue: () => 8
})

/** The sweep's services of a workflow's context, the retry resolved. */
const services = Effect.gen(function* () {
  const settings = yield* SweepSettings
  return {
    settings,
    retry: settings.retry ?? defaultRetry,
    watch: yield* Watch,
    source: yield* OrderSource
  } satisfies ConsentSweepRun.Services
})

/** The consents' sweep workflow's implementation, with this worker's bound on its listings at once. */
const consentLayer = Layer.unwrap(
  Effect.map(
    Effect.flatMap(ListingsInFlight, (n) => Semaphore.make(Math.max(1, n))),
    (permits) =>
      ConsentSweep.toLayer(({ day, consent }) =>
        abandonOnShardLoss(Effect.flatMap(services, (s) => ConsentSweepRun.sweepConsent(s, consent, day, permits)))
      )
  )
)

/** The day's sweep run: its consents read, each consent's workflow started, the summary kept. */
const dailyLayer: Layer.Layer<never, never, WorkflowEngine.WorkflowEngine | Checks | SweepSettings | OrderSource> =
  DailySweep.toLayer((payload) =>
    abandonOnShardLoss(
      Effect.gen(function* () {
        const s = yield* services
        const consents = yield* Effect.serviceOption(ConsentSource)
        const fanOut = yield* SweepFanOut
        return yield* DailySweepRun.runDay(
          { ...s, consents, fanOut, executeConsent: (p) => ConsentSweep.execute(p) },
          payload
        )
      })
    )
  )

/** The sweep workflows' implementation: the day's run, and each consent's part of it. */
export const layer: Layer.Layer<never, never, WorkflowEngine.WorkflowEngine | Checks | SweepSettings | OrderSource> =
  Layer.merge(consentLayer, dailyLayer)

/** The daily cron of the sweep hour in the time zone (DST-correct: effect's `Cron` with a named zone). */
export const dailyCron = (hour: number, timeZone: string): Cron.Cron => {
  const zone = Option.getOrThrowWith(
    DateTime.zoneMakeNamed(timeZone),
    () => new Error(`unknown time zone ${JSON.stringify(timeZone)}`)
  )
  return Cron.make({ minutes: [0], hours: [hour], days: [], months: [], weekdays: [], tz: zone })
}

/**
 * The cluster-wide daily sweep: a `ClusterCron` singleton at the configured hour and time zone that starts the
 * day's sweep workflow. Each run is a persisted message, and the next one is computed from the previous, so a run
 * missed while the fleet was down is caught up in order when it comes back (runs older than a day are skipped:
 * their payments have executed; the next day's sweep covers the rest).
 */
export const cronLayer = (
  settings: Pick<Settings, "hour" | "timeZone">
): Layer.Layer<never, never, Sharding | WorkflowEngine.WorkflowEngine> =>
  ClusterCron.make({
    name: "tppkit/DailySweep",
    cron: dailyCron(settings.hour, settings.timeZone),
    calculateNextRunFromPrevious: true,
    execute: Effect.gen(function* () {
      const slot = yield* ClusterCron.CurrentScheduledTime
      const day = LocalDate.format(LocalDate.ofInstant(slot.epochMilliseconds, settings.timeZone))
      yield* Effect.logInfo(`tppkit: daily sweep of ${day}`)
      const { payload, done } = yield* nextRun(day)
      if (done === undefined) yield* DailySweep.execute(payload, { discard: true })
    })
  })

/** The payload of a day's sweep run: the day, its run (absent: the first) and the consents it carries. */
export type RunPayload = typeof DailySweep.payloadSchema.Type

/**
 * The run of a day's sweep to join or start now: the latest run while it runs or was never started; after a run
 * that failed (a consent not listed, or the run itself failed) the next run, carrying the consents already swept;
 * or, when a run completed, its summary (`done`): a sweep that completed is never repeated. Every runner asking at
 * once finds the same run (each run is keyed by day and run), so each runs once in the cluster.
 */
export const nextRun = (
  day: string
): Effect.Effect<
  { readonly payload: RunPayload; readonly done: Summary | undefined },
  never,
  WorkflowEngine.WorkflowEngine
> =>
  Effect.gen(function* () {
    let carried: ReadonlyArray<ConsentSummary> = []
    for (let run = 0; ; run++) {
      const payload: RunPayload = run === 0 ? { day } : { day, run, carried }
      const previous = yield* Effect.flatMap(DailySweep.executionId(payload), (id) => DailySweep.poll(id))
      if (Option.isNone(previous) || previous.value._tag !== "Complete") return { payload, done: undefined }
      const exit = previous.value.exit
      if (Exit.isSuccess(exit) && isComplete(exit.value)) return { payload, done: exit.value }
      if (Exit.isSuccess(exit)) carried = exit.value.consents.filter((c) => c.failure === undefined)
    }
  })

/**
 * The day's sweep now (`--today`, `--once`): the summary of its run (see {@link nextRun}), and whether this call ran
 * again a day whose sweep had failed (`rerun`; false when the day's sweep had completed already).
 */
export const sweepNow = (
  day: string
): Effect.Effect<Summary & { readonly rerun: boolean }, never, WorkflowEngine.WorkflowEngine> =>
  Effect.gen(function* () {
    const { payload, done } = yield* nextRun(day)
    if (done !== undefined) return { ...done, rerun: false }
    return { ...(yield* DailySweep.execute(payload)), rerun: (payload.run ?? 0) > 0 }
  })

/** A calendar's working day test, re-exported for settings validation. */
export const isWorkingDay = Calendar.isWorkingDay
