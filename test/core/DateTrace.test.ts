import { Calendar, DateTrace, LocalDate, Occurrence, type Recurrence, Rrule } from "@tppkit/core"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { calendar, convention, refWorking, schedule } from "../arbitraries/engine.ts"
import { recurrence, refRecurrence } from "../arbitraries/recurrence.ts"

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
        // each occurrence's wrong parts, asserted once a run (an expect per passed day cost most of the test's time)
        const wrong: Array<unknown> = []
        for (const o of Occurrence.between(plan, from, LocalDate.addDays(from, 120))) {
          const t = DateTrace.ofOccurrence(order, o, { calendar: cal, convention: conv })
          const replayed = DateTrace.replay(t)
          if (!Result.isSuccess(replayed) || replayed.success !== o.execution) wrong.push({ o, replayed })
          if (t.execution !== o.execution) wrong.push({ o, execution: t.execution })
          for (const c of t.passed) {
            // on a calendar whose weekends are open (every day) a closed Saturday is a holiday
            const kind = LocalDate.isWeekend(c.date) && cal.weekendsOpen !== true ? "weekend" : "holiday"
            if (refWorking(cal, c.date) || c.kind !== kind) wrong.push({ o, passed: c, kind })
          }
        }
        expect(wrong).toEqual([])
      }),
      { numRuns: 10_000 }
    )
  })
})

/** An order given as a recurrence, as core's Orders reads one from an RRULE (no bank code). */
const given = (r: Recurrence.Recurrence): Occurrence.OrderSchedule => ({ recurrence: r })

/** The recurrence of an RRULE text with its DTSTART, convention set. */
const rrule = (text: string, convention: Recurrence.Recurrence["convention"] = "following"): Recurrence.Recurrence => {
  const parsed = Result.getOrThrow(Rrule.parse(text))
  const t = Rrule.decode(parsed.rrule)
  if (t._tag === "Unrepresentable") throw new Error(t.reason)
  return { ...t.value, convention }
}

