import { LocalDate } from "@tppkit/core"
import { CashFlow } from "@tppkit/schedule"
import { describe, expect, it } from "vitest"
import * as Periods from "../../packages/cli/src/internal/periods.ts"

const d = LocalDate.parseUnsafe
const month = (start: string) => {
  const s = d(start)
  return { label: CashFlow.periodLabel(s, "month"), start: s, end: CashFlow.periodEnd(s, "month") }
}
const week = (start: string) => {
  const s = d(start)
  return { label: CashFlow.periodLabel(s, "week"), start: s, end: CashFlow.periodEnd(s, "week") }
}

describe("period totals a window cuts", () => {
  it("a whole month keeps its label; a cut one says which of its days the window covers", () => {
    expect(Periods.label(month("2026-12-01"), d("2026-11-25"), d("2027-02-22"))).toBe("2026-12")
    expect(Periods.label(month("2026-11-01"), d("2026-11-25"), d("2027-02-22"))).toBe("2026-11 (partial: 25–30)")
    expect(Periods.label(month("2027-02-01"), d("2026-11-25"), d("2027-02-22"))).toBe("2027-02 (partial: 1–22)")
    expect(Periods.label(month("2026-01-01"), d("2026-01-31"), d("2026-03-01"))).toBe("2026-01 (partial: 31)")
    expect(Periods.label(month("2026-01-01"), d("2026-01-10"), d("2026-01-20"))).toBe("2026-01 (partial: 10–20)")
    expect(Periods.isPartial(month("2024-02-01"), d("2024-02-01"), d("2024-02-29"))).toBe(false)
  })

  it("a week across two months names its covered dates", () => {
    expect(Periods.label(week("2026-11-30"), d("2026-11-25"), d("2026-12-02"))).toBe(
      "2026-W49 (partial: 2026-11-30 to 2026-12-02)"
    )
    expect(Periods.label(week("2026-11-23"), d("2026-11-25"), d("2026-12-31"))).toBe("2026-W48 (partial: 25–29)")
  })
})
