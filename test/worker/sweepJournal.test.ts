/**
 * The sweep's journal of a listing's records: the bank's decoder's warnings grouped one per field and reason, with a
 * count (issue 34).
 */
import { Orders } from "@tppkit/core"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import * as SweepJournal from "../../packages/worker/src/internal/sweepJournal.ts"

const record = (orderId: string, frequency: string, value: number) => ({
  orderId,
  debtor: { name: "Jana Novakova", iban: "SK3112000000198742637541" },
  creditor: { iban: "SK0809000000000123123123" },
  instructedAmount: { value, currency: "EUR" },
  frequency,
  startDate: "2026-01-05"
})

describe("SweepJournal: the reading's warnings", () => {
  it("a tolerance is one group per field and why, whatever the code received; an amount one per words", () => {
    const page = Orders.decodeBankList(
      JSON.stringify([
        record("A", "mnth", 10),
        record("B", "week", 10),
        record("C", "Mnth", 10),
        record("D", "MNTH", 12.345),
        record("E", "MNTH", 10)
      ])
    )
    expect(Result.isSuccess(page)).toBe(true)
    const warnings = Result.isSuccess(page) ? page.success.warnings : []
    const summary = SweepJournal.warningsSummary(SweepJournal.pageWarnings(warnings)).warnings ?? []
    expect(summary.map((w) => [w.field, w.count, w.orderIds])).toEqual([
      ["frequency", 3, ["A", "B", "C"]],
      ["instructedAmount.value", 1, ["D"]]
    ])
    // the words are the first one's
    expect(summary[0]?.reason).toMatch(/^"mnth" is read as "MNTH", because /)
    expect(SweepJournal.warningsSummary([])).toEqual({})
  })
})
