/**
 * After step 7: the balance forecast of the mock bank's accounts (schedule's `Forecast`), their balances as the bank
 * knows them today as the opening, over the projection's window and on its calendars, with the funds check's answers
 * of step 6 set beside it (each asked today): the first day each account runs out, its lowest point, and the answers
 * that contradict the forecast (a DECL for a payment the forecast covers first).
 */
import { LocalDate, Money } from "@tppkit/core"
import type { Sandbox } from "@tppkit/sandbox"
import { type Coverage, Forecast, Holidays, type Projection } from "@tppkit/schedule"
import { Effect, Result } from "effect"
import * as ForecastReport from "../../ForecastReport.ts"
import * as Output from "../../Output.ts"
import { plural, say } from "./text.ts"
import * as Upcoming from "./upcoming.ts"

/** How many accounts at risk the block names before counting the rest. */
export const LISTED_ACCOUNTS = 5

/** The funds check's answers as evidence for the forecast: each asked on `today`. */
export const checksOf = <E>(funds: Coverage.Report<E>, today: LocalDate.LocalDate): Array<Forecast.Check> =>
  funds.outcomes.flatMap((o) =>
    o._tag === "Checked"
      ? [
          {
            orderId: o.payment.orderId,
            executionDate: o.payment.executionDate,
            debtorIban: o.payment.debtorIban,
            amount: o.payment.amount,
            currency: o.payment.currency,
            checkedOn: today,
            answer: o.answer
          }
        ]
      : []
  )

/** Forecasts the bank's accounts and prints what it finds; returns the forecast. */
export const step = <E>(
  accounts: ReadonlyArray<Sandbox.AccountInfo>,
  orders: ReadonlyArray<Projection.ProjectableOrder>,
  funds: Coverage.Report<E>,
  today: LocalDate.LocalDate,
  to: LocalDate.LocalDate
) =>
  Effect.gen(function* () {
    const made = Forecast.make({
      orders,
      balances: accounts.map((a) => ({ iban: a.iban, currency: a.currency, amount: a.balance, date: today })),
      window: { from: today, to },
      options: { calendar: Holidays.byCurrency(), convention: Upcoming.convention },
      checks: checksOf(funds, today),
      ladder: false
    })
    yield* Output.line("")
    if (Result.isFailure(made)) {
      yield* say(`Balance forecast: ${made.failure.message}`)
      return undefined
    }
    const forecast = made.success
    const atRisk = Forecast.worstFirst(forecast.accounts).filter((a) => a.riskDays.length > 0)
    yield* say(
      `Balance forecast ${LocalDate.format(today)} to ${LocalDate.format(to)}: the bank's balances today as the ` +
        `opening, every standing order's payments out and in; ${plural(forecast.accounts.length, "account")}, ` +
        `${atRisk.length} at or below zero on some day.`
    )
    for (const a of atRisk.slice(0, LISTED_ACCOUNTS)) yield* say(`${a.iban}: ${ForecastReport.headline(a)}`, "     ")
    if (atRisk.length > LISTED_ACCOUNTS) yield* say(`… and ${plural(atRisk.length - LISTED_ACCOUNTS, "more")}`, "     ")
    const clashes = Forecast.contradictions(forecast)
    if (clashes.length > 0) {
      yield* say(
        `${plural(clashes.length, "funds-check answer")} of step 6 contradict the forecast (an answer is about today, ` +
          "the forecast about the payment's day):"
      )
      for (const e of clashes.slice(0, LISTED_ACCOUNTS)) {
        const c = e.check
        yield* say(
          `${e.finding === "DeclinedButCovered" ? "URGENT: DECL" : "APPR"} ${c.orderId} ${Money.formatMinor(c.amount, c.currency)} ` +
            `${c.currency} from ${c.debtorIban} due ${LocalDate.format(c.executionDate)}; forecast ` +
            `${e.onPaymentDay === undefined ? "-" : Money.formatMinor(e.onPaymentDay, c.currency)} that day`,
          "     "
        )
      }
      if (clashes.length > LISTED_ACCOUNTS) yield* say(`… and ${clashes.length - LISTED_ACCOUNTS} more`, "     ")
    }
    return forecast
  })
