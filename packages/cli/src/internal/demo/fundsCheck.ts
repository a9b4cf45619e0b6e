/**
 * Step 6: the funds check of the issue, one balance check per payment due in the next 7 working days (TARGET),
 * summed per account, with each account's consent and the reasons of the checks without an answer.
 */
import { Calendar, LocalDate } from "@tppkit/core"
import { Coverage, type Payment } from "@tppkit/schedule"
import { Effect } from "effect"
import * as DemoReport from "../../DemoReport.ts"
import * as Output from "../../Output.ts"
import * as Style from "../../Style.ts"
import type { Bank, Check } from "./bank.ts"
import { describeFailure } from "./reasons.ts"
import { heading, INNER, indent, plural, say } from "./text.ts"

/** Working days ahead whose payments the funds check covers. */
export const FUNDS_CHECK_WORKING_DAYS = 7

const consentText: Record<string, string> = {
  branch: "branch consent, checked with the client-credentials PIISP token",
  electronic: "electronic consent, checked with the SCA-style token (scope AISP PIISP)",
  none: "no consent: the bank refuses to answer, as it must, so these payments cannot be confirmed"
}

/** Checks the payments due and prints the per-account table; returns the report and its per-account lines. */
export const step = (bank: Bank, check: Check, payments: ReadonlyArray<Payment.Payment>, today: LocalDate.LocalDate) =>
  Effect.gen(function* () {
    const style = yield* Output.stdoutStyle
    const funds = yield* Coverage.run(payments, {
      today,
      daysBefore: FUNDS_CHECK_WORKING_DAYS,
      calendar: Calendar.target, // the funds check counts working days on TARGET
      concurrency: 8,
      check: (payment) =>
        check(payment.debtorIban, payment.amount, payment.currency).pipe(Effect.map((reply) => reply.body.response))
    })
    const accounts = Coverage.summarize(funds)
    yield* heading(
      6,
      `Funds check: payments due ${LocalDate.format(today)} to ${LocalDate.format(funds.horizon)} ` +
        `(next ${FUNDS_CHECK_WORKING_DAYS} working days)`
    )
    yield* say("One balance check per payment: its amount on its debtor account. APPR: covered, DECL: not covered.")
    if (funds.outcomes.length === 0) {
      yield* Output.line("   No payments are due.")
    } else {
      yield* Output.line(indent(Style.table(style, DemoReport.fundsTable(accounts, INNER))))
    }
    const failures = new Map<string, Map<string, number>>()
    for (const f of funds.failed) {
      const perAccount = failures.get(f.payment.debtorIban) ?? new Map<string, number>()
      const reason = describeFailure(f.error)
      perAccount.set(reason, (perAccount.get(reason) ?? 0) + 1)
      failures.set(f.payment.debtorIban, perAccount)
    }
    for (const account of accounts) {
      const consent = bank.consentOf.get(account.debtorIban)
      // under a profile that checks balances without a token, every consent is checked alike
      const text =
        consent === undefined
          ? "not a known account"
          : bank.profile !== undefined && consent !== "none"
            ? `${consent} consent, checked with the API key (the ${bank.profile.name} profile sends no token)`
            : consentText[consent]
      yield* say(`${account.debtorIban}: ${text}`)
      for (const [reason, count] of failures.get(account.debtorIban) ?? []) {
        yield* say(`${plural(count, "payment")} without an answer: ${reason}`, "     ")
      }
    }
    return { funds, accounts }
  })
