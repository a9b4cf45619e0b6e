/**
 * `Runner`: one worker of the fleet as a layer from its settings. The bank clients the fleet builds send one request
 * per try (`Runner.singleRequest`): the fleet retries a balance check and a listing itself, so that a check's
 * `attempts` counts the requests the bank received. The layer itself runs in every fleet test through `tppkit worker`
 * (test/e2e, test/cli's worker tests).
 */

import { it as effectIt } from "@effect/vitest"
import { BankConfig } from "@tppkit/http"
import { Checks, Runner } from "@tppkit/worker"
import { ConfigProvider, Effect, Fiber, Redacted, Result } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { due } from "./support.ts"

describe("Runner.singleRequest", () => {
  it("leaves one attempt per request and every other setting as it was", () => {
    const settings = Result.getOrThrow(
      BankConfig.make({
        environment: "sandbox",
        baseUrl: "http://127.0.0.1:8080",
        clientId: "client",
        clientSecret: Redacted.make("secret"),
        retry: { maxAttempts: 5, baseDelay: "10 millis" }
      })
    )
    const single = Runner.singleRequest(settings)
    expect(single.retry.maxAttempts).toBe(1)
    expect({ ...single, retry: { ...single.retry, maxAttempts: 5 } }).toEqual(settings)
    // the settings given are not changed
    expect(settings.retry.maxAttempts).toBe(5)
  })
})

describe("Runner's settings of the environment", () => {
  const read = <A, E>(effect: Effect.Effect<A, E>, env: Record<string, string>) =>
    Effect.runSync(
      Effect.result(
        effect.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env)))
      )
    )
  const refused = (r: Result.Result<unknown, unknown>): string => {
    if (Result.isSuccess(r)) throw new Error("expected a failure")
    const e = r.failure as { readonly _tag: string; readonly reason?: string; readonly message: string }
    return `${e._tag}${e.reason === undefined ? "" : `/${e.reason}`}: ${e.message.split("\n")[0]}`
  }

  it("reads nothing where nothing is set: the defaults stand", () => {
    expect(read(Runner.sweepRetryFromEnv, {})).toEqual(Result.succeed(undefined))
    expect(read(Runner.listingPageSizeFromEnv, {})).toEqual(Result.succeed(undefined))
    expect(read(Runner.timingFromEnv, {})).toEqual(Result.succeed({}))
  })

  it("reads the values given, and refuses one out of its range naming the variable", () => {
    expect(read(Runner.listingPageSizeFromEnv, { TPPKIT_WORKER_PAGE_SIZE: "50" })).toEqual(Result.succeed(50))
    expect(refused(read(Runner.listingPageSizeFromEnv, { TPPKIT_WORKER_PAGE_SIZE: "55" }))).toBe(
      "FleetError/settings: TPPKIT_WORKER_PAGE_SIZE=55: a multiple of 10 from 10 to 100"
    )
    const retry = read(Runner.sweepRetryFromEnv, {
      TPPKIT_WORKER_SWEEP_TRIES: "0",
      TPPKIT_WORKER_SWEEP_BACKOFF_MS: "100"
    })
    expect(Result.isSuccess(retry) && retry.success?.tries).toBe(1)
    const timing = read(Runner.timingFromEnv, { TPPKIT_WORKER_POLL_MS: "500", TPPKIT_WORKER_RESIDENT_CHECKS: "5" })
    expect(Result.isSuccess(timing) && timing.success.maxResidentEntities).toBe(100)
    const checks = read(Runner.checkRetryFromEnv("Europe/Bratislava"), { TPPKIT_WORKER_CHECKS_IN_FLIGHT: "8" })
    expect(Result.isSuccess(checks) && [checks.success.checksInFlight, checks.success.checkRetry.timeZone]).toEqual([
      8,
      "Europe/Bratislava"
    ])
    expect(refused(read(Runner.checkRetryFromEnv("UTC"), { TPPKIT_WORKER_CHECKS_IN_FLIGHT: "0" }))).toBe(
      "FleetError/settings: TPPKIT_WORKER_CHECKS_IN_FLIGHT: expected a whole number from 1 to 10000"
    )
    expect(refused(read(Runner.webhookTimingFromEnv, { TPPKIT_WEBHOOK_BACKOFF_MS: "100" }))).toMatch(
      /^FleetError\/settings: TPPKIT_WEBHOOK_BACKOFF_MS is gone/
    )
    expect(refused(read(Runner.webhookTimingFromEnv, { TPPKIT_WEBHOOK_RETRY_SCALE: "2" }))).toMatch(
      /^FleetError\/settings: TPPKIT_WEBHOOK_RETRY_SCALE=2: a number above 0 and at most 1/
    )
    // a value that is no number at all is effect's ConfigError (the CLI names the variable and the form it needs)
    expect(refused(read(Runner.timingFromEnv, { TPPKIT_WORKER_POLL_MS: "soon" }))).toMatch(/^ConfigError/)
  })
})

describe("Runner.awaitDay", () => {
  it("returns once every check the sweep of the day planned is finished, whichever worker finishes it", async () => {
    const day = "2026-02-26"
    const program = Effect.gen(function* () {
      const checks = yield* Checks.Checks
      const planned = [due({ orderId: "SO-1", sweepDay: day }), due({ orderId: "SO-2", sweepDay: day })]
      yield* checks.plan(planned)
      // a check of another day does not hold it back
      yield* checks.plan([due({ orderId: "SO-3", sweepDay: "2026-02-27" })])
      const waiting = yield* Effect.forkChild(Runner.awaitDay(day, "10 millis"))
      yield* Effect.sleep("50 millis")
      expect(waiting.pollUnsafe()).toBeUndefined()
      for (const d of planned) {
        yield* checks.begin(d, `corr-${d.orderId}`)
        yield* checks.finish(d, { outcome: "APPR" }, Date.now())
      }
      yield* Fiber.join(waiting)
      expect(yield* checks.pending(day)).toBe(0)
    })
    await Effect.runPromise(program.pipe(Effect.provide(Checks.Checks.layerMemory)))
  })

  effectIt.effect(
    "with a stall bound, returns the checks still pending once none of the day's checks finished for that long",
    () =>
      Effect.gen(function* () {
        const day = "2026-02-26"
        const checks = yield* Checks.Checks
        const [first, second] = [due({ orderId: "SO-1", sweepDay: day }), due({ orderId: "SO-2", sweepDay: day })]
        yield* checks.plan([first, second])
        // SO-1 finishes while it waits; SO-2's workflow never runs
        const waiting = yield* Effect.forkChild(Runner.awaitDay(day, "1 second", "1 minute"))
        yield* TestClock.adjust("50 seconds")
        yield* checks.begin(first, "corr-SO-1")
        yield* checks.finish(first, { outcome: "APPR" }, 0)
        // the finished check restarted the bound: still waiting 100 s after the start, done a minute after the finish
        yield* TestClock.adjust("50 seconds")
        expect(waiting.pollUnsafe()).toBeUndefined()
        yield* TestClock.adjust("15 seconds")
        expect(yield* Fiber.join(waiting)).toBe(1)
      }).pipe(Effect.provide(Checks.Checks.layerMemory))
  )
})
