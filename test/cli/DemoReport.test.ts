import { DemoReport, Render } from "@tppkit/cli"
import { LocalDate } from "@tppkit/core"
import { FundsCheck, type Payment } from "@tppkit/schedule"
import { BigDecimal, Effect } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"

const d = LocalDate.parseUnsafe
const bd = BigDecimal.fromStringUnsafe
const A = "SK2411000000002612345678"
const B = "SK1709000000005012348888"

const payment = (orderId: string, date: string, amount: string, debtorIban = A, k = 0): Payment.Payment => ({
  orderId,
  k,
  nominalDate: d(date),
  executionDate: d(date),
  amount: bd(amount),
  currency: "EUR",
  debtorIban,
  creditorIban: "AT611904300234573201",
  creditorName: `Creditor of ${orderId}`
})

describe("firstUncovered", () => {
  it("finds the first payment whose running total is not covered, as a linear scan would", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 100_000 }), { maxLength: 200 }),
        fc.integer({ min: 0, max: 5_000_000 }),
        (cents, balance) => {
          const amounts = cents.map((c) => BigDecimal.make(BigInt(c), 2))
          let checks = 0
          const found = Effect.runSync(
            DemoReport.firstUncovered(amounts, (total) => {
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
      Effect.result(DemoReport.firstUncovered([bd("1"), bd("2")], () => Effect.fail("no answer" as const)))
    )
    expect(result._tag).toBe("Failure")
  })
})

describe("riskGroups", () => {
  it("groups per account and reason, then per order, earliest first, with counts and exact sums", () => {
    const noConsent = { _tag: "NoAnswer", detail: "no consent" } as const
    const groups = DemoReport.riskGroups([
      { payment: payment("SO-2", "2026-11-23", "0.1", B), reason: noConsent },
      { payment: payment("SO-1", "2026-11-24", "0.2", B), reason: noConsent },
      { payment: payment("SO-2", "2026-11-22", "0.2", B, 1), reason: noConsent },
      { payment: payment("SO-9", "2026-11-21", "5", A), reason: { _tag: "Declined" } },
      { payment: payment("SO-9", "2026-11-25", "5", A, 1), reason: { _tag: "RunningTotal" } }
    ])
    expect(
      groups.map((g) => [g.debtorIban, g.reason._tag, g.count, Render.fixed2(g.amount), LocalDate.format(g.first)])
    ).toEqual([
      [A, "Declined", 1, "5.00", "2026-11-21"],
      [B, "NoAnswer", 3, "0.50", "2026-11-22"],
      [A, "RunningTotal", 1, "5.00", "2026-11-25"]
    ])
    expect(groups[1]!.orders.map((o) => [o.orderId, o.count, Render.fixed2(o.amount)])).toEqual([
      ["SO-2", 2, "0.30"],
      ["SO-1", 1, "0.20"]
    ])
  })
})

describe("tables", () => {
  const report = FundsCheck.report(d("2026-11-21"), d("2026-12-01"), [
    { _tag: "Checked", payment: payment("SO-1", "2026-11-21", "10"), answer: "APPR" },
    { _tag: "Checked", payment: payment("SO-1", "2026-11-22", "10", A, 1), answer: "DECL" },
    { _tag: "Failed", payment: payment("SO-2", "2026-11-21", "3.5", B), error: "403" }
  ])

  it("sums the funds check per account, with a totals line under a rule", () => {
    const lines = DemoReport.fundsTable(DemoReport.summarize(report))
    expect(lines).toEqual([
      "Account                   Payments  Amount  Cur  APPR  DECL  No answer",
      "────────────────────────  ────────  ──────  ───  ────  ────  ─────────",
      `${A}         2   20.00  EUR     1     1          0`,
      `${B}         1    3.50  EUR     0     0          1`,
      "────────────────────────  ────────  ──────  ───  ────  ────  ─────────",
      "All accounts                     3                  1     1          1"
    ])
  })

  it("fit 77 columns with long names", () => {
    const long = payment("SO-LONG-IDENTIFIER-0001", "2026-11-21", "123456789.99")
    const group = DemoReport.riskGroups([
      {
        payment: { ...long, creditorName: "A creditor with a very long name indeed, s.r.o." },
        reason: { _tag: "Declined" }
      }
    ])[0]!
    for (const line of DemoReport.orderRiskTable(group.orders, 75)) expect(line.length).toBeLessThanOrEqual(75)
    for (const line of DemoReport.cashFlowTable([long], 77)) expect(line.length).toBeLessThanOrEqual(77)
  })
})
