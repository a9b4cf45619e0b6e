import { BerlinGroup, LocalDate, type Recurrence, Translation } from "@tppkit/core"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as RArb from "../arbitraries/recurrence.ts"
import { expectReadsBack, itKeepsTheLaws } from "../arbitraries/standards.ts"

const d = LocalDate.parseUnsafe
const decoded = (u: unknown, options?: BerlinGroup.Options) => BerlinGroup.decode(u, options)
const recurrenceOf = (u: unknown) => Translation.getValue(decoded(u).translation)
const details = (x: object) => ({ additionalInformationStructured: { standingOrderDetails: x } })

describe("BerlinGroup.decode", () => {
  it("reads each code with its fields", () => {
    expect(
      recurrenceOf(
        details({
          startDate: "2026-01-10",
          endDate: "2026-12-31",
          frequency: "Monthly",
          executionRule: "preceding",
          dayOfExecution: "15"
        })
      )
    ).toEqual({
      rule: { _tag: "MonthlyOnDay", interval: 1, day: 15, missing: "clamp" },
      start: d("2026-01-10"),
      end: d("2026-12-31"),
      convention: "preceding"
    })
    const rule = (x: object) => recurrenceOf({ startDate: "2026-01-07", ...x })?.rule
    expect(rule({ frequency: "Daily" })).toEqual({ _tag: "EveryDays", interval: 1 })
    expect(rule({ frequency: "Weekly" })).toEqual({ _tag: "Weekly", interval: 1, weekdays: [3] })
    expect(rule({ frequency: "EveryTwoWeeks" })).toEqual({ _tag: "Weekly", interval: 2, weekdays: [3] })
    expect(rule({ frequency: "Weekly", multiplicator: 3 })).toEqual({ _tag: "Weekly", interval: 3, weekdays: [3] })
    expect(rule({ frequency: "EveryTwoMonths" })).toEqual({
      _tag: "MonthlyOnDay",
      interval: 2,
      day: 7,
      missing: "clamp"
    })
    expect(rule({ frequency: "Quarterly", dayOfExecution: "31" })).toEqual({
      _tag: "MonthlyOnDay",
      interval: 3,
      day: -1,
      missing: "clamp"
    })
    expect(rule({ frequency: "SemiAnnual", dayOfExecution: "1" })?._tag).toBe("MonthlyOnDay")
    expect(rule({ frequency: "Annual", dayOfExecution: "30", multiplicator: 2 })).toEqual({
      _tag: "MonthlyOnDay",
      interval: 24,
      day: 30,
      missing: "clamp"
    })
    expect(rule({ frequency: "MonthlyVariable", monthsOfExecution: ["3", "6", "9"], dayOfExecution: "5" })).toEqual({
      _tag: "MonthlyOnDay",
      interval: 1,
      day: 5,
      missing: "clamp",
      months: [3, 6, 9]
    })
    const conv = (x: object, o?: BerlinGroup.Options) =>
      Translation.getValue(decoded({ startDate: "2026-01-07", frequency: "Monthly", ...x }, o).translation)?.convention
    expect(conv({ executionRule: "following", withinAMonthFlag: true })).toBe("modified-following")
    expect(conv({ executionRule: "preceding", withinAMonthFlag: true })).toBe("modified-preceding")
    expect(conv({})).toBe("following")
    expect(conv({}, { convention: "none" })).toBe("none")
  })

  it("says lossy where the standard is silent, unrepresentable with the reason, never throws", () => {
    const t = (x: object) => decoded({ startDate: "2026-01-07", ...x }).translation
    const fields = (x: object) => {
      const r = t(x)
      return r._tag === "Lossy" ? r.losses.map((l) => l.field) : r._tag
    }
    expect(fields({ frequency: "Monthly", dayOfExecution: "30" })).toEqual(["missing"])
    // 30 April exists every year: nothing is missing
    expect(fields({ startDate: "2026-04-01", frequency: "Annual", dayOfExecution: "30" })).toBe("Exact")
    expect(fields({ frequency: "Annual", startDate: "2026-02-01", dayOfExecution: "29" })).toEqual(["missing"])
    expect(fields({ frequency: "EveryTwoWeeks", dayOfExecution: "3" })).toEqual(["dayOfExecution"])
    expect(fields({ frequency: "Daily", executionRule: "following" })).toEqual(["executionRule"])
    const reason = (u: unknown) => {
      const r = decoded(u).translation
      return r._tag === "Unrepresentable" ? r.reason : r._tag
    }
    expect(reason({ frequency: "Monthly" })).toBe("the order has no startDate")
    expect(reason({ startDate: "2026-01-07", frequency: "Fortnightly" })).toBe(
      '"Fortnightly" is not a Berlin Group frequency code'
    )
    expect(reason({ startDate: "2026-01-07", frequency: "MonthlyVariable" })).toBe(
      "MonthlyVariable without monthsOfExecution"
    )
    expect(reason({ startDate: "2026-01-07", frequency: "Monthly", dayOfExecution: "32" })).toBe(
      "dayOfExecution 32 is not a day 1..31"
    )
    fc.assert(fc.property(fc.anything(), (u) => typeof decoded(u).translation._tag === "string"))
  })

  it("tolerates what banks and the standard's own example sent, each tolerance a warning", () => {
    // the example: fields outside standingOrderDetails, the code in lower case
    const example = {
      additionalInformationStructured: {
        standingOrderDetails: { startDate: "2026-01-10" },
        endDate: "2026-12-31",
        executionRule: "following",
        frequency: "monthly",
        dayOfExecution: "01"
      }
    }
    const r = decoded(example)
    expect(Translation.getValue(r.translation)).toEqual({
      rule: { _tag: "MonthlyOnDay", interval: 1, day: 1, missing: "clamp" },
      start: d("2026-01-10"),
      end: d("2026-12-31"),
      convention: "following"
    })
    expect(r.warnings.map((w) => [w.field, w.received, w.read])).toEqual([
      ["endDate", "2026-12-31", "standingOrderDetails.endDate"],
      ["frequency", "monthly", "standingOrderDetails.frequency"],
      ["executionRule", "following", "standingOrderDetails.executionRule"],
      ["dayOfExecution", "01", "standingOrderDetails.dayOfExecution"],
      ["frequency", "monthly", "Monthly"],
      ["dayOfExecution", "01", "1"]
    ])
    const warned = (x: object) =>
      decoded({ startDate: "2026-01-07", frequency: "Monthly", ...x }).warnings.map((w) => w.field)
    expect(warned({ startDate: "0000-01-01", frequency: "Monthly" })).toEqual(["startDate"])
    expect(warned({ endDate: "0000-01-01" })).toEqual(["endDate"])
    expect(warned({ executionRule: "Following" })).toEqual(["executionRule"])
    expect(warned({ dayOfExecution: 5 })).toEqual(["dayOfExecution"])
    expect(warned({ frequency: "MonthlyVariable", monthsOfExecution: ["09", "3", "3"] })).toEqual(["monthsOfExecution"])
    expect(
      decoded({ startDate: "2026-01-07", frequencyCode: "Monthly" }).warnings.map((w) => [w.field, w.why])
    ).toEqual([["frequency", "the field is named frequency, not frequencyCode"]])
  })
})

