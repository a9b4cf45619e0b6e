/**
 * The executable's fast path for help (bin.ts): `tppkit [COMMAND...] --help` (or `-h`) and `tppkit help
 * [COMMAND...]` print the command's help from `help.json`, the table that the build renders next to the bundle
 * (`internal/helpTable.ts`), without loading effect or the command tree. Any other command line, an unknown
 * command, or no table (the sources, the unbundled build) takes the usual way, which prints the same text.
 * Light: Node's `fs` and `Style` only.
 */
import { readFileSync } from "node:fs"
import * as Style from "../Style.ts"

/** The table's file name, next to the executable's module. */
export const FILE = "help.json"

/**
 * The command path whose help a command line asks for and nothing else, its words joined by spaces (`""` for
 * tppkit itself), or `undefined` for any other command line.
 */
export const helpPath = (args: ReadonlyArray<string>): string | undefined => {
  const last = args[args.length - 1]
  const words = args[0] === "help" ? args.slice(1) : last === "--help" || last === "-h" ? args.slice(0, -1) : undefined
  return words === undefined || words.some((w) => w.length === 0 || w.startsWith("-")) ? undefined : words.join(" ")
}

/**
 * The help text `tppkit <args>` prints, read from the table at `table` (coloured as `Style` decides for stdout),
 * or `undefined` when the command line asks for something else or the table has no such command (or is missing).
 */
export const lookup = (
  args: ReadonlyArray<string>,
  table: URL,
  env: Readonly<Record<string, string | undefined>>,
  isTerminal: boolean
): string | undefined => {
  const path = helpPath(args)
  if (path === undefined) return undefined
  let texts: Record<string, { readonly plain?: unknown; readonly ansi?: unknown } | undefined>
  try {
    texts = JSON.parse(readFileSync(table, "utf8"))
  } catch {
    return undefined
  }
  const text = Object.hasOwn(texts, path) ? texts[path] : undefined
  const chosen = Style.colourEnabled(env, isTerminal) ? text?.ansi : text?.plain
  return typeof chosen === "string" ? chosen : undefined
}
