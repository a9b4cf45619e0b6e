/**
 * The cash-flow picture of `tppkit project --format html` (and `tppkit demo --html FILE`): one self-contained
 * HTML file (inline CSS, inline SVG, no script, nothing fetched) with, per currency, a chart of the outgoing
 * payments per day or month and of the running total per debtor account, the payments a funds check found at
 * risk marked in red, and the table of payments below. Pure: it returns text and performs no I/O.
 *
 * @since 0.1.0
 */
import { LocalDate, Money, Text } from "@tppkit/core"
import * as CashFlow from "@tppkit/schedule/CashFlow"
import * as Payment from "@tppkit/schedule/Payment"
import { BigDecimal } from "effect"
import * as Periods from "./internal/periods.ts"

/** A projected payment as the picture needs it (a `@tppkit/schedule` payment; the occurrence number unused). */
export type Row = Omit<Payment.Payment, "k">

/** What the picture shows: the window and settings, the payments in order, the skipped orders, the risks. */
export interface Picture {
  readonly from: LocalDate.LocalDate
  readonly to: LocalDate.LocalDate
  readonly calendar: string
  readonly convention: string
  readonly payments: Iterable<Row>
  readonly skipped: ReadonlyArray<{ readonly orderId: string | undefined; readonly reason: string }>
  /** Set when a funds check ran: the payments it found at risk ({@link riskKey}) with the reason in words. */
  readonly atRisk?: ReadonlyMap<string, string> | undefined
  /** When the funds check ran, what it covered, e.g. "payments due by 2026-03-10" (shown in the header). */
  readonly fundsCheck?: string | undefined
  /** The heading (default "Cash flow"). */
  readonly title?: string | undefined
}

/** The key of a payment in {@link Picture.atRisk}: its order and nominal date. */
export const riskKey = (p: Pick<Row, "orderId" | "nominalDate">): string => `${p.orderId}@${p.nominalDate}`

/** Windows up to this many days are charted per day, longer ones per month. */
export const DAILY_UP_TO_DAYS = 93

/** The table lists at most this many payments (the chart and totals always cover all of them). */
export const TABLE_ROWS = 5000

/** Payments read between two pauses of {@link render} (an empty piece). */
export const PAUSE_EVERY = 16_384

/** The chart draws a running-total line for at most this many debtor accounts per currency (the largest). */
export const CHART_ACCOUNTS = 8

const ACCOUNT_COLOURS = ["#2563eb", "#059669", "#9333ea", "#d97706", "#0891b2", "#db2777", "#4d7c0f", "#475569"]

// ---------------------------------------------------------------------------
// text
// ---------------------------------------------------------------------------

/**
 * Text made safe for HTML and XML content and attribute values: control characters (which HTML forbids as text and
 * XML refuses) shown escaped as the terminal shows them (`\x1b`, `\u{202e}`, core's `Text.printable`), then the
 * markup characters as entities.
 */
export const escapeText = (text: string): string =>
  Text.printable(text).replace(/[&<>"']/g, (c) =>
    c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;"
  )

/**
 * An exact amount with its currency's minor unit digits (core's `Money.formatMinor`; two when no currency is given)
 * and thin spaces between thousands, e.g. `12 345.60` EUR, `12 346` JPY.
 */
export const amountText = (amount: BigDecimal.BigDecimal, currency = "EUR"): string => {
  const text = Money.formatMinor(amount, currency)
  const negative = text.startsWith("-")
  const [whole = "", fraction] = (negative ? text.slice(1) : text).split(".")
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, "\u2009")
  return `${negative ? "−" : ""}${grouped}${fraction === undefined ? "" : `.${fraction}`}`
}

/** A short axis label for a number: 1 200 → `1.2k`, 3 000 000 → `3M`. */
const axisText = (n: number): string => {
  const abs = Math.abs(n)
  const short = (v: number, unit: string) => `${Number(v.toFixed(1)).toString()}${unit}`
  if (abs >= 1e9) return short(n / 1e9, "G")
  if (abs >= 1e6) return short(n / 1e6, "M")
  if (abs >= 1e3) return short(n / 1e3, "k")
  return Number(n.toFixed(2)).toString()
}

/** A rounded step for about `count` ticks up to `max`: 1, 2 or 5 times a power of ten. */
const niceStep = (max: number, count: number): number => {
  if (!(max > 0)) return 1
  const raw = max / count
  const power = 10 ** Math.floor(Math.log10(raw))
  const m = raw / power
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * power
}

