/**
 * `ListingReconciliation`: a sweep's listing reconciled against the fleet's rule (pure), recorded by the sweep for
 * each consent it lists, and kept in the fleet's database for `tppkit worker status`.
 */
import { assert, describe, it } from "@effect/vitest"
import { BankRule, Calendar, LocalDate } from "@tppkit/core"
import { Fixtures, Personality } from "@tppkit/sandbox"
import { ListingReconciliation, Sweep } from "@tppkit/worker"
import { Effect, Layer, Result } from "effect"
import { embeddedDb } from "./pg.ts"
import { inMemory, listedOrder, sweepSettings } from "./support.ts"

const d = LocalDate.parseUnsafe
const orders = Result.getOrThrow(Fixtures.decode(Fixtures.defaults)).standingOrders
const day = d("2026-07-25")
const settings = sweepSettings()

describe("ListingReconciliation.summarize", () => {
  it("a bank on tppkit's rule: every date matches, following · target inferred, no findings", () => {
    const s = ListingReconciliation.summarize(Personality.list({}, orders, day), "c1", day, settings, "2026-07-25")
    assert.strictEqual(s.ruleInUse, "following · target")
    assert.isAbove(s.match, 100)
    assert.deepStrictEqual([s.explained, s.stale, s.anomaly, s.unexplained], [0, 0, 0, 0])
    assert.strictEqual(s.inferred, "following · target")
    assert.strictEqual(s.support, s.evidence)
    assert.isFalse(s.findings)
  })

  it("a bank paying preceding on weekends with anomalies: explained, the anomalies counted, a finding", () => {
    const personality = {
      rule: BankRule.make({ convention: "preceding", calendar: Calendar.weekends }),
      anomalyRate: 0.2,
      seed: 7
    }
    const s = ListingReconciliation.summarize(Personality.list(personality, orders, day), "c1", day, settings, "x")
    assert.isAbove(s.explained, 0)
    assert.isAbove(s.anomaly, 0)
    assert.strictEqual(s.unexplained, 0)
    assert.isTrue(s.findings)
    assert.include([s.inferred, ...s.tied], "preceding · weekends")
  })
})

const order = (orderId: string, nextDate: string) => listedOrder(orderId, "2026-01-20", { value: "10.00", nextDate })

describe("the sweep records each consent's listing", () => {
  it.effect("reconciled on the sweep's day against the fleet's rule, handed to the recorder in use", () =>
    Effect.gen(function* () {
      const recorded: Array<ListingReconciliation.Summary> = []
      // 20 February 2026 is a Friday: the next payment is 20 March (Friday), one listed on the 25th is no rule's
      const listing = [order("OK", "2026-03-20"), order("ODD", "2026-03-25")]
      yield* Sweep.sweepNow("2026-02-27").pipe(
        Effect.provide(
          inMemory(
            Layer.succeed(Sweep.OrderSource)({ list: () => Effect.succeed({ orders: listing, pages: 1 }) }),
            settings
          ).pipe(
            Layer.provide(
              Layer.succeed(ListingReconciliation.Recorder)((s) => Effect.sync(() => void recorded.push(s)))
            )
          )
        )
      )
      assert.strictEqual(recorded.length, 1)
      const s = recorded[0]!
      assert.deepStrictEqual(
        [s.day, s.consent, s.match, s.anomaly, s.findings, s.ruleInUse],
        ["2026-02-27", "c1", 1, 1, true, "following · target"]
      )
    })
  )
})

const db = embeddedDb()

describe("ListingReconciliation in the fleet's database", () => {
  db.liveSql(
    "layerSql keeps the latest listing's reconciliation per day and consent (its repeated orderIds); list reads them by day",
    Effect.gen(function* () {
      const a = ListingReconciliation.summarize(Personality.list({}, orders, day), "a", day, settings, "2026-07-25")
      const tie = {
        ...a,
        consent: "b",
        inferred: undefined,
        tied: ["following · target", "none · target"],
        repeated: [{ orderId: "RENT", records: 2 }]
      }
      const record = (s: ListingReconciliation.Summary) =>
        ListingReconciliation.record(s).pipe(Effect.provide(ListingReconciliation.layerSql))
      yield* record({ ...a, match: 1 })
      yield* record(a)
      yield* record(tie)
      yield* record({ ...a, day: "2026-07-26" })
      assert.deepStrictEqual(yield* ListingReconciliation.list("2026-07-25"), [a, tie])
      assert.strictEqual((yield* ListingReconciliation.list()).length, 3)
    }),
    60_000
  )
})
