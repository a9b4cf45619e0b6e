/**
 * Pure text renderers of the `tppkit` command: aligned tables that fit an 80-column terminal (with totals), and
 * the output formats of `tppkit project` ({@link projectionRenderers}: the table and the HTML picture here, JSON,
 * CSV and iCalendar written by `@tppkit/schedule`'s `Export`). Every total comes from schedule's `CashFlow`. A new
 * format is one more entry. Nothing here performs I/O; commands print the pieces these functions return.
 *
 * @since 0.1.0
 */

import { Currency, Frequency, LocalDate, Money } from "@tppkit/core"
import * as CashFlow from "@tppkit/schedule/CashFlow"
import * as Export from "@tppkit/schedule/Export"
import * as Payment from "@tppkit/schedule/Payment"
import type { BigDecimal } from "effect"
import * as Html from "./Html.ts"
import * as Periods from "./internal/periods.ts"
import * as Output from "./Output.ts"

// ---------------------------------------------------------------------------
// model
// ---------------------------------------------------------------------------

/** One projected payment as the renderers need it: a `@tppkit/schedule` payment, its occurrence number not needed. */
export type PaymentRow = Omit<Payment.Payment, "k">

/** An order the projection could not use, with the reason in words. */
export interface SkippedRow {
  readonly orderId: string | undefined
  /** The record's position in its file, from 1, when the row names a record (JSON's `position`). */
  readonly position?: number | undefined
  readonly reason: string
  /** What could not be read, for a record core's reader left unread (`Orders.Unread`'s kind): the list, a record, a schedule. */
  readonly kind?: "list" | "record" | "schedule" | undefined
  /**
   * For a warning: what makes it equal to another (its standard, field and reason, not the value received), so that
   * equal warnings are said once with a count.
   */
  readonly group?: string | undefined
}

/** A skipped row as the JSON outputs write it: `orderId` (or null), `position` when it names a record, `reason`. */
export const skippedJson = (s: {
  readonly orderId?: string | undefined
  readonly position?: number | undefined
  readonly reason: string
}): { orderId: string | null; position?: number; reason: string } =>
  s.position === undefined
    ? { orderId: s.orderId ?? null, reason: s.reason }
    : { orderId: s.orderId ?? null, position: s.position, reason: s.reason }

/**
 * Everything `tppkit project` prints: schedule's `Export` of the projection (the window, the calendar's name, the
 * convention and the skipped orders, the payments computed while they are rendered).
 */
export type ProjectionReport = Export.Export

// ---------------------------------------------------------------------------
// tables
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// projection
// ---------------------------------------------------------------------------

const plural = (n: number, one: string, many: string = `${one}s`): string => `${n} ${n === 1 ? one : many}`

const paymentColumns: ReadonlyArray<Column> = [
  { header: "Execution" },
  { header: "Nominal" },
  { header: "Order", flex: true },
  { header: "Creditor", flex: true },
  { header: "Amount", align: "right" },
  { header: "Cur" }
]

/** The one line under a payments table that explains its Nominal column. */
export const NOMINAL_NOTE =
  'Nominal: the scheduled date; "=" when the payment executes on it, the date when a weekend or holiday moved it.'

/** The payments as table rows: execution date, nominal date ("=" when equal), order, creditor, amount. */
export const paymentTable = (payments: ReadonlyArray<PaymentRow>, width: number = WIDTH): Array<string> =>
  table(
    paymentColumns,
    payments.map((p) => [
      LocalDate.format(p.executionDate),
      p.nominalDate === p.executionDate ? "=" : LocalDate.format(p.nominalDate),
      p.orderId,
      Payment.creditorLabel(p),
      Money.formatMinor(p.amount, p.currency),
      p.currency
    ]),
    width
  )

/** Totals per currency (`CashFlow.Totals.byCurrency`) as table rows. */
export const totalsTable = (rows: ReadonlyArray<CashFlow.Total>, width: number = WIDTH): Array<string> =>
  table(
    [{ header: "Currency" }, { header: "Payments", align: "right" }, { header: "Total", align: "right" }],
    rows.map((t) => [t.currency, String(t.count), Money.formatMinor(t.amount, t.currency)]),
    width
  )

/**
 * Totals per month and currency (`CashFlow.Totals.byPeriod` of months) as table rows; with the window, a month it
 * cuts is marked with the days it covers, e.g. `2026-01 (partial: 15–31)`.
 */
export const monthlyTotalsTable = (
  rows: ReadonlyArray<CashFlow.PeriodTotal>,
  width: number = WIDTH,
  window?: { readonly from: LocalDate.LocalDate; readonly to: LocalDate.LocalDate }
): Array<string> =>
  table(
    [
      { header: "Month" },
      { header: "Currency" },
      { header: "Payments", align: "right" },
      { header: "Total", align: "right" }
    ],
    rows.map((t) => [
      window === undefined ? t.label : Periods.label(t, window.from, window.to),
      t.currency,
      String(t.count),
      Money.formatMinor(t.amount, t.currency)
    ]),
    width
  )

