/**
 * What `tppkit worker status` prints, as pure functions of the fleet's records: the JSON document (finished checks
 * with exactly the documented keys, the budget per consent and day, the pending checks apart) and the report for
 * people, {@link table}, made of sections one after the other (each a function of the status and the width: the
 * sweeps per day and consent, the checks, the checks without an answer with their typed reasons, the budget, the
 * webhook deliveries not made yet); a new section is one more function in {@link sections}. Every line fits the
 * width (100 columns by default).
 *
 * @since 0.1.0
 */
import { LocalDate, Money } from "@tppkit/core"
import { Budget } from "@tppkit/http"
import type { Checks, FleetStatus } from "@tppkit/worker"
import * as ListingStatus from "./internal/listingStatus.ts"
import * as StatusChecks from "./internal/statusChecks.ts"
import * as StatusFleet from "./internal/statusFleet.ts"
import * as StatusText from "./internal/statusText.ts"
import * as StatusWarnings from "./internal/statusWarnings.ts"
import * as Render from "./Render.ts"

/** What `tppkit worker status` shows: the fleet's status as worker's `FleetStatus.read` reads it. */
export type Status = FleetStatus.Status

/** A finished check: a row with its outcome. */
export type Finished = Checks.Row & { readonly outcome: Checks.Verdict }

const isFinished = (r: Checks.Row): r is Finished => r.outcome !== undefined

/**
 * A check's amount as the tables and the JSON show it: exact, with its currency's minor unit digits (ISO 4217, core's
 * `Money.formatMinor`: `6.9` EUR as `6.90`, `1200` JPY as `1200`), every decimal of a longer one, never rounded
 * ({@link beyondMinorUnits} says so); a text that is not a decimal (a damaged row) is shown as it is.
 */
export const amountText: (amount: string, currency: string) => string = StatusText.amountText

/**
 * A warning for each check whose amount has more decimals than its currency's minor unit (`100.5` JPY): printed whole,
 * never rounded (`Render.beyondMinorUnit`'s words), once per order and amount.
 */
export const beyondMinorUnits = (
  status: Pick<Status, "checks">
): Array<{ readonly orderId: string; readonly reason: string }> => {
  const out: Array<{ readonly orderId: string; readonly reason: string }> = []
  const seen = new Set<string>()
  for (const r of status.checks) {
    const reason = Render.beyondMinorUnit(r.amount, r.currency)
    const key = `${r.orderId}\u0000${Money.toPlainString(r.amount)}\u0000${r.currency}`
    if (reason === undefined || seen.has(key)) continue
    seen.add(key)
    out.push({ orderId: r.orderId, reason })
  }
  return out
}

/** The payment a check is for, in the order of the documented keys. */
const paymentJson = (r: Checks.Row) => ({
  orderId: r.orderId,
  nominalDate: LocalDate.format(r.nominalDate),
  executionDate: LocalDate.format(r.executionDate),
  amount: StatusText.checkAmount(r),
  currency: r.currency,
  debtorIban: r.debtorIban,
  // a check planned from an earlier day's listing (its page could not be read on the sweep's day) says which
  ...(r.listedOn === undefined ? {} : { listedOn: LocalDate.format(r.listedOn) })
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
 * `failed`), `attempts`, `unconfirmed`, `checkedAt`, `requestId`; `budget` one entry per consent and day (with the
 * consent's bank `profile` when the fleet's consents name one). Only while some
 * checks are planned but not finished yet is there a third key, `pending`, listing them: once a day's checks are
 * all done the document has exactly the two documented keys.
 */
export const json = (
  status: Status
): {
  readonly checks: ReadonlyArray<ReturnType<typeof checkJson>>
  readonly budget: ReadonlyArray<{ consent: string; day: string; used: number; limit: number; profile?: string }>
  readonly pending?: ReadonlyArray<ReturnType<typeof pendingJson>>
} => {
  const checks = status.checks.filter(isFinished).map(checkJson)
  const budget = status.budget.map((b) => ({
    consent: consentOf(b.consentKey),
    day: b.day,
    used: b.used,
    limit: b.limit,
    ...(b.profile === undefined ? {} : { profile: b.profile })
  }))
  const pending = status.checks.filter((r) => !isFinished(r)).map(pendingJson)
  return pending.length === 0 ? { checks, budget } : { checks, budget, pending }
}

/** The default width of the report: it fits 100 columns. */
export const width: number = StatusText.width

/**
 * Each day's sweep per consent: its run, state (running, retrying, finished, failed), the checks it planned, the
 * listings tried and when; then why a consent failed or is retrying.
 */
export const sweepsSection: (status: Status, w?: number) => Array<string> = StatusFleet.sweepsSection

/** The day's checks as a table with their counts, and the reasons of those that failed. */
export const checksSection: (status: Status, w?: number) => Array<string> = StatusChecks.checksSection

/**
 * Where a failed check stands: `refused` (a final answer: never tried again), `retrying` (a transient fault, tried
 * again until its execution date has passed), `gave up` (a transient fault past its execution date) or
 * `unanswered` (any other failure: not tried again by itself).
 */
export const failedState: (row: Checks.Row, today: string | undefined) => string = StatusChecks.failedState

/** Each check without an answer: the payment, where it stands, its typed reason and the failure's line. */
export const failedSection: (status: Status, w?: number) => Array<string> = StatusChecks.failedSection

/** The budget of unattended listings per bank, client, consent and day. */
export const budgetSection: (status: Status, w?: number) => Array<string> = StatusFleet.budgetSection

/** The webhook deliveries not made yet, and the endpoints disabled or with deliveries given up. */
export const deliveriesSection: (status: Status, w?: number) => Array<string> = StatusFleet.deliveriesSection

/** Whether the fleet still reads its queue and its sweeps advance: live, stopped or stalled. */
export const livenessSection: (status: Status, w?: number) => Array<string> = StatusFleet.livenessSection

/**
 * The JSON of whether the fleet still advances and of its webhook endpoints, for `--format json` beside
 * {@link json}: `fleet` and `webhookEndpoints`, each key only when the status read it.
 */
export const fleetJson: (status: Status) => ReturnType<typeof StatusFleet.fleetJson> = StatusFleet.fleetJson

/** What the fleet warns of: payments at risk ahead, the week's changes, consents near their end, old balances. */
export const warningsSection: (status: Status, w?: number) => Array<string> = StatusWarnings.warningsSection

/**
 * The JSON of the warnings for `--format json` (key `warnings`), only when there is something to warn of: `day`,
 * `atRisk`, `changes`, `consents` and `staleBalances`.
 */
export const warningsJson: (status: Status) => ReturnType<typeof StatusWarnings.warningsJson> =
  StatusWarnings.warningsJson

/** The report's sections, in order; each is a function of the status and the width. */
export const sections: ReadonlyArray<(status: Status, width: number) => Array<string>> = [
  sweepsSection,
  checksSection,
  failedSection,
  budgetSection,
  (status, w) => ListingStatus.lines(status.reconciliations ?? [], w),
  warningsSection,
  deliveriesSection,
  livenessSection
]

/**
 * `tppkit worker status --format table`: every section of {@link sections}, each line at most `w` columns
 * (default {@link width}, 100).
 */
export const table = (status: Status, w: number = width): Array<string> =>
  sections.flatMap((section) => section(status, w))
