import { Calendar, LocalDate, Occurrence, type Recurrence, Rrule, Standard, Translation } from "@tppkit/core"
import { Result } from "effect"
import fc from "fast-check"
import rrule from "rrule"
import { describe, expect, it } from "vitest"
import * as RArb from "../arbitraries/recurrence.ts"

const d = LocalDate.parseUnsafe

/** A recurrence naming `weekends`, `target` or no calendar (then the projection's: `target`). */
const named: fc.Arbitrary<Recurrence.Recurrence> = fc
  .tuple(RArb.recurrence, fc.constantFrom("weekends", "target", undefined))
  .map(([r, calendar]) => (calendar === undefined ? r : { ...r, calendar }))

/** Nominal and execution dates of the first `n` occurrences (at most up to `until`). */
const dates = (r: Recurrence.Recurrence, n = 400, until = LocalDate.MAX): Array<string> => {
  const plan = Result.getOrThrow(Occurrence.planOf(r))
  const out: Array<string> = []
  for (const o of Occurrence.iterate(plan)) {
    if (out.length >= n || o.nominal > until) break
    out.push(`${LocalDate.format(o.nominal)}>${LocalDate.format(o.execution)}`)
  }
  return out
}

/** The recurrence with the changes a lossy translation names applied (what the target can say). */
const applyLosses = (r: Recurrence.Recurrence, losses: ReadonlyArray<Translation.Loss>): Recurrence.Recurrence => {
  let out = r
  for (const loss of losses) {
    if (loss.field === "convention") out = { ...out, convention: "none" }
    else if (loss.field === "calendar") out = { ...out, calendar: "weekends" }
    else if (loss.field === "pauses" && /^months [\d,]+$/.test(loss.from) && out.pauses !== undefined) {
      // the paused months of a rule without end: the ranges' dates are EXDATEs still
      out = { ...out, pauses: { ranges: out.pauses.ranges, months: [] } }
    } else if (loss.field === "pauses") {
      const { pauses: _, ...rest } = out
      out = rest
    } else throw new Error(`unexpected loss field ${loss.field}`)
  }
  return out
}

const encoded = (r: Recurrence.Recurrence) => {
  const t = Rrule.encode(r)
  return t._tag === "Unrepresentable" ? undefined : t
}

