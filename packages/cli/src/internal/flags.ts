/**
 * Flag shapes more than one command uses.
 */
import { Config, Effect } from "effect"
import { CliError, Flag } from "effect/cli"

/** `--format table|json`: a table for people (the default) or JSON for programs. */
export const tableOrJson: Flag.Flag<"table" | "json"> = Flag.Literals("format", ["table", "json"]).pipe(
  Flag.withDescription("Output format (default table)"),
  Flag.withDefault("table")
)

/** A flag naming a file (metavar `FILE`) with its help text. */
export const file = (name: string, description: string): Flag.Flag<string> =>
  Flag.String(name).pipe(Flag.withMetavar("FILE"), Flag.withDescription(description))

/**
 * A flag with a fixed set of values and a fallback environment variable; a bad value from either names the
 * allowed values (and the variable when it came from there).
 */
export const literalsWithEnv = <const L extends ReadonlyArray<string>>(
  name: string,
  values: L,
  env: string
): Flag.Flag<L[number]> => {
  const allowed = values.map((v) => JSON.stringify(v)).join(" | ")
  const fromEnv = Config.String(env).pipe(Config.map((value) => ({ fromEnv: value })))
  return Flag.Literals(name, values).pipe(
    Flag.withFallbackConfig(fromEnv),
    Flag.mapEffect((value) => {
      if (typeof value === "string") return Effect.succeed(value)
      return (values as ReadonlyArray<string>).includes(value.fromEnv)
        ? Effect.succeed(value.fromEnv as L[number])
        : Effect.fail(
            new CliError.InvalidValue({
              option: name,
              value: value.fromEnv,
              expected: `${allowed} (the value came from ${env})`,
              kind: "flag"
            })
          )
    })
  )
}
