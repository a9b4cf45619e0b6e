/**
 * `PlanSettings.claim`: the first worker's plan settings are the fleet's; a worker with other settings is refused
 * with every difference named, unless it reconfigures the fleet.
 */
import { assert, describe, it } from "@effect/vitest"
import { PlanSettings } from "@tppkit/worker"
import { Effect, Exit } from "effect"
import { embeddedDb } from "./pg.ts"

const db = embeddedDb()

const base: PlanSettings.Settings = {
  daysBefore: 2,
  calendar: "target",
  hour: 8,
  timeZone: "Europe/Bratislava",
  consents: [{ key: "a" }, { key: "b", iban: "SK2411000000002612345678" }]
}

describe("PlanSettings", () => {
  it.live(
    "stores the first settings, accepts the same, refuses others naming each difference, or reconfigures",
    () =>
      Effect.gen(function* () {
        assert.isFalse(yield* PlanSettings.claim(base))
        // the same plan (a calendar name in another case is the same calendar)
        assert.isFalse(yield* PlanSettings.claim({ ...base, calendar: "TARGET" }))
        const other = { ...base, daysBefore: 3, hour: 9, consents: [{ key: "a" }] }
        const refused = yield* Effect.exit(PlanSettings.claim(other))
        assert.isTrue(Exit.isFailure(refused))
        if (Exit.isFailure(refused)) {
          const error = refused.cause.reasons[0]
          assert.strictEqual(error?._tag, "Fail")
          const e = (error as { readonly error: PlanSettings.PlanSettingsError }).error
          assert.deepStrictEqual(e.differences, [
            "--days-before 3 here, 2 in the fleet",
            "--hour 9 here, 8 in the fleet",
            "--consents a here, a,b=SK2411000000002612345678 in the fleet"
          ])
          assert.match(
            e.message,
            /^this worker's plan settings differ from the fleet's \(stored \S+\): --days-before 3/
          )
          assert.include(e.message, "--reconfigure")
        }
        assert.isTrue(yield* PlanSettings.claim(other, { reconfigure: true }))
        assert.isFalse(yield* PlanSettings.claim(other))
        assert.isTrue(Exit.isFailure(yield* Effect.exit(PlanSettings.claim(base))))
      }).pipe(Effect.provide(db.fresh())),
    60_000
  )
})
