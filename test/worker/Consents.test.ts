import { assert, describe, it } from "@effect/vitest"
import { Calendar, LocalDate } from "@tppkit/core"
import { Checks, Consents, Fleet, FundsCheckWorkflow, Sweep } from "@tppkit/worker"
import * as Database from "@tppkit/worker/Database"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { embeddedDb } from "./pg.ts"

const db = embeddedDb()

describe("Consents", () => {
  it.live("adds, changes, lists and removes consents; a seed leaves the ones there as they are", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* Consents.list, [])
      assert.isTrue(yield* Consents.add({ key: "b", iban: "SK3112000000198742637541", profile: "sbas" }))
      assert.isFalse(yield* Consents.add({ key: "b", iban: "SK3112000000198742637541", validUntil: "2027-01-31" }))
      assert.deepStrictEqual(yield* Consents.seed([{ key: "a" }, { key: "b" }]), ["a"])
      assert.deepStrictEqual(yield* Consents.list, [
        { key: "a" },
        { key: "b", iban: "SK3112000000198742637541", validUntil: "2027-01-31" }
      ])
      assert.isTrue(yield* Consents.remove("a"))
      assert.isFalse(yield* Consents.remove("a"))
      assert.deepStrictEqual(
        (yield* Consents.list).map((c) => c.key),
        ["b"]
      )
    }).pipe(Effect.provide(db.fresh()))
  )

  it.live("a database of the previous version: the plan settings' consents are copied into the new table once", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      // as the previous version left it: the consents in the plan settings, no consents table
      yield* sql`DROP TABLE tppkit_consents`
      const settings = JSON.stringify({
        daysBefore: 2,
        calendar: "target",
        hour: 8,
        timeZone: "Europe/Bratislava",
        consents: [{ key: "fleet-001", iban: "SK9811000000000000000001" }, { key: "fleet-002" }]
      })
      yield* sql`INSERT INTO tppkit_plan_settings (id, settings, set_at) VALUES (1, ${settings}, 0)`
      yield* Database.migrate
      assert.deepStrictEqual(yield* Consents.list, [
        { key: "fleet-001", iban: "SK9811000000000000000001" },
        { key: "fleet-002" }
      ])
      // removed since: a later start copies nothing again
      yield* Consents.remove("fleet-002")
      yield* Database.migrate
      assert.deepStrictEqual(
        (yield* Consents.list).map((c) => c.key),
        ["fleet-001"]
      )
    }).pipe(Effect.provide(db.fresh()))
  )

  it.live("a running fleet sweeps a consent added after it started from its next sweep run", () =>
    Effect.gen(function* () {
      const url = yield* db.freshUrl()
      const listed: Array<string> = []
      const runner = Fleet.workflows.pipe(
        Layer.provideMerge(
          Layer.mergeAll(
            Layer.succeed(Sweep.SweepSettings)({
              consents: [{ key: "unused" }],
              daysBefore: 2,
              calendar: Calendar.target,
              timeZone: "Europe/Bratislava",
              hour: 8
            }),
            Layer.succeed(Sweep.OrderSource)({
              list: (consent) => Effect.sync(() => listed.push(consent.key)).pipe(Effect.as({ orders: [], pages: 1 }))
            }),
            Layer.succeed(FundsCheckWorkflow.BalanceChecker)({
              check: () => Effect.succeed({ answer: "APPR" as const, requestId: "r" })
            })
          )
        ),
        Layer.provideMerge(Layer.mergeAll(Checks.Checks.layerSql, Consents.layerSource())),
        Layer.provideMerge(Fleet.cluster({ databaseUrl: url, pollInterval: "200 millis", maxConnections: 4 }))
      )
      const result = yield* Effect.gen(function* () {
        yield* Consents.seed([{ key: "first" }])
        const one = yield* Sweep.sweepNow("2026-11-02")
        yield* Consents.add({ key: "second", profile: "cobs" })
        // valid up to the day before the sweep's: said, not listed
        yield* Consents.add({ key: "old", validUntil: "2026-11-02" })
        const two = yield* Sweep.sweepNow("2026-11-03")
        return { one: one.consents, two: two.consents }
      }).pipe(Effect.provide(runner), Effect.scoped)
      assert.deepStrictEqual(result.one, [{ consent: "first", planned: 0, pages: 1 }])
      assert.deepStrictEqual(result.two, [
        { consent: "first", planned: 0, pages: 1 },
        { consent: "old", planned: 0, expired: "2026-11-02" },
        { consent: "second", planned: 0, profile: "cobs", pages: 1 }
      ])
      // the first run lists "first" alone; the second lists its two consents at once, in either order
      assert.deepStrictEqual([listed[0], ...listed.slice(1).sort()], ["first", "first", "second"])
    })
  )

  it.live("a consent's last valid day: its own, else the day it was added plus its profile's validity days", () =>
    Effect.gen(function* () {
      yield* Consents.add({ key: "given", profile: "cobs", validUntil: "2027-01-31" })
      yield* Consents.add({ key: "sbas-one", profile: "sbas" })
      yield* Consents.add({ key: "unknown-profile", profile: "mybank" })
      yield* Consents.add({ key: "own", refreshToken: Redacted.make("rt-1") })
      const today = LocalDate.fromDayNumberUnsafe(Math.floor(Date.now() / 86_400_000))
      const days = (profile: string | undefined) => (profile === "sbas" || profile === undefined ? 90 : undefined)
      assert.deepStrictEqual(yield* Consents.sweepable(days), [
        { key: "given", profile: "cobs", validUntil: "2027-01-31" },
        { key: "own", validUntil: LocalDate.format(LocalDate.addDays(today, 90)) },
        { key: "sbas-one", profile: "sbas", validUntil: LocalDate.format(LocalDate.addDays(today, 90)) },
        { key: "unknown-profile", profile: "mybank" }
      ])
      // the refresh token is kept apart from what is listed, and a renewal's replaces it
      assert.deepStrictEqual(
        (yield* Consents.list).map((c) => c.key),
        ["given", "own", "sbas-one", "unknown-profile"]
      )
      assert.strictEqual(Redacted.value((yield* Consents.refreshToken("own"))!), "rt-1")
      assert.isUndefined(yield* Consents.refreshToken("given"))
      assert.isTrue(yield* Consents.keepRefreshToken("own", Redacted.make("rt-2")))
      // a consent added again without a token keeps the one it has
      yield* Consents.add({ key: "own", iban: "SK3112000000198742637541" })
      assert.strictEqual(Redacted.value((yield* Consents.refreshToken("own"))!), "rt-2")
      assert.isFalse(yield* Consents.keepRefreshToken("gone", Redacted.make("rt-3")))
    }).pipe(Effect.provide(db.fresh()))
  )

  it.live("a consent seeded for a day given (worker --today) counts its validity from that day", () =>
    Effect.gen(function* () {
      const day = LocalDate.parseUnsafe("2027-03-01")
      assert.deepStrictEqual(yield* Consents.seed([{ key: "later" }], { addedAt: day * 86_400_000 }), ["later"])
      assert.deepStrictEqual(yield* Consents.sweepable(() => 90), [{ key: "later", validUntil: "2027-05-30" }])
    }).pipe(Effect.provide(db.fresh()))
  )
})
