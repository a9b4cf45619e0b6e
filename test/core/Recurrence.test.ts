import { Calendar, LocalDate, Occurrence, Recurrence } from "@tppkit/core"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Arb from "../arbitraries/engine.ts"
import * as RArb from "../arbitraries/recurrence.ts"

const d = LocalDate.parseUnsafe
const iso = (xs: ReadonlyArray<{ readonly execution: number }>) =>
  xs.map((o) => LocalDate.format(o.execution as LocalDate.LocalDate))

const planOf = (r: Recurrence.Recurrence, calendar: Calendar.Calendar = Calendar.target): Occurrence.Plan => {
  const p = Occurrence.planOf(r, { calendar })
  if (Result.isFailure(p)) throw new Error(p.failure.reason)
  return p.success
}

describe("Recurrence schema", () => {
  it("reads and writes its JSON form (dates as YYYY-MM-DD)", () => {
    const json = {
      rule: { _tag: "MonthlyOnDay", interval: 1, day: 31, missing: "clamp" },
      start: "2024-01-31",
      end: "2024-12-31",
      convention: "following",
      pauses: { ranges: [{ from: "2024-07-01", to: "2024-08-31" }], months: [12] }
    }
    const r = Recurrence.decodeJson(json)
    expect(Result.isSuccess(r)).toBe(true)
    if (Result.isSuccess(r)) {
      expect(r.success.start).toBe(d("2024-01-31"))
      expect(Recurrence.encodeJson(r.success)).toEqual(json)
    }
  })

  it("refuses what no standard means, naming it", () => {
    const bad = (rule: unknown) =>
      Recurrence.decodeJson({ rule, start: "2024-01-01", convention: "none" }).pipe(Result.isFailure)
    expect(bad({ _tag: "MonthlyOnDay", interval: 1, day: -29, missing: "clamp" })).toBe(true)
    expect(bad({ _tag: "MonthlyOnDay", interval: 0, day: 5, missing: "clamp" })).toBe(true)
    expect(bad({ _tag: "Weekly", interval: 1, weekdays: [3, 1] })).toBe(true)
    expect(bad({ _tag: "Weekly", interval: 1, weekdays: [] })).toBe(true)
    expect(bad({ _tag: "Yearly", interval: 1, dates: [{ month: 4, day: 31 }], missing: "clamp" })).toBe(true)
    expect(
      bad({
        _tag: "Yearly",
        interval: 1,
        dates: [
          { month: 2, day: 28 },
          { month: 2, day: 29 }
        ],
        missing: "clamp"
      })
    ).toBe(true)
    expect(bad({ _tag: "MonthlyOnWeekday", interval: 1, weekday: 1, ordinal: 6 })).toBe(true)
  })

  it("generated recurrences are valid values", () => {
    fc.assert(
      fc.property(RArb.recurrence, (r) => Schema.is(Recurrence.Recurrence)(r)),
      { numRuns: 2000 }
    )
  })
})

