/**
 * The durable funds check of one payment, on effect's workflow engine: keyed by (consent, orderId, nominalDate),
 * so that starting it any number of times from any runner gives one execution in the whole cluster. It waits
 * durably until its check instant, then runs the balance check and records the outcome. The check's own record is
 * its journal: each try is counted in the check store before it is sent and its outcome recorded there, and a try
 * whose outcome is recorded returns it without sending (`Checks.begin`), so a replayed workflow never asks the bank
 * again for a try that finished. The try is therefore not an effect activity, which would journal the same outcome
 * a second time as a persisted request and reply of the cluster (with its entity's mailbox, fibers and latches
 * resident until effect releases the finished workflow: about a third of a worker's memory and CPU per payment;
 * BENCHMARKS.md, "Memory of a worker"). The bank call itself is at-least-once: a runner that dies after sending and
 * before the outcome is recorded makes another runner send it again; every attempt is counted before it is sent,
 * so a repeat shows as `attempts: 2`.
 *
 * @since 0.1.0
 */
import { Backoff, type BalanceCheck, LocalDate } from "@tppkit/core"
import * as FailureClass from "@tppkit/http/FailureClass"
import { Clock, Context, DateTime, Duration, Effect, Layer, Option, Schema, Semaphore } from "effect"
import { ClusterSchema, Entity, ShardingConfig } from "effect/cluster"
import { Sharding } from "effect/cluster/Sharding"
import { Activity, DurableClock, Workflow, type WorkflowEngine } from "effect/workflow"
import * as BankGate from "./BankGate.ts"
import * as CheckFailure from "./CheckFailure.ts"
import { Checks, type ChecksError, Due, type Fence, key, Outcome } from "./Checks.ts"
import * as DatabaseRetry from "./internal/databaseRetry.ts"

/** The bank's answer to one balance check and the identifiers of the request that got it. */
export interface Answer {
  readonly answer: BalanceCheck.Answer
  readonly requestId?: string | undefined
  readonly responseId?: string | undefined
  /** Requests the check sent when more than one (a request answered 401, sent again with a new token). */
  readonly requests?: number | undefined
}

/** The balance check of one payment; the bank client satisfies it in a worker, a stub in tests. */
export class BalanceChecker extends Context.Service<
  BalanceChecker,
  {
    /** Asks the bank whether the payment's amount is available on its debtor IBAN, under the given Correlation-ID. */
    readonly check: (due: Due, correlationId: string) => Effect.Effect<Answer, CheckFailure.CheckFailure>
    /**
     * The bank a payment's check goes to (its consent's profile name), whose breaker (`BankGate.bank`) it passes;
     * absent: every check goes to one bank, the gate's `""`.
     */
    readonly bankOf?: ((due: Due) => Effect.Effect<string>) | undefined
  }
>()("@tppkit/worker/BalanceChecker") {}

/** Observes each finished check (metrics); the default does nothing. */
export const CheckObserver = Context.Reference<{
  readonly finished: (due: Due, outcome: Outcome, attempt: number, millis: number) => Effect.Effect<void>
}>("@tppkit/worker/CheckObserver", { defaultValue: () => ({ finished: () => Effect.void }) })

/** The workflow: one execution per payment key. */
export const FundsCheck = Workflow.make("tppkit/FundsCheck", {
  payload: Due,
  success: Outcome,
  idempotencyKey: key
})

/** How long to wait from `now` until `checkAt` (0 when it has passed). */
export const waitMillis = (checkAt: number, now: number): number => Math.max(0, checkAt - now)

/**
 * The balance check as an activity body: count the attempt, send, record the outcome (a request that never reached
 * the bank is not counted). `tryNo` is the check's try (1 for the first): a try whose outcome is recorded already
 * returns it and sends nothing.
 */
export const checkOnce = (due: Due, tryNo = 1): Effect.Effect<Outcome, ChecksError, Checks | BalanceChecker> =>
  Effect.map(attempt(due, tryNo), (a) => a.outcome)

/**
 * How the check store is tried again while the database is away (a restart, a fail-over): every 100 ms doubled up
 * to 5 s, for up to 10 minutes; nothing is sent to the bank before the attempt is counted.
 */
const databaseRetry = DatabaseRetry.within(DatabaseRetry.restart, "10 minutes")

/**
 * The `application_name` of this worker's database sessions, which holds its shards' advisory locks: with it every
 * write for a check is fenced by the check's shard lock (`Checks.Fence`); undefined (the default, a workflow engine
 * in memory): no fence.
 */
