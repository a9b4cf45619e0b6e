/**
 * `tppkit project`: projects the payments of a standing-order list (a file, or `-` for stdin) over a window
 * and prints them as a table, JSON, CSV or iCalendar. A malformed order is skipped with its reason; the exit
 * code is non-zero only when the file itself cannot be read or parsed, or the options are invalid.
 *
 * @since 0.1.0
 */
import { ICalendar } from "@tppkit/schedule"
import { Effect, FileSystem, Result } from "effect"
import { Command, Flag } from "effect/cli"
import * as Failure from "./Failure.ts"
import * as Output from "./Output.ts"
import * as Project from "./Project.ts"
import * as Render from "./Render.ts"

/** The output formats of `tppkit project`. */
export const formats = ["table", "json", "csv", "ics"] as const

const readOrders = (file: string) =>
  Effect.gen(function* () {
    if (file === "-") return yield* Output.readStdin.pipe(Effect.mapError(Failure.failure))
    const fs = yield* FileSystem.FileSystem
    return yield* fs
      .readFileString(file)
      .pipe(
        Effect.mapError((e) =>
          Failure.failure(
            `cannot read orders file ${JSON.stringify(file)}: ${
              e.reason._tag === "NotFound"
                ? "no such file"
                : e.reason._tag === "PermissionDenied"
                  ? "permission denied"
                  : e.reason.message
            }`
          )
        )
      )
  })

/** `tppkit project --orders FILE --from D --to D [--calendar C] [--holidays D,…] [--convention X] [--format F]`. */
export const projectCommand = Command.make(
  "project",
  {
    orders: Flag.String("orders").pipe(
      Flag.withMetavar("FILE"),
      Flag.withDescription("Standing-order list response body or bare array of orders (- for stdin)")
    ),
    from: Flag.String("from").pipe(Flag.withMetavar("YYYY-MM-DD"), Flag.withDescription("First day of the window")),
    to: Flag.String("to").pipe(Flag.withMetavar("YYYY-MM-DD"), Flag.withDescription("Last day of the window")),
    calendar: Flag.String("calendar").pipe(
      Flag.withDescription("weekends, target or an ISO 3166 country code (e.g. SK)"),
      Flag.withDefault("target")
    ),
    holidays: Flag.String("holidays").pipe(
      Flag.withMetavar("YYYY-MM-DD,..."),
      Flag.withDescription("Extra holidays added to the calendar"),
      Flag.optional
    ),
    convention: Flag.Literals("convention", [
      "following",
      "preceding",
      "modified-following",
      "modified-preceding",
      "none"
    ]).pipe(Flag.withDescription("Business-day convention"), Flag.withDefault("following")),
    format: Flag.Literals("format", formats).pipe(Flag.withDescription("Output format"), Flag.withDefault("table"))
  },
  Effect.fn("tppkit.project")(function* (input) {
    const settings = Project.settings({
      from: input.from,
      to: input.to,
      calendar: input.calendar,
      holidays: input.holidays._tag === "Some" ? input.holidays.value : undefined,
      convention: input.convention
    })
    if (Result.isFailure(settings)) return yield* Failure.usage(settings.failure)
    const text = yield* readOrders(input.orders)
    const decoded = Project.decodeOrders(text)
    if (Result.isFailure(decoded)) {
      return yield* Failure.failure(`${input.orders === "-" ? "standard input" : input.orders}: ${decoded.failure}`)
    }
    if (decoded.success.orders.length > 1000) {
      yield* Output.progress(`projecting ${decoded.success.orders.length} standing orders…`)
    }
    switch (input.format) {
      case "table":
        return yield* Output.line(Render.projectionTable(Project.report(decoded.success, settings.success)))
      case "json":
        return yield* Output.writeAll(
          Render.projectionJsonChunks(Project.lazyReport(decoded.success, settings.success))
        )
      case "csv": {
        const report = Project.lazyReport(decoded.success, settings.success)
        yield* warnSkipped(report.skipped)
        return yield* Output.writeAll(Render.projectionCsvChunks(report))
      }
      case "ics": {
        const report = Project.report(decoded.success, settings.success)
        yield* warnSkipped(report.skipped)
        return yield* Output.write(ICalendar.fromPayments(report.payments))
      }
    }
  })
).pipe(
  Command.withDescription("Project the payments of standing orders over a window of dates"),
  Command.withExamples([
    {
      command: "tppkit project --orders orders.json --from 2026-01-01 --to 2026-03-31",
      description: "Upcoming payments as a table (TARGET calendar, following convention)"
    },
    {
      command:
        "tppkit standing-orders --all --format json | tppkit project --orders - --from 2026-01-01 --to 2026-12-31 --format json",
      description: "Project what the bank lists"
    }
  ])
)

const warnSkipped = (skipped: ReadonlyArray<Render.SkippedRow>) =>
  Effect.forEach(skipped, (s) => Output.errorLine(`tppkit: skipped ${s.orderId ?? "an order"}: ${s.reason}`), {
    discard: true
  })
