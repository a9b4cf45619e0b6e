/**
 * `tppkit forecast`'s report as CSV: each account's ladder, one line per row (the accounts worst first), amounts
 * exact; an account with payments and no usable balance one line with the reason. Written in pieces as it is made.
 *
 * @since 0.1.0
 */
import { LocalDate, Money } from "@tppkit/core"
import { Export, Forecast } from "@tppkit/schedule"
import type * as ForecastReport from "./ForecastReport.ts"
import { plural } from "./internal/forecastText.ts"

const f = LocalDate.format

/**
 * The ladders as CSV: one line per row of each account (worst first), amounts exact; the account's IBAN and
 * currency (a file's text) as schedule's `Export.csvCell` writes a cell: control characters escaped and, unless
 * `rawFormulas`, a text beginning like a spreadsheet formula neutralised (amounts are numbers and stay so); an
 * account with payments and no usable balance is one line with no figures and the reason in `note`.
 */
export const csv = (report: ForecastReport.Report, options?: Export.CsvOptions): string =>
  [...csvPieces(report, options)].join("").slice(0, -1)

/**
 * {@link csv} in pieces, ending with a newline: each account's ladder made as it is written, an empty piece after it
 * (the command stops promptly on SIGINT or SIGTERM).
 */
export function* csvPieces(report: ForecastReport.Report, options?: Export.CsvOptions): Generator<string> {
  const cell = (text: string) => Export.csvCell(text, options?.rawFormulas === true)
  let lines = ["iban,currency,date,until,opening,out,in,closing,at_risk,not_netted,note"]
  for (const a of Forecast.worstFirst(report.forecast.accounts)) {
    yield ""
    for (const r of a.rows ?? []) {
      lines.push(
        [
          cell(a.iban),
          cell(a.currency),
          f(r.date),
          f(r.until),
          Money.formatMinor(r.opening, a.currency),
          Money.formatMinor(r.out, a.currency),
          Money.formatMinor(r.in, a.currency),
          Money.formatMinor(r.closing, a.currency),
          r.atRisk ? "yes" : "no",
          `${r.notNetted.length}`,
          ""
        ].join(",")
      )
    }
    if (lines.length > 0) yield `${lines.join("\n")}\n`
    lines = []
  }
  // an account with payments and no usable balance: one line over the window, no figures, the reason in `note`
  // (always quoted: a sentence)
  const quoted = (c: string) => (c.startsWith('"') ? c : `"${c}"`)
  const { from, to } = report.forecast.window
  for (const w of report.forecast.withoutBalance) {
    const note = `no usable balance: ${w.reason}; ${plural(w.count, "payment")} out in the window`
    lines.push([cell(w.iban), cell(w.currency), f(from), f(to), "", "", "", "", "", "", quoted(cell(note))].join(","))
  }
  if (lines.length > 0) yield `${lines.join("\n")}\n`
}