const num = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(1))

// ---------------------------------------------------------------------------
// chart
// ---------------------------------------------------------------------------

/**
 * One debtor account's running total in one currency, in steps: one per execution day, or, when a long window puts
 * several days on one point of the chart's axis, one per point (the step keeps the last of its days). A step's
 * value is the running total after its payments, set when the next step begins; `risky` holds the at-risk
 * payments of the steps that have some, by step index.
 */
interface Account {
  readonly iban: string
  total: BigDecimal.BigDecimal
  readonly days: Array<number>
  readonly values: Array<number>
  readonly risky: Map<number, Array<Row>>
  /** The x coordinate of the last step as drawn (its text's value: "100.0" and "100" are one point). */
  lastX: number
}

/** What one currency's chart draws, gathered while the payments are read. */
interface Flow {
  readonly accounts: Map<string, Account>
  /** The amount at risk per period start. */
  readonly riskPerPeriod: Map<number, BigDecimal.BigDecimal>
  risky: boolean
}

const ZERO = BigDecimal.fromBigInt(0n)
const toNumber = (d: BigDecimal.BigDecimal): number => BigDecimal.toNumberUnsafe(d)

const WIDTH = 960
const LEFT = 72
const RIGHT = 24
const PLOT = WIDTH - LEFT - RIGHT
const BARS_TOP = 44
const BARS_HEIGHT = 170
const LINES_TOP = BARS_TOP + BARS_HEIGHT + 64
const LINES_HEIGHT = 150
const HEIGHT = LINES_TOP + LINES_HEIGHT + 40

/** The x coordinate of a day on a picture's charts (days are `to − from + 1` wide). */
const xOf =
  (picture: Pick<Picture, "from" | "to">) =>
  (day: number): number =>
    LEFT + ((day - picture.from) / (picture.to - picture.from + 1)) * PLOT

/**
 * One currency's chart in pieces: bars per period above, running totals per account below, sharing the day axis
 * (a long window has many bars: they are handed on one by one, never joined).
 */
