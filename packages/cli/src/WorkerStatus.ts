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
import * as BankError from "@tppkit/http/BankError"
import * as FailureClass from "@tppkit/http/FailureClass"
import type { Checks, ListingReconciliation, Liveness, SweepLog, Warnings, Webhook } from "@tppkit/worker"
// the module itself, not the package: printing a status needs none of the fleet's machinery
import * as CheckFailure from "@tppkit/worker/CheckFailure"
import { BigDecimal, Option } from "effect"
import * as ListingStatus from "./internal/listingStatus.ts"
import * as Render from "./Render.ts"

/** One consent's budget on one day, as the fleet's database holds it. */
export interface BudgetRow {
  /** The budget key: environment, bank, client and consent (`Budget.consentKey`). */
  readonly consentKey: string
  readonly day: string
  readonly used: number
  readonly limit: number
  /** The bank profile the fleet's consents table names for the consent (absent: none, the worker's own). */
  readonly profile?: string | undefined
}

/**
 * What `tppkit worker status` shows: the checks (finished and pending), the budget per consent and day, and, when
 * read from a fleet's database, each day's sweep per consent, the webhook deliveries not made yet and today's date
 * in the fleet's time zone (a check failed on a transient fault is tried again until its execution date has passed).
 */
export interface Status {
  readonly checks: ReadonlyArray<Checks.Row>
  readonly budget: ReadonlyArray<BudgetRow>
  readonly sweeps?: ReadonlyArray<SweepLog.Entry> | undefined
  readonly deliveries?: ReadonlyArray<Webhook.Delivery> | undefined
  /** Whether the fleet still advances (its queue read, its sweeps going on), and the verdict on it. */
  readonly liveness?: { readonly reading: Liveness.Reading; readonly verdict: Liveness.Verdict } | undefined
  /** The fleet's webhook endpoints: one disabled (it answered 410 Gone) or with deliveries given up is shown. */
  readonly endpoints?: ReadonlyArray<Webhook.EndpointState> | undefined
  /** Today in the fleet's time zone, `YYYY-MM-DD`. */
  readonly today?: string | undefined
  /** The reconciliations of the sweeps' listings (the table shows them after the budget; the JSON keeps its keys). */
  readonly reconciliations?: ReadonlyArray<ListingReconciliation.Summary> | undefined
  /** What the fleet warns of (issue 39): payments at risk ahead, recent changes, consents near or past their end. */
  readonly warnings?: Warned | undefined
}

/** What the fleet warns of, as `tppkit worker status` reads it for a day (the latest swept, or `--day`). */
export interface Warned {
  /** The day the warnings are read for. */
  readonly day: string
  readonly atRisk: ReadonlyArray<Warnings.OpenRisk>
  /** The change feed of the week up to the day (at most the latest 200). */
  readonly changes: ReadonlyArray<Warnings.Kept>
  readonly changesSince: string
  readonly consents: ReadonlyArray<Warnings.ConsentState>
  /** The stored balances with their age on the day (calendar days). */
  readonly balances: ReadonlyArray<{ readonly iban: string; readonly date: string; readonly ageDays: number }>
  /** The age after which a balance is flagged (`--balance-max-age`, default 3). */
  readonly balanceMaxAge: number
}

/** A finished check: a row with its outcome. */
export type Finished = Checks.Row & { readonly outcome: Checks.Verdict }

const isFinished = (r: Checks.Row): r is Finished => r.outcome !== undefined

/**
 * A check's amount as the tables and the JSON show it: exact, with its currency's minor unit digits (ISO 4217, core's
 * `Money.formatMinor`: `6.9` EUR as `6.90`, `1200` JPY as `1200`), every decimal of a longer one, never rounded
 * ({@link beyondMinorUnits} says so); a text that is not a decimal (a damaged row) is shown as it is.
 */