describe("Rrule.encode", () => {
  const base = { start: d("2024-01-31"), convention: "none" } as const
  const rule = (r: Recurrence.Recurrence) => Translation.getValue(Rrule.encode(r))?.rule
  it("writes the month-end clamp the way most readers understand it", () => {
    expect(rule({ ...base, rule: { _tag: "MonthlyOnDay", interval: 1, day: 31, missing: "clamp" } })).toBe(
      "FREQ=MONTHLY;BYMONTHDAY=-1"
    )
    expect(rule({ ...base, rule: { _tag: "MonthlyOnDay", interval: 3, day: 30, missing: "clamp" } })).toBe(
      "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=28,29,30;BYSETPOS=-1"
    )
    expect(rule({ ...base, rule: { _tag: "MonthlyOnDay", interval: 1, day: 30, missing: "forward" } })).toBe(
      "FREQ=MONTHLY;RSCALE=GREGORIAN;SKIP=FORWARD;BYMONTHDAY=30"
    )
    expect(
      rule({ ...base, rule: { _tag: "Yearly", interval: 1, dates: [{ month: 2, day: 29 }], missing: "clamp" } })
    ).toBe("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1")
  })

  it("says exact, lossy with each field, or unrepresentable with the reason", () => {
    const mnth = { ...base, rule: { _tag: "MonthlyOnDay", interval: 1, day: 31, missing: "clamp" } } as const
    expect(Rrule.encode(mnth)).toEqual({
      _tag: "Exact",
      value: { dtstart: d("2024-01-31"), rule: "FREQ=MONTHLY;BYMONTHDAY=-1" }
    })
    const following = Rrule.encode({ ...mnth, convention: "following" })
    expect(following._tag === "Lossy" && following.losses.map((l) => l.field)).toEqual(["convention"])
    const dail = Rrule.encode({ ...base, rule: { _tag: "EveryWorkingDays", interval: 1 } })
    expect(dail._tag === "Lossy" && dail.losses[0]!.why).toBe(
      "an RRULE knows weekdays but no holidays: each holiday would need an EXDATE"
    )
    expect(Rrule.encode({ ...base, rule: { _tag: "EveryWorkingDays", interval: 1 }, calendar: "weekends" })._tag).toBe(
      "Exact"
    )
    expect(Rrule.encode({ ...base, rule: { _tag: "EveryWorkingDays", interval: 3 } })).toEqual({
      _tag: "Unrepresentable",
      reason: "every 3rd working day has no RRULE form (RRULE counts days, weeks or months)"
    })
    // COUNT and UNTIL never together: the one that ends the schedule first
    expect(rule({ ...mnth, count: 3, end: d("2030-01-01") })).toBe("FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=3")
    expect(rule({ ...mnth, count: 300, end: d("2025-01-01") })).toBe("FREQ=MONTHLY;BYMONTHDAY=-1;UNTIL=20250101")
  })

  it("judges a pause on the RRULE's own dates once the holidays are lost", () => {
    // TARGET's Christmas pushes the 7th date to 2 January (paused); the RRULE's 7th is 28 December (not paused)
    const r = {
      rule: { _tag: "EveryWorkingDays", interval: 5 },
      start: d("2035-11-16"),
      count: 7,
      convention: "following",
      pauses: { ranges: [], months: [1] },
      calendar: "target"
    } as const
    const t = Rrule.encode(r)
    expect(t._tag === "Lossy" && t.losses.map((l) => l.field)).toEqual(["calendar"])
  })

  it("judges the convention on the dates the RRULE pays once a pause is lost", () => {
    // every August paused, without end: nothing is paid; the RRULE cannot say the pause and pays each 1 August,
    // which it never moves off a weekend (1 August 2020 is a Saturday: `following` pays it on 3 August)
    const r = {
      rule: { _tag: "Yearly", interval: 1, dates: [{ month: 8, day: 1 }], missing: "clamp" },
      start: d("2020-01-01"),
      convention: "following",
      pauses: { ranges: [], months: [8] },
      calendar: "weekends"
    } as const
    const t = Rrule.encode(r)
    expect(t._tag === "Lossy" && t.losses.map((l) => [l.field, l.from])).toEqual([
      ["convention", "following"],
      ["pauses", "months 8"]
    ])
    expect(Translation.getValue(t)).toEqual({ dtstart: d("2020-08-01"), rule: "FREQ=YEARLY;BYMONTH=8;BYMONTHDAY=1" })
    // a pause the RRULE keeps (an end lists every paused date) leaves the convention nothing to move
    const bounded = Rrule.encode({ ...r, end: d("2030-12-31") })
    expect(bounded._tag).toBe("Exact")
  })

  it("writes paused dates as EXDATEs where they can be listed, and names what cannot be", () => {
    const monthly = {
      ...base,
      start: d("2027-01-15"),
      rule: { _tag: "MonthlyOnDay", interval: 1, day: 15, missing: "clamp" }
    } as const
    // bounded: every paused date is listed, the months too
    const bounded = Rrule.encode({
      ...monthly,
      count: 12,
      pauses: { ranges: [{ from: d("2027-09-01"), to: d("2027-09-30") }], months: [7] }
    })
    expect(bounded._tag).toBe("Exact")
    expect(Translation.getValue(bounded)?.exdates).toEqual([d("2027-07-15"), d("2027-09-15")])
    expect(Rrule.format(Translation.getValue(bounded)!)).toBe(
      "DTSTART;VALUE=DATE:20270115\nRRULE:FREQ=MONTHLY;BYMONTHDAY=15;COUNT=12\nEXDATE;VALUE=DATE:20270715,20270915"
    )
    // without end: a range is listed, every July of a monthly rule is left out of its months
    const open = Rrule.encode({
      ...monthly,
      pauses: { ranges: [{ from: d("2027-09-01"), to: d("2027-10-31") }], months: [7] }
    })
    expect(open._tag).toBe("Exact")
    expect(Translation.getValue(open)?.rule).toBe("FREQ=MONTHLY;BYMONTH=1,2,3,4,5,6,8,9,10,11,12;BYMONTHDAY=15")
    expect(Translation.getValue(open)?.exdates).toEqual([d("2027-09-15"), d("2027-10-15")])
    // … but every July of a weekly rule without end cannot be listed
    const weekly = Rrule.encode({
      ...base,
      rule: { _tag: "Weekly", interval: 1, weekdays: [3] },
      pauses: { ranges: [{ from: d("2027-09-01"), to: d("2027-09-30") }], months: [7] }
    })
    expect(weekly._tag === "Lossy" && weekly.losses.map((l) => [l.field, l.from])).toEqual([["pauses", "months 7"]])
    expect(Translation.getValue(weekly)?.exdates?.map(LocalDate.format)).toEqual([
      "2027-09-01",
      "2027-09-08",
      "2027-09-15",
      "2027-09-22",
      "2027-09-29"
    ])
    expect(
      Rrule.encode({ ...monthly, pauses: { ranges: [{ from: d("2027-09-01"), to: d("2027-10-31") }], months: [] } })
        ._tag
    ).toBe("Exact")
    // too many dates to list: the pauses are lost as a whole
    const daily = Rrule.encode({
      ...base,
      rule: { _tag: "EveryDays", interval: 1 },
      pauses: { ranges: [{ from: d("2024-02-01"), to: d("2030-01-01") }], months: [] }
    })
    expect(daily._tag === "Lossy" && daily.losses.map((l) => l.field)).toEqual(["pauses"])
    expect(Translation.getValue(daily)?.exdates).toBeUndefined()
  })

  it("an EXDATE read back is a pause of that date (parse, decode)", () => {
    const parsed = Result.getOrThrow(
      Rrule.parse(
        "DTSTART;VALUE=DATE:20270115\nRRULE:FREQ=MONTHLY\nEXDATE;VALUE=DATE:20270915,20270715\nEXDATE:20271015T090000Z"
      )
    )
    expect(parsed.rrule.exdates).toEqual([d("2027-07-15"), d("2027-09-15"), d("2027-10-15")])
    expect(parsed.losses.map((l) => l.field)).toEqual(["EXDATE"])
    const r = Translation.getValue(Rrule.decode(parsed.rrule))!
    expect(r.pauses?.ranges).toEqual([
      { from: d("2027-07-15"), to: d("2027-07-15") },
      { from: d("2027-09-15"), to: d("2027-09-15") },
      { from: d("2027-10-15"), to: d("2027-10-15") }
    ])
    expect(dates(r, 12).map((x) => x.slice(0, 10))).not.toContain("2027-09-15")
    expect(Result.isFailure(Rrule.parse("DTSTART:20270115\nRRULE:FREQ=MONTHLY\nEXDATE:2027-09-15"))).toBe(true)
  })

  it("an exact translation projects the same dates, and decode(encode(x)) is x (property)", () => {
    fc.assert(
      fc.property(named, (r) => {
        const t = encoded(r)
        if (t === undefined || t._tag !== "Exact") return
        const back = Rrule.decode(t.value)
        expect(back._tag).toBe("Exact")
        const value = Translation.getValue(back)!
        expect(dates({ ...value, ...(r.calendar ? { calendar: r.calendar } : {}) })).toEqual(dates(r))
        if (r.rule._tag !== "EveryWorkingDays") {
          const start = t.value.dtstart
          // pauses that pause nothing, and a convention that moves nothing, are no part of the dates
          const { calendar: _c, pauses: _p, ...own } = { ...r, start, convention: "none" as const }
          // COUNT and UNTIL never together: the bound that ends the schedule first is kept
          const { count: _n, ...untilOnly } = own
          const { end: _e, ...countOnly } = own
          const bounded = t.value.rule.includes("COUNT=")
            ? countOnly
            : t.value.rule.includes("UNTIL=")
              ? untilOnly
              : own
          // the pauses come back from the EXDATEs, as one range per run of days: their dates are compared above
          const { pauses: _back, ...valueRule } = value
          // paused months of a monthly rule without a count come back as the months it pays in (BYMONTH)
          const folded = (r.pauses?.months.length ?? 0) > 0 && t.value.rule.includes("BYMONTH")
          if (!folded) expect(valueRule).toEqual(Recurrence_canonical(bounded))
        }
      }),
      { numRuns: 10_000 }
    )
  })

  it("a lossy translation names exactly the fields whose dates differ (property)", () => {
    fc.assert(
      fc.property(named, (r) => {
        const t = encoded(r)
        if (t === undefined || t._tag !== "Lossy") return
        // with every named change applied the source says the target's dates ...
        const target = applyLosses(r, t.losses)
        const back = Translation.getValue(Rrule.decode(t.value))!
        expect(dates({ ...back, calendar: "weekends" }, 400)).toEqual(dates(target, 400))
        // ... and without any one of them it does not: every named field is needed
        for (const loss of t.losses) {
          const others = applyLosses(
            r,
            t.losses.filter((l) => l !== loss)
          )
          expect(dates(others, Occurrence.SAMPLED)).not.toEqual(dates(target, Occurrence.SAMPLED))
        }
      }),
      { numRuns: 1_000 }
    )
  })
})