/** Skipped orders as indented lines `orderId: reason` (wrapped to the width). */
export const skippedLines = (skipped: ReadonlyArray<SkippedRow>, width: number = WIDTH): Array<string> =>
  skipped.flatMap((s) => wrap(`${s.orderId ?? "(no orderId)"}: ${s.reason}`, width - 2, "  ", "    "))

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

/** The most payments the projection's table lists (as the HTML picture's); its totals cover every payment. */
export const TABLE_ROWS = 5000

/**
 * The projection as a human report, in pieces as it is computed: the heading and the payments table (the first
 * {@link TABLE_ROWS} payments) as soon as they are read, then the rest (a line saying how many more there are,
 * totals per currency over every payment, per month, skipped orders). The payments are read once, as they are
 * projected: memory holds the listed rows, not the whole projection; while the totals add up, an empty piece every
 * `Html.PAUSE_EVERY` payments lets the command be interrupted. Each piece ends with a line end and a block of lines
 * (`Style.table` styles each piece alike).
 */
export function* projectionTablePieces(report: ProjectionReport, width: number = WIDTH): Generator<string> {
  const payments: Array<PaymentRow> = []
  const totals = CashFlow.accumulator({ period: "month" })
  const heading =
    `Payments ${LocalDate.format(report.from)} to ${LocalDate.format(report.to)}` +
    ` (calendar ${report.calendarName}, convention ${report.convention})`
  let count = 0
  let shown = false
  for (const p of Export.payments(report)) {
    totals.add(p)
    if (++count <= TABLE_ROWS) {
      payments.push(p)
      continue
    }
    if (!shown) {
      shown = true
      yield `${[heading, "", ...paymentTable(payments, width)].join("\n")}\n`
    }
    if (count % Html.PAUSE_EVERY === 0) yield ""
  }
  const result = totals.result()
  const lines: Array<string> = []
  if (payments.length === 0) {
    lines.push(heading, "", "No payments fall in this window.")
  } else {
    if (!shown) lines.push(heading, "", ...paymentTable(payments, width))
    if (result.count > payments.length) {
      lines.push(
        ...wrap(
          `… ${result.count - payments.length} more payments are in the totals but not listed; use --format csv for every payment.`,
          width
        )
      )
    }
    lines.push(...wrap(NOMINAL_NOTE, width), "")
    lines.push(`Totals (${plural(result.count, "payment")})`, ...totalsTable(result.byCurrency, width))
    if (CashFlow.periodStart(report.from, "month") !== CashFlow.periodStart(report.to, "month")) {
      lines.push("", "Totals per month", ...monthlyTotalsTable(result.byPeriod, width, report))
    }
  }
  if (report.skipped.length > 0) {
    lines.push("", `Skipped (${plural(report.skipped.length, "order")})`, ...skippedLines(report.skipped, width))
  }
  yield `${lines.join("\n")}\n`
}

/**
 * The projection as a human report: heading, payments table (the first {@link TABLE_ROWS} payments, and a line
 * saying how many more there are), totals per currency over every payment, skipped orders; the text of
 * {@link projectionTablePieces} without its last line end.
 */
export const projectionTable = (report: ProjectionReport, width: number = WIDTH): string =>
  [...projectionTablePieces(report, width)].join("").slice(0, -1)

/** How a format is written beyond the report: `rawCsv` (`--raw-csv`) writes CSV cells for programs. */
export interface RenderOptions {
  /** CSV cells that begin like a spreadsheet formula written as they are (schedule's `Export.csv`, `rawFormulas`). */
  readonly rawCsv?: boolean | undefined
}

/** One output format of `tppkit project`. */
export interface ProjectionRenderer {
  /**
   * The report as pieces of text or UTF-8 bytes, computed while the payments are read: print them in order, each
   * before asking for the next (byte pieces may share one reused buffer).
   */
  readonly render: (report: ProjectionReport, options?: RenderOptions) => Iterable<string | Uint8Array>
  /** Whether the text lists the skipped orders itself; when not, the command reports each on stderr. */
  readonly listsSkipped: boolean
}

/**
 * The output formats of `tppkit project`, by name (the first is the default). Each reads the same projection;
 * adding a format is adding an entry.
 */
export const projectionRenderers = {
  table: { render: (report) => projectionTablePieces(report), listsSkipped: true },
  json: { render: Export.json, listsSkipped: true },
  csv: {
    render: (report: ProjectionReport, options?: RenderOptions) => Export.csv(report, { rawFormulas: options?.rawCsv }),
    listsSkipped: false
  },
  // each moved date names the rule that moved it, as the table and JSON name the projection's calendar and convention
  ics: {
    render: (report) => Export.ics(report, { rule: `${report.convention} · ${report.calendarName}` }),
    listsSkipped: false
  },
  html: {
    render: (report) =>
      Html.render({
        from: report.from,
        to: report.to,
        calendar: report.calendarName,
        convention: report.convention,
        payments: Export.payments(report),
        skipped: report.skipped
      }),
    listsSkipped: true
  }
} as const satisfies Record<string, ProjectionRenderer>