describe("Recurrence.fromSbas: the bank's codes are values of the model", () => {
  it("names each code's rule", () => {
    const at = (f: "DAIL" | "DAI7" | "WEEK" | "MNTH" | "QUTR" | "SEMI" | "YEAR") =>
      Result.getOrThrow(Recurrence.fromSbas({ frequency: f, startDate: d("2024-01-31") }))
    expect(at("DAIL")).toEqual({
      rule: { _tag: "EveryWorkingDays", interval: 1 },
      start: d("2024-01-31"),
      convention: "none"
    })
    expect(at("DAI7").rule).toEqual({ _tag: "EveryDays", interval: 1 })
    expect(at("WEEK").rule).toEqual({ _tag: "Weekly", interval: 1, weekdays: [3] })
    expect(at("QUTR").rule).toEqual({ _tag: "MonthlyOnDay", interval: 3, day: 31, missing: "clamp" })
    expect(at("YEAR").rule).toEqual({ _tag: "Yearly", interval: 1, dates: [{ month: 1, day: 31 }], missing: "clamp" })
    expect(at("MNTH").convention).toBe("following")
    expect(Result.isFailure(Recurrence.fromSbas({ frequency: "MNTH" }))).toBe(true)
  })

  it("the general path plans a code's recurrence exactly as the code's fast path does, for every code, calendar and convention (property)", () => {
    fc.assert(
      fc.property(
        Arb.schedule,
        Arb.calendar,
        Arb.convention,
        fc.integer({ min: 0, max: 4000 }),
        fc.integer({ min: 0, max: 800 }),
        (order, calendar, convention, offset, span) => {
          // the code's fast path (internal/codePlan.ts), from the bank's record and from the code's recurrence
          const a = Result.getOrThrow(Occurrence.makePlan(order, { calendar, convention }))
          const r = Result.getOrThrow(Recurrence.fromSbas(order, { convention }))
          expect(Recurrence.code(r)).toBe(order.frequency)
          // the recurrence's fields alone (a copy forgets the code): the general path
          const copy = { ...r }
          expect(Recurrence.code(copy)).toBeUndefined()
          const b = planOf(copy, calendar)
          const from = (order.startDate + offset - 200) as LocalDate.LocalDate
          const to = (from + span) as LocalDate.LocalDate
          expect(Occurrence.between(b, from, to)).toEqual(Occurrence.between(a, from, to))
          expect(Occurrence.between(planOf(r, calendar), from, to)).toEqual(Occurrence.between(a, from, to))
          expect(Occurrence.count(b, from, to)).toBe(Occurrence.count(a, from, to))
          expect(Occurrence.firstOnOrAfter(b, from)).toEqual(Occurrence.firstOnOrAfter(a, from))
          expect(Occurrence.nth(b, offset % 50)).toEqual(Occurrence.nth(a, offset % 50))
          expect(Occurrence.fixedStep(b)).toBe(Occurrence.fixedStep(a))
          expect(Occurrence.everyWorkingDay(b)).toBe(order.frequency === "DAIL")
        }
      ),
      { numRuns: 10_000 }
    )
  })
})

