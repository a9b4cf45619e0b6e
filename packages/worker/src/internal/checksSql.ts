/**
 * The check store in PostgreSQL: table `tppkit_checks` (created by `Database.migrate` from {@link ddl}), one
 * statement per call; an attempt is counted by one `INSERT … ON CONFLICT DO UPDATE`, so runners that check the same
 * payment at once still count every attempt.
 */
import { Effect, Result, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import * as CheckFailure from "../CheckFailure.ts"
import type { ChecksError, Fence, Row, Store, Summary, Verdict } from "./checkRows.ts"
import { Due, dueOf, isoSeconds, outcomeOf, textOf } from "./checkRows.ts"

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
    failure jsonb,
    attempts integer NOT NULL DEFAULT 0,
    correlation_ids text[] NOT NULL DEFAULT '{}',
    request_id text,
    response_id text,
    checked_at timestamptz,
    PRIMARY KEY (consent, order_id, nominal_date)
  )`,
  // a table made before failures were kept as data gets the column; its `error` text stays, unused
  "ALTER TABLE tppkit_checks ADD COLUMN IF NOT EXISTS failure jsonb",
  // the attempt in flight (its Correlation-ID), attempts in flight when their worker died, the last finished try
  "ALTER TABLE tppkit_checks ADD COLUMN IF NOT EXISTS sending text",
  "ALTER TABLE tppkit_checks ADD COLUMN IF NOT EXISTS unconfirmed integer NOT NULL DEFAULT 0",
  "ALTER TABLE tppkit_checks ADD COLUMN IF NOT EXISTS finished_try integer NOT NULL DEFAULT 0",
  // the day of the listing a check was planned from when it is not the sweep's own (its pages not read that day)
  "ALTER TABLE tppkit_checks ADD COLUMN IF NOT EXISTS listed_on text",
  // the attempt whose outcome is recorded: an older attempt's outcome never replaces it
  "ALTER TABLE tppkit_checks ADD COLUMN IF NOT EXISTS finished_attempt integer NOT NULL DEFAULT 0",
  "CREATE INDEX IF NOT EXISTS tppkit_checks_sweep_day ON tppkit_checks (sweep_day, consent)",
  // the checks still to finish, which `--once` workers count while they wait: small, so the count is cheap
  "CREATE INDEX IF NOT EXISTS tppkit_checks_pending ON tppkit_checks (sweep_day) WHERE outcome IS NULL"
]

/**
 * The store over the `SqlClient`; `toError` makes the store's error from a one-line description of what failed
 * (the database's message, and its cause's when it has one).
 */
export const make = (toError: (message: string) => ChecksError): Effect.Effect<Store, never, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const fromSql = (what: string) => (e: SqlError) =>
      toError(`${what}: ${e.message}${e.cause instanceof Error ? ` (${e.cause.message})` : ""}`)
    const sql = yield* SqlClient.SqlClient
    /**
     * The fence as a condition of the statement it is part of: the shard's advisory lock is held by a session of this
     * worker (its `application_name`); TRUE without a fence.
     */
    const fenced = (fence: Fence | undefined) =>
      fence === undefined
        ? sql`TRUE`
        : sql`EXISTS (SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND l.classid = ${fence.namespace >>> 0}::bigint::oid
              AND l.objid = ${fence.lock}::bigint::oid AND l.objsubid = 2 AND a.application_name = ${fence.holder})`
    return {
      plan: (due) =>
        due.length === 0
          ? Effect.void
          : Effect.forEach(
              chunks(due, 1000),
              (chunk) =>
                sql`INSERT INTO tppkit_checks ${sql.insert(
                  chunk.map((due): Record<string, unknown> => {
                    const d = textOf(due)
                    return {
                      consent: d.consent,
                      order_id: d.orderId,
                      nominal_date: d.nominalDate,
                      execution_date: d.executionDate,
                      amount: d.amount,
                      currency: d.currency,
                      debtor_iban: d.debtorIban,
                      sweep_day: d.sweepDay,
                      check_at: d.checkAt,
                      listed_on: d.listedOn ?? null
                    }
                  }) as unknown as readonly [Record<string, unknown>, ...Array<Record<string, unknown>>]
                )} ON CONFLICT DO NOTHING`,
              { discard: true }
            ).pipe(Effect.mapError(fromSql("cannot plan checks"))),
      planned: (sweepDay, consent) =>
        sql<DbRow>`SELECT * FROM tppkit_checks WHERE sweep_day = ${sweepDay} AND consent = ${consent}
                   ORDER BY order_id, nominal_date`.pipe(
          Effect.mapError(fromSql("cannot read planned checks")),
          Effect.flatMap((rows) => rowsOf(rows, toError)),
          Effect.map((rows) => rows.map(dueOf))
        ),
      begin: (typed, correlationId, tryNo = 1, fence) =>
        Effect.gen(function* () {
          const due = textOf(typed)
          const counted = yield* sql<{ attempts: number }>`INSERT INTO tppkit_checks (consent, order_id,
              nominal_date, execution_date, amount, currency, debtor_iban, sweep_day, check_at, attempts,
              correlation_ids, sending, listed_on)
            VALUES (${due.consent}, ${due.orderId}, ${due.nominalDate}, ${due.executionDate}, ${due.amount},
              ${due.currency}, ${due.debtorIban}, ${due.sweepDay}, ${due.checkAt}, 1, ARRAY[${correlationId}::text],
              ${correlationId}, ${due.listedOn ?? null})
            ON CONFLICT (consent, order_id, nominal_date) DO UPDATE
            SET attempts = tppkit_checks.attempts + 1,
                correlation_ids = array_append(tppkit_checks.correlation_ids, ${correlationId}::text),
                unconfirmed = tppkit_checks.unconfirmed + (CASE WHEN tppkit_checks.sending IS NULL THEN 0 ELSE 1 END),
                sending = ${correlationId}
            WHERE (tppkit_checks.finished_try < ${tryNo} OR tppkit_checks.outcome IS NULL) AND ${fenced(fence)}
            RETURNING attempts`
          if (counted[0] !== undefined) return { attempt: Number(counted[0].attempts), recorded: undefined }
          // this try finished already: its recorded outcome, nothing sent
          const [row] = yield* sql<DbRow>`SELECT * FROM tppkit_checks WHERE consent = ${due.consent}
              AND order_id = ${due.orderId} AND nominal_date = ${due.nominalDate}`
          // not this try's recorded outcome: the fence did not hold; nothing counted, nothing to send
          if (fence !== undefined && (row === undefined || row.outcome === null || Number(row.finished_try) < tryNo)) {
            return { attempt: 0, recorded: undefined, fenced: true }
          }
          const read = row === undefined ? undefined : rowOf(row)
          if (read !== undefined && Result.isFailure(read)) return yield* toError(read.failure)
          const recorded = read?.success
          return {
            attempt: recorded?.attempts ?? 0,
            recorded: recorded === undefined ? undefined : outcomeOf(recorded)
          }
        }).pipe(Effect.catchTag("SqlError", (e) => Effect.fail(fromSql("cannot count the attempt")(e)))),
      finish: (typed, outcome, at, attempt) => {
        const due = textOf(typed)
        const unsent = attempt !== undefined && !attempt.sent
        const correlationId = attempt?.correlationId ?? null
        const number = attempt?.attempt ?? 2147483647
        // a record moves forward only (checkRows.isForward): a bank's answer is never replaced, a failure only by an
        // answer or by the outcome of the same or a later attempt
        const forward = sql`(outcome IS NULL OR (outcome = 'failed' AND
          (${outcome.outcome}::text <> 'failed' OR finished_attempt <= ${number}::int)))`
        const failure = outcome.failure === undefined ? null : JSON.stringify(CheckFailure.encodeJson(outcome.failure))
        return sql`UPDATE tppkit_checks SET
              outcome = CASE WHEN ${forward} THEN ${outcome.outcome} ELSE outcome END,
              failure = CASE WHEN ${forward} THEN ${failure}::jsonb ELSE failure END,
              request_id = CASE WHEN ${forward} THEN ${outcome.requestId ?? null} ELSE request_id END,
              response_id = CASE WHEN ${forward} THEN ${outcome.responseId ?? null} ELSE response_id END,
              checked_at = CASE WHEN ${forward} THEN ${new Date(at)} ELSE checked_at END,
              finished_try = CASE WHEN ${forward} THEN GREATEST(finished_try, ${attempt?.tryNo ?? 1}) ELSE finished_try END,
              finished_attempt = CASE WHEN ${forward} THEN GREATEST(finished_attempt, ${attempt?.attempt ?? 0})
                ELSE finished_attempt END,
              sending = CASE WHEN ${correlationId}::text IS NULL OR sending = ${correlationId}::text THEN NULL
                ELSE sending END,
              attempts = attempts - ${unsent ? 1 : 0} + ${unsent ? 0 : (attempt?.extra ?? 0)}::int,
              correlation_ids = CASE WHEN ${unsent} THEN array_remove(correlation_ids, ${correlationId}::text)
                ELSE correlation_ids END
            WHERE consent = ${due.consent} AND order_id = ${due.orderId} AND nominal_date = ${due.nominalDate}
              AND ${fenced(attempt?.fence)}`.pipe(Effect.asVoid, Effect.mapError(fromSql("cannot record the outcome")))
      },
      list: (filter) =>
        (filter?.sweepDay === undefined
          ? sql<DbRow>`SELECT * FROM tppkit_checks ORDER BY execution_date, order_id, nominal_date, consent`
          : sql<DbRow>`SELECT * FROM tppkit_checks WHERE sweep_day = ${filter.sweepDay}
                       ORDER BY execution_date, order_id, nominal_date, consent`
        ).pipe(
          Effect.mapError(fromSql("cannot read checks")),
          Effect.flatMap((rows) => rowsOf(rows, toError))
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
              count(*) FILTER (WHERE attempts > 1)::int AS repeated,
              coalesce(sum(attempts), 0)::int AS requests,
              coalesce(sum(unconfirmed), 0)::int AS unconfirmed
            FROM tppkit_checks WHERE sweep_day = ${sweepDay}`.pipe(
          Effect.map(([r]) => ({
            checks: Number(r?.checks ?? 0),
            APPR: Number(r?.APPR ?? 0),
            DECL: Number(r?.DECL ?? 0),
            failed: Number(r?.failed ?? 0),
            pending: Number(r?.pending ?? 0),
            repeated: Number(r?.repeated ?? 0),
            requests: Number(r?.requests ?? 0),
            unconfirmed: Number(r?.unconfirmed ?? 0)
          })),
          Effect.mapError(fromSql("cannot count checks"))
        )
    }
  })

