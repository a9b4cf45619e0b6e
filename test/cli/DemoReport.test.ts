import { DemoReport } from "@tppkit/cli"
import { LocalDate } from "@tppkit/core"
import { Coverage } from "@tppkit/schedule"
import { describe, expect, it } from "vitest"
import { A, B, payment } from "../schedule/payments.ts"

const d = LocalDate.parseUnsafe
describe("tables", () => {
  const report = Coverage.report(d("2026-11-21"), d("2026-12-01"), [
    { _tag: "Checked", payment: payment("SO-1", "2026-11-21", "10"), answer: "APPR" },
    { _tag: "Checked", payment: payment("SO-1", "2026-11-22", "10", A, 1), answer: "DECL" },
    { _tag: "Failed", payment: payment("SO-2", "2026-11-21", "3.5", B), error: "403" }
  ])

  it("sums the funds check per account, with a totals line under a rule", () => {
    const lines = DemoReport.fundsTable(Coverage.summarize(report))
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
    const group = Coverage.riskGroups([
      {
        payment: { ...long, creditorName: "A creditor with a very long name indeed, s.r.o." },
        reason: { _tag: "Declined" }
      }
    ])[0]!
    for (const line of DemoReport.orderRiskTable(group.orders, 75)) expect(line.length).toBeLessThanOrEqual(75)
    for (const line of DemoReport.cashFlowTable([long], 77)) expect(line.length).toBeLessThanOrEqual(77)
  })

  it("the cash flow marks a month the window cuts as partial, with the days it covers", () => {
    const at = (date: string) => payment("SO-1", date, "10")
    const lines = DemoReport.cashFlowTable([at("2026-11-27"), at("2026-12-15"), at("2027-02-01")], 77, {
      from: LocalDate.parseUnsafe("2026-11-25"),
      to: LocalDate.parseUnsafe("2027-02-22")
    })
    const months = lines.map((l) => l.split(/\s{2,}/)[0])
    expect(months).toContain("2026-11 (partial: 25–30)")
    expect(months).toContain("2026-12")
    expect(months).toContain("2027-02 (partial: 1–22)")
    expect(DemoReport.cashFlowTable([at("2026-11-27")], 77).join("\n")).not.toContain("partial")
  })
})
