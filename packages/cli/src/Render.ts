/**
 * Pure text rendering of the `tppkit` command: aligned tables that fit an 80-column terminal, words wrapped, key/value
 * lists, text from a bank or a file made safe for a terminal, the skipped records as every command lists them and the
 * warning for an amount beyond its currency's minor unit. The projection's formats are `ProjectionFormats`, the
 * standing-order list's tables `OrderTables`. Nothing here performs I/O; commands print what these functions return.
 *
 * @since 0.1.0
 */

import { Currency, Money } from "@tppkit/core"
import type { BigDecimal } from "effect"
import * as Output from "./Output.ts"

/** An order the projection could not use, with the reason in words. */
export interface SkippedRow {
  readonly orderId: string | undefined
  /** The record's position in its file, from 1, when the row names a record (JSON's `position`). */
  readonly position?: number | undefined
  /**
   * For a record of the bank's listing: its page (from 0, as `--page` numbers them); `position` then counts the
   * records of that page from 1, as the listing's lines say (`page 0, record 2`).
   */
  readonly page?: number | undefined
  readonly reason: string
  /** What could not be read, for a record core's reader left unread (`Orders.Unread`'s kind): the list, a record, a schedule. */
  readonly kind?: "list" | "record" | "schedule" | undefined
  /**
   * For a warning: what makes it equal to another (its standard, field and reason, not the value received), so that
   * equal warnings are said once with a count.
   */
  readonly group?: string | undefined
  /**
   * For a skipped or unread record: what makes it equal to another (`key`: its kind, field and reason, not its
   * position or own dates) and the words said of all of them at once, so that stderr says equal ones once with a count.
   */
  readonly alike?: { readonly key: string; readonly said: string } | undefined
}

/**
 * A skipped row as the JSON outputs write it: `orderId` (or null), the bank's `page` when it names one, `position` when
 * it names a record, `reason`.
 */
export const skippedJson = (s: {
  readonly orderId?: string | undefined
  readonly page?: number | undefined
  readonly position?: number | undefined
  readonly reason: string
}): { orderId: string | null; page?: number; position?: number; reason: string } => ({
  orderId: s.orderId ?? null,
  ...(s.page === undefined ? {} : { page: s.page }),
  ...(s.position === undefined ? {} : { position: s.position }),
  reason: s.reason
})

/**
 * A skipped row's name as every table says it: its orderId (or `none`), then where the bank listed it when the row
 * names a page of a listing (`SO-1 (page 0, record 2)`).
 */
export const skippedName = (
  s: {
    readonly orderId?: string | undefined
    readonly page?: number | undefined
    readonly position?: number | undefined
  },
  none = "(no orderId)"
): string => `${s.orderId ?? none}${s.page === undefined ? "" : ` (page ${s.page}, record ${s.position ?? "?"})`}`

/** One column of a text table: its header, its alignment and whether it may be shortened to fit. */
export interface Column {
  readonly header: string
  readonly align?: "left" | "right"
  /** Flexible columns give up width (ending in "…") when the table is wider than the terminal. */
  readonly flex?: boolean
}

/**
 * Text from a bank or a file made safe to show on a terminal (`Output.printable`: every control character and
 * escape sequence shown escaped). Every table, wrapped line and key/value list of this module uses it.
 */
export const printable = Output.printable

/** The default width of a table: a classic terminal. */
export const WIDTH = 80

const GAP = "  "

const clip = (text: string, width: number): string =>
  text.length <= width ? text : width <= 1 ? "…".slice(0, width) : `${text.slice(0, width - 1)}…`

const pad = (text: string, width: number, align: "left" | "right"): string =>
  align === "right" ? text.padStart(width) : text.padEnd(width)

/**
 * Aligned text table no wider than `width`: natural column widths, flexible columns shortened (never below
 * their header) until the table fits. Lines carry no trailing spaces.
 */
