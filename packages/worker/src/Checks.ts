/**
 * The record of funds checks shared by the fleet: one row per payment, keyed by (consent, orderId, nominalDate),
 * planned by the daily sweep, counted before each balance check is sent (so a check repeated after a crash shows
 * `attempts: 2`), and finished with the outcome and the bank's Request-ID and Response-ID. In memory for tests,
 * or in PostgreSQL for a fleet.
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

/** One payment due for a funds check, as the sweep plans it and the workflow receives it (all text: exact). */
export const Due = Schema.Struct({
  consent: Schema.String,
  orderId: Schema.String,
  /** Nominal date of the occurrence, "YYYY-MM-DD". */
  nominalDate: Schema.String,
  /** The date the bank executes the payment, "YYYY-MM-DD". */
  executionDate: Schema.String,
  /** The exact amount as a plain decimal, e.g. "1250.50". */
  amount: Schema.String,
  currency: Schema.String,
  debtorIban: Schema.String,
  /** The day of the sweep that planned the check, "YYYY-MM-DD". */
  sweepDay: Schema.String,
  /** When to check (epoch milliseconds); 0 or a past instant: right away. */
  checkAt: Schema.Number
})

/** One payment due for a funds check. */
export type Due = typeof Due.Type

/** The key of a payment's check: consent, orderId and nominal date; one check per key in the whole fleet. */
export const key = (due: Pick<Due, "consent" | "orderId" | "nominalDate">): string =>
  JSON.stringify([due.consent, due.orderId, due.nominalDate])

/** How a check ended: the bank's answer, or `failed` with the typed error's message. */
export const Outcome = Schema.Literals(["APPR", "DECL", "failed"])

/** How a check ended. */
export type Outcome = typeof Outcome.Type

/** The recorded result of a check. */
export const Result = Schema.Struct({
  outcome: Outcome,
  /** The failure's one-line description when `outcome` is `failed`. */
  error: Schema.optionalKey(Schema.String),
  requestId: Schema.optionalKey(Schema.String),
  responseId: Schema.optionalKey(Schema.String)
})

/** The recorded result of a check. */
export type Result = typeof Result.Type

/** One row of `tppkit worker status`. */
export interface Row extends Due {
  readonly outcome: Outcome | undefined
  readonly error: string | undefined
  /** Balance checks sent (or about to be sent) for this payment. */
  readonly attempts: number
  /** The Correlation-ID of each attempt, in order (each attempt is one logical bank call). */
  readonly correlationIds: ReadonlyArray<string>
  /** When the outcome was recorded (RFC 3339, UTC). */
  readonly checkedAt: string | undefined
  readonly requestId: string | undefined
  readonly responseId: string | undefined
}

/** Which rows to read. */
export interface Filter {
  /** Only checks planned by this day's sweep. */
  readonly sweepDay?: string | undefined
}

/** The counts of one sweep day's checks: planned, by outcome, still pending, and repeated (more than one attempt). */
export interface Summary {
  readonly checks: number
  readonly APPR: number
  readonly DECL: number
  readonly failed: number
  readonly pending: number
  readonly repeated: number
}

/** Failures of the check store: the database's, as one typed error. */
export class ChecksError extends Schema.TaggedError<ChecksError>()("ChecksError", {
  message: Schema.String
}) {}

const fromSql = (what: string) => (e: SqlError) =>
  new ChecksError({ message: `${what}: ${e.message}${e.cause instanceof Error ? ` (${e.cause.message})` : ""}` })

/** Where the fleet keeps its checks. */
export class Checks extends Context.Service<
  Checks,
  {
    /** Records payments as planned (pending); a payment already planned is left as it is. */
    readonly plan: (due: ReadonlyArray<Due>) => Effect.Effect<void, ChecksError>
    /** Planned payments of a sweep day and consent, in key order. */
    readonly planned: (sweepDay: string, consent: string) => Effect.Effect<ReadonlyArray<Due>, ChecksError>
    /** Counts one attempt before its request is sent; returns the attempt number (1 for the first). */
    readonly begin: (due: Due, correlationId: string) => Effect.Effect<number, ChecksError>
    /** Records the outcome of the latest attempt and when it arrived. */
    readonly finish: (due: Due, result: Result, checkedAtMillis: number) => Effect.Effect<void, ChecksError>
    /** The rows, in execution-date, orderId, nominal-date order. */
    readonly list: (filter?: Filter) => Effect.Effect<ReadonlyArray<Row>, ChecksError>
    /** How many planned checks of a sweep day have no outcome yet. */
    readonly pending: (sweepDay: string) => Effect.Effect<number, ChecksError>
    /** The counts of a sweep day's checks (one aggregate query, not the rows). */
    readonly summary: (sweepDay: string) => Effect.Effect<Summary, ChecksError>
  }
