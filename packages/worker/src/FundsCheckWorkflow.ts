/**
 * The durable funds check of one payment, on effect's workflow engine: keyed by (consent, orderId, nominalDate),
 * so that starting it any number of times from any runner gives one execution in the whole cluster. It waits
 * durably until its check instant, then runs the balance check as an activity (its result journaled: a finished
 * check never runs again on replay) and records the outcome. The bank call itself is at-least-once: a runner that
 * dies after sending and before the activity's result is stored makes another runner send it again; every
 * attempt is counted before it is sent, so a repeat shows as `attempts: 2`.
 *
 * @since 0.1.0
 */
import type { BalanceCheck } from "@tppkit/core"
import * as FailureClass from "@tppkit/http/FailureClass"
import { Clock, Context, DateTime, Duration, Effect, Layer, Schema, Semaphore } from "effect"
import { Activity, DurableClock, Workflow, type WorkflowEngine } from "effect/workflow"
import type * as CheckFailure from "./CheckFailure.ts"
import { Checks, type ChecksError, Due, key, Outcome } from "./Checks.ts"

/** The bank's answer to one balance check and the identifiers of the request that got it. */
export interface Answer {
  readonly answer: BalanceCheck.Answer
  readonly requestId?: string | undefined
  readonly responseId?: string | undefined
}

/** The balance check of one payment; the bank client satisfies it in a worker, a stub in tests. */
export class BalanceChecker extends Context.Service<
  BalanceChecker,
  {
    /** Asks the bank whether the payment's amount is available on its debtor IBAN, under the given Correlation-ID. */
    readonly check: (due: Due, correlationId: string) => Effect.Effect<Answer, CheckFailure.CheckFailure>
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

/** The balance check as an activity body: count the attempt, send, record the outcome. */
export const checkOnce = (due: Due): Effect.Effect<Outcome, ChecksError, Checks | BalanceChecker> =>
  Effect.gen(function* () {
    const checks = yield* Checks
    const checker = yield* BalanceChecker
    const observer = yield* CheckObserver
    const correlationId = crypto.randomUUID()
    const attempt = yield* checks.begin(due, correlationId)
    const started = yield* Clock.currentTimeMillis
    const outcome = yield* checker.check(due, correlationId).pipe(
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
    yield* checks.finish(due, outcome, now)
    yield* observer.finished(due, outcome, attempt, now - started)
    return outcome
  })

/**
 * How many balance checks one worker has in flight at most (attempt counted, bank asked, outcome not yet
 * recorded). A sweep starts thousands of workflows at once; without a bound every one of them counts its attempt
 * and waits for the bank or the CPU, and a worker that dies then leaves all of them to be sent again.
 */
export const maxChecksInFlight = 64

/**
 * How a check that failed on a transient fault (http's `FailureClass.isTransient`: the bank unavailable, a
 * timeout, 429) is tried again: the first wait, doubled after each try up to `max`, until the end of the payment's
 * execution date in `timeZone`; after that the check ends without an answer. A refusal is a final answer and is
 * never tried again.
 */
export interface Retry {
  readonly initial: Duration.Input
  readonly max: Duration.Input
  readonly timeZone: string
}

/** The retry of failed checks (default: 5 s doubled up to 5 minutes, days in Europe/Bratislava). */
export const CheckRetry = Context.Reference<Retry>("@tppkit/worker/CheckRetry", {
  defaultValue: () => ({ initial: "5 seconds", max: "5 minutes", timeZone: "Europe/Bratislava" })
})

/** The wait before try `n + 1` (n ≥ 1): the back-off doubled per try up to `max`. */
export const backoffMillis = (retry: Retry, n: number): number => {
  const initial = Duration.toMillis(Duration.fromInputUnsafe(retry.initial))
  const max = Duration.toMillis(Duration.fromInputUnsafe(retry.max))
  return Math.min(max, initial * 2 ** Math.max(0, n - 1))
}

/** The instant a payment's execution date ends in a time zone (epoch milliseconds): the last moment to retry. */
export const endOfDay = (date: string, timeZone: string): number => {
  const [year, month, day] = date.split("-").map(Number)
  const next = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, (day ?? 1) + 1))
  return DateTime.makeZonedUnsafe(
    { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), hour: 0 },
    { timeZone, adjustForTimeZone: true, disambiguation: "compatible" }
  ).epochMilliseconds
}

/** Whether a check's failure may pass, so that it is tried again. */
export const isTransient = (outcome: Outcome): boolean =>
  outcome.outcome === "failed" &&
  outcome.failure !== undefined &&
  outcome.failure._tag === "BankError" &&
  FailureClass.isTransient(outcome.failure.reason)

/**
 * The bank's state as this worker sees it: after a transient failure no check is sent until `until` (the fleet's
 * back-off, doubled while failures go on, reset by an answer), so that a backlog is not drained into a dead bank.
 */
const makeGate = () => {
  let until = 0
  let wait = 0
  return {
    /** Waits until the bank may be asked again. */
    pass: Effect.flatMap(Clock.currentTimeMillis, (now) =>
      until > now ? Effect.sleep(Duration.millis(until - now)) : Effect.void
    ),
    /** Records a check's outcome: a transient failure closes the gate for the back-off, an answer opens it. */
    after: (outcome: Outcome, retry: Retry) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.sync(() => {
          if (!isTransient(outcome)) {
            if (outcome.outcome !== "failed") wait = 0
            return
          }
          if (now >= until) {
            wait = wait === 0 ? backoffMillis(retry, 1) : Math.min(wait * 2, backoffMillis(retry, 64))
            until = now + wait
          }
        })
      )
  }
}

/** The workflow's implementation; needs the check store and the balance checker. */
export const layer: Layer.Layer<never, never, WorkflowEngine.WorkflowEngine | Checks | BalanceChecker> = Layer.unwrap(
  Effect.sync(() => {
    const inFlight = Semaphore.makeUnsafe(maxChecksInFlight)
    const gate = makeGate()
    return FundsCheck.toLayer(
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
        // each try is a journaled activity and each wait a durable sleep; a transient failure is tried again until
        // the payment's execution date has passed
        for (let n = 1; ; n++) {
          const outcome = yield* Activity.make({
            name: n === 1 ? "balanceCheck" : `balanceCheck#${n}`,
            success: Outcome,
            execute: Effect.andThen(
              gate.pass,
              inFlight.withPermits(1)(Effect.tap(Effect.orDie(checkOnce(due)), (outcome) => gate.after(outcome, retry)))
            )
          })
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
  })
)