export const FenceHolder = Context.Reference<string | undefined>("@tppkit/worker/FundsCheckWorkflow/FenceHolder", {
  defaultValue: () => undefined
})

/**
 * The namespace of effect's cluster advisory locks (the first key, a hash of `effect-cluster:` and the table
 * prefix `cluster`, as effect's `SqlRunnerStorage` computes it).
 */
export const lockNamespace: number = (() => {
  const bytes = new TextEncoder().encode("effect-cluster:cluster")
  let hash = 0x811c9dc5
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193)
  return hash | 0
})()

/** The fence of the running workflow's writes: its shard's advisory lock, held by this worker's sessions. */
const fence: Effect.Effect<Fence | undefined> = Effect.gen(function* () {
  const holder = yield* FenceHolder
  const address = yield* Effect.serviceOption(Entity.CurrentAddress)
  const config = yield* Effect.serviceOption(ShardingConfig.ShardingConfig)
  if (holder === undefined || Option.isNone(address)) return undefined
  // effect's lock key of a shard: (its group's place among the groups + 1) * 1,000,000 + the shard's number; a
  // fleet's runner has effect's one default group unless its sharding configuration says otherwise
  const groups = Option.isSome(config) ? [...ShardingConfig.shardGroupConfig(config.value).available] : ["default"]
  const group = groups.indexOf(address.value.shardId.group)
  if (group < 0) return undefined
  return { namespace: lockNamespace, lock: (group + 1) * 1_000_000 + address.value.shardId.id, holder }
})

/** One try: its outcome, and whether a request was made for it now (false: the outcome was recorded already). */
const attempt = (
  due: Due,
  tryNo: number
): Effect.Effect<
  { readonly outcome: Outcome; readonly asked: boolean; readonly fenced?: boolean },
  ChecksError,
  Checks | BalanceChecker
> =>
  Effect.gen(function* () {
    const checks = yield* Checks
    const checker = yield* BalanceChecker
    const observer = yield* CheckObserver
    const correlationId = crypto.randomUUID()
    const guard = yield* fence
    const begun = yield* Effect.retry(checks.begin(due, correlationId, tryNo, guard), databaseRetry)
    // this worker lost the check's shard (paused, its locks expired): the new owner runs it
    if (begun.fenced === true) return { outcome: { outcome: "failed" }, asked: false, fenced: true }
    if (begun.recorded !== undefined) return { outcome: begun.recorded, asked: false }
    const started = yield* Clock.currentTimeMillis
    // requests sent beyond the first by this attempt (a 401 answered, then sent again with a new token)
    let extra = 0
    const outcome = yield* checker.check(due, correlationId).pipe(
      Effect.tap((a) =>
        Effect.sync(() => {
          extra = Math.max(0, (a.requests ?? 1) - 1)
        })
      ),
      Effect.tapError((f) =>
        Effect.sync(() => {
          if (f._tag !== "BankError") return
          // a token that could not be had after requests answered 401: those requests were sent
          const requests = f.operation === "balanceCheck" ? (f.attempts ?? 1) : (f.callRequests ?? 0)
          extra = Math.max(0, requests - 1)
        })
      ),
      Effect.match({
        onSuccess: (a): Outcome => ({
          outcome: a.answer,
          ...(a.requestId === undefined ? {} : { requestId: a.requestId }),
          ...(a.responseId === undefined ? {} : { responseId: a.responseId })
        }),
        onFailure: (failure): Outcome => {
          const identity = failure._tag === "BankError" ? failure.identity : {}
          return {
            outcome: "failed",
            failure,
            ...(identity.requestId === undefined ? {} : { requestId: identity.requestId }),
            ...(identity.responseId === undefined ? {} : { responseId: identity.responseId })
          }
        }
      })
    )
    const now = yield* Clock.currentTimeMillis
    const sent = outcome.failure === undefined || CheckFailure.wasSent(outcome.failure)
    // the request was sent: its outcome must be recorded, or another worker sends it again
    yield* Effect.retry(
      checks.finish(due, outcome, now, { tryNo, correlationId, sent, attempt: begun.attempt, fence: guard, extra }),
      databaseRetry
    )
    yield* observer.finished(due, outcome, begun.attempt, now - started)
    return { outcome, asked: true }
  })

