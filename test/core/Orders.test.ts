import { Json, LocalDate, Money, Occurrence, Orders, Standard } from "@tppkit/core"
import { Effect, Result, Stream } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { numeric } from "../arbitraries/numericRecords.ts"

const d = LocalDate.parseUnsafe
const parties = {
  debtor: { name: "A", iban: "SK3112000000198742637541" },
  creditor: { name: "B", iban: "CZ6508000000192000145399" },
  instructedAmount: { value: 12.345, currency: "EUR" }
}

/** The first `n` execution dates of a recurrence, on the weekends-only calendar. */
const dates = (r: Parameters<typeof Occurrence.planOf>[0], n = 6): Array<string> => {
  const plan = Result.getOrThrow(Occurrence.planOf({ ...r, convention: "none" }))
  const out: Array<string> = []
  for (const o of Occurrence.iterate(plan)) {
    if (out.length >= n) break
    out.push(LocalDate.format(o.execution))
  }
  return out
}

const withNoConvention = (r: Record<string, unknown>) => ({ ...r, orderId: "N", ...parties })

describe("Orders: numbers are numbers (issue 33)", () => {
  for (const c of numeric) {
    it(`${c.name}: the same dates read exactly (the CLI's path) and from JSON.parse (a library's)`, () => {
      const text = JSON.stringify([withNoConvention(c.record)])
      const read = Result.getOrThrow(Orders.decode(text, { convention: "none" }))
      expect(read.unread).toEqual([])
      const order = read.orders[0]!
      expect(dates({ ...order.recurrence, convention: "none" }, c.dates.length + 1).slice(0, c.dates.length)).toEqual(
        c.dates
      )
      // as many as the count or end allows
      if (c.dates.length < 6) expect(dates({ ...order.recurrence, convention: "none" }, 10)).toEqual(c.dates)
      const tolerated = order.warnings.filter((w) => w._tag === "Tolerated").map((w) => w.field)
      expect(tolerated).toEqual(c.tolerated === undefined ? [] : [c.tolerated])
      // the library reads JSON.parse's numbers the same, and Json.parse's exact numbers
      for (const record of [
        JSON.parse(JSON.stringify(c.record)),
        Result.getOrThrow(Json.parse(JSON.stringify(c.record))).value
      ]) {
        const decoded = Standard.decode(record, { convention: "none" })
        expect(decoded.translation._tag).not.toBe("Unrepresentable")
        if (decoded.translation._tag !== "Unrepresentable") {
          expect(dates(decoded.translation.value, 10).slice(0, c.dates.length)).toEqual(c.dates)
        }
        expect(decoded.warnings.map((w) => w.field)).toEqual(c.tolerated === undefined ? [] : [c.tolerated])
      }
    })
  }

  it("text where a number is expected is read when it is one, with a warning naming the field", () => {
    const cases: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
      [{ frequency: "monthly", interval: "1", start: "2027-01-15" }, "interval"],
      [
        { frequency: "monthly", endMode: "after_n_occurrences", endOccurrences: "3", start: "2027-01-15" },
        "endOccurrences"
      ],
      [
        {
          requestedExecutionDate: "2027-01-01",
          standingOrder: { execution: { interval: "MONTHLY", intervalDue: "20" }, validity: { maxIterations: "3" } }
        },
        "maxIterations"
      ],
      [
        {
          MandateRelatedInformation: {
            Frequency: { Type: "MNTH", CountPerPeriod: "1" },
            FirstPaymentDateTime: "2027-01-12"
          }
        },
        "CountPerPeriod"
      ],
      [{ frequency: { Prd: { Tp: "MNTH", CntPerPrd: "1" } }, startDate: "2027-01-08" }, "CntPerPrd"]
    ]
    for (const [record, field] of cases) {
      const decoded = Standard.decode(record)
      expect(decoded.translation._tag, field).not.toBe("Unrepresentable")
      expect(
        decoded.warnings.map((w) => [w.field, w.why]),
        field
      ).toEqual([[field, `${field} is a number, not text`]])
    }
  })

  it("a number that is not whole, or not what it says exactly, is refused with the field", () => {
    const refused = [
      { frequency: "monthly", interval: 1.5, start: "2027-01-15" },
      { frequency: "monthly", endMode: "after_n_occurrences", endOccurrences: 2.5, start: "2027-01-15" },
      { frequency: "monthly", patterns: [{ type: "day", value: 1.5 }], start: "2027-01-15" }
    ]
    for (const r of refused) expect(Standard.decode(r).translation._tag).toBe("Unrepresentable")
    const text = `[${JSON.stringify(withNoConvention({ frequency: "monthly", start: "2027-01-15" })).replace(
      '"monthly"',
      '"monthly","interval":1.0000000000000000001'
    )}]`
    const read = Result.getOrThrow(Orders.decode(text))
    expect(read.orders).toEqual([])
    expect(read.unread.map((u) => [u.kind, u.position, u.standard])).toEqual([["schedule", 1, "actual"]])
  })
})