const chart = function* (
  picture: Picture,
  currency: string,
  flow: Flow,
  period: CashFlow.Period,
  totals: ReadonlyArray<CashFlow.PeriodTotal>
): Generator<string> {
  const days = picture.to - picture.from + 1
  const x = xOf(picture)
  yield `<figure class="panel">`
  yield `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${escapeText(`Outgoing ${currency} payments per ${period} and running total per debtor account`)}" class="chart" data-currency="${escapeText(currency)}">`

  // --- bars: outgoing per period, the at-risk part on top in red
  const riskPerPeriod = flow.riskPerPeriod
  // a loop, not Math.max(...totals): a long window has too many periods to spread
  const maxBar = totals.reduce((max, t) => Math.max(max, toNumber(t.amount)), 0)
  const barStep = niceStep(maxBar, 4)
  const barTop = Math.max(barStep, Math.ceil((maxBar * 1.08) / barStep) * barStep) // a little headroom
  const yBar = (v: number): number => BARS_TOP + BARS_HEIGHT - (v / barTop) * BARS_HEIGHT
  yield `<text class="plot-title" x="${LEFT}" y="${BARS_TOP - 18}">Outgoing per ${period === "day" ? "execution day" : "month"}${totals.some((t) => Periods.isPartial(t, picture.from, picture.to)) ? " (dashed: a month the window cuts, partial)" : ""}</text>`
  yield `<g class="grid">`
  for (let v = 0; v <= barTop + barStep / 2; v += barStep) {
    yield `<line x1="${LEFT}" x2="${LEFT + PLOT}" y1="${num(yBar(v))}" y2="${num(yBar(v))}"/><text class="tick" x="${LEFT - 8}" y="${num(yBar(v) + 4)}" text-anchor="end">${axisText(v)}</text>`
  }
  yield `</g><g class="bars">`
  for (const t of totals) {
    const from = Math.max(t.start, picture.from)
    const to = Math.min(t.end, picture.to) + 1
    const gap = Math.min(3, ((to - from) / days) * PLOT * 0.18)
    const left = x(from) + gap / 2
    const width = Math.max(1, x(to) - x(from) - gap)
    const value = toNumber(t.amount)
    const risk = riskPerPeriod.get(t.start)
    const label = `${Periods.label(t, picture.from, picture.to)}: ${amountText(t.amount, currency)} ${currency}, ${t.count} payment${t.count === 1 ? "" : "s"}`
    const partial = Periods.isPartial(t, picture.from, picture.to)
    yield `<rect class="bar${partial ? " partial" : ""}"${partial ? ' data-partial="true"' : ""} x="${num(left)}" y="${num(yBar(value))}" width="${num(width)}" height="${num(yBar(0) - yBar(value))}" data-period="${t.label}" data-amount="${Money.formatMinor(t.amount, currency)}"><title>${escapeText(label)}</title></rect>`
    if (risk !== undefined) {
      const r = toNumber(risk)
      yield `<rect class="bar at-risk" x="${num(left)}" y="${num(yBar(value))}" width="${num(width)}" height="${num(yBar(0) - yBar(r))}" data-period="${t.label}" data-amount="${Money.formatMinor(risk, currency)}"><title>${escapeText(`${t.label}: ${amountText(risk, currency)} ${currency} at risk`)}</title></rect>`
    }
  }
  yield `</g>`

  // --- x axis labels, the same under both plots: about a dozen days, or the months (every k-th of many)
  const ticks: Array<{ readonly at: number; readonly label: string }> = []
  if (period === "day") {
    const every = Math.max(1, Math.ceil(days / 12))
    for (let d = picture.from; d <= picture.to; d = LocalDate.addDays(d, every)) {
      ticks.push({ at: d + 0.5, label: LocalDate.format(d).slice(5) })
    }
  } else {
    const months: Array<LocalDate.LocalDate> = []
    for (
      let m = CashFlow.periodStart(picture.from, "month");
      m <= picture.to;
      m = LocalDate.addDays(CashFlow.periodEnd(m, "month"), 1)
    ) {
      months.push(m)
    }
    const every = Math.max(1, Math.ceil(months.length / 12))
    months.forEach((m, i) => {
      if (i % every !== 0) return
      const mid = (Math.max(m, picture.from) + Math.min(CashFlow.periodEnd(m, "month"), picture.to) + 1) / 2
      ticks.push({ at: mid, label: CashFlow.periodLabel(m, "month") })
    })
  }
  const axis = (y: number): string =>
    `<g class="axis"><line x1="${LEFT}" x2="${LEFT + PLOT}" y1="${num(y)}" y2="${num(y)}"/>${ticks
      .map((t) => `<text class="tick" x="${num(x(t.at))}" y="${num(y + 16)}" text-anchor="middle">${t.label}</text>`)
      .join("")}</g>`
  yield axis(yBar(0))

  // --- running totals per debtor account, step lines over the same day axis
  const ranked = [...flow.accounts.values()].sort(
    (a, b) => BigDecimal.Order(b.total, a.total) || (a.iban < b.iban ? -1 : 1)
  )
  const shown = ranked
    .slice(0, CHART_ACCOUNTS)
    .map((a, i) => ({ account: a, colour: ACCOUNT_COLOURS[i % ACCOUNT_COLOURS.length]! }))
  const maxLine = Math.max(0, ...shown.map((a) => toNumber(a.account.total)))
  const lineStep = niceStep(maxLine, 3)
  const lineTop = Math.max(lineStep, Math.ceil((maxLine * 1.08) / lineStep) * lineStep)
  const yLine = (v: number): number => LINES_TOP + LINES_HEIGHT - (v / lineTop) * LINES_HEIGHT
  yield `<text class="plot-title" x="${LEFT}" y="${LINES_TOP - 18}">Running total per debtor account</text>`
  yield `<g class="grid">`
  for (let v = 0; v <= lineTop + lineStep / 2; v += lineStep) {
    yield `<line x1="${LEFT}" x2="${LEFT + PLOT}" y1="${num(yLine(v))}" y2="${num(yLine(v))}"/><text class="tick" x="${LEFT - 8}" y="${num(yLine(v) + 4)}" text-anchor="end">${axisText(v)}</text>`
  }
  yield `</g>${axis(yLine(0))}`
  for (const { account: a, colour } of shown) {
    const path: Array<string> = [`M${num(x(picture.from))},${num(yLine(0))}`]
    for (let i = 0; i < a.days.length; i++) path.push(` H${num(x(a.days[i]! + 0.5))} V${num(yLine(a.values[i]!))}`)
    path.push(` H${num(x(picture.to + 1))}`)
    yield `<path class="running" d="${path.join("")}" stroke="${colour}" data-account="${escapeText(a.iban)}" data-total="${Money.formatMinor(a.total, currency)}"><title>${escapeText(`${a.iban}: ${amountText(a.total, currency)} ${currency} by ${LocalDate.format(picture.to)}`)}</title></path>`
    for (const [i, risky] of a.risky) {
      const day = a.days[i]! as LocalDate.LocalDate
      const what = risky.map(
        (p) =>
          `${p.orderId} ${amountText(p.amount, currency)} ${currency}: ${picture.atRisk?.get(riskKey(p)) ?? "at risk"}`
      )
      yield `<circle class="risk-marker" cx="${num(x(day + 0.5))}" cy="${num(yLine(a.values[i]!))}" r="5" data-account="${escapeText(a.iban)}" data-date="${LocalDate.format(day)}"><title>${escapeText(`${LocalDate.format(day)} at risk: ${what.join("; ")}`)}</title></circle>`
    }
  }
  yield `</svg>`

  const legend = shown.map(
    ({ account: a, colour }) =>
      `<li><span class="swatch" style="background:${colour}"></span><code>${escapeText(a.iban)}</code> <span class="muted">${amountText(a.total, currency)} ${escapeText(currency)}</span></li>`
  )
  if (ranked.length > shown.length) {
    legend.push(`<li class="muted">${ranked.length - shown.length} smaller account(s) not drawn</li>`)
  }
  if (flow.risky) legend.push(`<li><span class="swatch risk"></span>at risk (funds check)</li>`)
  yield `<ul class="legend">${legend.join("")}</ul></figure>`
}

