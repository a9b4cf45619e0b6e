/**
 * `tppkit forecast`'s report as a text table: the accounts worst first (at most {@link TABLE_ACCOUNTS}), then each
 * account's risk days and the report's other parts (`ForecastReport.sections`), wrapped at the terminal's width.
 *
 * @since 0.1.0
 */
import { Forecast } from "@tppkit/schedule"
import * as ForecastReport from "./ForecastReport.ts"
import { daysOf, f, m, plural, span } from "./internal/forecastText.ts"
import * as Render from "./Render.ts"

/** How many accounts a table lists in full (the worst first); the rest are summed up in one line. */
export const TABLE_ACCOUNTS = 200

/** The report as text: the accounts worst first, then their risk days, the evidence and the scenarios. */
export const table = (report: ForecastReport.Report, width: number = Render.WIDTH): string => {
  const { forecast } = report
  const out: Array<string> = []
  const worst = Forecast.worstFirst(forecast.accounts)
  const atRisk = worst.filter((a) => a.riskDays.length > 0)
  out.push(
    `Forecast ${span(forecast.window.from, forecast.window.to)} · ${report.calendarName} · ${report.convention} · ${plural(forecast.accounts.length, "account")}, ${atRisk.length} at risk`
  )
  out.push("")
  const shown = worst.slice(0, TABLE_ACCOUNTS)
  out.push(
    ...Render.table(
      [
        { header: "Account", flex: true },
        { header: "Cur" },
        { header: "Opening", align: "right" },
        { header: "Lowest", align: "right" },
        { header: "On" },
        { header: "Closing", align: "right" },
        { header: "Risk days", align: "right" }
      ],
      shown.map((a) => [
        a.iban,
        a.currency,
        m(a.opening, a.currency),
        m(a.lowest.amount, a.currency),
        f(a.lowest.date),
        m(a.closing, a.currency),
        `${daysOf(a)}`
      ]),
      width
    )
  )
  if (worst.length > shown.length) {
    const rest = worst.slice(shown.length)
    out.push(
      `… and ${plural(rest.length, "more account")} (${rest.filter((a) => a.riskDays.length > 0).length} at risk; --format json or csv lists them all)`
    )
  }
  for (const a of atRisk.slice(0, TABLE_ACCOUNTS)) out.push("", ...sectionLines(ForecastReport.riskSection(a), width))
  for (const section of ForecastReport.sections(report)) out.push("", ...sectionLines(section, width))
  return out.join("\n")
}

/** A section as the table prints it: its lines wrapped at `width`, indented two spaces per depth. */
const sectionLines = (section: ForecastReport.Section, width: number): Array<string> => [
  section.heading,
  ...section.lines.flatMap(([depth, text]) =>
    Render.wrap(text, section.narrow === true ? width - 2 : width, "  ".repeat(depth), "  ".repeat(depth + 1))
  )
]
