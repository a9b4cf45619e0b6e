/**
 * The fleet's funds checks as evidence for a balance forecast (issue 24): `tppkit worker status` forecasts the
 * checked accounts from the opening balances (a `--balances` file, or those the fleet's workers were started with,
 * stored with its plan settings) and the payments (an `--orders` file, or the fleet's own plan: the payments it
 * checks, {@link ordersOfPlan}) and sets each answered check beside it, at the day it was asked. A DECL for a
 * payment the forecast covers on its day is the most urgent finding (the balances or the orders may be wrong, or
 * money is blocked), an APPR for a payment on a day the forecast puts at risk a milder one; an answer says whether
 * the amount was available when the bank was asked, never the balance on the payment day. Pure functions of the
 * check rows and the forecast; the command reads the files and the database.
 *
 * @since 0.1.0
 */
import { Calendar, LocalDate, Money } from "@tppkit/core"
import { Forecast, ForecastFiles, type Projection } from "@tppkit/schedule"
import type { Checks, PlanSettings } from "@tppkit/worker"
import { Result } from "effect"
import * as ForecastJson from "./ForecastJson.ts"
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
    if (Result.isFailure(checkedOn)) return []
    return [
      {
        orderId: r.orderId,
        executionDate: r.executionDate,
        debtorIban: r.debtorIban,
        amount: r.amount,
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
 * The opening balances as the fleet stores them with its plan settings (`tppkit worker --balances`): exact decimals
 * as plain text, dates as `YYYY-MM-DD`; {@link balancesOfStored} reads them back.
 */
export const storedBalances = (balances: ReadonlyArray<Forecast.Balance>): Array<PlanSettings.Balance> =>
  balances.map((b) => ({
    iban: b.iban,
    currency: b.currency,
    amount: Money.toPlainString(b.amount),
    date: LocalDate.format(b.date),
    ...(b.threshold === undefined ? {} : { threshold: Money.toPlainString(b.threshold) })
  }))

/**
 * The fleet's stored balances read back as a balances file is read (schedule's `ForecastFiles.balances`: the stored
 * records have its fields), so that stored and given balances are one thing to the forecast.
 */
export const balancesOfStored = (
  stored: ReadonlyArray<PlanSettings.Balance>
): Result.Result<ForecastFiles.Read<Forecast.Balance>, string> =>
  Result.mapError(
    ForecastFiles.balances("the fleet's stored balances", JSON.stringify(stored)),
    (e) => e.reason.message
  )

/**
 * The fleet's plan as orders for the forecast: each planned check (answered or not) is one payment out of its
 * debtor account on its execution date, an order paying once (a recurrence of one payment on that day, never moved,
 * so that it stays on the day the fleet planned it). A payment planned by two consents is
 * counted once. The plan knows only what the fleet checks: money coming in and the payments of other days are
 * not in it.
 */
export const ordersOfPlan = (rows: ReadonlyArray<Checks.Row>): Array<Projection.ProjectableOrder> => {
  const seen = new Set<string>()
  return rows.flatMap((r): Array<Projection.ProjectableOrder> => {
    const key = `${r.orderId}\u0000${r.nominalDate}\u0000${r.debtorIban}`
    if (seen.has(key)) return []
    seen.add(key)
    return [
      {
        orderId: r.orderId,
        recurrence: { rule: { _tag: "EveryDays", interval: 1 }, start: r.executionDate, count: 1, convention: "none" },
        instructedAmount: { value: r.amount, currency: r.currency },
        debtor: { iban: r.debtorIban },
        creditor: { iban: "" }
      }
    ]
  })
}

/** How the fleet's plan is forecast: every payment on the day the fleet planned it ({@link ordersOfPlan}). */
export const planOptions: Projection.Options = { calendar: Calendar.everyDay, convention: "following" }

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

/** The checked accounts of a forecast (those with an answered check), worst first. */
const checkedAccounts = (forecast: Forecast.Forecast): Array<Forecast.AccountForecast> => {
  const checked = new Set(forecast.evidence.map((e) => e.check.debtorIban))
  return Forecast.worstFirst(forecast.accounts.filter((a) => checked.has(a.iban)))
}

/** The checks that contradict the forecast, the urgent ones (DECL but covered) first. */
const clashesOf = (forecast: Forecast.Forecast): Array<Forecast.Evidence> =>
  forecast.evidence.filter((e) => e.finding === "DeclinedButCovered" || e.finding === "ApprovedButAtRisk")

/**
 * The status report's forecast section: per checked account its headline (the first day it runs short, its lowest
 * point), then every check that contradicts the forecast, the urgent ones first, with both figures.
 */
export const section = (
  forecast: Forecast.Forecast,
  width: number,
  sources: Sources = { balances: "file", orders: "file" }
): Array<string> => {
  const accounts = checkedAccounts(forecast)
  const clashes = clashesOf(forecast)
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
  accounts: (forecast === undefined ? [] : checkedAccounts(forecast)).map((a) => ({
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
  findings: (forecast === undefined ? [] : clashesOf(forecast)).map(ForecastJson.evidenceJson)
})
