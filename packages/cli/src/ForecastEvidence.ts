/**
 * The fleet's funds checks beside a balance forecast, as `tppkit worker status` prints them (issue 24): per checked
 * account its headline, then every check that contradicts the forecast, the urgent ones first, in the table and under
 * the key `forecast` of the JSON. The evidence itself (the checks, the window, the fleet's plan as orders, the stored
 * balances) is worker's `CheckEvidence`; the command reads the files and the database.
 *
 * @since 0.1.0
 */
import { LocalDate, Money } from "@tppkit/core"
import { Forecast } from "@tppkit/schedule"
import * as CheckEvidence from "@tppkit/worker/CheckEvidence"
import * as ForecastJson from "./ForecastJson.ts"
import * as ForecastReport from "./ForecastReport.ts"
import * as Render from "./Render.ts"

const plural = (n: number, one: string): string => `${n} ${n === 1 ? one : `${one}s`}`

/**
 * Where a status forecast's inputs come from: a balances file or the fleet's stored balances, an orders file or the
 * fleet's plan.
 */
export interface Sources {
  readonly balances: "file" | "stored"
  readonly orders: "file" | "plan"
}

const sourcesText = (sources: Sources): string =>
  `${sources.balances === "file" ? "balances file" : "the fleet's stored balances"}, ${sources.orders === "file" ? "orders file" : "the fleet's plan"}`

/**
 * The status report's forecast section: per checked account its headline (the first day it runs short, its lowest
 * point), then every check that contradicts the forecast, the urgent ones first, with both figures.
 */
export const section = (
  forecast: Forecast.Forecast,
  width: number,
  sources: Sources = { balances: "file", orders: "file" }
): Array<string> => {
  const accounts = CheckEvidence.checkedAccounts(forecast)
  const clashes = Forecast.contradictions(forecast)
  const lines = [
    "",
    ...Render.wrap(
      `Forecast of the checked accounts ${LocalDate.format(forecast.window.from)}..${LocalDate.format(forecast.window.to)} ` +
        `(${sourcesText(sources)}): ${plural(accounts.length, "account")}, ${plural(clashes.length, "check")} contradict it` +
        " (an answer is about the day the bank was asked):",
      width,
      "",
      "    "
    ),
    ...(sources.orders === "plan"
      ? Render.wrap(
          "payments: those the fleet checks; money coming in and payments it does not check are not in its plan (--orders FILE forecasts from every order)",
          width,
          "  ",
          "    "
        )
      : [])
  ]
  for (const a of accounts)
    lines.push(...Render.wrap(`${a.iban} ${a.currency}: ${ForecastReport.headline(a)}`, width, "  ", "    "))
  for (const e of clashes) {
    const c = e.check
    const figures = `forecast ${e.onCheckDay === undefined ? "-" : Money.formatMinor(e.onCheckDay, c.currency)} on ${LocalDate.format(c.checkedOn)}, ${e.onPaymentDay === undefined ? "-" : Money.formatMinor(e.onPaymentDay, c.currency)} on ${LocalDate.format(c.executionDate)}`
    const what =
      e.finding === "DeclinedButCovered"
        ? "URGENT: declined, but the forecast covers its day"
        : "approved, but the forecast puts its day at risk"
    lines.push(
      ...Render.wrap(
        `${c.answer} ${c.orderId} ${Money.formatMinor(c.amount, c.currency)} ${c.currency} from ${c.debtorIban}: ${what} (${figures})`,
        width,
        "  ",
        "    "
      )
    )
  }
  return lines
}

/**
 * The forecast under the key `forecast` of `tppkit worker status --format json`: where its inputs came from
 * (`balances` `file` or `stored`, `orders` `file` or `plan`), its window (`from`, `to`; null before any check is
 * answered), the checked accounts worst first (each with its opening balance and date, the closing, the lowest point
 * and its date, the risk days with their payments, without a creditor when they come from the plan) and the
 * `findings`: every check that contradicts the forecast, the urgent first (`DeclinedButCovered`: a DECL for a payment
 * the forecast covers; `ApprovedButAtRisk`), with the forecast's figures on the day the bank was asked and on the
 * payment's day.
 */
export const json = (forecast: Forecast.Forecast | undefined, sources: Sources) => ({
  balances: sources.balances,
  orders: sources.orders,
  from: forecast === undefined ? null : LocalDate.format(forecast.window.from),
  to: forecast === undefined ? null : LocalDate.format(forecast.window.to),
  accounts: (forecast === undefined ? [] : CheckEvidence.checkedAccounts(forecast)).map((a) => ({
    iban: a.iban,
    currency: a.currency,
    ...(a.threshold === undefined ? {} : { threshold: Money.formatMinor(a.threshold, a.currency) }),
    balanceDate: LocalDate.format(a.balanceDate),
    opening: Money.formatMinor(a.opening, a.currency),
    closing: Money.formatMinor(a.closing, a.currency),
    lowest: { amount: Money.formatMinor(a.lowest.amount, a.currency), date: LocalDate.format(a.lowest.date) },
    riskDays: a.riskDays.map((d) => {
      const day = ForecastJson.riskJson(d, a.currency)
      // the plan knows no creditor: its payments have none rather than an empty one
      return sources.orders === "file"
        ? day
        : { ...day, payments: day.payments.map(({ creditorIban: _, ...payment }) => payment) }
    })
  })),
  findings: (forecast === undefined ? [] : Forecast.contradictions(forecast)).map(ForecastJson.evidenceJson)
})
