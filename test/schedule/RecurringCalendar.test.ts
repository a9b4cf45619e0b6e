import { Calendar, LocalDate, Money } from "@tppkit/core"
import { Projection, RecurringCalendar } from "@tppkit/schedule"
import fc from "fast-check"
import rrule from "rrule"
import { describe, expect, it } from "vitest"
import * as Arb from "../arbitraries/engine.ts"

const d = LocalDate.parseUnsafe
const order = (
  frequency: "DAIL" | "DAI7" | "WEEK" | "MNTH" | "QUTR" | "SEMI" | "YEAR",
  startDate: LocalDate.LocalDate
) => ({
  orderId: `SO-${frequency}`,
  frequency,
  startDate,
  instructedAmount: { value: Money.parseUnsafe("12.50"), currency: "EUR" },
  debtor: { iban: "SK3112000000198742637541" },
  creditor: { iban: "CZ6508000000192000145399", name: "Landlord" }
})

/** The dates of each VEVENT with an RRULE, expanded by the rrule package with its EXDATEs and RDATEs. */
const expand = (text: string, from: LocalDate.LocalDate, to: LocalDate.LocalDate): Array<string> => {
  const event = text.replace(/\r\n /g, "").split("\r\n")
  const keep = event.filter((l) => /^(DTSTART|RRULE|EXDATE|RDATE)/.test(l))
  const body = keep
    .map((l) =>
      l.replace(";VALUE=DATE:", ":").replace(
        /^(DTSTART|EXDATE|RDATE):(.*)$/,
        (_, k: string, v: string) =>
          `${k}:${v
            .split(",")
            .map((x) => `${x}T000000Z`)
            .join(",")}`
      )
    )
    .join("\n")
  const set = rrule.rrulestr(body, { forceset: true })
  const start = new Date(`${LocalDate.format(from)}T00:00:00Z`)
  const end = new Date(`${LocalDate.format(to)}T00:00:00Z`)
  return set.between(start, end, true).map((x) => x.toISOString().slice(0, 10))
}