// ---------------------------------------------------------------------------
// page
// ---------------------------------------------------------------------------

const STYLE = `
:root{color-scheme:light;--ink:#0f172a;--muted:#64748b;--line:#e2e8f0;--bar:#60a5fa;--risk:#dc2626;--bg:#f8fafc}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1000px;margin:0 auto;padding:28px 20px 48px}
h1{font-size:26px;margin:0 0 4px}
h2{font-size:18px;margin:32px 0 12px}
.sub,.muted{color:var(--muted)}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin:20px 0 8px}
.card{background:#fff;border:1px solid var(--line);border-radius:10px;padding:12px 16px;min-width:180px}
.card .value{font-size:22px;font-weight:600;font-variant-numeric:tabular-nums}
.card.risk{border-color:#fecaca;background:#fef2f2}
.card.risk .value{color:var(--risk)}
.panel{background:#fff;border:1px solid var(--line);border-radius:10px;margin:16px 0;padding:12px 8px 8px}
.panel h3{margin:4px 12px 0;font-size:16px}
svg.chart{display:block;width:100%;height:auto}
svg .plot-title{font-size:13px;font-weight:600;fill:var(--ink)}
svg .tick{font-size:11px;fill:var(--muted);font-variant-numeric:tabular-nums}
svg .grid line{stroke:var(--line)}
svg .axis line{stroke:#94a3b8}
svg .bar{fill:var(--bar)}
svg .bar.at-risk{fill:var(--risk)}
svg .bar.partial{fill-opacity:.45;stroke:var(--bar);stroke-dasharray:4 3}
svg .running{fill:none;stroke-width:2;stroke-linejoin:round}
svg .risk-marker{fill:#fff;stroke:var(--risk);stroke-width:2.5}
.legend{list-style:none;display:flex;flex-wrap:wrap;gap:6px 18px;margin:4px 12px 6px;padding:0;font-size:12px}
.swatch{display:inline-block;width:12px;height:12px;border-radius:3px;vertical-align:-2px;margin-right:6px}
.swatch.risk{background:#fff;border:2.5px solid var(--risk);border-radius:50%}
table{width:100%;border-collapse:collapse;background:#fff;border:1px solid var(--line);border-radius:10px;overflow:hidden;font-size:13px}
th,td{padding:6px 10px;border-bottom:1px solid var(--line);text-align:left;white-space:nowrap}
th{background:#f1f5f9;font-weight:600;position:sticky;top:0}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
td.creditor,td.funds{white-space:normal}
td.funds{min-width:180px}
.scroll{overflow-x:auto;border-radius:10px}
tr.at-risk td{background:#fef2f2}
.badge{display:inline-block;padding:1px 8px;border-radius:999px;font-size:12px;background:#dcfce7;color:#166534}
.badge.risk{background:#fee2e2;color:#991b1b}
code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
footer{margin-top:32px;font-size:12px;color:var(--muted)}
`

