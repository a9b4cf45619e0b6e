/** Step 2: one balance check of 100.00 under each kind of consent, with the bank's Response-ID. */
import { Money } from "@tppkit/core"
import { BigDecimal, Effect } from "effect"
import * as Output from "../../Output.ts"
import type { Bank, Check } from "./bank.ts"
import { heading } from "./text.ts"

/** Checks 100.00 on the first account with a branch consent and the first with an electronic one. */
export const step = (bank: Bank, check: Check) =>
  Effect.gen(function* () {
    yield* heading(2, "Balance check (100.00 in the account's currency)")
    for (const kind of ["branch", "electronic"] as const) {
      const account = bank.info.accounts.find((a) => a.consent === kind)
      if (account === undefined) continue
      const amount = BigDecimal.fromBigInt(100n)
      const reply = yield* check(account.iban, amount, account.currency)
      yield* Output.line(
        `   ${account.iban}  ${Money.formatMinor(amount, account.currency)} ${account.currency}: ${reply.body.response}` +
          `  (${kind} consent)\n` +
          `   [Response-ID ${reply.identity.responseId ?? "none"}]`
      )
    }
  })
