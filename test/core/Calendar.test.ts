import { Calendar, Easter, LocalDate } from "@tppkit/core"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Arb from "../arbitraries/engine.ts"

const d = LocalDate.parseUnsafe

/** A straightforward restatement of the TARGET2 closing days (spec: Calendars, `target`). */
const targetByRule = (date: LocalDate.LocalDate): boolean => {
  const { year, month, day } = LocalDate.toParts(date)
  const easter = Easter.sunday(year)
  return (
    (month === 1 && day === 1) ||
    (month === 5 && day === 1) ||
    (month === 12 && (day === 25 || day === 26)) ||
    date === easter - 2 ||
    date === easter + 1
  )
}

describe("Calendar", () => {
  it("weekends has no holidays; Saturdays and Sundays are never working days", () => {
    expect(Calendar.isWorkingDay(Calendar.weekends, d("2026-11-20"))).toBe(true) // Friday
    expect(Calendar.isWorkingDay(Calendar.weekends, d("2026-11-21"))).toBe(false) // Saturday
    expect(Calendar.isWorkingDay(Calendar.weekends, d("2026-11-22"))).toBe(false) // Sunday
    expect(Calendar.isWorkingDay(Calendar.weekends, d("2026-12-25"))).toBe(true)
  })

  it("target closes on the TARGET2 days of 2024", () => {
    const closed = ["2024-01-01", "2024-03-29", "2024-04-01", "2024-05-01", "2024-12-25", "2024-12-26"]
    for (const c of closed) expect(Calendar.target.isHoliday(d(c))).toBe(true)
    for (const o of ["2024-01-02", "2024-03-28", "2024-04-02", "2024-12-24", "2024-12-27"]) {
      expect(Calendar.isWorkingDay(Calendar.target, d(o))).toBe(true)
    }
  })

  it("target agrees with the rule on any date 0001–9999", () => {
    fc.assert(
      fc.property(fc.integer({ min: LocalDate.MIN, max: LocalDate.MAX }), (n) => {
        const date = n as LocalDate.LocalDate
        expect(Calendar.target.isHoliday(date)).toBe(targetByRule(date))
      }),
      { numRuns: 10_000 }
    )
    expect(Calendar.target.isHoliday(LocalDate.MIN)).toBe(true)
    expect(Calendar.target.isHoliday((LocalDate.MAX + 1) as LocalDate.LocalDate)).toBe(false)
  })

  it("withHolidays adds dates on top of a base calendar and leaves the base unchanged", () => {
    const custom = Calendar.withHolidays(Calendar.target, [d("2024-04-02")], "target+bank")
    expect(custom.name).toBe("target+bank")
    expect(custom.isHoliday(d("2024-04-02"))).toBe(true)
    expect(custom.isHoliday(d("2024-04-01"))).toBe(true)
    expect(Calendar.target.isHoliday(d("2024-04-02"))).toBe(false)
    expect(Calendar.withHolidays(Calendar.weekends, [d("2024-04-02")]).isHoliday(d("2024-04-01"))).toBe(false)
  })

  it("addWorkingDays walks forwards and backwards over closing days", () => {
    const from = d("2024-03-28") // Thursday before Easter
    expect(LocalDate.format(Calendar.addWorkingDays(Calendar.target, from, 1)!)).toBe("2024-04-02")
    expect(LocalDate.format(Calendar.addWorkingDays(Calendar.target, d("2024-04-02"), -1)!)).toBe("2024-03-28")
    expect(LocalDate.format(Calendar.addWorkingDays(Calendar.target, d("2024-03-30"), 0)!)).toBe("2024-04-02")
    expect(Calendar.addWorkingDays(Calendar.weekends, LocalDate.MAX, 1)).toBeUndefined()
    expect(Calendar.addWorkingDays(Calendar.weekends, LocalDate.MIN, -1)).toBeUndefined()
  })

  it("addWorkingDays equals a day-by-day walk", () => {
    fc.assert(
      fc.property(Arb.calendar, Arb.date(), fc.integer({ min: -40, max: 40 }), (calendar, from, n) => {
        let x: number = from
        if (n === 0) while (!Calendar.isWorkingDay(calendar, x as LocalDate.LocalDate)) x++
        for (let left = Math.abs(n); left > 0; ) {
          x += Math.sign(n)
          if (Calendar.isWorkingDay(calendar, x as LocalDate.LocalDate)) left--
        }
        const got = Calendar.addWorkingDays(calendar, from, n)
        if (got !== x) throw new Error(`${calendar.name} ${LocalDate.format(from)} ${n}: ${got} ≠ ${x}`)
      }),
      { numRuns: 10_000 }
    )
  })

  it("property: every day with added holidays closes exactly those days (weekends included) and nothing else", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: d("1990-01-01"), max: d("2040-12-31") }),
        fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 12 }),
        fc.boolean(),
        (from, offsets, counted) => {
          const closed = new Set(offsets.map((o) => from + o))
          const added = [...closed] as Array<LocalDate.LocalDate>
          // with the counter withHolidays builds, and a calendar that only answers isHoliday (counted day by day)
          const calendar = counted
            ? Calendar.withHolidays(Calendar.everyDay, added)
            : { ...Calendar.make("open", (x) => closed.has(x)), weekendsOpen: true }
          // one row per day, compared once per run: 2.4 million single expects made this property take 20 s
          const actual: Array<unknown> = []
          const expected: Array<unknown> = []
          let open = 0
          for (let x = from; x <= from + 60; x++) {
            const day = x as LocalDate.LocalDate
            if (!closed.has(x)) open++
            // the next and previous working days are the nearest days not added, weekends included
            let next = x
            while (closed.has(next)) next++
            let previous = x
            while (closed.has(previous)) previous--
            actual.push([
              x,
              Calendar.isWorkingDay(calendar, day),
              Calendar.closure(calendar, day),
              Calendar.nextWorkingDay(calendar, day),
              Calendar.previousWorkingDay(calendar, day)
            ])
            expected.push([
              x,
              !closed.has(x),
              closed.has(x) ? (counted ? Calendar.addedHolidayName : "holiday") : undefined,
              next,
              previous
            ])
          }
          expect(actual).toEqual(expected)
          expect(
            Calendar.countWorkingDays(calendar, from as LocalDate.LocalDate, (from + 60) as LocalDate.LocalDate)
          ).toBe(open)
        }
      ),
      { numRuns: 10_000 }
    )
    expect(Calendar.isWorkingDay(Calendar.everyDay, d("2026-12-26"))).toBe(true) // a Saturday and a TARGET holiday
    expect(Calendar.withHolidays(Calendar.everyDay, [d("2026-12-26")]).weekendsOpen).toBe(true)
    expect(Calendar.withHolidays(Calendar.target, [d("2026-12-26")]).weekendsOpen).toBeUndefined()
  })

  it("countWorkingDays equals a day-by-day count, with and without a holiday counter", () => {
    const plain = Calendar.make("target without counter", Calendar.target.isHoliday)
    fc.assert(
      fc.property(
        fc.oneof(
          Arb.calendar,
          fc.constant(plain),
          fc.constant(Calendar.withHolidays(plain, [d("2000-01-03"), d("2020-06-01")])),
          fc.array(Arb.date(), { maxLength: 8 }).map((xs) => Calendar.withHolidays(Calendar.target, [...xs, ...xs]))
        ),
        fc.oneof(
          fc.integer({ min: d("1990-01-01"), max: d("2040-12-31") }),
          fc.integer({ min: LocalDate.MIN - 5, max: LocalDate.MIN + 400 }),
          fc.integer({ min: LocalDate.MAX - 400, max: LocalDate.MAX })
        ),
        fc.integer({ min: -5, max: 400 }),
        (calendar, from, len) => {
          const a = from as LocalDate.LocalDate
          const b = (from + len) as LocalDate.LocalDate
          let expected = 0
          for (let x = Math.max(a, LocalDate.MIN); x <= Math.min(b, LocalDate.MAX); x++) {
            if (Calendar.isWorkingDay(calendar, x as LocalDate.LocalDate)) expected++
          }
          const got = Calendar.countWorkingDays(calendar, a, b)
          if (got !== expected) throw new Error(`${calendar.name}: ${got} ≠ ${expected}`)
        }
      ),
      { numRuns: 10_000 }
    )
    expect(Calendar.countWorkingDays(Calendar.target, LocalDate.MIN, LocalDate.MAX)).toBeGreaterThan(2_500_000)
  })
})
