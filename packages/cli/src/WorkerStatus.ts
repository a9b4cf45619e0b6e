/**
 * What `tppkit worker status` prints, as pure functions of the fleet's checks and budget rows: the JSON document
 * (finished checks with exactly the documented keys, the budget per consent and day, the pending checks apart) and
 * the table for people (with the reasons of failed checks). The demo prints the same table.
 *
 * @since 0.1.0
 */
import { Money } from "@tppkit/core"
import { Budget } from "@tppkit/http"
import type { Checks } from "@tppkit/worker"
// the module itself, not the package: printing a status needs none of the fleet's machinery
import * as CheckFailure from "@tppkit/worker/CheckFailure"
import { BigDecimal, Option } from "effect"
import * as Render from "./Render.ts"

/** One consent's budget on one day, as the fleet's database holds it. */
export interface BudgetRow {
  /** The budget key: environment, bank, client and consent (`Budget.consentKey`). */
  readonly consentKey: string
  readonly day: string
  readonly used: number
  readonly limit: number
}

/** What `tppkit worker status` shows: the checks (finished and pending) and the budget per consent and day. */
export interface Status {
  readonly checks: ReadonlyArray<Checks.Row>
  readonly budget: ReadonlyArray<BudgetRow>
}

/** A finished check: a row with its outcome. */
export type Finished = Checks.Row & { readonly outcome: Checks.Verdict }

const isFinished = (r: Checks.Row): r is Finished => r.outcome !== undefined

/**
 * A check's amount as the tables and the JSON show it: exact, with two decimals where it has at most two (`6.9`
 * as `6.90`, `109` as `109.00`), every decimal of a longer one, never rounded; a text that is not a decimal
 * (a damaged row) is shown as it is.
 */
export const amountText = (amount: string): string =>
  Option.match(BigDecimal.fromString(amount), { onNone: () => amount, onSome: Money.formatFixed2 })

/** The payment a check is for, in the order of the documented keys. */
const paymentJson = (r: Checks.Row) => ({
  orderId: r.orderId,
  nominalDate: r.nominalDate,
  executionDate: r.executionDate,
  amount: amountText(r.amount),
  currency: r.currency,
  debtorIban: r.debtorIban
})

/**
 * One finished check as `tppkit worker status --format json` prints it, with exactly the documented keys;
 * `attempts` counts the requests sent, of which `unconfirmed` were in flight when their worker died (the bank may
 * not have seen them); `requestId` is null only when no request reached the bank.
 */
export const checkJson = (r: Finished) => ({
  ...paymentJson(r),
  outcome: r.outcome,
  attempts: r.attempts,
  unconfirmed: r.unconfirmed,
  checkedAt: r.checkedAt ?? null,
  requestId: r.requestId ?? null
})

/** A planned check without an outcome yet (waiting for its check day, or in flight), as the JSON lists it. */
export const pendingJson = (r: Checks.Row) => ({ ...paymentJson(r), attempts: r.attempts })

/** The consent of a budget key (the `--consents` key), or the whole key when it is not one of ours. */
const consentOf = (key: string): string => Budget.parseConsentKey(key)?.consent ?? key

/**
 * `tppkit worker status --format json`: `checks` holds the finished checks only, each with exactly the keys
 * `orderId`, `nominalDate`, `executionDate`, `amount`, `currency`, `debtorIban`, `outcome` (`APPR`, `DECL` or
 * `failed`), `attempts`, `unconfirmed`, `checkedAt`, `requestId`; `budget` one entry per consent and day. Only while some
 * checks are planned but not finished yet is there a third key, `pending`, listing them: once a day's checks are
 * all done the document has exactly the two documented keys.
 */
export const json = (
  status: Status
): {
  readonly checks: ReadonlyArray<ReturnType<typeof checkJson>>
  readonly budget: ReadonlyArray<{ consent: string; day: string; used: number; limit: number }>
  readonly pending?: ReadonlyArray<ReturnType<typeof pendingJson>>
} => {
  const checks = status.checks.filter(isFinished).map(checkJson)
  const budget = status.budget.map((b) => ({
    consent: consentOf(b.consentKey),
    day: b.day,
    used: b.used,
    limit: b.limit
  }))
  const pending = status.checks.filter((r) => !isFinished(r)).map(pendingJson)
  return pending.length === 0 ? { checks, budget } : { checks, budget, pending }
}

/** Why a check failed, without the request identifiers (they differ per request); rows of older versions have none. */
const reasonOf = (failure: CheckFailure.CheckFailure | undefined): string =>
  failure === undefined ? "no description" : CheckFailure.describe(failure)

/**
 * `tppkit worker status --format table`: the checks (pending ones marked so), a count by outcome, the reasons
 * of the failed checks with how many share each, and the budget per consent and day; `width` columns at most.
 */
export const table = (status: Status, width = 120): Array<string> => {
  const rows = status.checks
  const lines = Render.table(
    [
      { header: "Execution" },
      { header: "Order", flex: true },
      { header: "Nominal" },
      { header: "Amount", align: "right" },
      { header: "Cur" },
      { header: "Debtor IBAN", flex: true },
      { header: "Outcome" },
      { header: "Tries", align: "right" },
      { header: "Checked at" }
    ],
    rows.map((r) => [
      r.executionDate,
      r.orderId,
      r.nominalDate,
      amountText(r.amount),
      r.currency,
      r.debtorIban,
      r.outcome ?? "pending",
      String(r.attempts),
      r.checkedAt ?? ""
    ]),
    width
  )
  const count = (o: Checks.Verdict | undefined) => rows.filter((r) => r.outcome === o).length
  const reasons = new Map<string, number>()
  for (const r of rows)
    if (r.outcome === "failed") reasons.set(reasonOf(r.failure), (reasons.get(reasonOf(r.failure)) ?? 0) + 1)
  const repeated = rows.filter((r) => r.attempts > 1).length
  const budgetLines = Render.table(
    [
      { header: "Bank", flex: true },
      { header: "Client", flex: true },
      { header: "Consent", flex: true },
      { header: "Day" },
      { header: "Used", align: "right" },
      { header: "Limit", align: "right" }
    ],
    status.budget.map((b) => {
      const parts = Budget.parseConsentKey(b.consentKey)
      return [
        parts === undefined ? "?" : `${parts.baseUrl} (${parts.environment})`,
        parts?.clientId ?? "?",
        parts?.consent ?? b.consentKey,
        b.day,
        String(b.used),
        String(b.limit)
      ]
    }),
    width
  )
  return [
    ...lines,
    `${rows.length} checks: ${count("APPR")} APPR, ${count("DECL")} at risk (DECL), ${count("failed")} failed, ` +
      `${count(undefined)} pending; ${repeated} sent more than once`,
    ...[...reasons].map(([reason, n]) => Render.wrap(`${n} failed: ${reason}`, width, "  ", "    ").join("\n")),
    "",
    "Daily budget of unattended listings:",
    ...(status.budget.length === 0 ? ["nothing spent"] : budgetLines)
  ]
}
