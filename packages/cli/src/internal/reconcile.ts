/**
 * The work behind `tppkit reconcile`, loaded only when the command runs: read the orders, reconcile them on the
 * listing day, print the summary and the differences, and exit 8 when there are findings (exit 7 first when some
 * records could not be read: the summary then misses them).
 */
import { BankRule, LocalDate, type Standard } from "@tppkit/core"
import { Reconciliation } from "@tppkit/schedule"
import { Effect, type Option, Result } from "effect"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"
import * as Project from "../Project.ts"
import * as Reconcile from "../Reconcile.ts"
import type * as Render from "../Render.ts"
import { read, readOrders, unreadMessage, warnUnread } from "./orders.ts"

/** The parsed flags of `tppkit reconcile`. */
export interface Input {
  readonly orders: string
  readonly asOf: string
  readonly calendar: string
  readonly convention: string
  /** `--holidays`: holidays besides the calendar's. */
  readonly holidays?: Option.Option<string> | undefined
  readonly format: Reconcile.Format
  /** `--standard`: every record read in this standard (else each its own). */
  readonly standard?: Option.Option<Standard.Standard> | undefined
  /** `--accounts`: the accounts file (account ids to IBAN and currency). */
  readonly accounts?: Option.Option<string> | undefined
}

/** The reconciliation's settings from the flags (`--as-of`, `--calendar`, `--holidays`, `--convention`), or exit 2. */
export const settingsOf = (raw: Reconcile.RawSettings) =>
  Effect.gen(function* () {
    const settings = Reconcile.settings(raw)
    if (Result.isFailure(settings)) return yield* Failure.usage(settings.failure)
    return settings.success
  })

/** Runs `tppkit reconcile` with parsed flags. */
export const run = Effect.fn("tppkit.reconcile")(function* (input: Input) {
  const settings = Reconcile.settings(input)
  if (Result.isFailure(settings)) return yield* Failure.usage(settings.failure)
  // a COBS list item counts from the listing day: the day the list is reconciled as of; a bank record without an
  // anchor is not reconciled (it has no nextDate to judge) but named with the records that pay nothing, as
  // --reconcile names it
  const decoded = Project.withoutAnchorless(
    yield* read(input.orders, input.standard, input.accounts, settings.success.asOf, input.convention)
  )
  // SIGINT or SIGTERM is seen between the steps: exit 130 with nothing written, or on a whole line
  yield* Effect.yieldNow
  const reconciliation = Reconciliation.reconcile(decoded.orders, settings.success)
  const report = { reconciliation, unreadable: decoded.unread, skipped: decoded.skipped }
  yield* Output.lines(input.format === "json" ? Reconcile.json(report) : Reconcile.table(report))
  // records that could not be read make the run incomplete (exit 7, as for project), before any finding (exit 8)
  if (report.unreadable.length > 0) {
    // each on stderr too, as project and explain do: the line below says "each reported above", and with
    // --format json or stdout sent to a file stderr is all the terminal shows
    yield* warnUnread(report.unreadable)
    return yield* Failure.make("data", unreadMessage(input.orders, report.unreadable.length, "reconciled"))
  }
  if (Reconciliation.hasFindings(reconciliation)) return yield* Failure.findings()
})

/**
 * `tppkit project --rule-from LISTING…` (and `explain`): each listing reconciled on its day (`--listed-on`: one day for
 * all, or one per listing in order; else the window's first day), their evidence added up (`Reconciliation.infer`),
 * and the projection's settings under the rule it points to (schedule's `Reconciliation.ruleToProject`), with the orders' schedules
 * as the engine must see them under that rule; one line on stderr names the rule and its support.
 */
export const ruleFrom = (
  files: ReadonlyArray<string>,
  input: { readonly from: string; readonly listedOn: ReadonlyArray<string>; readonly flag: string },
  settings: Project.Settings
) =>
  Effect.gen(function* () {
    if (input.listedOn.length > 1 && input.listedOn.length !== files.length) {
      return yield* Failure.usage(
        `--listed-on: give one day for every --rule-from listing, or one for each (${files.length} listings, ${input.listedOn.length} days)`
      )
    }
    const preferred = BankRule.make({
      convention: settings.convention,
      ...(typeof settings.calendar === "function" ? {} : { calendar: settings.calendar })
    })
    const listings: Array<{ file: string; day: LocalDate.LocalDate; reconciliation: Reconciliation.Reconciliation }> =
      []
    for (const [i, file] of files.entries()) {
      const given = input.listedOn[input.listedOn.length === 1 ? 0 : i]
      const day = given ?? input.from
      const listedOn = LocalDate.parse(day.trim())
      if (Result.isFailure(listedOn)) {
        return yield* Failure.usage(
          given === undefined
            ? `${input.flag} ${JSON.stringify(day)}: ${listedOn.failure}`
            : `--listed-on ${JSON.stringify(day)}: ${listedOn.failure}`
        )
      }
      const decoded = yield* readOrders(file)
      if (Result.isFailure(decoded)) {
        return yield* Failure.badInput(`${file === "-" ? "standard input" : file}: ${decoded.failure}`)
      }
      const reconciliation = Reconciliation.reconcile(decoded.success.orders, {
        asOf: listedOn.success,
        rule: preferred
      })
      listings.push({ file, day: listedOn.success, reconciliation })
    }
    const inference =
      listings.length === 1
        ? listings[0]!.reconciliation.inference
        : Reconciliation.infer(listings.map((l) => l.reconciliation))
    const named = listings.map((l) => `${l.file} on ${LocalDate.format(l.day)}`).join(", ")
    // no rule chosen when the evidence does not point to one: nothing is guessed
    const chosen = Reconciliation.ruleToProject(inference, preferred)
    if (chosen === undefined) {
      return yield* Failure.usage(
        `--rule-from ${files.join(", ")}: ${Reconcile.inferenceLine(inference)}; reconcile the listing, then choose --calendar and --convention`
      )
    }
    const options = BankRule.optionsOf(chosen)
    yield* Output.errorLine(
      `tppkit: projecting with ${BankRule.describe(chosen)}, from the ${inference.evidence} nextDates of ${named} (${Reconcile.inferenceLine(inference)})`
    )
    return {
      settings: {
        ...settings,
        calendar: options.calendar,
        calendarName: BankRule.calendarName(chosen),
        convention: options.convention
      } satisfies Project.Settings,
      schedule: (orders: ReadonlyArray<Project.Order>) => orders.map((o) => BankRule.scheduleOf(o, chosen)),
      /** The listings and their days, for messages (`a.json on 2026-07-25, b.json on 2026-08-25`). */
      listings: named
    }
  })

/**
 * `tppkit standing-orders --reconcile`: the orders just listed reconciled on the listing day with tppkit's rule and
 * printed as `tppkit reconcile` prints them, with the records listed that pay nothing (`skipped`: not reconciled, each
 * named with its page, record and reason); whether there are findings (exit 8 is the caller's, after its own).
 */
export const listing = (
  orders: ReadonlyArray<Reconciliation.ReconcilableOrder>,
  settings: Reconcile.Settings,
  format: Reconcile.Format,
  skipped: ReadonlyArray<Render.SkippedRow> = []
) =>
  Effect.gen(function* () {
    const reconciliation = Reconciliation.reconcile(orders, settings)
    const report = { reconciliation, unreadable: [], skipped }
    yield* Output.lines(format === "json" ? Reconcile.json(report) : Reconcile.table(report))
    return Reconciliation.hasFindings(reconciliation)
  })
