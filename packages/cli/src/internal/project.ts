/**
 * The work behind `tppkit project`, loaded only when the command runs (it pulls in the schedule package and the
 * holiday library): read the orders, validate the settings, project, print in the chosen format.
 */
import { Orders as CoreOrders, type Standard, Translation } from "@tppkit/core"
import { RecurringCalendar } from "@tppkit/schedule"
import { Clock, Effect, type Option, Result, Stdio } from "effect"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"
import * as Project from "../Project.ts"
import * as ProjectionFormats from "../ProjectionFormats.ts"
import * as Render from "../Render.ts"
import * as Style from "../Style.ts"
import { readAccounts, readOrders, unreadMessage, warn, warnRepeated, warnUnread } from "./orders.ts"

/** The parsed flags of `tppkit project`. */
export interface Input {
  readonly orders: string
  readonly from: string
  readonly to: string
  readonly calendar: string
  readonly holidays: Option.Option<string>
  readonly convention: string
  readonly format: ProjectionFormats.ProjectionFormat
  /** With `--format ics`: one recurring event per order an RRULE can say (`--ics-rrule`). */
  readonly icsRrule?: boolean | undefined
  /** `--standard`: every record read in this standard (else each its own). */
  readonly standard?: Option.Option<Standard.Standard> | undefined
  /** `--accounts`: the accounts file (account ids to IBAN and currency). */
  readonly accounts?: Option.Option<string> | undefined
  /**
   * Listings whose nextDates choose the rule (`--rule-from`, repeatable), and the days they were made (`--listed-on`:
   * one for all, or one per listing; else `--from`).
   */
  readonly ruleFrom?: ReadonlyArray<string> | undefined
  readonly listedOn?: ReadonlyArray<string> | undefined
  /** `--raw-csv`: CSV cells that begin like a spreadsheet formula written as they are, for programs. */
  readonly rawCsv?: boolean | undefined
}

/**
 * Decodes the orders and plans their projection; only the report (plans, not orders) outlives this function, so
 * that the decoded orders can be collected while the payments are written.
 */
const projectOrders = (
  input: Input,
  settings: Project.Settings,
  onDay: ((payments: number) => void) | undefined,
  schedule: (orders: ReadonlyArray<Project.Order>) => ReadonlyArray<Project.Order> = (orders) => orders
) =>
  Effect.flatMap(
    // a COBS list item counts from the listing day: the window's first day
    Effect.flatMap(readAccounts(input.accounts), (accounts) =>
      readOrders(input.orders, {
        standard: input.standard?._tag === "Some" ? input.standard.value : undefined,
        accounts,
        listedOn: settings.from,
        // a record that leaves its convention unstated is read with the projection's, and the warning names it
        convention: settings.convention
      })
    ),
    (decoded) => {
      if (Result.isFailure(decoded))
        return Failure.badInput(`${input.orders === "-" ? "standard input" : input.orders}: ${decoded.failure}`)
      const orders = schedule(decoded.success.orders)
      return Effect.succeed({
        // amounts with more decimals than their currency's minor unit (100.5 JPY): printed whole, and said
        beyondMinorUnits: Render.beyondMinorUnits(orders),
        report: Project.report({ ...decoded.success, orders }, settings, onDay),
        // kept only for --ics-rrule, which writes each order's rule rather than its payments
        orders: input.icsRrule === true ? orders : [],
        orderCount: decoded.success.orders.length,
        unread: decoded.success.unread,
        warnings: decoded.success.warnings ?? []
      })
    }
  )

/**
 * The iCalendar document of `--ics-rrule`: one recurring event per order an RRULE can say exactly, DTSTAMP the
 * time the file is made (the CLI's clock); each order written as one event per payment is named on stderr with why.
 */
const recurringCalendar = (orders: ReadonlyArray<Project.Order>, settings: Project.Settings) =>
  Effect.gen(function* () {
    const stampMillis = yield* Clock.currentTimeMillis
    const document = RecurringCalendar.fromOrders(
      CoreOrders.withConventions(orders, settings.convention),
      { from: settings.from, to: settings.to },
      {
        calendar: settings.calendar,
        convention: settings.convention,
        stampMillis,
        rule: `${settings.convention} · ${settings.calendarName}`
      }
    )
    for (const choice of document.choices) {
      if (choice.as === "events")
        yield* Output.errorLine(
          Render.printable(`tppkit: ${choice.orderId} written as one event per payment: ${choice.reason ?? ""}`)
        )
      // paused months no EXDATE can list: the event pays in them after the window (core README, "Pauses as EXDATE")
      for (const loss of choice.beyond ?? [])
        if (loss.field === "pauses")
          yield* Output.errorLine(
            Render.printable(
              `tppkit: ${choice.orderId} is exact in the window; after it, its rule also pays on the dates paused ${Translation.words(loss.field, loss.from)}: ${loss.why}`
            )
          )
    }
    return document.text
  })

