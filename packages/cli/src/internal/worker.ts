/**
 * The work behind `tppkit worker` and `tppkit worker status`, loaded only when one of them runs (it pulls in the
 * cluster, the workflow engine and the PostgreSQL driver).
 */
import { LocalDate } from "@tppkit/core"
import { BankClient, BankConfig } from "@tppkit/http"
import { BankSources, Checks, Database, Fleet, Metrics, PgBudgetStore, Sweep } from "@tppkit/worker"
import { Clock, Config, Duration, Effect, Layer, Logger, Option, Redacted, References, Result } from "effect"
import { SqlClient } from "effect/sql"
import * as Connection from "../Connection.ts"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"
import * as Project from "../Project.ts"
import * as Render from "../Render.ts"
import { settingsOf } from "./client.ts"

/** The parsed flags of `tppkit worker`. */
export interface Input extends Connection.Values {
  readonly daysBefore: number
  readonly calendar: string
  readonly hour: number
  readonly timeZone: string
  readonly today: Option.Option<string>
  readonly once: boolean
  readonly consents: Option.Option<string>
  readonly metricsPort: Option.Option<number>
  readonly runnerPort: number
}

/** The parsed flags of `tppkit worker status`. */
export interface StatusInput {
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly day: Option.Option<string>
  readonly format: "table" | "json"
}

