/**
 * The fleet's status as its database holds it, read in one go ({@link read}): the checks (every day's, or those the
 * sweep of one day planned), the budget of unattended listings per consent and day (with each consent's bank profile
 * and its daily limit), each day's sweep per consent, the webhook deliveries not made yet and the endpoints, whether
 * the fleet still advances, today in the fleet's time zone, the reconciliations of the sweeps' listings, what the
 * fleet warns of, and the opening balances stored with the plan settings. `tppkit worker status` prints it.
 *
 * @since 0.1.0
 */
import { LocalDate, Profile } from "@tppkit/core"
import { Budget } from "@tppkit/http"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import * as AtRisk from "./AtRisk.ts"
import { Checks, type Row } from "./Checks.ts"
import * as Consents from "./Consents.ts"
import * as ListingReconciliation from "./ListingReconciliation.ts"
import * as Liveness from "./Liveness.ts"
import * as PlanSettings from "./PlanSettings.ts"
import * as SweepLog from "./SweepLog.ts"
import * as Warnings from "./Warnings.ts"
import * as Webhook from "./Webhook.ts"

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
 * The fleet's status: the checks (finished and pending), the budget per consent and day, and, when read from a
 * fleet's database, each day's sweep per consent, the webhook deliveries not made yet and today's date in the fleet's
 * time zone (a check failed on a transient fault is tried again until its execution date has passed).
 */
export interface Status {
  readonly checks: ReadonlyArray<Row>
  readonly budget: ReadonlyArray<BudgetRow>
  readonly sweeps?: ReadonlyArray<SweepLog.Entry> | undefined
  readonly deliveries?: ReadonlyArray<Webhook.Delivery> | undefined
  /** Whether the fleet still advances (its queue read, its sweeps going on), and the verdict on it. */
  readonly liveness?: { readonly reading: Liveness.Reading; readonly verdict: Liveness.Verdict } | undefined
  /** The fleet's webhook endpoints: one disabled (it answered 410 Gone) or with deliveries given up is shown. */
  readonly endpoints?: ReadonlyArray<Webhook.EndpointState> | undefined
  /** Today in the fleet's time zone, `YYYY-MM-DD`. */
  readonly today?: string | undefined
  /** The reconciliations of the sweeps' listings. */
  readonly reconciliations?: ReadonlyArray<ListingReconciliation.Summary> | undefined
  /** What the fleet warns of (issue 39): payments at risk ahead, recent changes, consents near or past their end. */
  readonly warnings?: Warned | undefined
  /** The opening balances the fleet's workers were started with (`tppkit worker --balances`), if any. */
  readonly balances?: ReadonlyArray<PlanSettings.Balance> | undefined
}

/** What the fleet warns of, as read for a day (the latest swept, or the day asked for). */
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
  /** The age after which a balance is flagged (`tppkit worker status --balance-max-age`, default 3). */
  readonly balanceMaxAge: number
}

/**
 * The status in the fleet's database: every check (or those planned by the sweep of `day`), the budget (each
 * consent's limit its profile's, else `limit`), the sweep record, the webhook deliveries not made yet, today in the
 * fleet's time zone (its plan settings', or the bank's), the reconciliations of the sweeps' listings, the warnings of
 * `day` (else of the latest day swept, else of today; balances older than `balanceMaxAge` days flagged) and the
 * opening balances stored with the plan settings.
 */
export const read = (day: Option.Option<string>, limit: number, balanceMaxAge: number = AtRisk.defaultBalanceMaxAge) =>
  Effect.gen(function* () {
    const checks = yield* Checks
    const sql = yield* SqlClient.SqlClient
    const rows = yield* checks.list(Option.isSome(day) ? { sweepDay: day.value } : {})
    const budget = yield* Option.isSome(day)
      ? sql<{ consent_key: string; day: string; used: number }>`SELECT consent_key, day, used FROM tppkit_budget
          WHERE day = ${day.value} ORDER BY day, consent_key`
      : sql<{ consent_key: string; day: string; used: number }>`SELECT consent_key, day, used FROM tppkit_budget
          ORDER BY day, consent_key`
    // each consent's bank profile, when the fleet's consents name one: its budget shows it, with its daily limit
    const profiles = new Map((yield* Consents.list).map((c) => [c.key, c.profile]))
    const sweeps = yield* SweepLog.list(Option.getOrUndefined(day))
    const deliveries = yield* Webhook.outstanding()
    const endpoints = yield* Webhook.endpoints
    const reading = yield* Liveness.read
    const reconciliations = yield* ListingReconciliation.list(Option.getOrUndefined(day))
    const plan = yield* PlanSettings.stored
    const timeZone = Option.isSome(plan) ? plan.value.settings.timeZone : LocalDate.bankTimeZone
    const today = Option.liftThrowable(() => LocalDate.format(LocalDate.ofInstant(Date.now(), timeZone)))()
    // the warnings of the day asked for, else of the latest day swept, else of today
    const [latest] = yield* sql<{ day: string | null }>`SELECT max(day) AS day FROM tppkit_sweep_log`
    const warnDay = Option.getOrUndefined(day) ?? latest?.day ?? Option.getOrUndefined(today) ?? "0000-01-01"
    const changesSince = LocalDate.format(LocalDate.addDays(LocalDate.parseUnsafe(warnDay), -6))
    const changes = (yield* Warnings.changes(changesSince)).filter((c) => c.day <= warnDay).slice(-200)
    const storedBalances = Option.isSome(plan) ? (plan.value.settings.balances ?? []) : []
    return {
      checks: rows,
      budget: budget.map((b) => {
        const profile = profiles.get(Budget.parseConsentKey(b.consent_key)?.consent ?? b.consent_key)
        const own = profile === undefined ? undefined : Profile.builtIns.get(profile)?.unattended.dailyLimit
        return {
          consentKey: b.consent_key,
          day: b.day,
          used: Number(b.used),
          limit: own ?? limit,
          ...(profile === undefined ? {} : { profile })
        }
      }),
      sweeps,
      deliveries,
      endpoints,
      liveness: { reading, verdict: Liveness.verdict(reading) },
      today: Option.getOrUndefined(today),
      reconciliations,
      warnings: {
        day: warnDay,
        atRisk: yield* Warnings.openRisks(warnDay),
        changes,
        changesSince,
        consents: yield* Warnings.consentStates,
        balances: storedBalances.map((b) => ({ iban: b.iban, date: b.date, ageDays: AtRisk.ageDays(b.date, warnDay) })),
        balanceMaxAge
      },
      // the opening balances the fleet's workers were started with (`--balances`), for the status's forecast
      balances: Option.isSome(plan) ? plan.value.settings.balances : undefined
    } satisfies Status
  })
