/**
 * What `tppkit forecast` prints, in the words every format with text uses: the report (schedule's `Forecast`, its
 * scenarios and what could not be read), the `--threshold` values applied to the
 * balances, and the report's parts as headed lines (the accounts' risk days, the funds checks, the payments not
 * netted, the accounts without a balance, the scenarios, the skipped records). The formats are `ForecastTable`,
 * `ForecastJson`, `ForecastCsv` and `ForecastHtml`; the balances and checks files are read by schedule's
 * `ForecastFiles`, a `--scenario` by schedule's `ScenarioText`. Every amount is printed exactly as computed, with its
 * currency's minor unit digits.
 *
 * @since 0.1.0
 */
import { Money } from "@tppkit/core"
import { Forecast, type ForecastFiles, ScenarioText } from "@tppkit/schedule"
import { type BigDecimal, Result } from "effect"
import { daysOf, FINDING_TEXT, f, m, paymentLine, plural, span, weekday } from "./internal/forecastText.ts"
import * as Formats from "./internal/formats.ts"
import type * as Render from "./Render.ts"

/** The output formats of `tppkit forecast`, the default first. */
export const formats = Formats.forecast

/** An output format of `tppkit forecast`. */
export type Format = (typeof formats)[number]

/** Everything `tppkit forecast` prints. */
export interface Report {
  readonly forecast: Forecast.Forecast
  readonly calendarName: string
  readonly convention: string
  readonly scenarios: ReadonlyArray<Forecast.Outcome>
  readonly unreadable: ReadonlyArray<ForecastFiles.Unreadable>
  readonly skippedOrders: ReadonlyArray<Render.SkippedRow>
}

/**
 * `--threshold` values applied to the balances: `AMOUNT` for every account without its own, `IBAN=AMOUNT` for one
 * (a threshold in the balances file is replaced by one given for its IBAN, kept over an `AMOUNT` for all).
 */
export const withThresholds = (
  balances: ReadonlyArray<Forecast.Balance>,
  flags: ReadonlyArray<string>
): Result.Result<Array<Forecast.Balance>, string> =>
  Result.gen(function* () {
    let all: BigDecimal.BigDecimal | undefined
    const own = new Map<string, BigDecimal.BigDecimal>()
    for (const flag of flags) {
      const eq = flag.indexOf("=")
      const text = eq < 0 ? flag : flag.slice(eq + 1)
      const amount = yield* Result.mapError(
        Money.parse(text.trim()),
        (r) => `--threshold ${JSON.stringify(flag)}: ${r}`
      )
      if (eq < 0) all = amount
      else own.set(flag.slice(0, eq).replace(/\s+/g, "").toUpperCase(), amount)
    }
    return balances.map((b) => {
      const t = own.get(b.iban) ?? b.threshold ?? all
      return t === undefined ? b : { ...b, threshold: t }
    })
  })

/**
 * The `--threshold IBAN=AMOUNT` values whose IBAN is none of the balances' accounts (a mistyped IBAN), as given: they
 * apply to nothing, which the command says on stderr rather than forecast silently without them.
 */
export const thresholdsWithoutAccount = (
  balances: ReadonlyArray<Forecast.Balance>,
  flags: ReadonlyArray<string>
): Array<string> => {
  const accounts = new Set(balances.map((b) => b.iban))
  return flags.filter((flag) => {
    const eq = flag.indexOf("=")
    return eq >= 0 && !accounts.has(flag.slice(0, eq).replace(/\s+/g, "").toUpperCase())
  })
}

/** The heading of the accounts with payments and no usable balance, in every format that has headings. */
export const WITHOUT_BALANCE = "Accounts with payments and no usable balance (not forecast)"

/** An account without a usable balance in one line: its payments out in the window and why it has no balance. */
export const withoutBalanceLine = (w: Forecast.WithoutBalance): string =>
  `${w.iban} ${w.currency}: ${plural(w.count, "payment")} out in the window; ${w.reason}`
