import { assert, describe, it } from "@effect/vitest"
import { LocalDate } from "@tppkit/core"
import { type Coverage, OrderSchedule } from "@tppkit/schedule"
import { BigDecimal, Effect, Exit, Fiber } from "effect"
import { TestClock } from "effect/testing"

const d = LocalDate.parseUnsafe
const f = LocalDate.format
const utc = (iso: string) => Date.parse(iso)

const order = (orderId: string, startDate: string, frequency: "MNTH" | "WEEK" = "MNTH") => ({
  orderId,
  frequency,
  startDate: d(startDate),
  instructedAmount: { value: BigDecimal.fromStringUnsafe("100.00"), currency: "EUR" },
  debtor: { iban: "SK3112000000198742637541" },
  creditor: { iban: "SK0809000000000123123123" }
})

const days = (n: number) =>
  Effect.gen(function* () {
    for (let i = 0; i < n; i++) {
      yield* TestClock.adjust("6 hours")
      yield* Effect.yieldNow
    }
  })

describe("OrderSchedule", () => {
  it.effect("today follows the Clock in the configured time zone", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(utc("2026-01-12T23:30:00Z"))
      assert.strictEqual(f(yield* OrderSchedule.today()), "2026-01-13")
      assert.strictEqual(f(yield* OrderSchedule.today("UTC")), "2026-01-12")
      assert.strictEqual(f(yield* OrderSchedule.today("America/New_York")), "2026-01-12")
      const bad = yield* Effect.exit(OrderSchedule.today("Mars/Olympus"))
      assert.isTrue(Exit.isFailure(bad))
    })
  )
  it("triggerDate counts working days back", () => {
    assert.strictEqual(f(OrderSchedule.triggerDate(d("2026-01-15"), 2)), "2026-01-13")
    assert.strictEqual(f(OrderSchedule.triggerDate(d("2026-01-05"), 1)), "2026-01-02") // over 1 January and a weekend
    assert.strictEqual(f(OrderSchedule.triggerDate(d("2026-01-05"), 0)), "2026-01-05")
  })
  it.effect("runs each action exactly once, on its trigger day (2 working days before), under TestClock", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(utc("2025-12-31T23:00:00Z")) // 2026-01-01 00:00 in Bratislava
      const log: Array<[string, string, string]> = []
      const fiber = yield* Effect.forkChild(
        OrderSchedule.run(
          [order("A", "2026-01-15"), order("B", "2026-01-31")],
          (p) =>
            Effect.map(OrderSchedule.today(), (t) => {
              log.push([p.orderId, f(p.executionDate), f(t)])
            }).pipe(Effect.orDie),
          { daysBefore: 2 }
        )
      )
      yield* days(4 * 95)
      yield* Fiber.interrupt(fiber)
      assert.deepStrictEqual(log, [
        ["A", "2026-01-15", "2026-01-13"],
        ["B", "2026-02-02", "2026-01-29"], // 31 January is a Saturday: following gives Monday 2 February
        ["A", "2026-02-16", "2026-02-12"],
        ["B", "2026-03-02", "2026-02-26"],
        ["A", "2026-03-16", "2026-03-12"],
        ["B", "2026-03-31", "2026-03-27"]
      ])
    })
  )
  it.effect("started late, it still acts on a payment whose trigger day passed but which is not executed", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(utc("2026-01-14T12:00:00Z")) // trigger was 13 January, payment on the 15th
      const log: Array<string> = []
      const fiber = yield* Effect.forkChild(
        OrderSchedule.run([order("A", "2026-01-15")], (p) => Effect.sync(() => log.push(f(p.executionDate))), {
          daysBefore: 2
        })
      )
      yield* days(4 * 3)
      yield* Fiber.interrupt(fiber)
      assert.deepStrictEqual(log, ["2026-01-15"])
    })
  )
  it.effect("the scheduled funds check reports every outcome", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(utc("2026-01-01T06:00:00Z"))
      const outcomes: Array<Coverage.Outcome<string>> = []
      const fiber = yield* Effect.forkChild(
        OrderSchedule.fundsCheck([order("W", "2026-01-05", "WEEK")], {
          daysBefore: 1,
          check: (p) => (p.k === 1 ? Effect.fail("down") : Effect.succeed(p.k === 0 ? "APPR" : "DECL")),
          onOutcome: (o) => Effect.sync(() => outcomes.push(o))
        })
      )
      yield* days(4 * 16)
      yield* Fiber.interrupt(fiber)
      assert.deepStrictEqual(
        outcomes.map((o) => [o.payment.k, o._tag === "Checked" ? o.answer : o.error]),
        [
          [0, "APPR"],
          [1, "down"],
          [2, "DECL"]
        ]
      )
    })
  )
})
