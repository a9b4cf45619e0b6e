import { BusinessDayConvention, Calendar, Frequency, LocalDate, Occurrence } from "@tppkit/core"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Arb from "../arbitraries/engine.ts"

const d = LocalDate.parseUnsafe
const iso = (xs: ReadonlyArray<Occurrence.Occurrence>): Array<string> => xs.map((o) => LocalDate.format(o.execution))

const planOf = (order: Occurrence.OrderSchedule, options?: Occurrence.Options): Occurrence.Plan => {
  const r = Occurrence.makePlan(order, options)
  if (Result.isFailure(r)) throw new Error(r.failure.reason)
  return r.success
}

const take = (plan: Occurrence.Plan, n: number, from?: LocalDate.LocalDate): Array<Occurrence.Occurrence> => {
  const out: Array<Occurrence.Occurrence> = []
  for (const o of Occurrence.iterate(plan, from)) {
    if (out.length >= n) break
    out.push(o)
  }
  return out
}

describe("worked examples (spec: calendar target, convention following)", () => {
  const rows: ReadonlyArray<{
    readonly frequency: Frequency.Frequency
    readonly start: string
    readonly end?: string
    readonly expected: ReadonlyArray<string>
  }> = [
    {
      frequency: "MNTH",
      start: "2024-01-31",
      expected: ["2024-01-31", "2024-02-29", "2024-04-02", "2024-04-30", "2024-05-31"]
    },
    { frequency: "YEAR", start: "2024-02-29", expected: ["2024-02-29", "2025-02-28", "2026-03-02", "2027-03-01"] },
    { frequency: "WEEK", start: "2026-12-19", expected: ["2026-12-21", "2026-12-28", "2027-01-04"] },
    {
      frequency: "DAIL",
      start: "2026-12-23",
      expected: ["2026-12-23", "2026-12-24", "2026-12-28", "2026-12-29", "2026-12-30", "2026-12-31", "2027-01-04"]
    },
    { frequency: "DAI7", start: "2026-12-31", end: "2027-01-02", expected: ["2026-12-31", "2027-01-01", "2027-01-02"] }
  ]
  for (const row of rows) {
    it(`${row.frequency} from ${row.start}${row.end ? ` to ${row.end}` : ""}`, () => {
      const plan = planOf({
        frequency: row.frequency,
        startDate: d(row.start),
        ...(row.end ? { endDate: d(row.end) } : {})
      })
      const got = take(plan, row.end ? 100 : row.expected.length)
      expect(iso(got)).toEqual(row.expected)
      expect(got.map((o) => o.k)).toEqual(row.expected.map((_, i) => i))
      // the same through the window and index queries
      const last = d(row.expected[row.expected.length - 1]!)
      expect(iso(Occurrence.between(plan, d(row.start), last))).toEqual(row.expected)
      expect(Occurrence.count(plan, d(row.start), last)).toBe(row.expected.length)
      row.expected.forEach((e, k) => {
        expect(LocalDate.format(Occurrence.nth(plan, k)!.execution)).toBe(e)
        expect(Occurrence.firstOnOrAfter(plan, d(e))?.k).toBe(k)
      })
    })
  }

  it("MNTH from 31 January keeps nominal month ends (never dragged down)", () => {
    const plan = planOf({ frequency: "MNTH", startDate: d("2024-01-31") })
    expect(take(plan, 5).map((o) => LocalDate.format(o.nominal))).toEqual([
      "2024-01-31",
      "2024-02-29",
      "2024-03-31",
      "2024-04-30",
      "2024-05-31"
    ])
  })
})