/**
 * How many balance checks one worker has in flight at most by default (attempt counted, bank asked, outcome not yet
 * recorded; {@link ChecksInFlight} sets another number). A sweep starts thousands of workflows at once; without a bound every one of them counts its attempt
 * and waits for the bank or the CPU, and a worker that dies then leaves all of them to be sent again.
 */
export const maxChecksInFlight = 64

/**
 * How a check that failed on a transient fault (http's `FailureClass.isTransient`: the bank unavailable, a
 * timeout, 429) is tried again: after the nominal waits of `backoff` (no jitter is drawn: a workflow's waits are the
 * same when it is replayed), until the end of the payment's execution date in `timeZone`; after that the check ends
 * without an answer. A refusal is a final answer and is never tried again. The bank's circuit breaker of the worker
 * (`BankGate`) opens for the back-off's first wait, doubled up to its cap.
 */
export interface Retry {
  readonly backoff: Backoff.Backoff
  readonly timeZone: string
}

/** The retry of failed checks (default: 5 s doubled up to 5 minutes, days in Europe/Bratislava). */
export const CheckRetry = Context.Reference<Retry>("@tppkit/worker/CheckRetry", {
  defaultValue: () => ({
    backoff: Backoff.exponential({ initial: "5 seconds", cap: "5 minutes" }),
    timeZone: LocalDate.bankTimeZone
  })
})

/** The wait before try `n + 1` (n ≥ 1): the back-off doubled per try up to `max`. */
export const backoffMillis = (retry: Retry, n: number): number => Backoff.nominalMillis(retry.backoff, n) ?? 0

/** The instant a payment's execution date ends in a time zone (epoch milliseconds): the last moment to retry. */
export const endOfDay = (date: LocalDate.LocalDate, timeZone: string): number => {
  const next = LocalDate.toParts(LocalDate.addDays(date, 1))
  return DateTime.makeZonedUnsafe(
    { year: next.year, month: next.month, day: next.day, hour: 0 },
    { timeZone, adjustForTimeZone: true, disambiguation: "compatible" }
  ).epochMilliseconds
}

/** Whether a check's failure may pass, so that it is tried again. */
export const isTransient = (outcome: Outcome): boolean =>
  outcome.outcome === "failed" &&
  outcome.failure !== undefined &&
  outcome.failure._tag === "BankError" &&
  FailureClass.isTransient(outcome.failure.reason)

/** What the bank did with a check: answered (a refusal too), failed transiently, or nothing was asked. */
export const gateResult = (outcome: Outcome): BankGate.Signal =>
  outcome.outcome !== "failed"
    ? "answer"
    : isTransient(outcome)
      ? "transient"
      : outcome.failure?._tag === "BankError"
        ? "answer"
        : "none"

/** How many checks one worker has in flight at most (default {@link maxChecksInFlight}); read when the layer is built. */
export const ChecksInFlight = Context.Reference<number>("@tppkit/worker/ChecksInFlight", {
  defaultValue: () => maxChecksInFlight
})

/**
 * Whether this runner still owns the shard of the workflow running now (true outside a cluster entity, e.g. on a
 * workflow engine in memory). Effect's cluster moves a shard away (a runner joins or leaves) before it interrupts
 * the shard's entities and releases its lock, and a workflow's run is uninterruptible: it goes on running on the
 * old runner for up to the entity termination timeout, and one still waiting there for a slot or the bank gate
 * when the lock is released would send its check while the new owner replays it and sends it too.
 */
const ownsShard: Effect.Effect<boolean> = Effect.gen(function* () {
  const address = yield* Effect.serviceOption(Entity.CurrentAddress)
  const sharding = yield* Effect.serviceOption(Sharding)
  return Option.isNone(address) || Option.isNone(sharding) || sharding.value.hasShardId(address.value.shardId)
})

/**
 * Leaves the running workflow to its shard's new owner: an interrupt marked as effect's cluster abandonment, which
 * the engine neither stores as the run's reply nor retries here (the new owner replays the run from storage).
 */
const abandon: Effect.Effect<never> = Effect.withFiber((fiber) => {
  fiber.interruptUnsafe(fiber.id, ClusterSchema.Abandon.annotation)
  return Effect.interruptible(Effect.never)
})

/** This worker's checks in flight, and the drain of a worker that stops. */
export class InFlight extends Context.Service<
  InFlight,
  {
    /** The most checks in flight at once ({@link ChecksInFlight}). */
    readonly cap: number
    /** How many checks are in flight now (passed the bank gate, outcome not yet recorded). */
    readonly count: Effect.Effect<number>
    /**
     * Stops this worker from sending any further check and waits until the checks in flight have their outcomes
     * recorded, at most `timeout`; returns how many were still in flight then (0: drained).
     */
    readonly drain: (timeout: Duration.Input) => Effect.Effect<number>
  }
