/**
 * `FleetStatus.read`: the fleet's status from its database — the checks and the budget of every day or of one sweep
 * day, each consent's daily limit its bank profile's, the warnings of the day asked for (else of today before any
 * sweep) with the stored balances' age, and the balances the fleet's workers were started with.
 */
import { assert, describe } from "@effect/vitest"
import { Profile } from "@tppkit/core"
import { Budget } from "@tppkit/http"
import { Checks, Consents, FleetStatus, PlanSettings } from "@tppkit/worker"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { embeddedDb } from "./pg.ts"
import { due } from "./support.ts"

const db = embeddedDb()

const key = (consent: string) =>
  Budget.consentKey({ environment: "sandbox", baseUrl: "http://127.0.0.1:1", clientId: "tpp", consent })

const balance = { iban: "SK3112000000198742637541", currency: "EUR", amount: "1000.5", date: "2026-10-30" }

describe("FleetStatus.read", () => {
  db.liveSql(
    "reads the checks, budget and warnings of one sweep day or of all, each consent's limit its profile's",
    Effect.gen(function* () {
      yield* PlanSettings.claim({
        daysBefore: 2,
        calendar: "target",
        hour: 8,
        timeZone: "Europe/Bratislava",
        balances: [balance]
      })
      yield* Consents.seed([{ key: "c1" }, { key: "c2", profile: "cobs" }])
      const checks = yield* Checks.Checks
      yield* checks.plan([
        due({ consent: "c1", orderId: "SO-1", sweepDay: "2026-11-02" }),
        due({ consent: "c2", orderId: "SO-2", sweepDay: "2026-11-03", executionDate: "2026-11-05" })
      ])
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO tppkit_budget (consent_key, day, used) VALUES (${key("c1")}, '2026-11-02', 3),
          (${key("c2")}, '2026-11-03', 5)`

      const day = yield* FleetStatus.read(Option.some("2026-11-02"), 100, 1)
      assert.deepStrictEqual(
        day.checks.map((r) => r.orderId),
        ["SO-1"]
      )
      assert.deepStrictEqual(day.budget, [{ consentKey: key("c1"), day: "2026-11-02", used: 3, limit: 100 }])
      assert.strictEqual(day.warnings.day, "2026-11-02")
      assert.strictEqual(day.warnings.changesSince, "2026-10-27")
      assert.deepStrictEqual(day.warnings.balances, [{ iban: balance.iban, date: balance.date, ageDays: 3 }])
      assert.strictEqual(day.warnings.balanceMaxAge, 1)
      assert.deepStrictEqual(day.balances, [balance])
      assert.deepStrictEqual(day.sweeps, [])
      assert.strictEqual(day.liveness.verdict.state, "stopped")

      const all = yield* FleetStatus.read(Option.none(), 100)
      assert.deepStrictEqual(
        all.checks.map((r) => r.orderId),
        ["SO-1", "SO-2"]
      )
      assert.deepStrictEqual(all.budget[1], {
        consentKey: key("c2"),
        day: "2026-11-03",
        used: 5,
        limit: Profile.builtIns.get("cobs")!.unattended.dailyLimit,
        profile: "cobs"
      })
      // no day swept and none asked for: the warnings of today in the fleet's time zone
      assert.isDefined(all.today)
      assert.strictEqual(all.warnings.day, all.today)
    }).pipe(Effect.provide(Checks.Checks.layerSql)),
    60_000
  )
})