import { Recurrence as RecurrenceModule } from "@tppkit/core"

const Recurrence_canonical = RecurrenceModule.canonical

describe("Rrule.decode", () => {
  const at = (rule: string, start = "2024-01-31") => Rrule.decode({ dtstart: d(start), rule })
  it("reads every part tppkit's model has", () => {
    expect(Translation.getValue(at("FREQ=MONTHLY"))?.rule).toEqual({
      _tag: "MonthlyOnDay",
      interval: 1,
      day: 31,
      missing: "skip"
    })
    expect(Translation.getValue(at("FREQ=MONTHLY;RSCALE=GREGORIAN;SKIP=BACKWARD"))?.rule).toEqual({
      _tag: "MonthlyOnDay",
      interval: 1,
      day: -1,
      missing: "clamp"
    })
    expect(Translation.getValue(at("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;UNTIL=20241231"))).toEqual({
      rule: { _tag: "Weekly", interval: 2, weekdays: [2, 4] },
      start: d("2024-01-31"),
      end: d("2024-12-31"),
      convention: "none"
    })
    expect(Translation.getValue(at("FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", "2024-11-28"))?.rule).toEqual({
      _tag: "MonthlyOnWeekday",
      interval: 12,
      weekday: 4,
      ordinal: 4
    })
  })

  it("names what it cannot read, and never throws (property)", () => {
    expect(at("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1")).toEqual({
      _tag: "Unrepresentable",
      reason:
        "BYDAY other than one weekday with an ordinal (e.g. 2WE, -1FR) with FREQ=MONTHLY is not part of tppkit's recurrence model"
    })
    expect(at("FREQ=DAILY;COUNT=2;UNTIL=20250101")._tag).toBe("Unrepresentable")
    expect(at("FREQ=MONTHLY;BYWEEKNO=3")._tag).toBe("Unrepresentable")
    const loss = at("FREQ=DAILY;UNTIL=20250101T120000Z")
    expect(loss._tag === "Lossy" && loss.losses[0]!.field).toBe("UNTIL")
    const part = fc.constantFrom(
      "FREQ=DAILY",
      "FREQ=WEEKLY",
      "FREQ=MONTHLY",
      "FREQ=YEARLY",
      "FREQ=SECONDLY",
      "INTERVAL=2",
      "INTERVAL=0",
      "BYDAY=MO",
      "BYDAY=2WE",
      "BYDAY=-1FR",
      "BYDAY=9XX",
      "BYMONTHDAY=31",
      "BYMONTHDAY=-31",
      "BYMONTHDAY=28,29,30",
      "BYSETPOS=-1",
      "BYMONTH=2",
      "BYMONTH=13",
      "COUNT=3",
      "UNTIL=2024",
      "SKIP=FORWARD",
      "RSCALE=HEBREW",
      "WKST=SU",
      "=",
      "X"
    )
    fc.assert(
      fc.property(fc.array(fc.oneof(part, fc.string()), { maxLength: 6 }), (parts) => {
        const t = at(parts.join(";"))
        expect(["Exact", "Lossy", "Unrepresentable"]).toContain(t._tag)
      }),
      { numRuns: 10_000 }
    )
  })
})

