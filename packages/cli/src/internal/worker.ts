/**
 * The work behind `tppkit worker`, loaded only when it runs (it pulls in the cluster, the workflow engine and the
 * PostgreSQL driver): the flags checked (`workerSettings.ts`), the worker's layer (worker's `Runner`) joined, a sweep
 * run (`--once`) or the daily cron, and what it watches meanwhile (worker's `Runner`); `tppkit worker status` is
 * `workerStatus.ts`.
 */
import { BusinessDayConvention, Calendar, ErrorBody, LocalDate } from "@tppkit/core"
import { type BankConfig, Budget } from "@tppkit/http"
import {
  BankSources,
  Checks,
  Consents,
  Database,
  DayReport,
  Fleet,
  FundsCheckWorkflow,
  Lifecycle,
  PgBudgetStore,
  PlanSettings,
  Runner,
  Sweep,
  Webhook
} from "@tppkit/worker"
import { Cause, Clock, Config, Cron, Deferred, Duration, Effect, Logger, Option, References, Result } from "effect"
import * as Connection from "../Connection.ts"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"
import * as Project from "../Project.ts"
import { settingsOf } from "./client.ts"
import * as DatabaseFailure from "./database.ts"
import { failureOf } from "./workerFailure.ts"
import {
  balancesAtStart,
  databaseUrlOf,
  dateOf,
  fromEnv,
  type Input,
  parseConsents,
  runnerNetwork,
  webhookEndpoints
} from "./workerSettings.ts"
import { listingCounts } from "./workerWatch.ts"

