/**
 * `tppkit explain`: why one standing order's payment falls on its date, step by step, from its anchor to its
 * execution date (packages/core/README.md, "When a standing order pays"), as short sentences or one JSON object.
 *
 * @since 0.1.0
 */
import { Calendar } from "@tppkit/core"
import { Flag } from "effect/cli"
import * as CommandSpec from "./internal/commandSpec.ts"
import * as Flags from "./internal/flags.ts"
import * as Formats from "./internal/formats.ts"

/** `tppkit explain --orders FILE --order ID [--date D] [--calendar C] [--convention X] [--rule-from L] [--format F]`. */
export const explainCommand = CommandSpec.make({
  name: "explain",
  flags: {
    orders: Flags.orders,
    order: Flags.text("order", "ID", "The orderId to explain"),
    date: Flags.optionalText(
      "date",
      "YYYY-MM-DD",
      "Explain the payment on this day, or the next one after it (default: the next payment)"
    ),
    calendar: Flag.String("calendar").pipe(
      Flag.withDescription(
        `${Calendar.builtIn.map((c) => c.name).join(", ")}, an ISO 3166 country code or auto, as for project (default ${Calendar.target.name})`
      ),
      Flag.optional
    ),
    holidays: Flags.holidays,
    convention: Flags.conventionSaying("Business-day convention").pipe(Flag.optional),
    ruleFrom: Flags.repeated(
      "rule-from",
      "LISTING",
      "Use the bank's rule as its listed nextDates show it, as for project (repeatable)"
    ),
    listedOn: Flags.repeated(
      "listed-on",
      "YYYY-MM-DD",
      "The day the --rule-from listing was made (default --date); one for all, or one per listing"
    ),
    ...Flags.reading,
    format: Flags.format(Formats.explain)
  },
  run: CommandSpec.lazy(() => import("./internal/explain.ts"))("run"),
  description: "Explain why a standing order's payment falls on its date, step by step",
  examples: [
    {
      command: "tppkit explain --orders orders.json --order SO-1001",
      description: "The next payment: anchor, nominal date, days passed and why, convention"
    },
    {
      command: "tppkit explain --orders orders.json --order SO-1001 --date 2027-04-01 --format json",
      description: "The payment on or after 1 April 2027 as one JSON object"
    }
  ]
})
