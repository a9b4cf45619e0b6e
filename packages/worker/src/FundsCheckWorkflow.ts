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
import { Clock, Context, Duration, Effect, Layer, Schema, Semaphore } from "effect"
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

/** The workflow's implementation; needs the check store and the balance checker. */
export const layer: Layer.Layer<never, never, WorkflowEngine.WorkflowEngine | Checks | BalanceChecker> = Layer.unwrap(
  Effect.sync(() => {
    const inFlight = Semaphore.makeUnsafe(maxChecksInFlight)
    return FundsCheck.toLayer(
      Effect.fn(function* (due) {
        // a check due right away (checkAt 0, the usual case) needs no journaled clock reading: one message fewer
        if (due.checkAt > 0) {
          const wait = yield* Activity.make({
            name: "wait",
            success: Schema.Number,
            execute: Effect.map(Clock.currentTimeMillis, (now) => waitMillis(due.checkAt, now))
          })
          if (wait > 0) yield* DurableClock.sleep({ name: "untilCheck", duration: Duration.millis(wait) })
        }
        return yield* Activity.make({
          name: "balanceCheck",
          success: Outcome,
          execute: inFlight.withPermits(1)(Effect.orDie(checkOnce(due)))
        })
      })
    )
  })
)
