import { assert, describe, it } from "@effect/vitest"
import { Backoff } from "@tppkit/core"
import { Duration, Effect, Random, Schedule } from "effect"
import fc from "fast-check"

/** The first `n` delays a schedule asks for, in milliseconds. */
const delaysOf = (schedule: Schedule.Schedule<unknown, unknown>, n: number) =>
  Effect.gen(function* () {
    const step = yield* Schedule.toStep(schedule)
    const out: Array<number> = []
    for (let i = 0; i < n; i++) {
      const next = yield* Effect.result(step(0, undefined))
      if (next._tag === "Failure") break
      out.push(Duration.toMillis(next.success[1]))
    }
    return out
  })

describe("Backoff", () => {
  it("exponential: the first wait, multiplied by the factor after each failure, up to the cap", () => {
    const backoff = Backoff.exponential({ initial: "5 seconds", cap: "5 minutes" })
    assert.deepStrictEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => Backoff.nominalMillis(backoff, n)),
      [5000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]
    )
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 1, max: 3, noNaN: true }),
        (initial, cap, failures, factor) => {
          const b = Backoff.exponential({ initial, cap, factor })
          const wait = Backoff.nominalMillis(b, failures) as number
          assert.strictEqual(wait, Math.min(cap, initial * factor ** (failures - 1)))
          // without jitter the random number changes nothing
          assert.strictEqual(Backoff.delayMillis(b, failures, 0.3), wait)
        }
      ),
      { numRuns: 10_000 }
    )
  })

  it("jitter: each wait moves within its range, the low end at 0 and towards the high end at 1", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        (failures, random) => {
          const b = Backoff.exponential({ initial: 200, cap: 5000, jitter: [0.5, 1] })
          const nominal = Backoff.nominalMillis(b, failures) as number
          const wait = Backoff.delayMillis(b, failures, random) as number
          assert.isAtLeast(wait, nominal * 0.5)
          assert.isAtMost(wait, nominal)
        }
      ),
      { numRuns: 10_000 }
    )
    const b = Backoff.exponential({ initial: 200, jitter: [0.5, 1] })
    assert.strictEqual(Backoff.delayMillis(b, 1, 0), 100)
  })

  it("table: the wait after n failures is the n-th entry, none after the last", () => {
    const b = Backoff.table([5, 300, 1800], [0.9, 1.1])
    assert.deepStrictEqual(
      [0, 1, 2, 3, 4].map((n) => Backoff.nominalMillis(b, n)),
      [undefined, 5, 300, 1800, undefined]
    )
    assert.strictEqual(Backoff.delayMillis(b, 2, 0.5), 300)
    assert.strictEqual(Backoff.longestMillis(b), 1800)
    assert.deepStrictEqual(Backoff.scale(b, 2).delays, [10, 600, 3600])
  })

  it.effect("schedule: the same delays as effect's exponential schedule capped, and stops at a table's end", () =>
    Effect.gen(function* () {
      const ours = yield* delaysOf(
        Backoff.schedule(Backoff.exponential({ initial: "100 millis", cap: "5 seconds" })),
        9
      )
      const effects = yield* delaysOf(
        Schedule.exponential("100 millis").pipe(
          Schedule.modifyDelay((m) => Effect.succeed(Duration.min(m.duration, Duration.seconds(5))))
        ),
        9
      )
      assert.deepStrictEqual(ours, effects)
      // uncapped, as the worker's journals retry, and spaced, as a poll does
      assert.deepStrictEqual(
        yield* delaysOf(Backoff.schedule(Backoff.exponential({ initial: "200 millis" })), 9),
        yield* delaysOf(Schedule.exponential("200 millis"), 9)
      )
      assert.deepStrictEqual(
        yield* delaysOf(Backoff.schedule(Backoff.spaced("1 second")), 5),
        yield* delaysOf(Schedule.spaced("1 second"), 5)
      )
      assert.deepStrictEqual(yield* delaysOf(Backoff.schedule(Backoff.table([1, 2, 3])), 10), [1, 2, 3])
      const jittered = yield* delaysOf(Backoff.schedule(Backoff.table([1000], [0.5, 1])), 1).pipe(
        Random.withSeed("backoff")
      )
      assert.isAtLeast(jittered[0] as number, 500)
      assert.isAtMost(jittered[0] as number, 1000)
    })
  )
})
