/**
 * `tppkit forecast`'s report as a self-contained HTML page: per account a headline and its balance over the window as
 * an SVG chart (labels placed so that none overlaps another), its risk days and checks listed, then the report's
 * other parts in the table's words (`ForecastReport.sections`).
 *
 * @since 0.1.0
 */
import { LocalDate, Money } from "@tppkit/core"
import { Forecast, type Projection } from "@tppkit/schedule"
import type { BigDecimal } from "effect"
import * as ForecastReport from "./ForecastReport.ts"
import * as Html from "./Html.ts"
import { checkLine, f, m, plural } from "./internal/forecastText.ts"

/** How many accounts the HTML picture draws (the worst first); the others are summed up in one line. */
export const HTML_ACCOUNTS = 50

/** How many payments on risk days the HTML picture lists per account; the others are counted. */
export const HTML_PAYMENTS = 50

/** How many pixels a day takes on the chart's axis (its width follows the window: a year is wider than a month). */
const PER_DAY = 3

/** The chart's plot width in pixels: {@link PER_DAY} per day, at least 600 and at most 2400. */
export const plotWidth = (days: number): number => Math.min(2400, Math.max(600, Math.round(days * PER_DAY)))

/** A text of the chart: its anchor point (the baseline), text, font size and how it is anchored. */
interface Label {
  readonly x: number
  readonly y: number
  readonly text: string
  readonly size: number
  readonly anchor: "start" | "middle" | "end"
  readonly className: string
}

/** A label's box as its text takes it, estimated generously (0.68 em a character; the browser test measures). */
const boxOfLabel = (l: Label): { x0: number; x1: number; y0: number; y1: number } => {
  const w = l.text.length * l.size * 0.68 + 2
  const x0 = l.anchor === "start" ? l.x : l.anchor === "middle" ? l.x - w / 2 : l.x - w
  return { x0, x1: x0 + w, y0: l.y - l.size * 0.85 - 1, y1: l.y + l.size * 0.3 + 1 }
}

/** The labels of a chart placed so that none overlaps another: each is put where it is first free, or left out. */
class Labels {
  readonly placed: Array<Label> = []
  readonly boxes: Array<ReturnType<typeof boxOfLabel>> = []
  /** Keeps a box free of labels (a drawn point). */
  block(cx: number, cy: number, r: number): void {
    this.boxes.push({ x0: cx - r, x1: cx + r, y0: cy - r, y1: cy + r })
  }
  /** Places the first of the candidates that overlaps no label placed before; whether one was placed. */
  place(candidates: ReadonlyArray<Label>, inside: { x0: number; x1: number; y0: number; y1: number }): boolean {
    for (const c of candidates) {
      const b = boxOfLabel(c)
      if (b.x0 < inside.x0 || b.x1 > inside.x1 || b.y0 < inside.y0 || b.y1 > inside.y1) continue
      if (this.boxes.some((o) => b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1)) continue
      this.placed.push(c)
      this.boxes.push(b)
      return true
    }
    return false
  }
  svg(): string {
    return this.placed
      .map(
        (l) =>
          `<text class="${l.className}" x="${l.x.toFixed(1)}" y="${l.y.toFixed(1)}"${l.anchor === "start" ? "" : ` text-anchor="${l.anchor}"`}>${Html.escapeText(l.text)}</text>`
      )
      .join("")
  }
}

const amount = (x: BigDecimal.BigDecimal): number => Number(Money.toPlainString(x))

/**
 * One account's balance over the window as an SVG: its closing balance as a step line, the risk days red, zero and
 * the threshold as lines labelled on the amount axis, the lowest point labelled, each funds check at its check day;
 * the width follows the window ({@link plotWidth}), the dates below; no label overlaps another (each is placed where
 * it is free, the lowest point's first, else left out).
 */