/** A delayed payment its order's rule moved off its due day, in one line. */
export const movedLine = (v: Forecast.Moved): string =>
  `~ ${v.payment.orderId} of ${f(v.was)} delayed: due ${weekday(v.due)}, no day its order pays on; moved by its rule to ${weekday(v.payment.executionDate)}`

/**
 * A part of the report in the words every format with text uses (the table, the HTML picture): a heading and its
 * lines, each with its depth under the heading.
 */
export interface Section {
  readonly heading: string
  readonly lines: ReadonlyArray<readonly [depth: number, text: string]>
  /** Wrapped two columns narrower in the table (the skipped records, as every command lists them). */
  readonly narrow?: boolean
}

/** How many of an account's risk days the table and the picture list (JSON lists every one). */
export const TABLE_RISK_DAYS = 100

/** How many payments of an account's risk days the table and the picture list (JSON lists those the forecast lists). */
export const TABLE_RISK_PAYMENTS = 1_000

/**
 * An account's risk days, each with its payments out (the table lists them for the accounts at risk): its first
 * {@link TABLE_RISK_DAYS} with at most `maxPayments` ({@link TABLE_RISK_PAYMENTS}) payments in all, each day's payments not listed
 * counted, and the days left out counted with their payments.
 */
export const riskSection = (a: Forecast.AccountForecast, maxPayments: number = TABLE_RISK_PAYMENTS): Section => {
  const line = a.threshold === undefined ? "zero" : `threshold ${m(a.threshold, a.currency)}`
  const lines: Array<readonly [number, string]> = []
  const days = a.riskDays
  const shown = Math.min(days.length, TABLE_RISK_DAYS)
  let payments = 0
  for (let i = 0; i < shown; i++) {
    const d = days[i]!
    lines.push([
      1,
      `${span(d.date, d.until)}  closing ${m(d.closing, a.currency)}, out ${m(d.out, a.currency)} that day together, short ${m(d.shortfall, a.currency)}${d.reason === "zero" ? " (at or below zero)" : ""}`
    ])
    const listed = payments >= maxPayments ? [] : d.payments.slice(0, maxPayments - payments)
    payments += listed.length
    for (const p of listed) lines.push([2, paymentLine(p)])
    if (d.count > listed.length)
      lines.push([2, `… and ${plural(d.count - listed.length, "more payment")} out that day`])
  }
  if (days.length > shown) {
    let count = 0
    for (let i = shown; i < days.length; i++) count += days[i]!.count
    lines.push([
      1,
      `… and ${plural(days.length - shown, "more day")} at risk with payments or a closing at risk, to ${f(days[days.length - 1]!.until)} (${plural(count, "payment")} out): --format json lists every one`
    ])
  }
  return { heading: `${a.iban} ${a.currency}: ${plural(daysOf(a), "day")} at risk (line: ${line})`, lines }
}

/**
 * The warning when the forecast lists fewer payments of risk days than there are (schedule's `Forecast.AT_RISK_LIMIT`
 * bounds its memory), else `undefined`.
 */
export const atRiskCut = (forecast: Forecast.Forecast): string | undefined =>
  forecast.atRiskCount > forecast.atRisk.length
    ? `${forecast.atRiskCount} payments out on days at risk; the first ${forecast.atRisk.length} are listed (a forecast lists at most ${Forecast.AT_RISK_LIMIT}, its earliest risk days account by account), every risk day gives the count of its own`
    : undefined

/**
 * The parts of the report after the accounts, in order: the funds checks beside the forecast, the payments not
 * netted, the accounts without a usable balance, each scenario, and the skipped records (each only when it has lines).
 */