export const amountText = (amount: string, currency: string): string =>
  Option.match(BigDecimal.fromString(amount), {
    onNone: () => amount,
    onSome: (value) => Money.formatMinor(value, currency)
  })

/** A check's amount (read once, exact) with its currency's minor unit digits, as {@link amountText} shows it. */
const checkAmount = (r: Pick<Checks.Row, "amount" | "currency">): string => Money.formatMinor(r.amount, r.currency)

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
  amount: checkAmount(r),
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

/**
 * Why a check failed in one short line: the bank client's failure without the request line (every check is the same
 * balance-check request) and without the request identifiers (they differ per request), so that checks failed for
 * the same cause share it; rows of older versions have none.
 */
const reasonOf = (failure: CheckFailure.CheckFailure | undefined): string =>
  failure === undefined
    ? "no description"
    : failure._tag === "BankError"
      ? BankError.headline({
          operation: failure.operation,
          reason: failure.reason,
          ...(failure.attempts === undefined ? {} : { attempts: failure.attempts })
        })
      : CheckFailure.describe(failure)

/** The default width of the report: it fits 100 columns. */
export const width = 100

/** An instant as `MM-DD HH:MM` in UTC (the JSON and the database keep the whole instant). */
const shortUtc = (millis: number): string => new Date(millis).toISOString().slice(5, 16).replace("T", " ")

/** An RFC 3339 UTC text as `MM-DD HH:MM`; anything else as it is. */
const shortIso = (text: string | undefined): string =>
  text === undefined ? "" : /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(text) ? text.slice(5, 16).replace("T", " ") : text

const sweepState: Record<SweepLog.State, string> = {
  running: "running",
  retrying: "retrying",
  complete: "finished",
  failed: "failed"
}

/**
 * Each day's sweep per consent: its run, state (running, retrying, finished, failed), the checks it planned, the
 * listings tried and when (finished, or the next try), then one line per failed or retrying consent with why and
 * its typed reason, and when it runs again, and one per consent whose orders wait for their details (issue 37).
 */
export const sweepsSection = (status: Status, w: number = width): Array<string> => {
  const sweeps = status.sweeps
  if (sweeps === undefined) return []
  if (sweeps.length === 0) return ["Sweeps: none recorded", ""]
  const rows = Render.table(
    [
      { header: "Day" },
      { header: "Consent", flex: true },
      { header: "Run", align: "right" },
      { header: "State" },
      { header: "Checks", align: "right" },
      { header: "Tries", align: "right" },
      { header: "When (UTC)" }
    ],
    sweeps.map((e) => [
      e.day,
      e.consent,
      String(e.run),
      sweepState[e.state] ?? e.state,
      e.state === "complete" ? String(e.planned) : "",
      String(e.tries),
      e.state === "retrying" && e.retryAt !== undefined
        ? `again ${shortUtc(e.retryAt)}`
        : e.finishedAt !== undefined
          ? shortUtc(e.finishedAt)
          : `since ${shortUtc(e.startedAt)}`
    ]),
    w
  )
  const why = sweeps.flatMap((e) => {
    const pending = e.detailsPending ?? []
    if (pending.length > 0 && e.state !== "failed" && e.state !== "retrying") {
      const named = pending.slice(0, 10).join(", ")
      return Render.wrap(
        `${e.day} ${e.consent}: ${pending.length} order(s) not planned, their details pending (the list names no start): ${named}${pending.length > 10 ? ", …" : ""}; read within a later day's budget`,
        w,
        "  ",
        "    "
      )
    }
    if (e.state !== "failed" && e.state !== "retrying") return []
    const reason = e.reason === undefined ? "" : ` (${e.reason})`
    const next =
      e.state === "failed"
        ? (e.cause ?? "").includes("runs again")
          ? ""
          : "; runs again when a worker starts or at the next sweep hour"
        : e.retryAt === undefined
          ? ""
          : `; tried again at ${new Date(e.retryAt).toISOString().replace(/\.\d{3}Z$/, "Z")}`
    return Render.wrap(
      `${e.day} ${e.consent}: ${e.state}${reason}: ${e.cause ?? "no description"}${next}`,
      w,
      "  ",
      "    "
    )
  })
  return ["Sweeps by day and consent:", ...rows, ...why, ""]
}

