/**
 * The sweep's workflows at work (the machinery of `Sweep`): the services a workflow's context gives, the layers of
 * the day's run and each consent's part, the cluster-wide daily cron, and the run of a day to join or start.
 */
import { LocalDate } from "@tppkit/core"
import { Context, Cron, DateTime, Effect, Exit, Layer, Option, Semaphore } from "effect"
import { ClusterCron } from "effect/cluster"
import type { Sharding } from "effect/cluster/Sharding"
import { SqlClient } from "effect/sql"
import { WorkflowEngine } from "effect/workflow"
import type { Checks } from "../Checks.ts"
import * as ConsentSweepRun from "./consentSweep.ts"
import * as DailySweepRun from "./dailySweep.ts"
import { abandonOnShardLoss } from "./shardGuard.ts"
import * as Types from "./sweepTypes.ts"

/** The sweep's services of a workflow's context, the retry resolved. */
const services = Effect.gen(function* () {
  const settings = yield* Types.SweepSettings
  return {
    settings,
    retry: settings.retry ?? Types.defaultRetry,
    watch: yield* Types.Watch,
    source: yield* Types.OrderSource
  } satisfies ConsentSweepRun.Services
})

/** The consents' sweep workflow's implementation, with this worker's bound on its listings at once. */
const consentLayer = Layer.unwrap(
  Effect.map(
    Effect.flatMap(Types.ListingsInFlight, (n) => Semaphore.make(Math.max(1, n))),
    (permits) =>
      Types.ConsentSweep.toLayer(({ day, consent }) =>
        abandonOnShardLoss(Effect.flatMap(services, (s) => ConsentSweepRun.sweepConsent(s, consent, day, permits)))
      )
  )
)

/**
 * A consent's part of the day's run, started and awaited as a caller outside the run would, not as its child: a child
 * that finishes resumes its parent, one persisted `resume` message a consent to the day's run (81 were queued at once
 * in a run of 3 workers and 300 consents), each answered by a wait of effect's engine for the run's reply; the day's
 * run instead waits for each reply (a part that sleeps between tries is asked again on effect's schedule) and, moved
 * to another runner, starts its parts again (each start is idempotent: the part's workflow keyed by day, run and
 * consent) and waits for them there.
 */
const awaitConsent = (payload: Parameters<typeof Types.ConsentSweep.execute>[0]) =>
  Types.ConsentSweep.execute(payload).pipe(
    Effect.updateContext((context: Context.Context<WorkflowEngine.WorkflowEngine>) =>
      Context.omit(WorkflowEngine.WorkflowInstance)(context)
    )
  )

/**
 * How many consents' parts a day's run has started and not finished at once: `SweepFanOut` (64), raised to twice the
 * listings the fleet reads at once when that is more, its healthy runners (effect's `cluster_runners`, read when the
 * run starts) times `ListingsInFlight` (this worker's, 8, taken for each), so that a fleet of 30 workers has 480
 * consents under way, each worker's 8 places busy and as many waiting, not 64 for all. Without the fleet's database (a
 * workflow engine in memory), `SweepFanOut`.
 */
const fleetFanOut = Effect.gen(function* () {
  const fanOut = yield* Types.SweepFanOut
  const inFlight = Math.max(1, yield* Types.ListingsInFlight)
  const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
  if (Option.isNone(sql)) return fanOut
  const rows = yield* sql.value<{ runners: number }>`
    SELECT count(*)::int AS runners FROM cluster_runners WHERE healthy`.pipe(Effect.orElseSucceed(() => []))
  return Math.max(fanOut, 2 * inFlight * (rows[0]?.runners ?? 1))
})

/** The day's sweep run: its consents read, each consent's workflow started, the summary kept. */
const dailyLayer: Layer.Layer<
  never,
  never,
  WorkflowEngine.WorkflowEngine | Checks | Types.SweepSettings | Types.OrderSource
> = Types.DailySweep.toLayer((payload) =>
  abandonOnShardLoss(
    Effect.gen(function* () {
      const s = yield* services
      const consents = yield* Effect.serviceOption(Types.ConsentSource)
      const fanOut = yield* fleetFanOut
      return yield* DailySweepRun.runDay({ ...s, consents, fanOut, executeConsent: awaitConsent }, payload)
    })
  )
)

/** The sweep workflows' implementation: the day's run, and each consent's part of it. */
export const layer: Layer.Layer<
  never,
  never,
  WorkflowEngine.WorkflowEngine | Checks | Types.SweepSettings | Types.OrderSource
> = Layer.merge(consentLayer, dailyLayer)

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
  settings: Pick<Types.Settings, "hour" | "timeZone">
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
      if (done === undefined) yield* Types.DailySweep.execute(payload, { discard: true })
    })
  })

/**
 * The run of a day's sweep to join or start now: the latest run while it runs or was never started; after a run
 * that failed (a consent not listed, or the run itself failed) the next run, carrying the consents already swept;
 * or, when a run completed, its summary (`done`): a sweep that completed is never repeated. Every runner asking at
 * once finds the same run (each run is keyed by day and run), so each runs once in the cluster.
 */
export const nextRun = (
  day: string
): Effect.Effect<
  { readonly payload: Types.RunPayload; readonly done: Types.Summary | undefined },
  never,
  WorkflowEngine.WorkflowEngine
> =>
  Effect.gen(function* () {
    let carried: ReadonlyArray<Types.ConsentSummary> = []
    for (let run = 0; ; run++) {
      const payload: Types.RunPayload = run === 0 ? { day } : { day, run, carried }
      const previous = yield* Effect.flatMap(Types.DailySweep.executionId(payload), (id) => Types.DailySweep.poll(id))
      if (Option.isNone(previous) || previous.value._tag !== "Complete") return { payload, done: undefined }
      const exit = previous.value.exit
      if (Exit.isSuccess(exit) && Types.isComplete(exit.value)) return { payload, done: exit.value }
      if (Exit.isSuccess(exit)) carried = exit.value.consents.filter((c) => c.failure === undefined)
    }
  })

/**
 * The day's sweep now (`--today`, `--once`): the summary of its run (see {@link nextRun}), and whether this call ran
 * again a day whose sweep had failed (`rerun`; false when the day's sweep had completed already).
 */
export const sweepNow = (
  day: string
): Effect.Effect<Types.Summary & { readonly rerun: boolean }, never, WorkflowEngine.WorkflowEngine> =>
  Effect.gen(function* () {
    const { payload, done } = yield* nextRun(day)
    if (done !== undefined) return { ...done, rerun: false }
    return { ...(yield* Types.DailySweep.execute(payload)), rerun: (payload.run ?? 0) > 0 }
  })