describe("anchor and end (spec: Anchor, nextDate and the projection window)", () => {
  it("anchors on startDate, else nextDate, else reports not projectable", () => {
    const anchor = (order: Occurrence.OrderSchedule) => Occurrence.nth(planOf(order), 0)?.nominal
    expect(anchor({ frequency: "MNTH", startDate: d("2024-01-15"), nextDate: d("2024-03-15") })).toBe(d("2024-01-15"))
    expect(anchor({ frequency: "MNTH", nextDate: d("2024-03-15") })).toBe(d("2024-03-15"))
    const r = Occurrence.makePlan({ frequency: "MNTH" })
    expect(Result.isFailure(r) && r.failure._tag).toBe("NotProjectable")
    expect(Result.isFailure(r) && r.failure.reason).toMatch(/startDate.*nextDate/)
  })

  it("endDate is inclusive on the nominal date", () => {
    const plan = planOf({ frequency: "MNTH", startDate: d("2024-01-31"), endDate: d("2024-03-31") })
    // 2024-03-31 is a Sunday: the nominal date is within the end, its execution (2 April) is after it
    expect(iso([...Occurrence.iterate(plan)])).toEqual(["2024-01-31", "2024-02-29", "2024-04-02"])
    const before = planOf({ frequency: "MNTH", startDate: d("2024-01-31"), endDate: d("2024-03-30") })
    expect([...Occurrence.iterate(before)].length).toBe(2)
  })

  it("an endDate before the anchor gives no occurrences", () => {
    const plan = planOf({ frequency: "WEEK", startDate: d("2024-01-31"), endDate: d("2024-01-30") })
    expect([...Occurrence.iterate(plan)]).toEqual([])
    expect(Occurrence.firstOnOrAfter(plan, d("2000-01-01"))).toBeUndefined()
    expect(Occurrence.count(plan, d("2000-01-01"), d("2030-01-01"))).toBe(0)
  })

  it("costs the same for an order started in 1990 as for one started yesterday", () => {
    const plan = planOf({ frequency: "MNTH", startDate: d("1990-01-31") })
    const o = Occurrence.firstOnOrAfter(plan, d("2026-11-21"))!
    expect(LocalDate.format(o.execution)).toBe("2026-11-30")
    expect(o.k).toBe((2026 - 1990) * 12 + 10)
  })
})

describe("range ends (spec: Dates, years 0001–9999)", () => {
  it("stops at 9999-12-31 without crashing", () => {
    const plan = planOf({ frequency: "MNTH", startDate: d("9999-10-31") })
    expect(iso([...Occurrence.iterate(plan)])).toEqual(["9999-11-01", "9999-11-30", "9999-12-31"])
    const weekly = planOf({ frequency: "DAI7", startDate: d("9999-12-30") })
    expect(iso([...Occurrence.iterate(weekly)])).toEqual(["9999-12-30", "9999-12-31"])
  })

  it("an occurrence the convention would move past 9999-12-31 does not exist", () => {
    const calendar = Calendar.withHolidays(Calendar.target, [d("9999-12-31")])
    const plan = planOf({ frequency: "YEAR", startDate: d("9997-12-31") }, { calendar })
    expect(iso([...Occurrence.iterate(plan)])).toEqual(["9997-12-31", "9998-12-31"])
    expect(Occurrence.nth(plan, 2)).toBeUndefined()
    expect(Occurrence.count(plan, d("9990-01-01"), LocalDate.MAX)).toBe(2)
    const modified = planOf(
      { frequency: "YEAR", startDate: d("9997-12-31") },
      { calendar, convention: "modified-following" }
    )
    expect(iso([...Occurrence.iterate(modified)])).toEqual(["9997-12-31", "9998-12-31", "9999-12-30"])
    expect(BusinessDayConvention.adjust(d("9999-12-31"), "following", calendar)).toBeUndefined()
  })

  it("queries past 9999-12-31 find nothing and terminate", () => {
    const beyond = (LocalDate.MAX + 10) as LocalDate.LocalDate
    for (const frequency of Frequency.codes) {
      const plan = planOf({ frequency, startDate: d("2024-01-31") })
      expect(Occurrence.firstOnOrAfter(plan, beyond)).toBeUndefined()
      expect(Occurrence.between(plan, beyond, beyond)).toEqual([])
      expect(Occurrence.count(plan, beyond, beyond)).toBe(0)
      expect([...Occurrence.iterate(plan, beyond)]).toEqual([])
    }
  })

  it("an occurrence the convention would move before 0001-01-01 does not exist", () => {
    // 0001-01-01 is a Monday and a TARGET2 closing day
    const plan = planOf({ frequency: "MNTH", startDate: d("0001-01-01") }, { convention: "preceding" })
    expect(iso(take(plan, 2))).toEqual(["0001-02-01", "0001-03-01"])
    expect(Occurrence.nth(plan, 0)).toBeUndefined()
    expect(Occurrence.firstOnOrAfter(plan, LocalDate.MIN)?.k).toBe(1)
    expect(Occurrence.count(plan, LocalDate.MIN, d("0001-03-01"))).toBe(2)
  })
})