describe("Occurrence.planOf: every shape against a brute-force reading of the model", () => {
  it("the worked examples of the new shapes", () => {
    const first = (r: Recurrence.Recurrence, n: number) =>
      iso([...Occurrence.iterate(planOf(r, Calendar.weekends))].slice(0, n))
    const base = { start: d("2024-01-01"), convention: "none" } as const
    // every second Tuesday and Thursday
    expect(first({ ...base, rule: { _tag: "Weekly", interval: 2, weekdays: [2, 4] }, count: 4 }, 9)).toEqual([
      "2024-01-02",
      "2024-01-04",
      "2024-01-16",
      "2024-01-18"
    ])
    // the last Friday of every quarter's last month
    expect(
      first(
        { ...base, rule: { _tag: "MonthlyOnWeekday", interval: 1, weekday: 5, ordinal: -1, months: [3, 6, 9, 12] } },
        4
      )
    ).toEqual(["2024-03-29", "2024-06-28", "2024-09-27", "2024-12-27"])
    // day 30: clamped, skipped, moved forward (RFC 7529 BACKWARD, OMIT, FORWARD)
    const day30 = (missing: Recurrence.MissingDay) =>
      first({ ...base, rule: { _tag: "MonthlyOnDay", interval: 1, day: 30, missing } }, 3)
    expect(day30("clamp")).toEqual(["2024-01-30", "2024-02-29", "2024-03-30"])
    expect(day30("skip")).toEqual(["2024-01-30", "2024-03-30", "2024-04-30"])
    expect(day30("forward")).toEqual(["2024-01-30", "2024-03-01", "2024-03-30"])
    // second-to-last day of the month, every other month
    expect(first({ ...base, rule: { _tag: "MonthlyOnDay", interval: 2, day: -2, missing: "clamp" } }, 3)).toEqual([
      "2024-01-30",
      "2024-03-30",
      "2024-05-30"
    ])
    // every 10 working days (weekends), paused in February
    expect(
      first({ ...base, rule: { _tag: "EveryWorkingDays", interval: 10 }, pauses: { ranges: [], months: [2] } }, 4)
    ).toEqual(["2024-01-01", "2024-01-15", "2024-01-29", "2024-03-11"])
    // 29 February yearly, skipped in common years
    expect(
      first({ ...base, rule: { _tag: "Yearly", interval: 1, dates: [{ month: 2, day: 29 }], missing: "skip" } }, 3)
    ).toEqual(["2024-02-29", "2028-02-29", "2032-02-29"])
  })

  it("iterate, between, count, firstOnOrAfter, nth and next agree with the reference (property)", () => {
    fc.assert(
      fc.property(
        RArb.recurrence,
        Arb.calendar,
        fc.integer({ min: -100, max: 2500 }),
        fc.integer({ min: 0, max: 600 }),
        (r, calendar, offset, span) => {
          const until = r.start + 3300
          const ref = RArb.refRecurrence(r, calendar, until)
          const plan = planOf(r, calendar)
          const from = (r.start + offset) as LocalDate.LocalDate
          const to = (from + span) as LocalDate.LocalDate
          const inWindow = ref.filter((o) => o.execution >= from && o.execution <= to)
          expect(Occurrence.between(plan, from, to)).toEqual(inWindow)
          expect(Occurrence.count(plan, from, to)).toBe(inWindow.length)
          const firstRef = ref.find((o) => o.execution >= from)
          const got = Occurrence.firstOnOrAfter(plan, from)
          if (firstRef !== undefined) expect(got).toEqual(firstRef)
          else if (got !== undefined) expect(got.nominal).toBeGreaterThan(until)
          const some = ref[offset % Math.max(1, ref.length)]
          if (some !== undefined) {
            expect(Occurrence.nth(plan, some.k)).toEqual(some)
            const i = ref.indexOf(some)
            const after = Occurrence.next(plan, some as Occurrence.Occurrence)
            if (i + 1 < ref.length) expect(after).toEqual(ref[i + 1])
          }
          const head: Array<Occurrence.Occurrence> = []
          for (const o of Occurrence.iterate(plan)) {
            if (head.length >= 12 || o.nominal > until) break
            head.push(o)
          }
          expect(head).toEqual(ref.slice(0, head.length))
        }
      ),
      { numRuns: 10_000 }
    )
  })

  it("seeks far from the start without replaying (a 2030 window of orders started in 1990)", () => {
    fc.assert(
      fc.property(RArb.rule, Arb.convention, (rule, convention) => {
        const r: Recurrence.Recurrence = { rule, start: d("1990-01-01"), convention }
        const plan = planOf(r, Calendar.weekends)
        const from = d("2030-01-01")
        const to = d("2030-03-31")
        const ref = RArb.refRecurrence(r, Calendar.weekends, d("2030-04-30")).filter(
          (o) => o.execution >= from && o.execution <= to
        )
        expect(Occurrence.between(plan, from, to)).toEqual(ref)
      }),
      { numRuns: 300 }
    )
  })
})

describe('the last working day of the month (packages/core/README.md, "Last working day of the month")', () => {
  it("day -1 with preceding, and day 31 clamped with preceding or modified-following, pay on it (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1990 * 12, max: 2040 * 12 }),
        fc.constantFrom(Calendar.target, Calendar.weekends),
        fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { maxLength: 5 }),
        (monthIndex, base, closed) => {
          const year = Math.floor(monthIndex / 12)
          const month = (monthIndex % 12) + 1
          const first = LocalDate.makeUnsafe(year, month, 1)
          const last = LocalDate.makeUnsafe(year, month, LocalDate.daysInMonth(year, month))
          // holidays among the month's last seven days, so that the walk back is long
          const calendar = Calendar.withHolidays(
            base,
            closed.map((n) => (last - n) as LocalDate.LocalDate)
          )
          // by definition: the month's last day on which the calendar is open
          let expected: number = last
          while (!Arb.refWorking(calendar, expected)) expected--
          const ways: ReadonlyArray<Recurrence.Recurrence> = [
            {
              rule: { _tag: "MonthlyOnDay", interval: 1, day: -1, missing: "clamp" },
              start: first,
              convention: "preceding"
            },
            {
              rule: { _tag: "MonthlyOnDay", interval: 1, day: 31, missing: "clamp" },
              start: first,
              convention: "preceding"
            },
            {
              rule: { _tag: "MonthlyOnDay", interval: 1, day: -1, missing: "clamp" },
              start: first,
              convention: "modified-following"
            }
          ]
          for (const r of ways) {
            const plan = Result.getOrThrow(Occurrence.planOf(r, { calendar }))
            expect(Occurrence.nth(plan, 0)?.execution).toBe(expected)
          }
        }
      ),
      { numRuns: 2_000 }
    )
  })
})

