/**
 * How long to wait before each retry: one value for every retry of the packages (the client's requests, the
 * worker's listings, checks and webhook deliveries). A back-off is either exponential (the first wait, multiplied by
 * `factor` after each retry up to `cap`) or a table of explicit waits, and each wait may be moved by a random
 * multiplier drawn from `jitter`. Pure: the caller draws the random number and decides how many tries it makes.
 *
 * @since 0.1.0
 */
import { Cause, Duration, Effect, Random, Schedule } from "effect"

/** How long to wait before each retry. */
export interface Backoff {
  /** The wait after the first failure. */
  readonly initial: Duration.Input
  /** Each further wait is the one before times `factor` (2: doubled). */
  readonly factor: number
  /** The longest wait before the jitter ("Infinity": none). */
  readonly cap: Duration.Input
  /** The range of the random multiplier of each wait, low and high (`[1, 1]`: no jitter). */
  readonly jitter: readonly [low: number, high: number]
  /**
   * Explicit waits instead of the exponential ones (a schedule given as a table): the wait after `n` failures is
   * `delays[n - 1]`, and there is none after the last.
   */
  readonly delays?: ReadonlyArray<Duration.Input> | undefined
}

/** No jitter: each wait is exactly its nominal one. */
export const noJitter: readonly [number, number] = [1, 1]

/** An exponential back-off: `initial`, multiplied by `factor` (default 2) after each retry up to `cap`. */
export const exponential = (options: {
  readonly initial: Duration.Input
  readonly cap?: Duration.Input | undefined
  readonly factor?: number | undefined
  readonly jitter?: readonly [number, number] | undefined
}): Backoff => ({
  initial: options.initial,
  factor: options.factor ?? 2,
  cap: options.cap ?? "Infinity",
  jitter: options.jitter ?? noJitter
})

/** The same wait after every failure, `every`, without jitter (a poll, a health check's retries). */
export const spaced = (every: Duration.Input): Backoff => exponential({ initial: every, factor: 1 })

/** A back-off given as a table: the wait after `n` failures is `delays[n - 1]`, moved within `jitter`. */
export const table = (
  delays: ReadonlyArray<Duration.Input>,
  jitter: readonly [number, number] = noJitter
): Backoff => ({
  initial: delays[0] ?? 0,
  factor: 1,
  cap: "Infinity",
  jitter,
  delays
})

const millis = (input: Duration.Input): number => Duration.toMillis(Duration.fromInputUnsafe(input))

/**
 * The nominal wait after `failures` failures (1 for the first), milliseconds, before the jitter: `undefined` when a
 * table is used up (or `failures` is below 1).
 */
export const nominalMillis = (backoff: Backoff, failures: number): number | undefined => {
  if (backoff.delays !== undefined) {
    const delay = failures >= 1 ? backoff.delays[failures - 1] : undefined
    return delay === undefined ? undefined : millis(delay)
  }
  return Math.min(millis(backoff.cap), millis(backoff.initial) * backoff.factor ** Math.max(0, failures - 1))
}

/**
 * The wait after `failures` failures, milliseconds, with `random` (0 to 1) choosing the multiplier within the
 * jitter; `undefined` when a table is used up. Not rounded: the caller rounds as its clock needs.
 */
export const delayMillis = (backoff: Backoff, failures: number, random: number): number | undefined => {
  const nominal = nominalMillis(backoff, failures)
  if (nominal === undefined) return undefined
  const [low, high] = backoff.jitter
  return low === 1 && high === 1 ? nominal : nominal * (random * (high - low) + low)
}

/** The longest nominal wait: a table's largest entry, or the cap of an exponential back-off. */
export const longestMillis = (backoff: Backoff): number =>
  backoff.delays === undefined ? millis(backoff.cap) : Math.max(0, ...backoff.delays.map(millis))

/** The same back-off with every wait multiplied by `k` (a test's or a demo's faster clock). */
export const scale = (backoff: Backoff, k: number): Backoff => ({
  ...backoff,
  initial: millis(backoff.initial) * k,
  cap: millis(backoff.cap) * k,
  ...(backoff.delays === undefined ? {} : { delays: backoff.delays.map((d) => millis(d) * k) })
})

/**
 * The back-off as effect's `Schedule` (for `Effect.retry`/`Effect.repeat`): it recurs after each wait, the jitter
 * (if any) drawn from effect's `Random`, and stops when a table is used up. Bound it with `times` or `Schedule.upTo`.
 */
export const schedule = (backoff: Backoff): Schedule.Schedule<Duration.Duration> => {
  const jittered = backoff.jitter[0] !== 1 || backoff.jitter[1] !== 1
  const step = (failures: number, random: number) => {
    const wait = delayMillis(backoff, failures, random)
    if (wait === undefined) return Cause.done(Duration.zero)
    const duration = Duration.millis(wait)
    return Effect.succeed<[Duration.Duration, Duration.Duration]>([duration, duration])
  }
  return Schedule.fromStepWithMetadata(
    Effect.succeed((meta: Schedule.InputMetadata<unknown>) =>
      jittered ? Effect.flatMap(Random.next, (random) => step(meta.attempt, random)) : step(meta.attempt, 1)
    )
  )
}
