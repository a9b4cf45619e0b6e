/**
 * The fleet's funds checks as evidence for a balance forecast (issue 24): `tppkit worker status --balances FILE
 * --orders FILE` forecasts the checked accounts from the balances and orders given and sets each answered check
 * beside it, at the day it was asked. A DECL for a payment the forecast covers on its day is the most urgent finding
 * (the balances or the orders may be wrong, or money is blocked), an APPR for a payment on a day the forecast puts
 * at risk a milder one; an answer says whether the amount was available when the bank was asked, never the balance
 * on the payment day. Pure functions of the check rows and the forecast; the command reads the files.
 *
 * @since 0.1.0
 */
import { LocalDate, Money } from "@tppkit/core"
import { Forecast } from "@tppkit/schedule"
import type { Checks } from "@tppkit/worker"
import { BigDecimal, Option, Result } from "effect"
import * as ForecastReport from "./ForecastReport.ts"
import * as Render from "./Render.ts"

const plural = (n: number, one: string): string => `${n} ${n === 1 ? one : `${one}s`}`

/**
 * The answered checks (APPR or DECL) as forecast evidence, each asked on the UTC day of its `checkedAt`; rows
 * without an answer, a readable date or amount are left out.
 */
export const checksOf = (rows: ReadonlyArray<Checks.Row>): Array<Forecast.Check> =>
  rows.flatMap((r) => {
    if ((r.outcome !== "APPR" && r.outcome !== "DECL") || r.checkedAt === undefined) return []
    const checkedOn = LocalDate.parse(r.checkedAt.slice(0, 10))
    const executionDate = LocalDate.parse(r.executionDate)
    const amount = BigDecimal.fromString(r.amount)
    if (Result.isFailure(checkedOn) || Result.isFailure(executionDate) || Option.isNone(amount)) return []
    return [
      {
        orderId: r.orderId,
        executionDate: executionDate.success,
        debtorIban: r.debtorIban,
        amount: amount.value,
        currency: r.currency,
        checkedOn: checkedOn.success,
        answer: r.outcome
      }
    ]
  })

/**
 * The window a status forecast covers: from the earliest day a check was asked or a checked payment is due to the
 * latest of them (so that each answer has the forecast of its day beside it); `undefined` without answered checks.
 */
export const windowOf = (checks: ReadonlyArray<Forecast.Check>): Forecast.Input["window"] | undefined => {
  if (checks.length === 0) return undefined
  let from = checks[0]!.checkedOn as number
  let to = checks[0]!.executionDate as number
  for (const c of checks) {
    from = Math.min(from, c.checkedOn, c.executionDate)
    to = Math.max(to, c.executionDate, c.checkedOn)
  }
  return { from: from as LocalDate.LocalDate, to: to as LocalDate.LocalDate }
}

/**
 * The status report's forecast section: per checked account its headline (the first day it runs short, its lowest
 * point), then every check that contradicts the forecast, the urgent ones first, with both figures.
 */
export const section = (forecast: Forecast.Forecast, width: number): Array<string> => {
  const checked = new Set(forecast.evidence.map((e) => e.check.debtorIban))
  const accounts = Forecast.worstFirst(forecast.accounts.filter((a) => checked.has(a.iban)))
  const clashes = forecast.evidence.filter(
    (e) => e.finding === "DeclinedButCovered" || e.finding === "ApprovedButAtRisk"
  )
  const lines = [
    `Forecast of the checked accounts ${LocalDate.format(forecast.window.from)}..${LocalDate.format(forecast.window.to)} ` +
      `(balances file): ${plural(accounts.length, "account")}, ${plural(clashes.length, "check")} contradict it` +
      " (an answer is about the day the bank was asked):"
  ]
  for (const a of accounts)
    lines.push(...Render.wrap(`${a.iban} ${a.currency}: ${ForecastReport.headline(a)}`, width, "  ", "    "))
  for (const e of clashes) {
    const c = e.check
    const figures = `forecast ${e.onCheckDay === undefined ? "-" : Money.formatFixed2(e.onCheckDay)} on ${LocalDate.format(c.checkedOn)}, ${e.onPaymentDay === undefined ? "-" : Money.formatFixed2(e.onPaymentDay)} on ${LocalDate.format(c.executionDate)}`
    const what =
      e.finding === "DeclinedButCovered"
        ? "URGENT: declined, but the forecast covers its day"
        : "approved, but the forecast puts its day at risk"
    lines.push(
      ...Render.wrap(
        `${c.answer} ${c.orderId} ${Money.formatFixed2(c.amount)} ${c.currency} from ${c.debtorIban}: ${what} (${figures})`,
        width,
        "  ",
        "    "
      )
    )
  }
  return [...lines, ""]
}
