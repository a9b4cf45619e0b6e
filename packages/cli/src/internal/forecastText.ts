/**
 * The small words every rendering of a forecast shares (the table, the HTML picture, the fleet's status): amounts in
 * their currency's minor unit, dates and spans, counts with their noun, a payment and a funds check in one line.
 */
import { LocalDate, Money } from "@tppkit/core"
import type { Forecast, Payment } from "@tppkit/schedule"
import type { BigDecimal } from "effect"

/** An amount with its currency's minor unit digits (core's `Money.formatMinor`). */
export const m = (x: BigDecimal.BigDecimal, currency: string): string => Money.formatMinor(x, currency)

/** A date as `YYYY-MM-DD`. */
export const f = LocalDate.format

/** A day, or a span of days `FROM..TO`. */
export const span = (a: LocalDate.LocalDate, b: LocalDate.LocalDate): string => (a === b ? f(a) : `${f(a)}..${f(b)}`)

/** A count with its noun, singular or plural. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`

/** The days an account is at risk, counted over its risk days' spans. */
export const daysOf = (a: Forecast.AccountForecast): number =>
  a.riskDays.reduce((n, d) => n + (d.until - d.date + 1), 0)

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

/** A day with its weekday's name, `Saturday 2027-03-06`. */
export const weekday = (day: LocalDate.LocalDate): string => `${WEEKDAYS[LocalDate.dayOfWeek(day) - 1]} ${f(day)}`

/** A payment in one line: its execution date, order, amount and creditor. */
export const paymentLine = (p: Payment.Payment): string =>
  `${f(p.executionDate)}  ${p.orderId}  ${m(p.amount, p.currency)} ${p.currency} to ${p.creditorName ?? p.creditorIban}`

/** A funds check's finding in words. */
export const FINDING_TEXT: Record<Forecast.Finding, string> = {
  DeclinedButCovered: "URGENT: declined, but the forecast covers its day",
  ApprovedButAtRisk: "approved, but the forecast puts its day at risk",
  Agrees: "agrees with the forecast",
  Outside: "no forecast for the account on that day"
}

/** A funds check beside the forecast in one line: the answer, the payment, the finding and both figures. */
export const checkLine = (e: Forecast.Evidence): string => {
  const c = e.check
  const figures = `forecast ${e.onCheckDay === undefined ? "-" : m(e.onCheckDay, c.currency)} on ${f(c.checkedOn)}, ${e.onPaymentDay === undefined ? "-" : m(e.onPaymentDay, c.currency)} on ${f(c.executionDate)}`
  return `${c.answer} ${c.orderId} ${m(c.amount, c.currency)} ${c.currency} checked ${f(c.checkedOn)} for ${f(c.executionDate)}: ${FINDING_TEXT[e.finding]} (${figures})`
}
