/**
 * One worker of the fleet as a layer from its settings (`Setup`): the cluster runner on the fleet's database, the
 * workflows, a bank client per profile (the daily budget in the fleet's database, an optional fleet-wide request
 * rate), the check, consent, listing and reconciliation stores, the bank gate, the sweep record and warnings, and,
 * optionally, the daily cron, the Prometheus metrics and the webhook outbox; the worker's settings of the environment
 * (`TPPKIT_WORKER_*`, `TPPKIT_WEBHOOK_*`); and what a running worker watches: a sweep day's checks until they are
 * finished ({@link awaitDay}), the shards it holds ({@link watchShards}) and the database ({@link watchDatabase}).
 * `tppkit worker` builds one from its flags.
 *
 * @since 0.1.0
 */
import { Backoff, Profile } from "@tppkit/core"
import { BankClient, BankConfig, BankTransport, type PsuContext } from "@tppkit/http"
import { Clock, Config, Duration, Effect, Exit, Fiber, Layer, Option, type Redacted } from "effect"
import * as ShardId from "effect/cluster/ShardId"
import { Sharding } from "effect/cluster/Sharding"
import { SqlClient } from "effect/sql"
import * as BankGate from "./BankGate.ts"
import * as BankRate from "./BankRate.ts"
import * as BankSources from "./BankSources.ts"
import { Checks } from "./Checks.ts"
import * as Consents from "./Consents.ts"
import * as Fleet from "./Fleet.ts"
import * as FundsCheckWorkflow from "./FundsCheckWorkflow.ts"
import * as Lifecycle from "./Lifecycle.ts"
import * as ListingReconciliation from "./ListingReconciliation.ts"
import { Listings } from "./Listings.ts"
import * as Metrics from "./Metrics.ts"
import * as PgBudgetStore from "./PgBudgetStore.ts"
import * as Sweep from "./Sweep.ts"
import * as SweepLog from "./SweepLog.ts"
import * as Warnings from "./Warnings.ts"
import * as Webhook from "./Webhook.ts"

/** What one worker runs with: its database, banks, sweep, timing and, optionally, metrics, webhooks and listeners. */
export interface Setup {
  readonly databaseUrl: Redacted.Redacted<string>
  readonly bankSettings: BankConfig.Settings
  /** The banks of the fleet's other profiles, by profile name (issue 37); default none. */
  readonly banks?: ReadonlyMap<string, BankConfig.Settings> | undefined
  readonly psu: PsuContext.PsuContext
  readonly sweep: Sweep.Settings
  readonly timing: Fleet.Timing
  /** TCP port of the runner (0: any free port). */
  readonly runnerPort: number
  /** Where the runner is reached and how (default: 127.0.0.1, no TLS). */
  readonly network?: Fleet.Network | undefined
  /** The fleet's shards (default `Fleet.shardsPerGroup`). */
  readonly shards?: number | undefined
  /** The fleet's requests a second to each bank, shared through the database (`BankRate`); default none. */
  readonly bankRate?: number | undefined
  /** Serve Prometheus metrics on this port. */
  readonly metricsPort?: number | undefined
  /** Run the daily cron (not with `--once`). */
  readonly cron: boolean
  /** How a check that failed on a transient fault is tried again. */
  readonly checkRetry?: FundsCheckWorkflow.Retry | undefined
  /** How long `--once` waits for checks tried again after a transient failure (milliseconds). */
  readonly onceWaitMillis?: number | undefined
  /** The page size of the sweep's listings (default 100). */
  readonly listingPageSize?: number | undefined
  /** The fleet's secret sealing the customers' refresh tokens (`TPPKIT_REFRESH_TOKEN_KEY`; `Consents.RefreshTokenKey`). */
  readonly refreshTokenKey?: Redacted.Redacted<string> | undefined
  /** The fleet's bank gate (`BankGate.layerSql`). */
  readonly bankGate?: Partial<BankGate.Settings> | undefined
  /** The most checks this worker has in flight (default `FundsCheckWorkflow.maxChecksInFlight`). */
  readonly checksInFlight?: number | undefined
  /** Told of the worker's lifecycle events besides the metrics (the log lines); default none. */
  readonly listeners?: ReadonlyArray<Lifecycle.Listener> | undefined
  /** The webhook endpoints this worker delivers to (none: no outbox on this worker). */
  readonly webhooks?: ReadonlyArray<Webhook.Endpoint> | undefined
  /** The outbox's timing; `replace`: the fleet's endpoints become exactly this worker's (`--reconfigure`). */
  readonly webhookSettings?: (Webhook.Settings & { readonly replace?: boolean | undefined }) | undefined
  /** Working days the sweep forecasts ahead for payments at risk (default `AtRisk.defaultHorizon`). */
  readonly horizon?: number | undefined
}

