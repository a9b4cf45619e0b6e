/**
 * The bank's own dates checked on every listing the daily sweep makes: each consent's listing reconciled on the
 * sweep's day against the rule the fleet projects with (schedule's `Reconciliation`), and its counts (matched,
 * explained, stale, anomalies, unexplained) with the rule the evidence points to kept in the fleet's database, where
 * `tppkit worker status` shows them (docs/bank-interface.md, "The bank's date rule"). Recording never holds up a
 * sweep: without a recorder ({@link layerSql}) nothing is kept, and a database away for long is given up on.
 *
 * @since 0.1.0
 */
import { BankRule, type BusinessDayConvention, type Calendar, type LocalDate } from "@tppkit/core"
import { Reconciliation } from "@tppkit/schedule"
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import * as DatabaseRetry from "./internal/databaseRetry.ts"

/** One consent's listing of one sweep day, reconciled. */
export interface Summary {
  /** The sweep's day, which is the listing day the dates are compared on. */
  readonly day: string
  readonly consent: string
  /** The rule the fleet projects with (`following · target`). */
  readonly ruleInUse: string
  readonly match: number
  readonly explained: number
  readonly stale: number
  readonly anomaly: number
  readonly unexplained: number
  /** Listed orders without a `nextDate` (nothing to compare). */
  readonly withoutNextDate: number
  /** Listed orders the engine cannot plan. */
  readonly skipped: number
  /** The rule the evidence points to (`BankRule.describe`), or `undefined` when it does not separate the best. */
  readonly inferred: string | undefined
  /** With too little evidence: the rules tied for the most dates explained. */
  readonly tied: ReadonlyArray<string>
  /** How many of the `evidence` dates (those not stale) the inferred or tied rules explain. */
  readonly support: number
  readonly evidence: number
  /** An anomaly, an unexplained date, or differences no one rule explains (`Reconciliation.hasFindings`). */
  readonly findings: boolean
  /**
   * The orderIds the listing gives in more than one record, each with how many: the fleet checks each record's
   * payments on its own, as `ID#1` … `ID#N` (`Sweep.keyed`). Absent: none.
   */
  readonly repeated?: ReadonlyArray<{ readonly orderId: string; readonly records: number }> | undefined
}

/** What the sweep reads of a listed order: core's `StandingOrder` and schedule's `ProjectableOrder` are such. */
export interface ListedOrder extends Reconciliation.ReconcilableOrder {}

/**
 * A listing reconciled on the sweep's `day` against the fleet's calendar and convention (pure): the counts and the
 * inferred rule of `Reconciliation.reconcile` over the default candidates.
 */
export const summarize = (
  orders: Iterable<ListedOrder>,
  consent: string,
  day: LocalDate.LocalDate,
  settings: {
    readonly calendar: Calendar.Calendar
    readonly convention?: BusinessDayConvention.BusinessDayConvention | undefined
  },
  dayText: string
): Summary => {
  const rule = BankRule.make({
    calendar: settings.calendar,
    ...(settings.convention === undefined ? {} : { convention: settings.convention })
  })
  const r = Reconciliation.reconcile(orders, { asOf: day, rule })
  const inference = r.inference
  return {
    day: dayText,
    consent,
    ruleInUse: BankRule.describe(rule),
    match: r.counts.match,
    explained: r.counts.explained,
    stale: r.counts.stale,
    anomaly: r.counts.anomaly,
    unexplained: r.counts.unexplained,
    withoutNextDate: r.withoutNextDate.length,
    skipped: r.skipped.length,
    inferred: inference._tag === "Inferred" ? BankRule.describe(inference.rule) : undefined,
    tied: inference._tag === "Inferred" ? [] : inference.tied.map(BankRule.describe),
    support: inference.support,
    evidence: inference.evidence,
    findings: Reconciliation.hasFindings(r)
  }
}

/** Where the sweep's reconciliations go: nowhere by default, the fleet's database with {@link layerSql}. */
export const Recorder = Context.Reference<(summary: Summary) => Effect.Effect<void>>(
  "@tppkit/worker/ListingReconciliation/Recorder",
  { defaultValue: () => () => Effect.void }
)

/** Hands a listing's reconciliation to the recorder in use. */
export const record = (summary: Summary): Effect.Effect<void> =>
  Effect.flatMap(Recorder, (recorder) => recorder(summary))

