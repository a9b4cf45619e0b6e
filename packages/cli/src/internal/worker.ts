/**
 * The work behind `tppkit worker` and `tppkit worker status`, loaded only when one of them runs (it pulls in the
 * cluster, the workflow engine and the PostgreSQL driver).
 */
import { Backoff, BusinessDayConvention, Calendar, ErrorBody, LocalDate, Profile, type Standard } from "@tppkit/core"
import { BankClient, BankConfig, BankTransport, Budget, type PsuContext } from "@tppkit/http"
import type { Projection } from "@tppkit/schedule"
import {
  AtRisk,
  BankGate,
  BankRate,
  BankSources,
  CheckFailure,
  Checks,
  Consents,
  Database,
  Fleet,
  FundsCheckWorkflow,
  Lifecycle,
  ListingReconciliation,
  Listings,
  Liveness,
  Metrics,
  PgBudgetStore,
  PlanSettings,
  Sweep,
  SweepLog,
  Warnings,
  Webhook
} from "@tppkit/worker"
import {
  Cause,
  Clock,
  Config,
  Cron,
  Deferred,
  Duration,
  Effect,
  Exit,
  Fiber,
  Layer,
  Logger,
  Option,
  Redacted,
  References,
  Result,
  Schedule
} from "effect"
import * as ShardId from "effect/cluster/ShardId"
import { Sharding } from "effect/cluster/Sharding"
import { SqlClient } from "effect/sql"
import { isSqlError } from "effect/sql/SqlError"
import * as Connection from "../Connection.ts"
import * as Failure from "../Failure.ts"
import type { Sources } from "../ForecastEvidence.ts"
import * as Output from "../Output.ts"
import * as Project from "../Project.ts"
import * as WorkerStatus from "../WorkerStatus.ts"
import { settingsOf, withAnnouncedIdentity } from "./client.ts"
import * as DatabaseFailure from "./database.ts"
import * as Environment from "./environment.ts"

/** The parsed flags of `tppkit worker`. */
export interface Input extends Connection.Values {
  readonly daysBefore: number
  readonly calendar: string
  /** `--holidays D,D`: the bank's own closing days, added to the plan's calendar. */
  readonly holidays?: Option.Option<string> | undefined
  /** `--convention`: how the plan moves a payment off a closing day (default following). */
  readonly convention?: BusinessDayConvention.BusinessDayConvention | undefined
  /** `--standard`: the standard this worker's bank's records are read in, in place of its profile's (`--profile`). */
  readonly standard?: Option.Option<Standard.Standard> | undefined
  readonly hour: number
  readonly timeZone: string
  readonly today: Option.Option<string>
  readonly once: boolean
  readonly consents: Option.Option<string>
  readonly metricsPort: Option.Option<number>
  readonly runnerPort: number
  /** `--runner-host`, `--runner-listen`, the runner's TLS files and `--shards` (issue 43). */
  readonly runnerHost?: Option.Option<string> | undefined
  readonly runnerListen?: Option.Option<string> | undefined
  readonly runnerTlsCert?: Option.Option<string> | undefined
  readonly runnerTlsKey?: Option.Option<string> | undefined
  readonly runnerTlsCa?: Option.Option<string> | undefined
  readonly shards?: number | undefined
  /** `--bank-rate N`: the fleet's requests a second to each bank (issue 43). */
  readonly bankRate?: Option.Option<number> | undefined
  readonly logFormat: Lifecycle.Format
  readonly reconfigure: boolean
  readonly webhook: ReadonlyArray<string>
  readonly webhookSecret: ReadonlyArray<Redacted.Redacted<string>>
  /** `--balances FILE`: opening balances stored with the fleet's plan settings for `worker status` (issue 24). */
  readonly balances?: Option.Option<string> | undefined
  /** `--horizon N`: working days the sweep forecasts the accounts with balances ahead (issue 39; default 10). */
  readonly horizon?: number | undefined
}

/** The parsed flags of `tppkit worker status`. */
export interface StatusInput {
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly day: Option.Option<string>
  readonly format: "table" | "json"
  /**
   * A balances file (default: the fleet's stored balances) and an orders file (default: the fleet's plan): the
   * status adds the forecast of the checked accounts (issue 24).
   */
  readonly balances?: Option.Option<string> | undefined
  readonly orders?: Option.Option<string> | undefined
  /** `--standard`: every record of the orders file read in this standard (else each its own). */
  readonly standard?: Option.Option<Standard.Standard> | undefined
  /** `--accounts`: the accounts file (account ids to IBAN and currency). */
  readonly accounts?: Option.Option<string> | undefined
  /** `--listed-on`: the day the `--orders` list was read, from which a COBS list item counts (default today, said). */
  readonly listedOn?: Option.Option<string> | undefined
  /** The rule the forecast from `--orders` projects with: `--calendar` (default auto), `--holidays`, `--convention`. */
  readonly calendar?: string | undefined
  readonly holidays?: Option.Option<string> | undefined
  readonly convention?: string | undefined
  /** `--balance-max-age N`: stored balances older than this many days are flagged (issue 39; default 3). */
  readonly balanceMaxAge?: number | undefined
}

const databaseUrlOf = (url: Option.Option<Redacted.Redacted<string>>) =>
  Option.match(url, {
    onNone: () => Effect.fail(Failure.usage("no database: give --database-url URL or set TPPKIT_DATABASE_URL")),
    onSome: DatabaseFailure.checkUrl
  })

const dateOf = (flag: string, text: Option.Option<string>) =>
  Option.match(text, {
    onNone: () => Effect.succeed(Option.none<LocalDate.LocalDate>()),
    onSome: (t) =>
      Result.match(LocalDate.parse(t.trim()), {
        onSuccess: (d) => Effect.succeed(Option.some(d)),
        onFailure: (reason) => Effect.fail(Failure.usage(`--${flag} ${JSON.stringify(t)}: ${reason}`))
      })
  })

/** `KEY[=IBAN][@PROFILE],…` as consents (a profile by its name: `sbas`, `cobs`, or the worker's own `--profile`). */
export const parseConsents = (text: string): Result.Result<Array<Sweep.Consent>, string> => {
  const out: Array<Sweep.Consent> = []
  for (const part of text.split(",")) {
    let trimmed = part.trim()
    if (trimmed.length === 0) continue
    const at = trimmed.lastIndexOf("@")
    const profile = at < 0 ? undefined : trimmed.slice(at + 1).trim()
    if (profile !== undefined) {
      if (!/^[a-z0-9][a-z0-9-]{0,39}$/.test(profile)) {
        return Result.fail(
          `--consents: ${JSON.stringify(profile)} in ${JSON.stringify(part.trim())} is no profile name (sbas, cobs, or a profile file's name)`
        )
      }
      trimmed = trimmed.slice(0, at).trim()
    }
    const eq = trimmed.indexOf("=")
    const key = eq < 0 ? trimmed : trimmed.slice(0, eq).trim()
    const iban = eq < 0 ? undefined : trimmed.slice(eq + 1).replace(/\s+/g, "")
    if (key.length === 0) return Result.fail(`--consents: empty consent key in ${JSON.stringify(part)}`)
    out.push({
      key,
      ...(iban === undefined || iban.length === 0 ? {} : { iban }),
      ...(profile === undefined ? {} : { profile })
    })
  }
  return out.length === 0 ? Result.fail("--consents: no consent given") : Result.succeed(out)
}