const databaseUrlOf = (url: Option.Option<Redacted.Redacted<string>>) =>
  Option.match(url, {
    onNone: () => Effect.fail(Failure.usage("no database: give --database-url URL or set TPPKIT_DATABASE_URL")),
    onSome: (u) =>
      /^postgres(ql)?:\/\//.test(Redacted.value(u))
        ? Effect.succeed(u)
        : Effect.fail(Failure.usage("--database-url: expected postgres://user:password@host:port/database"))
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

/** `KEY[=IBAN],…` as consents. */
export const parseConsents = (text: string): Result.Result<Array<Sweep.Consent>, string> => {
  const out: Array<Sweep.Consent> = []
  for (const part of text.split(",")) {
    const trimmed = part.trim()
    if (trimmed.length === 0) continue
    const eq = trimmed.indexOf("=")
    const key = eq < 0 ? trimmed : trimmed.slice(0, eq).trim()
    const iban = eq < 0 ? undefined : trimmed.slice(eq + 1).replace(/\s+/g, "")
    if (key.length === 0) return Result.fail(`--consents: empty consent key in ${JSON.stringify(part)}`)
    out.push(iban === undefined || iban.length === 0 ? { key } : { key, iban })
  }
  return out.length === 0 ? Result.fail("--consents: no consent given") : Result.succeed(out)
}

/** Cluster timing from `TPPKIT_WORKER_POLL_MS` and `TPPKIT_WORKER_LOCK_EXPIRATION_MS` (tests lower them). */
const timing = Effect.gen(function* () {
  const poll = yield* Config.Int("TPPKIT_WORKER_POLL_MS").pipe(Config.option)
  const lock = yield* Config.Int("TPPKIT_WORKER_LOCK_EXPIRATION_MS").pipe(Config.option)
  return {
    ...(Option.isSome(poll) ? { pollInterval: Duration.millis(poll.value) } : {}),
    ...(Option.isSome(lock) ? { shardLockExpiration: Duration.millis(lock.value) } : {})
  } satisfies Fleet.Timing
}).pipe(Effect.mapError((e) => Failure.configuration(`invalid environment: ${e.message}`, e)))

const what = {
  ChecksError: "checks",
  SqlError: `database`,
  SocketServerError: "runner socket",
  ConfigError: "cluster configuration",
  EmbeddedDbError: "runner port"
} as const

const detailOf = (e: { readonly message: string; readonly cause?: unknown }): string =>
  `${e.message}${e.cause instanceof Error && e.cause.message !== e.message ? ` (${e.cause.message})` : ""}`

/** Runs `tppkit worker`. */
export const run = Effect.fn("tppkit.worker")(function* (input: Input) {
  const databaseUrl = yield* databaseUrlOf(input.databaseUrl)
  if (!Number.isInteger(input.daysBefore) || input.daysBefore < 0 || input.daysBefore > 60) {
    return yield* Failure.usage("--days-before must be a whole number from 0 to 60")
  }
  if (!Number.isInteger(input.hour) || input.hour < 0 || input.hour > 23) {
    return yield* Failure.usage("--hour must be from 0 to 23")
  }
  if (Option.isNone(Option.liftThrowable(() => Sweep.dailyCron(input.hour, input.timeZone))())) {
    return yield* Failure.usage(`--time-zone ${JSON.stringify(input.timeZone)}: not an IANA time zone`)
  }
  if (input.runnerPort < 0 || input.runnerPort > 65535)
    return yield* Failure.usage("--runner-port must be from 0 to 65535")
  const calendar = Project.calendarOf(input.calendar)
  if (Result.isFailure(calendar)) return yield* Failure.usage(calendar.failure)
  const today = yield* dateOf("today", input.today)
  const target = yield* Connection.target(input, { needsClient: true })
  const consents = Option.isSome(input.consents)
    ? parseConsents(input.consents.value)
    : Result.succeed([{ key: target.clientId }])
  if (Result.isFailure(consents)) return yield* Failure.usage(consents.failure)
  const bankSettings = yield* settingsOf(target)
  const sweep: Sweep.Settings = {
    consents: consents.success,
    daysBefore: input.daysBefore,
    calendar: calendar.success.calendar,
    timeZone: input.timeZone,
    hour: input.hour
  }
  const runnerTiming = yield* timing
  const psu = Connection.psu(input)
  const cluster = Fleet.cluster({ databaseUrl, runnerPort: input.runnerPort, ...runnerTiming })
  // the shared budget in the fleet's database, over the runner's own pool
  const client = Layer.unwrap(
    Effect.map(Effect.context<SqlClient.SqlClient>(), (sql) =>
      BankClient.BankClient.layerNode(Layer.succeed(BankConfig.BankConfig, bankSettings), {
        budgetStore: PgBudgetStore.layer(PgBudgetStore.describeUrl(databaseUrl)).pipe(
          Layer.provide(Layer.succeedContext(sql))
        )
      })
    )
  )
  const metrics = Option.isSome(input.metricsPort)
    ? Metrics.layer(input.metricsPort.value, bankSettings.budget.dailyLimit)
    : Layer.empty
  const worker = (input.once ? Layer.empty : Sweep.cronLayer(sweep)).pipe(
    Layer.provideMerge(Fleet.workflows),
    Layer.provideMerge(
      Layer.mergeAll(
        Layer.succeed(Sweep.SweepSettings)(sweep),
        Layer.mergeAll(BankSources.balanceChecker(psu), BankSources.orderSource(psu)).pipe(Layer.provide(client))
      )
    ),
    Layer.provideMerge(Layer.mergeAll(Checks.Checks.layerSql, metrics)),
    Layer.provideMerge(cluster)
  )
  const program = Effect.gen(function* () {
    const first = Option.isSome(today) ? today.value : Sweep.dayIn(yield* Clock.currentTimeMillis, input.timeZone)
    if (!input.once && Option.isNone(today)) return yield* Effect.never
    const day = LocalDate.format(first)
    const summary = yield* Sweep.sweepNow(day)
    const failed = summary.consents.filter((c) => c.failure !== undefined)
    for (const f of failed) yield* Output.errorLine(`tppkit: sweep of ${day}, consent ${f.consent}: ${f.failure}`)
    if (!input.once) return yield* Effect.never
    const checks = yield* Checks.Checks
    // the count of pending checks is read on a small partial index: cheap enough four times a second
    for (;;) {
      const pending = yield* checks.pending(day)
      if (pending === 0) break
      yield* Effect.sleep("250 millis")
    }
    const { checks: planned, APPR, DECL, failed: failedChecks, repeated } = yield* checks.summary(day)
    yield* Output.line(JSON.stringify({ day, checks: planned, APPR, DECL, failed: failedChecks, repeated }))
    if (failed.length > 0) {
      return yield* Failure.failure(
        `sweep of ${day}: the standing orders of ${failed.length} consent(s) could not be listed`
      )
    }
  })
  return yield* program.pipe(
    Effect.provide(worker),
    // the cluster's warnings go to stderr as one logfmt line each (stdout is the worker's report); its info
    // logs (runner listening, shard moves) are left out
    Effect.provide(Logger.layer([Logger.withConsoleError(Logger.formatLogFmt)])),
    Effect.provideService(References.MinimumLogLevel, "Warn"),
    Effect.mapError((e) => (e._tag === "CliFailure" ? e : Failure.failure(`${what[e._tag]}: ${detailOf(e)}`, e)))
  )
})

/** One check as `tppkit worker status --format json` prints it. */
export const checkJson = (r: Checks.Row) => ({
  consent: r.consent,
  orderId: r.orderId,
  nominalDate: r.nominalDate,
  executionDate: r.executionDate,
  amount: r.amount,
  currency: r.currency,
  debtorIban: r.debtorIban,
  outcome: r.outcome ?? null,
  attempts: r.attempts,
  checkedAt: r.checkedAt ?? null,
  requestId: r.requestId ?? null,
  responseId: r.responseId ?? null,
  ...(r.error === undefined ? {} : { error: r.error })
})

/** Runs `tppkit worker status`. */
export const status = Effect.fn("tppkit.worker.status")(function* (input: StatusInput) {
  const databaseUrl = yield* databaseUrlOf(input.databaseUrl)
  const day = yield* dateOf("day", input.day)
  const tuning = yield* Effect.mapError(BankConfig.tuningFromEnv, (e) =>
    Failure.configuration(`invalid environment: ${e.message}`, e)
  )
  const limit = tuning.budget?.dailyLimit ?? BankConfig.defaults.budget.dailyLimit
  const dayText = Option.map(day, LocalDate.format)
  const { rows, budget } = yield* Effect.gen(function* () {
    const checks = yield* Checks.Checks
    const sql = yield* SqlClient.SqlClient
    const rows = yield* checks.list(Option.isSome(dayText) ? { sweepDay: dayText.value } : {})
    const budget = yield* Option.isSome(dayText)
      ? sql<{ consent_key: string; day: string; used: number }>`SELECT consent_key, day, used FROM tppkit_budget
          WHERE day = ${dayText.value} ORDER BY day, consent_key`
      : sql<{ consent_key: string; day: string; used: number }>`SELECT consent_key, day, used FROM tppkit_budget
          ORDER BY day, consent_key`
    return { rows, budget: budget.map((b) => ({ consent: b.consent_key, day: b.day, used: Number(b.used), limit })) }
  }).pipe(
    Effect.provide(Checks.Checks.layerSql.pipe(Layer.provideMerge(Database.layer(databaseUrl, { maxConnections: 2 })))),
    Effect.catchTag("ChecksError", (e) => Effect.fail(Failure.failure(e.message, e))),
    Effect.catchTag("SqlError", (e) =>
      Effect.fail(
        Failure.failure(
          `database ${PgBudgetStore.describeUrl(databaseUrl)}: ${e.message}${e.cause instanceof Error ? ` (${e.cause.message})` : ""}`,
          e
        )
      )
    )
  )
  if (input.format === "json") {
    return yield* Output.line(JSON.stringify({ checks: rows.map(checkJson), budget }))
  }
  const lines = Render.table(
    [
      { header: "Execution" },
      { header: "Order", flex: true },
      { header: "Nominal" },
      { header: "Amount", align: "right" },
      { header: "Cur" },
      { header: "Debtor IBAN", flex: true },
      { header: "Outcome" },
      { header: "Tries", align: "right" },
      { header: "Checked at" }
    ],
    rows.map((r) => [
      r.executionDate,
      r.orderId,
      r.nominalDate,
      r.amount,
      r.currency,
      r.debtorIban,
      r.outcome ?? "pending",
      String(r.attempts),
      r.checkedAt ?? ""
    ]),
    120
  )
  const budgetLines = Render.table(
    [
      { header: "Consent", flex: true },
      { header: "Day" },
      { header: "Used", align: "right" },
      { header: "Limit", align: "right" }
    ],
    budget.map((b) => [b.consent, b.day, String(b.used), String(b.limit)])
  )
  const atRisk = rows.filter((r) => r.outcome === "DECL").length
  const failed = rows.filter((r) => r.outcome === "failed").length
  const pending = rows.filter((r) => r.outcome === undefined).length
  yield* Output.line(
    [
      ...lines,
      `${rows.length} checks: ${atRisk} at risk (DECL), ${failed} failed, ${pending} pending`,
      "",
      "Daily budget of unattended listings:",
      ...budgetLines
    ].join("\n")
  )
})
