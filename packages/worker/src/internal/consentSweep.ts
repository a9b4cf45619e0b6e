/**
 * One consent's part of a day's sweep (the body of `Sweep.ConsentSweep`): its listing tried with back-off, each try a
 * journaled activity and each wait a durable sleep; the listing keyed, watched, reconciled and planned; a listing
 * that failed degraded to what is kept; then every planned check's durable workflow started.
 */
import { Backoff, LocalDate } from "@tppkit/core"
import { Duration, Effect, Result, Schema, type Semaphore } from "effect"
import { Activity, DurableClock, type WorkflowEngine } from "effect/workflow"
import { Checks, type ChecksError } from "../Checks.ts"
import * as ConsentLifecycle from "../ConsentLifecycle.ts"
import { FundsCheck } from "../FundsCheckWorkflow.ts"
import * as Lifecycle from "../Lifecycle.ts"
import * as ListingReconciliation from "../ListingReconciliation.ts"
import { ListingFailed, type ListingFailure } from "./listingFailure.ts"
import { backoffMillis, degradable, isTransient } from "./listingRetry.ts"
import { isCovered, type Partial, PartialSchema, planPartial } from "./partialListing.ts"
import type { Consent } from "./sweepJournal.ts"
import { RecordWarnings, SkippedRecords, UnreadRecords, withRefused } from "./sweepJournal.ts"
import { isExpired, keyedListing, planned as planChecks } from "./sweepPlan.ts"
import type { ConsentSummary, OrderSource, Retry, Settings, Watcher } from "./sweepTypes.ts"

/** What a sweep's workflows run with: the fleet's settings and retry, the watcher (if any) and the order source. */
export interface Services {
  readonly settings: Settings
  readonly retry: Retry
  readonly watch: Watcher | undefined
  readonly source: OrderSource["Service"]
}

/** How many workflow starts are in flight at once while a sweep starts its checks. */
export const startConcurrency = 64

/** Starts the durable check of every planned payment of a day and consent (each start is idempotent). */
export const startPlanned = (
  day: string,
  consent: string
): Effect.Effect<number, ChecksError, Checks | WorkflowEngine.WorkflowEngine> =>
  Effect.gen(function* () {
    const checks = yield* Checks
    const planned = yield* checks.planned(day, consent)
    yield* Effect.forEach(planned, (due) => FundsCheck.execute(due, { discard: true, detached: true }), {
      concurrency: startConcurrency,
      discard: true
    })
    return planned.length
  })

