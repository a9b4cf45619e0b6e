/**
 * `tppkit project`: projects the payments of a standing-order list (a file, or `-` for stdin) over a window
 * and prints them as a table, JSON, CSV, iCalendar or a self-contained HTML cash-flow picture. A malformed order
 * is skipped with its reason; the exit code is non-zero only when the file cannot be read or is not an orders
 * file, or the options are invalid.
 *
 * @since 0.1.0
 */
import { Flag } from "effect/cli"
import * as CommandSpec from "./internal/commandSpec.ts"
import * as Flags from "./internal/flags.ts"
import * as Formats from "./internal/formats.ts"

/** The output formats of `tppkit project` (the renderers' names, the default first). */
export const formats = Formats.project

/** `tppkit project --orders FILE --from D --to D [--calendar C] [--holidays D,…] [--convention X] [--format F]`. */
export const projectCommand = CommandSpec.make({
  name: "project",
  flags: {
    orders: Flags.orders,
    ...Flags.window,
    calendar: Flags.calendar,
    holidays: Flags.holidays,
    convention: Flags.convention,
    ...Flags.reading,
    format: Flags.format(formats),
    rawCsv: Flags.rawCsv,
    icsRrule: Flag.Boolean("ics-rrule").pipe(
      Flag.withDescription(
        "With --format ics: one recurring event (RRULE, with EXDATE and RDATE for the payments a holiday moves) per order an RRULE can say exactly, else one event per payment, the reason on stderr"
      ),
      Flag.withDefault(false)
    ),
    ruleFrom: Flags.repeated(
      "rule-from",
      "LISTING",
      "Project with the bank's rule as its listed nextDates show it (see tppkit reconcile), instead of --calendar and --convention; repeat it for several listings, whose evidence adds up"
    ),
    listedOn: Flags.repeated(
      "listed-on",
      "YYYY-MM-DD",
      "The day the --rule-from listing was made (default --from); one for all listings, or one per --rule-from in order"
    )
  },
  run: CommandSpec.lazy(() => import("./internal/project.ts"))("run"),
  description: "Project the payments of standing orders over a window of dates",
  examples: [
    {
      command: "tppkit project --orders orders.json --from 2026-01-01 --to 2026-03-31",
      description: "Upcoming payments as a table (TARGET calendar, following convention)"
    },
    {
      command:
        "tppkit standing-orders --all --format json | tppkit project --orders - --from 2026-01-01 --to 2026-12-31 --format json",
      description: "Project what the bank lists"
    }
  ]
})
