/**
 * `PlanSettings.claim`: the first worker's plan settings are the fleet's; a worker with other settings is refused
 * with every difference named, unless it reconfigures the fleet. The opening balances of `--balances` are stored with
 * them, read back by `PlanSettings.stored`, and follow the same rule.
 */
import { assert, describe, it } from "@effect/vitest"
import { PlanSettings } from "@tppkit/worker"
import { Effect, Exit, Option } from "effect"
import { SqlClient } from "effect/sql"
import { embeddedDb } from "./pg.ts"

const db = embeddedDb()

const base: PlanSettings.Settings = {
  daysBefore: 2,
  calendar: "target",
  hour: 8,
  timeZone: "Europe/Bratislava"
}

describe("PlanSettings", () => {
  db.liveSql(
    "stores the first settings, accepts the same, refuses others naming each difference, or reconfigures",
    Effect.gen(function* () {
      assert.isFalse(yield* PlanSettings.claim(base))
      // the same plan (a calendar name in another case is the same calendar)
      assert.isFalse(yield* PlanSettings.claim({ ...base, calendar: "TARGET" }))
      const other = { ...base, daysBefore: 3, hour: 9 }
      const refused = yield* Effect.exit(PlanSettings.claim(other))
      assert.isTrue(Exit.isFailure(refused))
      if (Exit.isFailure(refused)) {
        const error = refused.cause.reasons[0]
        assert.strictEqual(error?._tag, "Fail")
        const e = (error as { readonly error: PlanSettings.PlanSettingsError }).error
        assert.deepStrictEqual(e.differences, ["--days-before 3 here, 2 in the fleet", "--hour 9 here, 8 in the fleet"])
        assert.match(e.message, /^this worker's plan settings differ from the fleet's \(stored \S+\): --days-before 3/)
        assert.include(e.message, "--reconfigure")
      }
      assert.isTrue(yield* PlanSettings.claim(other, { reconfigure: true }))
      assert.isFalse(yield* PlanSettings.claim(other))
      assert.isTrue(Exit.isFailure(yield* Effect.exit(PlanSettings.claim(base))))
    }),
    60_000
  )
})

describe("PlanSettings.differences", () => {
  it("names the bank profile (issue 43); the seed bank's, given or not, is the same plan", () => {
    assert.deepStrictEqual(PlanSettings.differences({ ...base, profile: "cobs" }, base), [
      "--profile cobs here, sbas in the fleet"
    ])
    assert.deepStrictEqual(PlanSettings.differences({ ...base, profile: "sbas" }, base), [])
  })
})

const refusal = (exit: Exit.Exit<boolean, unknown>): PlanSettings.PlanSettingsError => {
  assert.isTrue(Exit.isFailure(exit))
  const reason = Exit.isFailure(exit) ? exit.cause.reasons[0] : undefined
  assert.strictEqual(reason?._tag, "Fail")
  return (reason as { readonly error: PlanSettings.PlanSettingsError }).error
}

const a = "SK2411000000002612345678"
const b = "SK3112000000198742637541"
const balances: ReadonlyArray<PlanSettings.Balance> = [
  { iban: b, currency: "EUR", amount: "250.5", date: "2026-11-01", threshold: "100" },
  { iban: a, currency: "EUR", amount: "1000", date: "2026-11-01" }
]

describe("PlanSettings balances", () => {
  db.liveSql(
    "are stored with the settings and read back exactly; the same balances in another order are the same plan; others, or none, are refused until --reconfigure",
    Effect.gen(function* () {
      assert.isTrue(Option.isNone(yield* PlanSettings.stored))
      const withBalances = { ...base, balances }
      assert.isFalse(yield* PlanSettings.claim(withBalances))
      const read = yield* PlanSettings.stored
      assert.isTrue(Option.isSome(read))
      if (Option.isSome(read)) {
        // by IBAN, every field as given (exact decimals as text, the optional threshold only where given)
        assert.deepStrictEqual(read.value.settings.balances, [balances[1]!, balances[0]!])
        assert.strictEqual(read.value.settings.timeZone, base.timeZone)
      }
      assert.isFalse(yield* PlanSettings.claim({ ...base, balances: [balances[1]!, balances[0]!] }))

      const none = refusal(yield* Effect.exit(PlanSettings.claim(base)))
      assert.deepStrictEqual(none.differences, ["--balances none here, 2 accounts as of 2026-11-01 in the fleet"])
      const other = [
        { ...balances[0]!, amount: "250.50" },
        { ...balances[1]!, amount: "900" }
      ]
      const figures = refusal(yield* Effect.exit(PlanSettings.claim({ ...base, balances: other })))
      assert.deepStrictEqual(figures.differences, [
        `--balances 2 accounts as of 2026-11-01 here and in the fleet, with other figures for ${a}, ${b}`
      ])
      const later = [{ ...balances[1]!, date: "2026-11-20" }]
      const fewer = refusal(yield* Effect.exit(PlanSettings.claim({ ...base, daysBefore: 3, balances: later })))
      assert.deepStrictEqual(fewer.differences, [
        "--days-before 3 here, 2 in the fleet",
        "--balances 1 account as of 2026-11-20 here, 2 accounts as of 2026-11-01 in the fleet"
      ])

      assert.isTrue(yield* PlanSettings.claim({ ...base, balances: later }, { reconfigure: true }))
      const after = yield* PlanSettings.stored
      assert.deepStrictEqual(
        Option.map(after, (s) => s.settings.balances),
        Option.some(later)
      )
      // reconfiguring without balances removes them
      assert.isTrue(yield* PlanSettings.claim(base, { reconfigure: true }))
      const cleared = yield* PlanSettings.stored
      assert.isTrue(Option.isSome(cleared) && cleared.value.settings.balances === undefined)
    }),
    60_000
  )

  db.liveSql(
    "settings stored by an older version (no balances, the consents kept with them) read back and are the same plan as a worker without --balances",
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const older = JSON.stringify({
        daysBefore: 2,
        calendar: "target",
        hour: 8,
        timeZone: "Europe/Bratislava",
        consents: [{ key: "a" }]
      })
      yield* sql`INSERT INTO tppkit_plan_settings (id, settings, set_at) VALUES (1, ${older}, 0)`
      const read = yield* PlanSettings.stored
      assert.isTrue(Option.isSome(read) && read.value.settings.balances === undefined && read.value.setAt === 0)
      assert.isFalse(yield* PlanSettings.claim(base))
      const refused = refusal(yield* Effect.exit(PlanSettings.claim({ ...base, balances })))
      assert.deepStrictEqual(refused.differences, ["--balances 2 accounts as of 2026-11-01 here, none in the fleet"])
    }),
    60_000
  )
})

