import { assert, describe, it } from "@effect/vitest"
import { Calendar, LocalDate, Money } from "@tppkit/core"
import { Coverage, type Payment, Projection } from "@tppkit/schedule"
import { BigDecimal, Effect } from "effect"
import * as fc from "fast-check"
import { expect } from "vitest"
import { A, B, payment } from "./payments.ts"

const d = LocalDate.parseUnsafe
const f = LocalDate.format

const order = (orderId: string, startDate: string, amount: string, frequency: "MNTH" | "WEEK" = "MNTH") => ({
  orderId,
  frequency,
  startDate: d(startDate),
  instructedAmount: { value: BigDecimal.fromStringUnsafe(amount), currency: "EUR" },
  debtor: { iban: "SK3112000000198742637541" },
  creditor: { iban: "SK0809000000000123123123" }
})

// Monday 2026-12-21; seven working days later under `target` (25/26 December closed) is 2026-12-31
const today = d("2026-12-21")
const { payments } = Projection.project(
  [order("rent", "2026-01-22", "900.00"), order("gym", "2026-01-31", "30.00"), order("car", "2026-01-05", "250.00")],
  { from: d("2026-12-01"), to: d("2027-01-31") }
)
const answer = (p: Payment.Payment): Coverage.Answer =>
  BigDecimal.isGreaterThan(p.amount, BigDecimal.fromStringUnsafe("500")) ? "DECL" : "APPR"

describe("Coverage", () => {
  it("horizon counts working days of the calendar", () => {
    assert.strictEqual(f(Coverage.horizon(today, 7)), "2026-12-31")
    assert.strictEqual(f(Coverage.horizon(today, 7, Calendar.weekends)), "2026-12-30")
    assert.strictEqual(f(Coverage.horizon(d("2026-12-26"), 0)), "2026-12-28")
  })
  it("due selects the payments executing from today to the horizon", () => {
    const due = Coverage.due(payments, today, 7)
    assert.deepStrictEqual(
      due.map((p) => [p.orderId, f(p.executionDate)]),
      [
        ["rent", "2026-12-22"],
        ["gym", "2026-12-31"]
      ]
    )
  })
  it.effect("run checks the due payments once each and reports those at risk", () =>
    Effect.gen(function* () {
      const seen: Array<string> = []
      const report = yield* Coverage.run(payments, {
        today,
        daysBefore: 7,
        check: (p) => Effect.sync(() => seen.push(p.orderId)).pipe(Effect.as(answer(p)))
      })
      assert.deepStrictEqual(seen, ["rent", "gym"])
      assert.deepStrictEqual(
        report.atRisk.map((p) => p.orderId),
        ["rent"]
      )
      assert.strictEqual(report.failed.length, 0)
      assert.strictEqual(f(report.horizon), "2026-12-31")
      assert.deepStrictEqual(
        report.outcomes.map((o) => (o._tag === "Checked" ? o.answer : "error")),
        ["DECL", "APPR"]
      )
    })
  )
  it.effect("a failing check is reported and the other payments are still checked", () =>
    Effect.gen(function* () {
      const report = yield* Coverage.run(payments, {
        today,
        daysBefore: 7,
        check: (p) => (p.orderId === "rent" ? Effect.fail("bank unavailable" as const) : Effect.succeed(answer(p)))
      })
      assert.deepStrictEqual(report.failed, [{ payment: report.outcomes[0]!.payment, error: "bank unavailable" }])
      assert.strictEqual(report.outcomes[1]?._tag, "Checked")
    })
  )
  it.effect("runs with the FundsChecker service, and fromFunction keeps the checker's error", () =>
    Effect.gen(function* () {
      const report = yield* Coverage.runWithService(payments, { today, daysBefore: 7 }).pipe(
        Effect.provide(Coverage.FundsChecker.layerFrom(answer))
      )
      assert.deepStrictEqual(
        report.atRisk.map((p) => p.orderId),
        ["rent"]
      )
      const checker = yield* Coverage.FundsChecker.fromFunction((_: Payment.Payment) =>
        Effect.fail(new Error("timeout"))
      )
      const failed = yield* Coverage.run(payments, { today, daysBefore: 7, check: checker.check })
      const error = failed.failed[0]?.error
      assert.strictEqual(error?.reason._tag, "CheckFailed")
      assert.strictEqual(error?.message, "funds check failed: timeout")
    })
  )
})

const bd = BigDecimal.fromStringUnsafe

describe("Coverage.firstUncovered", () => {
  it("finds the first payment whose running total is not covered, as a linear scan would", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 100_000 }), { maxLength: 200 }),
        fc.integer({ min: 0, max: 5_000_000 }),
        (cents, balance) => {
          const amounts = cents.map((c) => BigDecimal.make(BigInt(c), 2))
          let checks = 0
          const found = Effect.runSync(
            Coverage.firstUncovered(amounts, (total) => {
              checks++
              return Effect.succeed(BigDecimal.isLessThanOrEqualTo(total, BigDecimal.make(BigInt(balance), 2)))
            })
          )
          let sum = 0
          let expected = cents.length
          for (const [i, c] of cents.entries()) {
            sum += c
            if (sum > balance) {
              expected = i
              break
            }
          }
          expect(found).toBe(expected)
          expect(checks).toBeLessThanOrEqual(Math.ceil(Math.log2(cents.length + 1)))
        }
      )
    )
  })

  it("stops at the checker's first failure", () => {
    const result = Effect.runSync(
      Effect.result(Coverage.firstUncovered([bd("1"), bd("2")], () => Effect.fail("no answer" as const)))
    )
    expect(result._tag).toBe("Failure")
  })
})

describe("Coverage.riskGroups", () => {
  it("groups per account and reason, then per order, earliest first, with counts and exact sums", () => {
    const noConsent = { _tag: "NoAnswer", detail: "no consent" } as const
    const groups = Coverage.riskGroups([
      { payment: payment("SO-2", "2026-11-23", "0.1", B), reason: noConsent },
      { payment: payment("SO-1", "2026-11-24", "0.2", B), reason: noConsent },
      { payment: payment("SO-2", "2026-11-22", "0.2", B, 1), reason: noConsent },
      { payment: payment("SO-9", "2026-11-21", "5", A), reason: { _tag: "Declined" } },
      { payment: payment("SO-9", "2026-11-25", "5", A, 1), reason: { _tag: "RunningTotal" } }
    ])
    expect(
      groups.map((g) => [g.debtorIban, g.reason._tag, g.count, Money.formatFixed2(g.amount), LocalDate.format(g.first)])
    ).toEqual([
      [A, "Declined", 1, "5.00", "2026-11-21"],
      [B, "NoAnswer", 3, "0.50", "2026-11-22"],
      [A, "RunningTotal", 1, "5.00", "2026-11-25"]
    ])
    expect(groups[1]!.orders.map((o) => [o.orderId, o.count, Money.formatFixed2(o.amount)])).toEqual([
      ["SO-2", 2, "0.30"],
      ["SO-1", 1, "0.20"]
    ])
  })
})
