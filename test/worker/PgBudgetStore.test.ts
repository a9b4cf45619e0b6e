import { assert, describe, it } from "@effect/vitest"
import { Backoff } from "@tppkit/core"
import { Budget, BudgetStore } from "@tppkit/http"
import { PgBudgetStore } from "@tppkit/worker"
import * as Database from "@tppkit/worker/Database"
import { Effect, Layer, type Redacted } from "effect"
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
  /**
   * A fresh database, and how an effect runs as one worker on it: its own pool of one connection, as its own process
   * (each worker its own pool).
   */
  const freshWorkers = Effect.map(
    db.freshUrl(),
    (url: Redacted.Redacted<string>) =>
      <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
        effect.pipe(Effect.provide(Database.layer(url, { maxConnections: 1 })))
  )
  const instance = (identity: string): Budget.Announcement => ({ _tag: "Instance", identity })
  const none: Budget.Announcement = { _tag: "None" }
  const noAnswer: Budget.Announcement = { _tag: "NoAnswer", detail: "timeout" }

  it.effect(
    "a worker that heard no instance uses the one another worker heard; a new instance is a new count; any other bank its base URL",
    () =>
      Effect.gen(function* () {
        const worker = yield* freshWorkers
        const bank = "http://127.0.0.1:8080"
        const one = `${bank}#instance=one`
        // before, a worker whose question timed out (heard none) kept the base URL: the budget's rows of another bank
        assert.strictEqual(yield* worker(PgBudgetStore.bankIdentity(bank, instance(one))), one)
        assert.strictEqual(yield* worker(PgBudgetStore.bankIdentity(bank, noAnswer)), one)
        // the same consent's budget row, whichever worker spends from it
        const keys = [one, yield* worker(PgBudgetStore.bankIdentity(bank, noAnswer))].map((baseUrl) =>
          Budget.consentKey({ environment: "sandbox", baseUrl, clientId: "c", consent: "k" })
        )
        assert.strictEqual(new Set(keys).size, 1)
        // the mock bank restarted on the same address announces another instance: its count starts anew, for all
        const two = `${bank}#instance=two`
        assert.strictEqual(yield* worker(PgBudgetStore.bankIdentity(bank, instance(two))), two)
        assert.strictEqual(yield* worker(PgBudgetStore.bankIdentity(bank, noAnswer)), two)
        // a bank that answers and announces none is its base URL, for every worker after it
        assert.strictEqual(yield* worker(PgBudgetStore.bankIdentity(bank, none)), bank)
        assert.strictEqual(yield* worker(PgBudgetStore.bankIdentity(bank, noAnswer)), bank)
        // a bank no worker heard anything of is known by its base URL
        assert.strictEqual(
          yield* worker(PgBudgetStore.bankIdentity("https://bank.example", none)),
          "https://bank.example"
        )
      }),
    60_000
  )

  it.live(
    "the race: whichever asks first, a worker that hears nothing and one that hears the instance end on one identity",
    () =>
      Effect.gen(function* () {
        const worker = yield* freshWorkers
        const fast = { tries: 2, backoff: Backoff.exponential({ initial: "1 millis" }) }
        const silent = (asked: Array<string>, bank: string) =>
          Effect.sync((): Budget.Announcement => {
            asked.push(bank)
            return noAnswer
          })
        const agree = (bank: string, ask: Effect.Effect<Budget.Announcement>) =>
          Effect.map(worker(PgBudgetStore.agreeIdentity(bank, ask, fast)), (agreed) => agreed.identity)

        // the silent one first: before, it kept the base URL and the later one its instance, two budgets for one bank;
        // now it asks again (2 tries), then claims the base URL for the fleet, and the later one takes the claim
        const first = "http://127.0.0.1:8081"
        const asked: Array<string> = []
        const a = yield* agree(first, silent(asked, first))
        const b = yield* agree(first, Effect.succeed(instance(`${first}#instance=x`)))
        assert.deepStrictEqual([a, b], [first, first])
        assert.strictEqual(asked.length, 2)
        // and a third worker that hears a bank announcing none keeps the claim too
        assert.strictEqual(yield* agree(first, Effect.succeed(none)), first)

        // the one that hears first: the silent one takes its instance
        const second = "http://127.0.0.1:8082"
        const heard = `${second}#instance=y`
        assert.deepStrictEqual(
          [yield* agree(second, Effect.succeed(instance(heard))), yield* agree(second, silent([], second))],
          [heard, heard]
        )

        // the other worker hears the bank while the silent one waits to ask again: no claim, the instance is the fleet's
        const third = "http://127.0.0.1:8083"
        const meanwhile = `${third}#instance=z`
        let tries = 0
        const silentThenOther = Effect.suspend(() =>
          tries++ === 0
            ? Effect.as(Effect.orDie(agree(third, Effect.succeed(instance(meanwhile)))), noAnswer)
            : Effect.succeed(noAnswer)
        )
        assert.strictEqual(yield* agree(third, silentThenOther), meanwhile)
        assert.strictEqual(tries, 1)

        // both at once, in either order of their statements: one identity
        for (const [i, bank] of ["http://127.0.0.1:8084", "http://127.0.0.1:8085"].entries()) {
          const both = yield* Effect.all(
            i === 0
              ? [agree(bank, silent([], bank)), agree(bank, Effect.succeed(instance(`${bank}#instance=w`)))]
              : [agree(bank, Effect.succeed(instance(`${bank}#instance=w`))), agree(bank, silent([], bank))],
            { concurrency: 2 }
          )
          assert.strictEqual(new Set(both).size, 1, `${bank}: ${both.join(", ")}`)
        }
      }),
    60_000
  )
})
