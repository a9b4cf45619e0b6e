import { LocalDate, Standard, Translation } from "@tppkit/core"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { recurrence } from "../arbitraries/recurrence.ts"
import { projected } from "../arbitraries/standards.ts"

const d = LocalDate.parseUnsafe

/** One order, monthly on the 15th from 15 January 2026, in every standard's own record. */
const mixed: ReadonlyArray<readonly [Standard.Standard, unknown]> = [
  ["sbas", { orderId: "SO-1", frequency: "MNTH", startDate: "2026-01-15" }],
  ["rrule", { rrule: "DTSTART;VALUE=DATE:20260115\nRRULE:FREQ=MONTHLY;BYMONTHDAY=15" }],
  ["uk-v3", { Frequency: "IntrvlMnthDay:01:15", FirstPaymentDateTime: "2026-01-15T00:00:00+00:00" }],
  [
    "uk-v4",
    {
      MandateRelatedInformation: { Frequency: { Type: "MNTH", PointInTime: "15" }, FirstPaymentDateTime: "2026-01-15" }
    }
  ],
  [
    "berlin-group",
    {
      additionalInformationStructured: {
        standingOrderDetails: { startDate: "2026-01-15", frequency: "Monthly", dayOfExecution: "15" }
      }
    }
  ],
  ["iso20022", { frequency: { PtInTm: { Tp: "MNTH", PtInTm: "15" } }, startDate: "2026-01-15" }],
  [
    "cobs",
    {
      requestedExecutionDate: "2026-01-15",
      standingOrder: { execution: { interval: "MONTHLY", intervalDue: "15", mode: "UNTIL_CANCELLATION" } }
    }
  ],
  ["ynab", { frequency: "monthly", date_first: "2026-01-15" }],
  ["actual", { frequency: "monthly", interval: 1, patterns: [{ type: "day", value: 15 }], start: "2026-01-15" }]
]

describe("Standard", () => {
  it("reveals each record's standard, and a mixed list projects as one order", () => {
    expect(mixed.map(([, record]) => Standard.detect(record))).toEqual(mixed.map(([s]) => s))
    // YNAB and the RRULE never move a date; the others move off weekends by the reader's convention: compare nominals
    const nominals = (record: unknown) => {
      const r = Translation.getValue(Standard.decode(record, { convention: "none" }).translation)!
      return projected({ ...r, convention: "none" }, 24)
    }
    const want = nominals(mixed[0]![1])
    expect(want[0]).toBe("2026-01-15>2026-01-15")
    for (const [standard, record] of mixed) expect(nominals(record), standard).toEqual(want)
  })

  it("tells the bank's codes from ISO 20022's and Berlin Group's, and can be forced", () => {
    expect(Standard.detect({ frequency: "DAI7", startDate: "2026-01-01" })).toBe("sbas")
    expect(Standard.detect({ frequency: "QURT", startDate: "2026-01-01" })).toBe("iso20022")
    expect(Standard.detect({ frequency: "monthly", startDate: "2026-01-01" })).toBe("berlin-group")
    expect(Standard.detect({ amount: 3 })).toBeUndefined()
    // a bare DAIL is the bank's every working day unless ISO 20022 (every day) is forced
    const dail = { frequency: "DAIL", startDate: "2026-01-01" }
    expect(Translation.getValue(Standard.decode(dail).translation)?.rule._tag).toBe("EveryWorkingDays")
    expect(Translation.getValue(Standard.decode(dail, { standard: "iso20022" }).translation)?.rule._tag).toBe(
      "EveryDays"
    )
    expect(Standard.decode({ amount: 3 }).translation).toEqual({
      _tag: "Unrepresentable",
      reason: "the record reveals no standard (pass one: --standard)"
    })
    // a COBS list record has no first date: the reader's start is used
    const cobs = Standard.decode(
      { standingOrder: { execution: { interval: "WEEKLY", intervalDue: "1" } } },
      { start: d("2026-02-02") }
    )
    expect(Translation.getValue(cobs.translation)?.start).toBe(d("2026-02-02"))
    fc.assert(fc.property(fc.anything(), (u) => typeof Standard.decode(u).translation._tag === "string"))
  })

  it("says whether a record carries or fixes its own convention, the same as reading it under two defaults", () => {
    const records: ReadonlyArray<readonly [unknown, boolean]> = [
      [{ frequency: "MNTH", startDate: "2026-01-15" }, false],
      [{ rrule: "FREQ=MONTHLY", startDate: "2026-01-15" }, false],
      [{ standingOrderDetails: { startDate: "2026-01-01", frequency: "Monthly", executionRule: "preceding" } }, true],
      [{ standingOrderDetails: { startDate: "2026-01-01", frequency: "Monthly" } }, false],
      [{ standingOrderDetails: { startDate: "2026-01-01", frequency: "Daily" } }, true],
      [{ Frequency: "EvryDay", FirstPaymentDateTime: "2026-01-01" }, true],
      [{ Frequency: "IntrvlMnthDay:01:15", FirstPaymentDateTime: "2026-01-15" }, false],
      [{ MandateRelatedInformation: { FirstPaymentDateTime: "2026-01-01", Frequency: { Type: "WODL" } } }, true],
      [{ MandateRelatedInformation: { FirstPaymentDateTime: "2026-01-01", Frequency: { Type: "MNTH" } } }, false],
      [{ frequency: { Tp: "DAIL" }, startDate: "2026-01-01" }, true],
      [{ frequency: { Tp: "MNTH" }, startDate: "2026-01-01" }, false],
      [{ standingOrder: { execution: { interval: "MONTHLY", intervalDue: "5", modeDue: "DUE_DAY_OF_MONTH" } } }, true],
      [{ standingOrder: { execution: { interval: "MONTHLY", intervalDue: "5" } } }, false],
      [{ frequency: "monthly", date_first: "2026-01-05" }, true]
    ]
    for (const [record, own] of records) {
      const options = { start: d("2026-01-05") }
      const decoded = Standard.decode(record, options)
      expect(decoded.translation._tag, JSON.stringify(record)).not.toBe("Unrepresentable")
      expect(decoded.ownConvention, JSON.stringify(record)).toBe(own)
      // the same answer as the two-default probe the CLI used before: own iff the defaults change nothing
      const [a, b] = (["following", "preceding"] as const).map(
        (convention) =>
          Translation.getValue(Standard.decode(record, { ...options, convention }).translation)?.convention
      )
      if (decoded.standard !== "sbas" && decoded.standard !== "rrule") expect(a === b, JSON.stringify(record)).toBe(own)
    }
  })

  it("encode beside decode: every standard's exact record reads back as the same dates (300 runs each)", () => {
    for (const standard of Standard.standards) {
      let exact = 0
      fc.assert(
        fc.property(recurrence, (r) => {
          const t = Standard.encode(r, standard)
          if (t._tag !== "Exact") return
          exact++
          // what the standard leaves to the bank is the reader's option, as on decoding
          const back = Standard.decode(t.value, { standard, convention: r.convention, start: r.start })
          expect(back.translation._tag, `${standard} ${JSON.stringify(t.value)}`).not.toBe("Unrepresentable")
          const value = Translation.getValue(back.translation)!
          expect(projected(value, 200), `${standard} ${JSON.stringify(t.value)}`).toEqual(projected(r, 200))
        }),
        { numRuns: 300 }
      )
      // YNAB has no end and no convention: the generated recurrences (most end, most move) are never exact in it
      if (standard !== "ynab") expect(exact, standard).toBeGreaterThan(0)
    }
    const monthly = {
      rule: { _tag: "MonthlyOnDay", interval: 1, day: 15, missing: "clamp" },
      start: d("2026-01-15"),
      convention: "none"
    } as const
    const ynab = Standard.encode(monthly, "ynab")
    expect(ynab).toEqual({ _tag: "Exact", value: { frequency: "monthly", date_first: "2026-01-15" } })
    expect(
      Translation.getValue(Standard.decode(ynab._tag === "Exact" ? ynab.value : {}, { standard: "ynab" }).translation)
    ).toEqual(monthly)
  })
})

