import { Json, LocalDate, Money, Occurrence, Orders, Recurrence, Sbas, Standard, Translation } from "@tppkit/core"
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
          standingOrder: {
            execution: { interval: "MONTHLY", intervalDue: "20", mode: "AFTER_MAX_ITERATION_EXCEEDED" },
            validity: { maxIterations: "3" }
          }
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

describe("Orders.translation: an order's recurrence as a translation reads it (issue 33)", () => {
  const read = Result.getOrThrow(
    Orders.decode(
      JSON.stringify([
        { orderId: "S", frequency: "MNTH", startDate: "2027-01-05", ...parties },
        { orderId: "R", rrule: "FREQ=MONTHLY;BYMONTHDAY=5", startDate: "2027-01-05", ...parties },
        {
          orderId: "BG",
          standingOrderDetails: { startDate: "2027-01-05", frequency: "Monthly", executionRule: "preceding" },
          ...parties
        }
      ])
    )
  )
  const [s, r, bg] = read.orders

  it("a code as the bank's codes say it on the calendar, any other with the convention its record leaves", () => {
    const options = { convention: "preceding", calendar: "target" } as const
    const coded = Orders.translation(s!, options)
    expect(coded).toEqual(
      Sbas.decode({ frequency: "MNTH", startDate: d("2027-01-05") }, { convention: "preceding", calendar: "target" })
    )
    const rrule = Orders.translation(r!, options)
    expect(rrule._tag === "Exact" && rrule.value.convention).toBe("preceding")
    // a record that states its own convention keeps it
    expect(Orders.translation(bg!, { convention: "following" })).toEqual(Translation.exact(bg!.recurrence))
  })

  it("names the bank's own closing days where they move a payment; the anchorless record is unrepresentable", () => {
    // Friday 5 February 2027 closed: the payment moves to Monday the 8th
    const t = Orders.translation(s!, { convention: "following", holidays: [d("2027-02-05")] })
    expect(t._tag === "Lossy" && t.losses.map((l) => l.field)).toEqual(["holidays"])
    expect(Orders.translation(s!, { convention: "following", holidays: [d("2027-02-06")] })._tag).toBe("Exact")
    expect(Orders.translation({ frequency: "MNTH" }, { convention: "following" })._tag).toBe("Unrepresentable")
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
    expect(
      read.orders.map((o) => [o.position, o.orderId, o.standard, Recurrence.code(o.recurrence), o.ownConvention])
    ).toEqual([
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
      expect([order.standard, Recurrence.code(order.recurrence), order.ownConvention]).toEqual(["sbas", "MNTH", false])
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

  it("gathers the items as a command uses them: the orders in position order, then what is not read by kind", () => {
    const amount = { value: "10.00", currency: "EUR" }
    const records = [
      { orderId: "S", standard: "rrule", rrule: "FREQ=MONTHLY", ...parties, instructedAmount: amount },
      { orderId: "G", frequency: "MNTH", startDate: "2027-01-01", ...parties, instructedAmount: amount },
      { orderId: "R", frequency: "MNTH", startDate: "2027-01-01", ...parties, instructedAmount: { value: "x" } },
      { orderId: "A", frequency: "MNTH", ...parties, instructedAmount: amount },
      { orderId: "H", frequency: "WEEK", startDate: "2027-01-01", ...parties, instructedAmount: amount }
    ]
    const page = `{"pageCount":"x","standingOrders":${JSON.stringify(records)}}`
    const unreadOf = (unread: ReadonlyArray<Orders.Unread>) => unread.map((u) => [u.kind, u.orderId])
    // the list's problems, then the records that are no order, then the schedules that cannot be said
    const expected = [
      ["list", undefined],
      ["record", "R"],
      ["schedule", "S"]
    ]
    const whole = Result.getOrThrow(Orders.decode(page, { body: true }))
    expect(unreadOf(whole.unread)).toEqual(expected)
    expect([whole.orders.map((o) => o.orderId), whole.skipped.map((s) => s.orderId)]).toEqual([["G", "H"], ["A"]])
    // gathered for a projection: the anchorless record among the orders, where it stands, for the projection to list
    const gathered = Effect.runSync(Orders.gather(Orders.stream(Stream.make(page), { body: true })))
    expect(unreadOf(gathered.unread)).toEqual(expected)
    expect([gathered.orders.map((o) => o.orderId), gathered.skipped]).toEqual([["G", "A", "H"], []])
    // a text that turns out to be no list: the records read before are kept when its failure is caught
    const cut = JSON.stringify(records.slice(1, 2)).slice(0, -1)
    const kept = Effect.runSync(
      Orders.gather(Orders.stream(Stream.make(cut)).pipe(Stream.catchTag("NotAList", () => Stream.empty)))
    )
    expect(kept.orders.map((o) => o.orderId)).toEqual(["G"])
    expect(Effect.runSync(Effect.flip(Orders.gather(Orders.stream(Stream.make(cut)))))._tag).toBe("NotAList")
  })

  it("moves an order that leaves its convention to the bank, never one that states its own", () => {
    const read = Result.getOrThrow(Orders.decode(text))
    const [s, r, bg] = read.orders
    expect(Orders.withConvention(r!, "preceding").recurrence.convention).toBe("preceding")
    expect(Orders.withConvention(bg!, "preceding")).toBe(bg)
    // the bank's code leaves it to the bank too: moved, its code kept (the engine's fast path), its fields the same
    const moved = Orders.withConvention(s!, "preceding")
    expect([moved.recurrence.convention, Recurrence.code(moved.recurrence), moved._tag, moved.orderId]).toEqual([
      "preceding",
      "MNTH",
      "Order",
      s!.orderId
    ])
    expect(moved.recurrence).toEqual({ ...s!.recurrence, convention: "preceding" })
    expect(Orders.withConvention(s!, "following")).toBe(s)
    expect(Orders.withConvention(moved, "preceding")).toBe(moved)
    // DAIL and DAI7 fix their dates: never moved
    const daily = Result.getOrThrow(
      Orders.decode(JSON.stringify([{ orderId: "D", frequency: "DAIL", startDate: "2027-01-01", ...parties }]))
    ).orders[0]!
    expect(Orders.withConvention(daily, "preceding")).toBe(daily)
    // a list moved at once: each as alone, a value that is no order as it is, the same array when nothing moves
    const anchorless = { orderId: "N", frequency: "MNTH" }
    const all = Orders.withConventions([s!, anchorless, bg!], "preceding")
    expect(all).toEqual([moved, anchorless, bg])
    expect(all[1]).toBe(anchorless)
    const none = [s!, bg!]
    expect(Orders.withConventions(none, "following")).toBe(none)
  })

  it("plans the bank's order as its record under the projection's convention, and renames it keeping its code", () => {
    const record = { orderId: "M", frequency: "MNTH" as const, startDate: "2027-01-31", ...parties }
    const order = Result.getOrThrow(Orders.decode(JSON.stringify([record]))).orders[0]!
    expect(Occurrence.codeOf(order)).toBe("MNTH")
    const dates = (o: Occurrence.OrderSchedule, convention: "preceding" | "following") => {
      const plan = Result.getOrThrow(Occurrence.makePlan(o, { convention }))
      return Occurrence.between(plan, d("2027-01-01"), d("2028-12-31")).map((x) => x.execution)
    }
    const bank = { frequency: "MNTH" as const, startDate: d("2027-01-31") }
    for (const convention of ["preceding", "following"] as const) {
      expect(dates(order, convention)).toEqual(dates(bank, convention))
      expect(Occurrence.recurrenceOf(order, convention)?.convention).toBe(convention)
    }
    const renamed = Orders.withOrderId(order, "M#2")
    expect([renamed.orderId, renamed._tag, Occurrence.codeOf(renamed), renamed.position]).toEqual([
      "M#2",
      "Order",
      "MNTH",
      order.position
    ])
    expect(renamed.recurrence).toEqual(order.recurrence)
  })
})

describe("Orders: read but paying nothing is skipped with its reason, never dropped (issue 34)", () => {
  const bank = (orderId: string, fields: Record<string, unknown>) => ({ orderId, ...parties, ...fields })

  it("the bank's record whose endDate is before its startDate (or nextDate) is Skipped, the others read", () => {
    const text = JSON.stringify([
      bank("A", { frequency: "MNTH", startDate: "2026-03-01", endDate: "2026-01-01" }),
      bank("B", { frequency: "MNTH", nextDate: "2026-03-01", endDate: "2026-02-28" }),
      bank("C", { frequency: "MNTH", startDate: "2026-03-01", endDate: "2026-03-01" })
    ])
    const read = Result.getOrThrow(Orders.decode(text))
    expect(read.orders.map((o) => o.orderId)).toEqual(["C"])
    expect(read.unread).toEqual([])
    expect(read.skipped.map((s) => [s.position, s.orderId, s.reason])).toEqual([
      [1, "A", "endDate 2026-01-01 is before startDate 2026-03-01: the order never pays"],
      [2, "B", "endDate 2026-02-28 is before nextDate 2026-03-01: the order never pays"]
    ])
  })

  it("another standard's order whose end is before its start, or whose rule reaches no date by its end, is Skipped", () => {
    const text = JSON.stringify([
      bank("R", { rrule: "DTSTART;VALUE=DATE:20260301\nRRULE:FREQ=MONTHLY", endDate: "2026-02-01" }),
      bank("T", { rrule: "DTSTART;VALUE=DATE:20260301\nRRULE:FREQ=MONTHLY;BYMONTHDAY=31", endDate: "2026-03-15" }),
      bank("U", { rrule: "DTSTART;VALUE=DATE:20260301\nRRULE:FREQ=MONTHLY", endDate: "2026-03-01" })
    ])
    const read = Result.getOrThrow(Orders.decode(text, { convention: "none" }))
    expect(read.orders.map((o) => o.orderId)).toEqual(["U"])
    expect(read.skipped.map((s) => [s.orderId, s.reason])).toEqual([
      ["R", "rrule: its schedule ends on 2026-02-01, before it starts on 2026-03-01: the order never pays"],
      [
        "T",
        "rrule: its rule (every month on day 31) reaches no date from 2026-03-01 to 2026-03-15: the order never pays"
      ]
    ])
  })
})

describe("Orders: an orderId several records give (issue 34)", () => {
  const orders = [
    { orderId: "RENT", position: 1 },
    { orderId: "GYM", position: 2 },
    { orderId: "RENT", position: 4 },
    // a UK order's own final payment: the same record, the same position
    { orderId: "RENT", position: 4 },
    { orderId: "A#2", position: 5 }
  ]

  it("repeated names each such orderId with its records' positions; keys number them ID#N", () => {
    expect(Orders.repeated(orders)).toEqual([{ orderId: "RENT", positions: [1, 4] }])
    expect(Orders.keys(orders)).toEqual(["RENT#1", "GYM", "RENT#2", "RENT#2", "A#2"])
    expect(Orders.repeated(orders.slice(0, 2))).toEqual([])
  })

  it("keyed gives each order under its key, and the orders themselves when none repeats", () => {
    expect(Orders.keyed(orders).map((o) => [o.orderId, o.position])).toEqual([
      ["RENT#1", 1],
      ["GYM", 2],
      ["RENT#2", 4],
      ["RENT#2", 4],
      ["A#2", 5]
    ])
    const once = orders.slice(0, 2)
    expect(Orders.keyed(once)).toBe(once)
  })

  it("keys number each orderId's records on their own, unpositioned ones too: A, A, B, B is A#1, A#2, B#1, B#2", () => {
    const unpositioned = [{ orderId: "A" }, { orderId: "A" }, { orderId: "B" }, { orderId: "B" }]
    expect(Orders.keys(unpositioned)).toEqual(["A#1", "A#2", "B#1", "B#2"])
    expect(Orders.keys([{ orderId: "A", position: 1 }, { orderId: "A" }, { orderId: "B" }, { orderId: "B" }])).toEqual([
      "A#1",
      "A#2",
      "B#1",
      "B#2"
    ])
  })

  it("keys number each orderId's records from 1 on their own, and each key picks its record (property)", () => {
    const order = fc.record({
      orderId: fc.constantFrom("A", "B", "C"),
      position: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined })
    })
    fc.assert(
      fc.property(fc.array(order, { maxLength: 12 }), (orders) => {
        // the record each order is: the first with its orderId and position, one without a position its own
        const record = orders.map((o, i) =>
          o.position === undefined ? i : orders.findIndex((x) => x.orderId === o.orderId && x.position === o.position)
        )
        const records = new Map<string, Array<number>>()
        orders.forEach((o, i) => {
          const own = records.get(o.orderId) ?? []
          if (!own.includes(record[i]!)) own.push(record[i]!)
          records.set(o.orderId, own)
        })
        const expected = orders.map((o, i) => {
          const own = records.get(o.orderId)!
          return own.length === 1 ? o.orderId : `${o.orderId}#${own.indexOf(record[i]!) + 1}`
        })
        const keys = Orders.keys(orders)
        if (keys.join() !== expected.join()) return false
        return keys.every((k, i) => {
          const picked = Orders.pick(orders, k)
          return picked._tag === "Found" && record[orders.indexOf(picked.order)] === record[i]
        })
      }),
      { numRuns: 10_000 }
    )
  })

  it("pick refuses an ambiguous orderId with the positions, and takes ID#N as the N-th record", () => {
    expect(Orders.pick(orders, "RENT")).toEqual({ _tag: "Ambiguous", positions: [1, 4] })
    expect(Orders.pick(orders, "RENT#2")).toEqual({ _tag: "Found", order: orders[2] })
    expect(Orders.pick(orders, "RENT#1")).toEqual({ _tag: "Found", order: orders[0] })
    expect(Orders.pick(orders, "RENT#3")._tag).toBe("None")
    expect(Orders.pick(orders, "RENT#02")._tag).toBe("None")
    expect(Orders.pick(orders, "GYM")).toEqual({ _tag: "Found", order: orders[1] })
    // an orderId with # in it is found as it is
    expect(Orders.pick(orders, "A#2")).toEqual({ _tag: "Found", order: orders[4] })
  })
})

describe("Orders: refusals name the field and the value as given, in words; RDATE is paid (issue 34)", () => {
  const read = (records: ReadonlyArray<unknown>) => Result.getOrThrow(Orders.decode(JSON.stringify(records)))

  it("a five-digit year, a look-alike letter in FREQ, a UK Frequency given as a number", () => {
    const r = read([
      { orderId: "Y", frequency: "MNTH", startDate: "20260-01-05", ...parties },
      { orderId: "F", rrule: "DTSTART;VALUE=DATE:20260105\nRRULE:FREQ=M\u041eNTHLY", ...parties },
      {
        StandingOrderId: "U",
        Reference: "Rent",
        Frequency: 5,
        FirstPaymentDateTime: "2026-01-05T00:00:00+00:00",
        NextPaymentAmount: { Amount: "10.00", Currency: "GBP" }
      }
    ])
    const reasons = r.unread.map((u) => [u.orderId, u.path, u.reason])
    expect(reasons[0]).toEqual([
      "Y",
      "startDate",
      '"20260-01-05" is not a date written YYYY-MM-DD (a year of four digits 0001 to 9999, a month 01 to 12, a day 01 to 31)'
    ])
    expect(reasons[1]).toEqual([
      "F",
      "",
      'FREQ "M\u041eNTHLY" is not an RFC 5545 frequency: "\u041e" (U+041E) is not a Latin letter'
    ])
    expect(reasons[2]![2]).toMatch(/^Frequency 5 is a number, not a frequency: UK v3 writes a text such as "EvryDay"/)
    for (const [, , reason] of reasons) {
      expect(reason).not.toMatch(/RegExp|time of day|undefined/)
    }
  })

  it("an RRULE's RDATEs are payments of their own (the same orderId and position); one the rule pays or an EXDATE is not", () => {
    const r = read([
      {
        orderId: "RD",
        rrule:
          "DTSTART;VALUE=DATE:20260105\nRRULE:FREQ=MONTHLY;COUNT=3\nRDATE;VALUE=DATE:20260320,20260205,20260401\nEXDATE;VALUE=DATE:20260401",
        ...parties
      }
    ])
    expect(r.orders.map((o) => [o.orderId, o.position, LocalDate.format(o.recurrence.start)])).toEqual([
      ["RD", 1, "2026-01-05"],
      ["RD", 1, "2026-03-20"]
    ])
    expect(dates(r.orders[1]!.recurrence)).toEqual(["2026-03-20"])
    expect(Orders.repeated(r.orders)).toEqual([])
  })
})