// ---------------------------------------------------------------------------
// properties (fast-check, 10,000 runs each; bounded date ranges keep the brute-force references fast)
// ---------------------------------------------------------------------------

const RUNS = { numRuns: 10_000 }

/** How far a window must reach to hold about `n` occurrences of a frequency. */
const span = (f: Frequency.Frequency, n: number): number =>
  ({ DAIL: 2, DAI7: 1, WEEK: 7, MNTH: 31, QUTR: 92, SEMI: 183, YEAR: 366 })[f] * n + 10

const setup = fc.record({ order: Arb.schedule, calendar: Arb.calendar, convention: Arb.convention })

const firstN = (plan: Occurrence.Plan, n: number, from?: LocalDate.LocalDate) => take(plan, n, from)

/** A cheap assertion for hot property loops (vitest's `expect` costs microseconds per call). */
const check = (ok: boolean, message: string): void => {
  if (!ok) throw new Error(message)
}

describe("properties", () => {
  it("agrees with a brute-force reading of the spec from any date onward", () => {
    fc.assert(
      fc.property(setup, fc.integer({ min: -100, max: 1500 }), ({ order, calendar, convention }, offset) => {
        const plan = planOf(order, { calendar, convention })
        const from = (order.startDate + offset) as LocalDate.LocalDate
        const ref = Arb.refOccurrences(order, calendar, convention, from + span(order.frequency, 12))
          .filter((o) => o.execution >= from)
          .slice(0, 10)
        expect(firstN(plan, ref.length, from)).toEqual(ref)
      }),
      RUNS
    )
  })

  it("execution dates strictly increase", () => {
    fc.assert(
      fc.property(setup, ({ order, calendar, convention }) => {
        const xs = firstN(planOf(order, { calendar, convention }), 30)
        for (let i = 1; i < xs.length; i++) check(xs[i]!.execution > xs[i - 1]!.execution, `k=${i} does not increase`)
      }),
      RUNS
    )
  })

  it("every execution date is a working day, except for DAI7 and convention none", () => {
    fc.assert(
      fc.property(setup, ({ order, calendar, convention }) => {
        const exempt = order.frequency === "DAI7" || (convention === "none" && order.frequency !== "DAIL")
        for (const o of firstN(planOf(order, { calendar, convention }), 30)) {
          if (!exempt) check(Calendar.isWorkingDay(calendar, o.execution), `k=${o.k} executes on a closing day`)
          if (!Frequency.usesConvention(order.frequency) || convention === "none") {
            check(o.execution === o.nominal, `k=${o.k} moved although no convention applies`)
          }
        }
      }),
      RUNS
    )
  })

  it("no nominal date passes endDate", () => {
    fc.assert(
      fc.property(setup, ({ order, calendar, convention }) => {
        const xs = firstN(planOf(order, { calendar, convention }), 400)
        if (order.endDate !== undefined)
          for (const o of xs) check(o.nominal <= order.endDate, `k=${o.k} passes endDate`)
      }),
      RUNS
    )
  })

  it("month-based nominal dates: month steps by 1/3/6/12, day = min(anchor day, days in that month)", () => {
    fc.assert(
      fc.property(
        Arb.monthFrequency,
        Arb.date(),
        Arb.calendar,
        Arb.convention,
        (frequency, startDate, calendar, convention) => {
          const step = Frequency.monthStep(frequency)!
          const a = LocalDate.toParts(startDate)
          for (const o of firstN(planOf({ frequency, startDate }, { calendar, convention }), 30)) {
            const p = LocalDate.toParts(o.nominal)
            check(p.year * 12 + p.month - (a.year * 12 + a.month) === step * o.k, `k=${o.k} in the wrong month`)
            check(p.day === Math.min(a.day, LocalDate.daysInMonth(p.year, p.month)), `k=${o.k} on the wrong day`)
          }
        }
      ),
      RUNS
    )
  })

  it("WEEK keeps the anchor's weekday; DAI7 gives consecutive days", () => {
    fc.assert(
      fc.property(Arb.date(), Arb.calendar, Arb.convention, (startDate, calendar, convention) => {
        const weeks = firstN(planOf({ frequency: "WEEK", startDate }, { calendar, convention }), 30)
        weeks.forEach((o, i) => {
          check(o.k === i && o.nominal === startDate + 7 * i, `WEEK k=${i} is not 7·k days after the anchor`)
          check(LocalDate.dayOfWeek(o.nominal) === LocalDate.dayOfWeek(startDate), `WEEK k=${i} changes weekday`)
        })
        const days = firstN(planOf({ frequency: "DAI7", startDate }, { calendar, convention }), 30)
        days.forEach((o, i) => {
          check(o.k === i && o.nominal === startDate + i && o.execution === o.nominal, `DAI7 k=${i} is not consecutive`)
        })
      }),
      RUNS
    )
  })

  it("DAIL gives exactly the working days of a window (day-by-day scan)", () => {
    fc.assert(
      fc.property(
        Arb.date(),
        fc.option(fc.integer({ min: -5, max: 120 }), { nil: undefined }),
        fc.integer({ min: -30, max: 120 }),
        fc.integer({ min: -1, max: 60 }),
        Arb.calendar,
        (startDate, endOffset, fromOffset, length, calendar) => {
          const endDate = endOffset === undefined ? undefined : ((startDate + endOffset) as LocalDate.LocalDate)
          const plan = planOf({ frequency: "DAIL", startDate, endDate }, { calendar })
          const from = (startDate + fromOffset) as LocalDate.LocalDate
          const to = (from + length) as LocalDate.LocalDate
          const expected: Array<Occurrence.Occurrence> = []
          let k = 0
          for (let x = startDate as number; x <= to && (endDate === undefined || x <= endDate); x++) {
            if (!Calendar.isWorkingDay(calendar, x as LocalDate.LocalDate)) continue
            if (x >= from) expected.push({ k, nominal: x as LocalDate.LocalDate, execution: x as LocalDate.LocalDate })
            k++
          }
          expect(Occurrence.between(plan, from, to)).toEqual(expected)
          expect(Occurrence.count(plan, from, to)).toBe(expected.length)
          expect(firstN(plan, expected.length, from)).toEqual(expected)
        }
      ),
      RUNS
    )
  })

  it("splitting a window in two gives the same occurrences as the whole; count agrees", () => {
    fc.assert(
      fc.property(
        setup,
        fc.integer({ min: -100, max: 1500 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 200 }),
        ({ order, calendar, convention }, offset, left, right) => {
          const plan = planOf(order, { calendar, convention })
          const a = (order.startDate + offset) as LocalDate.LocalDate
          const b = (a + left) as LocalDate.LocalDate
          const c = (b + 1 + right) as LocalDate.LocalDate
          const whole = Occurrence.between(plan, a, c)
          expect([
            ...Occurrence.between(plan, a, b),
            ...Occurrence.between(plan, (b + 1) as LocalDate.LocalDate, c)
          ]).toEqual(whole)
          expect(Occurrence.count(plan, a, c)).toBe(whole.length)
          for (const o of whole) check(o.execution >= a && o.execution <= c, `k=${o.k} outside the window`)
        }
      ),
      RUNS
    )
  })

  it("executionsInto writes the execution dates of firstOnOrAfter then next up to the window's end, or says -1 when they do not fit", () => {
    fc.assert(
      fc.property(
        setup,
        fc.integer({ min: -100, max: 1500 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: -5, max: 5 }),
        fc.integer({ min: 0, max: 12 }),
        ({ order, calendar, convention }, offset, length, base, short) => {
          const plan = planOf(order, { calendar, convention })
          const from = (order.startDate + offset) as LocalDate.LocalDate
          const to = (from + length) as LocalDate.LocalDate
          const expected: Array<number> = []
          for (let o = Occurrence.firstOnOrAfter(plan, from); o !== undefined && o.execution <= to; ) {
            expected.push(o.execution - (from + base))
            o = Occurrence.next(plan, o)
          }
          const into = new Int32Array(length + 1)
          const n = Occurrence.executionsInto(plan, from, to, into, from + base)
          expect(Array.from(into.subarray(0, n))).toEqual(expected)
          // too short for them: −1
          const size = Math.max(0, expected.length - short)
          const got = Occurrence.executionsInto(plan, from, to, new Int32Array(size), from + base)
          expect(got).toBe(size < expected.length ? -1 : expected.length)
        }
      ),
      RUNS
    )
  })

  it("the first occurrence on or after d equals a brute-force search; nth(k) is occurrence k", () => {
    fc.assert(
      fc.property(setup, fc.integer({ min: -100, max: 1500 }), ({ order, calendar, convention }, offset) => {
        const plan = planOf(order, { calendar, convention })
        const at = (order.startDate + offset) as LocalDate.LocalDate
        const ref = Arb.refOccurrences(
          order,
          calendar,
          convention,
          Math.max(at, order.startDate) + span(order.frequency, 2)
        )
        const expected = ref.find((o) => o.execution >= at)
        expect(Occurrence.firstOnOrAfter(plan, at)).toEqual(expected)
        expect(Occurrence.firstExecutionOnOrAfter(plan, at)).toBe(expected?.execution)
        if (expected !== undefined) expect(Occurrence.nth(plan, expected.k)).toEqual(expected)
      }),
      RUNS
    )
  })
})

