/**
 * `tppkit reconcile`: checks every `nextDate` of a standing-order list against the date tppkit's engine expects on
 * the day of the listing, names the rule that explains each difference, and infers the bank's rule
 * (docs/bank-interface.md, "The bank's date rule"). Exit code 0 when every date matches or one rule explains them
 * all, 8 (`findings`) when there are anomalies or unexplained dates.
 *
 * @since 0.1.0
 */
import * as CommandSpec from "./internal/commandSpec.ts"
import * as Flags from "./internal/flags.ts"
import * as Formats from "./internal/formats.ts"

/**
 * `tppkit reconcile --orders FILE --as-of D [--calendar C] [--convention X] [--holidays D,...]
 * [--format table|json]`.
 */
export const reconcileCommand = CommandSpec.make({
  name: "reconcile",
  flags: {
    orders: Flags.orders,
    asOf: Flags.date("as-of", "The day the bank made the listing"),
    ...Flags.reconcileRule,
    ...Flags.reading,
    format: Flags.format(Formats.reconcile)
  },
  run: CommandSpec.lazy(() => import("./internal/reconcile.ts"))("run"),
  description: "Check the bank's nextDates against tppkit's dates and infer the bank's rule",
  examples: [
    {
      command: "tppkit reconcile --orders orders.json --as-of 2026-01-15",
      description: "Matched, explained, stale, anomalies and the inferred rule; exit 8 on findings"
    }
  ]
})
