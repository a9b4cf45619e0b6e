import { LocalDate, type Recurrence, Translation, UkOpenBanking } from "@tppkit/core"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as RArb from "../arbitraries/recurrence.ts"
import { expectReadsBack, itKeepsTheLaws } from "../arbitraries/standards.ts"

const d = LocalDate.parseUnsafe
const first = "2026-01-05T00:00:00+00:00"
const ruleOf = (Frequency: string, extra: object = {}) => {
  const r = UkOpenBanking.decodeV3({ Frequency, FirstPaymentDateTime: first, ...extra })
  return Translation.getValue(r.translation)?.rule
}

describe("UkOpenBanking.decodeV3", () => {
  it("a pattern with spaces around it is read with a warning naming Frequency; a number is refused in words (issue 34)", () => {
    const spaced = UkOpenBanking.decodeV3({ Frequency: " EvryDay ", FirstPaymentDateTime: first })
    expect(Translation.verdict(spaced.translation)).toBe("exact")
    expect(spaced.warnings.map((w) => [w.field, w.received, w.read])).toEqual([["Frequency", " EvryDay ", "EvryDay"]])
    const five = UkOpenBanking.decodeV3({ Frequency: 5, FirstPaymentDateTime: first })
    expect(five.translation._tag === "Unrepresentable" ? five.translation.reason : "").toMatch(
      /^Frequency 5 is a number, not a frequency/
    )
    const v4 = UkOpenBanking.decodeV4({ Frequency: 5, FirstPaymentDateTime: first })
    expect(v4.translation._tag === "Unrepresentable" ? v4.translation.reason : "").toMatch(/Frequency 5 is a number/)
  })

  it("reads every form of the published grammar", () => {
    expect(ruleOf("EvryDay")).toEqual({ _tag: "EveryDays", interval: 1 })
    expect(ruleOf("EvryWorkgDay")).toEqual({ _tag: "EveryWorkingDays", interval: 1 })
    expect(ruleOf("IntrvlDay:15")).toEqual({ _tag: "EveryDays", interval: 15 })
    expect(ruleOf("IntrvlWkDay:02:03")).toEqual({ _tag: "Weekly", interval: 2, weekdays: [3] })
    expect(ruleOf("WkInMnthDay:02:05")).toEqual({ _tag: "MonthlyOnWeekday", interval: 1, weekday: 5, ordinal: 2 })
    expect(ruleOf("IntrvlMnthDay:06:15")).toEqual({ _tag: "MonthlyOnDay", interval: 6, day: 15, missing: "clamp" })
    expect(ruleOf("IntrvlMnthDay:01:-01")).toEqual({ _tag: "MonthlyOnDay", interval: 1, day: -1, missing: "clamp" })
    expect(ruleOf("IntrvlMnthDay:24:-05")).toEqual({ _tag: "MonthlyOnDay", interval: 24, day: -5, missing: "clamp" })
    expect(ruleOf("QtrDay:ENGLISH")).toEqual({
      _tag: "Yearly",
      interval: 1,
      dates: [
        { month: 3, day: 25 },
        { month: 6, day: 24 },
        { month: 9, day: 29 },
        { month: 12, day: 25 }
      ],
      missing: "clamp"
    })
    const all = UkOpenBanking.decodeV3({
      Frequency: "IntrvlMnthDay:01:15",
      FirstPaymentDateTime: "2026-01-15T00:00:00+00:00",
      FinalPaymentDateTime: "2026-12-15T00:00:00+00:00",
      NumberOfPayments: "12"
    })
    expect(all).toEqual({
      translation: {
        _tag: "Exact",
        value: {
          rule: { _tag: "MonthlyOnDay", interval: 1, day: 15, missing: "clamp" },
          start: d("2026-01-15"),
          end: d("2026-12-15"),
          count: 12,
          convention: "following"
        }
      },
      warnings: [],
      // the convention is the bank's (the options' default), not the record's
      ownConvention: false
    })
  })

  it("says lossy where the standard is silent: day 29-31 in a shorter month", () => {
    const t = UkOpenBanking.decodeV3({ Frequency: "IntrvlMnthDay:01:30", FirstPaymentDateTime: first }).translation
    expect(t._tag).toBe("Lossy")
    expect(t._tag === "Lossy" && t.losses.map((l) => [l.field, l.from, l.to])).toEqual([
      ["missing", "not defined", "clamp"]
    ])
  })

  it("says unrepresentable with the reason, never throws", () => {
    const reason = (u: unknown) => {
      const t = UkOpenBanking.decodeV3(u).translation
      return t._tag === "Unrepresentable" ? t.reason : t._tag
    }
    expect(reason({ Frequency: "NotKnown", FirstPaymentDateTime: first })).toBe(
      "NotKnown: the bank does not say when the order pays"
    )
    expect(reason({ Frequency: "Monthly", FirstPaymentDateTime: first })).toBe(
      '"Monthly" is not a UK Open Banking v3 frequency'
    )
    expect(reason({ Frequency: "IntrvlWkDay:01:08", FirstPaymentDateTime: first })).toContain("weekday 01..07")
    expect(reason({ Frequency: "EvryDay" })).toBe("the order has neither FirstPaymentDateTime nor NextPaymentDateTime")
    expect(reason(null)).toBe("the record is not an object")
    // Lloyds: a standing order with nothing but the account
    expect(reason({ AccountId: "22289" })).toBe("the record has no Frequency string")
    fc.assert(fc.property(fc.anything(), (u) => typeof UkOpenBanking.decodeV3(u).translation._tag === "string"))
  })

  it("tolerates what banks sent, each tolerance a warning", () => {
    const read = (Frequency: string, extra: object = {}) => {
      const r = UkOpenBanking.decodeV3({ Frequency, FirstPaymentDateTime: first, ...extra })
      return {
        rule: Translation.getValue(r.translation)?.rule,
        warnings: r.warnings.map((w) => [w.field, w.read, w.why])
      }
    }
    // Santander: unpadded numbers, then the misspelling
    expect(read("IntrvlWkDay:1:1")).toEqual({
      rule: { _tag: "Weekly", interval: 1, weekdays: [1] },
      warnings: [["Frequency", "IntrvlWkDay:01:01", "numbers are written with two digits"]]
    })
    expect(read("IntrvlMnthDay:1:30").warnings).toEqual([
      ["Frequency", "IntrvlMnthDay:01:30", "numbers are written with two digits"]
    ])
    expect(read("IntrvWkDay:01:05")).toEqual({
      rule: { _tag: "Weekly", interval: 1, weekdays: [5] },
      warnings: [["Frequency", "IntrvlWkDay", "IntrvWkDay is a misspelling of IntrvlWkDay"]]
    })
    // Halifax: weekday 00, read as the first payment's weekday (5 January 2026 is a Monday)
    expect(read("IntrvlWkDay:01:00")).toEqual({
      rule: { _tag: "Weekly", interval: 1, weekdays: [1] },
      warnings: [
        [
          "Frequency",
          "IntrvlWkDay:01:<the first payment's weekday>",
          "weekday 00 is not in the grammar (01..07), and the first payment's weekday is the one meant"
        ]
      ]
    })
    expect(read("evryday").warnings).toEqual([["Frequency", "EvryDay", "the grammar spells the name EvryDay"]])
    // Danske: an impossible next date beside a good first date
    const danske = read("EvryDay", { NextPaymentDateTime: "0000-01-01T00:00:00Z" })
    expect(danske.rule).toEqual({ _tag: "EveryDays", interval: 1 })
    expect(danske.warnings[0]![0]).toBe("NextPaymentDateTime")
    // a sandbox's "01-Jan-18"
    expect(read("EvryDay", { FinalPaymentDateTime: "01-Jan-18" }).warnings).toEqual([
      ["FinalPaymentDateTime", "absent", "it is not a date of the form YYYY-MM-DD"]
    ])
  })
})