/**
 * The checks, one line each (pending ones marked), with the amount and its currency, the nominal date (`MM-DD`)
 * when the payment moved from it, the requests sent and when the answer came (`MM-DD HH:MM` UTC); a count by outcome; the reasons of the failed
 * checks with how many share each.
 */
export const checksSection = (status: Status, w: number = width): Array<string> => {
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
export const failedSection = (status: Status, w: number = width): Array<string> => {
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

/** The budget of unattended listings per bank, client, consent and day. */
export const budgetSection = (status: Status, w: number = width): Array<string> => {
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
        `${parts?.consent ?? b.consentKey}${b.profile === undefined ? "" : ` (${b.profile})`}`,
        b.day,
        String(b.used),
        String(b.limit)
      ]
    }),
    w
  )
  return ["", "Daily budget of unattended listings:", ...(status.budget.length === 0 ? ["nothing spent"] : budgetLines)]
}

/**
 * The webhook endpoints disabled (they answered 410 Gone) or with deliveries given up, each with the way out, and the
 * deliveries not made yet: event, endpoint, attempts, the next try and the last error.
 */
export const deliveriesSection = (status: Status, w: number = width): Array<string> => {
  const deliveries = status.deliveries ?? []
  const endpoints = (status.endpoints ?? []).filter((e) => e.disabledAt !== undefined || e.failed > 0)
  const endpointLines = endpoints.flatMap((e) =>
    Render.wrap(
      (e.disabledAt === undefined
        ? `Webhook endpoint ${e.endpoint}: `
        : `Webhook endpoint ${e.endpoint} disabled since ${shortUtc(e.disabledAt)} UTC` +
          `${e.disabledReason === undefined ? "" : ` (${e.disabledReason})`}; tppkit webhook enable URL turns it back on; `) +
        `${e.failed} ${e.failed === 1 ? "delivery" : "deliveries"} given up, tppkit webhook replay --since D sends them again`,
      w,
      "",
      "  "
    )
  )
  return [
    ...(endpointLines.length === 0 ? [] : ["", ...endpointLines]),
    ...(deliveries.length === 0
      ? []
      : [
          "",
          `Webhook deliveries not made yet (${deliveries.length}${deliveries.length >= 50 ? " or more" : ""}):`,
          ...deliveries.flatMap((d) =>
            Render.wrap(
              `${d.type} ${d.eventId} to ${d.endpoint}: ${d.attempts} attempts, next ${shortUtc(d.nextAt)} UTC` +
                (d.lastError === undefined ? "" : `; last: ${d.lastError}`),
              w,
              "  ",
              "    "
            )
          )
        ])
  ]
}

/**
 * Whether the fleet still advances, one line (wrapped to the width): `live` with the queue and the runners, `stopped`
 * (no healthy runner), or `stalled` since when and why (`Liveness.verdict`).
 */
export const livenessSection = (status: Status, w: number = width): Array<string> => {
  const liveness = status.liveness
  if (liveness === undefined) return []
  const { reading, verdict } = liveness
  const waiting = `${reading.unread} due ${reading.unread === 1 ? "request waits" : "requests wait"} unread`
  const swept = reading.lastSweepAt === undefined ? "no sweep yet" : `last sweep ${shortUtc(reading.lastSweepAt)} UTC`
  const text =
    verdict.state === "stalled"
      ? `Fleet: stalled since ${shortUtc(verdict.since)} UTC: ${verdict.reason}`
      : verdict.state === "stopped"
        ? `Fleet: stopped: no runner is healthy; ${waiting}; ${swept}`
        : `Fleet: live: ${reading.runners} ${reading.runners === 1 ? "runner" : "runners"} healthy, ${waiting}; ${swept}`
  return ["", ...Render.wrap(text, w, "", "  ")]
}

