import { Calendar, DateTrace, LocalDate, Occurrence } from "@tppkit/core"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { calendar, convention, refWorking, schedule } from "../arbitraries/engine.ts"

const d = LocalDate.parseUnsafe

const traceOf = (order: Occurrence.OrderSchedule, on: string, options?: DateTrace.Options): DateTrace.Trace => {
  const r = DateTrace.onOrAfter(order, d(on), options)
  if (Result.isFailure(r) || r.success === undefined) throw new Error("no trace")
  return r.success
}

describe("DateTrace", () => {
  it("names Easter Monday and the weekend a following convention passes", () => {
    // 2026-04-04 is Holy Saturday: Saturday, Sunday, Easter Monday, then Tuesday 7 April
    const t = traceOf({ frequency: "MNTH", startDate: d("2026-01-04") }, "2026-04-01")
    expect(t.k).toBe(3)
    expect(t.anchor).toEqual({ field: "startDate", date: d("2026-01-04") })
    expect(LocalDate.format(t.nominal)).toBe("2026-04-04")
    expect(t.adjustment).toBe("moved")
    expect(t.passed.map((c) => [LocalDate.format(c.date), c.why])).toEqual([
      ["2026-04-04", "weekend"],
      ["2026-04-05", "weekend"],
      ["2026-04-06", "Easter Monday"]
    ])
    expect(LocalDate.format(t.execution)).toBe("2026-04-07")
    expect(t.source).toEqual({ kind: "default" })
    expect(DateTrace.replay(t)).toEqual(Result.succeed(t.execution))
  })

  it("records the month-end clamp (31 January → 29 February)", () => {
    const t = traceOf({ frequency: "MNTH", startDate: d("2024-01-31") }, "2024-02-01")
    expect(LocalDate.format(t.nominal)).toBe("2024-02-29")
    expect(t.clampedFrom).toBe(31)
    expect(t.adjustment).toBe("working")
    expect(DateTrace.replay(t)).toEqual(Result.succeed(d("2024-02-29")))
  })

  it("records a modified following convention turning back at the month's end", () => {
    // 2026-05-31 is a Sunday: following would leave May, so the payment moves back to Friday 29 May
    const t = traceOf({ frequency: "MNTH", startDate: d("2026-01-31") }, "2026-05-01", {
      convention: "modified-following",
      source: { kind: "flag", detail: "--convention" }
    })
    expect(t.turned).toBe(true)
    expect(t.firstWalk).toBe(1)
    expect(t.passed.map((c) => LocalDate.format(c.date))).toEqual(["2026-05-31", "2026-05-30"])
    expect(LocalDate.format(t.execution)).toBe("2026-05-29")
    expect(t.source.kind).toBe("flag")
    expect(DateTrace.replay(t)).toEqual(Result.succeed(t.execution))
  })

  it("records the nextDate cut and the anchor a nextDate gives", () => {
    const order = { frequency: "MNTH" as const, startDate: d("2026-01-15"), nextDate: d("2026-03-16") }
    expect(traceOf(order, "2026-02-01").cut).toEqual({ nextDate: d("2026-03-16"), paid: true })
    expect(traceOf(order, "2026-03-01").cut).toEqual({ nextDate: d("2026-03-16"), paid: false })
    const anchored = traceOf({ frequency: "WEEK", nextDate: d("2026-03-16") }, "2026-03-20")
    expect(anchored.anchor.field).toBe("nextDate")
    expect(anchored.cut).toBeUndefined()
  })

  it("DAIL lists the non-working days skipped before its working day; DAI7 never moves", () => {
    const t = traceOf({ frequency: "DAIL", startDate: d("2026-04-01") }, "2026-04-04")
    expect(LocalDate.format(t.execution)).toBe("2026-04-07")
    expect(t.adjustment).toBe("notApplied")
    expect(t.passed.map((c) => c.why)).toEqual(["Good Friday", "weekend", "weekend", "Easter Monday"])
    expect(DateTrace.replay(t)).toEqual(Result.succeed(t.execution))
    expect(traceOf({ frequency: "DAI7", startDate: d("2026-04-01") }, "2026-04-04").adjustment).toBe("notApplied")
  })

  it("a forged trace does not replay", () => {
    const t = traceOf({ frequency: "MNTH", startDate: d("2026-01-04") }, "2026-04-01")
    expect(Result.isFailure(DateTrace.replay({ ...t, k: 4 }))).toBe(true)
    expect(Result.isFailure(DateTrace.replay({ ...t, passed: t.passed.slice(1) }))).toBe(true)
  })

  it("every occurrence's trace replays to its execution date, each passed day closed for the reason given", () => {
    fc.assert(
      fc.property(schedule, calendar, convention, fc.integer({ min: 0, max: 400 }), (order, cal, conv, skip) => {
        const plan = Result.getOrThrow(Occurrence.makePlan(order, { calendar: cal, convention: conv }))
        const from = LocalDate.addDays(order.startDate, skip)
        for (const o of Occurrence.between(plan, from, LocalDate.addDays(from, 120))) {
          const t = DateTrace.ofOccurrence(order, o, { calendar: cal, convention: conv })
          expect(DateTrace.replay(t)).toEqual(Result.succeed(o.execution))
          expect(t.execution).toBe(o.execution)
          for (const c of t.passed) {
            expect(refWorking(cal, c.date)).toBe(false)
            // on a calendar whose weekends are open (every day) a closed Saturday is a holiday
            expect(c.kind).toBe(LocalDate.isWeekend(c.date) && cal.weekendsOpen !== true ? "weekend" : "holiday")
          }
        }
      }),
      { numRuns: 10_000 }
    )
  })
})

describe("Calendar.closure", () => {
  it("weekend, the holiday's name, an added holiday, or a working day", () => {
    expect(Calendar.closure(Calendar.target, d("2026-04-06"))).toBe("Easter Monday")
    expect(Calendar.closure(Calendar.target, d("2026-04-03"))).toBe("Good Friday")
    expect(Calendar.closure(Calendar.target, d("2026-04-04"))).toBe("weekend")
    expect(Calendar.closure(Calendar.target, d("2026-04-07"))).toBeUndefined()
    const extra = Calendar.withHolidays(Calendar.target, [d("2026-04-07")])
    expect(Calendar.closure(extra, d("2026-04-07"))).toBe(Calendar.addedHolidayName)
    expect(Calendar.closure(extra, d("2026-04-06"))).toBe("Easter Monday")
    expect(
      Calendar.closure(
        Calendar.make("x", () => true),
        d("2026-04-07")
      )
    ).toBe("holiday")
    // every day: a weekend is a working day, an added day (a Saturday too) the only closure
    const every = Calendar.withHolidays(Calendar.everyDay, [d("2026-04-04")])
    expect(Calendar.closure(Calendar.everyDay, d("2026-04-04"))).toBeUndefined()
    expect(Calendar.closure(every, d("2026-04-04"))).toBe(Calendar.addedHolidayName)
    expect(Calendar.closure(every, d("2026-04-05"))).toBeUndefined()
  })
})