/**
 * One worker as a layer: a cluster runner on the database, the workflows, the bank client (the shared budget in
 * the fleet's database, over the runner's own pool), the check store and, optionally, the cron and metrics.
 */
export const layer = (setup: Setup) => {
  const cluster = Fleet.cluster({
    databaseUrl: setup.databaseUrl,
    ...setup.network,
    runnerPort: setup.runnerPort,
    shards: setup.shards,
    ...setup.timing
  })
  const clientOf = (settings: BankConfig.Settings) =>
    Layer.unwrap(
      Effect.map(Effect.context<SqlClient.SqlClient>(), (sql) => {
        const undici = BankTransport.BankTransport.layerUndici({
          tls: settings.tls,
          maxHeaderBytes: settings.limits.maxHeaderBytes
        })
        // with a fleet-wide rate, every request to this bank first takes its slot (BankRate), from the row of its base
        // URL: not the budget's identity, which a worker that found no announced instance of a mock bank on loopback in
        // time (2 s) leaves without one, so that two workers of a fleet took slots from two rows, each the whole rate
        const transport =
          setup.bankRate === undefined
            ? undici
            : BankRate.transport(undici).pipe(
                Layer.provide(
                  BankRate.BankRate.layerSql(setup.bankRate, settings.baseUrl).pipe(
                    Layer.provide(Layer.succeedContext(sql))
                  )
                )
              )
        return BankClient.BankClient.layerOver(
          Layer.succeed(BankConfig.BankConfig, settings),
          transport,
          PgBudgetStore.layer(PgBudgetStore.describeUrl(setup.databaseUrl)).pipe(
            Layer.provide(Layer.succeedContext(sql))
          )
        )
      })
    )
  const client = clientOf(setup.bankSettings)
  // each other profile's bank, with its own client and the fleet's budget store (issue 37)
  const banks =
    setup.banks === undefined || setup.banks.size === 0
      ? Layer.empty
      : Layer.effect(
          BankSources.Banks,
          Effect.gen(function* () {
            const out = new Map<string, BankSources.Bank>()
            // fresh: the client's layers are the same values for every bank, and a memoized build would share one
            for (const [name, settings] of setup.banks ?? []) {
              out.set(name, yield* Layer.build(Layer.fresh(clientOf(settings))))
            }
            return out
          })
        )
  const validityDays = (profile: string | undefined): number | undefined =>
    profile === undefined || profile === setup.bankSettings.profile.name
      ? setup.bankSettings.profile.consent.electronicValidityDays
      : (setup.banks?.get(profile)?.profile ?? Profile.builtIns.get(profile))?.consent.electronicValidityDays
  const metrics =
    setup.metricsPort === undefined
      ? Layer.empty
      : Metrics.layer(setup.metricsPort, setup.bankSettings.budget.dailyLimit)
  const listeners = [...(setup.listeners ?? []), ...(setup.metricsPort === undefined ? [] : [Metrics.listener])]
  // the sweep record (every worker keeps it: worker status and the webhooks read it) and the other listeners
  const lifecycle = Layer.unwrap(
    Effect.map(Effect.service(SqlClient.SqlClient), (sql) =>
      Lifecycle.layer([
        SweepLog.listener(
          sql,
          setup.sweep.consents.map((c) => c.key)
        ),
        Warnings.listener(sql),
        ...listeners
      ])
    )
  )
  const webhooks =
    setup.webhooks === undefined || setup.webhooks.length === 0
      ? Layer.empty
      : Webhook.layer(setup.webhooks, {
          timeZone: setup.sweep.timeZone,
          ...setup.webhookSettings,
          onRetry: (retry) =>
            Effect.forEach(listeners, (l) => l.emit({ _tag: "WebhookRetry", ...retry }), { discard: true }),
          onFailed: (failed) =>
            Effect.forEach(listeners, (l) => l.emit({ _tag: "WebhookFailed", ...failed }), { discard: true })
        })
  return (setup.cron ? Sweep.cronLayer(setup.sweep) : Layer.empty).pipe(
    Layer.provideMerge(Fleet.workflows),
    Layer.provideMerge(
      Layer.mergeAll(
        Layer.succeed(Sweep.SweepSettings)(setup.sweep),
        setup.checkRetry === undefined ? Layer.empty : Layer.succeed(FundsCheckWorkflow.CheckRetry)(setup.checkRetry),
        setup.checksInFlight === undefined
          ? Layer.empty
          : Layer.succeed(FundsCheckWorkflow.ChecksInFlight)(setup.checksInFlight),
        Warnings.layerSql({ horizon: setup.horizon }).pipe(
          Layer.provide(Layer.succeed(Sweep.SweepSettings)(setup.sweep))
        ),
        Layer.mergeAll(
          BankSources.balanceChecker(setup.psu),
          BankSources.orderSource(setup.psu, { pageSize: setup.listingPageSize }).pipe(
            Layer.provide(Layer.succeed(Consents.RefreshTokenKey)(Option.fromUndefinedOr(setup.refreshTokenKey)))
          )
        ).pipe(Layer.provideMerge(BankSources.Credentials.layer), Layer.provideMerge(Layer.mergeAll(client, banks)))
      )
    ),
    Layer.provideMerge(
      Layer.mergeAll(
        Checks.layerSql,
        Consents.layerSource(validityDays),
        ListingReconciliation.layerSql,
        Listings.layerSql,
        BankGate.BankGate.layerSql(setup.bankGate),
        metrics,
        lifecycle,
        webhooks
      )
    ),
    Layer.provideMerge(cluster)
  )
}

