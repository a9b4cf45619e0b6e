import { BusinessDayConvention, Calendar, LocalDate } from "@tppkit/core"
import { describe, expect, it } from "vitest"

const d = LocalDate.parseUnsafe
const adjusted = (
  date: string,
  convention: BusinessDayConvention.BusinessDayConvention,
  calendar = Calendar.target
) => {
  const r = BusinessDayConvention.adjust(d(date), convention, calendar)
  return r === undefined ? undefined : LocalDate.format(r)
}

describe("BusinessDayConvention.adjust (spec: Execution dates)", () => {
  const rows: ReadonlyArray<readonly [string, BusinessDayConvention.BusinessDayConvention, string]> = [
    // 2024-03-31 Sunday, 2024-04-01 Easter Monday, 2024-03-29 Good Friday
    ["2024-03-31", "following", "2024-04-02"],
    ["2024-03-31", "preceding", "2024-03-28"],
    ["2024-03-31", "modified-following", "2024-03-28"],
    ["2024-03-31", "modified-preceding", "2024-03-28"],
    ["2024-03-31", "none", "2024-03-31"],
    // 2026-02-28 Saturday: following leaves February
    ["2026-02-28", "following", "2026-03-02"],
    ["2026-02-28", "modified-following", "2026-02-27"],
    // 2026-11-01 Sunday: preceding leaves November
    ["2026-11-01", "preceding", "2026-10-30"],
    ["2026-11-01", "modified-preceding", "2026-11-02"],
    // working days stay
    ["2024-04-02", "following", "2024-04-02"],
    ["2024-04-02", "preceding", "2024-04-02"]
  ]
  for (const [date, convention, expected] of rows) {
    it(`${date} ${convention} → ${expected}`, () => expect(adjusted(date, convention)).toBe(expected))
  }

  it("the default convention is following and the schema decodes the names", () => {
    expect(BusinessDayConvention.defaultConvention).toBe("following")
    expect(BusinessDayConvention.conventions).toContain("modified-preceding")
  })
})
