/**
 * The output formats of `tppkit project` ({@link projectionRenderers}): the table and the HTML picture are the CLI's
 * own renderings, JSON, CSV and iCalendar are written by `@tppkit/schedule`'s `Export`. Every total comes from
 * schedule's `CashFlow`. A new format is one more entry. Nothing here performs I/O; the command prints the pieces.
 *
 * @since 0.1.0
 */

import { LocalDate, Money } from "@tppkit/core"
import * as CashFlow from "@tppkit/schedule/CashFlow"
import * as Export from "@tppkit/schedule/Export"
import * as Payment from "@tppkit/schedule/Payment"
import * as Html from "./Html.ts"
import * as Periods from "./internal/periods.ts"
import { type Column, skippedLines, table, WIDTH, wrap } from "./Render.ts"

/** One projected payment as the renderers need it: a `@tppkit/schedule` payment, its occurrence number not needed. */
export type PaymentRow = Omit<Payment.Payment, "k">

/**
 * Everything `tppkit project` prints: schedule's `Export` of the projection (the window, the calendar's name, the
 * convention and the skipped orders, the payments computed while they are rendered).
 */
export type ProjectionReport = Export.Export

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

/** The name of an output format of `tppkit project`. */
export type ProjectionFormat = keyof typeof projectionRenderers

/** The names of the output formats of `tppkit project`, the default first. */
export const projectionFormats = Object.keys(projectionRenderers) as ReadonlyArray<ProjectionFormat>
