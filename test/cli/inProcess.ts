/**
 * Runs the `tppkit` command in-process (`Cli.main`) with stdout and stderr captured and stdin given as text, each
 * stream a terminal or not as the test says; for the suites that test the command without spawning a process.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Cli } from "@tppkit/cli"
import { Effect, Sink, Stdio, Stream } from "effect"

/** What an in-process run reads: stdin's text, and which streams are terminals (none by default). */
export interface Options {
  readonly stdin?: string
  readonly stdinIsTerminal?: boolean
  readonly stdoutIsTerminal?: boolean
  readonly stderrIsTerminal?: boolean
}

/** Runs `tppkit <args>` in-process and resolves with its exit code and what it wrote to stdout and stderr. */
export const run = async (args: ReadonlyArray<string>, options: Options = {}) => {
  const out: Array<string> = []
  const err: Array<string> = []
  const collect = (into: Array<string>) => () =>
    // biome-ignore lint/suspicious/useIterableCallbackReturn: Sink.forEach takes an effectful callback
    Sink.forEach((chunk: string | Uint8Array) =>
      Effect.sync(() => {
        into.push(typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk))
      })
    )
  const stdio = Stdio.layerTest({
    stdout: collect(out),
    stderr: collect(err),
    stdin: Stream.make(new TextEncoder().encode(options.stdin ?? "")),
    stdinIsTerminal: Effect.succeed(options.stdinIsTerminal ?? false),
    stdoutIsTerminal: Effect.succeed(options.stdoutIsTerminal ?? false),
    stderrIsTerminal: Effect.succeed(options.stderrIsTerminal ?? false)
  })
  const code = await Effect.runPromise(Cli.main(args).pipe(Effect.provide(stdio), Effect.provide(NodeServices.layer)))
  return { code, stdout: out.join(""), stderr: err.join("") }
}

/**
 * The arguments of `tppkit worker --once` with `flags`, its database on loopback port 1 (where nothing listens) and a
 * bank it never reaches: for what a worker checks before it asks either.
 */
export const workerWithoutDatabase = (...flags: ReadonlyArray<string>): Array<string> => [
  ...["worker", "--database-url", "postgres://tppkit@127.0.0.1:1/tppkit", "--base-url", "https://bank.example"],
  ...["--client-id", "c", "--client-secret", "s", ...flags, "--once"]
]
