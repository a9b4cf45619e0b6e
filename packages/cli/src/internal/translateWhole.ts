/**
 * `tppkit translate --to T` for a standard whose records tppkit writes whole (cli README, "translate"): COBS, UK v3.1
 * and v4, Berlin Group, YNAB and Actual. Standard output is one list envelope of T holding every order it can say
 * (a COBS page, a UK `Data.StandingOrder` list, a Berlin Group transactions answer, a YNAB answer, an Actual array),
 * each a whole record (core's `SourceRecord.write`); each lossy or unrepresentable order is named on stderr with every
 * loss, and the run exits 8 when there is any (7 first when records could not be read).
 */
import { SourceRecord, Translation } from "@tppkit/core"
import { Effect } from "effect"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"
import type * as Project from "../Project.ts"
import * as Orders from "./orders.ts"

/** Whether `--to` names a standard written whole. */
export const isWholeTarget = (to: string): to is SourceRecord.Target =>
  (SourceRecord.targets as ReadonlyArray<string>).includes(to)

/**
 * Writes the orders read as one envelope of `to`; `recurrenceOf` gives each order's recurrence as translate reads it
 * (`--convention` applied where the record leaves it to the bank).
 */
export const run = (
  decoded: Project.Decoded,
  input: { readonly orders: string; readonly to: SourceRecord.Target },
  recurrenceOf: (order: Project.Order) => Translation.Translation<SourceRecord.Writable["recurrence"]>
) =>
  Effect.gen(function* () {
    const records: Array<object> = []
    let findings = 0
    for (const order of decoded.orders) {
      const recurrence = recurrenceOf(order)
      const t =
        recurrence._tag === "Unrepresentable"
          ? recurrence
          : SourceRecord.write(input.to, {
              orderId: order.orderId,
              recurrence: recurrence.value,
              instructedAmount: order.instructedAmount,
              debtor: order.debtor,
              creditor: order.creditor,
              nextDate: order.nextDate
            })
      const losses = [
        ...(recurrence._tag === "Lossy" ? recurrence.losses : []),
        ...(t._tag === "Lossy" ? t.losses : [])
      ]
      if (t._tag === "Unrepresentable") {
        findings++
        yield* Output.errorLine(
          Output.printable(`tppkit: ${order.orderId} unrepresentable in ${input.to}: ${t.reason}`)
        )
        continue
      }
      records.push(t.value)
      if (losses.length > 0) {
        findings++
        for (const l of losses)
          yield* Output.errorLine(Output.printable(`tppkit: ${order.orderId} lossy: ${Translation.describe(l)}`))
      }
    }
    yield* Output.line(JSON.stringify(SourceRecord.list(input.to, records), null, 2))
    for (const row of decoded.skipped) {
      yield* Output.errorLine(
        Output.printable(`tppkit: ${row.orderId ?? "a record without orderId"} not read: ${row.reason}`)
      )
    }
    if (decoded.skipped.length > 0) {
      return yield* Failure.make("data", Orders.unreadMessage(input.orders, decoded.skipped.length, "translated"))
    }
    if (findings > 0) return yield* Failure.findings()
  })
