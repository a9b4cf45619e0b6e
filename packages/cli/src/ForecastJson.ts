/**
 * `tppkit forecast`'s report as one JSON document: amounts as exact decimal strings with their currency's minor unit
 * digits, never rounded; the accounts worst first, each with its risk days and ladder; written in pieces as it is
 * made ({@link jsonPieces}).
 *
 * @since 0.1.0
 */
import { LocalDate, Money } from "@tppkit/core"
import { Forecast, type Payment, ScenarioText } from "@tppkit/schedule"
import type * as ForecastReport from "./ForecastReport.ts"
import * as JsonPieces from "./internal/jsonPieces.ts"
import * as Render from "./Render.ts"

const f = LocalDate.format

const paymentJson = (p: Payment.Payment) => ({
  orderId: p.orderId,
  executionDate: f(p.executionDate),
  nominalDate: f(p.nominalDate),
  amount: Money.formatMinor(p.amount, p.currency),
  currency: p.currency,
  debtorIban: p.debtorIban,
  creditorIban: p.creditorIban,
  ...(p.creditorName === undefined ? {} : { creditorName: p.creditorName })
})

/**
 * A risk day as the JSON documents show it (amounts in its account's `currency`'s minor unit digits): its days, closing
 * balance, payments out, shortfall, reason, the count of its payments out and those the forecast lists.
 */
export const riskJson = (d: Forecast.RiskDay, currency: string) => ({
  date: f(d.date),
  until: f(d.until),
  closing: Money.formatMinor(d.closing, currency),
  out: Money.formatMinor(d.out, currency),
  shortfall: Money.formatMinor(d.shortfall, currency),
  reason: d.reason,
  count: d.count,
  payments: d.payments.map(paymentJson)
})

const accountJson = (a: Forecast.AccountForecast) => ({
  iban: a.iban,
  currency: a.currency,
  ...(a.threshold === undefined ? {} : { threshold: Money.formatMinor(a.threshold, a.currency) }),
  balanceDate: f(a.balanceDate),
  start: f(a.start),
  opening: Money.formatMinor(a.opening, a.currency),
  closing: Money.formatMinor(a.closing, a.currency),
  out: Money.formatMinor(a.out, a.currency),
  in: Money.formatMinor(a.in, a.currency),
  lowest: { amount: Money.formatMinor(a.lowest.amount, a.currency), date: f(a.lowest.date) },
  riskDays: JsonPieces.lazy(a.riskDays, (d) => riskJson(d, a.currency)),
  ladder: JsonPieces.lazy(a.rows ?? [], (r) => ({
    date: f(r.date),
    until: f(r.until),
    opening: Money.formatMinor(r.opening, a.currency),
    out: Money.formatMinor(r.out, a.currency),
    in: Money.formatMinor(r.in, a.currency),
    closing: Money.formatMinor(r.closing, a.currency),
    atRisk: r.atRisk,
    ...(r.notNetted.length === 0
      ? {}
      : { notNetted: r.notNetted.map((n) => ({ side: n.side, ...paymentJson(n.payment) })) })
  }))
})

/**
 * A funds check beside the forecast as the JSON documents show it: the finding, the check, and the forecast's
 * closing balance on the day the bank was asked and on the payment's day (null outside the forecast).
 */
export const evidenceJson = (e: Forecast.Evidence) => ({
  finding: e.finding,
  orderId: e.check.orderId,
  debtorIban: e.check.debtorIban,
  executionDate: f(e.check.executionDate),
  amount: Money.formatMinor(e.check.amount, e.check.currency),
  currency: e.check.currency,
  checkedOn: f(e.check.checkedOn),
  answer: e.check.answer,
  forecastOnCheckDay: e.onCheckDay === undefined ? null : Money.formatMinor(e.onCheckDay, e.check.currency),
  forecastOnPaymentDay: e.onPaymentDay === undefined ? null : Money.formatMinor(e.onPaymentDay, e.check.currency),
  covered: e.covered ?? null
})

/**
 * The report as one JSON document (amounts as exact decimal strings with their currency's minor unit digits, never
 * rounded; the accounts worst first).
 */
export const json = (report: ForecastReport.Report): string => {
  const text = [...jsonPieces(report)].join("")
  return text.slice(0, -1)
}

/**
 * {@link json} in pieces, ending with a newline: its long lists (accounts, ladders, risk days, payments) made as they
 * are written, an empty piece now and then (the command stops promptly on SIGINT or SIGTERM).
 */
export const jsonPieces = (report: ForecastReport.Report): Iterable<string> => {
  const { forecast } = report
  return JsonPieces.pieces({
    from: f(forecast.window.from),
    to: f(forecast.window.to),
    calendar: report.calendarName,
    convention: report.convention,
    findings: Forecast.hasFindings(forecast),
    accounts: JsonPieces.lazy(Forecast.worstFirst(forecast.accounts), accountJson),
    atRisk: JsonPieces.lazy(forecast.atRisk, paymentJson),
    atRiskCount: forecast.atRiskCount,
    evidence: forecast.evidence.map(evidenceJson),
    notNetted: forecast.notNetted.map((n) => ({ iban: n.iban, side: n.side, payment: paymentJson(n.payment) })),
    withoutBalance: forecast.withoutBalance,
    scenarios: report.scenarios.map((s) => ({
      name: s.scenario.name,
      removed: s.payments.removed.map(paymentJson),
      added: s.payments.added.map(paymentJson),
      moved: s.moved.map((v) => ({
        orderId: v.payment.orderId,
        was: f(v.was),
        due: f(v.due),
        executionDate: f(v.payment.executionDate)
      })),
      accounts: s.accounts.map((a) => ({
        iban: a.iban,
        currency: a.currency,
        closing: {
          base: Money.formatMinor(a.closing.base, a.currency),
          scenario: Money.formatMinor(a.closing.scenario, a.currency)
        },
        lowest: {
          base: { amount: Money.formatMinor(a.lowest.base.amount, a.currency), date: f(a.lowest.base.date) },
          scenario: {
            amount: Money.formatMinor(a.lowest.scenario.amount, a.currency),
            date: f(a.lowest.scenario.date)
          }
        },
        riskDaysAdded: a.riskDaysAdded.map((d) => riskJson(d, a.currency)),
        riskDaysRemoved: a.riskDaysRemoved.map((d) => riskJson(d, a.currency))
      })),
      unmatched: s.unmatched.map(ScenarioText.format)
    })),
    skipped: [
      ...report.unreadable.map((u) => ({ file: u.file, index: u.index, position: u.index + 1, reason: u.reason })),
      ...report.skippedOrders.map(Render.skippedJson)
    ]
  })
}
