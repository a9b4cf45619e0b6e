/**
 * Starts the command line in this process: `Cli.main` with Node's services, exiting with the command's code.
 * Loaded by bin.ts only once it knows that more than `--version` is asked.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Exit } from "effect"
import * as Cli from "../Cli.ts"

/** Runs `tppkit <args>` and exits the process with its exit code. */
export const start = (args: ReadonlyArray<string>): void =>
  Cli.main(args).pipe(
    Effect.provide(NodeServices.layer),
    NodeRuntime.runMain({
      disableErrorReporting: true,
      teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) && typeof exit.value === "number" ? exit.value : 1)
    })
  )
