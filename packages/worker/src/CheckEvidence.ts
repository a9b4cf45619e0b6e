/**
 * The fleet's funds checks as evidence for a balance forecast (issue 24): the checked accounts are forecast from the
 * opening balances (a balances file, or those the fleet's workers were started with, stored with its plan settings:
 * {@link storedBalances}, {@link balancesOfStored}) and the payments (an orders file, or the fleet's own plan: the
 * payments it checks, {@link ordersOfPlan}), and each answered check ({@link checksOf}) is set beside the forecast
 * at the day it was asked (schedule's `Forecast` with `checks`). A DECL for a payment the forecast covers on its day
 * is the most urgent finding (the balances or the orders may be wrong, or money is blocked), an APPR for a payment
 * on a day the forecast puts at risk a milder one; an answer says whether the amount was available when the bank
 * was asked, never the balance on the payment day. Pure functions of the check rows and the forecast;
 * `tppkit worker status` reads the files and the database and prints them.
 *
 * @since 0.1.0
 */
import { Calendar, LocalDate, Money } from "@tppkit/core"
import { Forecast, ForecastFiles, type Projection } from "@tppkit/schedule"
import { Result } from "effect"
import type { Row } from "./Checks.ts"
import type { Balance } from "./PlanSettings.ts"

/**
 * The answered checks (APPR or DECL) as forecast evidence, each asked on the UTC day of its `checkedAt`; rows
 * without an answer, a readable date or amount are left out.
 */
export const checksOf = (rows: ReadonlyArray<Row>): Array<Forecast.Check> =>
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
 * The window a forecast of the checks covers: from the earliest day a check was asked or a checked payment is due
 * to the latest of them (so that each answer has the forecast of its day beside it); `undefined` without checks.
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
export const storedBalances = (balances: ReadonlyArray<Forecast.Balance>): Array<Balance> =>
  balances.map((b) => ({
    iban: b.iban,
    currency: b.currency,
    amount: Money.toPlainString(b.amount),
    date: LocalDate.format(b.date),
    ...(b.threshold === undefined ? {} : { threshold: Money.toPlainString(b.threshold) })
  }))

/**
 * The fleet's stored balances read back as a balances file is read (schedule's `ForecastFiles.balances`: the stored
 * records have its fields), so that stored and given balances are one thing to the forecast; the failure is the
 * reason in words.
 */
export const balancesOfStored = (
  stored: ReadonlyArray<Balance>
): Result.Result<ForecastFiles.Read<Forecast.Balance>, string> =>
  Result.mapError(
    ForecastFiles.balances("the fleet's stored balances", JSON.stringify(stored)),
    (e) => e.reason.message
  )

/**
 * The fleet's plan as orders for the forecast: each planned check (answered or not) is one payment out of its
 * debtor account on its execution date, an order paying once (a recurrence of one payment on that day, never moved,
 * so that it stays on the day the fleet planned it). A payment planned by two consents is counted once. The plan
 * knows only what the fleet checks: money coming in and the payments of other days are not in it.
 */
export const ordersOfPlan = (rows: ReadonlyArray<Row>): Array<Projection.ProjectableOrder> => {
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

/** The checked accounts of a forecast (those with an answered check), worst first (schedule's `Forecast.worstFirst`). */
export const checkedAccounts = (forecast: Forecast.Forecast): Array<Forecast.AccountForecast> => {
  const checked = new Set(forecast.evidence.map((e) => e.check.debtorIban))
  return Forecast.worstFirst(forecast.accounts.filter((a) => checked.has(a.iban)))
}
