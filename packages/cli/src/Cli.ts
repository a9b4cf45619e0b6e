/**
 * The `tppkit` root command and its wiring: subcommands, the global `--verbose` flag, parse errors printed as
 * one line on stderr (never the whole help), and `main`, which runs a command line and turns every failure
 * into one line on stderr plus a non-zero exit code.
 *
 * @since 0.1.0
 */
import { Cause, Console, Effect, Exit, Stdio } from "effect"
import { CliError, CliOutput, Command, Flag, GlobalFlag } from "effect/cli"
import { balanceCheckCommand, standingOrdersCommand, tokenCommand } from "./BankCommands.ts"
import { budgetCommand } from "./BudgetCommand.ts"
import { changesCommand } from "./ChangesCommand.ts"
import { consentsCommand } from "./ConsentsCommand.ts"
import { dbCommand } from "./DbCommand.ts"
import { demoCommand } from "./DemoCommand.ts"
import { explainCommand } from "./ExplainCommand.ts"
import * as Failure from "./Failure.ts"
import { forecastCommand } from "./ForecastCommand.ts"
import * as Help from "./Help.ts"
import * as QuickHelp from "./internal/quickHelp.ts"
import * as Output from "./Output.ts"
import { projectCommand } from "./ProjectCommand.ts"
import { reconcileCommand } from "./ReconcileCommand.ts"
import { sandboxCommand } from "./SandboxCommand.ts"
import type * as Style from "./Style.ts"
import { translateCommand } from "./TranslateCommand.ts"
import * as Version from "./Version.ts"
import { webhookCommand } from "./WebhookCommand.ts"
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
  Command.withExamples([
    { command: "tppkit demo", description: "The whole flow against a local mock bank, offline" },
    {
      command: "tppkit --completions bash > ~/.local/share/bash-completion/completions/tppkit",
      description: "Complete commands and flags in bash (in shells started afterwards)"
    }
  ]),
  Command.withSubcommands([
    projectCommand,
    reconcileCommand,
    forecastCommand,
    explainCommand,
    translateCommand,
    tokenCommand,
    balanceCheckCommand,
    standingOrdersCommand,
    budgetCommand,
    sandboxCommand,
    demoCommand,
    dbCommand,
    consentsCommand,
    changesCommand,
    workerCommand,
    webhookCommand
  ])
)

/** Presents help (`Help.render`, 80 columns) and the version on stdout; an invalid invocation is `main`'s. */
const presenter = (stdio: Stdio.Stdio, style: Style.Style) =>
  CliOutput.layerPresenter({
    present: (event) =>
      event._tag === "InvalidInvocation"
        ? Effect.void // `main` prints the first error as the one line
        : event._tag === "Help"
          ? // a help that cannot be written (a full disk) is reported by the process's stdout watcher (internal/stdout.ts)
            Output.line(Help.render(event.helpDoc, style)).pipe(
              Effect.provideService(Stdio.Stdio, stdio),
              Effect.ignore
            )
          : CliOutput.defaultPresenter.present(event)
  })

/**
 * `tppkit help [COMMAND...]` is `tppkit [COMMAND...] --help`, as in git, gh and kubectl; the help of a command
 * that does not exist (`tppkit projekt --help`, `tppkit help db strat`), which effect/cli would answer with its
 * parent's help and exit code 0, is the command line without the help flag: "did you mean", exit code 2.
 */
const helpArgs = (args: ReadonlyArray<string>): ReadonlyArray<string> => {
  const path = QuickHelp.helpPath(args)
  if (path !== undefined && path !== "") {
    let current: Command.Command.Any = command
    for (const word of path.split(" ")) {
      const subcommands = current.subcommands.flatMap((group) => group.commands)
      const next = subcommands.find((sub) => sub.name === word)
      if (next === undefined) return subcommands.length > 0 ? path.split(" ") : args
      current = next
    }
  }
  return args[0] === "help" ? [...args.slice(1), "--help"] : args
}

/**
 * Runs the command on the given arguments (without the program name), failures left in the error channel. A
 * `--wizard` that the person cancels (Ctrl+C, input ending, or "no" at its last question, "Run this command?") is
 * an interruption (exit code 130), not a success. effect/cli reports Ctrl+C only by printing "Wizard cancelled."
 * and a "no" not at all, so the console is watched: after "Command ready" it prints one empty line just before it
 * runs the command, and nothing when the answer is "no" (then "Wizard cancelled." is printed here).
 */
