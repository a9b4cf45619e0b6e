import { assert, describe, it } from "@effect/vitest"
import { Budget, BudgetStore } from "@tppkit/http"
import { PgBudgetStore } from "@tppkit/worker"
import * as Database from "@tppkit/worker/Database"
import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
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

describe("PgBudgetStore.bankIdentity (issue 43)", () => {
  it.effect(
    "a worker that heard no instance uses the one another worker heard; a new instance is a new count; any other bank its base URL",
    () =>
      Effect.gen(function* () {
        const url = yield* db.freshUrl()
        // each worker its own pool, as its own process
        const worker = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
          effect.pipe(Effect.provide(Database.layer(url, { maxConnections: 1 })))
        const bank = "http://127.0.0.1:8080"
        const one = `${bank}#instance=one`
        // before, a worker whose question timed out (heard none) kept the base URL: the budget's rows of another bank
        assert.strictEqual(yield* worker(PgBudgetStore.bankIdentity(bank, one)), one)
        assert.strictEqual(yield* worker(PgBudgetStore.bankIdentity(bank, undefined)), one)
        // the same consent's budget row, whichever worker spends from it
        const keys = [one, yield* worker(PgBudgetStore.bankIdentity(bank, undefined))].map((baseUrl) =>
          Budget.consentKey({ environment: "sandbox", baseUrl, clientId: "c", consent: "k" })
        )
        assert.strictEqual(new Set(keys).size, 1)
        // the mock bank restarted on the same address announces another instance: its count starts anew, for all
        const two = `${bank}#instance=two`
        assert.strictEqual(yield* worker(PgBudgetStore.bankIdentity(bank, two)), two)
        assert.strictEqual(yield* worker(PgBudgetStore.bankIdentity(bank, undefined)), two)
        // a bank no worker heard an instance of is known by its base URL
        assert.strictEqual(
          yield* worker(PgBudgetStore.bankIdentity("https://bank.example", undefined)),
          "https://bank.example"
        )
      }),
    60_000
  )
})
