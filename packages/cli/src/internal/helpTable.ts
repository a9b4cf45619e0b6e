/**
 * Every command's help, rendered once when the command is built (scripts/bundle-cli.ts writes it next to the
 * bundle as `help.json`), so that `tppkit … --help` prints it without loading effect or the command tree
 * (`internal/quickHelp.ts`). The texts are what the command itself prints: effect/cli's help document of each
 * command path, rendered by `Help.render` plain and with colour.
 */
import { Effect } from "effect"
import { CliOutput, Command, type HelpDoc } from "effect/cli"
import * as Cli from "../Cli.ts"
import * as Help from "../Help.ts"
import * as Style from "../Style.ts"

/** One command's help as printed: without colour, and with it (a terminal, or `FORCE_COLOR`). */
export interface Text {
  readonly plain: string
  readonly ansi: string
}

/** The help of each command path, keyed by the path's words joined by spaces (`""` for tppkit itself). */
export type Table = Record<string, Text>

/** The command paths of a command tree: the root's `[]`, then each subcommand's, depth first. */
export const paths = (command: Command.Command.Any, prefix: ReadonlyArray<string> = []): Array<Array<string>> => [
  [...prefix],
  ...command.subcommands.flatMap((group) => group.commands.flatMap((sub) => paths(sub, [...prefix, sub.name])))
]

/** The help document effect/cli presents for `tppkit <path> --help`. */
const helpDoc = (path: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    let doc: HelpDoc.HelpDoc | undefined
    const capture = CliOutput.layerPresenter({
      present: (event) =>
        Effect.sync(() => {
          if (event._tag === "Help") doc = event.helpDoc
        })
    })
    yield* Command.runWith(Cli.command, { version: Cli.VERSION })([...path, "--help"]).pipe(
      Effect.provide(capture),
      Effect.ignore
    )
    if (doc === undefined) return yield* Effect.die(new Error(`no help for "tppkit ${path.join(" ")}"`))
    return doc
  })

/** Every command's help (as `Cli.main` prints it: the rendering and a line end). */
export const make = Effect.gen(function* () {
  const table: Table = {}
  for (const path of paths(Cli.command)) {
    const doc = yield* helpDoc(path)
    table[path.join(" ")] = { plain: `${Help.render(doc, Style.plain)}\n`, ansi: `${Help.render(doc, Style.ansi)}\n` }
  }
  return table
})