/** The period the chart uses for a window: days up to {@link DAILY_UP_TO_DAYS} days, months beyond. */
export const periodOf = (from: LocalDate.LocalDate, to: LocalDate.LocalDate): CashFlow.Period =>
  to - from + 1 <= DAILY_UP_TO_DAYS ? "day" : "month"

/**
 * What the page shows of the payments, read once: the totals, the first {@link TABLE_ROWS} payments, the payments at
 * risk and each currency's {@link Flow}. Memory holds these, not the payments: a running total has at most one step
 * per point of the chart's axis.
 */
const gather = function* (picture: Picture, period: CashFlow.Period) {
  const acc = CashFlow.accumulator({ period })
  const listed: Array<Row> = []
  const riskRows: Array<Row> = []
  const flows = new Map<string, Flow>()
  const atRisk = picture.atRisk
  const x = xOf(picture)
  let count = 0
  for (const p of picture.payments) {
    // a pause now and then (an empty piece, see `Output.writeAll`): the command can be interrupted while it reads
    if (++count % PAUSE_EVERY === 0) yield ""
    acc.add(p)
    if (listed.length < TABLE_ROWS) listed.push(p)
    let flow = flows.get(p.currency)
    if (flow === undefined) {
      flow = { accounts: new Map(), riskPerPeriod: new Map(), risky: false }
      flows.set(p.currency, flow)
    }
    let a = flow.accounts.get(p.debtorIban)
    if (a === undefined) {
      a = { iban: p.debtorIban, total: ZERO, days: [], values: [], risky: new Map(), lastX: Number.NaN }
      flow.accounts.set(p.debtorIban, a)
    }
    const day = p.executionDate
    let step = a.days.length - 1
    if (step < 0 || a.days[step] !== day) {
      const at = Number(num(x(day + 0.5)))
      if (step >= 0 && at === a.lastX) {
        a.days[step] = day
      } else {
        if (step >= 0) a.values[step] = toNumber(a.total)
        step = a.days.push(day) - 1
        a.values.push(0)
        a.lastX = at
      }
    }
    a.total = BigDecimal.sum(a.total, p.amount)
    if (atRisk?.has(riskKey(p)) === true) {
      riskRows.push(p)
      flow.risky = true
      const start = CashFlow.periodStart(day, period)
      flow.riskPerPeriod.set(start, BigDecimal.sum(flow.riskPerPeriod.get(start) ?? ZERO, p.amount))
      const risky = a.risky.get(step)
      if (risky === undefined) a.risky.set(step, [p])
      else risky.push(p)
    }
  }
  for (const flow of flows.values()) {
    for (const a of flow.accounts.values()) if (a.days.length > 0) a.values[a.days.length - 1] = toNumber(a.total)
  }
  return { totals: acc.result(), count, listed, riskRows, flows }
}

/**
 * The whole HTML document in pieces (join them, or write them in order). The payments are read once, before the
 * first piece of text (an empty piece every {@link PAUSE_EVERY} payments lets a command writing them be
 * interrupted): memory holds the totals, the listed rows and the charts' steps, never every payment.
 */