/** The bank client's settings with no retries of its own (the workflows retry; every request is counted). */
export const singleRequest = (settings: BankConfig.Settings): BankConfig.Settings => ({
  ...settings,
  retry: { ...settings.retry, maxAttempts: 1 }
})

// ---------------------------------------------------------------------------
// the settings of the environment (`TPPKIT_WORKER_*`, `TPPKIT_WEBHOOK_*`)
// ---------------------------------------------------------------------------

/** A setting of the environment out of its range, or gone: a `FleetError` of reason `settings` saying which. */
const settingError = (message: string): Fleet.FleetError => new Fleet.FleetError({ reason: "settings", message })

/** A back-off from the first wait `initial` (milliseconds), doubled up to 60 times it. */
const sixtyFold = (initial: number): Backoff.Backoff =>
  Backoff.exponential({ initial: Duration.millis(initial), cap: Duration.millis(initial * 60) })

/**
 * How the sweep tries a listing again after a transient failure, from `TPPKIT_WORKER_SWEEP_TRIES` and
 * `TPPKIT_WORKER_SWEEP_BACKOFF_MS` (the first wait; doubled up to 60 times it); unset: `Sweep.defaultRetry`; a
 * variable that is no whole number fails with effect's `ConfigError`.
 */
export const sweepRetryFromEnv: Effect.Effect<Sweep.Retry | undefined, Config.ConfigError> = Effect.gen(function* () {
  const tries = yield* Config.Int("TPPKIT_WORKER_SWEEP_TRIES").pipe(Config.option)
  const backoff = yield* Config.Int("TPPKIT_WORKER_SWEEP_BACKOFF_MS").pipe(Config.option)
  if (Option.isNone(tries) && Option.isNone(backoff)) return undefined
  const initial = Option.getOrUndefined(backoff)
  return {
    tries: Math.max(
      1,
      Option.getOrElse(tries, () => Sweep.defaultRetry.tries)
    ),
    backoff: initial === undefined ? Sweep.defaultRetry.backoff : sixtyFold(initial)
  } satisfies Sweep.Retry
})