/** A back-off from the first wait `initial` (milliseconds), doubled up to 60 times it. */
const sixtyFold = (initial: number): Backoff.Backoff =>
  Backoff.exponential({ initial: Duration.millis(initial), cap: Duration.millis(initial * 60) })

/**
 * How the sweep tries a listing again after a transient failure, from `TPPKIT_WORKER_SWEEP_TRIES` and
 * `TPPKIT_WORKER_SWEEP_BACKOFF_MS` (the first wait; doubled up to 60 times it); unset: `Sweep.defaultRetry`.
 */
const sweepRetry = Effect.gen(function* () {
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
}).pipe(Effect.mapError((e) => Failure.configuration(Environment.describe(e), e)))

/**
 * The page size of the sweep's listings, from `TPPKIT_WORKER_PAGE_SIZE` (a multiple of 10 up to 100; unset: 100,
 * the fewest requests; tests lower it to get more pages).
 */
const listingPageSize = Config.Int("TPPKIT_WORKER_PAGE_SIZE").pipe(
  Config.option,
  Effect.mapError((e) => Failure.configuration(Environment.describe(e), e)),
  Effect.flatMap((size) =>
    Option.isNone(size)
      ? Effect.succeed(undefined)
      : size.value >= 10 && size.value <= 100 && size.value % 10 === 0
        ? Effect.succeed(size.value)
        : Effect.fail(Failure.configuration(`TPPKIT_WORKER_PAGE_SIZE=${size.value}: a multiple of 10 from 10 to 100`))
  )
)

/**
 * How failed checks are tried again, from `TPPKIT_WORKER_CHECK_BACKOFF_MS` (the first wait; doubled up to 60 times
 * it; default 5 s up to 5 minutes) in the fleet's time zone, and how long `--once` waits for them, from
 * `TPPKIT_WORKER_ONCE_WAIT_MS` (default 2 minutes); the fleet's bank gate waits as long as a check's back-off and
 * is read every `TPPKIT_WORKER_POLL_MS` (default 1 s); `TPPKIT_WORKER_CHECKS_IN_FLIGHT` is the most checks one worker
 * has in flight (default 64).
 */
