/**
 * `tppkit reconcile`: checks every `nextDate` of a standing-order list against the date tppkit's engine expects on
 * the day of the listing, names the rule that explains each difference, and infers the bank's rule
 * (docs/bank-interface.md, "The bank's date rule"). Exit code 0 when every date matches or one rule explains them
 * all, 8 (`findings`) when there are anomalies or unexplained dates.
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import { Command, Flag } from "effect/cli"
import * as Flags from "./internal/flags.ts"
import * as Formats from "./internal/formats.ts"

/**
 * `tppkit reconcile --orders FILE --as-of D [--calendar C] [--convention X] [--holidays D,...]
 * [--format table|json]`.
 */
export const reconcileCommand = Command.make(
  "reconcile",
  {
    orders: Flag.String("orders").pipe(
      Flag.withMetavar("FILE"),
      Flag.withDescription("Standing-order list response body or bare array of orders (- for stdin)")
    ),
    asOf: Flag.String("as-of").pipe(
      Flag.withMetavar("YYYY-MM-DD"),
      Flag.withDescription("The day the bank made the listing")
    ),
    ...Flags.reconcileRule,
    standard: Flags.standard,
    accounts: Flags.accounts,
    format: Flag.Literals("format", Formats.reconcile).pipe(
      Flag.withDescription(`Output format: ${Formats.reconcile.join(", ")} (default ${Formats.reconcile[0]})`),
      Flag.withDefault(Formats.reconcile[0])
    )
  },
  (input) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/reconcile.ts")),
      (impl) => impl.run(input)
    )
).pipe(
  Command.withDescription("Check the bank's nextDates against tppkit's dates and infer the bank's rule"),
  Command.withExamples([
    {
      command: "tppkit reconcile --orders orders.json --as-of 2026-01-15",
      description: "Matched, explained, stale, anomalies and the inferred rule; exit 8 on findings"
    }
  ])
)
