/** Runs `tppkit sandbox` on its own (the arguments after the script name), for the process-level tests. */
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { sandboxCommand } from "@tppkit/cli/SandboxCommand"
import { Effect } from "effect"
import { Command } from "effect/cli"

Command.runWith(sandboxCommand, { version: "0.0.0" })(process.argv.slice(2)).pipe(
  Effect.tapError((e) =>
    Effect.sync(() => {
      process.stderr.write(`tppkit: ${"message" in e ? e.message : String(e)}\n`)
    })
  ),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
