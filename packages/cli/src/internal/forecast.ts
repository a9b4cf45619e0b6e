/**
 * The work behind `tppkit forecast`, loaded only when the command runs: read the orders, the balances (and the flows
 * and funds checks when given), forecast, run the scenarios, print the report, and exit 8 when there are findings.
 */
import { Orders as CoreOrders, type LocalDate, type Standard } from "@tppkit/core"
import { Forecast, ForecastFiles, type Projection, ScenarioText } from "@tppkit/schedule"
import { Effect, Option, Result } from "effect"
import * as Failure from "../Failure.ts"
import * as ForecastCsv from "../ForecastCsv.ts"
import * as ForecastHtml from "../ForecastHtml.ts"
import * as ForecastJson from "../ForecastJson.ts"
import * as ForecastReport from "../ForecastReport.ts"
import * as ForecastTable from "../ForecastTable.ts"
import * as Output from "../Output.ts"
import * as Project from "../Project.ts"
import * as Render from "../Render.ts"
import * as Files from "./files.ts"
import * as Orders from "./orders.ts"

/** The parsed flags of `tppkit forecast`. */
export interface Input {
  readonly orders: string
  readonly balances: string
  readonly flows: Option.Option<string>
  readonly checks: Option.Option<string>
  readonly from: string
  readonly to: string
  readonly threshold: ReadonlyArray<string>
  readonly scenario: ReadonlyArray<string>
  readonly calendar: string
  /** `--holidays D,D`: the bank's own closing days, added to the calendar. */
  readonly holidays?: Option.Option<string> | undefined
  readonly convention: string
  readonly format: ForecastReport.Format
  /** `--raw-csv`: CSV cells that begin like a spreadsheet formula written as they are, for programs. */
  readonly rawCsv?: boolean | undefined
  /** `--standard`: every record of the orders files read in this standard (else each its own). */
  readonly standard?: Option.Option<Standard.Standard> | undefined
  /** `--accounts`: the accounts file (account ids to IBAN and currency). */
  readonly accounts?: Option.Option<string> | undefined
}

const bytesOf = (what: string, file: string) => Files.readText(what, file, (message) => Failure.failure(message))

/**
 * An orders file read as every command reads one (records of any standard, `--standard` forcing one, warnings on
 * stderr); an order read from an RRULE or a standard that leaves the convention to the bank takes `--convention`.
 */
const ordersFrom = (file: string, input: Input, settings: Project.Settings) =>
  // a COBS list item counts from the listing day: the window's first day
  Effect.map(Orders.read(file, input.standard, input.accounts, settings.from, input.convention), (decoded) => ({
    ...decoded,
    repeated: CoreOrders.repeated(decoded.orders),
    // an orderId several records give is ID#N, so that a scenario can name each and the forecast tells them apart
    orders: CoreOrders.withConventions(CoreOrders.keyed(decoded.orders), settings.convention)
  }))

/**
 * One `--scenario` read by schedule's `ScenarioText` (`calendar:NAME` as `--calendar` reads it, the bank's own closing
 * days kept closed), or the usage failure naming the flag, the text and what is wrong in it.
 */
export const scenarioOf = (
  text: string,
  added: ReadonlyMap<string, ReadonlyArray<Projection.ProjectableOrder>> = new Map(),
  holidays: ReadonlyArray<LocalDate.LocalDate> = []
): Result.Result<Forecast.Scenario, string> =>
  Result.mapError(
    ScenarioText.parse(text, {
      added,
      holidays,
      calendarOf: (name) => Result.map(Project.calendarOf(name), (c) => c.calendar)
    }),
    (e) =>
      `--scenario ${JSON.stringify(text)}: ${e.reason._tag === "InvalidScenario" ? e.reason.problem : e.reason.message}`
  )