export const sections = (report: Report): Array<Section> => {
  const { forecast } = report
  const out: Array<Section> = []
  if (forecast.evidence.length > 0) {
    const urgent = forecast.evidence.filter((e) => e.finding !== "Agrees")
    out.push({
      heading: `Funds checks beside the forecast (${plural(forecast.evidence.length, "check")}, ${urgent.length} to look at; an answer is about the check's day):`,
      lines: forecast.evidence.map((e) => {
        const c = e.check
        const figures = `forecast ${e.onCheckDay === undefined ? "-" : m(e.onCheckDay, c.currency)} on ${f(c.checkedOn)}, ${e.onPaymentDay === undefined ? "-" : m(e.onPaymentDay, c.currency)} on ${f(c.executionDate)}`
        return [
          1,
          `${c.answer} ${c.orderId} ${m(c.amount, c.currency)} ${c.currency} from ${c.debtorIban}: ${FINDING_TEXT[e.finding]} (${figures})`
        ] as const
      })
    })
  }
  if (forecast.notNetted.length > 0) {
    out.push({
      heading: "Not netted (another currency than the account's; no exchange rate is known):",
      lines: forecast.notNetted.map((n) => [1, `${n.iban} ${n.side}: ${paymentLine(n.payment)}`] as const)
    })
  }
  if (forecast.withoutBalance.length > 0) {
    out.push({
      heading: `${WITHOUT_BALANCE}:`,
      lines: forecast.withoutBalance.map((w) => [1, withoutBalanceLine(w)] as const)
    })
  }
  for (const s of report.scenarios) {
    const lines: Array<readonly [number, string]> = []
    if (s.payments.removed.length + s.payments.added.length === 0 && s.accounts.length === 0)
      lines.push([1, "no change"])
    for (const p of s.payments.removed) lines.push([1, `- ${paymentLine(p)}`])
    for (const p of s.payments.added) lines.push([1, `+ ${paymentLine(p)}`])
    for (const v of s.moved) lines.push([1, movedLine(v)])
    for (const a of s.accounts) {
      lines.push([
        1,
        `${a.iban}: lowest ${m(a.lowest.base.amount, a.currency)} on ${f(a.lowest.base.date)} -> ${m(a.lowest.scenario.amount, a.currency)} on ${f(a.lowest.scenario.date)}, closing ${m(a.closing.base, a.currency)} -> ${m(a.closing.scenario, a.currency)}`
      ])
      for (const d of a.riskDaysAdded)
        lines.push([2, `new risk days ${span(d.date, d.until)} closing ${m(d.closing, a.currency)}`])
      for (const d of a.riskDaysRemoved) lines.push([2, `no longer at risk ${span(d.date, d.until)}`])
    }
    for (const c of s.unmatched) lines.push([1, `! names no payment: ${ScenarioText.format(c)}`])
    out.push({ heading: `Scenario ${JSON.stringify(s.scenario.name)}:`, lines })
  }
  const skipped = [
    ...report.unreadable.map((u) => ({ orderId: `${u.file} #${u.index + 1}`, reason: u.reason })),
    ...report.skippedOrders
  ]
  if (skipped.length > 0) {
    out.push({
      heading: `Skipped (${skipped.length}):`,
      lines: skipped.map((x) => [1, `${x.orderId ?? "(no orderId)"}: ${x.reason}`] as const),
      narrow: true
    })
  }
  return out
}

/** The headline of an account in the picture: the first day it runs short (or that it does not), and its lowest point. */
export const headline = (a: Forecast.AccountForecast): string => {
  const first = a.riskDays[0]
  const lowest = `lowest ${m(a.lowest.amount, a.currency)} on ${f(a.lowest.date)}`
  if (first === undefined) {
    return `stays above ${a.threshold === undefined ? "zero" : `the threshold of ${m(a.threshold, a.currency)}`}; ${lowest}`
  }
  const when =
    first.reason === "zero"
      ? `runs out (at or below zero) from ${f(first.date)}`
      : `below the threshold of ${m(a.threshold!, a.currency)} from ${f(first.date)}`
  return `${when}; ${plural(daysOf(a), "day")} at risk; ${lowest}`
}