/**
 * The page size of the sweep's listings, from `TPPKIT_WORKER_PAGE_SIZE` (a multiple of 10 up to 100; unset: 100,
 * the fewest requests; tests lower it to get more pages).
 */
export const listingPageSizeFromEnv: Effect.Effect<number | undefined, Config.ConfigError | Fleet.FleetError> =
  Config.Int("TPPKIT_WORKER_PAGE_SIZE").pipe(
    Config.option,
    Effect.flatMap((size) =>
      Option.isNone(size)
        ? Effect.succeed(undefined)
        : size.value >= 10 && size.value <= 100 && size.value % 10 === 0
          ? Effect.succeed(size.value)
          : Effect.fail(settingError(`TPPKIT_WORKER_PAGE_SIZE=${size.value}: a multiple of 10 from 10 to 100`))
    )
  )

/**
 * How failed checks are tried again, from `TPPKIT_WORKER_CHECK_BACKOFF_MS` (the first wait; doubled up to 60 times
 * it; default 5 s up to 5 minutes) in the fleet's time zone, and how long `--once` waits for them, from
 * `TPPKIT_WORKER_ONCE_WAIT_MS` (default 2 minutes); the fleet's bank gate waits as long as a check's back-off and
 * is read every `TPPKIT_WORKER_POLL_MS` (default 1 s); `TPPKIT_WORKER_CHECKS_IN_FLIGHT` is the most checks one worker
 * has in flight (default 64).
 */
export const checkRetryFromEnv = (timeZone: string) =>
  Effect.gen(function* () {
    const backoff = yield* Config.Int("TPPKIT_WORKER_CHECK_BACKOFF_MS").pipe(Config.option)
    const wait = yield* Config.Int("TPPKIT_WORKER_ONCE_WAIT_MS").pipe(Config.withDefault(120_000))
    const poll = yield* Config.Int("TPPKIT_WORKER_POLL_MS").pipe(Config.option)
    const cap = yield* Config.Int("TPPKIT_WORKER_CHECKS_IN_FLIGHT").pipe(
      Config.withDefault(FundsCheckWorkflow.maxChecksInFlight)
    )
    if (cap < 1 || cap > 10_000) {
      return yield* settingError("TPPKIT_WORKER_CHECKS_IN_FLIGHT: expected a whole number from 1 to 10000")
    }
    const checkRetry: FundsCheckWorkflow.Retry = Option.isSome(backoff)
      ? { backoff: sixtyFold(backoff.value), timeZone }
      : { ...FundsCheckWorkflow.CheckRetry.defaultValue(), timeZone }
    const bankGate: Partial<BankGate.Settings> = {
      initial: checkRetry.backoff.initial,
      max: checkRetry.backoff.cap,
      ...(Option.isSome(poll) ? { poll: Duration.millis(poll.value) } : {})
    }
    return { checkRetry, onceWaitMillis: Math.max(0, wait), bankGate, checksInFlight: cap }
  })