describe("UkOpenBanking.encodeV3", () => {
  const base = { start: d("2026-01-31"), convention: "following" } as const
  it("writes the grammar's strings", () => {
    const f = (rule: Recurrence.Rule) => Translation.getValue(UkOpenBanking.encodeV3({ ...base, rule }))?.Frequency
    expect(f({ _tag: "MonthlyOnDay", interval: 1, day: 31, missing: "clamp" })).toBe("IntrvlMnthDay:01:-01")
    expect(f({ _tag: "Weekly", interval: 3, weekdays: [7] })).toBe("IntrvlWkDay:03:07")
    expect(f({ _tag: "Yearly", interval: 2, dates: [{ month: 5, day: 4 }], missing: "clamp" })).toBe(
      "IntrvlMnthDay:24:04"
    )
    expect(UkOpenBanking.encodeV3({ ...base, rule: { _tag: "Weekly", interval: 1, weekdays: [1, 3] } })).toEqual({
      _tag: "Unrepresentable",
      reason: "UK Open Banking v3 cannot say every week on Monday, Wednesday: one weekday a week only"
    })
    const end = UkOpenBanking.encodeV3({
      ...base,
      rule: { _tag: "MonthlyOnDay", interval: 1, day: 10, missing: "clamp" },
      end: d("2026-06-30"),
      count: 40
    })
    expect(end).toEqual({
      _tag: "Exact",
      value: {
        Frequency: "IntrvlMnthDay:01:10",
        FirstPaymentDateTime: "2026-02-10T00:00:00+00:00",
        FinalPaymentDateTime: "2026-06-10T00:00:00+00:00",
        NumberOfPayments: "40"
      }
    })
  })

  // every verdict is exercised
  itKeepsTheLaws(RArb.recurrence, UkOpenBanking.encodeV3, UkOpenBanking.decodeV3, { numRuns: 2000, atLeast: 50 })

  it("decode(encode(x)) = x for every string of the grammar (2,000 runs)", () => {
    const two = (min: number, max: number) => fc.integer({ min, max }).map((n) => String(n).padStart(2, "0"))
    const frequency = fc.oneof(
      fc.constantFrom("EvryDay", "EvryWorkgDay", "QtrDay:ENGLISH", "QtrDay:SCOTTISH", "QtrDay:RECEIVED"),
      two(2, 31).map((n) => `IntrvlDay:${n}`),
      fc.tuple(two(1, 9), two(1, 7)).map(([n, w]) => `IntrvlWkDay:${n}:${w}`),
      fc.tuple(two(1, 5), two(1, 7)).map(([n, w]) => `WkInMnthDay:${n}:${w}`),
      fc
        .tuple(
          fc.constantFrom("01", "02", "03", "04", "05", "06", "12", "24"),
          fc.oneof(
            two(1, 28),
            two(1, 5).map((x) => `-${x}`)
          )
        )
        .map(([n, day]) => `IntrvlMnthDay:${n}:${day}`)
    )
    fc.assert(
      fc.property(
        frequency,
        fc.integer({ min: d("1990-01-01"), max: d("2040-12-31") }),
        fc.option(fc.integer({ min: 1, max: 99 }), { nil: undefined }),
        (Frequency, day, count) => {
          const record = {
            Frequency,
            FirstPaymentDateTime: `${LocalDate.format(day as LocalDate.LocalDate)}T00:00:00+00:00`,
            ...(count === undefined ? {} : { NumberOfPayments: String(count) })
          }
          const x = Translation.getValue(UkOpenBanking.decodeV3(record).translation)!
          const t = UkOpenBanking.encodeV3(x)
          expect(t._tag).toBe("Exact")
          expect(Translation.getValue(t)!.Frequency).toBe(Frequency)
          expectReadsBack(t, UkOpenBanking.decodeV3, x)
        }
      ),
      { numRuns: 2000 }
    )
  })
})

