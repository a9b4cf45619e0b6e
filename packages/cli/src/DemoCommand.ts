/**
 * `tppkit demo`: the whole flow against a mock bank on loopback, with no arguments and no network (see `Demo`,
 * loaded only when the command runs).
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import { Command } from "effect/cli"

/** `tppkit demo`. */
export const demoCommand = Command.make("demo", {}, () =>
  Effect.flatMap(
    Effect.promise(() => import("./Demo.ts")),
    (demo) => demo.program.pipe(Effect.provide(demo.layer))
  )
).pipe(
  Command.withDescription(
    "Run the whole flow against a mock bank on loopback: tokens, balance check, standing orders, projection, funds check"
  )
)
