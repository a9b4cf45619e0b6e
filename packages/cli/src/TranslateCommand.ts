/**
 * `tppkit translate`: each standing order's schedule in another standard (RFC 5545 RRULE, or the bank's own codes), with
 * what the translation could not keep (packages/core/README.md, "Translations"), as lines or one JSON object per order.
 *
 * @since 0.2.0
 */
import { Calendar } from "@tppkit/core"
import { Flag } from "effect/cli"
import * as CommandSpec from "./internal/commandSpec.ts"
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
export const translateCommand = CommandSpec.make({
  name: "translate",
  flags: {
    orders: Flags.orders,
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
    convention: Flags.conventionWithDefault("The bank's business-day convention"),
    ...Flags.reading,
    listedOn: Flags.listedOn,
    format: Flags.format(formats, "Output format: text, or json (one object per order and line)")
  },
  run: CommandSpec.lazy(() => import("./internal/translate.ts"))("run"),
  description: "Translate each standing order's schedule to RRULE (or the bank's codes), naming every loss",
  examples: [
    {
      command: "tppkit translate --orders orders.json --to rrule",
      description: "Each order's DTSTART and RRULE, exact, lossy (what changed and why) or unrepresentable"
    },
    {
      command: "tppkit translate --orders orders.json --to rrule --convention none --format json",
      description: "One JSON object per order; exit 8 when some translation is not exact"
    }
  ]
})
