/**
 * The work behind `tppkit translate`, loaded only when the command runs: read the orders, take each order's
 * recurrence as a translation reads it (core's `Orders.translation`), translate it to the target, print one line (or JSON object)
 * per order with the losses under it, and exit 8 when some translation is lossy or unrepresentable (exit 7 first when
 * some records could not be read).
 */
import {
  type BusinessDayConvention,
  Orders as CoreOrders,
  LocalDate,
  type Recurrence,
  Rrule,
  Sbas,
  type Standard,
  Translation
} from "@tppkit/core"
import { Effect, Option, Result } from "effect"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"
import * as Project from "../Project.ts"
import * as Orders from "./orders.ts"
import { encodeTo, isStandardTarget, type StandardTarget } from "./standardTargets.ts"
import * as TranslateWhole from "./translateWhole.ts"

/** The parsed flags of `tppkit translate`. */
export interface Input {
  readonly orders: string
  readonly to: "rrule" | "sbas" | StandardTarget | "berlin-group-ais"
  readonly calendar: string
  /** `--holidays D,D`: the bank's own closing days besides the calendar's. */
  readonly holidays?: Option.Option<string> | undefined
  readonly convention: BusinessDayConvention.BusinessDayConvention
  readonly format: "text" | "json"
  /** `--standard`: every record read in this standard (else each its own). */
  readonly standard?: Option.Option<Standard.Standard> | undefined
  /** `--accounts`: the accounts file (account ids to IBAN and currency). */
  readonly accounts?: Option.Option<string> | undefined
  /** `--listed-on`: the day the list was read, from which a COBS list item counts (default today, said). */
  readonly listedOn?: Option.Option<string> | undefined
}

/** One order's translation as printed: its text in the target, or none. */
interface Row {
  readonly orderId: string
  readonly translation: Translation.Translation<string>
}

/**
 * A recurrence in the target standard, as text. `neverMoved`: the order fixes that its dates never move (the bank's
 * DAI7, a YNAB schedule): an RRULE says so (`X-TPPKIT-NEVER-MOVED`), as it leaves the convention to its reader.
 */
const translate = (r: Recurrence.Recurrence, to: Input["to"], neverMoved = false): Translation.Translation<string> =>
  isStandardTarget(to)
    ? encodeTo(r, to)
    : to === "rrule"
      ? Translation.map(Rrule.encode(r), (x) =>
          Rrule.format(neverMoved && r.convention === "none" ? { ...x, neverMoved } : x)
        )
      : Translation.map(Sbas.encode(r), (x) =>
          [
            `frequency ${x.frequency}`,
            `startDate ${LocalDate.format(x.startDate)}`,
            ...(x.endDate === undefined ? [] : [`endDate ${LocalDate.format(x.endDate)}`]),
            `convention ${x.convention}`
          ].join(", ")
        )

/** One order as a JSON line; another standard's record (itself JSON) is embedded as an object, not as text. */
const json = (row: Row, to: Input["to"]): string => {
  const t = row.translation
  return JSON.stringify({
    orderId: row.orderId,
    result: Translation.verdict(t),
    ...(t._tag === "Unrepresentable"
      ? { reason: t.reason }
      : { translation: isStandardTarget(to) ? (JSON.parse(t.value) as unknown) : t.value }),
    ...(t._tag === "Lossy" ? { losses: t.losses } : {})
  })
}

const text = (row: Row): string => {
  const t = row.translation
  // the orderId and what a record said are the file's text: control characters shown escaped (cli README)
  const head = `${Output.printable(row.orderId)}  ${Translation.verdict(t)}`
  if (t._tag === "Unrepresentable") return `${head}: ${Output.printable(t.reason)}`
  const body = t.value.split("\n").map((l) => `  ${Output.printable(l)}`)
  const losses = t._tag === "Lossy" ? t.losses.map((l) => `  lost: ${Output.printable(Translation.describe(l))}`) : []
  return [head, ...body, ...losses].join("\n")
}

/** Runs `tppkit translate` with parsed flags. */
export const run = Effect.fn("tppkit.translate")(function* (input: Input) {
  const holidays = Project.datesOf(
    "holidays",
    input.holidays === undefined ? undefined : Option.getOrUndefined(input.holidays)
  )
  if (Result.isFailure(holidays)) return yield* Failure.usage(holidays.failure)
  // the recurrence as translate reads it, and the loss of the bank's own closing days where they move a payment
  const recurrenceOf = (order: Project.Order) =>
    CoreOrders.translation(order, {
      convention: input.convention,
      calendar: input.calendar,
      holidays: holidays.success
    })
  // a bank record without an anchor has no schedule to translate: named with the records that pay nothing (cli README,
  // "Output and errors": only skipped, the exit code unchanged), not an unrepresentable translation
  const decoded = Project.withoutAnchorless(
    yield* Orders.readListed(input.orders, input.standard, input.accounts, input.listedOn, input.convention)
  )
  let findings = 0
  // a standard written whole: one list envelope of it on stdout, the losses on stderr
  if (TranslateWhole.isWholeTarget(input.to))
    findings = yield* TranslateWhole.write(decoded.orders, input.to, recurrenceOf)
  else
    for (const order of decoded.orders) {
      // SIGINT or SIGTERM is seen between the lines (each written as it is made): exit 130 on a whole line
      const translation = Translation.andThen(recurrenceOf(order), (r) =>
        translate(r, input.to, order.ownConvention === true)
      )
      if (translation._tag !== "Exact") findings++
      const row = { orderId: order.orderId, translation }
      yield* Output.line(input.format === "json" ? json(row, input.to) : text(row))
    }
  // read, but paying nothing (inactive, an end before its start, …): no schedule to translate, said with the reason
  for (const row of decoded.skipped) {
    yield* Output.errorLine(
      Output.printable(`tppkit: ${row.orderId ?? "a record without orderId"} skipped: ${row.reason}`)
    )
  }
  if (decoded.skipped.length > 0) {
    const n = decoded.skipped.length
    yield* Output.errorLine(`tppkit: ${n} ${n === 1 ? "order" : "orders"} skipped (each named above)`)
  }
  for (const row of decoded.unread) {
    yield* Output.errorLine(
      Output.printable(`tppkit: ${row.orderId ?? "a record without orderId"} not read: ${row.reason}`)
    )
  }
  if (decoded.unread.length > 0) {
    return yield* Failure.make("data", Orders.unreadMessage(input.orders, decoded.unread.length, "translated"))
  }
  if (findings > 0) return yield* Failure.findings()
})
