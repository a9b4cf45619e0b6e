/**
 * The work behind `tppkit worker status`: the fleet's checks, budget, sweeps, webhooks, liveness, listings and
 * warnings read from its database, and the forecast of the checked accounts with the answers beside it.
 */
import { Orders as CoreOrders, LocalDate, type Standard } from "@tppkit/core"
import { BankConfig } from "@tppkit/http"
import type { Projection } from "@tppkit/schedule"
import { Checks, Database, FleetStatus, type PlanSettings } from "@tppkit/worker"
import { Effect, Layer, Option, type Redacted, Result } from "effect"
import * as Failure from "../Failure.ts"
import type { Sources } from "../ForecastEvidence.ts"
import * as Output from "../Output.ts"
import * as Project from "../Project.ts"
import * as WorkerStatus from "../WorkerStatus.ts"
import * as DatabaseFailure from "./database.ts"
import * as Environment from "./environment.ts"
import { databaseUrlOf, dateOf } from "./workerSettings.ts"

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
  const current = yield* FleetStatus.read(Option.map(day, LocalDate.format), limit, input.balanceMaxAge).pipe(
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
  // balances that could not be read (the fleet's stored ones, or a --balances file's): each on stderr naming the
  // account and the value, never dropped without a word; the account is not forecast (issue 34)
  for (const u of forecast?.balancesUnread ?? []) {
    yield* Output.errorLine(
      Output.printable(
        `tppkit: warning: ${u.file}, record ${u.index + 1}${u.iban === undefined ? "" : ` (${u.iban})`}: ${u.field === undefined ? "" : `${u.field}: `}${u.reason}; the account is not forecast`
      )
    )
  }
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
    const { CheckEvidence, ForecastEvidence, Files, Orders, Schedule } = yield* Effect.promise(async () => ({
      CheckEvidence: await import("@tppkit/worker/CheckEvidence"),
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
        ? CheckEvidence.balancesOfStored(stored ?? [])
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
    const checks = CheckEvidence.checksOf(rows)
    const window = CheckEvidence.windowOf(checks)
    if (window === undefined) {
      return {
        lines: ["", "No answered checks yet: no forecast to set them beside."],
        json: ForecastEvidence.json(undefined, sources),
        unread: none,
        skipped: none,
        balancesUnread: balances.success.unreadable
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
    if (ordersFile === undefined) orders = CheckEvidence.ordersOfPlan(rows)
    else {
      const decoded = yield* Orders.readListed(
        ordersFile,
        input.standard,
        input.accounts,
        input.listedOn,
        input.convention
      )
      orders = CoreOrders.withConventions(decoded.orders, rule.success.convention)
      unread = decoded.unread
      skipped = decoded.skipped
    }
    const made = Schedule.Forecast.make({
      orders,
      balances: balances.success.records,
      // a balance that could not be read: its account is listed without a balance, with why (issue 34)
      unusable: Schedule.ForecastFiles.unusableBalances(balances.success.unreadable),
      window,
      options:
        ordersFile === undefined
          ? CheckEvidence.planOptions
          : { calendar: rule.success.calendar, convention: rule.success.convention },
      checks,
      ladder: false
    })
    if (Result.isFailure(made)) return yield* Failure.badInput(made.failure.message)
    return {
      lines: ForecastEvidence.section(made.success, WorkerStatus.width, sources),
      json: ForecastEvidence.json(made.success, sources),
      unread,
      // and the orders read that the forecast could not plan (no anchor, an amount out of format), as `tppkit forecast`
      // lists them: its skipped were never said here
      skipped: [...skipped, ...made.success.skipped.map((k) => ({ orderId: k.orderId, reason: k.reason }))],
      balancesUnread: balances.success.unreadable
    }
  })