export const table = (
  columns: ReadonlyArray<Column>,
  rows: ReadonlyArray<ReadonlyArray<string>>,
  width: number = WIDTH
): Array<string> => {
  const shown = rows.map((r) => r.map(printable))
  // a loop, not Math.max(...rows): a spread of many rows overflows the call stack
  const widths = columns.map((c, i) => shown.reduce((w, r) => Math.max(w, (r[i] ?? "").length), c.header.length))
  const total = () => widths.reduce((a, b) => a + b, 0) + GAP.length * Math.max(0, columns.length - 1)
  let excess = total() - width
  while (excess > 0) {
    // shrink the widest flexible column that can still shrink, one character at a time
    let widest = -1
    columns.forEach((c, i) => {
      if (
        c.flex === true &&
        widths[i]! > Math.max(c.header.length, 4) &&
        (widest < 0 || widths[i]! > widths[widest]!)
      ) {
        widest = i
      }
    })
    if (widest < 0) break
    widths[widest] = widths[widest]! - 1
    excess--
  }
  const line = (cells: ReadonlyArray<string>) =>
    columns
      .map((c, i) => pad(clip(cells[i] ?? "", widths[i]!), widths[i]!, c.align ?? "left"))
      .join(GAP)
      .trimEnd()
  const rule = columns.map((_, i) => "─".repeat(widths[i]!)).join(GAP)
  return [line(columns.map((c) => c.header)), rule, ...shown.map(line)]
}

/** Skipped orders as indented lines `orderId: reason` (wrapped to the width). */
export const skippedLines = (skipped: ReadonlyArray<SkippedRow>, width: number = WIDTH): Array<string> =>
  skipped.flatMap((s) => wrap(`${skippedName(s)}: ${s.reason}`, width - 2, "  ", "    "))

/**
 * Words of `text` wrapped into lines of at most `width` characters, the first and later lines indented; control
 * characters are shown escaped ({@link printable}).
 */
export const wrap = (text: string, width: number, first = "", rest = first): Array<string> => {
  const out: Array<string> = []
  let current = ""
  for (const word of printable(text)
    .split(/\s+/)
    .filter((w) => w.length > 0)) {
    const indent = out.length === 0 ? first : rest
    if (current.length > 0 && indent.length + current.length + 1 + word.length > width) {
      out.push(indent + current)
      current = word
    } else {
      current = current.length === 0 ? word : `${current} ${word}`
    }
  }
  if (current.length > 0 || out.length === 0) out.push((out.length === 0 ? first : rest) + current)
  return out
}

/**
 * Why an amount is printed whole: it has more decimals than its currency's minor unit (ISO 4217: `100.5` JPY), which
 * every output prints it with (core's `Money.formatMinor`), never rounded; `undefined` for an amount within them.
 * `what` names the amount (`amount`, `balance`, …). The one wording of every such warning.
 */
export const beyondMinorUnit = (
  amount: BigDecimal.BigDecimal,
  currency: string,
  what = "amount"
): string | undefined =>
  Money.exceedsMinorUnits(amount, currency)
    ? `${what} ${Money.toPlainString(amount)} ${currency} has more decimals than ${currency}'s minor unit (${Currency.minorUnits(currency)}, ISO 4217): printed whole, not rounded`
    : undefined

/**
 * A warning for each order whose amount has more decimals than its currency's minor unit (ISO 4217: `100.5` JPY):
 * every format prints it whole, never rounded (core's `Money.formatMinor`).
 */
export const beyondMinorUnits = (
  orders: Iterable<{
    readonly orderId: string
    readonly instructedAmount: { readonly value: BigDecimal.BigDecimal; readonly currency: string }
  }>
): Array<SkippedRow> => {
  const out: Array<SkippedRow> = []
  for (const o of orders) {
    const reason = beyondMinorUnit(o.instructedAmount.value, o.instructedAmount.currency)
    if (reason !== undefined) out.push({ orderId: o.orderId, reason })
  }
  return out
}

/** The text of rendered pieces (strings and UTF-8 bytes) joined in order. */
export const text = (pieces: Iterable<string | Uint8Array>): string => {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true })
  let out = ""
  for (const piece of pieces) out += typeof piece === "string" ? piece : decoder.decode(piece, { stream: true })
  return out + decoder.decode()
}

/** Key/value lines aligned on the longest key (values shown with control characters escaped, see {@link printable}). */
export const keyValues = (rows: ReadonlyArray<readonly [string, string]>): string => {
  const width = Math.max(...rows.map(([k]) => k.length))
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${printable(v)}`).join("\n")
}
