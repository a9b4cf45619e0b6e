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

import { Calendar, type LocalDate, type Orders } from "@tppkit/core"
import type { Projection } from "@tppkit/schedule"
import type { Cron, Effect, Layer } from "effect"
import type { Sharding } from "effect/cluster/Sharding"
import type { WorkflowEngine } from "effect/workflow"
import type { Checks, ChecksError, Due } from "./Checks.ts"
import * as ConsentSweepRun from "./internal/consentSweep.ts"
import type { ListingFailure } from "./internal/listingFailure.ts"
import * as ListingRetry from "./internal/listingRetry.ts"
import * as PartialListing from "./internal/partialListing.ts"
import type { Consent } from "./internal/sweepJournal.ts"
import * as SweepPlan from "./internal/sweepPlan.ts"
import * as Run from "./internal/sweepRun.ts"
import type { OrderSource, Retry, RunPayload, Settings, Summary, SweepSettings } from "./internal/sweepTypes.ts"

/**
 * A consent whose standing orders the sweep lists: its budget key, and optionally one account (IBAN filter), the bank
 * profile it is listed and checked with (absent: the worker's own) and the last day it is valid (absent: no end known).
 */
export type { Consent } from "./internal/sweepJournal.ts"

/**
 * The sweep's types (`internal/sweepTypes.ts` documents each): what every worker of a fleet is configured with
 * (`Settings`), how a listing is tried again (`Retry`), a consent's listing as listed (`Listed`) or as kept when it
 * could not be read whole (`Kept`), what the fleet watches ahead of its checks (`Watcher`), one consent's part of a
 * sweep and a day's sweep (`ConsentSummary`, `Summary`) and the payload of a day's run (`RunPayload`).
 */
export type { Kept, Listed, Retry, RunPayload, Settings, Watcher } from "./internal/sweepTypes.ts"

/**
 * The sweep's values (`internal/sweepTypes.ts` documents each): the default retry of a listing (`defaultRetry`), the
 * services it reads its consents, settings and orders from (`ConsentSource`, `SweepSettings`, `OrderSource`), its
 * watcher (`Watch`), the summaries' schemas and types (`ConsentSummary`, `Summary`, `isComplete`), the day's and a
 * consent's workflows (`DailySweep`, `ConsentSweep`) and the fleet's bounds on them (`SweepFanOut`,
 * `ListingsInFlight`).
 */
export {
  ConsentSource,
  ConsentSummary,
  ConsentSweep,
  DailySweep,
  defaultRetry,
  isComplete,
  ListingsInFlight,
  OrderSource,
  Summary,
  SweepFanOut,
  SweepSettings,
  Watch
} from "./internal/sweepTypes.ts"

/**
 * Whether a consent is past its validity on a day (its `validUntil` before the day): the sweep lists nothing for it
 * and says so, since the bank would refuse the listing (the customer must grant it again).
 */
export const isExpired: (consent: Consent, day: string) => boolean = SweepPlan.isExpired

/** The wait before try `n + 1` (n ≥ 1) after `failure`: the back-off, or the bank's Retry-After when longer. */
export const backoffMillis: (retry: Retry, n: number, failure: ListingFailure) => number = ListingRetry.backoffMillis

/**
 * Whether a listing failure may pass, so that the sweep tries again: http's transient reasons, a listing cut off by
 * its deadline (docs/bank-interface.md, "Daily limit": the sweep owns the listing and may try again later), and the
 * fleet's database out of reach (the budget store, or the check store while the checks are planned).
 */
export const isTransient: (failure: ListingFailure) => boolean = ListingRetry.isTransient

/**
 * Why a consent's standing orders could not be listed (`ListingFailure`, a schema and its type: the bank client's
 * failure, a bad IBAN filter (`InvalidIban`), the check store's failure, a profile this worker has no bank for, or no
 * customer refresh token (`NoGrant`)), and a consent whose listing failed with it (`ListingFailed`).
 */
export { InvalidIban, ListingFailed, ListingFailure, NoGrant } from "./internal/listingFailure.ts"

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

/** The sweep workflows' implementation: the day's run, and each consent's part of it. */
export const layer: Layer.Layer<never, never, WorkflowEngine.WorkflowEngine | Checks | SweepSettings | OrderSource> =
  Run.layer

/** The daily cron of the sweep hour in the time zone (DST-correct: effect's `Cron` with a named zone). */
export const dailyCron: (hour: number, timeZone: string) => Cron.Cron = Run.dailyCron

/**
 * The cluster-wide daily sweep: a `ClusterCron` singleton at the configured hour and time zone that starts the
 * day's sweep workflow. Each run is a persisted message, and the next one is computed from the previous, so a run
 * missed while the fleet was down is caught up in order when it comes back (runs older than a day are skipped:
 * their payments have executed; the next day's sweep covers the rest).
 */
export const cronLayer: (
  settings: Pick<Settings, "hour" | "timeZone">
) => Layer.Layer<never, never, Sharding | WorkflowEngine.WorkflowEngine> = Run.cronLayer

/**
 * The run of a day's sweep to join or start now: the latest run while it runs or was never started; after a run
 * that failed (a consent not listed, or the run itself failed) the next run, carrying the consents already swept;
 * or, when a run completed, its summary (`done`): a sweep that completed is never repeated. Every runner asking at
 * once finds the same run (each run is keyed by day and run), so each runs once in the cluster.
 */
export const nextRun: (
  day: string
) => Effect.Effect<
  { readonly payload: RunPayload; readonly done: Summary | undefined },
  never,
  WorkflowEngine.WorkflowEngine
> = Run.nextRun

/**
 * The day's sweep now (`--today`, `--once`): the summary of its run (see {@link nextRun}), and whether this call ran
 * again a day whose sweep had failed (`rerun`; false when the day's sweep had completed already).
 */
export const sweepNow: (
  day: string
) => Effect.Effect<Summary & { readonly rerun: boolean }, never, WorkflowEngine.WorkflowEngine> = Run.sweepNow

/** A calendar's working day test, re-exported for settings validation. */
export const isWorkingDay = Calendar.isWorkingDay
