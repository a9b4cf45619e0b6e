/**
 * Starts the command line in this process: `Cli.main` with Node's services, exiting with the command's code.
 * Loaded by bin.ts only once it knows that more than `--version` is asked.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Cause, Effect, Exit } from "effect"
import * as Cli from "../Cli.ts"
import * as Failure from "../Failure.ts"
import * as Stdout from "./stdout.ts"

/**
 * Runs `tppkit <args>` and exits the process with its exit code; a command whose output could not be written
 * (a full disk) exits 1 with one line on stderr, a closed pipe ends quietly (see `Stdout.watch`); SIGINT or SIGTERM
 * (`worker`, `sandbox`, `db start`) stops the command and exits 130.
 */
export const start = (args: ReadonlyArray<string>): void => {
  const settle = Stdout.watch()
  Cli.main(args).pipe(
    Effect.provide(NodeServices.layer),
    NodeRuntime.runMain({
      disableErrorReporting: true,
      // SIGINT and SIGTERM interrupt the command (its scopes close, servers stop): exit code 130, as documented
      teardown: (exit, onExit) =>
        settle(
          Exit.isSuccess(exit)
            ? typeof exit.value === "number"
              ? exit.value
              : 1
            : Cause.hasInterruptsOnly(exit.cause)
              ? Failure.exitCodes.interrupted
              : 1,
          onExit
        )
    })
  )
}