/** Runs `tppkit forecast` with parsed flags. */
export const run = Effect.fn("tppkit.forecast")(function* (input: Input) {
  const settings = Project.settings({
    from: input.from,
    to: input.to,
    calendar: input.calendar,
    holidays: input.holidays !== undefined && Option.isSome(input.holidays) ? input.holidays.value : undefined,
    convention: input.convention
  })
  if (Result.isFailure(settings)) return yield* Failure.usage(settings.failure)
  // checked with the settings: the same dates
  const holidays = Result.getOrElse(
    Project.datesOf("holidays", input.holidays === undefined ? undefined : Option.getOrUndefined(input.holidays)),
    () => []
  )
  if (input.rawCsv === true && input.format !== "csv") return yield* Failure.usage("--raw-csv needs --format csv")
  // the orders files of `add:FILE`, each read once
  const added = new Map<string, ReadonlyArray<Projection.ProjectableOrder>>()
  const addedUnread: Array<{ readonly orderId: string | undefined; readonly reason: string }> = []
  const addedSkipped: Array<{ readonly orderId: string | undefined; readonly reason: string }> = []
  for (const text of input.scenario) {
    for (const file of ScenarioText.addedFiles(text)) {
      if (file.length === 0 || added.has(file)) continue
      const read = yield* ordersFrom(file, input, settings.success)
      if (read.orders.length === 0) {
        const why = read.unread[0] ?? read.skipped[0]
        return yield* Failure.badInput(
          `--scenario add:${file}: no standing order could be read${why === undefined ? "" : ` (${why.orderId ?? "record"}: ${why.reason})`}`
        )
      }
      added.set(file, read.orders)
      addedUnread.push(...read.unread)
      addedSkipped.push(...read.skipped)
    }
  }
  const scenarios: Array<Forecast.Scenario> = []
  for (const text of input.scenario) {
    const s = scenarioOf(text, added, holidays)
    if (Result.isFailure(s)) return yield* Failure.usage(s.failure)
    scenarios.push(s.success)
  }
  const balancesRead = ForecastFiles.balances(input.balances, yield* bytesOf("balances file", input.balances))
  if (Result.isFailure(balancesRead)) {
    return yield* Failure.badInput(`${input.balances}: ${balancesRead.failure.reason.message}`)
  }
  const balances = ForecastReport.withThresholds(balancesRead.success.records, input.threshold)
  if (Result.isFailure(balances)) return yield* Failure.usage(balances.failure)
  for (const flag of ForecastReport.thresholdsWithoutAccount(balancesRead.success.records, input.threshold)) {
    yield* Output.errorLine(
      Output.printable(
        `tppkit: warning: --threshold ${JSON.stringify(flag)} names no account of ${input.balances}: it applies to nothing`
      )
    )
  }
  const unreadable = [...balancesRead.success.unreadable]
  let checks: ReadonlyArray<Forecast.Check> = []
  if (Option.isSome(input.checks)) {
    const read = ForecastFiles.checks(input.checks.value, yield* bytesOf("checks file", input.checks.value))
    if (Result.isFailure(read)) return yield* Failure.badInput(`${input.checks.value}: ${read.failure.reason.message}`)
    checks = read.success.records
    unreadable.push(...read.success.unreadable)
  }
  const orders = yield* ordersFrom(input.orders, input, settings.success)
  const flows = Option.isSome(input.flows) ? yield* ordersFrom(input.flows.value, input, settings.success) : undefined
  // a scenario naming an orderId that several records give is refused: ID#N names one
  for (const s of scenarios) {
    for (const c of s.changes) {
      if (!("orderId" in c)) continue
      const r = [...orders.repeated, ...(flows?.repeated ?? [])].find((x) => x.orderId === c.orderId)
      if (r !== undefined) return yield* Failure.usage(Orders.ambiguous(c.orderId, r.positions, "--scenario"))
    }
  }
  const forecastInput: Forecast.Input = {
    orders: orders.orders,
    flows: flows?.orders,
    balances: balances.success,
    window: { from: settings.success.from, to: settings.success.to },
    options: { calendar: settings.success.calendar, convention: settings.success.convention },
    checks,
    unusable: ForecastFiles.unusableBalances(balancesRead.success.unreadable)
  }
  // amounts with more decimals than their currency's minor unit: printed whole, never rounded, and said
  yield* Orders.warn([
    ...Render.beyondMinorUnits([...forecastInput.orders, ...(forecastInput.flows ?? [])]),
    ...forecastInput.balances.flatMap((b) =>
      [b.amount, ...(b.threshold === undefined ? [] : [b.threshold])].flatMap((x) => {
        const reason = Render.beyondMinorUnit(x, b.currency, "balance")
        return reason === undefined ? [] : [{ orderId: b.iban, reason }]
      })
    )
  ])
  // SIGINT or SIGTERM is seen while the forecast computes (the engine gives the runtime its turn every few accounts):
  // exit 130, nothing written
  yield* Effect.yieldNow
  const forecast = yield* Effect.mapError(Forecast.makeEffect(forecastInput), (e) => Failure.badInput(e.message))
  const outcomes: Array<Forecast.Outcome> = []
  for (const s of scenarios) {
    outcomes.push(
      yield* Effect.mapError(Forecast.scenarioEffect(forecastInput, s, forecast), (e) => Failure.usage(e.message))
    )
  }
  const report: ForecastReport.Report = {
    forecast: forecast,
    calendarName: settings.success.calendarName,
    convention: settings.success.convention,
    scenarios: outcomes,
    unreadable,
    skippedOrders: [
      ...orders.unread,
      ...(flows?.unread ?? []),
      ...addedUnread,
      // read, but paying nothing: listed, not counted as unread
      ...orders.skipped,
      ...(flows?.skipped ?? []),
      ...addedSkipped,
      ...forecast.skipped.map((s) => ({ orderId: s.orderId, reason: s.reason }))
    ]
  }
  // more payments at risk than a forecast lists: said, with how many there are
  const cut = ForecastReport.atRiskCut(forecast)
  if (cut !== undefined) yield* Output.errorLine(`tppkit: warning: ${cut}`)
  yield* Effect.yieldNow
  // JSON and CSV written as they are made (a pause now and then: Ctrl-C ends the command on a whole line)
  yield* Output.writeAll(
    input.format === "json"
      ? ForecastJson.jsonPieces(report)
      : input.format === "csv"
        ? ForecastCsv.csvPieces(report, { rawFormulas: input.rawCsv })
        : Output.textPieces(`${input.format === "html" ? ForecastHtml.html(report) : ForecastTable.table(report)}\n`)
  )
  // records that could not be read (listed under Skipped) end the run with 7 (cli README, "Exit codes"), before 8
  const unread = unreadable.length + orders.unread.length + (flows?.unread.length ?? 0) + addedUnread.length
  if (unread > 0) {
    return yield* Failure.make(
      "data",
      `${unread} ${unread === 1 ? "record" : "records"} could not be read (listed under Skipped); every other record was used`
    )
  }
  if (Forecast.hasFindings(forecast)) return yield* Failure.findings()
})