const isoOrNull = (millis: number | undefined): string | null =>
  millis === undefined ? null : new Date(millis).toISOString()

/**
 * The JSON of whether the fleet still advances and of its webhook endpoints, for `--format json` beside
 * {@link json}: `fleet` (`state` live, stopped or stalled, with `what`, `since` and `reason` when stalled; the queue's
 * due unread requests and the oldest's time, the healthy runners, the last sweep) and `webhookEndpoints` (each
 * endpoint, disabled since when and why, its deliveries given up); each key only when the status read it.
 */
export const fleetJson = (status: Status) => {
  const liveness = status.liveness
  const endpoints = status.endpoints
  return {
    ...(liveness === undefined
      ? {}
      : {
          fleet: {
            state: liveness.verdict.state,
            ...(liveness.verdict.state === "stalled"
              ? {
                  what: liveness.verdict.what,
                  since: new Date(liveness.verdict.since).toISOString(),
                  reason: liveness.verdict.reason
                }
              : {}),
            unread: liveness.reading.unread,
            oldestUnreadAt: isoOrNull(liveness.reading.oldestUnreadAt),
            runners: liveness.reading.runners,
            lastSweepAt: isoOrNull(liveness.reading.lastSweepAt)
          }
        }),
    ...(endpoints === undefined
      ? {}
      : {
          webhookEndpoints: endpoints.map((e) => ({
            endpoint: e.endpoint,
            disabledAt: isoOrNull(e.disabledAt),
            disabledReason: e.disabledReason ?? null,
            failed: e.failed
          }))
        })
  }
}

