import { BankRule, Calendar, type Frequency, LocalDate, Occurrence } from "@tppkit/core"
import { Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { convention, date, frequency, refOccurrences } from "../arbitraries/engine.ts"

const d = LocalDate.parseUnsafe
const listed = (order: Occurrence.OrderSchedule, rule: BankRule.BankRule, asOf: string): string | undefined => {
  const plan = Result.getOrThrow(BankRule.plan(order, rule))
  const date = BankRule.listedDate(plan, d(asOf))
  return date === undefined ? undefined : LocalDate.format(date)
}

describe("BankRule: rules that list the same dates", () => {
  it("every day: the convention and the kind of date do not matter", () => {
    const a = BankRule.make({ convention: "preceding", calendar: BankRule.everyDay, reports: "nominal" })
    expect(BankRule.canonical(a)).toEqual({ convention: "none", calendar: "every-day", reports: "execution" })
    expect(BankRule.describe(a)).toBe("every day")
  })
  it("a nominal date is the execution date under none, on the same calendar", () => {
    const nominal = BankRule.make({ convention: "following", reports: "nominal" })
    expect(BankRule.equivalent(nominal, BankRule.make({ convention: "none" }))).toBe(true)
    expect(BankRule.equivalent(nominal, BankRule.make({ convention: "none", calendar: Calendar.weekends }))).toBe(false)
    expect(BankRule.describe(nominal)).toBe("following · target · nominal dates")
    expect(BankRule.key(BankRule.defaultRule)).toBe("following|target")
  })
})

describe("BankRule.plan and listedDate", () => {
  // MNTH from 2024-01-31 (target): 31 March 2024 is a Sunday, 29 March Good Friday, 1 April Easter Monday
  const order = { frequency: "MNTH" as const, startDate: d("2024-01-31") }
  it("the spec's worked example under each rule", () => {
    expect(listed(order, BankRule.defaultRule, "2024-03-25")).toBe("2024-04-02")
    expect(listed(order, BankRule.make({ convention: "preceding" }), "2024-03-25")).toBe("2024-03-28")
    expect(listed(order, BankRule.make({ convention: "preceding", calendar: Calendar.weekends }), "2024-03-25")).toBe(
      "2024-03-29"
    )
    expect(listed(order, BankRule.make({ reports: "nominal" }), "2024-03-25")).toBe("2024-03-31")
    expect(listed(order, BankRule.make({ calendar: BankRule.everyDay }), "2024-03-25")).toBe("2024-03-31")
  })
  it("a bank paying every day pays DAIL on weekends and holidays", () => {
    const daily = { frequency: "DAIL" as const, startDate: d("2026-12-24") }
    expect(listed(daily, BankRule.make({ calendar: BankRule.everyDay }), "2026-12-25")).toBe("2026-12-25")
    expect(listed(daily, BankRule.defaultRule, "2026-12-25")).toBe("2026-12-28")
  })
  it("a bank paying every day but its own holidays moves a payment off them by its convention, DAIL skips them", () => {
    // 31 March 2024 (a Sunday) a holiday of this bank: following pays Monday 1 April, preceding Saturday 30 March
    const closed = Calendar.withHolidays(Calendar.everyDay, [d("2024-03-31")], "every-day+1")
    expect(listed(order, BankRule.make({ calendar: closed }), "2024-03-25")).toBe("2024-04-01")
    expect(listed(order, BankRule.make({ convention: "preceding", calendar: closed }), "2024-03-25")).toBe("2024-03-30")
    expect(listed(order, BankRule.make({ convention: "none", calendar: closed }), "2024-03-25")).toBe("2024-03-31")
    const daily = { frequency: "DAIL" as const, startDate: d("2024-03-29") }
    expect(listed(daily, BankRule.make({ calendar: closed }), "2024-03-30")).toBe("2024-03-30")
    expect(listed(daily, BankRule.make({ calendar: closed }), "2024-03-31")).toBe("2024-04-01")
    // Calendar.everyDay itself is the rule every day
    expect(BankRule.key(BankRule.make({ calendar: Calendar.everyDay }))).toBe(
      BankRule.key(BankRule.make({ calendar: BankRule.everyDay }))
    )
    expect(BankRule.describe(BankRule.make({ calendar: closed }))).toBe("following · every-day+1")
  })
  it("equals the reference of the schedule rules: the first date on or after the day", () => {
    fc.assert(
      fc.property(
        frequency,
        date(d("2020-01-01"), d("2027-12-31")),
        date(d("2024-01-01"), d("2027-12-31")),
        convention,
        fc.constantFrom(Calendar.weekends, Calendar.target),
        (f: Frequency.Frequency, start, asOf, conv, calendar) => {
          const rule = BankRule.make({ convention: conv, calendar })
          const ref = refOccurrences(
            { frequency: f, startDate: start },
            calendar,
            conv,
            Math.max(asOf, start) + 400
          ).find((o) => o.execution >= asOf)
          const plan = Result.getOrThrow(BankRule.plan({ frequency: f, startDate: start }, rule))
          expect(BankRule.listedDate(plan, asOf)).toBe(ref?.execution)
          expect(Occurrence.firstExecutionOnOrAfter(plan, asOf)).toBe(ref?.execution)
        }
      ),
      { numRuns: 2000 }
    )
  })
})

describe("BankRule.scheduleOf on an order given as a recurrence", () => {
  const recurrence = {
    rule: { _tag: "Weekly", interval: 2, weekdays: [6] },
    start: d("2027-01-02"),
    convention: "none"
  } as const
  const order = { recurrence }
  it("takes the rule's convention, none for nominal dates and every day; its own when the record states one", () => {
    const preceding = BankRule.make({ convention: "preceding" })
    expect(BankRule.scheduleOf(order, preceding).recurrence.convention).toBe("preceding")
    expect(BankRule.scheduleOf(order, { ...preceding, reports: "nominal" }).recurrence.convention).toBe("none")
    expect(BankRule.scheduleOf(order, BankRule.make({ calendar: BankRule.everyDay })).recurrence.convention).toBe(
      "none"
    )
    const own = {
      ...order,
      recurrence: { ...recurrence, convention: "following" as const },
      ownConvention: true as const
    }
    expect(BankRule.scheduleOf(own, preceding).recurrence.convention).toBe("following")
    expect(BankRule.scheduleOf(own, { ...preceding, reports: "nominal" }).recurrence.convention).toBe("none")
    // Saturday 10 April 2027: listed as Friday the 9th under preceding, Monday the 12th by the record's following
    expect(listed(order, preceding, "2027-04-01")).toBe("2027-04-09")
    expect(listed(own, preceding, "2027-04-01")).toBe("2027-04-12")
    expect(BankRule.scheduleOf(order, BankRule.make({ convention: "none" }))).toBe(order)
  })
})