>()("@tppkit/worker/FundsCheckWorkflow/InFlight") {}

/**
 * The workflow's implementation, with this worker's checks in flight ({@link InFlight}); needs the check store and
 * the balance checker. Every check passes the `BankGate` (the fleet's when one is provided, else one of this
 * worker with the back-off of {@link CheckRetry}) inside one of the {@link ChecksInFlight} slots before it is sent.
 */
export const layer: Layer.Layer<InFlight, never, WorkflowEngine.WorkflowEngine | Checks | BalanceChecker> =
  Layer.unwrap(
    Effect.gen(function* () {
      const cap = Math.max(1, Math.floor(yield* ChecksInFlight))
      const slots = Semaphore.makeUnsafe(cap)
      const retry0 = yield* CheckRetry
      const checker = yield* BalanceChecker
      const gates = yield* Option.match(yield* Effect.serviceOption(BankGate.BankGate), {
        onSome: Effect.succeed,
        onNone: () => BankGate.makeMemory({ initial: retry0.backoff.initial, max: retry0.backoff.cap })
      })
      let running = 0
      let draining = false
      // one try: a slot, the gate (inside the slot, right before sending), then the check; a draining worker
      // sends nothing more, and a runner whose shard has moved leaves the check to the shard's new owner
      const send = (due: Due, tryNo: number) =>
        slots.withPermits(1)(
          Effect.gen(function* () {
            if (draining) return yield* Effect.never
            // the breaker of the payment's bank: one bank's outage holds back no other bank's checks
            const gate = checker.bankOf === undefined ? gates : gates.bank(yield* checker.bankOf(due))
            yield* gate.pass
            if (draining) return yield* Effect.never
            if (!(yield* ownsShard)) return yield* abandon
            const sentAt = yield* Clock.currentTimeMillis
            running++
            return yield* Effect.orDie(attempt(due, tryNo)).pipe(
              Effect.tap((a) => (a.fenced === true ? abandon : Effect.void)),
              Effect.tap((a) => (a.asked ? gate.record(gateResult(a.outcome), sentAt) : Effect.void)),
              Effect.map((a) => a.outcome),
              Effect.ensuring(
                Effect.sync(() => {
                  running--
                })
              )
            )
          })
        )
      const inFlight = InFlight.of({
        cap,
        count: Effect.sync(() => running),
        drain: (timeout) =>
          Effect.gen(function* () {
            draining = true
            const until = (yield* Clock.currentTimeMillis) + Duration.toMillis(Duration.fromInputUnsafe(timeout))
            while (running > 0 && (yield* Clock.currentTimeMillis) < until) yield* Effect.sleep("20 millis")
            return running
          })
      })
      const workflow = FundsCheck.toLayer(
        Effect.fn(function* (due) {
          const retry = yield* CheckRetry
          // a check due right away (checkAt 0, the usual case) needs no journaled clock reading: one message fewer
          if (due.checkAt > 0) {
            const wait = yield* Activity.make({
              name: "wait",
              success: Schema.Number,
              execute: Effect.map(Clock.currentTimeMillis, (now) => waitMillis(due.checkAt, now))
            })
            if (wait > 0) yield* DurableClock.sleep({ name: "untilCheck", duration: Duration.millis(wait) })
          }
          // each try is journaled by the check store (counted before it is sent, a recorded try returned as it is)
          // and each wait is a journaled clock reading and a durable sleep; a transient failure is tried again until
          // the payment's execution date has passed
          for (let n = 1; ; n++) {
            const outcome = yield* send(due, n)
            if (!isTransient(outcome)) return outcome
            const wait = yield* Activity.make({
              name: `retryWait#${n}`,
              success: Schema.Number,
              execute: Effect.map(Clock.currentTimeMillis, (now) => {
                const wait = backoffMillis(retry, n)
                return now + wait < endOfDay(due.executionDate, retry.timeZone) ? wait : -1
              })
            })
            if (wait < 0) return outcome
            yield* DurableClock.sleep({ name: `retry#${n}`, duration: Duration.millis(wait) })
          }
        })
      )
      return Layer.merge(workflow, Layer.succeed(InFlight)(inFlight))
    })
  )
