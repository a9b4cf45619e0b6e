import { BusinessDayConvention, Calendar, type Frequency, LocalDate, Occurrence } from "@tppkit/core"
import { Result } from "effect"
import { describe, expect, it } from "vitest"

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
    expect(planOf({ frequency: "MNTH", startDate: d("2024-01-15"), nextDate: d("2024-03-15") }).anchor).toBe(
      d("2024-01-15")
    )
    expect(planOf({ frequency: "MNTH", nextDate: d("2024-03-15") }).anchor).toBe(d("2024-03-15"))
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

  it("an occurrence the convention would move before 0001-01-01 does not exist", () => {
    // 0001-01-01 is a Monday and a TARGET2 closing day
    const plan = planOf({ frequency: "MNTH", startDate: d("0001-01-01") }, { convention: "preceding" })
    expect(iso(take(plan, 2))).toEqual(["0001-02-01", "0001-03-01"])
    expect(Occurrence.nth(plan, 0)).toBeUndefined()
    expect(Occurrence.firstOnOrAfter(plan, LocalDate.MIN)?.k).toBe(1)
    expect(Occurrence.count(plan, LocalDate.MIN, d("0001-03-01"))).toBe(2)
  })
})
