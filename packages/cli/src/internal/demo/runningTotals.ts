/**
 * The extra check after step 6 (not in the issue): the bank answers per payment, so whether an account covers all
 * its approved payments together is searched for with balance checks of running totals in date order.
 */
import { LocalDate, Money } from "@tppkit/core"
import { Coverage, type Payment } from "@tppkit/schedule"
import { BigDecimal, Effect } from "effect"
import * as Output from "../../Output.ts"
import type { Check } from "./bank.ts"
import { plural, say } from "./text.ts"

/** What the search found for one account: how many payments are covered together, and the checks it took. */
export interface Found {
  readonly covered: number
  readonly checks: number
}

/**
 * Searches every account with more than one approved payment; returns the approved payments per account, what
 * the search found per account, and the payments past the first one not covered.
 */
export const step = <E>(check: Check, funds: Coverage.Report<E>) =>
  Effect.gen(function* () {
    const found = new Map<string, Found>()
    const approved = new Map<string, Array<Payment.Payment>>()
    for (const o of funds.outcomes) {
      if (o._tag !== "Checked" || o.answer !== "APPR") continue
      const list = approved.get(o.payment.debtorIban) ?? []
      list.push(o.payment)
      approved.set(o.payment.debtorIban, list)
    }
    const uncovered: Array<Coverage.AtRisk> = []
    const multi = [...approved.entries()].filter(([, list]) => list.length > 1)
    if (multi.length > 0) {
      yield* Output.line("")
      yield* say(
        "Extra check, all approved payments of an account together: balance checks of running totals in date " +
          "order find the first payment the funds no longer cover (a binary search, a few checks each)."
      )
    }
    for (const [iban, list] of multi) {
      let checks = 0
      const covered = yield* Coverage.firstUncovered(
        list.map((p) => p.amount),
        (total) => {
          checks++
          return check(iban, total, list[0]!.currency).pipe(Effect.map((reply) => reply.body.response === "APPR"))
        }
      ).pipe(Effect.option)
      if (covered._tag === "None") {
        yield* say(`${iban}: the bank did not answer every running-total check; nothing is known.`)
        continue
      }
      found.set(iban, { covered: covered.value, checks })
      const first = list[covered.value]
      if (first === undefined) {
        const sum = list.reduce((s, p) => BigDecimal.sum(s, p.amount), BigDecimal.fromBigInt(0n))
        yield* say(
          `${iban}: all ${list.length} covered together (${Money.formatMinor(sum, list[0]!.currency)} ${list[0]!.currency}; ${checks} checks).`
        )
      } else {
        const rest = list.slice(covered.value)
        yield* say(
          `${iban}: the first ${covered.value} of ${list.length} are covered together; from ${first.orderId} on ` +
            `${LocalDate.format(first.executionDate)} the running total is not (${plural(rest.length, "payment")}; ${checks} checks).`
        )
        for (const payment of rest) uncovered.push({ payment, reason: { _tag: "RunningTotal" } })
      }
    }
    const shortfalls = [...found.entries()].filter(([iban, r]) => r.covered < (approved.get(iban)?.length ?? 0))
    return { uncovered, shortfalls: shortfalls.length }
  })