>()("@tppkit/worker/Checks") {
  /** Checks in memory (tests and single-process runs). */
  static readonly layerMemory: Layer.Layer<Checks> = Layer.sync(Checks, () => {
    const rows = new Map<string, Row>()
    const sorted = () => [...rows.values()].sort(compareRows)
    return Checks.of({
      plan: (due) =>
        Effect.sync(() => {
          for (const d of due) {
            const k = key(d)
            if (!rows.has(k)) rows.set(k, pendingRow(d))
          }
        }),
      planned: (sweepDay, consent) =>
        Effect.sync(() =>
          sorted()
            .filter((r) => r.sweepDay === sweepDay && r.consent === consent)
            .map(dueOf)
        ),
      begin: (due, correlationId) =>
        Effect.sync(() => {
          const k = key(due)
          const row = rows.get(k) ?? pendingRow(due)
          const next = { ...row, attempts: row.attempts + 1, correlationIds: [...row.correlationIds, correlationId] }
          rows.set(k, next)
          return next.attempts
        }),
      finish: (due, result, at) =>
        Effect.sync(() => {
          const k = key(due)
          const row = rows.get(k) ?? pendingRow(due)
          rows.set(k, {
            ...row,
            outcome: result.outcome,
            error: result.error,
            requestId: result.requestId,
            responseId: result.responseId,
            checkedAt: isoSeconds(at)
          })
        }),
      list: (filter) =>
        Effect.sync(() => sorted().filter((r) => filter?.sweepDay === undefined || r.sweepDay === filter.sweepDay)),
      pending: (sweepDay) =>
        Effect.sync(() => {
          let n = 0
          for (const r of rows.values()) if (r.sweepDay === sweepDay && r.outcome === undefined) n++
          return n
        }),
      summary: (sweepDay) =>
        Effect.sync(() => {
          const counts = { checks: 0, APPR: 0, DECL: 0, failed: 0, pending: 0, repeated: 0 }
          for (const r of rows.values()) {
            if (r.sweepDay !== sweepDay) continue
            counts.checks++
            if (r.outcome === undefined) counts.pending++
            else counts[r.outcome]++
            if (r.attempts > 1) counts.repeated++
          }
          return counts
        })
    })
  })

  /** Checks in PostgreSQL (table `tppkit_checks`, created by `Database.migrate`). */
  static readonly layerSql: Layer.Layer<Checks, never, SqlClient.SqlClient> = Layer.effect(
    Checks,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return Checks.of({
        plan: (due) =>
          due.length === 0
            ? Effect.void
            : Effect.forEach(
                chunks(due, 1000),
                (chunk) =>
                  sql`INSERT INTO tppkit_checks ${sql.insert(
                    chunk.map(
                      (d): Record<string, unknown> => ({
                        consent: d.consent,
                        order_id: d.orderId,
                        nominal_date: d.nominalDate,
                        execution_date: d.executionDate,
                        amount: d.amount,
                        currency: d.currency,
                        debtor_iban: d.debtorIban,
                        sweep_day: d.sweepDay,
                        check_at: d.checkAt
                      })
                    ) as unknown as readonly [Record<string, unknown>, ...Array<Record<string, unknown>>]
                  )} ON CONFLICT DO NOTHING`,
                { discard: true }
              ).pipe(Effect.mapError(fromSql("cannot plan checks"))),
        planned: (sweepDay, consent) =>
          sql<DbRow>`SELECT * FROM tppkit_checks WHERE sweep_day = ${sweepDay} AND consent = ${consent}
                     ORDER BY order_id, nominal_date`.pipe(
            Effect.map((rows) => rows.map((r) => dueOf(rowOf(r)))),
            Effect.mapError(fromSql("cannot read planned checks"))
          ),
        begin: (due, correlationId) =>
          sql<{ attempts: number }>`INSERT INTO tppkit_checks (consent, order_id, nominal_date, execution_date,
              amount, currency, debtor_iban, sweep_day, check_at, attempts, correlation_ids)
            VALUES (${due.consent}, ${due.orderId}, ${due.nominalDate}, ${due.executionDate}, ${due.amount},
              ${due.currency}, ${due.debtorIban}, ${due.sweepDay}, ${due.checkAt}, 1, ARRAY[${correlationId}::text])
            ON CONFLICT (consent, order_id, nominal_date) DO UPDATE
            SET attempts = tppkit_checks.attempts + 1,
                correlation_ids = array_append(tppkit_checks.correlation_ids, ${correlationId}::text)
            RETURNING attempts`.pipe(
            Effect.map((rows) => Number(rows[0]?.attempts ?? 1)),
            Effect.mapError(fromSql("cannot count the attempt"))
          ),
        finish: (due, result, at) =>
          sql`UPDATE tppkit_checks SET outcome = ${result.outcome}, error = ${result.error ?? null},
                request_id = ${result.requestId ?? null}, response_id = ${result.responseId ?? null},
                checked_at = ${new Date(at)}
              WHERE consent = ${due.consent} AND order_id = ${due.orderId} AND nominal_date = ${due.nominalDate}`.pipe(
            Effect.asVoid,
            Effect.mapError(fromSql("cannot record the outcome"))
          ),
        list: (filter) =>
          (filter?.sweepDay === undefined
            ? sql<DbRow>`SELECT * FROM tppkit_checks ORDER BY execution_date, order_id, nominal_date, consent`
            : sql<DbRow>`SELECT * FROM tppkit_checks WHERE sweep_day = ${filter.sweepDay}
                         ORDER BY execution_date, order_id, nominal_date, consent`
          ).pipe(
            Effect.map((rows) => rows.map(rowOf)),
            Effect.mapError(fromSql("cannot read checks"))
          ),
        pending: (sweepDay) =>
          sql<{ n: number }>`SELECT count(*)::int AS n FROM tppkit_checks
                              WHERE sweep_day = ${sweepDay} AND outcome IS NULL`.pipe(
            Effect.map((rows) => Number(rows[0]?.n ?? 0)),
            Effect.mapError(fromSql("cannot count pending checks"))
          ),
        summary: (sweepDay) =>
          sql<Record<keyof Summary, number>>`SELECT count(*)::int AS checks,
                count(*) FILTER (WHERE outcome = 'APPR')::int AS "APPR",
                count(*) FILTER (WHERE outcome = 'DECL')::int AS "DECL",
                count(*) FILTER (WHERE outcome = 'failed')::int AS failed,
                count(*) FILTER (WHERE outcome IS NULL)::int AS pending,
                count(*) FILTER (WHERE attempts > 1)::int AS repeated
              FROM tppkit_checks WHERE sweep_day = ${sweepDay}`.pipe(
            Effect.map(([r]) => ({
              checks: Number(r?.checks ?? 0),
              APPR: Number(r?.APPR ?? 0),
              DECL: Number(r?.DECL ?? 0),
              failed: Number(r?.failed ?? 0),
              pending: Number(r?.pending ?? 0),
              repeated: Number(r?.repeated ?? 0)
            })),
            Effect.mapError(fromSql("cannot count checks"))
          )
      })
    })
  )
}