describe("month-based codes without a convention (firstExecutionOnOrAfter's table path)", () => {
  it("firstExecutionOnOrAfter equals firstOnOrAfter's execution and a walk of nth, from 0001 to past 9999", () => {
    const monthly = fc.constantFrom<Frequency.Frequency>("MNTH", "QUTR", "SEMI", "YEAR")
    const anywhere = fc.oneof(
      Arb.date(LocalDate.MIN, LocalDate.MAX),
      Arb.date(d("9990-01-01"), LocalDate.MAX),
      Arb.date(LocalDate.MIN, d("0010-12-31"))
    )
    fc.assert(
      fc.property(
        monthly,
        anywhere,
        fc.option(fc.integer({ min: 0, max: 4000 }), { nil: undefined }),
        fc.integer({ min: -800, max: 4000 }),
        Arb.calendar,
        (frequency, startDate, endOffset, offset, calendar) => {
          const endDate =
            endOffset === undefined
              ? undefined
              : (Math.min(startDate + endOffset, LocalDate.MAX) as LocalDate.LocalDate)
          const plan = planOf({ frequency, startDate, endDate }, { calendar, convention: "none" })
          const at = (startDate + offset) as LocalDate.LocalDate
          const got = Occurrence.firstExecutionOnOrAfter(plan, at)
          expect(got).toBe(Occurrence.firstOnOrAfter(plan, at)?.execution)
          let walked: LocalDate.LocalDate | undefined
          for (let k = 0; ; k++) {
            const o = Occurrence.nth(plan, k)
            if (o === undefined) break
            if (o.execution >= at) {
              walked = o.execution
              break
            }
          }
          expect(got).toBe(walked)
        }
      ),
      { numRuns: 10_000 }
    )
  })
})