const checkRetry = (timeZone: string) =>
  Effect.gen(function* () {
    const backoff = yield* Config.Int("TPPKIT_WORKER_CHECK_BACKOFF_MS").pipe(Config.option)
    const wait = yield* Config.Int("TPPKIT_WORKER_ONCE_WAIT_MS").pipe(Config.withDefault(120_000))
    const poll = yield* Config.Int("TPPKIT_WORKER_POLL_MS").pipe(Config.option)
    const cap = yield* Config.Int("TPPKIT_WORKER_CHECKS_IN_FLIGHT").pipe(
      Config.withDefault(FundsCheckWorkflow.maxChecksInFlight)
    )
    if (cap < 1 || cap > 10_000) {
      return yield* Failure.configuration("TPPKIT_WORKER_CHECKS_IN_FLIGHT: expected a whole number from 1 to 10000")
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
  }).pipe(Effect.mapError((e) => (e._tag === "CliFailure" ? e : Failure.configuration(Environment.describe(e), e))))

/**
 * Cluster timing from `TPPKIT_WORKER_POLL_MS` and `TPPKIT_WORKER_LOCK_EXPIRATION_MS` (tests lower them), and the
 * most checks one worker keeps in memory from `TPPKIT_WORKER_RESIDENT_CHECKS` (default `Fleet.maxResidentEntities`).
 */
const timing = Effect.gen(function* () {
  const poll = yield* Config.Int("TPPKIT_WORKER_POLL_MS").pipe(Config.option)
  const lock = yield* Config.Int("TPPKIT_WORKER_LOCK_EXPIRATION_MS").pipe(Config.option)
  const resident = yield* Config.Int("TPPKIT_WORKER_RESIDENT_CHECKS").pipe(Config.option)
  return {
    ...(Option.isSome(resident) ? { maxResidentEntities: Math.max(100, resident.value) } : {}),
    ...(Option.isSome(poll) ? { pollInterval: Duration.millis(poll.value) } : {}),
    ...(Option.isSome(lock) ? { shardLockExpiration: Duration.millis(lock.value) } : {})
  } satisfies Fleet.Timing
}).pipe(Effect.mapError((e) => Failure.configuration(Environment.describe(e), e)))

/**
 * The worker's webhook endpoints: each `--webhook` URL with its secret, the n-th `--webhook-secret` (or the one given
 * for all, or `TPPKIT_WEBHOOK_SECRET`); a URL given twice is one endpoint. A secret is Standard Webhooks' `whsec_`
 * and base64 (`tppkit webhook secret` makes one); during a rotation it is the new and the old, space-separated, and
 * each delivery is signed with both. Never prints a secret.
 */
export const webhookEndpoints = (urls: ReadonlyArray<string>, secrets: ReadonlyArray<Redacted.Redacted<string>>) =>
  Effect.gen(function* () {
    if (urls.length === 0) {
      if (secrets.length > 0) return yield* Failure.usage("--webhook-secret without --webhook")
      return [] as Array<Webhook.Endpoint>
    }
    const fromEnv = yield* Config.Redacted("TPPKIT_WEBHOOK_SECRET").pipe(
      Config.option,
      Effect.mapError((e) => Failure.configuration(Environment.describe(e), e))
    )
    const given = secrets.length > 0 ? secrets : Option.isSome(fromEnv) ? [fromEnv.value] : []
    if (given.length === 0) {
      return yield* Failure.configuration(
        "no secret for --webhook: set TPPKIT_WEBHOOK_SECRET (one for all) or give --webhook-secret per endpoint; tppkit webhook secret makes one"
      )
    }
    if (given.length !== 1 && given.length !== urls.length) {
      return yield* Failure.usage(
        `${urls.length} --webhook but ${given.length} --webhook-secret: give one secret for all or one per endpoint, in order`
      )
    }
    const endpoints = new Map<string, ReadonlyArray<Redacted.Redacted<string>>>()
    for (const [i, url] of urls.entries()) {
      const checked = Webhook.checkUrl(url.trim())
      if (Result.isFailure(checked)) return yield* Failure.usage(checked.failure.message)
      const text = Redacted.value((given.length === 1 ? given[0] : given[i]) as Redacted.Redacted<string>)
      const rotation = text.split(/\s+/).filter((t) => t.length > 0)
      if (rotation.length === 0) return yield* Failure.configuration("an empty webhook secret")
      const keys = rotation.map((t) => Redacted.make(t))
      for (const key of keys) {
        const checkedKey = Webhook.keyOf(key)
        if (Result.isFailure(checkedKey)) {
          return yield* Failure.configuration(
            `the secret of --webhook ${Webhook.displayUrl(url)}: ${checkedKey.failure.message}`
          )
        }
      }
      endpoints.set(checked.success, keys)
    }
    return [...endpoints].map(([url, secret]): Webhook.Endpoint => ({ url, secret }))
  })

/**
 * The outbox's timing from `TPPKIT_WEBHOOK_POLL_MS`, `TPPKIT_WEBHOOK_RETRY_SCALE` (Standard Webhooks' retry
 * schedule, each delay multiplied by it: a number above 0 and at most 1; tests shorten the schedule with it),
 * `TPPKIT_WEBHOOK_TIMEOUT_MS` and `TPPKIT_WEBHOOK_LEASE_MS` (tests lower them; unset: `Webhook.layer`'s defaults),
 * and how long `--once` waits for its deliveries, `TPPKIT_WORKER_WEBHOOK_WAIT_MS` (default 30 s). The setting of an
 * earlier version, `TPPKIT_WEBHOOK_BACKOFF_MS`, is refused with the one that took its place.
 */
const webhookTiming = Effect.gen(function* () {
  const read = (name: string) => Config.Int(name).pipe(Config.option, Effect.map(Option.getOrUndefined))
  const gone = yield* Config.String("TPPKIT_WEBHOOK_BACKOFF_MS").pipe(Config.option)
  if (Option.isSome(gone)) {
    return yield* Failure.configuration(
      "TPPKIT_WEBHOOK_BACKOFF_MS is gone: deliveries follow Standard Webhooks' retry schedule; TPPKIT_WEBHOOK_RETRY_SCALE (above 0, at most 1) shortens it"
    )
  }
  const scale = yield* Config.Number("TPPKIT_WEBHOOK_RETRY_SCALE").pipe(Config.option)
  if (Option.isSome(scale) && !(scale.value > 0 && scale.value <= 1)) {
    return yield* Failure.configuration(
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
}).pipe(Effect.mapError((e) => (e._tag === "CliFailure" ? e : Failure.configuration(Environment.describe(e), e))))

const what = {
  ChecksError: "checks",
  SqlError: `database`,
  SocketServerError: "runner socket",
  ConfigError: "cluster configuration",
  EmbeddedDbError: "runner port",
  FleetError: "fleet",
  WebhookError: "webhook"
} as const

const detailOf = (e: { readonly message: string; readonly cause?: unknown }): string =>
  `${e.message}${e.cause instanceof Error && e.cause.message !== e.message ? ` (${e.cause.message})` : ""}`

/**
 * The one-line failure of a worker's typed error; a database failure names `host:port` and its class (see
 * `internal/database.ts`).
 */
export const failureOf =
  (databaseUrl: Redacted.Redacted<string>) =>
  (
    e: Failure.CliFailure | { readonly _tag: keyof typeof what; readonly message: string; readonly cause?: unknown }
  ): Failure.CliFailure =>
    e._tag === "CliFailure"
      ? e
      : e._tag === "FleetError"
        ? Failure.configuration(e.message, e)
        : e._tag === "WebhookError"
          ? Failure.configuration(`${what[e._tag]}: ${e.message}`, e)
          : isSqlError(e)
            ? DatabaseFailure.failure(databaseUrl, e)
            : Failure.failure(`${what[e._tag]}: ${detailOf(e)}`, e)

/** What a worker runs with once its flags are checked. */
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
export const workerLayer = (setup: Setup) => {
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
        Checks.Checks.layerSql,
        Consents.layerSource(validityDays),
        ListingReconciliation.layerSql,
        Listings.Listings.layerSql,
        BankGate.BankGate.layerSql(setup.bankGate),
        metrics,
        lifecycle,
        webhooks
      )
    ),
    Layer.provideMerge(cluster)
  )
}

/**
 * Waits until every check planned by the sweep of `day` is finished somewhere in the fleet, asking the database
 * once a second while more than 200 are pending and every `poll` near the end (the count of pending checks is read
 * on a partial index, so it stays cheap; BENCHMARKS.md, "The `--once` tail").
 */
export const awaitDay = (day: string, poll: Duration.Input = "250 millis") =>
  Effect.gen(function* () {
    const checks = yield* Checks.Checks
    for (;;) {
      // the database away for a while (a restart) is waited for, as the workers' cluster waits for it
      const pending = yield* Effect.retry(checks.pending(day), { schedule: Schedule.spaced("1 second"), times: 120 })
      if (pending === 0) return
      yield* Effect.sleep(pending > 200 ? "1 second" : poll)
    }
  })

/**
 * The `--once` report's listing counts: the pages of the listings the day's checks were planned from (this run's
 * consents; a consent carried over from an earlier run counts none), and the unattended listing requests of the
 * sweep's consents counted today against the daily budget (every page and every try, failed ones included, by any
 * process of this client sharing the fleet's budget).
 */
const listingCounts = (summary: Sweep.Summary, setup: Setup) =>
  Effect.gen(function* () {
    const pages = summary.consents.reduce((n, c) => n + (c.pages ?? 0), 0)
    const keys = new Set(summary.consents.map((c) => c.consent))
    const usages = yield* Effect.orElseSucceed((yield* Budget.Budget).usages, () => [])
    const requests = usages
      .filter((u) => {
        const parts = Budget.parseConsentKey(u.consentKey)
        return parts !== undefined && parts.clientId === setup.bankSettings.clientId && keys.has(parts.consent)
      })
      .reduce((n, u) => n + u.used, 0)
    return { pages, requests }
  })

/** The bank client's settings with no retries of its own (the workflows retry; every request is counted). */
const singleRequest = (settings: BankConfig.Settings): BankConfig.Settings => ({
  ...settings,
  retry: { ...settings.retry, maxAttempts: 1 }
})

/** How long a stopping worker waits for its checks in flight (a balance check's own deadline is shorter). */
const drainTimeout = "30 seconds"

/**
 * Tells the listeners how many of the fleet's shards this worker holds, whenever that changes (read every second),
 * and when it lost them: a second that lasted longer than its shard locks (the process was paused or stalled, so its
 * locks expired and other workers took its shards over) calls `onPause` with how long it was away.
 */
