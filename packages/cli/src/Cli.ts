/**
 * The `tppkit` root command and its wiring: subcommands, the global `--verbose` flag, parse errors printed as
 * one line on stderr (never the whole help), and `main`, which runs a command line and turns every failure
 * into one line on stderr plus a non-zero exit code.
 *
 * @since 0.1.0
 */
import { Effect, Exit } from "effect"
import { CliOutput, Command, Flag, GlobalFlag } from "effect/cli"
import { balanceCheckCommand, standingOrdersCommand, tokenCommand } from "./BankCommands.ts"
import { budgetCommand } from "./BudgetCommand.ts"
import { dbCommand } from "./DbCommand.ts"
import { demoCommand } from "./DemoCommand.ts"
import * as Failure from "./Failure.ts"
import * as Output from "./Output.ts"
import { projectCommand } from "./ProjectCommand.ts"
import { sandboxCommand } from "./SandboxCommand.ts"
import * as Version from "./Version.ts"
import { workerCommand } from "./WorkerCommand.ts"

/** The version the command reports with `--version`. */
export const VERSION = Version.VERSION

/** `--verbose`: print the chain of typed errors behind a failure after its one-line description. */
export const Verbose = GlobalFlag.Setting("verbose")({
  flag: Flag.Boolean("verbose").pipe(
    Flag.withDescription("On failure, print the chain of typed errors behind the one-line message"),
    Flag.withDefault(false)
  )
})

/** The `tppkit` command with every subcommand. */
export const command = Command.make("tppkit").pipe(
  Command.withDescription("Third-party-provider toolkit: talk to the bank, project standing orders, run the demo"),
  Command.withGlobalFlags([Verbose]),
  Command.withSubcommands([
    projectCommand,
    tokenCommand,
    balanceCheckCommand,
    standingOrdersCommand,
    budgetCommand,
    sandboxCommand,
    demoCommand,
    dbCommand,
    workerCommand
  ])
)

/** Presents help and version on stdout, but an invalid invocation as its errors plus a hint, on stderr. */
const presenter = CliOutput.layerPresenter({
  present: (event) =>
    event._tag === "InvalidInvocation"
      ? Effect.void // `main` prints the first error as the one line
      : CliOutput.defaultPresenter.present(event)
})

/** Runs the command on the given arguments (without the program name), failures left in the error channel. */
export const run = (args: ReadonlyArray<string>) =>
  Command.runWith(command, { version: VERSION })(args).pipe(Effect.provide(presenter))

/**
 * Runs the command and reports a failure as one line `tppkit: <what was wrong>` on stderr, or with
 * `--format json` as one JSON line `{"error": {...}}`, plus the chain of typed errors with `--verbose`; returns
 * the exit code of the failure's kind (`Failure.exitCodes`), 0 on success.
 */
export const main = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const exit = yield* Effect.exit(run(args))
    if (Exit.isSuccess(exit)) return 0
    const outcome = Failure.outcome(exit.cause)
    if (outcome.kind === "interrupted" || outcome.message.length === 0) return outcome.exitCode
    const verbose = args.includes("--verbose")
    if (wantsJson(args)) {
      yield* Output.errorLine(Failure.json(outcome, verbose ? Failure.chain(exit.cause) : undefined))
      return outcome.exitCode
    }
    const style = yield* Output.stderrStyle
    yield* Output.errorLine(`${style.bold(style.red("tppkit:"))} ${outcome.message}`)
    if (outcome.helpHint) yield* Output.errorLine(`Run "tppkit ${commandPathOf(args)}--help" for usage.`)
    if (verbose)
      yield* Output.errorLine(
        `Caused by:\n${Failure.chain(exit.cause)
          .map((l) => `  ${l}`)
          .join("\n")}`
      )
    return outcome.exitCode
  })

/** Whether the command line asks for JSON output (`--format json` or `--format=json`). */
const wantsJson = (args: ReadonlyArray<string>): boolean =>
  args.some((a, i) => a === "--format=json" || (a === "--format" && args[i + 1] === "json"))

const subcommandNames: ReadonlyArray<string> = [
  "project",
  "token",
  "balance-check",
  "standing-orders",
  "budget",
  "sandbox",
  "demo",
  "db",
  "worker"
]

const commandPathOf = (args: ReadonlyArray<string>): string => {
  const first = args.find((a) => !a.startsWith("-"))
  return first !== undefined && subcommandNames.includes(first) ? `${first} ` : ""
}
