/**
 * Colour for people: ANSI styles that are used only when the stream is a terminal, never in pipes, and that
 * honour the usual switches: `NO_COLOR` (any non-empty value) turns colour off, `FORCE_COLOR` (any value but
 * `0` or `false`) turns it on even in a pipe, and `FORCE_COLOR=0` off. Pure: the decision takes the
 * environment and whether the stream is a terminal as arguments.
 *
 * @since 0.1.0
 */

/** The styles the command uses; each returns its text unchanged when colour is off. */
export interface Style {
  readonly enabled: boolean
  readonly bold: (text: string) => string
  readonly dim: (text: string) => string
  readonly red: (text: string) => string
  readonly green: (text: string) => string
  readonly yellow: (text: string) => string
  readonly cyan: (text: string) => string
}

const sgr =
  (open: number, close: number) =>
  (text: string): string =>
    text.length === 0 ? text : `\u001b[${open}m${text}\u001b[${close}m`

const identity = (text: string): string => text

/** Styles that write ANSI escape sequences. */
export const ansi: Style = {
  enabled: true,
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  cyan: sgr(36, 39)
}

/** Styles that leave text as it is. */
export const plain: Style = {
  enabled: false,
  bold: identity,
  dim: identity,
  red: identity,
  green: identity,
  yellow: identity,
  cyan: identity
}

/**
 * Whether to colour a stream: `NO_COLOR` set and not empty → no; `FORCE_COLOR` set → yes unless it is `0` or
 * `false`; otherwise only when the stream is a terminal (and `TERM` is not `dumb`).
 */
export const colourEnabled = (env: Readonly<Record<string, string | undefined>>, isTerminal: boolean): boolean => {
  const noColor = env.NO_COLOR
  if (noColor !== undefined && noColor !== "") return false
  const force = env.FORCE_COLOR
  if (force !== undefined) return force !== "0" && force.toLowerCase() !== "false"
  return isTerminal && env.TERM !== "dumb"
}

/** The styles for a stream, given the environment and whether the stream is a terminal. */
export const of = (env: Readonly<Record<string, string | undefined>>, isTerminal: boolean): Style =>
  colourEnabled(env, isTerminal) ? ansi : plain

/** Removes ANSI escape sequences (for measuring or comparing styled text). */
export const strip = (text: string): string => text.replace(ANSI_PATTERN, "")

const ANSI_PATTERN = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g")

/** Whether a line is a table rule: `─` and spaces only. */
const isRule = (line: string): boolean => line.includes("─") && /^[\s─]+$/.test(line)

/**
 * Styles aligned text tables: in each block of lines (blocks are separated by blank lines), the line above the
 * first rule (the header) bold, every rule (a line of `─` and spaces) dim, and the totals under a second rule
 * bold. Styling wraps whole lines, so the columns stay aligned.
 */
export const table = (style: Style, lines: ReadonlyArray<string>): Array<string> => {
  if (!style.enabled) return [...lines]
  const out = [...lines]
  let rules = 0
  for (let i = 0; i < out.length; i++) {
    const line = out[i]!
    if (line.trim().length === 0) {
      rules = 0
    } else if (isRule(line)) {
      rules++
      out[i] = style.dim(line)
      if (rules === 1 && i > 0 && !isRule(lines[i - 1]!)) out[i - 1] = style.bold(lines[i - 1]!)
    } else if (rules >= 2) {
      out[i] = style.bold(line)
    }
  }
  return out
}
