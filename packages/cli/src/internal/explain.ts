/**
 * The work behind `tppkit explain`, loaded only when the command runs: read the orders, find the order, settle the
 * calendar and convention (and where they came from), trace the payment and print it.
 */
import { Orders as CoreOrders, type DateTrace, LocalDate, Occurrence, type Standard } from "@tppkit/core"
import { Projection } from "@tppkit/schedule"
import { Effect, Option, Result } from "effect"
import * as Explain from "../Explain.ts"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"
import * as Project from "../Project.ts"
import * as Orders from "./orders.ts"

/** The parsed flags of `tppkit explain`. */
export interface Input {
  readonly orders: string
  readonly order: string
  readonly date: Option.Option<string>
  readonly calendar: Option.Option<string>
  readonly holidays: Option.Option<string>
  readonly convention: Option.Option<string>
  readonly ruleFrom: ReadonlyArray<string>
  readonly listedOn: ReadonlyArray<string>
  readonly format: Explain.Format
  /** `--standard`: every record read in this standard (else each its own). */
  readonly standard?: Option.Option<Standard.Standard> | undefined
  /** `--accounts`: the accounts file (account ids to IBAN and currency). */
  readonly accounts?: Option.Option<string> | undefined
}

/**
 * The flags that chose the calendar and convention, as a trace's source (`default`: tppkit's defaults); with
 * `calendarOnly`, those that chose the calendar alone (for an order whose record states its convention).
 */
const flagSource = (input: Input, calendarOnly = false): DateTrace.Source => {
  const given = [
    ...(calendarOnly ? [] : Option.toArray(Option.map(input.convention, (c) => `--convention ${c}`))),
    ...Option.toArray(Option.map(input.calendar, (c) => `--calendar ${c}`)),
    ...Option.toArray(Option.map(input.holidays, (h) => `--holidays ${h}`))
  ]
  return given.length === 0 ? { kind: "default" } : { kind: "flag", detail: given.join(" ") }
}

/** Runs `tppkit explain` with parsed flags. */
export const run = Effect.fn("tppkit.explain")(function* (input: Input) {
  const dateText = Option.getOrUndefined(input.date)
  const date = dateText === undefined ? undefined : LocalDate.parse(dateText.trim())
  if (date !== undefined && Result.isFailure(date)) {
    return yield* Failure.usage(`--date ${JSON.stringify(dateText)}: ${date.failure}`)
  }
  const day = date === undefined ? undefined : date.success
  const settings = Project.settings({
    from: dateText ?? "2000-01-01",
    to: dateText ?? "2000-01-01",
    calendar: Option.getOrElse(input.calendar, () => "target"),
    holidays: Option.getOrUndefined(input.holidays),
    convention: Option.getOrElse(input.convention, () => "following")
  })
  if (Result.isFailure(settings)) return yield* Failure.usage(settings.failure)
  let chosen: Project.Settings = settings.success
  let source = flagSource(input)
  let calendarSource = flagSource(input, true)
  let schedule = (order: Project.Order): Project.Order => order
  if (input.ruleFrom.length > 0) {
    if (input.listedOn.length === 0 && Option.isNone(input.date)) {
      return yield* Failure.usage("--rule-from: give the day the listing was made with --listed-on (or --date)")
    }
    const reconcile = yield* Effect.promise(() => import("./reconcile.ts"))
    const ruled = yield* reconcile.ruleFrom(
      input.ruleFrom,
      { from: Option.getOrElse(input.date, () => ""), listedOn: input.listedOn, flag: "--date" },
      settings.success
    )
    chosen = ruled.settings
    source = { kind: "inferred", detail: `the nextDates of ${ruled.listings}` }
    calendarSource = source
    schedule = (order) => ruled.schedule([order])[0]!
  }
  // a COBS list item counts from the listing day: --listed-on's first day, when given
  const listed = input.listedOn[0] === undefined ? undefined : LocalDate.parse(input.listedOn[0].trim())
  const listedOn = listed !== undefined && Result.isSuccess(listed) ? listed.success : undefined
  // a bank record without an anchor pays nothing: said as every record that pays nothing is (exit 0), not a failure
  const decoded = Project.withoutAnchorless(
    yield* Orders.read(
      input.orders,
      input.standard,
      input.accounts,
      listedOn,
      Option.getOrElse(input.convention, () => "following")
    )
  )
  const id = input.order.trim()
  const picked = Orders.pickOrder(decoded.orders, id, "--order")
  if (Result.isFailure(picked)) return yield* Failure.usage(picked.failure)
  const order = picked.success
  if (order === undefined) {
    // read whole but paying nothing (inactive, an end before its start, …): no payment to explain, and why
    const skipped = decoded.skipped.find((s) => s.orderId === id)
    if (skipped !== undefined) {
      yield* Output.line(
        input.format === "json"
          ? JSON.stringify({ orderId: id, skipped: skipped.reason })
          : Output.printable(`Order ${JSON.stringify(id)} pays nothing: ${skipped.reason}.`)
      )
      return
    }
    const unreadable = decoded.unread.find((s) => s.orderId === id)
    // the order asked for is in the file but cannot be read (its standard cannot say it): data, as for every
    // command that reads orders (exit 7); an orderId not in the file is the caller's mistake (exit 2)
    if (unreadable !== undefined) {
      return yield* Failure.make(
        "data",
        `order ${JSON.stringify(id)} of ${input.orders} could not be read: ${unreadable.reason}`
      )
    }
    return yield* Failure.badInput(
      `no order ${JSON.stringify(id)} in ${input.orders} (${decoded.orders.length} orders)`
    )
  }
  // an order read from an RRULE or a standard that leaves the convention to the bank takes the chosen one, as the
  // projection moves it (Project.projectable); one whose record states its convention keeps it
  const own = Occurrence.codeOf(order) === undefined && order.recurrence !== undefined && order.ownConvention === true
  const traced = schedule(CoreOrders.withConventions([order], chosen.convention)[0]!)
  const trace = Projection.explain(
    traced,
    {
      calendar: chosen.calendar,
      convention: chosen.convention,
      source: own ? { kind: "order" } : source
    },
    day
  )
  if (Result.isFailure(trace)) return yield* Failure.badInput(`order ${JSON.stringify(id)}: ${trace.failure}`)
  // the record states the convention only: the calendar still came from the flags, the listing or the default
  const report: Explain.Report = {
    orderId: id,
    date: day,
    trace: trace.success,
    ...(own ? { calendarSource } : {})
  }
  // SIGINT or SIGTERM while the orders were read or the trace made: exit 130 with nothing written
  yield* Output.lines(input.format === "json" ? Explain.json(report) : Explain.table(report))
  // other records that could not be read: each on stderr, then exit 7, as for every command that reads orders
  const unread = decoded.unread
  if (unread.length > 0) {
    yield* Orders.warnUnread(unread)
    return yield* Failure.make("data", Orders.unreadMessage(input.orders, unread.length, "read"))
  }
})
