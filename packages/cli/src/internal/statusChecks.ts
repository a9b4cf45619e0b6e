/**
 * The checks of `tppkit worker status` for people: the table of the day's checks with their counts, and each check
 * without an answer with where it stands (refused, retrying, gave up, unanswered) and its typed reason.
 */
import { LocalDate } from "@tppkit/core"
import * as FailureClass from "@tppkit/http/FailureClass"
import type { Checks, FleetStatus } from "@tppkit/worker"
import * as CheckFailure from "@tppkit/worker/CheckFailure"
import * as Render from "../Render.ts"
import { checkAmount, reasonOf, shortIso, width } from "./statusText.ts"

/**
 * The checks, one line each (pending ones marked), with the amount and its currency, the nominal date (`MM-DD`)
 * when the payment moved from it, the requests sent and when the answer came (`MM-DD HH:MM` UTC); a count by outcome; the reasons of the failed
 * checks with how many share each.
 */
export const checksSection = (status: FleetStatus.Status, w: number = width): Array<string> => {
  const rows = status.checks
  // the nominal date only where the payment moved from it (a weekend, a holiday: a few days back, so `MM-DD`
  // names it), and the column only when some payment moved
  const moved = rows.some((r) => r.nominalDate !== r.executionDate)
  const lines = Render.table(
    [
      { header: "Execution" },
      { header: "Order", flex: true },
      ...(moved ? [{ header: "Moved" }] : []),
      { header: "Amount", align: "right" },
      { header: "Cur" },
      { header: "Debtor IBAN", flex: true },
      { header: "Outcome" },
      { header: "Sent", align: "right" },
      { header: "Checked UTC" }
    ],
    rows.map((r) => [
      LocalDate.format(r.executionDate),
      r.orderId,
      ...(moved ? [r.nominalDate === r.executionDate ? "" : LocalDate.format(r.nominalDate).slice(5)] : []),
      checkAmount(r),
      r.currency,
      r.debtorIban,
      r.outcome ?? "pending",
      String(r.attempts),
      shortIso(r.checkedAt)
    ]),
    w
  )
  const count = (o: Checks.Verdict | undefined) => rows.filter((r) => r.outcome === o).length
  const reasons = new Map<string, number>()
  for (const r of rows)
    if (r.outcome === "failed") reasons.set(reasonOf(r.failure), (reasons.get(reasonOf(r.failure)) ?? 0) + 1)
  const repeated = rows.filter((r) => r.attempts > 1).length
  return [
    ...lines,
    `${rows.length} checks: ${count("APPR")} APPR, ${count("DECL")} at risk (DECL), ${count("failed")} failed, ` +
      `${count(undefined)} pending; ${repeated} sent more than once`,
    ...[...reasons].flatMap(([reason, n]) => Render.wrap(`${n} failed: ${reason}`, w, "  ", "    "))
  ]
}

/**
 * Where a failed check stands: `refused` (a final answer: never tried again), `retrying` (a transient fault, tried
 * again until its execution date has passed), `gave up` (a transient fault past its execution date) or
 * `unanswered` (any other failure: not tried again by itself).
 */
export const failedState = (row: Checks.Row, today: string | undefined): string => {
  const failure = row.failure
  if (CheckFailure.isFinal(failure)) return "refused"
  if (failure?._tag === "BankError" && FailureClass.isTransient(failure.reason)) {
    return today === undefined || LocalDate.format(row.executionDate) >= today ? "retrying" : "gave up"
  }
  return "unanswered"
}

/**
 * Each check without an answer, one entry each: the payment, where it stands ({@link failedState}), its typed
 * reason (the failure's class and reason tag) and the failure's line.
 */
export const failedSection = (status: FleetStatus.Status, w: number = width): Array<string> => {
  const failed = status.checks.filter((r) => r.outcome === "failed")
  if (failed.length === 0) return []
  return [
    "",
    "Checks without an answer:",
    ...failed.flatMap((r) => {
      const typed =
        r.failure === undefined
          ? "no recorded reason"
          : `${CheckFailure.classify(r.failure)}/${CheckFailure.reasonTag(r.failure)}`
      return Render.wrap(
        `${LocalDate.format(r.executionDate)} ${r.orderId} ${checkAmount(r)} ${r.currency} ${r.debtorIban}: ` +
          `${failedState(r, status.today)} (${typed}, ${r.attempts} sent): ${reasonOf(r.failure)}`,
        w,
        "  ",
        "    "
      )
    })
  ]
}