const chart = (
  a: Forecast.AccountForecast,
  checks: ReadonlyArray<Forecast.Evidence>,
  window: Projection.Window
): string => {
  const { from, to } = window
  const rows = a.rows ?? []
  const values = rows.map((r) => amount(r.closing))
  const threshold = a.threshold === undefined ? undefined : amount(a.threshold)
  const highest = values.length === 0 ? undefined : Math.max(...values)
  const lowest = amount(a.lowest.amount)
  const lo = Math.min(lowest, ...values, 0, ...(threshold === undefined ? [] : [threshold]))
  const hi = Math.max(lowest, ...values, 0, ...(threshold === undefined ? [] : [threshold]))
  // the amount axis' labels, most important first: the threshold (named), zero, the highest balance
  const axisTexts: Array<[string, number]> = []
  if (threshold !== undefined) axisTexts.push([`threshold ${m(a.threshold!, a.currency)}`, threshold])
  axisTexts.push(["0.00", 0])
  if (highest !== undefined && highest !== 0 && highest !== threshold) {
    axisTexts.push([m(rows[values.indexOf(highest)]!.closing, a.currency), highest])
  }
  const TICK = 10
  const left = Math.max(60, Math.ceil(Math.max(...axisTexts.map(([t]) => t.length)) * TICK * 0.68) + 12)
  const right = 14
  const top = 16
  const bottom = 30
  const H = 220
  const days = Math.max(1, to - from + 1)
  const W = left + plotWidth(days) + right
  const x = (day: number) => left + ((Math.min(Math.max(day, from), to + 1) - from) / days) * (W - left - right)
  const y = (v: number) => H - bottom - ((v - lo) / Math.max(hi - lo, 1e-9)) * (H - top - bottom)
  const plot = { x0: left, x1: W - right, y0: top, y1: H - bottom }
  const labels = new Labels()
  const parts: Array<string> = [
    `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="balance of ${Html.escapeText(a.iban)}">`
  ]
  for (const d of a.riskDays) {
    parts.push(
      `<rect class="risk" x="${x(d.date).toFixed(1)}" y="${top}" width="${(x(d.until + 1) - x(d.date)).toFixed(1)}" height="${H - top - bottom}"><title>at risk ${f(d.date)}..${f(d.until)}: closing ${m(d.closing, a.currency)}</title></rect>`
    )
  }
  parts.push(`<line class="zero" x1="${left}" x2="${W - right}" y1="${y(0).toFixed(1)}" y2="${y(0).toFixed(1)}"/>`)
  if (threshold !== undefined) {
    const t = y(threshold).toFixed(1)
    parts.push(`<line class="limit" x1="${left}" x2="${W - right}" y1="${t}" y2="${t}"/>`)
  }
  let path = ""
  rows.forEach((r, i) => {
    path += `${i === 0 ? "M" : "L"}${x(r.date).toFixed(1)},${y(values[i]!).toFixed(1)}H${x(r.until + 1).toFixed(1)}`
  })
  parts.push(`<path class="line" d="${path}"/>`)
  // the lowest point's label first, inside the plot: above or below the point, to its right or left
  const lx = x(a.lowest.date)
  const ly = y(lowest)
  parts.push(`<circle cx="${lx.toFixed(1)}" cy="${ly.toFixed(1)}" r="3" fill="#c00"/>`)
  // the points drawn (the lowest one, the funds checks) stay free of labels
  labels.block(lx, ly, 4)
  const points = checks.flatMap((e) =>
    e.check.checkedOn < from || e.check.checkedOn > to
      ? []
      : [{ e, cx: x(e.check.checkedOn), cy: e.onCheckDay === undefined ? H - bottom : y(amount(e.onCheckDay)) }]
  )
  for (const p of points) labels.block(p.cx, p.cy, 9)
  const lowText = `lowest ${m(a.lowest.amount, a.currency)} on ${f(a.lowest.date)}`
  const low = (dx: number, dy: number, anchor: Label["anchor"]): Label => ({
    x: lx + dx,
    y: ly + dy,
    text: lowText,
    size: 11,
    anchor,
    className: "low"
  })
  const preferEnd = lx > (left + W - right) / 2
  const sides: ReadonlyArray<[number, Label["anchor"]]> = preferEnd
    ? [
        [-4, "end"],
        [4, "start"]
      ]
    : [
        [4, "start"],
        [-4, "end"]
      ]
  const lowCandidates: Array<Label> = []
  for (const dy of [-7, 15, -19, 27, -31, 39]) for (const [dx, anchor] of sides) lowCandidates.push(low(dx, dy, anchor))
  // at worst, inside the plot at its top or bottom corner (clamped)
  lowCandidates.push(
    low(0, 0, "start"),
    { ...low(0, 0, "start"), x: left + 4, y: top + 12 },
    { ...low(0, 0, "start"), x: left + 4, y: H - bottom - 4 }
  )
  labels.place(lowCandidates, plot)
  // the amounts on the left, each at its line or moved up or down to the nearest free place
  const axis = { x0: 0, x1: left - 1, y0: 0, y1: H - bottom + 8 }
  for (const [text, v] of axisTexts) {
    const at = y(v) + 3.5
    const candidates: Array<Label> = []
    for (const shift of [0, -6, 6, -12, 12, -18, 18]) {
      candidates.push({ x: left - 4, y: at + shift, text, size: TICK, anchor: "end", className: "tick" })
    }
    labels.place(candidates, axis)
  }
  // the dates below: the window's ends, then the first day of every n-th month where the labels fit
  const dates = { x0: 0, x1: W, y0: H - bottom + 8, y1: H }
  const dateLabel = (day: number, anchor: Label["anchor"], at = x(day)): Label => ({
    x: at,
    y: H - 9,
    text: f(day as LocalDate.LocalDate),
    size: TICK,
    anchor,
    className: "tick"
  })
  labels.place([dateLabel(from, "start", left)], dates)
  labels.place([dateLabel(to, "end", W - right)], dates)
  const monthWidth = (30.4 * (W - left - right)) / days
  const step = [1, 2, 3, 4, 6, 12, 24, 60, 120, 240, 600].find((n) => n * monthWidth >= 75) ?? 1200
  const { year, month } = LocalDate.toParts(from)
  for (let k = 1; ; k += 1) {
    const index = year * 12 + month - 1 + k
    const day = LocalDate.fromPartsUnchecked(Math.floor(index / 12), (index % 12) + 1, 1)
    if (day > to || Math.floor(index / 12) > 9999) break
    if (index % step !== 0) continue
    labels.place([dateLabel(day, "middle")], dates)
  }
  parts.push(labels.svg())
  for (const { e, cx: px, cy } of points) {
    const c = e.check
    const clash = Forecast.contradicts(e)
    const cx = px.toFixed(1)
    parts.push(
      `<circle class="${c.answer === "DECL" ? "decl" : "appr"}" cx="${cx}" cy="${cy.toFixed(1)}" r="4"><title>${Html.escapeText(checkLine(e))}</title></circle>`
    )
    if (clash) parts.push(`<circle class="clash" cx="${cx}" cy="${cy.toFixed(1)}" r="8"/>`)
  }
  parts.push("</svg>")
  return parts.join("\n")
}

