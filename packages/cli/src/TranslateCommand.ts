/**
 * `tppkit translate`: each standing order's schedule in another standard (RFC 5545 RRULE, or the bank's own codes), with
 * what the translation could not keep (packages/core/README.md, "Translations"), as lines or one JSON object per order.
 *
 * @since 0.2.0
 */
import { BusinessDayConvention, Calendar } from "@tppkit/core"
import { Effect } from "effect"
import { Command, Flag } from "effect/cli"
import * as Flags from "./internal/flags.ts"
import { standardTargets } from "./internal/standardTargets.ts"

/**
 * The targets `--to` names: RRULE, the bank's codes, the other standards (internal/standardTargets.ts), and
 * `berlin-group-ais`: Berlin Group's AIS answer (`berlin-group` writes its periodic payment bodies).
 */
export const targets = ["rrule", "sbas", ...standardTargets, "berlin-group-ais"] as const

/** The output formats. */
export const formats = ["text", "json"] as const

/** `tppkit translate --orders FILE --to rrule|sbas [--calendar C] [--convention X] [--format text|json]`. */
export const translateCommand = Command.make(
  "translate",
  {
    orders: Flag.String("orders").pipe(
      Flag.withMetavar("FILE"),
      Flag.withDescription("Standing-order list response body or bare array of orders (- for stdin)")
    ),
    to: Flag.Literals("to", targets).pipe(
      Flag.withDescription(
        "Target: rrule (RFC 5545 with RFC 7529), sbas, or another standard's record as JSON (cobs, berlin-group, uk-v3, uk-v4, iso20022, ynab, actual; berlin-group-ais: the AIS answer)"
      )
    ),
    calendar: Flag.Literals(
      "calendar",
      Calendar.builtIn.map((c) => c.name)
    ).pipe(
      Flag.withDescription(`The bank's working-day calendar (default ${Calendar.target.name})`),
      Flag.withDefault(Calendar.target.name)
    ),
    holidays: Flags.holidays,
    convention: Flag.Literals("convention", BusinessDayConvention.conventions).pipe(
      Flag.withDescription(`The bank's business-day convention (default ${BusinessDayConvention.defaultConvention})`),
      Flag.withDefault(BusinessDayConvention.defaultConvention)
    ),
    standard: Flags.standard,
    accounts: Flags.accounts,
    listedOn: Flags.listedOn,
    format: Flag.Literals("format", formats).pipe(
      Flag.withDescription("Output format: text, or json (one object per order and line)"),
      Flag.withDefault("text")
    )
  },
  (input) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/translate.ts")),
      (impl) => impl.run(input)
    )
).pipe(
  Command.withDescription("Translate each standing order's schedule to RRULE (or the bank's codes), naming every loss"),
  Command.withExamples([
    {
      command: "tppkit translate --orders orders.json --to rrule",
      description: "Each order's DTSTART and RRULE, exact, lossy (what changed and why) or unrepresentable"
    },
    {
      command: "tppkit translate --orders orders.json --to rrule --convention none --format json",
      description: "One JSON object per order; exit 8 when some translation is not exact"
    }
  ])
)
