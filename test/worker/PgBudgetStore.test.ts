import { assert, describe, it } from "@effect/vitest"
import { BudgetStore } from "@tppkit/http"
import { PgBudgetStore } from "@tppkit/worker"
import * as Database from "@tppkit/worker/Database"
import { Effect, Layer } from "effect"
import { budgetStoreContract } from "../http/budgetStoreContract.ts"
import { embeddedDb } from "./pg.ts"

const db = embeddedDb()

budgetStoreContract("PostgreSQL", () => PgBudgetStore.layer().pipe(Layer.provide(db.fresh())))

describe("PgBudgetStore across separate connection pools (as separate processes)", () => {
  it.effect(
    "400 concurrent reservations from 8 pools grant exactly the limit, and one lease has one holder",
    () =>
      Effect.gen(function* () {
        const url = yield* db.freshUrl()
        const pools = Array.from({ length: 8 }, () =>
          PgBudgetStore.layer().pipe(Layer.provide(Database.layer(url, { maxConnections: 5 })))
        )
        const perPool = (store: Layer.Layer<BudgetStore.BudgetStore, unknown>, i: number) =>
          Effect.gen(function* () {
            const s = yield* BudgetStore.BudgetStore
            const consumed = yield* Effect.all(
              Array.from({ length: 50 }, () => s.tryConsume("env:consent", "2026-11-23", 1, 4)),
              { concurrency: "unbounded" }
            )
            const lease = yield* s.tryAcquireLease("listing", `holder-${i}`, 1_000, 61_000)
            return { granted: consumed.filter((r) => r.granted).length, over: consumed.some((r) => r.used > 4), lease }
          }).pipe(Effect.provide(store))
        const results = yield* Effect.all(
          pools.map((p, i) => perPool(p, i)),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(
          results.reduce((n, r) => n + r.granted, 0),
          4
        )
        assert.isFalse(results.some((r) => r.over))
        const acquired = results.filter((r) => r.lease.acquired)
        assert.strictEqual(acquired.length, 1)
        const holder = acquired[0]?.lease.lease.holder
        for (const r of results) assert.strictEqual(r.lease.lease.holder, holder)
        const used = yield* Effect.flatMap(Effect.service(BudgetStore.BudgetStore), (s) =>
          s.used("env:consent", "2026-11-23")
        ).pipe(Effect.provide(pools[0] as Layer.Layer<BudgetStore.BudgetStore, unknown>))
        assert.strictEqual(used, 4)
      }),
    60_000
  )
})