/**
 * The report as a self-contained HTML page (no script, no network): per drawn account a headline (the first day it
 * runs short, the lowest point), its balance over the window as an SVG step line with the amounts and dates on the
 * axes, the days at risk marked red, the threshold dashed, the lowest point labelled, each funds check the bank
 * answered as a point at its check day (APPR green, DECL red; a contradiction with the forecast ringed), and its
 * at-risk payments and contradicting checks listed; the accounts worst first.
 */
export const html = (report: ForecastReport.Report): string => {
  const { forecast } = report
  const { from, to } = forecast.window
  const worst = Forecast.worstFirst(forecast.accounts)
  const drawn = worst.slice(0, HTML_ACCOUNTS)
  const evidenceOf = new Map<string, Array<Forecast.Evidence>>()
  for (const e of forecast.evidence) {
    const list = evidenceOf.get(e.check.debtorIban)
    if (list === undefined) evidenceOf.set(e.check.debtorIban, [e])
    else list.push(e)
  }
  const parts: Array<string> = []
  parts.push(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Balance forecast ${f(from)}..${f(to)}</title>`,
    "<style>body{font:14px system-ui,sans-serif;margin:24px;color:#222}svg{background:#fafafa;border:1px solid #ddd}",
    ".line{fill:none;stroke:#2a6;stroke-width:1.5}.risk{fill:#f4b4b4}.limit{stroke:#e33;stroke-dasharray:4 3}",
    ".zero{stroke:#999}.tick{font-size:10px;fill:#666}.low{font-size:11px;fill:#c00}li{font-size:13px}",
    ".head{margin:4px 0 8px}.short{color:#c00;font-weight:600}.appr{fill:#2a6}.decl{fill:#d00}",
    ".clash{fill:none;stroke:#d00;stroke-width:2}.legend{font-size:12px;color:#555}.d2{margin-left:1.5em}",
    ".figures{font-size:13px;color:#444;margin:2px 0}.list h2{font-size:16px;margin:18px 0 4px}</style></head><body>",
    `<h1>Balance forecast ${f(from)}..${f(to)}</h1>`,
    `<p>${plural(forecast.accounts.length, "account")}, ${worst.filter((a) => a.riskDays.length > 0).length} at risk · ${Html.escapeText(report.calendarName)} · ${Html.escapeText(report.convention)}</p>`
  )
  if (forecast.evidence.length > 0) {
    parts.push(
      `<p class="legend">Funds checks are drawn at the day the bank was asked: <b style="color:#2a6">●</b> APPR, <b style="color:#d00">●</b> DECL, ringed where the answer contradicts the forecast. An answer tells whether the amount was available then, not on the payment day.</p>`
    )
  }
  for (const a of drawn) {
    const checks = evidenceOf.get(a.iban) ?? []
    const short = a.riskDays.length > 0
    parts.push(`<section><h2>${Html.escapeText(a.iban)} ${Html.escapeText(a.currency)}</h2>`)
    parts.push(`<p class="head${short ? " short" : ""}">${Html.escapeText(ForecastReport.headline(a))}</p>`)
    parts.push(chart(a, checks, forecast.window))
    const clashes = checks.filter(Forecast.contradicts)
    parts.push(
      `<p class="figures">${Html.escapeText(`opening ${m(a.opening, a.currency)} on ${f(a.start)} (balance of ${f(a.balanceDate)}), closing ${m(a.closing, a.currency)} on ${f(to)}; out ${m(a.out, a.currency)}, in ${m(a.in, a.currency)}`)}</p>`
    )
    if (a.riskDays.length > 0 || clashes.length > 0) {
      parts.push("<ul>")
      for (const e of clashes) parts.push(`<li class="short">${Html.escapeText(checkLine(e))}</li>`)
      // the risk days as the table lists them, at most 50 payments per account (each day counts the others)
      for (const [depth, text] of a.riskDays.length === 0 ? [] : ForecastReport.riskSection(a, HTML_PAYMENTS).lines)
        parts.push(`<li class="d${depth}">${Html.escapeText(text)}</li>`)
      parts.push("</ul>")
    }
    parts.push("</section>")
  }
  if (worst.length > drawn.length) {
    const rest = worst.slice(drawn.length)
    parts.push(
      `<p>… and ${plural(rest.length, "more account")} (${rest.filter((a) => a.riskDays.length > 0).length} at risk): --format json or csv lists them all.</p>`
    )
  }
  // what the table lists after the accounts, in its words
  for (const section of ForecastReport.sections(report)) {
    parts.push(`<section class="list"><h2>${Html.escapeText(section.heading.replace(/:$/, ""))}</h2><ul>`)
    for (const [depth, text] of section.lines) parts.push(`<li class="d${depth}">${Html.escapeText(text)}</li>`)
    parts.push("</ul></section>")
  }
  parts.push("</body></html>")
  return parts.join("\n")
}