describe("Standard: a day 29–31 is lossy exactly when a month the rule reaches lacks it (issue 34)", () => {
  const monthly = (interval: number, day: number, start: string) =>
    ({
      rule: { _tag: "MonthlyOnDay", interval, day, missing: "clamp" },
      start: d(start),
      convention: "none"
    }) as const
  const missing = (t: Translation.Translation<unknown>) =>
    t._tag === "Lossy" ? t.losses.filter((l) => l.field === "missing").length : 0

  it("quarterly from 2027-01-30 and half-yearly from 2027-01-31: no missing-day loss in any standard, either way", () => {
    for (const r of [monthly(3, 30, "2027-01-30"), monthly(6, -1, "2027-01-31")]) {
      for (const standard of Standard.standards) {
        const t = Standard.encode(r, standard)
        expect(missing(t), `${standard} ${JSON.stringify(r)}`).toBe(0)
        if (t._tag === "Unrepresentable") continue
        const back = Standard.decode(t.value, { standard, start: r.start, convention: "none" })
        expect(missing(back.translation), `${standard} ${JSON.stringify(t.value)}`).toBe(0)
      }
    }
  })

  it("quarterly on the 30th from February reaches February: lossy where the standard leaves a missing day undefined", () => {
    for (const standard of ["berlin-group", "cobs", "uk-v3", "uk-v4", "iso20022", "ynab", "actual"] as const) {
      expect(missing(Standard.encode(monthly(3, 30, "2027-02-01"), standard)), standard).toBe(1)
    }
  })
})

describe("Standard.holidaysLoss: the bank's own closing days no record says (issue 40)", () => {
  // monthly on the 5th from 5 January 2027, following on TARGET: Friday 5 February 2027 is a working day
  const monthly = {
    rule: { _tag: "MonthlyOnDay", interval: 1, day: 5, missing: "clamp" },
    start: d("2027-01-05"),
    convention: "following"
  } as const
  it("names the first payment a closing day moves, with both execution dates", () => {
    expect(Standard.holidaysLoss(monthly, [d("2027-02-05")])).toEqual({
      field: "holidays",
      from: "2027-02-05",
      to: "not defined",
      why: "no standard's record says the bank's own closing days: the payment due 2027-02-05 executes on 2027-02-08 with them, on 2027-02-05 without"
    })
  })
  it("is none without closing days, or when none moves a payment", () => {
    expect(Standard.holidaysLoss(monthly, [])).toBeUndefined()
    expect(Standard.holidaysLoss(monthly, [d("2027-02-06"), d("2027-02-04")])).toBeUndefined()
    // convention none: a closing day moves nothing
    expect(Standard.holidaysLoss({ ...monthly, convention: "none" }, [d("2027-02-05")])).toBeUndefined()
  })
})