/** One consent's sweep (the body of `Sweep.ConsentSweep`), its listings read one place of `permits` at a time. */
export const sweepConsent = (
  services: Services,
  consent: Consent,
  day: string,
  permits: Semaphore.Semaphore
): Effect.Effect<ConsentSummary, never, WorkflowEngine.WorkflowInstance | WorkflowEngine.WorkflowEngine | Checks> =>
  Effect.gen(function* () {
    const { settings, retry, watch, source } = services
    const date = LocalDate.parseUnsafe(day)
    const id = `${consent.key}/${consent.iban ?? ""}`
    const profileKey = consent.profile === undefined ? {} : { profile: consent.profile }
    // a consent past its validity is said, not listed: the bank would refuse it until the customer grants it again
    if (consent.validUntil !== undefined && isExpired(consent, day)) {
      yield* Lifecycle.emit({ _tag: "ConsentExpired", day, consent: consent.key, validUntil: consent.validUntil })
      return { consent: consent.key, planned: 0, ...profileKey, expired: consent.validUntil } satisfies ConsentSummary
    }
    // each try is its own journaled activity, and each wait a durable sleep: a sweep resumed on another runner
    // neither repeats a finished try nor waits again for a wait that has passed
    let tries = 0
    let planned: Result.Result<
      {
        readonly planned: number
        readonly pages?: number
        readonly detailsPending?: ReadonlyArray<string>
        readonly unread?: UnreadRecords
        readonly skipped?: SkippedRecords
        readonly warnings?: RecordWarnings
      },
      ListingFailed
    >
    for (;;) {
      tries++
      planned = yield* Activity.make({
        name: tries === 1 ? `plan/${id}` : `plan/${id}#${tries}`,
        // a number alone: the journal of a sweep planned before the listing's pages were kept with it
        success: Schema.Union([
          Schema.Number,
          Schema.Struct({
            planned: Schema.Number,
            pages: Schema.Number,
            detailsPending: Schema.optionalKey(Schema.Array(Schema.String)),
            unread: Schema.optionalKey(UnreadRecords),
            skipped: Schema.optionalKey(SkippedRecords),
            warnings: Schema.optionalKey(RecordWarnings)
          })
        ]),
        error: ListingFailed,
        execute: Effect.gen(function* () {
          const checks = yield* Checks
          // an orderId the listing repeats is keyed ID#N from here on: checks, change feed, forecast
          const { listed, repeated } = keyedListing(yield* permits.withPermits(1)(source.list(consent, day)))
          // what the day's forecast ahead reads of it, kept in the fleet's database (nothing without opening
          // balances): held in the process for the whole day, 100,000 orders took a worker past 400 MB (issue 39)
          if (watch !== undefined) yield* watch.keepAhead(consent.key, day, listed.orders)
          if (watch !== undefined) yield* watch.listed(consent, day, listed)
          // the bank's nextDates checked against the fleet's rule on the sweep's day, and kept for worker status
          yield* ListingReconciliation.record({
            ...ListingReconciliation.summarize(listed.orders, consent.key, date, settings, day),
            ...(repeated.length === 0
              ? {}
              : { repeated: repeated.map((r) => ({ orderId: r.orderId, records: r.positions.length })) })
          })
          const { due, unplannable, refused } = planChecks(listed.orders, consent.key, date, settings)
          // nothing can be sent for a payment whose debtor IBAN or currency is not one: said, not dropped in silence
          for (const u of unplannable) {
            yield* Effect.logWarning(
              `tppkit: sweep of ${day}, consent ${consent.key}: ${u.orderId} of ${LocalDate.format(u.nominalDate)} cannot be checked: ${u.reason}`
            )
          }
          yield* checks
            .plan(due)
            .pipe(Effect.mapError((failure) => new ListingFailed({ consent: consent.key, failure })))
          const pending = listed.detailsPending ?? []
          // an order whose amount the rules refuse pays nothing: named with the records that pay nothing (issue 34)
          const skipped = withRefused(listed.skipped, refused)
          // when no record could be read, nothing was planned from the listing: the line says so, not "the others"
          const nothingRead = listed.orders.length === 0 && pending.length === 0 && skipped === undefined
          return {
            planned: due.length,
            pages: listed.pages,
            ...(pending.length === 0 ? {} : { detailsPending: [...pending] }),
            ...(listed.unread === undefined
              ? {}
              : { unread: nothingRead ? { ...listed.unread, nothingRead } : listed.unread }),
            ...(skipped === undefined ? {} : { skipped }),
            ...(listed.warnings === undefined || listed.warnings.length === 0 ? {} : { warnings: listed.warnings })
          }
        })
      }).pipe(Effect.result, Effect.map(Result.map((r) => (typeof r === "number" ? { planned: r } : r))))
      if (Result.isSuccess(planned) || tries >= retry.tries || !isTransient(planned.failure.failure)) break
      const wait = backoffMillis(retry, tries, planned.failure.failure)
      yield* Lifecycle.emit({
        _tag: "ListingRetry",
        day,
        consent: consent.key,
        tries,
        waitMillis: wait,
        cause: planned.failure.message,
        reason: Lifecycle.reasonOf(planned.failure.failure)
      })
      yield* DurableClock.sleep({ name: `backoff/${id}#${tries}`, duration: Duration.millis(wait) })
    }
    const triesKey = tries > 1 ? { tries } : {}
    let degraded: { readonly partial: Partial; readonly failure: ListingFailure } | undefined
    if (Result.isFailure(planned)) {
      const failure = planned.failure.failure
      if (watch !== undefined && ConsentLifecycle.expiryCode(failure) !== undefined) {
        yield* Activity.make({ name: `watch/expired/${id}`, execute: watch.expired(consent, day, failure) })
      }
      // a consent's day degrades, never vanishes: the pages kept today and, for the pages not read, the latest
      // complete listing of an earlier day are planned; only the orders no kept listing has are left out
      const partial = degradable(failure)
        ? yield* Activity.make({
            name: `partial/${id}`,
            success: Schema.UndefinedOr(PartialSchema),
            error: ListingFailed,
            execute: planPartial(source, consent, day, date, settings)
          }).pipe(Effect.orElseSucceed(() => undefined))
        : undefined
      if (partial === undefined) {
        return { consent: consent.key, planned: 0, ...profileKey, ...triesKey, failure } satisfies ConsentSummary
      }
      yield* Lifecycle.emit({
        _tag: "ListingPartial",
        day,
        consent: consent.key,
        pagesKept: partial.pagesKept,
        pagesUnread: partial.pagesUnread,
        plannedFrom: partial.plannedFrom,
        planned: partial.planned,
        plannedFromEarlier: partial.plannedFromEarlier,
        cause: Lifecycle.listingCause(failure)
      })
      degraded = { partial, failure }
    }
    // the checks' workflows are started once the plan is stored; a check store out of reach for a moment (the
    // fleet's database restarting) is waited out with the listing's back-off. A run that planned nothing has nothing
    // to start (9 consents in 10 on a day of the sweep's bench): no activity, no read of the consent's checks (an
    // earlier run's checks of the day were started by that run)
    const plannedNow =
      degraded !== undefined ? degraded.partial.planned : Result.isSuccess(planned) ? planned.success.planned : 0
    if (plannedNow > 0)
      yield* Activity.make({
        name: `start/${id}`,
        success: Schema.Number,
        execute: Effect.orDie(
          startPlanned(day, consent.key).pipe(
            Effect.retry({
              while: (e) => e._tag === "ChecksError",
              schedule: Backoff.schedule(retry.backoff),
              times: Math.max(0, retry.tries - 1)
            })
          )
        )
      })
    if (degraded !== undefined) {
      const { partial, failure } = degraded
      // what is kept is said as a whole listing is: its records unread, those that pay nothing, the pending (issue 34)
      yield* sayRecords(day, consent.key, partial)
      return {
        consent: consent.key,
        planned: partial.planned,
        ...profileKey,
        ...triesKey,
        pagesKept: partial.pagesKept,
        pagesUnread: partial.pagesUnread,
        ...(partial.plannedFrom === undefined
          ? {}
          : { plannedFrom: partial.plannedFrom, plannedFromEarlier: partial.plannedFromEarlier }),
        ...(partial.detailsPending === undefined ? {} : { detailsPending: partial.detailsPending }),
        ...(partial.unread === undefined ? {} : { unread: partial.unread }),
        ...(partial.skipped === undefined ? {} : { skipped: partial.skipped }),
        ...(partial.warnings === undefined ? {} : { warnings: partial.warnings }),
        // only orders no kept listing has are left out: then the consent's listing failed
        ...(isCovered(partial) ? {} : { failure })
      } satisfies ConsentSummary
    }
    if (Result.isFailure(planned))
      return { consent: consent.key, planned: 0, ...profileKey, failure: planned.failure.failure }
    const pages = planned.success.pages === undefined ? {} : { pages: planned.success.pages }
    const { unread, skipped, warnings } = planned.success
    const pending = planned.success.detailsPending ?? []
    yield* sayRecords(day, consent.key, planned.success)
    return {
      consent: consent.key,
      planned: planned.success.planned,
      ...profileKey,
      ...pages,
      ...triesKey,
      ...(pending.length === 0 ? {} : { detailsPending: pending }),
      ...(unread === undefined ? {} : { unread }),
      ...(skipped === undefined ? {} : { skipped }),
      ...(warnings === undefined ? {} : { warnings })
    }
  })

/**
 * The records of a consent's listing (whole, or what is kept of it) that were not planned, said: the orders whose
 * details are pending, the records that could not be read (the good ones are planned) and those read whole that pay
 * nothing (the exit is unchanged); and the warnings of its reading, grouped; never dropped silently.
 */
const sayRecords = (
  day: string,
  consent: string,
  said: {
    readonly detailsPending?: ReadonlyArray<string> | undefined
    readonly unread?: UnreadRecords | undefined
    readonly skipped?: SkippedRecords | undefined
    readonly warnings?: RecordWarnings | undefined
  }
) =>
  Effect.gen(function* () {
    const pending = said.detailsPending ?? []
    if (pending.length > 0) yield* Lifecycle.emit({ _tag: "DetailsPending", day, consent, orders: pending })
    if (said.unread !== undefined) yield* Lifecycle.emit({ _tag: "RecordsUnread", day, consent, ...said.unread })
    if (said.skipped !== undefined) yield* Lifecycle.emit({ _tag: "RecordsSkipped", day, consent, ...said.skipped })
    // the reading's warnings: one event (one line) per field and reason, with a count; planned as read
    for (const w of said.warnings ?? []) yield* Lifecycle.emit({ _tag: "RecordsWarned", day, consent, ...w })
  })
