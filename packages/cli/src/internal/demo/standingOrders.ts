/** Step 3: every page of the standing orders, and how many malformed records were skipped. */
import { Effect, Stream } from "effect"
import * as Output from "../../Output.ts"
import type { Bank } from "./bank.ts"
import { heading, plural } from "./text.ts"

/** Lists every page; returns the good orders. */
export const step = (bank: Bank) =>
  Effect.gen(function* () {
    yield* heading(3, "Standing orders (all pages, page size 100)")
    const pages = yield* Stream.runCollect(bank.client.standingOrders({ psu: bank.psu }))
    const orders = pages.flatMap((p) => p.body.orders)
    const malformed = pages.flatMap((p) => p.body.errors)
    const debtors = new Set(orders.map((o) => o.debtor.iban))
    yield* Output.line(
      `   ${plural(orders.length, "standing order")} of ${plural(debtors.size, "account")} ` +
        `on ${plural(pages.length, "page")}` +
        (malformed.length === 0 ? "" : `, ${malformed.length} malformed record(s) skipped`)
    )
    return orders
  })