/**
 * Cluster timing from `TPPKIT_WORKER_POLL_MS` and `TPPKIT_WORKER_LOCK_EXPIRATION_MS` (tests lower them), and the
 * most checks one worker keeps in memory from `TPPKIT_WORKER_RESIDENT_CHECKS` (default `Fleet.maxResidentEntities`).
 */
export const timingFromEnv: Effect.Effect<Fleet.Timing, Config.ConfigError> = Effect.gen(function* () {
  const poll = yield* Config.Int("TPPKIT_WORKER_POLL_MS").pipe(Config.option)
  const lock = yield* Config.Int("TPPKIT_WORKER_LOCK_EXPIRATION_MS").pipe(Config.option)
  const resident = yield* Config.Int("TPPKIT_WORKER_RESIDENT_CHECKS").pipe(Config.option)
  return {
    ...(Option.isSome(resident) ? { maxResidentEntities: Math.max(100, resident.value) } : {}),
    ...(Option.isSome(poll) ? { pollInterval: Duration.millis(poll.value) } : {}),
    ...(Option.isSome(lock) ? { shardLockExpiration: Duration.millis(lock.value) } : {})
  } satisfies Fleet.Timing
})

/**
 * The outbox's timing from `TPPKIT_WEBHOOK_POLL_MS`, `TPPKIT_WEBHOOK_RETRY_SCALE` (Standard Webhooks' retry
 * schedule, each delay multiplied by it: a number above 0 and at most 1; tests shorten the schedule with it),
 * `TPPKIT_WEBHOOK_TIMEOUT_MS` and `TPPKIT_WEBHOOK_LEASE_MS` (tests lower them; unset: `Webhook.layer`'s defaults),
 * and how long `--once` waits for its deliveries, `TPPKIT_WORKER_WEBHOOK_WAIT_MS` (default 30 s). The setting of an
 * earlier version, `TPPKIT_WEBHOOK_BACKOFF_MS`, is refused with the one that took its place.
 */
export const webhookTimingFromEnv = Effect.gen(function* () {
  const read = (name: string) => Config.Int(name).pipe(Config.option, Effect.map(Option.getOrUndefined))
  const gone = yield* Config.String("TPPKIT_WEBHOOK_BACKOFF_MS").pipe(Config.option)
  if (Option.isSome(gone)) {
    return yield* settingError(
      "TPPKIT_WEBHOOK_BACKOFF_MS is gone: deliveries follow Standard Webhooks' retry schedule; TPPKIT_WEBHOOK_RETRY_SCALE (above 0, at most 1) shortens it"
    )
  }
  const scale = yield* Config.Number("TPPKIT_WEBHOOK_RETRY_SCALE").pipe(Config.option)
  if (Option.isSome(scale) && !(scale.value > 0 && scale.value <= 1)) {
    return yield* settingError(
      `TPPKIT_WEBHOOK_RETRY_SCALE=${scale.value}: a number above 0 and at most 1 (each delay of the retry schedule is multiplied by it)`
    )
  }
  const settings: Webhook.Settings = {
    poll: yield* read("TPPKIT_WEBHOOK_POLL_MS"),
    schedule: Option.isNone(scale) ? undefined : Backoff.scale(Webhook.retrySchedule, scale.value),
    timeout: yield* read("TPPKIT_WEBHOOK_TIMEOUT_MS"),
    lease: yield* read("TPPKIT_WEBHOOK_LEASE_MS")
  }
  const wait = yield* Config.Int("TPPKIT_WORKER_WEBHOOK_WAIT_MS").pipe(Config.withDefault(30_000))
  return { settings, onceWait: Math.max(0, wait) }
})

// ---------------------------------------------------------------------------
// what a running worker watches
// ---------------------------------------------------------------------------

