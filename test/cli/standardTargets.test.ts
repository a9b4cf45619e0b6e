import { LocalDate, Recurrence, Standard, Translation } from "@tppkit/core"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { encodeTo, isStandardTarget, standardTargets } from "../../packages/cli/src/internal/standardTargets.ts"

describe("translate targets of other standards", () => {
  // the bank's MNTH from 31 January: the month's last day, moved to the next working day
  const r = Result.getOrThrow(
    Recurrence.fromSbas({ frequency: "MNTH", startDate: LocalDate.parseUnsafe("2024-01-31") })
  )

  it("writes each standard's own record, with the verdict and losses of core's translator", () => {
    const out = Object.fromEntries(standardTargets.map((to) => [to, encodeTo(r, to)]))
    expect(Translation.getValue(out["uk-v3"]!)).toBe(
      '{"Frequency":"IntrvlMnthDay:01:-01","FirstPaymentDateTime":"2024-01-31T00:00:00+00:00"}'
    )
    expect(Translation.getValue(out["berlin-group"]!)).toBe(
      '{"startDate":"2024-01-31","frequency":"Monthly","executionRule":"following","dayOfExecution":"31"}'
    )
    expect(Translation.getValue(out.cobs!)).toBe(
      '{"requestedExecutionDate":"2024-01-31","standingOrder":{"execution":{"interval":"MONTHLY","mode":"UNTIL_CANCELLATION","modeDue":"DUE_LAST_DAY_OF_MONTH"}}}'
    )
    expect(Object.fromEntries(standardTargets.map((to) => [to, Translation.verdict(out[to]!)]))).toEqual({
      cobs: "exact",
      "berlin-group": "exact",
      "uk-v3": "exact",
      "uk-v4": "lossy",
      iso20022: "lossy",
      ynab: "lossy",
      actual: "lossy"
    })
    expect(isStandardTarget("uk-v4")).toBe(true)
    expect(isStandardTarget("rrule")).toBe(false)
    // one list of standards: the targets are core's, but RRULE and the bank's codes (written as text)
    expect([...standardTargets].sort()).toEqual(Standard.standards.filter((x) => x !== "rrule" && x !== "sbas").sort())
  })
})
