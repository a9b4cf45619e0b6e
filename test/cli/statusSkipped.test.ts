/**
 * `tppkit worker status --orders FILE` (internal/workerStatus.ts) in process on a fleet database: an order read whole
 * that the forecast cannot plan (the bank's record without `startDate` and `nextDate`: no anchor) is said on stderr
 * with its reason, as `tppkit forecast` lists it, beside the record that pays nothing; the good orders are forecast
 * and the exit code is unchanged (cli README, "Exit codes"). Before, the forecast's own skipped were never said.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Checks } from "@tppkit/worker"
import * as Database from "@tppkit/worker/Database"
import { Effect, Layer, Redacted } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { embeddedDb } from "../worker/pg.ts"
import { due } from "../worker/support.ts"
import { run } from "./inProcess.ts"

const db = embeddedDb()
const dir = mkdtempSync(join(tmpdir(), "tppkit-status-skipped-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const file = (name: string, content: unknown): string => {
  const path = join(dir, name)
  writeFileSync(path, JSON.stringify(content))
  return path
}
const SK = "SK2411000000002612345678"
const order = (orderId: string, more: object) => ({
  orderId,
  frequency: "MNTH",
  instructedAmount: { value: 25, currency: "EUR" },
  debtor: { name: "Jana", iban: SK },
  creditor: { name: "Landlord", iban: "SK6609000000005012345678" },
  ...more
})

describe("worker status --orders says an order the forecast cannot plan", { timeout: 120_000 }, () => {
  it("the anchorless record among good ones: named on stderr with its reason, the others forecast, exit 0", async () => {
    const url = Redacted.value(await Effect.runPromise(db.freshUrl()))
    // one answered check of RENT's payment: the fleet's answers the status sets the forecast beside
    const rent = due({ orderId: "RENT", nominalDate: "2026-12-02", executionDate: "2026-12-02", debtorIban: SK })
    await Effect.runPromise(
      Effect.gen(function* () {
        const checks = yield* Checks.Checks
        yield* checks.plan([rent])
        yield* checks.begin(rent, "c-rent")
        yield* checks.finish(rent, { outcome: "APPR" }, Date.UTC(2026, 10, 30, 7))
      }).pipe(Effect.provide(Checks.Checks.layerSql.pipe(Layer.provide(Database.layer(Redacted.make(url))))))
    )
    const orders = file("orders.json", [
      order("RENT", { startDate: "2026-03-02" }),
      order("NOANCHOR", {}),
      order("ENDED", { startDate: "2026-03-01", endDate: "2026-01-01" }),
      order("GYM", { startDate: "2026-03-05" })
    ])
    const balances = file("balances.json", [{ iban: SK, currency: "EUR", amount: "1000.00", date: "2026-11-01" }])
    const r = await run(["worker", "status", "--database-url", url, "--balances", balances, "--orders", orders])
    expect(r.code, r.stderr).toBe(0)
    // RENT's payment of 25.00 on 2026-12-02 forecast from 1,000.00 (the window is the checks': 2026-11-30..12-02)
    expect(r.stdout).toContain(`${SK} EUR: stays above zero; lowest 925.00 on 2026-12-02`)
    expect(r.stderr).toContain(
      "tppkit: skipped NOANCHOR: the order has neither startDate nor nextDate to anchor its schedule\n"
    )
    expect(r.stderr).toContain("tppkit: skipped ENDED: endDate 2026-01-01 is before startDate 2026-03-01")
  })
})