/**
 * Waits until every check planned by the sweep of `day` is finished somewhere in the fleet, asking the database
 * once a second while more than 200 are pending and every `poll` near the end (the count of pending checks is read
 * on a partial index, so it stays cheap; BENCHMARKS.md, "The `--once` tail"), and returns how many are pending
 * still: 0, unless `stall` is given and no check of the day finished for that long (a check whose workflow no
 * worker runs any more would be waited for forever; `tppkit worker --once` then says so and exits `incomplete`).
 */
export const awaitDay = (day: string, poll: Duration.Input = "250 millis", stall?: Duration.Input) =>
  Effect.gen(function* () {
    const checks = yield* Checks
    const stallMillis = stall === undefined ? undefined : Duration.toMillis(Duration.fromInputUnsafe(stall))
    let least = Number.POSITIVE_INFINITY
    let progressAt = yield* Clock.currentTimeMillis
    for (;;) {
      // the database away for a while (a restart) is waited for, as the workers' cluster waits for it
      const pending = yield* Effect.retry(checks.pending(day), {
        schedule: Backoff.schedule(Backoff.spaced("1 second")),
        times: 120
      })
      if (pending === 0) return 0
      const now = yield* Clock.currentTimeMillis
      if (pending < least) {
        least = pending
        progressAt = now
      } else if (stallMillis !== undefined && now - progressAt >= stallMillis) return pending
      yield* Effect.sleep(pending > 200 ? "1 second" : poll)
    }
  })

/**
 * Tells the listeners how many of the fleet's shards this worker holds, whenever that changes (read every second),
 * and when it lost them: a second that lasted longer than its shard locks (the process was paused or stalled, so its
 * locks expired and other workers took its shards over) calls `onPause` with how long it was away.
 */
export const watchShards = (total: number, lockMillis: number, onPause: (millis: number) => Effect.Effect<void>) =>
  Effect.gen(function* () {
    const sharding = yield* Sharding
    const ids = Array.from({ length: total }, (_, i) => ShardId.make("default", i + 1))
    let held = -1
    let last = Date.now()
    for (;;) {
      const now = Date.now()
      const away = now - last
      last = now
      if (away > lockMillis && held > 0) {
        yield* Lifecycle.emit({ _tag: "ShardsLost", held, pausedMillis: away })
        yield* onPause(away)
      }
      const count = ids.filter((id) => sharding.hasShardId(id)).length
      if (count !== held) {
        if (count === 0 && held > 0 && away <= lockMillis) {
          yield* Lifecycle.emit({ _tag: "ShardsLost", held, pausedMillis: undefined })
        }
        held = count
        yield* Lifecycle.emit({ _tag: "ShardsHeld", count, total })
      }
      yield* Effect.sleep("1 second")
    }
  })

/**
 * Tells the listeners when the fleet's database stops answering this worker (a query without an answer within 3 s,
 * or failing) and when it answers again, with how long it was away (asked every second, one query at a time: a
 * frozen server holds one of the worker's connections, not one per second).
 */
export const watchDatabase = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  let downSince: number | undefined
  const down = (cause: string) =>
    downSince === undefined
      ? Effect.andThen(
          Effect.sync(() => {
            downSince = Date.now()
          }),
          Lifecycle.emit({ _tag: "DatabaseUnreachable", cause })
        )
      : Effect.void
  for (;;) {
    const ping = yield* Effect.forkChild(Effect.exit(sql`SELECT 1`))
    const answered = yield* Effect.timeoutOption(Fiber.join(ping), "3 seconds")
    if (Option.isNone(answered)) yield* down("no answer within 3 s")
    const exit = Option.isSome(answered) ? answered.value : yield* Fiber.join(ping)
    if (Exit.isFailure(exit)) {
      yield* down(Lifecycle.causeText(exit.cause) ?? "the query failed")
    } else if (downSince !== undefined) {
      yield* Lifecycle.emit({ _tag: "DatabaseBack", afterMillis: Date.now() - downSince })
      downSince = undefined
    }
    yield* Effect.sleep("1 second")
  }
})