describe("DAIL with and without a holiday counter", () => {
  it("nth, firstOnOrAfter, between and count agree whether the calendar counts its holidays or not", () => {
    const plain = Calendar.make("target, no counter", Calendar.target.isHoliday)
    fc.assert(
      fc.property(
        Arb.date(),
        fc.integer({ min: 0, max: 600 }),
        fc.integer({ min: -30, max: 900 }),
        (startDate, k, offset) => {
          const fast = planOf({ frequency: "DAIL", startDate })
          const slow = planOf({ frequency: "DAIL", startDate }, { calendar: plain })
          const at = (startDate + offset) as LocalDate.LocalDate
          const to = (at + 40) as LocalDate.LocalDate
          expect([
            Occurrence.nth(fast, k),
            Occurrence.firstOnOrAfter(fast, at),
            Occurrence.firstExecutionOnOrAfter(fast, at),
            Occurrence.between(fast, at, to),
            Occurrence.count(fast, at, to)
          ]).toEqual([
            Occurrence.nth(slow, k),
            Occurrence.firstOnOrAfter(slow, at),
            Occurrence.firstOnOrAfter(slow, at)?.execution,
            Occurrence.between(slow, at, to),
            Occurrence.count(slow, at, to)
          ])
        }
      ),
      { numRuns: 2_000 }
    )
    const ended = planOf({ frequency: "DAIL", startDate: d("2026-12-23"), endDate: d("2026-12-31") })
    expect(Occurrence.nth(ended, 5)?.execution).toBe(d("2026-12-31"))
    expect(Occurrence.nth(ended, 6)).toBeUndefined()
  })
})