const watchShards = (total: number, lockMillis: number, onPause: (millis: number) => Effect.Effect<void>) =>
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
const watchDatabase = Effect.gen(function* () {
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

/**
 * `--balances FILE` read and checked before the worker joins, as `tppkit forecast` reads one: a file that cannot be
 * read fails (exit 1), a text that is no balances file is bad input (exit 2), and a record that cannot be read is
 * data that cannot be used (exit 7): the fleet stores a set of balances whole or not at all, since a forecast
 * without an account's balance would leave the account out. Returns the balances as the fleet stores them.
 */
const balancesAtStart = (file: Option.Option<string>) =>
  Effect.gen(function* () {
    if (Option.isNone(file)) return undefined
    // loaded only here: a worker without balances needs none of the forecast
    const { ForecastEvidence, ForecastFiles, Files } = yield* Effect.promise(async () => ({
      ForecastEvidence: await import("../ForecastEvidence.ts"),
      ForecastFiles: await import("@tppkit/schedule/ForecastFiles"),
      Files: await import("./files.ts")
    }))
    const name = file.value
    const bytes = yield* Files.readText("balances file", name, (message) => Failure.failure(message))
    const read = ForecastFiles.balances(name, bytes)
    if (Result.isFailure(read)) return yield* Failure.badInput(`--balances ${name}: ${read.failure.reason.message}`)
    const bad = read.success.unreadable
    if (bad.length > 0) {
      const shown = bad.slice(0, 3).map((u) => `record ${u.index + 1}: ${u.reason}`)
      return yield* Failure.make(
        "data",
        `--balances ${name}: ${bad.length} ${bad.length === 1 ? "record" : "records"} could not be read (${shown.join("; ")}${bad.length > 3 ? "; …" : ""}); the fleet stores a balances file whole, so none was stored and the worker did not start`
      )
    }
    if (read.success.records.length === 0) return yield* Failure.badInput(`--balances ${name}: no balance in it`)
    return ForecastEvidence.storedBalances(read.success.records)
  })

/**
 * The runner's network from `--runner-host`, `--runner-listen` and the TLS files, checked against the database's
 * address (`Fleet.network`): a refusal is one line (exit 3).
 */
const runnerNetwork = (databaseUrl: Redacted.Redacted<string>, input: Input) =>
  Effect.gen(function* () {
    const files = [input.runnerTlsCert, input.runnerTlsKey, input.runnerTlsCa].map((f) =>
      Option.getOrUndefined(f ?? Option.none())
    )
    const given = files.filter((f) => f !== undefined).length
    if (given > 0 && given < 3) {
      return yield* Failure.usage("--runner-tls-cert, --runner-tls-key and --runner-tls-ca go together")
    }
    let tls: Fleet.Tls | undefined
    if (given === 3) {
      const Files = yield* Effect.promise(() => import("./files.ts"))
      const [cert, key, ca] = files as [string, string, string]
      const read = (what: string, file: string) =>
        Files.readText(what, file, (message) => Failure.configuration(message))
      tls = {
        cert: yield* read("runner certificate", cert),
        key: Redacted.make(yield* read("runner key", key)),
        ca: yield* read("fleet CA", ca)
      }
    }
    const host = Option.getOrUndefined(input.runnerHost ?? Option.none())
    const listen = Option.getOrUndefined(input.runnerListen ?? Option.none())
    const checked = Fleet.network(Database.host(databaseUrl), {
      runnerHost: host,
      runnerListen: listen,
      tls
    })
    if (Result.isFailure(checked)) return yield* Failure.configuration(checked.failure.message, checked.failure)
    return checked.success
  })

/** Runs `tppkit worker`. */
export const run = Effect.fn("tppkit.worker")(function* (input: Input) {
  const databaseUrl = yield* databaseUrlOf(input.databaseUrl)
  if (!Number.isInteger(input.daysBefore) || input.daysBefore < 0 || input.daysBefore > 60) {
    return yield* Failure.usage("--days-before must be a whole number from 0 to 60")
  }
  if (input.horizon !== undefined && (!Number.isInteger(input.horizon) || input.horizon < 0 || input.horizon > 260)) {
    return yield* Failure.usage("--horizon must be a whole number of working days from 0 to 260")
  }
  if (!Number.isInteger(input.hour) || input.hour < 0 || input.hour > 23) {
    return yield* Failure.usage("--hour must be from 0 to 23")
  }
  if (Option.isNone(Option.liftThrowable(() => Sweep.dailyCron(input.hour, input.timeZone))())) {
    return yield* Failure.usage(`--time-zone ${JSON.stringify(input.timeZone)}: not an IANA time zone`)
  }
  if (input.runnerPort < 0 || input.runnerPort > 65535)
    return yield* Failure.usage("--runner-port must be from 0 to 65535")
  const shards = input.shards ?? Fleet.shardsPerGroup
  if (!Number.isInteger(shards) || shards < 1 || shards > Fleet.maxShards) {
    return yield* Failure.usage(`--shards must be a whole number from 1 to ${Fleet.maxShards}`)
  }
  const bankRate = Option.getOrUndefined(input.bankRate ?? Option.none())
  if (bankRate !== undefined && !(bankRate > 0 && bankRate <= 1000)) {
    return yield* Failure.usage("--bank-rate must be a number of requests a second above 0, at most 1000")
  }
  const network = yield* runnerNetwork(databaseUrl, input)
  const calendar = Project.calendarOf(input.calendar)
  if (Result.isFailure(calendar)) return yield* Failure.usage(calendar.failure)
  const holidays = Project.datesOf(
    "holidays",
    input.holidays === undefined ? undefined : Option.getOrUndefined(input.holidays)
  )
  if (Result.isFailure(holidays)) return yield* Failure.usage(holidays.failure)
  const convention = input.convention ?? BusinessDayConvention.defaultConvention
  const balances = yield* balancesAtStart(input.balances ?? Option.none())
  const today = yield* dateOf("today", input.today)
  const target = yield* Connection.target(input, { needsClient: true })
  // a day after today in the live environment would send real balance checks now for payments of a future day
  if (Option.isSome(today) && target.environment === "live") {
    const now = LocalDate.ofInstant(yield* Clock.currentTimeMillis, input.timeZone)
    if (today.value > now) {
      return yield* Failure.usage(
        `--today ${LocalDate.format(today.value)} is after today (${LocalDate.format(now)} in ${input.timeZone}): the live bank is never asked about a future day; the sandbox accepts any day`
      )
    }
  }
  const consents = Option.isSome(input.consents)
    ? parseConsents(input.consents.value)
    : Result.succeed([{ key: target.clientId }])
  if (Result.isFailure(consents)) return yield* Failure.usage(consents.failure)
  const write = (line: string) => void process.stderr.write(`${line}\n`)
  const lines = Lifecycle.lineListener(write, input.logFormat)
  const cron = Sweep.dailyCron(input.hour, input.timeZone)
  const nextSweep = Effect.map(Clock.currentTimeMillis, (now) => ({
    _tag: "NextSweep" as const,
    at: Cron.next(cron, now).getTime(),
    timeZone: input.timeZone
  }))
  // after a sweep, the next one (with the daily cron)
  /** Sweep runs started on this worker and not finished yet (a refusal of the credentials lets them record it). */
  let sweepsRunning = 0
  const listener: Lifecycle.Listener = {
    emit: (event) =>
      Effect.andThen(
        Effect.sync(() => {
          if (event._tag === "SweepStarted") sweepsRunning++
          if (event._tag === "SweepFinished") sweepsRunning = Math.max(0, sweepsRunning - 1)
        }),
        Effect.andThen(
          lines.emit(event),
          event._tag === "SweepFinished" && !input.once ? Effect.flatMap(nextSweep, lines.emit) : Effect.void
        )
      )
  }
  const announced = yield* Effect.flatMap(settingsOf(target), withAnnouncedIdentity)
  // --standard: this worker's bank's records read in it, in place of its profile's (the other profiles' banks keep theirs)
  const standard = Option.getOrUndefined(input.standard ?? Option.none())
  const bankSettings: BankConfig.Settings = standard === undefined ? announced : { ...announced, standard }
  /** The banks of the other profiles the fleet's consents name (those of `--consents` first, before joining). */
  const banks = new Map<string, BankConfig.Settings>()
  const addBanks = (consents: ReadonlyArray<{ readonly key: string; readonly profile?: string | undefined }>) =>
    Effect.gen(function* () {
      const named = new Map<string, Array<string>>()
      for (const c of consents) {
        if (c.profile === undefined || c.profile === bankSettings.profile.name || banks.has(c.profile)) continue
        named.set(c.profile, [...(named.get(c.profile) ?? []), c.key])
      }
      if (named.size === 0) return
      const Banks = yield* Effect.promise(() => import("./banks.ts"))
      for (const [name, keys] of named) {
        banks.set(name, singleRequest(yield* Banks.settingsOf(name, keys, bankSettings.profile, process.env)))
      }
    })
  yield* addBanks(consents.success)
  const setup: Setup = {
    listeners: [listener],
    databaseUrl,
    // one request per try: the fleet retries a balance check itself (the check's back-off, the bank gate), so that
    // `attempts` counts the requests the bank received; the sweep retries its listings itself too
    bankSettings: singleRequest(bankSettings),
    banks,
    psu: Connection.psu(input),
    sweep: {
      consents: consents.success,
      daysBefore: input.daysBefore,
      calendar:
        holidays.success.length === 0
          ? calendar.success.calendar
          : Calendar.withHolidays(calendar.success.calendar, holidays.success),
      convention,
      timeZone: input.timeZone,
      hour: input.hour,
      retry: yield* sweepRetry
    },
    timing: yield* timing,
    runnerPort: input.runnerPort,
    network,
    shards: input.shards,
    bankRate: Option.getOrUndefined(input.bankRate ?? Option.none()),
    metricsPort: Option.getOrUndefined(input.metricsPort),
    cron: !input.once,
    listingPageSize: yield* listingPageSize,
    refreshTokenKey: Option.getOrUndefined(yield* Config.Redacted(Consents.refreshTokenKeySetting).pipe(Config.option)),
    ...(yield* checkRetry(input.timeZone)),
    webhooks: yield* webhookEndpoints(input.webhook, input.webhookSecret),
    webhookSettings: { ...(yield* webhookTiming).settings, replace: input.reconfigure },
    horizon: input.horizon
  }
  const webhookWait = (yield* webhookTiming).onceWait
  // one plan per day: the fleet's plan settings are this worker's, or it does not join (or changes them)
  const { changed, fleetConsents } = yield* PlanSettings.claim(
    {
      daysBefore: input.daysBefore,
      calendar: input.calendar,
      ...(holidays.success.length === 0 ? {} : { holidays: holidays.success.map(LocalDate.format) }),
      ...(convention === BusinessDayConvention.defaultConvention ? {} : { convention }),
      hour: input.hour,
      timeZone: input.timeZone,
      ...(balances === undefined ? {} : { balances })
    },
    { reconfigure: input.reconfigure }
  ).pipe(
    // the fleet's consents table: --consents seeds it (a consent already there stays as it is); without them, the
    // client id when the table is empty
    // (on the day given with --today, if any: their validity counts from the day swept, not from the machine's day)
    Effect.tap(() => {
      const seeded = { addedAt: Option.isSome(today) ? today.value * 86_400_000 : undefined }
      return Option.isSome(input.consents)
        ? Consents.seed(setup.sweep.consents, seeded)
        : Effect.flatMap(Consents.list, (rows) =>
            rows.length === 0 ? Consents.seed(setup.sweep.consents, seeded) : Effect.succeed([])
          )
    }),
    // refresh tokens an earlier version kept plain are sealed with the fleet's key
    Effect.tap(() => Consents.sealRefreshTokens),
    Effect.flatMap((changed) => Effect.map(Consents.list, (fleetConsents) => ({ changed, fleetConsents }))),
    Effect.provideService(Consents.RefreshTokenKey, Option.fromUndefinedOr(setup.refreshTokenKey)),
    Effect.provide(Database.layer(databaseUrl, { maxConnections: 1 })),
    Effect.catchTag("ChecksError", (e) => Effect.fail(Failure.configuration(e.message, e))),
    Effect.catchTag("PlanSettingsError", (e) => Effect.fail(Failure.configuration(e.message, e))),
    Effect.catchTag("SqlError", (e) => Effect.fail(DatabaseFailure.failure(databaseUrl, e)))
  )
  // one fleet serves several banks: each profile the fleet's consents name besides this worker's own needs its bank
  yield* addBanks(fleetConsents)
  if (changed) {
    write(
      Lifecycle.format(
        new Date(),
        [
          ["level", "warn"],
          ["event", "reconfigured"],
          ["message", "the fleet's plan settings are now this worker's, for the days not yet swept"]
        ],
        input.logFormat
      )
    )
  }
  let joined = false
  /** Set when this worker finds it was paused past its shard locks (how long it was away). */
  const paused = Deferred.makeUnsafe<number>()
  /** The day this worker sweeps (`--once`). */
  let sweeping: string | undefined
  // the bank refusing this client's credentials stops the worker at once: nothing more is sent, one line says why
  const credentialsRefused = Effect.gen(function* () {
    const refusal = yield* (yield* BankSources.Credentials).refused
    // a sweep run under way here fails on the same refusal: it records why (worker status shows it) before the
    // worker stops, for a few seconds at most
    const waitUntil = (yield* Clock.currentTimeMillis) + 5000
    while (sweepsRunning > 0 && (yield* Clock.currentTimeMillis) < waitUntil) yield* Effect.sleep("50 millis")
    const code =
      refusal.reason._tag === "Unauthorized" || refusal.reason._tag === "BadRequest"
        ? ErrorBody.code(refusal.reason.body)
        : undefined
    return yield* Failure.configuration(
      `the bank refused this client's credentials (${code ?? "refused"}): ${refusal.message}; check TPPKIT_CLIENT_ID and TPPKIT_CLIENT_SECRET (nothing more is sent)`,
      refusal
    )
  })
  const work = Effect.gen(function* () {
    joined = true
    yield* Lifecycle.emit({
      _tag: "Joined",
      database: Database.address(databaseUrl),
      consents: setup.sweep.consents.length
    })
    const lockMillis = Duration.toMillis(Duration.fromInputUnsafe(setup.timing.shardLockExpiration ?? "20 seconds"))
    yield* Effect.forkChild(
      watchShards(setup.shards ?? Fleet.shardsPerGroup, lockMillis, (millis) =>
        Deferred.succeed(paused, millis).pipe(Effect.asVoid)
      )
    )
    yield* Effect.forkChild(watchDatabase)
    if (!input.once) yield* Effect.flatMap(nextSweep, Lifecycle.emit)
    const first = Option.isSome(today)
      ? today.value
      : LocalDate.ofInstant(yield* Clock.currentTimeMillis, input.timeZone)
    if (!input.once && Option.isNone(today)) return yield* Effect.never
    const day = LocalDate.format(first)
    sweeping = day
    const summary = yield* Sweep.sweepNow(day)
    // a sweep that failed on the bank refusing the credentials: the refusal's one line says it (exit 3)
    if ((yield* BankSources.Credentials).current() !== undefined) return yield* Effect.never
    if (summary.rerun) {
      yield* Output.errorLine(`tppkit: the sweep of ${day} had failed; running it again (run ${summary.run ?? 0})`)
    }
    const failed = summary.consents.filter((c) => c.failure !== undefined)
    for (const f of failed) {
      const unread =
        f.pagesUnread === undefined
          ? ""
          : `${f.pagesUnread === "unknown" ? "pages not read (page 0 among them)" : `page(s) ${f.pagesUnread.join(", ")} not read`} and no complete listing kept: their payments are not planned (${f.planned} planned from the ${f.pagesKept ?? 0} page(s) kept); `
      yield* Output.errorLine(
        `tppkit: sweep of ${day}, consent ${f.consent}: ${unread}${f.failure === undefined ? "" : Lifecycle.listingCause(f.failure)}`
      )
    }
    // consents planned in part from an earlier day's listing (their pages could not be read today)
    const partial = summary.consents.filter((c) => c.pagesUnread !== undefined)
    if (!input.once) return yield* Effect.never
    yield* awaitDay(day)
    const checks = yield* Checks.Checks
    // a failed check is an answer only when it is final (a refusal, a payment that cannot be sent); checks that
    // failed on a transient fault are tried again by their workflows: wait for them up to the `--once` bound
    const unansweredNow = Effect.gen(function* () {
      const { failed: n } = yield* checks.summary(day)
      if (n === 0) return 0
      const rows = yield* checks.list({ sweepDay: day })
      return rows.filter((r) => r.outcome === "failed" && !CheckFailure.isFinal(r.failure)).length
    })
    const started = yield* Clock.currentTimeMillis
    let unanswered = yield* unansweredNow
    while (unanswered > 0 && (yield* Clock.currentTimeMillis) - started < (setup.onceWaitMillis ?? 0)) {
      yield* Effect.sleep("1 second")
      yield* awaitDay(day)
      unanswered = yield* unansweredNow
    }
    const counts = yield* checks.summary(day)
    const sweep = failed.length === 0 ? "complete" : "incomplete"
    const detailsPending = summary.consents
      .filter((c) => (c.detailsPending ?? []).length > 0)
      .map((c) => ({ consent: c.consent, orders: c.detailsPending ?? [] }))
    // the checks asked more than once and those planned from an earlier day's listing, read only when there are any
    const standIns = partial.reduce((n, c) => n + (c.plannedFromEarlier ?? 0), 0)
    const rows = counts.repeated > 0 || standIns > 0 ? yield* checks.list({ sweepDay: day }) : []
    const repeats = rows
      .filter((r) => r.attempts > 1)
      .map((r) => ({
        consent: r.consent,
        orderId: r.orderId,
        nominalDate: r.nominalDate,
        attempts: r.attempts,
        unconfirmed: r.unconfirmed
      }))
    const listedOn = rows
      .filter((r) => r.listedOn !== undefined)
      .map((r) => ({
        consent: r.consent,
        orderId: r.orderId,
        nominalDate: r.nominalDate,
        listedOn: r.listedOn,
        outcome: r.outcome ?? null
      }))
    yield* Lifecycle.emit({
      _tag: "RunFinished",
      day,
      checks: counts.checks,
      repeats,
      standIns: listedOn.length,
      unplanned: failed.map((f) => ({
        consent: f.consent,
        pagesUnread: f.pagesUnread ?? "unknown",
        cause: f.failure === undefined ? "not listed" : Lifecycle.listingCause(f.failure)
      }))
    })
    // the day's events delivered before the worker leaves (what is left stays in the outbox for the fleet)
    const outbox = yield* Effect.serviceOption(Webhook.Outbox)
    const undelivered = Option.isNone(outbox) ? undefined : yield* outbox.value.flush(webhookWait)
    if (undelivered !== undefined && undelivered > 0) {
      yield* Output.errorLine(
        `tppkit: ${undelivered} webhook deliveries not made yet; they stay in the fleet's outbox and a worker with --webhook delivers them`
      )
    }
    const report = {
      day,
      checks: counts.checks,
      APPR: counts.APPR,
      DECL: counts.DECL,
      failed: counts.failed,
      repeated: counts.repeated,
      // balance-check requests sent for the day's checks (every attempt), and those in flight when a worker died
      requests: counts.requests,
      unconfirmed: counts.unconfirmed,
      sweep,
      listing: yield* listingCounts(summary, setup),
      ...(summary.rerun ? { run: summary.run ?? 0 } : {}),
      ...(failed.length === 0 ? {} : { unlisted: failed.map((f) => f.consent) }),
      ...(partial.length === 0
        ? {}
        : {
            partial: partial.map((c) => ({
              consent: c.consent,
              pagesKept: c.pagesKept ?? 0,
              pagesUnread: c.pagesUnread,
              plannedFrom: c.plannedFrom ?? null,
              plannedFromEarlier: c.plannedFromEarlier ?? 0
            }))
          }),
      // each check planned from an earlier day's listing (its pages could not be read today), with that day
      ...(listedOn.length === 0 ? {} : { listedOn }),
      // orders listed but not planned while their details are pending (read within a later day's budget)
      ...(detailsPending.length === 0 ? {} : { detailsPending }),
      unanswered,
      ...(undelivered === undefined ? {} : { undelivered })
    }
    yield* Output.line(JSON.stringify(report))
    if (failed.length > 0 || unanswered > 0) {
      const parts = [
        ...(failed.length > 0 ? [`the standing orders of ${failed.length} consent(s) could not be listed`] : []),
        ...(unanswered > 0 ? [`${unanswered} check(s) have no answer yet`] : [])
      ]
      return yield* Failure.make("incomplete", `sweep of ${day} incomplete: ${parts.join("; ")}`)
    }
  })
  // a `--once` worker that was paused past its shard locks gives up within the lock timeout and a minute: the
  // checks of the shards it lost are the other workers' to finish, and it says what it leaves
  const gaveUp = Effect.gen(function* () {
    if (!input.once) return yield* Effect.never
    const away = yield* Deferred.await(paused)
    const lockMillis = Duration.toMillis(Duration.fromInputUnsafe(setup.timing.shardLockExpiration ?? "20 seconds"))
    yield* Effect.sleep(Duration.millis(lockMillis + 60_000))
    return yield* Failure.make(
      "incomplete",
      `this worker was paused for ${Math.round(away / 1000)} s and lost its shards; it gave up ${sweeping === undefined ? "the sweep" : `waiting for the sweep of ${sweeping}`} (the fleet's other workers finish its checks; tppkit worker status shows them)`
    )
  })
  // the day's work ending after the bank refused the credentials (a sweep that failed on it, checks it refused) leaves
  // the answer to the refusal: one line, exit 3, whichever of the two ends first
  const workUnlessRefused = Effect.gen(function* () {
    const exit = yield* Effect.exit(work)
    if ((yield* BankSources.Credentials).current() !== undefined) return yield* Effect.never
    return yield* exit
  })
  const program = Effect.raceFirst(Effect.raceFirst(workUnlessRefused, credentialsRefused), gaveUp)
  // SIGTERM or SIGINT: no further check is sent, and the checks in flight get their answers recorded before the
  // worker stops, so that no other worker sends them again
  const drain = Effect.gen(function* () {
    const inFlight = yield* FundsCheckWorkflow.InFlight
    const running = yield* inFlight.count
    if (running > 0) {
      yield* Output.errorLine(
        `tppkit: stopping: no further check is sent; waiting for the ${running} check(s) in flight`
      ).pipe(Effect.ignore)
    }
    const left = yield* inFlight.drain(drainTimeout)
    if (left > 0) yield* Output.errorLine(`tppkit: stopped with ${left} check(s) still in flight`).pipe(Effect.ignore)
  })
  return yield* program.pipe(
    Effect.onInterrupt(() => drain),
    Effect.provide(workerLayer(setup)),
    // left the fleet: the layer (runner, shards) is released by now
    Effect.onExit((exit) =>
      joined
        ? lines.emit({
            _tag: "Left",
            reason: exit._tag === "Success" ? "done" : Cause.hasInterruptsOnly(exit.cause) ? "stopped" : "failed"
          })
        : Effect.void
    ),
    // effect's own warnings (the cluster's) go to stderr as one short line each, cause first, no stack trace
    // (stdout is the worker's report); its info logs (runner listening, shard moves) are left out
    Effect.provide(Logger.layer([Lifecycle.logger(write, input.logFormat)])),
    Effect.provideService(References.MinimumLogLevel, "Warn"),
    Effect.mapError(failureOf(databaseUrl))
  )
})

/**
 * The status in the fleet's database: every check (or those planned by the sweep of `day`), the budget, the sweep
 * record, the webhook deliveries not made yet, today in the fleet's time zone (its plan settings', or the bank's), the
 * reconciliations of the sweeps' listings, and the opening balances stored with the plan settings (if any).
 */
export const readStatus = (
  day: Option.Option<string>,
  limit: number,
  balanceMaxAge: number = AtRisk.defaultBalanceMaxAge
) =>
  Effect.gen(function* () {
    const checks = yield* Checks.Checks
    const sql = yield* SqlClient.SqlClient
    const rows = yield* checks.list(Option.isSome(day) ? { sweepDay: day.value } : {})
    const budget = yield* Option.isSome(day)
      ? sql<{ consent_key: string; day: string; used: number }>`SELECT consent_key, day, used FROM tppkit_budget
          WHERE day = ${day.value} ORDER BY day, consent_key`
      : sql<{ consent_key: string; day: string; used: number }>`SELECT consent_key, day, used FROM tppkit_budget
          ORDER BY day, consent_key`
    // each consent's bank profile, when the fleet's consents name one: its budget shows it, with its daily limit
    const profiles = new Map((yield* Consents.list).map((c) => [c.key, c.profile]))
    const sweeps = yield* SweepLog.list(Option.getOrUndefined(day))
    const deliveries = yield* Webhook.outstanding()
    const endpoints = yield* Webhook.endpoints
    const reading = yield* Liveness.read
    const reconciliations = yield* ListingReconciliation.list(Option.getOrUndefined(day))
    const plan = yield* PlanSettings.stored
    const timeZone = Option.isSome(plan) ? plan.value.settings.timeZone : LocalDate.bankTimeZone
    const today = Option.liftThrowable(() => LocalDate.format(LocalDate.ofInstant(Date.now(), timeZone)))()
    // the warnings of the day asked for, else of the latest day swept, else of today
    const [latest] = yield* sql<{ day: string | null }>`SELECT max(day) AS day FROM tppkit_sweep_log`
    const warnDay = Option.getOrUndefined(day) ?? latest?.day ?? Option.getOrUndefined(today) ?? "0000-01-01"
    const changesSince = LocalDate.format(LocalDate.addDays(LocalDate.parseUnsafe(warnDay), -6))
    const changes = (yield* Warnings.changes(changesSince)).filter((c) => c.day <= warnDay).slice(-200)
    const storedBalances = Option.isSome(plan) ? (plan.value.settings.balances ?? []) : []
    const warnings: WorkerStatus.Warned = {
      day: warnDay,
      atRisk: yield* Warnings.openRisks(warnDay),
      changes,
      changesSince,
      consents: yield* Warnings.consentStates,
      balances: storedBalances.map((b) => ({ iban: b.iban, date: b.date, ageDays: AtRisk.ageDays(b.date, warnDay) })),
      balanceMaxAge
    }
    const status: WorkerStatus.Status = {
      checks: rows,
      budget: budget.map((b) => {
        const profile = profiles.get(Budget.parseConsentKey(b.consent_key)?.consent ?? b.consent_key)
        const own = profile === undefined ? undefined : Profile.builtIns.get(profile)?.unattended.dailyLimit
        return {
          consentKey: b.consent_key,
          day: b.day,
          used: Number(b.used),
          limit: own ?? limit,
          ...(profile === undefined ? {} : { profile })
        }
      }),
      sweeps,
      deliveries,
      endpoints,
      liveness: { reading, verdict: Liveness.verdict(reading) },
      today: Option.getOrUndefined(today),
      reconciliations,
      warnings
    }
    // the opening balances the fleet's workers were started with (`--balances`), for the status's forecast
    return { ...status, balances: Option.isSome(plan) ? plan.value.settings.balances : undefined }
  })

/** Runs `tppkit worker status`. */
export const status = Effect.fn("tppkit.worker.status")(function* (input: StatusInput) {
  const databaseUrl = yield* databaseUrlOf(input.databaseUrl)
  const day = yield* dateOf("day", input.day)
  const tuning = yield* Effect.mapError(BankConfig.tuningFromEnv, (e) =>
    Failure.configuration(Environment.describe(e), e)
  )
  const limit = tuning.budget?.dailyLimit ?? BankConfig.defaults.budget.dailyLimit
  if (input.balanceMaxAge !== undefined && (!Number.isInteger(input.balanceMaxAge) || input.balanceMaxAge < 0)) {
    return yield* Failure.usage(`--balance-max-age ${input.balanceMaxAge}: a number of days, 0 or more`)
  }
  const current = yield* readStatus(Option.map(day, LocalDate.format), limit, input.balanceMaxAge).pipe(
    Effect.provide(Checks.Checks.layerSql.pipe(Layer.provideMerge(Database.layer(databaseUrl, { maxConnections: 2 })))),
    Effect.catchTag("ChecksError", (e) => Effect.fail(Failure.failure(e.message, e))),
    Effect.catchTag("SqlError", (e) => Effect.fail(DatabaseFailure.failure(databaseUrl, e)))
  )
  const forecast = yield* statusForecast(input, current.checks, current.balances)
  // an amount with more decimals than its currency's minor unit: printed whole, never rounded, and said
  const beyond = WorkerStatus.beyondMinorUnits(current)
  if (beyond.length > 0)
    yield* Effect.flatMap(
      Effect.promise(() => import("./orders.ts")),
      (o) => o.warn(beyond)
    )
  yield* Output.line(
    input.format === "json"
      ? JSON.stringify({
          ...WorkerStatus.json(current),
          ...WorkerStatus.fleetJson(current),
          ...WorkerStatus.warningsJson(current),
          ...(forecast === undefined ? {} : { forecast: forecast.json })
        })
      : [...WorkerStatus.table(current), ...(forecast?.lines ?? [])].join("\n")
  )
  // records of --orders that could not be read: each on stderr, then exit 7, as for every command that reads orders
  // records of --orders read whole that pay nothing: each on stderr with its reason, the exit code unchanged
  for (const s of forecast?.skipped ?? []) {
    yield* Output.errorLine(Output.printable(`tppkit: skipped ${s.orderId ?? "an order"}: ${s.reason}`))
  }
  const unread = forecast?.unread ?? []
  if (unread.length > 0) {
    const Orders = yield* Effect.promise(() => import("./orders.ts"))
    yield* Orders.warnUnread(unread)
    const file = Option.getOrElse(input.orders ?? Option.none(), () => "-")
    return yield* Failure.make("data", Orders.unreadMessage(file, unread.length, "forecast"))
  }
})

/**
 * The forecast of the checked accounts with the fleet's answers beside it, when balances are known: a `--balances`
 * file, else those stored with the fleet's plan settings (`tppkit worker --balances`); the payments of an
 * `--orders` file, else of the fleet's plan (the checks of the status's day, or of every day). `undefined` without
 * balances (an `--orders` file then is a usage error).
 */
const statusForecast = (
  input: StatusInput,
  rows: ReadonlyArray<Checks.Row>,
  stored: ReadonlyArray<PlanSettings.Balance> | undefined
) =>
  Effect.gen(function* () {
    const balancesFile = Option.getOrUndefined(input.balances ?? Option.none())
    const ordersFile = Option.getOrUndefined(input.orders ?? Option.none())
    if (balancesFile === undefined && stored === undefined) {
      if (ordersFile === undefined) return undefined
      return yield* Failure.usage(
        "--orders needs opening balances: give --balances FILE, or start the fleet's workers with --balances FILE"
      )
    }
    // loaded only here: the worker's start and a status without balances need none of the forecast
    const { ForecastEvidence, Files, Orders, Schedule } = yield* Effect.promise(async () => ({
      ForecastEvidence: await import("../ForecastEvidence.ts"),
      Files: await import("./files.ts"),
      Orders: await import("./orders.ts"),
      Schedule: await import("@tppkit/schedule")
    }))
    const sources: Sources = {
      balances: balancesFile === undefined ? "stored" : "file",
      orders: ordersFile === undefined ? "plan" : "file"
    }
    const balances =
      balancesFile === undefined
        ? ForecastEvidence.balancesOfStored(stored ?? [])
        : Result.mapError(
            Schedule.ForecastFiles.balances(
              balancesFile,
              yield* Files.readText("balances file", balancesFile, (message) => Failure.failure(message))
            ),
            (e) => e.reason.message
          )
    if (Result.isFailure(balances)) {
      return yield* Failure.badInput(`${balancesFile ?? "the fleet's stored balances"}: ${balances.failure}`)
    }
    const none: ReadonlyArray<{ readonly orderId: string | undefined; readonly reason: string }> = []
    const checks = ForecastEvidence.checksOf(rows)
    const window = ForecastEvidence.windowOf(checks)
    if (window === undefined) {
      return {
        lines: ["", "No answered checks yet: no forecast to set them beside."],
        json: ForecastEvidence.json(undefined, sources),
        unread: none,
        skipped: none
      }
    }
    let orders: ReadonlyArray<Projection.ProjectableOrder>
    let unread = none
    let skipped = none
    // the rule of a forecast from --orders: --calendar (each currency's own by default), --holidays, --convention
    const rule = Project.settings({
      from: LocalDate.format(window.from),
      to: LocalDate.format(window.to),
      calendar: input.calendar ?? Project.AUTO,
      holidays: input.holidays === undefined ? undefined : Option.getOrUndefined(input.holidays),
      convention: input.convention ?? "following"
    })
    if (Result.isFailure(rule)) return yield* Failure.usage(rule.failure)
    if (ordersFile === undefined) orders = ForecastEvidence.ordersOfPlan(rows)
    else {
      const decoded = yield* Orders.readListed(ordersFile, input.standard, input.accounts, input.listedOn)
      orders = Project.projectable(decoded.orders, rule.success)
      unread = decoded.unread
      skipped = decoded.skipped
    }
    const made = Schedule.Forecast.make({
      orders,
      balances: balances.success.records,
      window,
      options:
        ordersFile === undefined
          ? ForecastEvidence.planOptions
          : { calendar: rule.success.calendar, convention: rule.success.convention },
      checks,
      ladder: false
    })
    if (Result.isFailure(made)) return yield* Failure.badInput(made.failure.message)
    return {
      lines: ForecastEvidence.section(made.success, WorkerStatus.width, sources),
      json: ForecastEvidence.json(made.success, sources),
      unread,
      skipped
    }
  })
