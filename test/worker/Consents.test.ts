import { assert, describe } from "@effect/vitest"
import { LocalDate } from "@tppkit/core"
import { Consents, Sweep } from "@tppkit/worker"
import * as Database from "@tppkit/worker/Database"
import { Effect, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { runnerOf } from "./fleet.ts"
import { embeddedDb } from "./pg.ts"

const db = embeddedDb()

/** The fleet's secret that seals refresh tokens (a test value of 44 characters). */
const fleetKey = Redacted.make("a".repeat(44))

/** The keys of the consents kept, in order. */
const keys = Effect.map(Consents.list, (list) => list.map((c) => c.key))

describe("Consents", () => {
  db.liveSql(
    "adds, changes, lists and removes consents; a seed leaves the ones there as they are",
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
      assert.deepStrictEqual(yield* keys, ["b"])
    })
  )

  db.liveSql(
    "a database of the previous version: the plan settings' consents are copied into the new table once",
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
      assert.deepStrictEqual(yield* keys, ["fleet-001"])
    })
  )

  db.live("a running fleet sweeps a consent added after it started from its next sweep run", (url) =>
    Effect.gen(function* () {
      const listed: Array<string> = []
      const runner = runnerOf(
        url,
        [{ key: "unused" }],
        (consent) => Effect.sync(() => listed.push(consent.key)).pipe(Effect.as({ orders: [], pages: 1 })),
        undefined,
        { consentTable: true }
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

  db.liveSql(
    "a consent's last valid day: its own, else the day it was added plus its profile's validity days",
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
      assert.deepStrictEqual(yield* keys, ["given", "own", "sbas-one", "unknown-profile"])
      assert.strictEqual(Redacted.value((yield* Consents.refreshToken("own"))!), "rt-1")
      assert.isUndefined(yield* Consents.refreshToken("given"))
      assert.isTrue(yield* Consents.keepRefreshToken("own", Redacted.make("rt-2")))
      // a consent added again without a token keeps the one it has
      yield* Consents.add({ key: "own", iban: "SK3112000000198742637541" })
      assert.strictEqual(Redacted.value((yield* Consents.refreshToken("own"))!), "rt-2")
      assert.isFalse(yield* Consents.keepRefreshToken("gone", Redacted.make("rt-3")))
    }).pipe(Effect.provideService(Consents.RefreshTokenKey, Option.some(fleetKey)))
  )

  db.liveSql(
    "the refresh token is sealed at rest: the row holds no token, another key or consent cannot open it",
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const stored = (key: string) =>
        Effect.map(
          sql<{ refresh_token: string | null }>`SELECT refresh_token FROM tppkit_consents WHERE consent_key = ${key}`,
          (rows) => rows[0]?.refresh_token ?? null
        )
      const withKey = Effect.provideService(Consents.RefreshTokenKey, Option.some(fleetKey))
      yield* Consents.add({ key: "cz-1", refreshToken: Redacted.make("rt-secret-1") }).pipe(withKey)
      const text = yield* stored("cz-1")
      assert.isTrue(text?.startsWith("v1:"))
      assert.notInclude(text ?? "", "rt-secret-1")
      assert.strictEqual(Redacted.value((yield* Consents.refreshToken("cz-1").pipe(withKey))!), "rt-secret-1")
      // without the key, keeping or reading a token fails, naming the setting (and never the token)
      const missing = yield* Effect.flip(Consents.add({ key: "cz-2", refreshToken: Redacted.make("rt-secret-2") }))
      assert.strictEqual(missing._tag, "ChecksError")
      assert.include(missing.message, "TPPKIT_REFRESH_TOKEN_KEY")
      assert.isNull(yield* stored("cz-2"))
      const unread = yield* Effect.flip(Consents.refreshToken("cz-1"))
      assert.include(unread.message, "TPPKIT_REFRESH_TOKEN_KEY")
      // another key does not open it; nor does the row copied to another consent
      const other = yield* Effect.flip(
        Consents.refreshToken("cz-1").pipe(
          Effect.provideService(Consents.RefreshTokenKey, Option.some(Redacted.make("b".repeat(44))))
        )
      )
      assert.include(other.message, "another key")
      yield* Consents.add({ key: "cz-3" })
      yield* sql`UPDATE tppkit_consents SET refresh_token = ${text} WHERE consent_key = 'cz-3'`
      assert.strictEqual((yield* Effect.flip(Consents.refreshToken("cz-3").pipe(withKey)))._tag, "ChecksError")
      // a key too short is refused
      const short = yield* Effect.flip(
        Consents.keepRefreshToken("cz-1", Redacted.make("rt")).pipe(
          Effect.provideService(Consents.RefreshTokenKey, Option.some(Redacted.make("short")))
        )
      )
      assert.include(short.message, "too short")
      assert.notInclude(short.message, 'short"')
    })
  )

  db.liveSql(
    "tokens an earlier version kept plain are sealed: by the worker's start, and on the way when read",
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const withKey = Effect.provideService(Consents.RefreshTokenKey, Option.some(fleetKey))
      yield* Consents.add({ key: "a" })
      yield* Consents.add({ key: "b" })
      yield* Consents.add({ key: "c" })
      // as the previous version kept them: plain text
      yield* sql`UPDATE tppkit_consents SET refresh_token = 'plain-' || consent_key WHERE consent_key IN ('a', 'b')`
      // without the key the worker's start leaves them (and says nothing: none is configured)
      assert.strictEqual(yield* Consents.sealRefreshTokens, 0)
      assert.strictEqual(yield* Consents.sealRefreshTokens.pipe(withKey), 2)
      assert.strictEqual(yield* Consents.sealRefreshTokens.pipe(withKey), 0)
      const rows = yield* sql<{ consent_key: string; refresh_token: string | null }>`
        SELECT consent_key, refresh_token FROM tppkit_consents ORDER BY consent_key`
      assert.deepStrictEqual(
        rows.map((r) => [r.consent_key, r.refresh_token?.startsWith("v1:") ?? null]),
        [
          ["a", true],
          ["b", true],
          ["c", null]
        ]
      )
      assert.strictEqual(Redacted.value((yield* Consents.refreshToken("a").pipe(withKey))!), "plain-a")
      // a plain one read before the start sealed it is sealed on the way
      yield* sql`UPDATE tppkit_consents SET refresh_token = 'plain-again' WHERE consent_key = 'c'`
      assert.strictEqual(Redacted.value((yield* Consents.refreshToken("c").pipe(withKey))!), "plain-again")
      const c = yield* sql<{ refresh_token: string }>`SELECT refresh_token FROM tppkit_consents WHERE consent_key = 'c'`
      assert.isTrue(c[0]?.refresh_token.startsWith("v1:"))
    })
  )

  db.liveSql(
    "a consent seeded for a day given (worker --today) counts its validity from that day",
    Effect.gen(function* () {
      const day = LocalDate.parseUnsafe("2027-03-01")
      assert.deepStrictEqual(yield* Consents.seed([{ key: "later" }], { addedAt: day * 86_400_000 }), ["later"])
      assert.deepStrictEqual(yield* Consents.sweepable(() => 90), [{ key: "later", validUntil: "2027-05-30" }])
    })
  )
})