describe("BerlinGroup.encode", () => {
  const base = { start: d("2026-01-31"), convention: "following" } as const
  it("writes the codes, the ultimo and the execution rule", () => {
    expect(
      BerlinGroup.encode({
        ...base,
        rule: { _tag: "MonthlyOnDay", interval: 3, day: 31, missing: "clamp" },
        convention: "modified-preceding",
        count: 3
      })
    ).toEqual({
      _tag: "Exact",
      value: {
        startDate: "2026-01-31",
        endDate: "2026-07-31",
        frequency: "Quarterly",
        executionRule: "preceding",
        withinAMonthFlag: true,
        dayOfExecution: "31"
      }
    })
    const v = (rule: Recurrence.Rule) => Translation.getValue(BerlinGroup.encode({ ...base, rule }))
    expect(v({ _tag: "Weekly", interval: 2, weekdays: [1] })).toEqual({
      startDate: "2026-02-09",
      frequency: "EveryTwoWeeks",
      executionRule: "following"
    })
    expect(v({ _tag: "MonthlyOnDay", interval: 5, day: 3, missing: "clamp" })).toMatchObject({
      frequency: "Monthly",
      multiplicator: 5
    })
    expect(v({ _tag: "MonthlyOnDay", interval: 1, day: 3, missing: "clamp", months: [1, 7] })).toMatchObject({
      frequency: "MonthlyVariable",
      monthsOfExecution: ["1", "7"]
    })
    expect(BerlinGroup.encode({ ...base, rule: { _tag: "EveryWorkingDays", interval: 1 } })).toEqual({
      _tag: "Unrepresentable",
      reason:
        "Berlin Group cannot say every working day: it has no working-day code (Daily with following would pay Monday twice)"
    })
    const none = BerlinGroup.encode({
      ...base,
      convention: "none",
      rule: { _tag: "MonthlyOnDay", interval: 1, day: 3, missing: "clamp" }
    })
    expect(none._tag === "Lossy" && none.losses.map((l) => [l.field, l.from, l.to])).toEqual([
      ["convention", "none", "following"]
    ])
  })

  // read back with the decoder's own default for an absent executionRule (following), not told the convention;
  // every verdict is exercised
  itKeepsTheLaws(RArb.recurrence, BerlinGroup.encode, (v) => BerlinGroup.decode(v), { numRuns: 2000, atLeast: 50 })

  it("decode(encode(x)) = x for the shapes Berlin Group says (2,000 runs)", () => {
    const code = fc.constantFrom(...BerlinGroup.frequencies)
    fc.assert(
      fc.property(
        code,
        fc.integer({ min: d("1990-01-01"), max: d("2040-12-31") }),
        fc.integer({ min: 1, max: 28 }).map(String),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom("following", "preceding"),
        fc.boolean(),
        (frequency, day, dayOfExecution, multiplicator, executionRule, within) => {
          const monthly = frequency !== "Daily" && frequency !== "Weekly" && frequency !== "EveryTwoWeeks"
          const record = {
            startDate: LocalDate.format(day as LocalDate.LocalDate),
            frequency,
            ...(frequency === "Daily" ? {} : { executionRule, ...(within ? { withinAMonthFlag: true } : {}) }),
            ...(monthly ? { dayOfExecution } : {}),
            ...(frequency === "MonthlyVariable" ? { monthsOfExecution: ["2", "11"] } : { multiplicator })
          }
          const x = Translation.getValue(BerlinGroup.decode(record).translation)!
          const t = BerlinGroup.encode(x)
          // every calendar day is more than Daily says (the standard is silent on weekends): that alone is lossy
          if (frequency === "Daily")
            expect(t._tag === "Lossy" ? t.losses.map((l) => l.field) : t._tag).toEqual(["frequency"])
          else expect(t._tag).toBe("Exact")
          expectReadsBack(t, BerlinGroup.decode, x)
        }
      ),
      { numRuns: 2000 }
    )
  })
})