export const render = function* (picture: Picture): Generator<string> {
  const period = periodOf(picture.from, picture.to)
  const title = picture.title ?? "Cash flow"
  const window = `${LocalDate.format(picture.from)} to ${LocalDate.format(picture.to)}`
  const atRisk = picture.atRisk
  // the document's head needs no payment: it is written while they are read
  yield `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n`
  yield `<title>${escapeText(`${title} ${window}`)}</title>\n<style>${STYLE}</style>\n</head>\n<body>\n<main>\n`
  const { totals, count, listed, riskRows, flows } = yield* gather(picture, period)
  yield `<header><h1>${escapeText(title)}</h1><p class="sub">${escapeText(window)} · calendar ${escapeText(picture.calendar)} · convention ${escapeText(picture.convention)} · ${count} payment${count === 1 ? "" : "s"}${picture.fundsCheck === undefined ? "" : ` · funds check: ${escapeText(picture.fundsCheck)}`}</p></header>\n`

  // summary cards: one per currency, plus the payments at risk
  yield `<section class="cards">`
  for (const t of totals.byCurrency) {
    yield `<div class="card" data-currency="${escapeText(t.currency)}"><div class="muted">${escapeText(t.currency)} outgoing</div><div class="value">${amountText(t.amount, t.currency)}</div><div class="muted">${t.count} payment${t.count === 1 ? "" : "s"}</div></div>`
  }
  if (atRisk !== undefined) {
    yield `<div class="card${riskRows.length > 0 ? " risk" : ""}"><div class="muted">At risk</div><div class="value">${riskRows.length}</div><div class="muted">payment${riskRows.length === 1 ? "" : "s"} the funds check could not confirm</div></div>`
  }
  yield `</section>\n`

  if (count === 0) yield `<p class="muted">No payments fall in this window.</p>\n`
  for (const t of totals.byCurrency) {
    const periodTotals = totals.byPeriod.filter((p) => p.currency === t.currency)
    yield `<section class="currency" data-currency="${escapeText(t.currency)}"><h2>${escapeText(t.currency)}</h2>`
    yield* chart(picture, t.currency, flows.get(t.currency)!, period, periodTotals)
    yield `</section>\n`
  }

  // the table
  yield `<section><h2>Payments</h2>\n<div class="scroll"><table class="payments"><thead><tr><th>Execution</th><th>Nominal</th><th>Order</th><th>Debtor account</th><th>Creditor</th><th class="num">Amount</th><th>Cur</th>${atRisk === undefined ? "" : "<th>Funds</th>"}</tr></thead>\n<tbody>\n`
  for (const p of listed) {
    const risk = atRisk?.get(riskKey(p))
    const nominal = p.nominalDate === p.executionDate ? "=" : LocalDate.format(p.nominalDate)
    const status =
      atRisk === undefined
        ? ""
        : `<td class="funds">${risk === undefined ? "" : `<span class="badge risk">at risk</span> <span class="muted">${escapeText(risk)}</span>`}</td>`
    // the bank's own date (its nextDate) is marked; the others are the engine's
    const bank =
      p.provenance === "bank-confirmed"
        ? ' <span class="badge" title="bank-confirmed: the bank\'s nextDate">bank</span>'
        : ""
    yield `<tr${risk === undefined ? "" : ' class="at-risk"'}${bank === "" ? "" : ' data-provenance="bank-confirmed"'}><td>${LocalDate.format(p.executionDate)}${bank}</td><td>${nominal}</td><td>${escapeText(p.orderId)}</td><td><code>${escapeText(p.debtorIban)}</code></td><td class="creditor">${escapeText(Payment.creditorLabel(p))}</td><td class="num">${amountText(p.amount, p.currency)}</td><td>${escapeText(p.currency)}</td>${status}</tr>\n`
  }
  yield `</tbody></table></div>\n`
  if (count > listed.length) {
    yield `<p class="muted">${count - listed.length} more payments are in the chart and the totals but not listed; use --format csv for every payment.</p>\n`
  }
  yield `</section>\n`

  // totals per currency and per debtor account
  yield `<section><h2>Totals</h2>\n<table class="totals"><thead><tr><th>Debtor account</th><th>Cur</th><th class="num">Payments</th><th class="num">Amount</th></tr></thead><tbody>\n`
  for (const d of totals.byDebtor) {
    yield `<tr><td><code>${escapeText(d.debtorIban)}</code></td><td>${escapeText(d.currency)}</td><td class="num">${d.count}</td><td class="num">${amountText(d.amount, d.currency)}</td></tr>\n`
  }
  yield `</tbody></table></section>\n`

  if (picture.skipped.length > 0) {
    yield `<section><h2>Skipped orders</h2><ul class="skipped">`
    for (const s of picture.skipped)
      yield `<li><code>${escapeText(s.orderId ?? "(no orderId)")}</code> ${escapeText(s.reason)}</li>`
    yield `</ul></section>\n`
  }
  yield `<footer>Made by tppkit. Amounts are exact; currencies are never added together.</footer>\n</main>\n</body>\n</html>\n`
}

/** The whole HTML document as one string. */
export const document = (picture: Picture): string => [...render(picture)].join("")
