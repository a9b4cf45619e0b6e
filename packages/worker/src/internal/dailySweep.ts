/**
 * A day's sweep run (the body of `Sweep.DailySweep`): the fleet's consents of the run read once and journaled, those
 * the watcher leaves out dropped, each consent's workflow started (a consent carried from an earlier run is not
 * listed again), the forecast ahead of every consent planned, and the run's summary.
 */
import { Backoff } from "@tppkit/core"
import { Effect, Option } from "effect"
import type { SqlError } from "effect/sql/SqlError"
import { Activity, type WorkflowEngine } from "effect/workflow"
import * as Lifecycle from "../Lifecycle.ts"
import type { Services } from "./consentSweep.ts"
import type { Consent } from "./sweepJournal.ts"
import { JournaledConsents, journaled } from "./sweepJournal.ts"
import { keyed } from "./sweepPlan.ts"
import type { ConsentSummary, RunPayload, Summary } from "./sweepTypes.ts"

/** What a day's run needs besides a consent's: where the fleet's consents are read, the fan-out, and the consents' workflow. */
export interface DayServices extends Services {
  readonly consents: Option.Option<{ readonly current: Effect.Effect<ReadonlyArray<Consent>, SqlError> }>
  readonly fanOut: number
  readonly executeConsent: (payload: {
    readonly day: string
    readonly run?: number
    readonly consent: ReturnType<typeof journaled>
  }) => Effect.Effect<ConsentSummary, never, WorkflowEngine.WorkflowEngine>
}

/** How the fleet's list of consents is read again while it is out of reach: every second, doubled. */
const consentsBackoff = Backoff.exponential({ initial: "1 second" })

/** The day's sweep run (the body of `Sweep.DailySweep`): its consents read, each consent's workflow started, the summary kept. */
export const runDay = (
  services: DayServices,
  { day, run, carried }: RunPayload
): Effect.Effect<Summary, never, WorkflowEngine.WorkflowInstance | WorkflowEngine.WorkflowEngine> =>
  Effect.gen(function* () {
    const { settings, retry, watch, fanOut } = services
    // the fleet's consents of this run, journaled: a run resumed on another runner lists the same ones
    const source = services.consents
    const all = Option.isNone(source)
      ? settings.consents
      : yield* Activity.make({
          name: "consents",
          success: JournaledConsents,
          execute: Effect.orDie(
            source.value.current.pipe(
              Effect.map((list) => list.map(journaled)),
              Effect.retry({ schedule: Backoff.schedule(consentsBackoff), times: Math.max(0, retry.tries - 1) })
            )
          )
        })
    // the consents the bank said are no longer valid are not listed; the notices of those near their end raised
    const swept =
      watch === undefined
        ? all
        : yield* Activity.make({
            name: "watch/consents",
            success: JournaledConsents,
            execute: Effect.map(watch.consents(day, all), (list) => list.map(journaled))
          })
    yield* Lifecycle.emit({
      _tag: "SweepStarted",
      day,
      run: run ?? 0,
      consents: swept.length,
      keys: swept.map((c) => c.key)
    })
    // each consent's listing is its own workflow, on the consent's shard: the fleet's workers list at once
    const consents: Array<ConsentSummary> = yield* Effect.forEach(
      swept,
      (consent) => {
        const done = carried?.find((c) => c.consent === consent.key && c.failure === undefined)
        if (done !== undefined) return Effect.succeed<ConsentSummary>({ consent: done.consent, planned: done.planned })
        return services.executeConsent({
          day,
          ...(run === undefined || run === 0 ? {} : { run }),
          consent: journaled(consent)
        })
      },
      { concurrency: fanOut }
    )
    if (watch !== undefined) {
      // the forecast ahead from the day's orders of every consent planned (read now, or kept by the fleet)
      yield* Activity.make({
        name: "watch/ahead",
        execute: Effect.gen(function* () {
          // no accounts to forecast: nothing gathered (the orders kept for earlier days are dropped all the same)
          const listed = (yield* watch.forecasts)
            ? consents.filter((c) => !(c.planned === 0 && c.failure !== undefined)).map((c) => c.consent)
            : []
          // a listing whose orders are not kept for the forecast (degraded to what is kept, or read by an earlier
          // version): what is kept of it, consent by consent, never the kept listings whole at once
          const source = services.source
          if (source.kept !== undefined && listed.length > 0) {
            const byKey = new Map(swept.map((s) => [s.key, s]))
            for (const key of yield* watch.unkept(day, listed)) {
              const kept = yield* Effect.option(source.kept(byKey.get(key) ?? { key }, day))
              if (Option.isNone(kept)) continue
              yield* watch.keepAhead(key, day, [
                ...keyed(kept.value.orders).orders,
                ...keyed(kept.value.earlier?.orders ?? []).orders
              ])
            }
          }
          yield* watch.ahead(day, listed)
        })
      })
    }
    yield* Lifecycle.emit(Lifecycle.finished(day, run ?? 0, consents))
    return { day, ...(run === undefined || run === 0 ? {} : { run }), consents }
  })