describe("RecurringCalendar.fromOrders", () => {
  it("writes one RRULE with EXDATE and RDATE for the payments a holiday or weekend moves", () => {
    const window = { from: d("2024-01-01"), to: d("2024-12-31") }
    const doc = RecurringCalendar.fromOrders([order("MNTH", d("2024-01-31"))], window, {
      stampMillis: 1_800_000_000_000
    })
    expect(doc.choices).toMatchObject([{ orderId: "SO-MNTH", as: "rule" }])
    // after the window the rule's dates are not moved: the translation's loss
    expect(doc.choices[0]?.beyond?.map((l) => l.field)).toEqual(["convention"])
    expect(doc.text).toContain("RRULE:FREQ=MONTHLY;BYMONTHDAY=-1\r\n")
    // 31 March is a Sunday and 1 April Easter Monday; 30 June, 31 August and 30 November fall on weekends
    expect(doc.text).toContain("EXDATE;VALUE=DATE:20240331,20240630,20240831,20241130\r\n")
    expect(doc.text).toContain("RDATE;VALUE=DATE:20240402,20240701,20240902,20241202\r\n")
    expect(doc.text).toContain("DTSTAMP:20270115T080000Z\r\n")
  })

  it("writes a date the bank confirmed as an event of its own, the rule's dates engine-predicted", () => {
    const window = { from: d("2024-01-01"), to: d("2024-04-30") }
    const doc = RecurringCalendar.fromOrders(
      [{ ...order("MNTH", d("2024-01-31")), nextDate: d("2024-02-29") }],
      window,
      { stampMillis: 0, rule: "following · target" }
    )
    expect(doc.choices).toMatchObject([{ orderId: "SO-MNTH", as: "rule" }])
    const [rule, confirmed] = doc.text.split("BEGIN:VEVENT\r\n").slice(1)
    expect(rule).toContain("X-TPPKIT-PROVENANCE:engine-predicted\r\n")
    expect(confirmed).toContain("UID:SO-MNTH-20240229@tppkit\r\n")
    expect(confirmed).toContain("X-TPPKIT-PROVENANCE:bank-confirmed\r\n")
    // 31 January is paid before the bank's nextDate; the rule leaves the confirmed date to its event; 31 March is a
    // Sunday, paid on 2 April (1 April is Easter Monday)
    expect(expand(rule!, window.from, window.to)).toEqual(["2024-04-02", "2024-04-30"])
    expect(rule!.replace(/\r\n /g, "")).toContain("moved off the nominal date by following · target")
  })

  it("writes an order whose only payments in the window the bank confirmed as its payments' events, saying why", () => {
    const window = { from: d("2024-02-01"), to: d("2024-03-15") }
    const doc = RecurringCalendar.fromOrders(
      [{ ...order("MNTH", d("2024-01-31")), nextDate: d("2024-02-29") }],
      window,
      { stampMillis: 0 }
    )
    expect(doc.choices).toEqual([
      { orderId: "SO-MNTH", as: "events", reason: "every payment in the window is a date the bank confirmed" }
    ])
    expect(doc.text.match(/BEGIN:VEVENT/g)?.length).toBe(1)
  })

  it("falls back to one event per payment where no RRULE can say the order, saying why", () => {
    const window = { from: d("2024-01-01"), to: d("2024-01-31") }
    const doc = RecurringCalendar.fromOrders(
      [
        {
          ...order("DAI7", d("2024-01-01")),
          frequency: undefined,
          recurrence: { rule: { _tag: "EveryWorkingDays", interval: 3 }, start: d("2024-01-02"), convention: "none" }
        }
      ],
      window,
      { stampMillis: 0, calendar: Calendar.target }
    )
    expect(doc.choices).toEqual([
      {
        orderId: "SO-DAI7",
        as: "events",
        reason: "every 3rd working day has no RRULE form (RRULE counts days, weeks or months)"
      }
    ])
    expect(doc.text.match(/BEGIN:VEVENT/g)?.length).toBe(8)
  })

  it("a bounded order's pauses beyond the window are EXDATEs too: its whole life reads as its payments", () => {
    const paused = {
      ...order("MNTH", d("2027-01-15")),
      frequency: undefined,
      orderId: "SO-PAUSED",
      recurrence: {
        rule: { _tag: "MonthlyOnDay", interval: 1, day: 15, missing: "clamp" },
        start: d("2027-01-15"),
        count: 12,
        convention: "none",
        pauses: { ranges: [{ from: d("2027-09-01"), to: d("2027-09-30") }], months: [7] }
      }
    } as const
    const window = { from: d("2027-01-01"), to: d("2027-03-31") }
    const doc = RecurringCalendar.fromOrders([paused], window, { stampMillis: 0, calendar: Calendar.weekends })
    expect(doc.choices).toEqual([{ orderId: "SO-PAUSED", as: "rule" }])
    expect(doc.text).toContain("EXDATE;VALUE=DATE:20270715,20270915\r\n")
    const life = { from: d("2027-01-01"), to: d("2028-12-31") }
    expect(expand(doc.text, life.from, life.to)).toEqual(
      Projection.project([paused], life, { calendar: Calendar.weekends }).payments.map((p) =>
        LocalDate.format(p.executionDate)
      )
    )
    // without end, every July is left out of the rule's months; September's range is still an EXDATE
    const { count: _c, ...unbounded } = paused.recurrence
    const text = RecurringCalendar.fromOrders([{ ...paused, recurrence: unbounded }], window, {
      stampMillis: 0,
      calendar: Calendar.weekends
    }).text
    expect(text).toContain("RRULE:FREQ=MONTHLY;BYMONTH=1,2,3,4,5,6,8,9,10,11,12;BYMONTHDAY=15\r\n")
    expect(text).toContain("EXDATE;VALUE=DATE:20270915\r\n")
    // a weekly rule without end stopped every July: the window's Julys are EXDATEs, the choice names the rest
    const weekly = {
      ...paused,
      recurrence: { ...unbounded, rule: { _tag: "Weekly", interval: 1, weekdays: [3] } }
    } as const
    const summer = { from: d("2027-06-15"), to: d("2027-08-15") }
    const doc2 = RecurringCalendar.fromOrders([weekly], summer, { stampMillis: 0, calendar: Calendar.weekends })
    expect(doc2.text).toContain("EXDATE;VALUE=DATE:20270707,20270714,20270721,20270728,20270901")
    expect(doc2.choices[0]?.beyond?.map((l) => [l.field, l.from])).toEqual([["pauses", "months 7"]])
  })

  it("inside the window the rule's dates are exactly the payments', read by the rrule package (property)", () => {
    fc.assert(
      fc.property(
        Arb.schedule,
        Arb.calendar,
        Arb.convention,
        fc.integer({ min: -400, max: 3000 }),
        (o, calendar, convention, offset) => {
          const from = (o.startDate + offset) as LocalDate.LocalDate
          const window = { from, to: (from + 200) as LocalDate.LocalDate }
          const orders = [{ ...order(o.frequency, o.startDate), ...(o.endDate ? { endDate: o.endDate } : {}) }]
          const doc = RecurringCalendar.fromOrders(orders, window, { stampMillis: 0, calendar, convention })
          const payments = Projection.project(orders, window, { calendar, convention }).payments
          const choice = doc.choices[0]
          if (choice?.as !== "rule") return
          expect(expand(doc.text, window.from, window.to)).toEqual(
            payments.map((p) => LocalDate.format(p.executionDate))
          )
        }
      ),
      { numRuns: 1_000 }
    )
  })
})