describe("UkOpenBanking v4 (OBFrequency6), kept apart from v3", () => {
  const mandate = (Frequency: unknown, extra: object = {}) => ({
    MandateRelatedInformation: { Frequency, FirstPaymentDateTime: "2026-01-07T00:00:00+00:00", ...extra }
  })
  const ruleOf = (Frequency: unknown) =>
    Translation.getValue(UkOpenBanking.decodeV4(mandate(Frequency)).translation)?.rule

  it("reads the API's codes, the internal code set's and the legacy string", () => {
    // the conformance suite's default
    expect(ruleOf({ Type: "WEEK", PointInTime: "03" })).toEqual({ _tag: "Weekly", interval: 1, weekdays: [3] })
    expect(ruleOf({ Type: "FRTN" })).toEqual({ _tag: "Weekly", interval: 2, weekdays: [3] })
    expect(ruleOf({ Type: "FOWK", PointInTime: "05" })).toEqual({ _tag: "Weekly", interval: 4, weekdays: [5] })
    expect(ruleOf({ Type: "DAIL" })).toEqual({ _tag: "EveryDays", interval: 1 })
    expect(ruleOf({ Type: "WODL" })).toEqual({ _tag: "EveryWorkingDays", interval: 1 })
    for (const [Type, interval] of [
      ["MNTH", 1],
      ["TWMH", 2],
      ["ALMH", 2],
      ["QURT", 3],
      ["FOMH", 4],
      ["FIMH", 5],
      ["MIAN", 6],
      ["YEAR", 12],
      ["TWYR", 24]
    ] as const) {
      expect(ruleOf({ Type, PointInTime: "15" })).toEqual({ _tag: "MonthlyOnDay", interval, day: 15, missing: "clamp" })
    }
    expect(ruleOf({ Type: "MNTH", CountPerPeriod: 1 })).toEqual({
      _tag: "MonthlyOnDay",
      interval: 1,
      day: 7,
      missing: "clamp"
    })
    expect(ruleOf("IntrvlMnthDay:01:-01")).toEqual({ _tag: "MonthlyOnDay", interval: 1, day: -1, missing: "clamp" })
  })

  it("says unrepresentable with the reason; the v3 reader refuses the v4 object", () => {
    const reason = (f: unknown) => {
      const t = UkOpenBanking.decodeV4(mandate(f)).translation
      return t._tag === "Unrepresentable" ? t.reason : t._tag
    }
    expect(reason({ Type: "ADHO" })).toBe("ADHO: the payments are made on request, not on dates")
    expect(reason({ Type: "LXMH" })).toBe("LXMH: the code set does not document its dates")
    // WSO2 accepted a negative count
    expect(reason({ Type: "MNTH", CountPerPeriod: -2 })).toBe("CountPerPeriod -2 is not a count of payments")
    expect(reason({ Type: "WEEK", CountPerPeriod: 2 })).toBe(
      "2 payments every WEEK period: the standard does not say on which days"
    )
    expect(
      UkOpenBanking.decodeV3({ Frequency: { Type: "WEEK", PointInTime: "03" }, FirstPaymentDateTime: first })
        .translation
    ).toEqual({
      _tag: "Unrepresentable",
      reason: "Frequency is a v4 OBFrequency6 object, not a v3 string: read it with decodeV4"
    })
    expect(UkOpenBanking.decodeV4(mandate({ Type: "mnth", PointInTime: 5 })).warnings.map((w) => w.field)).toEqual([
      "Type",
      "PointInTime"
    ])
    fc.assert(fc.property(fc.anything(), (u) => typeof UkOpenBanking.decodeV4(u).translation._tag === "string"))
  })

  it("writes the object, never the string", () => {
    expect(
      UkOpenBanking.encodeV4({
        start: d("2026-01-07"),
        convention: "following",
        rule: { _tag: "MonthlyOnDay", interval: 4, day: 9, missing: "clamp" },
        count: 3
      })
    ).toEqual({
      _tag: "Exact",
      value: {
        Frequency: { Type: "FOMH", PointInTime: "09" },
        FirstPaymentDateTime: "2026-01-09T00:00:00+00:00",
        FinalPaymentDateTime: "2026-09-09T00:00:00+00:00"
      }
    })
  })

  itKeepsTheLaws(RArb.recurrence, UkOpenBanking.encodeV4, UkOpenBanking.decodeV4, { numRuns: 1500, atLeast: 20 })

  it("decode(encode(x)) = x for every code that names dates (1,000 runs)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          "DAIL",
          "WODL",
          "WEEK",
          "FRTN",
          "FOWK",
          "MNTH",
          "TWMH",
          "QURT",
          "FOMH",
          "FIMH",
          "MIAN",
          "YEAR",
          "TWYR"
        ),
        fc.integer({ min: d("1990-01-01"), max: d("2040-12-31") }),
        fc.integer({ min: 1, max: 28 }),
        (Type, day, point) => {
          const weekly = Type === "WEEK" || Type === "FRTN" || Type === "FOWK"
          const f =
            Type === "DAIL" || Type === "WODL" ? { Type } : { Type, PointInTime: pad(weekly ? 1 + (point % 7) : point) }
          const x = Translation.getValue(
            UkOpenBanking.decodeV4({ Frequency: f, FirstPaymentDateTime: LocalDate.format(day as LocalDate.LocalDate) })
              .translation
          )!
          const t = UkOpenBanking.encodeV4(x)
          expect(t._tag).toBe("Exact")
          expect(Translation.getValue(t)!.Frequency).toEqual(f)
          expectReadsBack(t, UkOpenBanking.decodeV4, x)
        }
      ),
      { numRuns: 1000 }
    )
  })
})

const pad = (n: number) => String(n).padStart(2, "0")