/** The DDL of the checks table (idempotent). */
export const ddl: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS tppkit_checks (
    consent text NOT NULL,
    order_id text NOT NULL,
    nominal_date text NOT NULL,
    execution_date text NOT NULL,
    amount text NOT NULL,
    currency text NOT NULL,
    debtor_iban text NOT NULL,
    sweep_day text NOT NULL,
    check_at double precision NOT NULL DEFAULT 0,
    outcome text,
    error text,
    attempts integer NOT NULL DEFAULT 0,
    correlation_ids text[] NOT NULL DEFAULT '{}',
    request_id text,
    response_id text,
    checked_at timestamptz,
    PRIMARY KEY (consent, order_id, nominal_date)
  )`,
  "CREATE INDEX IF NOT EXISTS tppkit_checks_sweep_day ON tppkit_checks (sweep_day, consent)",
  // the checks still to finish, which `--once` workers count while they wait: small, so the count is cheap
  "CREATE INDEX IF NOT EXISTS tppkit_checks_pending ON tppkit_checks (sweep_day) WHERE outcome IS NULL"
]

interface DbRow {
  readonly consent: string
  readonly orderId?: string
  readonly order_id?: string
  readonly [k: string]: unknown
}

const text = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : String(v))

const rowOf = (r: DbRow): Row => {
  const get = (snake: string) => r[snake]
  const checkedAt = get("checked_at")
  return {
    consent: r.consent,
    orderId: String(get("order_id")),
    nominalDate: String(get("nominal_date")),
    executionDate: String(get("execution_date")),
    amount: String(get("amount")),
    currency: String(get("currency")),
    debtorIban: String(get("debtor_iban")),
    sweepDay: String(get("sweep_day")),
    checkAt: Number(get("check_at") ?? 0),
    outcome: text(get("outcome")) as Outcome | undefined,
    error: text(get("error")),
    attempts: Number(get("attempts") ?? 0),
    correlationIds: Array.isArray(get("correlation_ids")) ? (get("correlation_ids") as Array<string>) : [],
    checkedAt: checkedAt instanceof Date ? isoSeconds(checkedAt.getTime()) : text(checkedAt),
    requestId: text(get("request_id")),
    responseId: text(get("response_id"))
  }
}

const pendingRow = (d: Due): Row => ({
  ...d,
  outcome: undefined,
  error: undefined,
  attempts: 0,
  correlationIds: [],
  checkedAt: undefined,
  requestId: undefined,
  responseId: undefined
})

const dueOf = (r: Row): Due => ({
  consent: r.consent,
  orderId: r.orderId,
  nominalDate: r.nominalDate,
  executionDate: r.executionDate,
  amount: r.amount,
  currency: r.currency,
  debtorIban: r.debtorIban,
  sweepDay: r.sweepDay,
  checkAt: r.checkAt
})

const compareRows = (a: Row, b: Row): number =>
  a.executionDate.localeCompare(b.executionDate) ||
  (a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0) ||
  a.nominalDate.localeCompare(b.nominalDate) ||
  (a.consent < b.consent ? -1 : a.consent > b.consent ? 1 : 0)

/** An instant as RFC 3339 UTC without milliseconds. */
export const isoSeconds = (millis: number): string => new Date(millis).toISOString().replace(/\.\d{3}Z$/, "Z")

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