// ---------------------------------------------------------------------------
// independent checks: the rrule package, and a brute-force reading of RFC 7529 SKIP
// ---------------------------------------------------------------------------

/** The first `n` dates of a rule by the rrule package (UTC midnight dates). */
const byRrulePackage = (r: Rrule.Rrule, n: number): Array<string> => {
  const exdates = (r.exdates ?? []).map((x) => `\nEXDATE:${Rrule.formatDate(x)}T000000Z`).join("")
  const text = `DTSTART:${Rrule.formatDate(r.dtstart)}T000000Z\nRRULE:${r.rule}${exdates}`
  return rrule
    .rrulestr(text, { forceset: true })
    .all((_, i) => i < n)
    .map((x) => x.toISOString().slice(0, 10))
}

describe("Rrule against the rrule package", () => {
  it("every exact translation without RFC 7529 parts expands to tppkit's dates (property)", () => {
    fc.assert(
      fc.property(named, (r) => {
        const t = encoded(r)
        if (t === undefined || t._tag !== "Exact" || t.value.rule.includes("SKIP=")) return
        const ours = dates(r, 60).map((x) => x.slice(0, 10))
        expect(byRrulePackage(t.value, 60)).toEqual(ours)
      }),
      { numRuns: 2_000 }
    )
  })
})

