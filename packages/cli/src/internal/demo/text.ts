/** How the demo's report is laid out: 80 columns, headings numbered, sentences wrapped under a three-space indent. */
import { Effect } from "effect"
import * as Output from "../../Output.ts"
import * as Render from "../../Render.ts"

/** The indent of a step's lines. */
export const INDENT = "   "

/** The width left to a step's tables. */
export const INNER = Render.WIDTH - INDENT.length

/** Lines indented (trailing blanks dropped), joined into one text. */
export const indent = (lines: ReadonlyArray<string>, prefix = INDENT): string =>
  lines.map((l) => `${prefix}${l}`.trimEnd()).join("\n")

/** Prints a sentence wrapped at the report's width, its first line after `first`, the others after `rest`. */
export const say = (text: string, first = INDENT, rest = `${first}  `) =>
  Output.line(Render.wrap(text, Render.WIDTH, first, rest).join("\n"))

/** Prints a step's heading, bold on a terminal, after a blank line. */
export const heading = (n: number, title: string) =>
  Effect.flatMap(Output.stdoutStyle, (style) => Output.line(`\n${style.bold(`${n}. ${title}`)}`))

/** "1 payment", "2 payments". */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`

/** Milliseconds as seconds with one decimal: "1.2 s". */
export const seconds = (millis: number): string => `${(millis / 1000).toFixed(1)} s`