/** The DDL of the reconciliations' table (idempotent): one row per sweep day and consent, the latest listing's. */
export const ddl: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS tppkit_listing_reconciliation (
    day text NOT NULL, consent text NOT NULL, rule_in_use text NOT NULL,
    matched integer NOT NULL, explained integer NOT NULL, stale integer NOT NULL, anomaly integer NOT NULL,
    unexplained integer NOT NULL, without_next_date integer NOT NULL, skipped integer NOT NULL,
    inferred text, tied text NOT NULL, support integer NOT NULL, evidence integer NOT NULL, findings boolean NOT NULL,
    PRIMARY KEY (day, consent))`,
  "ALTER TABLE tppkit_listing_reconciliation ADD COLUMN IF NOT EXISTS repeated text"
]

/** Writes a reconciliation, replacing the one of an earlier listing of the same day and consent. */
const write = (s: Summary): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) =>
    sql`INSERT INTO tppkit_listing_reconciliation (day, consent, rule_in_use, matched, explained, stale, anomaly,
        unexplained, without_next_date, skipped, inferred, tied, support, evidence, findings, repeated)
      VALUES (${s.day}, ${s.consent}, ${s.ruleInUse}, ${s.match}, ${s.explained}, ${s.stale}, ${s.anomaly},
        ${s.unexplained}, ${s.withoutNextDate}, ${s.skipped}, ${s.inferred ?? null}, ${JSON.stringify(s.tied)},
        ${s.support}, ${s.evidence}, ${s.findings},
        ${s.repeated === undefined || s.repeated.length === 0 ? null : JSON.stringify(s.repeated)})
      ON CONFLICT (day, consent) DO UPDATE SET rule_in_use = EXCLUDED.rule_in_use, matched = EXCLUDED.matched,
        explained = EXCLUDED.explained, stale = EXCLUDED.stale, anomaly = EXCLUDED.anomaly,
        unexplained = EXCLUDED.unexplained, without_next_date = EXCLUDED.without_next_date,
        skipped = EXCLUDED.skipped, inferred = EXCLUDED.inferred, tied = EXCLUDED.tied, support = EXCLUDED.support,
        evidence = EXCLUDED.evidence, findings = EXCLUDED.findings, repeated = EXCLUDED.repeated`.pipe(Effect.asVoid)
  )

/**
 * The recorder that keeps each reconciliation in the fleet's database (the `SqlClient` of the layer's context); the
 * database away for a moment is waited out for up to a minute, then the row is skipped.
 */
export const layerSql: Layer.Layer<never, never, SqlClient.SqlClient> = Layer.effect(
  Recorder,
  Effect.map(
    Effect.service(SqlClient.SqlClient),
    (sql) => (summary: Summary) =>
      write(summary).pipe(
        Effect.provideService(SqlClient.SqlClient, sql),
        Effect.retry({ schedule: DatabaseRetry.journalForAMinute }),
        Effect.ignore
      )
  )
)

const number = (v: unknown): number => Number(v ?? 0)

/** A row of the table as a summary. */
const summaryOf = (r: Record<string, unknown>): Summary => {
  let tied: ReadonlyArray<string> = []
  try {
    const parsed: unknown = JSON.parse(String(r.tied ?? "[]"))
    if (Array.isArray(parsed)) tied = parsed.map(String)
  } catch {
    tied = []
  }
  let repeated: Array<{ readonly orderId: string; readonly records: number }> = []
  try {
    const parsed: unknown = JSON.parse(String(r.repeated ?? "[]"))
    if (Array.isArray(parsed))
      repeated = parsed.map((x: { orderId?: unknown; records?: unknown }) => ({
        orderId: String(x?.orderId),
        records: Number(x?.records)
      }))
  } catch {
    repeated = []
  }
  return {
    ...(repeated.length === 0 ? {} : { repeated }),
    day: String(r.day),
    consent: String(r.consent),
    ruleInUse: String(r.rule_in_use),
    match: number(r.matched),
    explained: number(r.explained),
    stale: number(r.stale),
    anomaly: number(r.anomaly),
    unexplained: number(r.unexplained),
    withoutNextDate: number(r.without_next_date),
    skipped: number(r.skipped),
    inferred: r.inferred === null || r.inferred === undefined ? undefined : String(r.inferred),
    tied,
    support: number(r.support),
    evidence: number(r.evidence),
    findings: r.findings === true || r.findings === "t" || r.findings === 1
  }
}

/** The kept reconciliations: every day's, or one sweep day's; by day, then consent. */
export const list = (day?: string): Effect.Effect<ReadonlyArray<Summary>, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* day === undefined
      ? sql<Record<string, unknown>>`SELECT * FROM tppkit_listing_reconciliation ORDER BY day, consent`
      : sql<Record<string, unknown>>`SELECT * FROM tppkit_listing_reconciliation WHERE day = ${day}
          ORDER BY day, consent`
    return rows.map(summaryOf)
  })