/** The text of rendered pieces (strings and UTF-8 bytes) joined in order. */
export const text = (pieces: Iterable<string | Uint8Array>): string => {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true })
  let out = ""
  for (const piece of pieces) out += typeof piece === "string" ? piece : decoder.decode(piece, { stream: true })
  return out + decoder.decode()
}

/** The name of an output format of `tppkit project`. */
export type ProjectionFormat = keyof typeof projectionRenderers

/** The names of the output formats of `tppkit project`, the default first. */
export const projectionFormats = Object.keys(projectionRenderers) as ReadonlyArray<ProjectionFormat>

/** Key/value lines aligned on the longest key (values shown with control characters escaped, see {@link printable}). */
export const keyValues = (rows: ReadonlyArray<readonly [string, string]>): string => {
  const width = Math.max(...rows.map(([k]) => k.length))
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${printable(v)}`).join("\n")
}

/** A standing order as the list table needs it (structurally core's `StandingOrder`). */
export interface StandingOrderRow {
  readonly orderId: string
  readonly frequency: string
  readonly startDate?: LocalDate.LocalDate | undefined
  readonly nextDate?: LocalDate.LocalDate | undefined
  readonly debtor?: { readonly iban: string } | undefined
  readonly creditor: { readonly name?: string | undefined; readonly iban: string }
  readonly instructedAmount: { readonly value: BigDecimal.BigDecimal; readonly currency: string }
}

/**
 * The orders grouped by debtor account (an IBAN, or "" when the bank gave none), each group in the list's order,
 * the groups in the order their first order comes: a list that spans several accounts is shown one account at a
 * time, each account's IBAN whole.
 */
export const byDebtor = <A extends StandingOrderRow>(
  orders: ReadonlyArray<A>
): ReadonlyArray<readonly [string, ReadonlyArray<A>]> => {
  const groups = new Map<string, Array<A>>()
  for (const o of orders) {
    const iban = o.debtor?.iban ?? ""
    const group = groups.get(iban)
    if (group === undefined) groups.set(iban, [o])
    else group.push(o)
  }
  return [...groups]
}

/**
 * Standing orders as table rows: id, frequency, the date shown and which it is (`next`: the bank's next execution
 * date; `start`: the start date, when the bank gave no next date), the creditor, the amount.
 */
export const ordersTable = (orders: ReadonlyArray<StandingOrderRow>, width: number = WIDTH): Array<string> =>
  table(
    [
      { header: "Order", flex: true },
      { header: "Freq" },
      { header: "Date" },
      { header: "Creditor", flex: true },
      { header: "Amount", align: "right" },
      { header: "Cur" }
    ],
    orders.map((o) => {
      const date =
        o.nextDate !== undefined
          ? `${LocalDate.format(o.nextDate)} next`
          : o.startDate !== undefined
            ? `${LocalDate.format(o.startDate)} start`
            : ""
      return [
        o.orderId,
        o.frequency,
        date,
        o.creditor.name ?? o.creditor.iban,
        Money.formatMinor(o.instructedAmount.value, o.instructedAmount.currency),
        o.instructedAmount.currency
      ]
    }),
    width
  )

/**
 * Per frequency and currency, the count of orders and the sum of one payment of each (`CashFlow.totals`), in the
 * frequencies' order: a daily amount is never added to a yearly one, and nothing is converted or rounded.
 */
export const orderTotalsTable = (orders: ReadonlyArray<StandingOrderRow>, width: number = WIDTH): Array<string> => {
  const frequencies = [...new Set(orders.map((o) => o.frequency))].sort(
    (a, b) => frequencyRank(a) - frequencyRank(b) || a.localeCompare(b)
  )
  const rows = frequencies.flatMap((frequency) => {
    const onePaymentEach = orders
      .filter((o) => o.frequency === frequency)
      .map((o) => ({
        executionDate: LocalDate.MIN,
        amount: o.instructedAmount.value,
        currency: o.instructedAmount.currency,
        debtorIban: ""
      }))
    return CashFlow.totals(onePaymentEach).byCurrency.map((t) => [
      frequency,
      t.currency,
      String(t.count),
      Money.formatMinor(t.amount, t.currency)
    ])
  })
  return table(
    [
      { header: "Freq" },
      { header: "Currency" },
      { header: "Orders", align: "right" },
      { header: "One payment each", align: "right" }
    ],
    rows,
    width
  )
}

/** A frequency's place in the bank's list of codes (unknown codes last). */
const frequencyRank = (code: string): number => {
  const i = (Frequency.codes as ReadonlyArray<string>).indexOf(code)
  return i < 0 ? Frequency.codes.length : i
}