describe("DateTrace on recurrences", () => {
  it("every 2 weeks on Saturday and Monday: the Saturday moved to Monday by following, k counted on the rule", () => {
    // DTSTART Saturday 2027-01-02: weeks of 28 Dec and 11 Jan … pay on their Monday and Saturday
    const r = rrule("DTSTART;VALUE=DATE:20270102\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,SA")
    const t = traceOf(given(r), "2027-01-12")
    expect(t.frequency).toBeUndefined()
    expect(t.anchor).toEqual({ field: "start", date: d("2027-01-02") })
    // occurrences: Sat 2 Jan (k 0), Mon 11 Jan (1), Sat 16 Jan (2)
    expect([t.k, LocalDate.format(t.nominal), LocalDate.format(t.execution)]).toEqual([2, "2027-01-16", "2027-01-18"])
    expect(t.adjustment).toBe("moved")
    expect(DateTrace.replay(t)).toEqual(Result.succeed(d("2027-01-18")))
  })

  it("the last Friday of the month, and the 5th Monday that some months lack", () => {
    const last = traceOf(given(rrule("DTSTART;VALUE=DATE:20270101\nRRULE:FREQ=MONTHLY;BYDAY=-1FR")), "2027-05-01")
    expect([last.k, LocalDate.format(last.nominal)]).toEqual([4, "2027-05-28"])
    expect(DateTrace.replay(last)).toEqual(Result.succeed(last.execution))
    // 5th Mondays of 2027: 29 March, 31 May, 30 August, 29 November
    const fifth = traceOf(given(rrule("DTSTART;VALUE=DATE:20270101\nRRULE:FREQ=MONTHLY;BYDAY=5MO")), "2027-06-01")
    expect([fifth.k, LocalDate.format(fifth.nominal)]).toEqual([2, "2027-08-30"])
    expect(DateTrace.replay(fifth)).toEqual(Result.succeed(d("2027-08-30")))
    expect(Result.isFailure(DateTrace.replay({ ...fifth, k: 3 }))).toBe(true)
  })

  it("days counted from the month's end, selected months and the three missing-day rules", () => {
    const third = traceOf(
      given(rrule("DTSTART;VALUE=DATE:20270101\nRRULE:FREQ=MONTHLY;BYMONTH=2,8;BYMONTHDAY=-3", "none")),
      "2027-03-01"
    )
    expect([third.k, LocalDate.format(third.nominal), third.adjustment]).toEqual([1, "2027-08-29", "none"])
    const clamp = traceOf(
      given(
        rrule("DTSTART;VALUE=DATE:20270130\nRRULE:FREQ=MONTHLY;SKIP=BACKWARD;RSCALE=GREGORIAN;BYMONTHDAY=30", "none")
      ),
      "2027-02-01"
    )
    expect([LocalDate.format(clamp.nominal), clamp.clampedFrom, clamp.forwardFrom]).toEqual([
      "2027-02-28",
      30,
      undefined
    ])
    const forward = traceOf(
      given(
        rrule("DTSTART;VALUE=DATE:20270130\nRRULE:FREQ=MONTHLY;SKIP=FORWARD;RSCALE=GREGORIAN;BYMONTHDAY=30", "none")
      ),
      "2027-02-01"
    )
    expect([forward.k, LocalDate.format(forward.nominal), forward.forwardFrom]).toEqual([1, "2027-03-01", 30])
    const omit = traceOf(
      given(rrule("DTSTART;VALUE=DATE:20270130\nRRULE:FREQ=MONTHLY;BYMONTHDAY=30", "none")),
      "2027-02-01"
    )
    expect([omit.k, LocalDate.format(omit.nominal), omit.clampedFrom]).toEqual([1, "2027-03-30", undefined])
    for (const t of [clamp, forward, omit]) expect(DateTrace.replay(t)).toEqual(Result.succeed(t.nominal))
  })

  it("counts the paused occurrences it steps over, and a paused or counted-out trace does not replay", () => {
    const r: Recurrence.Recurrence = {
      ...rrule("DTSTART;VALUE=DATE:20270115\nRRULE:FREQ=MONTHLY;COUNT=12", "none"),
      pauses: { ranges: [{ from: d("2027-07-01"), to: d("2027-08-31") }], months: [12] }
    }
    const t = traceOf(given(r), "2027-07-01")
    expect([t.k, LocalDate.format(t.nominal)]).toEqual([8, "2027-09-15"])
    expect(t.pausedBefore).toEqual({ count: 2, first: d("2027-07-15"), last: d("2027-08-15") })
    expect(DateTrace.replay(t)).toEqual(Result.succeed(d("2027-09-15")))
    // December, the twelfth and last occurrence, is paused: nothing is left from 1 December on
    expect(Result.getOrThrow(DateTrace.onOrAfter(given(r), d("2027-12-01")))).toBeUndefined()
    expect(traceOf(given(r), "2027-06-16").pausedBefore?.count).toBe(2)
    // occurrence 6 (15 July) is paused, occurrence 12 is past the count
    expect(DateTrace.replay({ ...t, k: 6, nominal: d("2027-07-15") })).toEqual(Result.fail("2027-07-15 is paused"))
    expect(Result.isFailure(DateTrace.replay({ ...t, k: 12, nominal: d("2028-01-15") }))).toBe(true)
  })

  it("a bank code's trace carries its recurrence, and a code and its recurrence trace alike", () => {
    const order = { frequency: "QUTR" as const, startDate: d("2026-01-31") }
    const t = traceOf(order, "2026-04-01", { convention: "preceding" })
    expect(t.recurrence.rule).toEqual({ _tag: "MonthlyOnDay", interval: 3, day: 31, missing: "clamp" })
    const r = traceOf(given(t.recurrence), "2026-04-01", { convention: "preceding" })
    expect([r.k, r.nominal, r.execution, r.clampedFrom, r.passed]).toEqual([
      t.k,
      t.nominal,
      t.execution,
      t.clampedFrom,
      t.passed
    ])
  })

  it("for random recurrences the trace's date is the engine's and the reference's, and replays to it", () => {
    fc.assert(
      fc.property(recurrence, calendar, fc.integer({ min: -30, max: 600 }), (r, cal, offset) => {
        const order = given(r)
        const plan = Result.getOrThrow(Occurrence.makePlan(order, { calendar: cal }))
        const from = LocalDate.addDays(r.start, offset)
        const reference = refRecurrence(r, cal, from + 400)
        const expected = reference.find((o) => o.execution >= from)
        const t = Result.getOrThrow(DateTrace.onOrAfter(order, from, { calendar: cal }))
        const engine = Occurrence.firstOnOrAfter(plan, from)
        if (expected === undefined) {
          // nothing in the reference's 400 days: the engine's first, if any, lies beyond them
          if (t !== undefined) expect(t.nominal).toBeGreaterThan(from + 400)
          return
        }
        expect(t).toBeDefined()
        expect([t!.k, t!.nominal, t!.execution]).toEqual([expected.k, expected.nominal, expected.execution])
        expect([t!.k, t!.nominal, t!.execution]).toEqual([engine!.k, engine!.nominal, engine!.execution])
        expect(DateTrace.replay(t!)).toEqual(Result.succeed(expected.execution))
        // the paused occurrences stepped over: those of the unpaused reference between the day and this one
        const unpaused = refRecurrence({ ...r, pauses: { ranges: [], months: [] } }, cal, from + 400)
        const paused = unpaused.filter((o) => o.execution >= from && o.k < expected.k)
        expect(t!.pausedBefore?.count ?? 0).toBe(paused.length)
        if (paused.length > 0) expect(t!.pausedBefore?.first).toBe(paused[0]!.nominal)
        for (const c of t!.passed) expect(refWorking(cal, c.date)).toBe(false)
        // every occurrence of a window traces and replays too
        for (const o of Occurrence.between(plan, from, LocalDate.addDays(from, 60))) {
          const each = DateTrace.ofOccurrence(order, o, { calendar: cal })
          expect(DateTrace.replay(each)).toEqual(Result.succeed(o.execution))
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

describe("DateTrace.sentences: a trace in words", () => {
  it("the anchor, the nominal date, the rule and its source, each day passed and why, the execution date", () => {
    const trace = traceOf({ frequency: "WEEK", startDate: d("2026-01-05") }, "2027-03-29")
    expect(DateTrace.sentences({ orderId: "SO-1", date: d("2027-03-29"), trace })).toEqual([
      "The payment of order SO-1 due on 2027-03-29 executes on another day:",
      "Anchor: startDate 2026-01-05, WEEK (every week); this is occurrence k = 64.",
      "Nominal date: Mon 2027-03-29.",
      "Rule: convention following on calendar target (tppkit's default).",
      "Not a working day: Mon 2027-03-29 (Easter Monday, target); following moves it to the next working day.",
      "Execution date: Tue 2027-03-30."
    ])
  })

  it("the month-end clamp, a modified convention turning back, a flag as the source, the nextDate cut", () => {
    const order = { frequency: "MNTH" as const, startDate: d("2026-01-31"), nextDate: d("2026-06-30") }
    const trace = traceOf(order, "2026-05-01", {
      convention: "modified-following",
      source: { kind: "flag", detail: "--convention modified-following" }
    })
    const text = DateTrace.sentences({ orderId: "R", date: undefined, trace })
    expect(text).toContain(
      "Rule: convention modified-following on calendar target (set on the command line: --convention modified-following)."
    )
    expect(text).toContain(
      "Not a working day: Sun 2026-05-31 (weekend); modified-following would leave the month, so it goes the other way, past Sat 2026-05-30 (weekend)."
    )
    expect(text).toContain(
      "The bank's nextDate is 2026-06-30: this payment executes before it and counts as paid; projections leave it out."
    )
    const feb = traceOf({ frequency: "MNTH", startDate: d("2024-01-31") }, "2024-02-01")
    expect(DateTrace.sentences({ orderId: "R", date: undefined, trace: feb })[1]).toBe(
      "Day 31 does not exist in February 2024: the nominal date is its last day, Thu 2024-02-29."
    )
    expect(DateTrace.sentences({ orderId: "R", date: d("2030-01-01"), trace: undefined })).toEqual([
      "Order R has no payment on or after 2030-01-01: its schedule has ended."
    ])
  })
})

describe("DateTrace.dayText, sourceText", () => {
  it("a date with its weekday, and where a rule came from in words", () => {
    expect(DateTrace.dayText(d("2026-04-07"))).toBe("Tue 2026-04-07")
    expect(DateTrace.sourceText(DateTrace.defaultSource)).toBe("tppkit's default")
    expect(DateTrace.sourceText({ kind: "inferred", detail: "the nextDates of a.json" })).toBe(
      "inferred from a listing: the nextDates of a.json"
    )
    expect(DateTrace.sourceText({ kind: "order", detail: "modeDue" })).toBe("stated by the order's record: modeDue")
  })
})
