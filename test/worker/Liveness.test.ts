/**
 * Liveness: the verdict on a reading (laws: no healthy runner is `stopped`, never `stalled`; a queue unread past its
 * limit or sweeps quiet past theirs is `stalled`, since the oldest unread request or the last sweep), and the
 * reading of a real PostgreSQL with effect's own cluster tables: a request nobody reads shows the stall.
 */
import { assert, describe, it } from "@effect/vitest"
import { Liveness } from "@tppkit/worker"
import { Effect, Layer } from "effect"
import * as fc from "fast-check"
import { clusterTables, healthyRunner, request } from "./clusterQueue.ts"
import { embeddedDb } from "./pg.ts"

const db = embeddedDb()
const at = Date.UTC(2026, 10, 29, 7, 0)
const reading = (over: Partial<Liveness.Reading> = {}): Liveness.Reading => ({
  at,
  unread: 0,
  oldestUnreadAt: undefined,
  runners: 2,
  lastSweepAt: at - 3_600_000,
  ...over
})

describe("Liveness.verdict", () => {
  it("live, stopped, or stalled with what stopped, since when and why", () => {
    assert.deepStrictEqual(Liveness.verdict(reading()), { state: "live" })
    assert.deepStrictEqual(Liveness.verdict(reading({ runners: 0, unread: 5, oldestUnreadAt: at - 600_000 })), {
      state: "stopped"
    })
    // a request unread for two minutes is not yet a stall; a moment longer is
    assert.deepStrictEqual(Liveness.verdict(reading({ unread: 1, oldestUnreadAt: at - 120_000 })), { state: "live" })
    assert.deepStrictEqual(Liveness.verdict(reading({ unread: 3, oldestUnreadAt: at - 125_000, runners: 1 })), {
      state: "stalled",
      what: "queue",
      since: at - 125_000,
      reason: "the cluster has read none of 3 due requests for 125 s while 1 runner looks healthy"
    })
    assert.deepStrictEqual(Liveness.verdict(reading({ lastSweepAt: at - 27 * 3_600_000 })), {
      state: "stalled",
      what: "sweeps",
      since: at - 27 * 3_600_000,
      reason: "no sweep has run for 27 h while 2 runners look healthy"
    })
    // a fleet that never swept is not stalled for it
    assert.deepStrictEqual(Liveness.verdict(reading({ lastSweepAt: undefined })), { state: "live" })
  })

  it("never stalled without a healthy runner; stalled exactly when a limit is passed", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 5 }),
        fc.option(fc.nat({ max: 600_000 }), { nil: undefined }),
        fc.option(fc.nat({ max: 200_000_000 }), { nil: undefined }),
        (runners, unreadAge, sweepAge) => {
          const r = reading({
            runners,
            unread: unreadAge === undefined ? 0 : 1,
            oldestUnreadAt: unreadAge === undefined ? undefined : at - unreadAge,
            lastSweepAt: sweepAge === undefined ? undefined : at - sweepAge
          })
          const v = Liveness.verdict(r)
          const late =
            (unreadAge !== undefined && unreadAge > Liveness.defaults.queue) ||
            (sweepAge !== undefined && sweepAge > Liveness.defaults.sweep)
          assert.strictEqual(v.state, runners === 0 ? "stopped" : late ? "stalled" : "live")
          if (v.state === "stalled") assert.isAtMost(v.since, at)
        }
      ),
      { numRuns: 10_000 }
    )
  })
})

describe("Liveness.read", { timeout: 60_000 }, () => {
  db.liveSql(
    "a database without the cluster's tables reads empty; a request nobody reads shows the stall",
    Effect.gen(function* () {
      const empty = yield* Liveness.read
      assert.deepInclude(empty, { unread: 0, oldestUnreadAt: undefined, runners: 0, lastSweepAt: undefined })
      assert.strictEqual(Liveness.verdict(empty).state, "stopped")
      yield* Layer.build(clusterTables)
      yield* healthyRunner("127.0.0.1:34431")
      const now = Date.now()
      yield* request(now - 600_000, 1)
      yield* request(now - 900_000, 2, { processed: true })
      yield* request(now - 900_000, 3, { lastRead: true })
      yield* request(now - 900_000, 4, { deliverAt: now + 3_600_000 })
      yield* request(now - 5_000, 5)
      const r = yield* Liveness.read
      assert.deepInclude(r, { unread: 2, oldestUnreadAt: now - 600_000, runners: 1 })
      const v = Liveness.verdict(r)
      assert.strictEqual(v.state === "stalled" && v.what, "queue")
      assert.match(
        v.state === "stalled" ? v.reason : "",
        /^the cluster has read none of 2 due requests for 6\d\d s while 1 runner looks healthy$/
      )
    })
  )
})