export const run = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const stdio = yield* Stdio.Stdio
    const style = yield* Output.stdoutStyle
    const console = yield* Console.Console
    let cancelled = false
    let ready = false
    let ran = false
    const watching: Console.Console = Object.assign(Object.create(console), {
      log: (...parts: ReadonlyArray<unknown>) => {
        const said = (text: string) => parts.some((p) => typeof p === "string" && p.includes(text))
        if (said("Wizard cancelled.")) cancelled = true
        else if (said("Command ready")) ready = true
        else if (ready && parts.length === 0) ran = true
        console.log(...parts)
      }
    })
    yield* Command.runWith(command, { version: VERSION })(helpArgs(args)).pipe(
      Effect.provide(presenter(stdio, style)),
      args.includes("--wizard") ? Effect.provideService(Console.Console, watching) : (e) => e
    )
    if (!cancelled && ready && !ran) yield* Console.log("\nWizard cancelled: the command was not run.")
    if (cancelled || (ready && !ran)) return yield* Effect.interrupt
  })

/**
 * The way out the failure's own message cannot know: what to check when the bank refuses the client's credentials
 * (the token endpoint's `invalid_client`), the command line's own budget switch when the daily budget refuses, and
 * for the bank's own 429 of its daily limit (an in-memory count lets the calls go out) a mock bank started again.
 */
const wayOut = (outcome: Failure.Outcome): string | undefined =>
  outcome.details?.code === "invalid_client"
    ? "check TPPKIT_CLIENT_ID and TPPKIT_CLIENT_SECRET (or --client-id and --client-secret)"
    : outcome.kind === "budget" && outcome.details?.freesAt !== undefined
      ? "or, playing against a mock bank, count in memory: --budget-file memory (TPPKIT_BUDGET_FILE=memory), or start the mock bank again (a new mock bank has a count of its own)"
      : outcome.kind === "budget" && outcome.details?.status === 429
        ? "or, playing against a mock bank, start it again (a new mock bank has a count of its own); --max-age reuses a listing kept in a budget file (not with --budget-file memory)"
        : undefined

/** "did you mean …" for a mistyped subcommand or flag, from effect/cli's suggestions (nothing when it has none). */
const suggestion = (cause: Cause.Cause<unknown>): string | undefined => {
  const error = Cause.squash(cause)
  const errors = CliError.isCliError(error) ? (error._tag === "ShowHelp" ? error.errors : [error]) : []
  for (const e of errors) {
    if ((e._tag === "UnknownSubcommand" || e._tag === "UnrecognizedOption") && e.suggestions.length > 0) {
      return `did you mean ${e.suggestions.map((s) => `"${s}"`).join(" or ")}?`
    }
  }
  return undefined
}

/**
 * Runs the command and reports a failure as one line `tppkit: <what was wrong>` on stderr, or with
 * `--format json` as one JSON line `{"error": {...}}`, plus the chain of typed errors with `--verbose`; returns
 * the exit code of the failure's kind (`Failure.exitCodes`), 0 on success.
 */
export const main = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const exit = yield* Effect.exit(run(args))
    if (Exit.isSuccess(exit)) return 0
    const failed = Failure.outcome(exit.cause)
    const hint = suggestion(exit.cause) ?? wayOut(failed)
    // the hint goes before the bank's identifiers that end a message (" [Correlation-ID …]")
    const outcome =
      hint === undefined ? failed : { ...failed, message: failed.message.replace(/( \[[^\]]*\])?$/, `; ${hint}$1`) }
    if (outcome.kind === "interrupted" || outcome.message.length === 0) return outcome.exitCode
    const verbose = args.includes("--verbose")
    if (wantsJson(args)) {
      yield* Output.errorLine(Failure.json(outcome, verbose ? Failure.chain(exit.cause) : undefined))
      return outcome.exitCode
    }
    const style = yield* Output.stderrStyle
    yield* Output.errorLine(`${style.bold(style.red("tppkit:"))} ${Output.printable(outcome.message)}`)
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
  "reconcile",
  "forecast",
  "explain",
  "translate",
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
