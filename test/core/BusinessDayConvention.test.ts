import { BusinessDayConvention, Calendar, LocalDate } from "@tppkit/core"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Arb from "../arbitraries/engine.ts"

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

describe("properties (10,000 runs each)", () => {
  const RUNS = { numRuns: 10_000 }
  const monthOf = (x: number) => LocalDate.format(x as LocalDate.LocalDate).slice(0, 7)

  it("agrees with a day-by-day reading of the convention table", () => {
    fc.assert(
      fc.property(Arb.date(), Arb.convention, Arb.calendar, (date, convention, calendar) => {
        expect(BusinessDayConvention.adjust(date, convention, calendar)).toBe(Arb.refAdjust(date, convention, calendar))
      }),
      RUNS
    )
  })

  it("following never moves backwards, lands on a working day, and every skipped day is closed", () => {
    fc.assert(
      fc.property(Arb.date(), Arb.calendar, (date, calendar) => {
        const r = BusinessDayConvention.adjust(date, "following", calendar)!
        if (r < date || !Calendar.isWorkingDay(calendar, r)) throw new Error("not a forward working day")
        for (let x = date as number; x < r; x++) {
          if (Calendar.isWorkingDay(calendar, x as LocalDate.LocalDate)) throw new Error("skipped a working day")
        }
      }),
      RUNS
    )
  })

  it("preceding never moves forwards, lands on a working day, and every skipped day is closed", () => {
    fc.assert(
      fc.property(Arb.date(), Arb.calendar, (date, calendar) => {
        const r = BusinessDayConvention.adjust(date, "preceding", calendar)!
        if (r > date || !Calendar.isWorkingDay(calendar, r)) throw new Error("not a backward working day")
        for (let x = date as number; x > r; x--) {
          if (Calendar.isWorkingDay(calendar, x as LocalDate.LocalDate)) throw new Error("skipped a working day")
        }
      }),
      RUNS
    )
  })

  it("modified-following and modified-preceding stay in the month whenever it has a working day", () => {
    fc.assert(
      fc.property(Arb.date(), Arb.calendar, (date, calendar) => {
        const { year, month } = LocalDate.toParts(date)
        let hasWorkingDay = false
        for (let day = 1; day <= LocalDate.daysInMonth(year, month); day++) {
          if (Calendar.isWorkingDay(calendar, LocalDate.makeUnsafe(year, month, day))) hasWorkingDay = true
        }
        for (const c of ["modified-following", "modified-preceding"] as const) {
          const r = BusinessDayConvention.adjust(date, c, calendar)!
          if (!Calendar.isWorkingDay(calendar, r)) throw new Error(`${c} lands on a closing day`)
          if (hasWorkingDay && monthOf(r) !== monthOf(date)) throw new Error(`${c} leaves the month`)
        }
      }),
      RUNS
    )
  })

  it("none returns the date itself", () => {
    fc.assert(
      fc.property(Arb.date(), Arb.calendar, (date, calendar) => {
        expect(BusinessDayConvention.adjust(date, "none", calendar)).toBe(date)
      }),
      { numRuns: 1_000 }
    )
  })
})
