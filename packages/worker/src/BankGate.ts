/**
 * Whether balance checks may be sent now: a circuit breaker over the bank's availability, shared by the whole fleet
 * in PostgreSQL (or kept in one process). Consecutive transient failures of balance checks (the bank unavailable, a
 * timeout, 429), counted across the fleet, open it: then no worker sends a check until its wait has passed, so a
 * backlog of checks is never drained into a bank that is down; after the wait one check in the whole fleet, the
 * probe, is sent: its answer closes the breaker and every waiting check goes, its failure opens it again for twice
 * the wait (up to the maximum). Any answer of the bank closes it. Each bank of the fleet (a consent's profile: issue
 * 37's Slovak and Czech banks) has its own breaker: one bank's outage holds back no other bank's checks.
 *
 * @since 0.1.0
 */
import { Clock, Context, Duration, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as Engine from "./internal/bankGate.ts"

/** The breaker's settings. */
export interface Settings {
  /** Consecutive transient failures, fleet-wide, that open the breaker (default 3). */
  readonly threshold: number
  /** The first wait once the breaker opens (default 5 s); doubled each time the probe fails. */
  readonly initial: Duration.Input
  /** The longest wait (default 5 minutes). */
  readonly max: Duration.Input
  /** How often a worker reads the fleet's breaker (default 1 s): how soon it learns that the bank is back or down. */
  readonly poll: Duration.Input
  /** How long a probe may take before another worker may probe (default 1 minute: a probe's worker may die). */
  readonly probeLease: Duration.Input
}

/** The default settings. */
export const defaults: Settings = {
  threshold: 3,
  initial: "5 seconds",
  max: "5 minutes",
  poll: "1 second",
  probeLease: "1 minute"
}

/** What a check learns from passing the gate: whether it is the probe of a bank that was down. */
export type Passed = Engine.Passed

/** What the bank did with a check that was sent: answered it (a refusal too), failed transiently, or neither. */
export type Signal = "answer" | "transient" | "none"

/** The breaker of one bank: what a check passes before it is sent, and what it records after. */
export interface Gate {
  /** Waits until a check may be sent: at once while the bank answers; while it is down, until this is the probe. */
  readonly pass: Effect.Effect<Passed>
  /**
   * Records what the bank did with a check sent at `sentAt` (epoch milliseconds; default: now): a transient failure
   * counts, an answer closes the breaker unless its request was sent before the latest failure was recorded (an
   * answer to a request the bank took before it went down says nothing about the bank now).
   */
  readonly record: (result: Signal, sentAt?: number) => Effect.Effect<void>
}

/** The gate every balance check passes before it is sent: `pass` and `record` are the breaker of the bank `""`. */
export class BankGate extends Context.Service<
  BankGate,
  Gate & {
    /** The breaker of a bank (a profile's name, e.g. `sbas`, `cobs`; `""` the bank a checker does not name). */
    readonly bank: (name: string) => Gate
  }
>()("@tppkit/worker/BankGate") {
  /** Breakers of this process only (tests, one worker). */
  static readonly layerMemory = (settings: Partial<Settings> = {}): Layer.Layer<BankGate> =>
    Layer.effect(BankGate, makeMemory(settings))

  /**
   * The fleet's breakers: the rows `name` (default `balance-check`) of table `tppkit_bank_gate` (created by
   * `Database.migrate`), one per bank, each read by each worker at most once per `poll`. Every worker of a fleet
   * should use the same settings.
   */
  static readonly layerSql = (
    settings: Partial<Settings> = {},
    name = "balance-check"
  ): Layer.Layer<BankGate, never, SqlClient.SqlClient> =>
    Layer.effect(
      BankGate,
      Effect.map(Effect.service(SqlClient.SqlClient), (sql) => {
        const { limits, pollMs } = limitsOf(settings)
        return byBank((bank) =>
          Engine.make(Engine.sqlStore(sql, name, bank, limits), limits, pollMs, Clock.currentTimeMillis)
        )
      })
    )
}

/** The service over one gate per bank, each made when first asked for. */
const byBank = (make: (bank: string) => Gate): BankGate["Service"] => {
  const gates = new Map<string, Gate>()
  const bank = (name: string): Gate => {
    let gate = gates.get(name)
    if (gate === undefined) {
      gate = make(name)
      gates.set(name, gate)
    }
    return gate
  }
  const unnamed = bank("")
  return BankGate.of({ pass: unnamed.pass, record: unnamed.record, bank })
}

/** Breakers of this process only, as a value (what `layerMemory` provides). */
export const makeMemory = (settings: Partial<Settings> = {}): Effect.Effect<BankGate["Service"]> =>
  Effect.sync(() => {
    const { limits, pollMs } = limitsOf(settings)
    return byBank(() => Engine.make(Engine.memoryStore(limits), limits, pollMs, Clock.currentTimeMillis))
  })

const millis = (d: Duration.Input) => Duration.toMillis(Duration.fromInputUnsafe(d))

const limitsOf = (settings: Partial<Settings>) => {
  const s = { ...defaults, ...settings }
  return {
    limits: {
      threshold: Math.max(1, s.threshold),
      initialMs: millis(s.initial),
      maxMs: Math.max(millis(s.initial), millis(s.max)),
      probeLeaseMs: millis(s.probeLease)
    },
    pollMs: Math.max(1, millis(s.poll))
  }
}

/** The DDL of the breaker's table (idempotent). */
export const ddl: ReadonlyArray<string> = Engine.ddl
