/**
 * The behaviour every `BudgetStore` keeps (the contract in BudgetStore.ts's doc), as one suite any implementation
 * can run: `budgetStoreContract("SQLite", () => layer)`. The memory and SQLite stores run it in BudgetStore.test.ts.
 */
import { assert, describe, it } from "@effect/vitest"
import { BudgetStore } from "@tppkit/http"
import { Effect, type Layer, Option } from "effect"

/** Runs the contract against a fresh store from `make` in each test. */
export const budgetStoreContract = <E>(name: string, make: () => Layer.Layer<BudgetStore.BudgetStore, E>) => {
  const withStore = <A, E>(f: (store: BudgetStore.BudgetStore["Service"]) => Effect.Effect<A, E>) =>
    Effect.flatMap(Effect.service(BudgetStore.BudgetStore), f).pipe(Effect.provide(make()), Effect.scoped)

  describe(`BudgetStore contract: ${name}`, () => {
    it.effect("counts within the limit, per key and day, and refuses past it without counting", () =>
      withStore((store) =>
        Effect.gen(function* () {
          assert.strictEqual(yield* store.used("k", "2026-11-21"), 0)
          assert.deepStrictEqual(yield* store.tryConsume("k", "2026-11-21", 3, 4), { granted: true, used: 3 })
          assert.deepStrictEqual(yield* store.tryConsume("k", "2026-11-21", 2, 4), { granted: false, used: 3 })
          assert.deepStrictEqual(yield* store.tryConsume("k", "2026-11-21", 1, 4), { granted: true, used: 4 })
          assert.deepStrictEqual(yield* store.tryConsume("k", "2026-11-22", 4, 4), { granted: true, used: 4 })
          assert.deepStrictEqual(yield* store.tryConsume("other", "2026-11-21", 1, 4), { granted: true, used: 1 })
          assert.strictEqual(yield* store.used("k", "2026-11-21"), 4)
          assert.deepStrictEqual(yield* store.usages("2026-11-21"), [
            { consentKey: "k", day: "2026-11-21", used: 4 },
            { consentKey: "other", day: "2026-11-21", used: 1 }
          ])
          assert.deepStrictEqual(yield* store.usages("2026-11-23"), [])
        })
      )
    )

    it.effect("a negative count gives back requests never sent, also at the limit", () =>
      withStore((store) =>
        Effect.gen(function* () {
          assert.deepStrictEqual(yield* store.tryConsume("k", "2026-11-21", 4, 4), { granted: true, used: 4 })
          assert.deepStrictEqual(yield* store.tryConsume("k", "2026-11-21", -2, 4), { granted: true, used: 2 })
          assert.deepStrictEqual(yield* store.tryConsume("k", "2026-11-21", 2, 4), { granted: true, used: 4 })
        })
      )
    )

    it.effect("concurrent consumers are never granted past the limit", () =>
      withStore((store) =>
        Effect.gen(function* () {
          const results = yield* Effect.all(
            Array.from({ length: 20 }, () => store.tryConsume("k", "d", 1, 4)),
            { concurrency: "unbounded" }
          )
          assert.strictEqual(results.filter((r) => r.granted).length, 4)
          assert.strictEqual(yield* store.used("k", "d"), 4)
        })
      )
    )

    it.effect("a lease: one holder at a time, renewable, taken over once expired, released only by its holder", () =>
      withStore((store) =>
        Effect.gen(function* () {
          const a = yield* store.tryAcquireLease("L", "a", 1000, 2000)
          assert.deepStrictEqual(a, { acquired: true, lease: { holder: "a", expiresAt: 2000 } })
          const b = yield* store.tryAcquireLease("L", "b", 1500, 2500)
          assert.deepStrictEqual(b, { acquired: false, lease: { holder: "a", expiresAt: 2000 } })
          // another key is independent
          assert.isTrue((yield* store.tryAcquireLease("M", "b", 1500, 2500)).acquired)
          // renewal by the holder
          assert.deepStrictEqual(yield* store.tryAcquireLease("L", "a", 1900, 3000), {
            acquired: true,
            lease: { holder: "a", expiresAt: 3000 }
          })
          // expired at exactly expiresAt: b takes over
          assert.deepStrictEqual(yield* store.tryAcquireLease("L", "b", 3000, 4000), {
            acquired: true,
            lease: { holder: "b", expiresAt: 4000 }
          })
          // a's late release does not remove b's lease
          yield* store.releaseLease("L", "a")
          assert.isFalse((yield* store.tryAcquireLease("L", "c", 3100, 5000)).acquired)
          yield* store.releaseLease("L", "b")
          assert.isTrue((yield* store.tryAcquireLease("L", "c", 3100, 5000)).acquired)
        })
      )
    )

    it.effect("concurrent acquirers: exactly one gets a live lease", () =>
      withStore((store) =>
        Effect.gen(function* () {
          const results = yield* Effect.all(
            Array.from({ length: 10 }, (_, i) => store.tryAcquireLease("L", `h${i}`, 0, 60_000)),
            { concurrency: "unbounded" }
          )
          assert.strictEqual(results.filter((r) => r.acquired).length, 1)
        })
      )
    )

    it.effect("a snapshot is kept byte for byte and replaced only by one as new or newer", () =>
      withStore((store) =>
        Effect.gen(function* () {
          assert.isTrue(Option.isNone(yield* store.readSnapshot("S")))
          const payload = JSON.stringify({ orders: ["ü", "\u0000", "😀"] })
          yield* store.writeSnapshot("S", { payload, takenAt: 2000 })
          assert.deepStrictEqual(yield* store.readSnapshot("S"), Option.some({ payload, takenAt: 2000 }))
          yield* store.writeSnapshot("S", { payload: "older", takenAt: 1000 })
          assert.deepStrictEqual(yield* store.readSnapshot("S"), Option.some({ payload, takenAt: 2000 }))
          yield* store.writeSnapshot("S", { payload: "newer", takenAt: 3000 })
          assert.deepStrictEqual(yield* store.readSnapshot("S"), Option.some({ payload: "newer", takenAt: 3000 }))
          assert.isTrue(Option.isNone(yield* store.readSnapshot("T")))
        })
      )
    )
  })
}