describe("Orders.decoder", () => {
  const text = JSON.stringify([
    { orderId: "S", frequency: "MNTH", startDate: "2027-01-31", endDate: "2027-06-30", ...parties },
    { orderId: "R", rrule: "FREQ=MONTHLY;BYDAY=-1FR", startDate: "2027-01-01", ...parties },
    { orderId: "BAD", frequency: "MNTH", startDate: "2027-02-30", ...parties },
    { orderId: "X", frequency: "INDA", startDate: "2027-01-04", ...parties },
    { orderId: "NA", frequency: "WEEK", ...parties },
    {
      orderId: "BG",
      standingOrderDetails: {
        startDate: "2027-01-01",
        frequency: "Monthly",
        dayOfExecution: "01",
        executionRule: "following"
      },
      ...parties
    }
  ]).replaceAll("12.345", "12.3456789012345678901")

  it("reads each record in its standard: orders with a recurrence, unread records and anchorless orders by position", () => {
    const read = Result.getOrThrow(Orders.decode(text))
    expect(read.orders.map((o) => [o.position, o.orderId, o.standard, o.frequency, o.ownConvention])).toEqual([
      [1, "S", "sbas", "MNTH", false],
      [2, "R", "rrule", undefined, false],
      [6, "BG", "berlin-group", undefined, true]
    ])
    expect(read.orders[0]!.recurrence).toEqual({
      rule: { _tag: "MonthlyOnDay", interval: 1, day: 31, missing: "clamp" },
      start: d("2027-01-31"),
      end: d("2027-06-30"),
      convention: "following"
    })
    // the amount exactly as written
    expect(read.orders.map((o) => Money.toPlainString(o.instructedAmount.value))).toEqual([
      "12.3456789012345678901",
      "12.3456789012345678901",
      "12.3456789012345678901"
    ])
    expect(read.orders[0]!.debtor).toEqual({ name: "A", iban: "SK3112000000198742637541" })
    // one party object per account
    expect(read.orders[1]!.debtor).toBe(read.orders[0]!.debtor)
    expect(read.unread.map((u) => [u.kind, u.position, u.orderId, u.path, u.standard])).toEqual([
      ["record", 3, "BAD", "startDate", undefined],
      ["schedule", 4, "X", "", "iso20022"]
    ])
    expect(read.skipped.map((s) => [s.position, s.orderId, s.reason])).toEqual([
      [5, "NA", "the order has neither startDate nor nextDate to anchor its schedule"]
    ])
    expect(read.orders[2]!.warnings).toEqual([
      {
        _tag: "Tolerated",
        standard: "berlin-group",
        field: "dayOfExecution",
        received: "01",
        read: "1",
        why: "dayOfExecution is text without leading zeroes"
      }
    ])
  })

  it("reads the bank's code in another case with a tolerance naming the field, and the same dates (issue 40)", () => {
    const spelt = (frequency: string) =>
      JSON.stringify([{ orderId: "L", frequency, startDate: "2027-01-31", ...parties }])
    const upper = Result.getOrThrow(Orders.decode(spelt("MNTH"))).orders[0]!
    for (const given of ["mnth", "Mnth", " MNTH "]) {
      const read = Result.getOrThrow(Orders.decode(spelt(given)))
      expect(read.unread).toEqual([])
      const order = read.orders[0]!
      expect([order.standard, order.frequency, order.ownConvention]).toEqual(["sbas", "MNTH", false])
      expect(order.recurrence).toEqual(upper.recurrence)
      expect(order.warnings).toEqual([
        {
          _tag: "Tolerated",
          standard: "sbas",
          field: "frequency",
          received: given,
          read: "MNTH",
          why: "the bank's frequency codes are spelt in upper case (DAIL, DAI7, WEEK, MNTH, QUTR, SEMI, YEAR)"
        }
      ])
    }
    // the upper-case code says nothing; a code that is none of the seven in any case is still refused
    expect(upper.warnings).toEqual([])
    const monthly = Result.getOrThrow(Orders.decode(spelt("mnthly")))
    expect(monthly.orders).toEqual([])
    expect(monthly.unread.map((u) => [u.kind, u.path])).toEqual([["record", "frequency"]])
  })

  it("gives the same items wherever the text is cut, as text or bytes, and as a stream", () => {
    const whole = Result.getOrThrow(Orders.decode(text))
    const key = (i: Orders.Item) =>
      i._tag === "Order" ? `${i._tag}${i.position}${JSON.stringify(i.recurrence)}` : JSON.stringify(i)
    const wholeKeys = [...whole.orders, ...whole.unread, ...whole.skipped].map(key).sort()
    const bytes = new TextEncoder().encode(text)
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 6 }),
        fc.boolean(),
        (cuts, asBytes) => {
          const at = [0, ...[...cuts].sort((a, b) => a - b), bytes.length]
          const items = Effect.runSync(
            Stream.runCollect(
              Orders.stream(
                Stream.fromIterable(
                  at
                    .slice(1)
                    .map((end, i) =>
                      asBytes ? bytes.slice(at[i], end) : new TextDecoder().decode(bytes.slice(at[i], end))
                    )
                )
              )
            )
          )
          expect(items.map(key).sort()).toEqual(wholeKeys)
        }
      ),
      { numRuns: 200 }
    )
  })

  it("reads a page of the bank's list the same way, and says why a text is no list", () => {
    const page = `{"pageCount":"x","standingOrders":${text}}`
    const read = Result.getOrThrow(Orders.decode(page, { body: true }))
    expect(read.orders).toHaveLength(3)
    expect(read.unread[0]).toMatchObject({ kind: "list", position: undefined, path: "pageCount" })
    expect(Result.getOrThrow(Orders.decode('{"pageCount":2}', { body: true })).listMissing).toBe(true)
    const no = Orders.decode('{"pageCount":2}')
    expect(Result.isFailure(no) && no.failure._tag).toBe("NotAList")
    const stream = Effect.runSync(Effect.flip(Stream.runCollect(Orders.stream(Stream.make("{]")))))
    expect(stream._tag).toBe("NotAList")
  })

  it("moves an order that leaves its convention to the bank, never one that states its own", () => {
    const read = Result.getOrThrow(Orders.decode(text))
    const [s, r, bg] = read.orders
    expect(Orders.withConvention(r!, "preceding").recurrence.convention).toBe("preceding")
    expect(Orders.withConvention(bg!, "preceding")).toBe(bg)
    expect(Orders.withConvention(s!, "preceding")).toBe(s)
  })
})