/**
 * RFC 7529 read by brute force: the months of the interval sequence from DTSTART's month, BYMONTH as a filter, each
 * BYMONTHDAY day made in that month, an invalid one omitted, moved to the month's last day (BACKWARD) or to the
 * next month's first day (FORWARD); dates before DTSTART dropped; COUNT.
 */
const rfc7529Monthly = (
  start: LocalDate.LocalDate,
  interval: number,
  day: number,
  skip: "OMIT" | "BACKWARD" | "FORWARD",
  count: number
): Array<string> => {
  const out: Array<string> = []
  const p = LocalDate.toParts(start)
  for (let i = 0; out.length < count && i < 4800 * interval; i += interval) {
    const y = p.year + Math.floor((p.month - 1 + i) / 12)
    const m = ((p.month - 1 + i) % 12) + 1
    const valid = LocalDate.make(y, m, day)
    let x: number | undefined
    if (Result.isSuccess(valid)) x = valid.success
    else if (skip === "BACKWARD") x = LocalDate.makeUnsafe(y, m, LocalDate.daysInMonth(y, m))
    else if (skip === "FORWARD") x = LocalDate.makeUnsafe(y, m, LocalDate.daysInMonth(y, m)) + 1
    if (x !== undefined && x >= start) out.push(LocalDate.format(x as LocalDate.LocalDate))
  }
  return out
}

describe("Rrule SKIP against a brute-force reading of RFC 7529", () => {
  it("OMIT, BACKWARD and FORWARD on days 29–31 (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: d("1990-01-01"), max: d("2040-12-31") }),
        fc.integer({ min: 1, max: 14 }),
        fc.integer({ min: 28, max: 31 }),
        fc.constantFrom("OMIT" as const, "BACKWARD" as const, "FORWARD" as const),
        (start, interval, day, skip) => {
          const rule = `FREQ=MONTHLY;INTERVAL=${interval};RSCALE=GREGORIAN;SKIP=${skip};BYMONTHDAY=${day};COUNT=40`
          const r = Translation.getValue(Rrule.decode({ dtstart: start as LocalDate.LocalDate, rule }))!
          const ours = dates({ ...r, calendar: "weekends" }, 40).map((x) => x.slice(0, 10))
          expect(ours).toEqual(rfc7529Monthly(start as LocalDate.LocalDate, interval, day, skip, 40))
        }
      ),
      { numRuns: 10_000 }
    )
  })
})

void Calendar

describe("Rrule: X-TPPKIT-NEVER-MOVED, every calendar day kept across a translation (issue 34)", () => {
  it("format writes it, parse reads it, and Standard.decode says the record fixes its convention", () => {
    const text = Rrule.format({ dtstart: LocalDate.parseUnsafe("2027-01-31"), rule: "FREQ=DAILY", neverMoved: true })
    expect(text).toBe("DTSTART;VALUE=DATE:20270131\nRRULE:FREQ=DAILY\nX-TPPKIT-NEVER-MOVED:TRUE")
    expect(Result.getOrThrow(Rrule.parse(text)).rrule.neverMoved).toBe(true)
    expect(Standard.decode({ rrule: text }).ownConvention).toBe(true)
    expect(Standard.decode({ rrule: "DTSTART;VALUE=DATE:20270131\nRRULE:FREQ=DAILY" }).ownConvention).not.toBe(true)
  })
})
