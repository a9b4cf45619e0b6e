import { LocalDate } from "@tppkit/core"
import { ICalendar, type Payment } from "@tppkit/schedule"
import { BigDecimal } from "effect"
import * as fc from "fast-check"
import ICAL from "ical.js"
import { describe, expect, it } from "vitest"

const d = LocalDate.parseUnsafe
const payment = (over: Partial<Payment.Payment> = {}): Payment.Payment => ({
  orderId: "SO-1",
  k: 2,
  nominalDate: d("2026-03-01"),
  executionDate: d("2026-03-02"),
  amount: BigDecimal.fromStringUnsafe("1250.5"),
  currency: "EUR",
  debtorIban: "SK3112000000198742637541",
  creditorIban: "SK0809000000000123123123",
  creditorName: "Žilinská energetika, a.s.; Bytové družstvo \\ Správa",
  ...over
})

const parse = (text: string) => {
  const cal = new ICAL.Component(ICAL.parse(text))
  return cal.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v))
}

describe("ICalendar.fromPayments", () => {
  it("writes all-day events that ical.js reads back with the same values", () => {
    const ps = [
      payment(),
      payment({ orderId: "SO,2;x", k: 0, creditorName: undefined, amount: BigDecimal.fromStringUnsafe("7") })
    ]
    const text = ICalendar.fromPayments(ps, { stampMillis: 1_767_225_600_000 })
    const events = parse(text)
    expect(events).toHaveLength(2)
    const [a, b] = events
    expect(a?.uid).toBe("SO-1-20260301@tppkit")
    expect(a?.startDate.isDate).toBe(true)
    expect(a?.startDate.toString()).toBe("2026-03-02")
    expect(a?.endDate.toString()).toBe("2026-03-03")
    expect(a?.summary).toBe("Standing order 1250.50 EUR to Žilinská energetika, a.s.; Bytové družstvo \\ Správa")
    expect(a?.description).toContain("From: SK3112000000198742637541\nTo: Žilinská energetika")
    expect(a?.description).toContain("Standing order: SO-1, occurrence 2")
    expect(b?.uid).toBe("SO%2C2%3Bx-20260301@tppkit")
    expect(b?.summary).toBe("Standing order 7.00 EUR to SK0809000000000123123123")
    expect(text).toContain("DTSTAMP:20260101T000000Z\r\n")
  })
  it("says where each date comes from: bank-confirmed, predicted, or predicted and moved by the rule (escaped)", () => {
    const rule = "modified-following · target+a,b;c\\d"
    const ps = [
      payment({ provenance: "bank-confirmed" }),
      payment({ orderId: "SO-2" }),
      payment({ orderId: "SO-3", executionDate: d("2026-03-01") })
    ]
    const text = ICalendar.fromPayments(ps, { rule })
    const [confirmed, moved, kept] = parse(text)
    expect(confirmed?.description.split("\n").at(-1)).toBe(
      "Date: bank-confirmed (the bank lists it as the order's nextDate)"
    )
    // ical.js unescapes the TEXT value: the rule reads back exactly
    expect(moved?.description.split("\n").at(-1)).toBe(`Date: engine-predicted, moved off the nominal date by ${rule}`)
    expect(kept?.description.split("\n").at(-1)).toBe("Date: engine-predicted")
    const values = (name: string) =>
      new ICAL.Component(ICAL.parse(text)).getAllSubcomponents("vevent").map((v) => v.getFirstPropertyValue(name))
    expect(values("x-tppkit-provenance")).toEqual(["bank-confirmed", "engine-predicted", "engine-predicted"])
    expect(text).toContain("target+a\\,b\\;c\\\\d")
    // without a rule a moved date is only predicted
    expect(
      parse(ICalendar.fromPayments([payment()]))[0]
        ?.description.split("\n")
        .at(-1)
    ).toBe("Date: engine-predicted")
  })

  it("uses CRLF only and folds every line at 75 octets without splitting characters", () => {
    const text = ICalendar.fromPayments([payment(), payment({ creditorName: "€".repeat(100) })])
    expect(text.endsWith("\r\n")).toBe(true)
    const lines = text.slice(0, -2).split("\r\n")
    for (const line of lines) {
      expect(line).not.toMatch(/[\r\n]/)
      expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75)
    }
    expect(lines.some((l) => l.startsWith(" "))).toBe(true)
    expect(parse(text)[1]?.summary).toBe(`Standing order 1250.50 EUR to ${"€".repeat(100)}`)
  })
  it("gives the same UID to the same payment and different UIDs to different payments", () => {
    expect(ICalendar.uid(payment())).toBe(ICalendar.uid(payment({ k: 7 })))
    expect(ICalendar.uid(payment())).not.toBe(ICalendar.uid(payment({ nominalDate: d("2026-04-01") })))
  })
  it("formats amounts exactly with at least two decimals", () => {
    const f = (s: string) => ICalendar.formatAmount(BigDecimal.fromStringUnsafe(s))
    expect([f("0"), f("0.5"), f("1250.50"), f("100"), f("0.125"), f("-3"), f("-0.01")]).toEqual([
      "0.00",
      "0.50",
      "1250.50",
      "100.00",
      "0.125",
      "-3.00",
      "-0.01"
    ])
  })
  it("property: any text survives escaping, folding and parsing", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (name) => {
        const text = ICalendar.fromPayments([payment({ creditorName: name })])
        for (const line of text.slice(0, -2).split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75)
        expect(parse(text)[0]?.summary).toBe(`Standing order 1250.50 EUR to ${name.replace(/\r\n|\r/g, "\n")}`)
      }),
      { numRuns: 300 }
    )
  })
})
