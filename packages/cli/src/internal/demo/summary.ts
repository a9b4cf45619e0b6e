/** The last step: the projection, the funds check, the payments at risk and the fleet worker, a sentence each. */
import { LocalDate, Money } from "@tppkit/core"
import { CashFlow, type Coverage, type Payment } from "@tppkit/schedule"
import { Effect } from "effect"
import { heading, plural, say } from "./text.ts"
import { HORIZON_DAYS } from "./upcoming.ts"

/** What the summary reports. */
export interface Input<E> {
  /** The step's number: 8 without the fleet step, 9 with it. */
  readonly n: number
  readonly orders: number
  readonly payments: ReadonlyArray<Payment.Payment>
  readonly funds: Coverage.Report<E>
  readonly accounts: ReadonlyArray<Coverage.AccountSummary>
  readonly groups: ReadonlyArray<Coverage.RiskGroup>
  /** Accounts whose running total does not cover all their approved payments. */
  readonly shortfalls: number
  /** The fleet step's sentence, when it ran. */
  readonly fleetLine: string | undefined
}

/** Prints the summary. */
export const step = <E>(input: Input<E>) =>
  Effect.gen(function* () {
    const { payments, funds, groups } = input
    yield* heading(input.n, "Summary")
    const approved = input.accounts.reduce((n, a) => n + a.approved, 0)
    const atRiskCount = groups.reduce((n, g) => n + g.count, 0)
    const totals = CashFlow.totals(payments)
      .byCurrency.map((t) => `${t.count} in ${t.currency} (${Money.formatMinor(t.amount, t.currency)})`)
      .join(", ")
    yield* say(
      `Projection: ${plural(input.orders, "standing order")} give ${plural(payments.length, "payment")} in the ` +
        `next ${HORIZON_DAYS} days: ${totals.length === 0 ? "none" : totals}.`
    )
    yield* say(
      `Funds check: ${plural(funds.outcomes.length, "payment")} due by ${LocalDate.format(funds.horizon)}: ` +
        `${approved} APPR, ${funds.atRisk.length} DECL, ${funds.failed.length} without an answer.`
    )
    yield* say(
      `At risk: ${plural(atRiskCount, "payment")}` +
        (groups.length === 0
          ? "."
          : ` on ${plural(new Set(groups.map((g) => g.debtorIban)).size, "account")}, the earliest ` +
            `${LocalDate.format(Math.min(...groups.map((g) => g.first)) as LocalDate.LocalDate)}` +
            (input.shortfalls === 0
              ? "."
              : `; ${plural(input.shortfalls, "account")} short of funds for all together.`))
    )
    if (input.fleetLine !== undefined) yield* say(input.fleetLine)
  })
