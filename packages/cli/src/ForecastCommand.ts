/**
 * `tppkit forecast`: the balance of each of the user's accounts day by day over a window, from a standing-order
 * list, the opening balances and optional expected flows; the lowest point, the days at or below zero or below a
 * threshold, the payments due on them, funds-check answers beside the forecast, and what-if scenarios. Exit code 0
 * when no account is at risk, 8 (`findings`) when one is or a funds check contradicts the forecast.
 *
 * @since 0.1.0
 */
import * as CommandSpec from "./internal/commandSpec.ts"
import * as Flags from "./internal/flags.ts"
import * as Formats from "./internal/formats.ts"

/** `tppkit forecast --orders FILE --balances FILE --from D --to D [--threshold …] [--scenario …] [--format F]`. */
export const forecastCommand = CommandSpec.make({
  name: "forecast",
  flags: {
    orders: Flags.orders,
    balances: Flags.file(
      "balances",
      'JSON array of {"iban", "currency", "amount", "date", "threshold"?}: each balance at the start of its date'
    ),
    flows: Flags.optionalText("flows", "FILE", "Expected flows (e.g. a salary), written as standing orders"),
    checks: Flags.optionalText(
      "checks",
      "FILE",
      'Funds-check answers: JSON array of {"orderId", "executionDate", "debtorIban", "amount", "currency", "checkedOn", "answer"}'
    ),
    ...Flags.window,
    threshold: Flags.list(
      "threshold",
      "[IBAN=]AMOUNT",
      "The line to stay above, for every account or one (repeatable)"
    ),
    scenario: Flags.list(
      "scenario",
      "CHANGES",
      "A what-if (repeatable): skip:ORDER@DATE, fail:ORDER@DATE, delay:ORDER[@DATE]+DAYS, add:FILE (orders), remove:ORDER, convention:X, calendar:C; several joined by commas"
    ),
    calendar: Flags.calendar,
    holidays: Flags.holidays,
    convention: Flags.convention,
    ...Flags.reading,
    format: Flags.format(Formats.forecast),
    rawCsv: Flags.rawCsv
  },
  run: CommandSpec.lazy(() => import("./internal/forecast.ts"))("run"),
  description: "Forecast each account's balance day by day: the lowest point and the days at risk",
  examples: [
    {
      command:
        "tppkit forecast --orders orders.json --balances balances.json --from 2026-08-01 --to 2026-10-31 --threshold 200",
      description: "Each account's lowest point and its days below 200; exit 8 when some account is at risk"
    },
    {
      command:
        "tppkit forecast --orders orders.json --balances balances.json --flows salary.json --from 2026-08-01 --to 2026-10-31 --scenario delay:SALARY+3",
      description: "The salary three days late: what changes against the forecast"
    }
  ]
})
