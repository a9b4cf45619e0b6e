/**
 * `tppkit translate --to T` for a standard whose records tppkit writes whole (cli README, "translate"): COBS, UK v3.1
 * and v4, Berlin Group, YNAB and Actual. Standard output is one list envelope of T holding every order it can say
 * (a COBS page, a UK `Data.StandingOrder` list, a Berlin Group transactions answer, a YNAB answer, an Actual array),
 * each a whole record (core's `SourceRecord.write`); each lossy or unrepresentable order is named on stderr with every
 * loss (translate then exits 8, or 7 first when records could not be read).
 */
import { SourceRecord, Translation } from "@tppkit/core"
import { Effect } from "effect"
import * as Output from "../Output.ts"
import type * as Project from "../Project.ts"

/** Whether `--to` names a standard written whole. */
export const isWholeTarget = (to: string): to is SourceRecord.Target =>
  (SourceRecord.targets as ReadonlyArray<string>).includes(to)

/**
 * Writes the orders as one envelope of `to` on stdout, each loss and each order left out on stderr; `recurrenceOf`
 * gives each order's recurrence as translate reads it (`--convention` applied where the record leaves it to the bank).
 * The number of orders that were not exact (translate's findings).
 */
export const write = (
  orders: ReadonlyArray<Project.Order>,
  to: SourceRecord.Target,
  recurrenceOf: (order: Project.Order) => Translation.Translation<SourceRecord.Writable["recurrence"]>
) =>
  Effect.gen(function* () {
    const records: Array<object> = []
    let findings = 0
    let n = 0
    for (const order of orders) {
      // SIGINT or SIGTERM is seen now and then: exit 130 with nothing written
      if (++n % 1_000 === 0) yield* Effect.yieldNow
      // the losses of the order's recurrence, then those of its record in the target
      const t = Translation.andThen(recurrenceOf(order), (recurrence) =>
        SourceRecord.write(to, {
          orderId: order.orderId,
          recurrence,
          instructedAmount: order.instructedAmount,
          debtor: order.debtor,
          creditor: order.creditor,
          nextDate: order.nextDate
        })
      )
      if (t._tag === "Unrepresentable") {
        findings++
        yield* Output.errorLine(Output.printable(`tppkit: ${order.orderId} unrepresentable in ${to}: ${t.reason}`))
        continue
      }
      records.push(t.value)
      if (t._tag === "Lossy") {
        findings++
        for (const l of t.losses)
          yield* Output.errorLine(Output.printable(`tppkit: ${order.orderId} lossy: ${Translation.describe(l)}`))
      }
    }
    yield* Output.lines(JSON.stringify(SourceRecord.list(to, records), null, 2))
    return findings
  })
