import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { BudgetStore } from "@tppkit/http"
import { Effect } from "effect"
import { budgetStoreContract } from "./budgetStoreContract.ts"
import { failure } from "./stub.ts"

const dir = mkdtempSync(join(tmpdir(), "tppkit-store-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let files = 0

budgetStoreContract("memory", () => BudgetStore.BudgetStore.layerMemory)
budgetStoreContract("SQLite", () => BudgetStore.BudgetStore.layerSqlite(join(dir, `contract-${files++}.sqlite`)))

describe("BudgetStore.layerSqlite", () => {
  it.effect("opens (and creates) the file only when first used", () =>
    Effect.gen(function* () {
      const file = join(dir, "lazy", "budget.sqlite")
      yield* Effect.scoped(
        Effect.provide(Effect.void, BudgetStore.BudgetStore.layerSqlite(file, { createDirectory: true }))
      )
      assert.isFalse(existsSync(file))
      const used = yield* Effect.flatMap(Effect.service(BudgetStore.BudgetStore), (s) => s.used("k", "d")).pipe(
        Effect.provide(BudgetStore.BudgetStore.layerSqlite(file, { createDirectory: true })),
        Effect.scoped
      )
      assert.strictEqual(used, 0)
      assert.isTrue(existsSync(file))
    })
  )

  it.effect("a file that cannot be opened is a typed error naming the path", () =>
    Effect.gen(function* () {
      const file = join(dir, "missing-folder", "b.sqlite")
      const exit = yield* Effect.flatMap(Effect.service(BudgetStore.BudgetStore), (s) =>
        s.tryConsume("k", "d", 1, 4)
      ).pipe(Effect.provide(BudgetStore.BudgetStore.layerSqlite(file)), Effect.scoped, Effect.exit)
      const error = failure(exit)
      assert.strictEqual(error._tag, "BudgetStoreError")
      assert.include(error.message, file)
      assert.include(error.message, "open failed")
    })
  )
})