/** A row of `tppkit_checks` as the driver reads it. */
export interface DbRow {
  readonly consent: string
  readonly orderId?: string
  readonly order_id?: string
  readonly [k: string]: unknown
}

const text = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : String(v))

const decodeDue = Schema.decodeUnknownResult(Due)

/**
 * A row of `tppkit_checks` as a check row (what `SELECT *` reads): its payment read once with `Checks.Due`'s
 * schemas; a row whose payment is not one (a hand-edited table) names its key and why.
 */
export const rowOf = (r: DbRow): Result.Result<Row, string> => {
  const get = (snake: string) => r[snake]
  const checkedAt = get("checked_at")
  const due = decodeDue({
    consent: r.consent,
    orderId: String(get("order_id")),
    nominalDate: String(get("nominal_date")),
    executionDate: String(get("execution_date")),
    amount: String(get("amount")),
    currency: String(get("currency")),
    debtorIban: String(get("debtor_iban")),
    sweepDay: String(get("sweep_day")),
    checkAt: Number(get("check_at") ?? 0),
    ...(text(get("listed_on")) === undefined ? {} : { listedOn: text(get("listed_on")) as string })
  })
  if (Result.isFailure(due)) {
    return Result.fail(
      `the check of ${r.consent}/${String(get("order_id"))}/${String(get("nominal_date"))} in tppkit_checks is not a payment: ${due.failure.message}`
    )
  }
  return Result.succeed({
    ...due.success,
    outcome: text(get("outcome")) as Verdict | undefined,
    failure: CheckFailure.decodeJson(get("failure")),
    attempts: Number(get("attempts") ?? 0),
    unconfirmed: Number(get("unconfirmed") ?? 0),
    correlationIds: Array.isArray(get("correlation_ids")) ? (get("correlation_ids") as Array<string>) : [],
    checkedAt: checkedAt instanceof Date ? isoSeconds(checkedAt.getTime()) : text(checkedAt),
    requestId: text(get("request_id")),
    responseId: text(get("response_id"))
  })
}

/** Rows read as check rows; the first that is not a payment fails the read. */
const rowsOf = (rows: ReadonlyArray<DbRow>, toError: (message: string) => ChecksError) =>
  Effect.suspend(() => {
    const out: Array<Row> = []
    for (const r of rows) {
      const row = rowOf(r)
      if (Result.isFailure(row)) return Effect.fail(toError(row.failure))
      out.push(row.success)
    }
    return Effect.succeed(out)
  })

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