/** The days from `day` to `end` (negative when `end` is before), or undefined when either is no date. */
const daysBetween = (day: string, end: string): number | undefined => {
  const a = Date.parse(`${day}T00:00:00Z`)
  const b = Date.parse(`${end}T00:00:00Z`)
  return Number.isNaN(a) || Number.isNaN(b) ? undefined : Math.round((b - a) / 86_400_000)
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`

/** The consents to name: those the bank said are over, and those within 14 days of their end on the day. */
const consentsToName = (w: Warned) =>
  w.consents.filter((c) => {
    if (c.expired !== undefined) return true
    const left = c.validUntil === undefined ? undefined : daysBetween(w.day, c.validUntil)
    return left !== undefined && left <= 14
  })

const staleBalances = (w: Warned) => w.balances.filter((b) => b.ageDays > w.balanceMaxAge)

/**
 * What the fleet warns of (issue 39), each part only when it has something to say: the payments at risk ahead (day,
 * order, amount, account, the day's closing and why, the lowest point, the balance's age, the check's answer once
 * there is one), the standing orders changed in the week up to the day, the consents near or past their end, and
 * the balances older than `--balance-max-age`.
 */
export const warningsSection = (status: Status, w: number = width): Array<string> => {
  const warned = status.warnings
  if (warned === undefined) return []
  const out: Array<string> = []
  if (warned.atRisk.length > 0) {
    out.push("", `Payments at risk ahead of ${warned.day} (${warned.atRisk.length}):`)
    for (const { risk, answer } of warned.atRisk) {
      out.push(
        ...Render.wrap(
          `${risk.executionDate} ${risk.orderId} ${amountText(risk.amount, risk.currency)} ${risk.currency} from ${risk.iban}: ` +
            `closing ${amountText(risk.closing, risk.currency)} (${risk.reason === "zero" ? "at or below zero" : `below ${amountText(risk.threshold ?? "0", risk.currency)}`}), ` +
            `lowest ${amountText(risk.lowest.amount, risk.currency)} on ${risk.lowest.date}; balance of ${risk.balanceDate}, ` +
            `${plural(daysBetween(risk.balanceDate, warned.day) ?? risk.balanceAgeDays, "day")} old` +
            (answer === undefined ? "" : `; check: ${answer}`),
          w,
          "  ",
          "    "
        )
      )
    }
  }
  if (warned.changes.length > 0) {
    out.push("", `Standing orders changed since ${warned.changesSince} (${warned.changes.length}):`)
    for (const c of warned.changes.slice(-20)) {
      const what = String(c.type).replace("standing_order.", "")
      const d = c.data
      const detail =
        c.type === "standing_order.changed"
          ? ((d.changes ?? []) as ReadonlyArray<{ field: string; before: string | null; after: string | null }>)
              .map((x) => `${x.field} ${x.before ?? "none"} -> ${x.after ?? "none"}`)
              .join("; ")
          : c.type === "standing_order.next_date_moved"
            ? `next ${d.before ?? "none"} -> ${d.after} (engine ${d.engine ?? "ended"})`
            : `${d.amount} ${d.currency} ${d.schedule}`
      out.push(...Render.wrap(`${c.day} ${c.consent ?? "-"} ${what} ${d.orderId}: ${detail}`, w, "  ", "    "))
    }
    if (warned.changes.length > 20) {
      out.push(`  … ${warned.changes.length - 20} more: tppkit changes --since ${warned.changesSince}`)
    }
  }
  const consents = consentsToName(warned)
  if (consents.length > 0) {
    out.push("", "Consents:")
    for (const c of consents) {
      const left = c.validUntil === undefined ? undefined : daysBetween(warned.day, c.validUntil)
      out.push(
        ...Render.wrap(
          c.expired !== undefined
            ? `${c.key}: expired (the bank answered ${c.expired.code} on ${c.expired.day}): not swept, no budget spent on it, until a new consent is added (tppkit consents add)`
            : `${c.key}: valid until ${c.validUntil}, ${left !== undefined && left < 0 ? "past its end" : `${plural(left ?? 0, "day")} left`}; renew it before then`,
          w,
          "  ",
          "    "
        )
      )
    }
  }
  const stale = staleBalances(warned)
  if (stale.length > 0) {
    out.push(
      "",
      ...Render.wrap(
        `Balances older than ${plural(warned.balanceMaxAge, "day")} on ${warned.day} (--balance-max-age): ` +
          stale
            .slice(0, 5)
            .map((b) => `${b.iban} of ${b.date} (${plural(b.ageDays, "day")})`)
            .join(", ") +
          (stale.length > 5 ? `, and ${stale.length - 5} more` : "") +
          "; the forecast ahead stands on them: give the workers newer ones (--balances FILE --reconfigure)",
        w,
        "",
        "  "
      )
    )
  }
  return out
}

/**
 * The JSON of the warnings for `--format json` (key `warnings`), only when there is something to warn of: `day`,
 * `atRisk` (each payment raised at risk and not cleared, with its event's `id` and the check's `answer` or null),
 * `changes` (the change feed's events of the week), `consents` (near or past their end) and `staleBalances`.
 */
export const warningsJson = (status: Status) => {
  const warned = status.warnings
  if (warned === undefined) return {}
  const consents = consentsToName(warned)
  const stale = staleBalances(warned)
  if (warned.atRisk.length + warned.changes.length + consents.length + stale.length === 0) return {}
  return {
    warnings: {
      day: warned.day,
      atRisk: warned.atRisk.map((r) => ({ id: r.id, ...r.risk, raisedDay: r.raisedDay, answer: r.answer ?? null })),
      changes: warned.changes.map((c) => ({ id: c.id, type: c.type, day: c.day, consent: c.consent, ...c.data })),
      consents: consents.map((c) => ({
        consent: c.key,
        validUntil: c.validUntil ?? null,
        expired: c.expired === undefined ? null : c.expired
      })),
      staleBalances: stale,
      balanceMaxAge: warned.balanceMaxAge
    }
  }
}

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