/** How long a stopping worker waits for its checks in flight (a balance check's own deadline is shorter). */
const drainTimeout = "30 seconds"

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
  // the budget's bank identity is the fleet's, agreed through its database whichever worker asks first: a worker that
  // heard nothing from a mock bank counts against the same budget rows as the others, not rows of its own (issue 43)
  const agreed = (settings: BankConfig.Settings) =>
    PgBudgetStore.agreeIdentity(settings.baseUrl, Budget.announcement(settings)).pipe(
      Effect.tap(({ heard, identity }) =>
        heard._tag === "NoAnswer"
          ? Effect.sync(() =>
              write(
                Lifecycle.format(
                  new Date(),
                  [
                    ["level", "warn"],
                    ["event", "bank_identity"],
                    ["bank", settings.baseUrl],
                    [
                      "message",
                      `the bank did not say which instance it is (${heard.detail}); its daily budget counts under ${identity}, the fleet's`
                    ]
                  ],
                  input.logFormat
                )
              )
            )
          : Effect.void
      ),
      Effect.map(({ identity }) =>
        identity === settings.baseUrl ? settings : { ...settings, bankIdentity: identity }
      ),
      Effect.provide(Database.layer(databaseUrl, { maxConnections: 1 })),
      Effect.catchTag("SqlError", (e) => Effect.fail(DatabaseFailure.failure(databaseUrl, e)))
    )
  const loaded = yield* settingsOf(target)
  // --standard: this worker's bank's records read in it, in place of its profile's (the other profiles' banks keep theirs)
  const standard = Option.getOrUndefined(input.standard ?? Option.none())
  const own: BankConfig.Settings = standard === undefined ? loaded : { ...loaded, standard }
  /** The banks of the other profiles the fleet's consents name (those of `--consents` first, before joining). */
  const banks = new Map<string, BankConfig.Settings>()
  /** The settings of the other profiles' banks that `consents` name and that are not known yet: a missing one is refused. */
  const othersOf = (consents: ReadonlyArray<{ readonly key: string; readonly profile?: string | undefined }>) =>
    Effect.gen(function* () {
      const named = new Map<string, Array<string>>()
      for (const c of consents) {
        if (c.profile === undefined || c.profile === own.profile.name || banks.has(c.profile)) continue
        named.set(c.profile, [...(named.get(c.profile) ?? []), c.key])
      }
      const found: Array<readonly [string, BankConfig.Settings]> = []
      if (named.size === 0) return found
      const Banks = yield* Effect.promise(() => import("./banks.ts"))
      for (const [name, keys] of named)
        found.push([name, yield* Banks.settingsOf(name, keys, own.profile, process.env)])
      return found
    })
  const addOthers = (found: ReadonlyArray<readonly [string, BankConfig.Settings]>) =>
    Effect.forEach(
      found,
      ([name, settings]) =>
        Effect.map(agreed(settings), (identified) => {
          banks.set(name, Runner.singleRequest(identified))
        }),
      { discard: true }
    )
  const addBanks = (consents: ReadonlyArray<{ readonly key: string; readonly profile?: string | undefined }>) =>
    Effect.flatMap(othersOf(consents), addOthers)
  // a consent of a profile this worker has no bank for is refused before the database is asked anything (exit 3)
  const othersFirst = yield* othersOf(consents.success)
  const bankSettings = yield* agreed(own)
  yield* addOthers(othersFirst)
  const setup: Runner.Setup = {
    listeners: [listener],
    databaseUrl,
    // one request per try: the fleet retries a balance check itself (the check's back-off, the bank gate), so that
    // `attempts` counts the requests the bank received; the sweep retries its listings itself too
    bankSettings: Runner.singleRequest(bankSettings),
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
      retry: yield* fromEnv(Runner.sweepRetryFromEnv)
    },
    timing: yield* fromEnv(Runner.timingFromEnv),
    runnerPort: input.runnerPort,
    network,
    shards: input.shards,
    bankRate: Option.getOrUndefined(input.bankRate ?? Option.none()),
    metricsPort: Option.getOrUndefined(input.metricsPort),
    cron: !input.once,
    listingPageSize: yield* fromEnv(Runner.listingPageSizeFromEnv),
    refreshTokenKey: Option.getOrUndefined(yield* Config.Redacted(Consents.refreshTokenKeySetting).pipe(Config.option)),
    ...(yield* fromEnv(Runner.checkRetryFromEnv(input.timeZone))),
    webhooks: yield* webhookEndpoints(input.webhook, input.webhookSecret),
    webhookSettings: { ...(yield* fromEnv(Runner.webhookTimingFromEnv)).settings, replace: input.reconfigure },
    horizon: input.horizon
  }
  const webhookWait = (yield* fromEnv(Runner.webhookTimingFromEnv)).onceWait
  // one plan per day: the fleet's plan settings are this worker's, or it does not join (or changes them)
  const { changed, fleetConsents } = yield* PlanSettings.claim(
    {
      daysBefore: input.daysBefore,
      calendar: input.calendar,
      ...(holidays.success.length === 0 ? {} : { holidays: holidays.success.map(LocalDate.format) }),
      ...(convention === BusinessDayConvention.defaultConvention ? {} : { convention }),
      // the standard the bank's records are read in, where it is not the profile's own: two workers read them alike
      ...(standard === undefined || standard === loaded.profile.standard ? {} : { standard }),
      // the profile this worker's bank is read with: two workers never read one bank with two profiles (issue 43)
      profile: loaded.profile.name,
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
      const seeded = { addedAt: Option.isSome(today) ? LocalDate.toEpochMillis(today.value) : undefined }
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
      Runner.watchShards(setup.shards ?? Fleet.shardsPerGroup, lockMillis, (millis) =>
        Deferred.succeed(paused, millis).pipe(Effect.asVoid)
      )
    )
    yield* Effect.forkChild(Runner.watchDatabase)
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
    const failed = DayReport.unlisted(summary)
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
    const partial = DayReport.partial(summary)
    if (!input.once) return yield* Effect.never
    // a day none of whose checks finishes for the `--once` wait (at least a minute) is left to the fleet, said below:
    // a check whose workflow no worker runs any more is not waited for forever
    const stallMillis = Math.max(60_000, setup.onceWaitMillis ?? 0)
    let pending = yield* Runner.awaitDay(day, undefined, Duration.millis(stallMillis))
    const checks = yield* Checks.Checks
    // a failed check is an answer only when it is final (a refusal, a payment that cannot be sent); checks that
    // failed on a transient fault are tried again by their workflows: wait for them up to the `--once` bound
    const unansweredNow = Effect.gen(function* () {
      const { failed: n } = yield* checks.summary(day)
      if (n === 0) return 0
      return DayReport.unanswered(yield* checks.list({ sweepDay: day }))
    })
    // the first of the checks still pending, by order and nominal date
    const pendingOrders = Effect.map(checks.list({ sweepDay: day }), (rows) => {
      const left = rows.filter((r) => r.outcome === undefined)
      const named = left.slice(0, 5).map((r) => `${r.orderId} ${LocalDate.format(r.nominalDate)}`)
      return `${named.join(", ")}${left.length > named.length ? ", …" : ""}`
    })
    const started = yield* Clock.currentTimeMillis
    let unanswered = yield* unansweredNow
    while (
      pending === 0 &&
      unanswered > 0 &&
      (yield* Clock.currentTimeMillis) - started < (setup.onceWaitMillis ?? 0)
    ) {
      yield* Effect.sleep("1 second")
      pending = yield* Runner.awaitDay(day, undefined, Duration.millis(stallMillis))
      unanswered = yield* unansweredNow
    }
    const counts = yield* checks.summary(day)
    const sweep = failed.length === 0 ? "complete" : "incomplete"
    const { detailsPending, unread, skipped, warnings } = DayReport.records(summary)
    // the checks asked more than once and those planned from an earlier day's listing, read only when there are any
    const rows = counts.repeated > 0 || DayReport.standIns(summary) > 0 ? yield* checks.list({ sweepDay: day }) : []
    const { repeats, listedOn } = DayReport.checks(rows)
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
      // records of the listings that could not be read as standing orders (the others were planned; nothingRead: none
      // of the listing's records could be)
      ...(unread.length === 0 ? {} : { unread }),
      // records of the listings read whole that pay nothing (nothing to plan for them)
      ...(skipped.length === 0 ? {} : { skipped }),
      ...(warnings.length === 0 ? {} : { warnings }),
      unanswered,
      // checks without an outcome when none of the day's checks had finished for the wait (left to the fleet)
      ...(pending === 0 ? {} : { pending }),
      ...(undelivered === undefined ? {} : { undelivered })
    }
    yield* Output.line(JSON.stringify(report))
    const parts = [
      ...(failed.length > 0 ? [`the standing orders of ${failed.length} consent(s) could not be listed`] : []),
      ...(unanswered > 0 ? [`${unanswered} check(s) have no answer yet`] : []),
      ...(pending > 0
        ? [
            `${pending} check(s) still pending, none of the day's checks finished for ${Math.round(stallMillis / 1000)} s (${yield* pendingOrders}; tppkit worker status shows them)`
          ]
        : [])
    ]
    // unread records are data (exit 7), said before an incomplete sweep (9) as every command says them before 8
    if (unread.length > 0) {
      const records = unread.reduce((n, u) => n + u.count, 0)
      const consents = unread.map((u) => `${u.consent} (${u.count})`).join(", ")
      // what is true of the others: planned, or none could be read (nothing planned from those listings)
      const none = unread.filter((u) => u.nothingRead === true).map((u) => u.consent)
      const others =
        none.length === 0
          ? "the others were planned"
          : none.length === unread.length
            ? "no other record could be read, nothing was planned from the listing"
            : `the others were planned, but nothing of ${none.join(", ")}: no record of their listings could be read`
      return yield* Failure.make(
        "data",
        `sweep of ${day}: ${records} record(s) of the listing could not be read as standing orders and were not planned: ${consents}; ${others} (the JSON's "unread" names them)${parts.length > 0 ? `; also incomplete: ${parts.join("; ")}` : ""}`
      )
    }
    if (parts.length > 0) return yield* Failure.make("incomplete", `sweep of ${day} incomplete: ${parts.join("; ")}`)
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
    Effect.provide(Runner.layer(setup)),
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
