import { Easter, LocalDate } from "@tppkit/core"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

// Known Gregorian Easter Sundays (published tables), including the earliest (22 March) and latest (25 April).
const known: ReadonlyArray<string> = [
  "1583-04-10",
  "1818-03-22",
  "1886-04-25",
  "1943-04-25",
  "1961-04-02",
  "2000-04-23",
  "2008-03-23",
  "2011-04-24",
  "2016-03-27",
  "2019-04-21",
  "2024-03-31",
  "2025-04-20",
  "2026-04-05",
  "2027-03-28",
  "2038-04-25",
  "2285-03-22"
]

describe("Easter.sunday", () => {
  for (const text of known) {
    it(`Easter ${text.slice(0, 4)} is ${text}`, () => {
      expect(LocalDate.format(Easter.sunday(Number(text.slice(0, 4))))).toBe(text)
    })
  }

  it("is a Sunday between 22 March and 25 April in every year 0001–9999", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), (year) => {
        const e = Easter.sunday(year)
        const { month, day } = LocalDate.toParts(e)
        expect(LocalDate.dayOfWeek(e)).toBe(7)
        expect(LocalDate.year(e)).toBe(year)
        expect(month === 3 ? day >= 22 : month === 4 && day <= 25).toBe(true)
      }),
      { numRuns: 10_000 }
    )
  })
})
