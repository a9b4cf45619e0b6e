import { assert, describe, it } from "@effect/vitest"
import { Calendar, LocalDate } from "@tppkit/core"
import { FundsCheck, type Payment, Projection } from "@tppkit/schedule"
import { BigDecimal, Effect } from "effect"

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
const answer = (p: Payment.Payment): FundsCheck.Answer =>
  BigDecimal.isGreaterThan(p.amount, BigDecimal.fromStringUnsafe("500")) ? "DECL" : "APPR"

describe("FundsCheck", () => {
  it("horizon counts working days of the calendar", () => {
    assert.strictEqual(f(FundsCheck.horizon(today, 7)), "2026-12-31")
    assert.strictEqual(f(FundsCheck.horizon(today, 7, Calendar.weekends)), "2026-12-30")
    assert.strictEqual(f(FundsCheck.horizon(d("2026-12-26"), 0)), "2026-12-28")
  })
  it("due selects the payments executing from today to the horizon", () => {
    const due = FundsCheck.due(payments, today, 7)
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
      const report = yield* FundsCheck.run(payments, {
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
      const report = yield* FundsCheck.run(payments, {
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
      const report = yield* FundsCheck.runWithService(payments, { today, daysBefore: 7 }).pipe(
        Effect.provide(FundsCheck.FundsChecker.layerFrom(answer))
      )
      assert.deepStrictEqual(
        report.atRisk.map((p) => p.orderId),
        ["rent"]
      )
      const checker = yield* FundsCheck.FundsChecker.fromFunction((_: Payment.Payment) =>
        Effect.fail(new Error("timeout"))
      )
      const failed = yield* FundsCheck.run(payments, { today, daysBefore: 7, check: checker.check })
      const error = failed.failed[0]?.error
      assert.strictEqual(error?.reason._tag, "CheckFailed")
      assert.strictEqual(error?.message, "funds check failed: timeout")
    })
  )
})