describe("properties near the ends of the range (spec: Dates, 0001–9999)", () => {
  const nearEnds = fc.oneof(Arb.date(d("9995-01-01"), LocalDate.MAX), Arb.date(LocalDate.MIN, d("0003-12-31")))
  const endCalendar = fc.oneof(
    Arb.calendar,
    fc
      .subarray([d("9999-12-31"), d("9999-12-30"), d("9999-12-29"), d("0001-01-02"), d("0001-01-03"), d("0001-01-05")])
      .map((extra) => Calendar.withHolidays(Calendar.target, extra))
  )

  it("every occurrence agrees with the brute-force reference and none leaves the range", () => {
    fc.assert(
      fc.property(
        Arb.frequency,
        nearEnds,
        fc.option(fc.integer({ min: 0, max: 2000 }), { nil: undefined }),
        endCalendar,
        Arb.convention,
        (frequency, startDate, endOffset, calendar, convention) => {
          const endDate =
            endOffset === undefined
              ? undefined
              : (Math.min(startDate + endOffset, LocalDate.MAX) as LocalDate.LocalDate)
          const order = { frequency, startDate, endDate }
          const plan = planOf(order, { calendar, convention })
          const daily = frequency === "DAIL" || frequency === "DAI7"
          const until = startDate < d("5000-01-01") ? startDate + 1200 : daily ? startDate + 400 : LocalDate.MAX
          const ref = Arb.refOccurrences(order, calendar, convention, until).filter(
            (o) => o.execution >= LocalDate.MIN && o.execution <= LocalDate.MAX
          )
          expect(take(plan, ref.length + (until === LocalDate.MAX ? 1 : 0))).toEqual(ref)
          if (ref.length > 0) {
            const first = ref[0]!
            expect(Occurrence.firstOnOrAfter(plan, LocalDate.MIN)).toEqual(first)
            expect(Occurrence.firstExecutionOnOrAfter(plan, LocalDate.MIN)).toBe(first.execution)
            const last = ref[ref.length - 1]!.execution as LocalDate.LocalDate
            expect(Occurrence.count(plan, first.execution as LocalDate.LocalDate, last)).toBe(ref.length)
          }
        }
      ),
      { numRuns: 1_000 }
    )
  })
})

describe("month-start table behind month-based nominal dates and LocalDate.format", () => {
  it("every month of 0001–9999: first and last day format and step as the parts say", () => {
    const pad = (n: number, w: number) => String(n).padStart(w, "0")
    const bad: Array<string> = []
    for (let year = 1; year <= 9999; year++) {
      for (let month = 1; month <= 12; month++) {
        const dim = LocalDate.daysInMonth(year, month)
        for (const day of [1, dim]) {
          const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`
          if (LocalDate.format(LocalDate.makeUnsafe(year, month, day)) !== text) bad.push(text)
        }
      }
    }
    expect(bad).toEqual([])
    const plan = planOf({ frequency: "MNTH", startDate: d("0001-01-31") }, { convention: "none" })
    expect(LocalDate.format(Occurrence.nth(plan, 1)!.nominal)).toBe("0001-02-28")
    expect(LocalDate.format(Occurrence.nth(plan, 9999 * 12 - 1)!.nominal)).toBe("9999-12-31")
    expect(Occurrence.nth(plan, 9999 * 12)).toBeUndefined()
  })
})
