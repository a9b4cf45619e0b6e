/**
 * The engine of `BankGate`: the breaker's state and its transitions (pure), the two stores of that state (this
 * process, or one row of `tppkit_bank_gate` per bank shared by a fleet) and the gate every check passes before it is
 * sent, which reads the state at most once per poll interval (one read shared by every waiting check of the process).
 */
import { Duration, Effect, Semaphore } from "effect"
import type { SqlClient } from "effect/sql"

/** The breaker's state (epoch milliseconds): consecutive transient failures, closed until, the wait, the probe. */
export interface State {
  /** Consecutive transient failures of balance checks, fleet-wide (reset by any answer of the bank). */
  readonly failures: number
  /** No check is sent before this instant (once `failures` reached the threshold). */
  readonly openUntil: number
  /** The wait that set `openUntil`: doubled each time the breaker opens again, up to the maximum. */
  readonly waitMs: number
  /** A probe was claimed and runs until this instant (its lease); 0: none. */
  readonly probeUntil: number
  /** When the latest transient failure was recorded: an answer to a request sent before it closes nothing. */
  readonly failedAt: number
}

/** The breaker's numbers, in milliseconds. */
export interface Limits {
  readonly threshold: number
  readonly initialMs: number
  readonly maxMs: number
  readonly probeLeaseMs: number
}

/** A closed breaker. */
export const closed: State = { failures: 0, openUntil: 0, waitMs: 0, probeUntil: 0, failedAt: 0 }

/** Whether the breaker lets checks through (fewer consecutive failures than the threshold). */
export const isClosed = (state: State, limits: Limits): boolean => state.failures < limits.threshold

/**
 * A transient failure: one more consecutive failure; when that reaches the threshold and the breaker is not open
 * already, it opens for the wait (the initial one, else the last doubled, up to the maximum) and any probe ends.
 */
export const failed = (state: State, limits: Limits, now: number): State => {
  const failures = state.failures + 1
  if (failures < limits.threshold || state.openUntil > now) return { ...state, failures, failedAt: now }
  const waitMs = Math.min(limits.maxMs, Math.max(state.waitMs * 2, limits.initialMs))
  return { failures, openUntil: now + waitMs, waitMs, probeUntil: 0, failedAt: now }
}

/**
 * An answer to a request sent at `sentAt`: the breaker closes, unless the request was sent before the latest
 * transient failure was recorded (a request the bank took before it went down, answered while it is down, says
 * nothing about the bank now: letting it close the breaker would let every such answer send more checks into the
 * outage).
 */
export const answered = (state: State, sentAt: number): State =>
  sentAt < state.failedAt ? state : { ...closed, failedAt: state.failedAt }

/** A probe claimed at `now`, or undefined when the breaker is closed, still open, or another probe runs. */
export const claim = (state: State, limits: Limits, now: number): State | undefined =>
  isClosed(state, limits) || state.openUntil > now || state.probeUntil > now
    ? undefined
    : { ...state, probeUntil: now + limits.probeLeaseMs }

/** Where the state lives; every change returns the state after it. */
export interface Store {
  readonly read: Effect.Effect<State>
  readonly failed: (now: number) => Effect.Effect<State>
  /** The bank answered a request sent at `sentAt`: see {@link answered} (nothing written when it was closed). */
  readonly answered: (sentAt: number) => Effect.Effect<State>
  readonly claim: (now: number) => Effect.Effect<{ readonly state: State; readonly claimed: boolean }>
}

/** The state in this process only. */
export const memoryStore = (limits: Limits): Store => {
  let state = closed
  return {
    read: Effect.sync(() => state),
    failed: (now) =>
      Effect.sync(() => {
        state = failed(state, limits, now)
        return state
      }),
    answered: (sentAt) =>
      Effect.sync(() => {
        state = answered(state, sentAt)
        return state
      }),
    claim: (now) =>
      Effect.sync(() => {
        const next = claim(state, limits, now)
        if (next !== undefined) state = next
        return { state, claimed: next !== undefined }
      })
  }
}