/** The table's pieces styled for a terminal, piece by piece (each is whole blocks of lines); pauses kept. */
function* styled(style: Style.Style, pieces: Iterable<string | Uint8Array>): Generator<string> {
  for (const piece of pieces) {
    const text = typeof piece === "string" ? piece : new TextDecoder().decode(piece)
    yield text.length === 0 ? "" : `${Style.table(style, text.slice(0, -1).split("\n")).join("\n")}\n`
  }
}

/** Runs `tppkit project` with parsed flags. */
export const run = Effect.fn("tppkit.project")(function* (input: Input) {
  const settings = Project.settings({
    from: input.from,
    to: input.to,
    calendar: input.calendar,
    holidays: input.holidays._tag === "Some" ? input.holidays.value : undefined,
    convention: input.convention
  })
  if (Result.isFailure(settings)) return yield* Failure.usage(settings.failure)
  if (input.icsRrule === true && input.format !== "ics")
    return yield* Failure.usage("--ics-rrule writes iCalendar: it needs --format ics")
  if (input.rawCsv === true && input.format !== "csv") return yield* Failure.usage("--raw-csv needs --format csv")
  // --rule-from: the rule the listing's nextDates point to replaces --calendar and --convention
  const ruled =
    input.ruleFrom !== undefined && input.ruleFrom.length > 0
      ? yield* Effect.flatMap(
          Effect.promise(() => import("./reconcile.ts")),
          (reconcile) =>
            reconcile.ruleFrom(
              input.ruleFrom!,
              { from: input.from, listedOn: input.listedOn ?? [], flag: "--from" },
              settings.success
            )
        )
      : { settings: settings.success, schedule: undefined }
  // the count of payments rendered so far is only shown on a terminal's stderr: elsewhere nothing counts them
  const stdio = yield* Stdio.Stdio
  const live = yield* stdio.stderrIsTerminal
  let count = 0
  const { report, orders, orderCount, unread, warnings, beyondMinorUnits } = yield* projectOrders(
    input,
    ruled.settings,
    live
      ? (payments) => {
          count += payments
        }
      : undefined,
    ruled.schedule
  )
  // a live line on a terminal's stderr: orders, then the payments rendered so far
  const progress = yield* Output.progressLine
  const renderer: ProjectionFormats.ProjectionRenderer = ProjectionFormats.projectionRenderers[input.format]
  // an order of another standard read with a tolerance or a loss: projected, and said on stderr
  yield* warn([...warnings, ...beyondMinorUnits])
  // an orderId several records give: each order is projected, and said (the JSON document lists them as repeated)
  yield* warnRepeated(report.repeated)
  if (!renderer.listsSkipped) yield* warnUnread(report.skipped)
  const note = () => `projecting ${orderCount} standing orders… ${count} payments`
  yield* progress.update(note(), true)
  // output to the terminal itself: the line is erased before the first output, never left between its lines
  const toTerminal = yield* stdio.stdoutIsTerminal
  const style = yield* Output.stdoutStyle
  const pieces =
    input.icsRrule === true
      ? [yield* recurringCalendar(orders, ruled.settings)]
      : input.format === "table" && style.enabled
        ? styled(style, renderer.render(report))
        : renderer.render(report, { rawCsv: input.rawCsv })
  yield* Output.writeAll(pieces, toTerminal ? progress.done : Effect.suspend(() => progress.update(note())))
  yield* progress.done
  // records that could not be read as standing orders: each reported on stderr with its position (the formats
  // that list them in their output too), then exit 7; orders read whole but not projectable do not count
  if (unread.length > 0) {
    if (renderer.listsSkipped) yield* warnUnread(unread)
    return yield* Failure.make("data", unreadMessage(input.orders, unread.length))
  }
})