/**
 * The missing-day rule matters, by a day-by-day walk of 400 years (the Gregorian calendar's cycle) from the start: on
 * each day, whether the rule pays on it with the month-end clamp and whether it pays on it when a month without the
 * day is skipped, each up to the end and its own count. The day is lost in translation exactly when the two differ.
 * Each month's days before the earliest the rule can pay on are stepped over at once.
 */
const clampAndSkipDiffer = (r: Recurrence.Recurrence): boolean => {
  const rule = r.rule
  const count = r.count ?? Number.POSITIVE_INFINITY
  const last = Math.min(r.end ?? LocalDate.MAX, r.start + 146_097, LocalDate.MAX)
  let { year, month, day } = LocalDate.toParts(r.start)
  const origin = year * 12 + month - 1
  const startYear = year
  let dim = LocalDate.daysInMonth(year, month)
  const earliest =
    rule._tag === "Yearly"
      ? Math.min(28, ...rule.dates.map((x) => x.day))
      : rule._tag === "MonthlyOnDay"
        ? Math.min(rule.day, 28)
        : 1
  let clampN = 0
  let skipN = 0
  for (let t: number = r.start; t <= last; t++) {
    let clamp = false
    let skip = false
    if (rule._tag === "MonthlyOnDay") {
      const index = year * 12 + month - 1
      const reached =
        (index - origin) % rule.interval === 0 && (rule.months === undefined || rule.months.includes(month))
      clamp = reached && day === Math.min(rule.day, dim)
      skip = reached && rule.day <= dim && day === rule.day
    } else if (rule._tag === "Yearly" && (year - startYear) % rule.interval === 0) {
      for (const x of rule.dates) {
        const lacks = x.month === 2 && x.day === 29 && !LocalDate.isLeapYear(year)
        if (month === x.month && day === (lacks ? 28 : x.day)) clamp = true
        if (month === x.month && day === x.day && !lacks) skip = true
      }
    }
    const byClamp = clamp && clampN < count
    const bySkip = skip && skipN < count
    if (byClamp !== bySkip) return true
    if (byClamp) clampN++
    if (bySkip) skipN++
    if (clampN >= count && skipN >= count) return false
    if (day < dim) day++
    else {
      day = earliest
      t += earliest - 1
      if (month < 12) month++
      else {
        month = 1
        year++
      }
      dim = LocalDate.daysInMonth(year, month)
    }
  }
  return false
}

