/**
 * The one retry rule of the client (README.md, "Retries"): which failures are repeated (`isTransient`: connect
 * failure, reset, timeout, truncated body, 502/503/504, 429), how often and how long apart (`schedule`: bounded
 * attempts and total time, exponential backoff with jitter, the bank's Retry-After honoured up to what is left
 * of the time), and who never retries (unattended listing pages: `policyFor`).
 */
import { Backoff } from "@tppkit/core"
import { Cause, Duration, Effect, Random, Schedule } from "effect"
import type { RetryPolicy } from "../BankConfig.ts"
import { type BankError, withAttempts, withCallRequests } from "../BankError.ts"
import { isTransient } from "../FailureClass.ts"

/**
 * No retries: the policy of unattended requests, which spend the daily budget (docs/bank-interface.md, "Daily limit").
 */
export const once = (policy: RetryPolicy): RetryPolicy => ({ ...policy, maxAttempts: 1 })

/** The policy a request follows: the configured one, or a single attempt when it is unattended. */
export const policyFor = (policy: RetryPolicy, unattended: boolean): RetryPolicy => (unattended ? once(policy) : policy)

/**
 * The retry schedule over the failures of a request: it continues while the failure is transient, fewer than
 * `maxAttempts` attempts were made and the next delay ends within `maxElapsed` of the first failure. The delay is
 * the policy's `backoff` (doubled from `baseDelay` up to `maxDelay`, jittered to 50–100 %), and is at least the bank's Retry-After
 * (a Retry-After longer than the time left stops the retries: the error says when to come back).
 */
export const schedule = (policy: RetryPolicy): Schedule.Schedule<number, BankError> => {
  const budget = Duration.toMillis(policy.maxElapsed)
  return Schedule.fromStepWithMetadata(
    Effect.succeed((meta: Schedule.InputMetadata<BankError>) => {
      const error = meta.input
      // `attempt` counts the failures seen so far, the first one included
      if (meta.attempt >= policy.maxAttempts || !isTransient(error.reason)) return Cause.done(meta.attempt)
      return Effect.flatMap(Random.next, (random) => {
        const reason = error.reason
        const retryAfter =
          reason._tag === "TooManyRequests" && reason.retryAfterSeconds !== undefined
            ? reason.retryAfterSeconds * 1000
            : 0
        const delay = Math.ceil(Math.max(Backoff.delayMillis(policy.backoff, meta.attempt, random) ?? 0, retryAfter))
        return meta.elapsed + delay > budget
          ? Cause.done(meta.attempt)
          : Effect.succeed([meta.attempt, Duration.millis(delay)] as [number, Duration.Duration])
      })
    })
  )
}

/**
 * The requests of its own operation a failed attempt stands for: one, or for a failed token request the token
 * requests it made (the token service retries them itself), so that a token asked for three times reads
 * "(3 attempts)".
 */
const sentBy = (e: BankError): number => (e.operation === "token" ? Math.max(1, e.attempts ?? 1) : 1)

/**
 * Runs the effect `attempt` makes (a fresh one per attempt: fresh Request-IDs) and repeats it by
 * `schedule(policy)` through `Effect.retry`; the failure that ends it says how many attempts were made. The
 * first attempt runs outside the retry machinery, which only a failure pays for.
 */
export const retrying = <A>(
  policy: RetryPolicy,
  attempt: () => Effect.Effect<A, BankError>
): Effect.Effect<A, BankError> => Effect.catch(attempt(), (first) => afterFirstFailure(policy, first, attempt))

/**
 * What follows the first attempt's failure `first` (see {@link retrying}): the failure with its attempt count when
 * it is not retried, else the retries of `attempt` by `schedule(policy)`. For a caller that runs its first attempt
 * under a failure handler of its own.
 */
export const afterFirstFailure = <A>(
  policy: RetryPolicy,
  first: BankError,
  attempt: () => Effect.Effect<A, BankError>
): Effect.Effect<A, BankError> => {
  if (policy.maxAttempts <= 1 || !isTransient(first.reason)) return Effect.fail(withAttempts(first, sentBy(first)))
  let attempts = 0
  /** Requests sent per operation by the failed attempts: a failed token request is not a request of the call's own. */
  const sent = new Map<string, number>()
  /** The call's own requests that reached the bank before a token request failed them (a 401, then no new token). */
  let callRequests = 0
  const count = (e: BankError) =>
    Effect.sync(() => {
      sent.set(e.operation, (sent.get(e.operation) ?? 0) + sentBy(e))
      callRequests += e.callRequests ?? 0
    })
  // the schedule sees the first failure again as its first input, then every later attempt's failure
  const again = Effect.suspend(() =>
    attempts++ === 0 ? Effect.andThen(count(first), Effect.fail(first)) : Effect.tapError(attempt(), count)
  )
  return Effect.mapError(Effect.retry(again, schedule(policy)), (error) => {
    const counted = withAttempts(error, sent.get(error.operation) ?? attempts)
    return error.operation === "token" && callRequests > 0 ? withCallRequests(counted, callRequests) : counted
  })
}
