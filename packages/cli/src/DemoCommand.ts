/**
 * `tppkit demo`: the whole flow against a mock bank on loopback, with no arguments and no network (see `Demo`,
 * loaded only when the command runs).
 *
 * @since 0.1.0
 */
import { Effect, Option } from "effect"
import * as Failure from "./Failure.ts"
import * as CommandSpec from "./internal/commandSpec.ts"
import { checkWritable } from "./internal/files.ts"
import * as Flags from "./internal/flags.ts"

/** `tppkit demo [--html FILE] [--skip-fleet] [--profile NAME|FILE]`. */
export const demoCommand = CommandSpec.make({
  name: "demo",
  flags: {
    html: Flags.optionalText(
      "html",
      "FILE",
      "Also write the cash-flow picture (HTML with an SVG chart, payments at risk marked)"
    ),
    skipFleet: Flags.toggle("skip-fleet", "Leave out the fleet step (a worker on a temporary embedded PostgreSQL)"),
    profile: Flags.optionalText(
      "profile",
      "NAME|FILE",
      "The bank the mock bank plays and the client speaks: sbas (default), cobs, or a profile file"
    )
  },
  run: (input) =>
    Effect.gen(function* () {
      // the picture is written last: a path that cannot be written is said before the demo runs
      if (Option.isSome(input.html)) yield* checkWritable("the picture to", input.html.value, Failure.usage)
      const profile = Option.isNone(input.profile)
        ? undefined
        : yield* Effect.mapError(
            Effect.fromResult(
              (yield* Effect.promise(() => import("@tppkit/http/BankConfig"))).loadProfile(input.profile.value)
            ),
            (e) => Failure.usage(`--profile ${e.detail}`, e)
          )
      const demo = yield* Effect.promise(() => import("./Demo.ts"))
      return yield* demo
        .run({ html: Option.getOrUndefined(input.html), skipFleet: input.skipFleet, profile })
        .pipe(Effect.provide(demo.layerFor(profile)))
    }),
  description:
    "Run the whole flow against a mock bank on loopback: tokens, balance check, standing orders, projection, " +
    "funds check, and a fleet worker on a temporary PostgreSQL",
  examples: [
    { command: "tppkit demo", description: "The whole flow, offline" },
    { command: "tppkit demo --skip-fleet --html cashflow.html", description: "Without the fleet, with the picture" }
  ]
})