describe("Recurrence.missesDay: a day 29–31 matters exactly when a month the rule reaches lacks it", () => {
  const d = LocalDate.parseUnsafe
  const monthly = (interval: number, day: number, start: string) =>
    ({
      rule: { _tag: "MonthlyOnDay", interval, day, missing: "clamp" },
      start: d(start),
      convention: "none"
    }) as const

  it("quarterly from 2027-01-30 and half-yearly from 2027-01-31 reach no month without their day", () => {
    expect(Recurrence.missesDay(monthly(3, 30, "2027-01-30"))).toBe(false)
    expect(Recurrence.missesDay(monthly(6, 31, "2027-01-31"))).toBe(false)
    // quarterly from 31 January reaches April; monthly from 30 January reaches February
    expect(Recurrence.missesDay(monthly(3, 31, "2027-01-31"))).toBe(true)
    expect(Recurrence.missesDay(monthly(1, 30, "2027-01-30"))).toBe(true)
    // ended before the first short month, or counted out before it
    expect(Recurrence.missesDay({ ...monthly(1, 31, "2027-01-31"), end: d("2027-02-27") })).toBe(false)
    expect(Recurrence.missesDay({ ...monthly(1, 31, "2027-01-31"), end: d("2027-02-28") })).toBe(true)
    expect(Recurrence.missesDay({ ...monthly(1, 31, "2027-03-31"), count: 1 })).toBe(false)
    expect(Recurrence.missesDay({ ...monthly(1, 31, "2027-03-31"), count: 2 })).toBe(true)
    // every 48 months from 29 February 2024: leap years until 2100
    expect(Recurrence.missesDay(monthly(48, 29, "2024-02-29"))).toBe(true)
    expect(Recurrence.missesDay({ ...monthly(48, 29, "2024-02-29"), end: d("2099-12-31") })).toBe(false)
  })

  /** A generated rule's recurrence, never moved: ended `length` days after `start`, and counted, where given. */
  const neverMoved = (
    rule: Recurrence.Rule,
    start: LocalDate.LocalDate,
    length: number | undefined,
    count: number | undefined
  ): Recurrence.Recurrence => ({
    rule,
    start,
    convention: "none",
    ...(length === undefined ? {} : { end: (start + length) as LocalDate.LocalDate }),
    ...(count === undefined ? {} : { count })
  })

  const dayRule = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .record({
          interval: fc.oneof(fc.constantFrom(1, 2, 3, 4, 6, 12, 24), fc.integer({ min: 1, max: 30 })),
          day: fc.integer({ min: 27, max: 31 }),
          months: fc.option(fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 4 }), {
            nil: undefined
          })
        })
        .map(
          ({ interval, day, months }): Recurrence.Rule => ({
            _tag: "MonthlyOnDay",
            interval,
            day,
            missing: "clamp",
            ...(months === undefined ? {} : { months: [...months].sort((a, b) => a - b) as never })
          })
        )
    },
    {
      weight: 1,
      arbitrary: fc.record({ interval: fc.integer({ min: 1, max: 8 }), other: fc.boolean() }).map(
        ({ interval, other }): Recurrence.Rule => ({
          _tag: "Yearly",
          interval,
          dates: other
            ? [
                { month: 1, day: 15 },
                { month: 2, day: 29 }
              ]
            : [{ month: 2, day: 29 }],
          missing: "clamp"
        })
      )
    }
  )

  it("agrees with a 400-year day-by-day walk (10,000 runs)", () => {
    fc.assert(
      fc.property(
        dayRule,
        Arb.date(),
        fc.option(fc.integer({ min: 0, max: 40 * 366 }), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
        (rule, start, length, count) => {
          const r = neverMoved(rule, start, length, count)
          expect(Recurrence.missesDay(r)).toBe(clampAndSkipDiffer(r))
        }
      ),
      { numRuns: 10_000 }
    )
  })

  it("a 29 February moved forward to a 1 March on the start counts", () => {
    const leapDay: Recurrence.Recurrence = {
      rule: { _tag: "Yearly", interval: 1, dates: [{ month: 2, day: 29 }], missing: "forward" },
      start: d("1997-03-01"),
      end: d("1997-03-01"),
      convention: "none"
    }
    expect(Recurrence.missesDay(leapDay)).toBe(true)
    expect(Recurrence.missesDay({ ...leapDay, rule: { ...leapDay.rule, missing: "skip" } as never })).toBe(false)
    expect(Recurrence.missesDay({ ...leapDay, start: d("1997-03-02"), end: d("1997-12-31") })).toBe(false)
  })

  it("is true exactly when the rule's own missing-day policy pays other dates than the clamp (2,000 runs)", () => {
    const nominal = (r: Recurrence.Recurrence): ReadonlyArray<number> => {
      const last = Math.min(r.end ?? LocalDate.MAX, r.start + 146_097, LocalDate.MAX) as LocalDate.LocalDate
      const all = Occurrence.between(planOf(r), r.start, last).map((o) => o.nominal)
      return r.count === undefined ? all : all.slice(0, r.count)
    }
    fc.assert(
      fc.property(
        dayRule,
        fc.constantFrom("forward", "skip") as fc.Arbitrary<Recurrence.MissingDay>,
        Arb.date(),
        fc.option(fc.integer({ min: 0, max: 8 * 366 }), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }),
        (rule, missing, start, length, count) => {
          const base = neverMoved(rule, start, length, count)
          const own = { ...base, rule: { ...rule, missing } as Recurrence.Rule }
          if (Recurrence.missesDay(own)) return
          // not missed: the policy cannot change a date
          expect(nominal(own)).toEqual(nominal(base))
        }
      ),
      { numRuns: 2_000 }
    )
  })
})
