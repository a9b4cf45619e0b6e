/** Step 5: the cash flow per month and currency, then per currency over the whole window. */
import type { LocalDate } from "@tppkit/core"
import type { Payment } from "@tppkit/schedule"
import { Effect } from "effect"
import * as DemoReport from "../../DemoReport.ts"
import * as Output from "../../Output.ts"
import * as Style from "../../Style.ts"
import { heading, INNER, indent } from "./text.ts"

/** Prints the totals of the payments projected over `from..to` (a month the window cuts is marked partial). */
export const step = (payments: ReadonlyArray<Payment.Payment>, from: LocalDate.LocalDate, to: LocalDate.LocalDate) =>
  Effect.gen(function* () {
    const style = yield* Output.stdoutStyle
    yield* heading(5, "Cash flow per month and currency (execution dates)")
    yield* Output.line(indent(Style.table(style, DemoReport.cashFlowTable(payments, INNER, { from, to }))))
  })