describe("PlanSettings rule (issue 40)", () => {
  it("the plan's --holidays and --convention are part of the plan: each difference named, the defaults none", () => {
    // the defaults (no holidays, following) are the settings of a version without the flags
    assert.deepStrictEqual(PlanSettings.differences({ ...base, holidays: [], convention: "following" }, base), [])
    // the same days in another order and repeated are the same plan
    assert.deepStrictEqual(
      PlanSettings.differences(
        { ...base, holidays: ["2026-12-24", "2026-11-17", "2026-12-24"] },
        { ...base, holidays: ["2026-11-17", "2026-12-24"] }
      ),
      []
    )
    assert.deepStrictEqual(
      PlanSettings.differences({ ...base, holidays: ["2026-11-17"], convention: "modified-following" }, base),
      ["--holidays 2026-11-17 here, none in the fleet", "--convention modified-following here, following in the fleet"]
    )
  })

  db.liveSql(
    "are stored with the settings and read back",
    Effect.gen(function* () {
      const rule = { ...base, holidays: ["2026-12-24", "2026-11-17"], convention: "preceding" }
      assert.isFalse(yield* PlanSettings.claim(rule))
      const read = yield* PlanSettings.stored
      assert.isTrue(Option.isSome(read))
      if (Option.isSome(read)) {
        assert.deepStrictEqual(read.value.settings.holidays, ["2026-11-17", "2026-12-24"])
        assert.strictEqual(read.value.settings.convention, "preceding")
      }
      const refused = refusal(yield* Effect.exit(PlanSettings.claim(base)))
      assert.deepStrictEqual(refused.differences, [
        "--holidays none here, 2026-11-17,2026-12-24 in the fleet",
        "--convention following here, preceding in the fleet"
      ])
    }),
    60_000
  )
})

describe("PlanSettings --standard (issue 40)", () => {
  it("the standard a worker's bank's records are read in is part of the plan; none is the profile's", () => {
    assert.deepStrictEqual(PlanSettings.differences({ ...base, standard: "cobs" }, { ...base, standard: "cobs" }), [])
    assert.deepStrictEqual(PlanSettings.differences({ ...base, standard: "cobs" }, base), [
      "--standard cobs here, the profile's in the fleet"
    ])
    assert.deepStrictEqual(PlanSettings.differences(base, { ...base, standard: "iso20022" }), [
      "--standard the profile's here, iso20022 in the fleet"
    ])
  })

  db.liveSql(
    "is stored with the settings and read back; a second worker with another standard is refused until --reconfigure",
    Effect.gen(function* () {
      assert.isFalse(yield* PlanSettings.claim({ ...base, standard: "cobs" }))
      const read = yield* PlanSettings.stored
      assert.strictEqual(Option.getOrUndefined(read)?.settings.standard, "cobs")
      assert.isFalse(yield* PlanSettings.claim({ ...base, standard: "cobs" }))
      const other = refusal(yield* Effect.exit(PlanSettings.claim({ ...base, standard: "iso20022" })))
      assert.deepStrictEqual(other.differences, ["--standard iso20022 here, cobs in the fleet"])
      const none = refusal(yield* Effect.exit(PlanSettings.claim(base)))
      assert.deepStrictEqual(none.differences, ["--standard the profile's here, cobs in the fleet"])
      assert.isTrue(yield* PlanSettings.claim(base, { reconfigure: true }))
      assert.isTrue(Option.isSome(yield* PlanSettings.stored))
      assert.strictEqual(Option.getOrUndefined(yield* PlanSettings.stored)?.settings.standard, undefined)
    }),
    60_000
  )
})
