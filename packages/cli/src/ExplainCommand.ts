/**
 * `tppkit explain`: why one standing order's payment falls on its date, step by step, from its anchor to its
 * execution date (packages/core/README.md, "When a standing order pays"), as short sentences or one JSON object.
 *
 * @since 0.1.0
 */
import { BusinessDayConvention, Calendar } from "@tppkit/core"
import { Effect } from "effect"
import { Command, Flag } from "effect/cli"
import * as Flags from "./internal/flags.ts"
import * as Formats from "./internal/formats.ts"

/** `tppkit explain --orders FILE --order ID [--date D] [--calendar C] [--convention X] [--rule-from L] [--format F]`. */
export const explainCommand = Command.make(
  "explain",
  {
    orders: Flag.String("orders").pipe(
      Flag.withMetavar("FILE"),
      Flag.withDescription("Standing-order list response body or bare array of orders (- for stdin)")
    ),
    order: Flag.String("order").pipe(Flag.withMetavar("ID"), Flag.withDescription("The orderId to explain")),
    date: Flag.String("date").pipe(
      Flag.withMetavar("YYYY-MM-DD"),
      Flag.withDescription("Explain the payment on this day, or the next one after it (default: the next payment)"),
      Flag.optional
    ),
    calendar: Flag.String("calendar").pipe(
      Flag.withDescription(
        `${Calendar.builtIn.map((c) => c.name).join(", ")}, an ISO 3166 country code or auto, as for project (default ${Calendar.target.name})`
      ),
      Flag.optional
    ),
    holidays: Flags.holidays,
    convention: Flag.Literals("convention", BusinessDayConvention.conventions).pipe(
      Flag.withDescription(`Business-day convention (default ${BusinessDayConvention.defaultConvention})`),
      Flag.optional
    ),
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
    standard: Flags.standard,
    accounts: Flags.accounts,
    format: Flag.Literals("format", Formats.explain).pipe(
      Flag.withDescription(`Output format: ${Formats.explain.join(", ")} (default ${Formats.explain[0]})`),
      Flag.withDefault(Formats.explain[0])
    )
  },
  (input) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/explain.ts")),
      (impl) => impl.run(input)
    )
).pipe(
  Command.withDescription("Explain why a standing order's payment falls on its date, step by step"),
  Command.withExamples([
    {
      command: "tppkit explain --orders orders.json --order SO-1001",
      description: "The next payment: anchor, nominal date, days passed and why, convention"
    },
    {
      command: "tppkit explain --orders orders.json --order SO-1001 --date 2027-04-01 --format json",
      description: "The payment on or after 1 April 2027 as one JSON object"
    }
  ])
)
