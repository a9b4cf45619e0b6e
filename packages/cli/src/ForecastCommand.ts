/**
 * `tppkit forecast`: the balance of each of the user's accounts day by day over a window, from a standing-order
 * list, the opening balances and optional expected flows; the lowest point, the days at or below zero or below a
 * threshold, the payments due on them, funds-check answers beside the forecast, and what-if scenarios. Exit code 0
 * when no account is at risk, 8 (`findings`) when one is or a funds check contradicts the forecast.
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import { Command, Flag } from "effect/cli"
import * as Flags from "./internal/flags.ts"
import * as Formats from "./internal/formats.ts"

/** `tppkit forecast --orders FILE --balances FILE --from D --to D [--threshold …] [--scenario …] [--format F]`. */
export const forecastCommand = Command.make(
  "forecast",
  {
    orders: Flag.String("orders").pipe(
      Flag.withMetavar("FILE"),
      Flag.withDescription("Standing-order list response body or bare array of orders (- for stdin)")
    ),
    balances: Flag.String("balances").pipe(
      Flag.withMetavar("FILE"),
      Flag.withDescription(
        'JSON array of {"iban", "currency", "amount", "date", "threshold"?}: each balance at the start of its date'
      )
    ),
    flows: Flag.String("flows").pipe(
      Flag.withMetavar("FILE"),
      Flag.withDescription("Expected flows (e.g. a salary), written as standing orders"),
      Flag.optional
    ),
    checks: Flag.String("checks").pipe(
      Flag.withMetavar("FILE"),
      Flag.withDescription(
        'Funds-check answers: JSON array of {"orderId", "executionDate", "debtorIban", "amount", "currency", "checkedOn", "answer"}'
      ),
      Flag.optional
    ),
    from: Flag.String("from").pipe(Flag.withMetavar("YYYY-MM-DD"), Flag.withDescription("First day of the window")),
    to: Flag.String("to").pipe(Flag.withMetavar("YYYY-MM-DD"), Flag.withDescription("Last day of the window")),
    threshold: Flag.String("threshold").pipe(
      Flag.withMetavar("[IBAN=]AMOUNT"),
      Flag.withDescription("The line to stay above, for every account or one (repeatable)"),
      Flag.atLeast(0),
      Flag.withDefault([] as ReadonlyArray<string>)
    ),
    scenario: Flag.String("scenario").pipe(
      Flag.withMetavar("CHANGES"),
      Flag.withDescription(
        "A what-if (repeatable): skip:ORDER@DATE, fail:ORDER@DATE, delay:ORDER[@DATE]+DAYS, add:FILE (orders), remove:ORDER, convention:X, calendar:C; several joined by commas"
      ),
      Flag.atLeast(0),
      Flag.withDefault([] as ReadonlyArray<string>)
    ),
    calendar: Flags.calendar,
    holidays: Flags.holidays,
    convention: Flags.convention,
    standard: Flags.standard,
    accounts: Flags.accounts,
    format: Flag.Literals("format", Formats.forecast).pipe(
      Flag.withDescription(`Output format: ${Formats.forecast.join(", ")} (default table)`),
      Flag.withDefault(Formats.forecast[0])
    ),
    rawCsv: Flags.rawCsv
  },
  (input) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/forecast.ts")),
      (impl) => impl.run(input)
    )
).pipe(
  Command.withDescription("Forecast each account's balance day by day: the lowest point and the days at risk"),
  Command.withExamples([
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
  ])
)