/**
 * The DDL of the fleet's breakers (idempotent): one row per gate name and bank. The previous shape had one row per
 * gate name for every bank; its row becomes the row of the bank named `""` (a checker that names no bank), and the
 * key becomes the name and the bank.
 */
export const ddl: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS tppkit_bank_gate (
    name text NOT NULL,
    bank text NOT NULL DEFAULT '',
    failures integer NOT NULL DEFAULT 0,
    open_until double precision NOT NULL DEFAULT 0,
    wait_ms double precision NOT NULL DEFAULT 0,
    probe_until double precision NOT NULL DEFAULT 0,
    CONSTRAINT tppkit_bank_gate_name_bank PRIMARY KEY (name, bank)
  )`,
  "ALTER TABLE tppkit_bank_gate ADD COLUMN IF NOT EXISTS failed_at double precision NOT NULL DEFAULT 0",
  "ALTER TABLE tppkit_bank_gate ADD COLUMN IF NOT EXISTS bank text NOT NULL DEFAULT ''",
  `DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'tppkit_bank_gate_name_bank') THEN
      ALTER TABLE tppkit_bank_gate DROP CONSTRAINT IF EXISTS tppkit_bank_gate_pkey;
      ALTER TABLE tppkit_bank_gate ADD CONSTRAINT tppkit_bank_gate_name_bank PRIMARY KEY (name, bank);
    END IF;
  END $$`
]

interface GateRow {
  readonly failures: number
  readonly open_until: number
  readonly wait_ms: number
  readonly probe_until: number
  readonly failed_at: number
}

const stateOf = (row: GateRow | undefined): State =>
  row === undefined
    ? closed
    : {
        failures: Number(row.failures),
        openUntil: Number(row.open_until),
        waitMs: Number(row.wait_ms),
        probeUntil: Number(row.probe_until),
        failedAt: Number(row.failed_at)
      }

/**
 * The state in the row (`name`, `bank`) of `tppkit_bank_gate`, one statement per change (the row lock orders the
 * workers' changes; each `UPDATE` reads the row as it was before it). A statement that fails (the database
 * unreachable) leaves the state as this process last saw it: the gate never stops checks because the database is away.
 */
export const sqlStore = (client: SqlClient.SqlClient, name: string, bank: string, limits: Limits): Store => {
  const sql = client.withoutTransforms()
  let last = closed
  const keep = (statement: Effect.Effect<ReadonlyArray<GateRow>, unknown>) =>
    statement.pipe(
      Effect.map((rows) => {
        if (rows[0] !== undefined) last = stateOf(rows[0])
        return rows[0] !== undefined
      }),
      Effect.orElseSucceed(() => false)
    )
  const ensure = keep(sql<GateRow>`INSERT INTO tppkit_bank_gate (name, bank) VALUES (${name}, ${bank})
      ON CONFLICT (name, bank) DO NOTHING RETURNING failures, open_until, wait_ms, probe_until, failed_at`)
  const { threshold, initialMs, maxMs, probeLeaseMs } = limits
  return {
    read: Effect.map(
      keep(
        sql<GateRow>`SELECT failures, open_until, wait_ms, probe_until, failed_at FROM tppkit_bank_gate WHERE name = ${name} AND bank = ${bank}`
      ),
      () => last
    ),
    failed: (now) =>
      Effect.andThen(
        ensure,
        keep(sql<GateRow>`UPDATE tppkit_bank_gate SET
              failures = failures + 1,
              failed_at = ${now},
              wait_ms = CASE WHEN failures + 1 >= ${threshold} AND open_until <= ${now}
                THEN LEAST(${maxMs}, GREATEST(wait_ms * 2, ${initialMs})) ELSE wait_ms END,
              open_until = CASE WHEN failures + 1 >= ${threshold} AND open_until <= ${now}
                THEN ${now} + LEAST(${maxMs}, GREATEST(wait_ms * 2, ${initialMs})) ELSE open_until END,
              probe_until = CASE WHEN failures + 1 >= ${threshold} AND open_until <= ${now}
                THEN 0 ELSE probe_until END
            WHERE name = ${name} AND bank = ${bank} RETURNING failures, open_until, wait_ms, probe_until, failed_at`)
      ).pipe(Effect.map(() => last)),
    // the row lock orders this against the workers' failures: an answer to a request sent before the latest
    // failure changes nothing (nothing returned: this process keeps the state it last saw)
    answered: (sentAt) =>
      keep(sql<GateRow>`UPDATE tppkit_bank_gate SET failures = 0, open_until = 0, wait_ms = 0, probe_until = 0
            WHERE name = ${name} AND bank = ${bank} AND (failures > 0 OR wait_ms > 0) AND failed_at <= ${sentAt}
            RETURNING failures, open_until, wait_ms, probe_until, failed_at`).pipe(Effect.map(() => last)),
    claim: (now) =>
      keep(sql<GateRow>`UPDATE tppkit_bank_gate SET probe_until = ${now + probeLeaseMs}
            WHERE name = ${name} AND bank = ${bank} AND failures >= ${threshold} AND open_until <= ${now} AND probe_until <= ${now}
            RETURNING failures, open_until, wait_ms, probe_until, failed_at`).pipe(
        Effect.map((claimed) => ({ state: last, claimed }))
      )
  }
}

/** What a check learns from passing the gate: whether it is the probe of a bank that was down. */
export interface Passed {
  readonly probe: boolean
}

/** The gate of one process over a store: `pass` before sending, `record` after. */
export interface Gate {
  readonly pass: Effect.Effect<Passed>
  readonly record: (kind: "answer" | "transient" | "none", sentAt?: number) => Effect.Effect<void>
}

/**
 * The gate over `store`, reading the state at most every `pollMs` (one read at a time for the whole process) and
 * after each of this process's own changes. A check passes at once while the breaker is closed; while it is open,
 * checks wait (re-reading every poll); once its wait has passed, one check in the whole fleet (the first to claim
 * the probe) is sent, and the others wait for its outcome: an answer closes the breaker, a failure opens it again
 * for twice the wait.
 */
export const make = (store: Store, limits: Limits, pollMs: number, clock: Effect.Effect<number>): Gate => {
  let state = closed
  let readAt = Number.NEGATIVE_INFINITY
  const reading = Semaphore.makeUnsafe(1)
  const claiming = Semaphore.makeUnsafe(1)
  const current = (now: number) =>
    now - readAt < pollMs
      ? Effect.succeed(state)
      : reading.withPermits(1)(
          Effect.suspend(() =>
            now - readAt < pollMs
              ? Effect.succeed(state)
              : Effect.map(store.read, (s) => {
                  state = s
                  readAt = now
                  return s
                })
          )
        )
  const wait = (ms: number) => Effect.sleep(Duration.millis(Math.max(1, Math.min(ms, pollMs))))
  const pass: Effect.Effect<Passed> = Effect.gen(function* () {
    for (;;) {
      const now = yield* clock
      const s = yield* current(now)
      if (isClosed(s, limits)) return { probe: false }
      if (s.openUntil > now) {
        yield* wait(s.openUntil - now)
        continue
      }
      if (s.probeUntil <= now) {
        const claimed = yield* claiming.withPermits(1)(
          Effect.suspend(() =>
            claim(state, limits, now) === undefined && readAt >= now - pollMs
              ? Effect.succeed(false)
              : Effect.map(store.claim(now), (r) => {
                  state = r.state
                  readAt = now
                  return r.claimed
                })
          )
        )
        if (claimed) return { probe: true }
      }
      yield* wait(pollMs)
    }
  })
  const record = (kind: "answer" | "transient" | "none", sentAt?: number) =>
    kind === "none"
      ? Effect.void
      : kind === "answer"
        ? isClosed(state, limits) && state.failures === 0 && state.waitMs === 0
          ? Effect.void
          : Effect.flatMap(clock, (now) =>
              Effect.map(store.answered(sentAt ?? now), (s) => {
                state = s
              })
            )
        : Effect.flatMap(clock, (now) =>
            Effect.map(store.failed(now), (s) => {
              state = s
              readAt = now
            })
          )
  return { pass, record }
}
