/**
 * A command as one declaration: its name, flags, handler, one-line description and examples, made into effect/cli's
 * `Command` in one place. The handler of a command whose work pulls in a heavy stack (the bank client, the
 * projection, the mock bank, the fleet) is {@link lazy}: the work's module is imported only when the command runs,
 * so that `--help` and every other command start without it (BENCHMARKS.md, "Start-up of the command").
 */
import { Effect } from "effect"
import { Command } from "effect/cli"

/** What a command is made of: effect/cli's constructor's arguments and the help's description and examples. */
export interface Spec<Name extends string, Config extends Command.Command.Config, E, R> {
  readonly name: Name
  readonly flags: Config
  readonly run: (input: Command.Command.Config.Infer<Config>) => Effect.Effect<void, E, R>
  readonly description: string
  readonly examples: ReadonlyArray<Command.Command.Example>
}

/** The values a command's flags and arguments are parsed into. */
export type Input<Config extends Command.Command.Config> = Command.Command.Config.Infer<Config>

/** The command a {@link Spec} declares. */
export const make = <Name extends string, const Config extends Command.Command.Config, E, R>(
  spec: Spec<Name, Config, E, R>
) =>
  Command.make(spec.name, spec.flags, spec.run).pipe(
    Command.withDescription(spec.description),
    Command.withExamples(spec.examples)
  )

/** The handler a function of a lazily loaded module makes: its input, its failures and what it needs. */
export type Handler<F> = F extends (input: infer I) => Effect.Effect<infer _A, infer E, infer R>
  ? (input: I) => Effect.Effect<void, E, R>
  : never

/**
 * The handlers of a module loaded when one of them runs: `lazy(() => import("./internal/x.ts"))("run")` runs the
 * module's `run` with the command's input. The `import()` stays written at the call, where the bundler sees it and
 * keeps the module a chunk of its own.
 */
export const lazy =
  <M>(load: () => Promise<M>) =>
  <K extends keyof M>(name: K): Handler<M[K]> =>
    ((input: unknown) =>
      Effect.flatMap(Effect.promise(load), (impl) =>
        (impl[name] as (input: unknown) => Effect.Effect<unknown, unknown, unknown>)(input)
      )) as Handler<M[K]>

/** A command that only groups its subcommands (`tppkit db`, `consents`, `webhook`), with its help's text. */
export const group = <
  Name extends string,
  const Subcommands extends ReadonlyArray<Command.Command.SubcommandEntry>
>(spec: {
  readonly name: Name
  readonly description: string
  readonly subcommands: Subcommands
  readonly examples: ReadonlyArray<Command.Command.Example>
}) =>
  Command.make(spec.name).pipe(
    Command.withDescription(spec.description),
    Command.withSubcommands(spec.subcommands),
    Command.withExamples(spec.examples)
  )
