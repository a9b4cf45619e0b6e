/**
 * The help text of a command, as people read it in a terminal: at most 80 columns (words are never broken;
 * a longer description wraps under itself, a longer example continues with ` \`), the command's own flags
 * before the global ones, required flags marked, and the examples last. Pure: it renders effect/cli's
 * `HelpDoc`, the same document the default help would print.
 *
 * @since 0.1.0
 */
import { Option } from "effect"
import type { HelpDoc } from "effect/cli"
import * as Style from "./Style.ts"

/** The width help fits in. */
export const WIDTH = 80

/** Better words for effect/cli's built-in global flags: what they do here, and their value's name. */
const builtIns: Record<string, { readonly value?: string; readonly description: string }> = {
  help: { description: 'Show help for tppkit or a command (also "tppkit help COMMAND")' },
  version: { description: "Show the version of tppkit" },
  wizard: { description: "Ask for the command's flags one by one, then run it (Ctrl+C cancels)" },
  completions: {
    value: "SHELL",
    description: "Print a completion script for SHELL: bash, zsh, fish, sh, powershell or pwsh"
  },
  "log-level": {
    value: "LEVEL",
    description: "The least severe log messages shown (all, trace, debug, info, warn, error, fatal, none)"
  }
}

/** Splits text into lines of at most `width` columns at spaces; a word longer than the width stays whole. */
export const wrap = (text: string, width: number): ReadonlyArray<string> => {
  const lines: Array<string> = []
  for (const paragraph of text.split("\n")) {
    let line = ""
    for (const word of paragraph.split(" ").filter((w) => w.length > 0)) {
      if (line.length === 0) line = word
      else if (line.length + 1 + word.length <= width) line = `${line} ${word}`
      else {
        lines.push(line)
        line = word
      }
    }
    lines.push(line)
  }
  return lines
}

/** A command line of an example, wrapped at spaces with ` \` at the end of each line that continues. */
const wrapCommand = (command: string, width: number): ReadonlyArray<string> => {
  const lines: Array<string> = []
  let line = ""
  for (const word of command.split(" ").filter((w) => w.length > 0)) {
    if (line.length === 0) line = word
    else if (line.length + 1 + word.length + 2 <= width) line = `${line} ${word}`
    else {
      lines.push(`${line} \\`)
      line = `  ${word}`
    }
  }
  lines.push(line)
  return lines
}

interface Row {
  readonly left: string
  readonly right: string
}

/** Two columns: names on the left, a description wrapped on the right (under the names when they are long). */
const table = (rows: ReadonlyArray<Row>, style: Style.Style, maxLeft: number): ReadonlyArray<string> => {
  const fitting = rows.map((r) => r.left.length).filter((n) => n <= maxLeft)
  const column = 2 + Math.max(0, ...fitting) + 2
  const out: Array<string> = []
  for (const row of rows) {
    const text = wrap(row.right, WIDTH - column)
    const head = `  ${style.bold(row.left)}`
    if (2 + row.left.length + 2 <= column) {
      out.push(`${head}${" ".repeat(column - 2 - row.left.length)}${text[0] ?? ""}`.trimEnd())
      for (const l of text.slice(1)) out.push(`${" ".repeat(column)}${l}`)
    } else {
      out.push(head)
      for (const l of text) out.push(`${" ".repeat(column)}${l}`)
    }
  }
  return out
}

const flagRows = (flags: ReadonlyArray<HelpDoc.FlagDoc>): ReadonlyArray<Row> =>
  flags.map((flag) => {
    const builtIn = builtIns[flag.name]
    const value = builtIn?.value ?? (flag.type === "boolean" || flag.type === "" ? undefined : flag.type)
    const names = [`--${flag.name}`, ...flag.aliases].join(", ")
    const description = builtIn?.description ?? Option.getOrElse(flag.description, () => "")
    return {
      left: value === undefined ? names : `${names} ${value}`,
      right: flag.required ? `${description} (required)` : description
    }
  })

/** Renders a command's help at 80 columns (`WIDTH`), in the given style (headings bold when colour is on). */
export const render = (doc: HelpDoc.HelpDoc, style: Style.Style = Style.plain): string => {
  const out: Array<string> = []
  const section = (title: string, lines: ReadonlyArray<string>) => {
    if (lines.length === 0) return
    if (out.length > 0) out.push("")
    if (title.length > 0) out.push(style.bold(title))
    out.push(...lines)
  }
  const indented = (text: string) => wrap(text, WIDTH - 2).map((l) => `  ${l}`)
  if (doc.description.length > 0) section("DESCRIPTION", indented(doc.description))
  section("USAGE", indented(doc.usage.replace("<subcommand>", "COMMAND")))
  if (doc.args !== undefined && doc.args.length > 0) {
    const rows = doc.args.map((a) => ({
      left: `${a.name}${a.variadic ? "..." : ""}`,
      right: `${Option.getOrElse(a.description, () => "")}${a.required ? "" : " (optional)"}`
    }))
    section("ARGUMENTS", table(rows, style, 24))
  }
  section("FLAGS", table(flagRows(doc.flags), style, 28))
  section("INHERITED FLAGS", table(flagRows(doc.inheritedFlags ?? []), style, 28))
  section("GLOBAL FLAGS", table(flagRows(doc.globalFlags ?? []), style, 28))
  for (const group of doc.subcommands ?? []) {
    const rows = group.commands.map((c) => ({ left: c.name, right: c.shortDescription ?? c.description }))
    section(group.group === undefined ? "COMMANDS" : `${group.group.toUpperCase()} COMMANDS`, table(rows, style, 18))
  }
  if (doc.subcommands !== undefined && doc.subcommands.length > 0) {
    const path = (doc.commandPath ?? ["tppkit"]).join(" ")
    const helpPath = [...path.split(" ").slice(1), "COMMAND"].join(" ")
    section("", indented(`Run "${path} COMMAND --help" or "tppkit help ${helpPath}" for a command's flags.`))
  }
  const examples = (doc.examples ?? []).flatMap((e, i) => [
    ...(i > 0 ? [""] : []),
    ...(e.description === undefined ? [] : wrap(e.description, WIDTH - 4).map((l) => `  # ${l}`)),
    ...wrapCommand(e.command, WIDTH - 2).map((l) => `  ${l}`)
  ])
  section("EXAMPLES", examples)
  return out.join("\n")
}
