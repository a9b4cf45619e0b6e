/** Step 7: the payments at risk, grouped per account and reason, then per order. */
import { LocalDate, Money } from "@tppkit/core"
import type { BankError } from "@tppkit/http"
import { Coverage } from "@tppkit/schedule"
import { Effect } from "effect"
import * as DemoReport from "../../DemoReport.ts"
import * as Output from "../../Output.ts"
import * as Style from "../../Style.ts"
import type { Bank } from "./bank.ts"
import { describeFailure, reasonText } from "./reasons.ts"
import { heading, INNER, indent, plural, say } from "./text.ts"

/** How many orders of one group of payments at risk the report lists before counting the rest. */
export const LISTED_ORDERS = 6

/** The payments at risk: declined, without an answer (saying why), then those past a running total's cover. */
export const collect = (
  bank: Bank,
  funds: Coverage.Report<BankError.BankError>,
  uncovered: ReadonlyArray<Coverage.AtRisk>
): Array<Coverage.AtRisk> => [
  ...funds.atRisk.map((payment) => ({ payment, reason: { _tag: "Declined" } as const })),
  ...funds.failed.map((f) => ({
    payment: f.payment,
    reason: {
      _tag: "NoAnswer",
      detail:
        bank.consentOf.get(f.payment.debtorIban) === "none"
          ? `no consent, so no answer (${describeFailure(f.error)})`
          : `no answer (${describeFailure(f.error)})`
    } as const
  })),
  ...uncovered
]

/** Prints the groups of payments at risk; returns them. */
export const step = (atRisk: ReadonlyArray<Coverage.AtRisk>) =>
  Effect.gen(function* () {
    const style = yield* Output.stdoutStyle
    const groups = Coverage.riskGroups(atRisk)
    yield* heading(7, "Payments at risk, per account and order")
    if (groups.length === 0) {
      yield* Output.line("   None: every payment due is covered.")
    }
    for (const [i, g] of groups.entries()) {
      if (i > 0) yield* Output.line("")
      yield* say(
        `${g.debtorIban}: ${plural(g.count, "payment")}, ${Money.formatMinor(g.amount, g.currency)} ${g.currency}, ` +
          `first ${LocalDate.format(g.first)}; ${reasonText(g.reason)}`
      )
      const shown = g.orders.slice(0, LISTED_ORDERS)
      yield* Output.line(indent(Style.table(style, DemoReport.orderRiskTable(shown, INNER - 2)), "     "))
      if (g.orders.length > shown.length) {
        yield* Output.line(`     … and ${plural(g.orders.length - shown.length, "more order")}`)
      }
    }
    return groups
  })
