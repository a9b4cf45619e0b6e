import { Calendar, DateTrace, LocalDate, Occurrence } from "@tppkit/core"
import { CashFlow, Export, Holidays, Payment, Projection } from "@tppkit/schedule"
import { BigDecimal, Effect, Equal, Result, Stream } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { recurrence } from "../arbitraries/recurrence.ts"

const d = LocalDate.parseUnsafe
const f = LocalDate.format

type Order = Projection.ProjectableOrder

const order = (orderId: string, schedule: Partial<Omit<Order, "orderId">>, amount = "10.00"): Order => ({
  orderId,
  frequency: "MNTH",
  instructedAmount: { value: BigDecimal.fromStringUnsafe(amount), currency: "EUR" },
  debtor: { iban: "SK3112000000198742637541" },
  creditor: { iban: "SK0809000000000123123123", name: "Landlord" },
  ...schedule
})

/** Cash-flow tables by the definition: exact decimal sums, payment by payment, grouped by plain maps. */
const referenceTotals = (payments: ReadonlyArray<Payment.Payment>, period: CashFlow.Period): CashFlow.Totals => {
  const sums = new Map<string, { amount: BigDecimal.BigDecimal; count: number }>()
  const add = (key: string, p: Payment.Payment) => {
    const t = sums.get(key) ?? { amount: BigDecimal.fromBigInt(0n), count: 0 }
    sums.set(key, { amount: BigDecimal.sum(t.amount, p.amount), count: t.count + 1 })
  }
  const starts = new Set<number>()
  for (const p of payments) {
    const start = CashFlow.periodStart(p.executionDate, period)
    starts.add(start)
    add(`c ${p.currency}`, p)
    add(`d ${p.debtorIban} ${p.currency}`, p)
    add(`p ${start} ${p.currency}`, p)
  }
  const currencies = [...new Set(payments.map((p) => p.currency))].sort()
  const debtors = [...new Set(payments.map((p) => p.debtorIban))].sort()
  const total = (key: string, currency: string) => {
    const t = sums.get(key)
    return t === undefined ? [] : [{ currency, amount: BigDecimal.normalize(t.amount), count: t.count }]
  }
  return {
    period,
    count: payments.length,
    byCurrency: currencies.flatMap((c) => total(`c ${c}`, c)),
    byDebtor: debtors.flatMap((iban) =>
      currencies.flatMap((c) => total(`d ${iban} ${c}`, c).map((t) => ({ debtorIban: iban, ...t })))
    ),
    byPeriod: [...starts]
      .sort((a, b) => a - b)
      .flatMap((s) => {
        const start = s as LocalDate.LocalDate
        const label = CashFlow.periodLabel(start, period)
        const end = CashFlow.periodEnd(start, period)
        return currencies.flatMap((c) => total(`p ${s} ${c}`, c).map((t) => ({ label, start, end, ...t })))
      })
  }
}

const execs = (orders: ReadonlyArray<Order>, from: string, to: string): Array<string> =>
  Projection.project(orders, { from: d(from), to: d(to) }).payments.map((p) => f(p.executionDate))

describe("Projection.project: the spec's worked examples (target, following)", () => {
  it.each([
    [
      "MNTH from 2024-01-31",
      { frequency: "MNTH", startDate: d("2024-01-31") },
      "2024-05-31",
      ["2024-01-31", "2024-02-29", "2024-04-02", "2024-04-30", "2024-05-31"]
    ],
    [
      "YEAR from 2024-02-29",
      { frequency: "YEAR", startDate: d("2024-02-29") },
      "2027-12-31",
      ["2024-02-29", "2025-02-28", "2026-03-02", "2027-03-01"]
    ],
    [
      "WEEK from 2026-12-19",
      { frequency: "WEEK", startDate: d("2026-12-19") },
      "2027-01-04",
      ["2026-12-21", "2026-12-28", "2027-01-04"]
    ],
    [
      "DAIL from 2026-12-23",
      { frequency: "DAIL", startDate: d("2026-12-23") },
      "2027-01-04",
      ["2026-12-23", "2026-12-24", "2026-12-28", "2026-12-29", "2026-12-30", "2026-12-31", "2027-01-04"]
    ],
    [
      "DAI7 from 2026-12-31 to 2027-01-02",
      { frequency: "DAI7", startDate: d("2026-12-31"), endDate: d("2027-01-02") },
      "2027-12-31",
      ["2026-12-31", "2027-01-01", "2027-01-02"]
    ]
  ] as const)("%s", (_, schedule, to, expected) => {
    expect(execs([order("A", schedule)], "2024-01-01", to)).toEqual(expected)
  })
})

describe("Projection.project: rules", () => {
  it("anchors on nextDate without startDate and reports orders without both, projecting the others", () => {
    const r = Projection.project(
      [
        order("B", { frequency: "MNTH" }),
        order("A", { frequency: "MNTH", nextDate: d("2026-03-15") }),
        order("C", { frequency: "XXXX" as "MNTH", startDate: d("2026-01-01") })
      ],
      { from: d("2026-01-01"), to: d("2026-05-31") }
    )
    expect(r.payments.map((p) => [p.orderId, f(p.executionDate), p.k])).toEqual([
      ["A", "2026-03-16", 0],
      ["A", "2026-04-15", 1],
      ["A", "2026-05-15", 2]
    ])
    expect(r.skipped.map((s) => s.orderId)).toEqual(["B", "C"])
    expect(r.skipped[0]?.reason).toMatch(/neither startDate nor nextDate/)
  })
  it("leaves out occurrences executing before nextDate (already paid)", () => {
    const o = order("A", { frequency: "MNTH", startDate: d("2026-01-10"), nextDate: d("2026-04-10") })
    expect(execs([o], "2026-01-01", "2026-06-30")).toEqual(["2026-04-10", "2026-05-11", "2026-06-10"])
  })
  it("keeps the window on execution dates, both ends inclusive", () => {
    // nominal 2026-05-31 is a Sunday: executes 2026-06-01, so it belongs to June's window
    const o = order("A", { frequency: "MNTH", startDate: d("2026-01-31") })
    expect(execs([o], "2026-06-01", "2026-06-30")).toEqual(["2026-06-01", "2026-06-30"])
    expect(execs([o], "2026-05-01", "2026-05-31")).toEqual([])
    expect(execs([o], "2026-06-30", "2026-06-29")).toEqual([])
  })
  it("orders by execution date, then orderId, then nominal date, and carries the order's fields", () => {
    const orders = [
      order("b", { frequency: "WEEK", startDate: d("2026-01-03") }, "1.10"), // Saturdays → Mondays
      order("a", { frequency: "DAI7", startDate: d("2026-01-05") }, "2.20"),
      order("c", { frequency: "MNTH", startDate: d("2026-01-04") }, "3.30") // Sunday → Monday
    ]
    const r = Projection.project(
      orders,
      { from: d("2026-01-05"), to: d("2026-01-05") },
      {
        calendar: Calendar.weekends,
        convention: "following"
      }
    )
    expect(r.payments.map((p) => [p.orderId, f(p.nominalDate)])).toEqual([
      ["a", "2026-01-05"],
      ["b", "2026-01-03"],
      ["c", "2026-01-04"]
    ])
    expect(Payment.toPlain(r.payments[1]!)).toEqual({
      orderId: "b",
      k: 0,
      nominalDate: d("2026-01-03"),
      executionDate: d("2026-01-05"),
      provenance: "engine-predicted",
      amount: BigDecimal.fromStringUnsafe("1.10"),
      currency: "EUR",
      debtorIban: "SK3112000000198742637541",
      creditorIban: "SK0809000000000123123123",
      creditorName: "Landlord"
    })
  })
  it("payments are plain data: spread, structuredClone, Equal and JSON show every field", () => {
    const o = order("a", { frequency: "MNTH", startDate: d("2026-01-05") }, "1.10")
    const [p, q] = Projection.project([o], { from: d("2026-01-01"), to: d("2026-02-28") }).payments
    const plain = {
      orderId: "a",
      k: 0,
      nominalDate: d("2026-01-05"),
      executionDate: d("2026-01-05"),
      provenance: "engine-predicted",
      amount: o.instructedAmount.value,
      currency: "EUR",
      debtorIban: "SK3112000000198742637541",
      creditorIban: "SK0809000000000123123123",
      creditorName: "Landlord"
    }
    expect(Object.getPrototypeOf(p)).toBe(Object.prototype)
    expect({ ...p }).toEqual(plain)
    expect({ ...p!, k: 7 }).toEqual({ ...plain, k: 7 })
    expect(Payment.toPlain(p!)).toEqual(plain)
    expect(structuredClone(p)).toEqual(structuredClone(plain))
    expect(Equal.equals(p, { ...plain })).toBe(true)
    expect(JSON.parse(JSON.stringify(p))).toEqual(JSON.parse(JSON.stringify(plain)))
    expect(q!.amount).toBe(p!.amount) // one amount object per order, shared by its payments
  })
  it("orders payments of orders sharing an orderId by nominal date", () => {
    const orders = [
      order("x", { frequency: "MNTH", startDate: d("2026-01-05") }),
      order("x", { frequency: "MNTH", startDate: d("2026-01-03") }) // Saturday → Monday 5th
    ]
    const r = Projection.project(orders, { from: d("2026-01-05"), to: d("2026-01-05") })
    expect(r.payments.map((p) => f(p.nominalDate))).toEqual(["2026-01-03", "2026-01-05"])
  })
  it("parses windows", () => {
    expect(Result.isSuccess(Projection.parseWindow("2026-01-01", "2026-12-31"))).toBe(true)
    expect(Result.isFailure(Projection.parseWindow("2026-12-31", "2026-01-01"))).toBe(true)
    expect(Result.isFailure(Projection.parseWindow("2026-02-30", "2026-03-01"))).toBe(true)
  })
})

// ---------------------------------------------------------------------------
// properties
// ---------------------------------------------------------------------------

const frequencyArb = fc.constantFrom("DAIL", "DAI7", "WEEK", "MNTH", "QUTR", "SEMI", "YEAR" as const)
const dayArb = (lo: string, hi: string) => fc.integer({ min: d(lo), max: d(hi) }).map((n) => n as LocalDate.LocalDate)
const orderArb = fc
  .record(
    {
      orderId: fc.constantFrom("A", "B", "C", "D", "E", "B"),
      frequency: frequencyArb,
      startDate: dayArb("2023-01-25", "2026-12-31"),
      nextDate: dayArb("2024-01-01", "2027-03-31"),
      endDate: dayArb("2024-01-01", "2028-12-31"),
      cents: fc.integer({ min: 1, max: 99_999_999 })
    },
    { requiredKeys: ["orderId", "frequency", "cents"] }
  )
  .map(({ cents, ...rest }) => ({
    ...order(rest.orderId, rest),
    instructedAmount: { value: BigDecimal.make(BigInt(cents), 2), currency: cents % 3 === 0 ? "CZK" : "EUR" }
  }))
const windowArb = fc
  .tuple(dayArb("2023-12-01", "2027-06-30"), fc.integer({ min: -3, max: 200 }))
  .map(([from, len]) => ({ from, to: LocalDate.addDays(from, len) }))
const optionsArb = fc.record({
  calendar: fc.constantFrom(Calendar.target, Calendar.weekends),
  convention: fc.constantFrom("following", "preceding", "modified-following", "modified-preceding", "none" as const)
})

/** The reference: the engine's per-order results, filtered by the rules, sorted by the spec's ordering. */
const reference = (orders: ReadonlyArray<Order>, w: Projection.Window, options: Occurrence.Options) => {
  const out: Array<Payment.Payment> = []
  for (const o of orders) {
    const plan = Occurrence.makePlan(o, options)
    if (Result.isFailure(plan)) continue
    for (const occ of Occurrence.between(plan.success, w.from, w.to)) {
      if (o.nextDate !== undefined && occ.execution < o.nextDate) continue
      out.push({
        orderId: o.orderId,
        k: occ.k,
        nominalDate: occ.nominal,
        executionDate: occ.execution,
        amount: o.instructedAmount.value,
        currency: o.instructedAmount.currency,
        debtorIban: o.debtor.iban,
        creditorIban: o.creditor.iban,
        creditorName: o.creditor.name
      })
    }
  }
  return out.sort(Payment.compare)
}

const keyOf = (p: Payment.Payment) => `${p.orderId}|${p.k}|${p.nominalDate}|${p.executionDate}`

describe("Projection: properties", () => {
  it("equals the union of the engine's per-order results, filtered by the rules and ordered", () => {
    fc.assert(
      fc.property(fc.array(orderArb, { maxLength: 12 }), windowArb, optionsArb, (orders, w, options) => {
        const r = Projection.project(orders, w, options)
        expect(r.payments.map(keyOf)).toEqual(reference(orders, w, options).map(keyOf))
        for (let i = 1; i < r.payments.length; i++) {
          expect(Payment.compare(r.payments[i - 1]!, r.payments[i]!)).toBeLessThanOrEqual(0)
        }
        for (const p of r.payments) expect(p.executionDate >= w.from && p.executionDate <= w.to).toBe(true)
        expect(r.skipped.length).toBe(
          orders.filter((o) => o.startDate === undefined && o.nextDate === undefined).length
        )
      }),
      { numRuns: 400 }
    )
  })
  it("orders any orderIds by UTF-16 code units (long shared prefixes, wide alphabets, duplicates), skipped in input order", () => {
    // one kind of orderId per array, so that some arrays share a long prefix or use a small alphabet
    const kinds = [
      fc.string({ unit: fc.constantFrom("0", "1", "9"), maxLength: 24 }).map((s) => `SO-${"x".repeat(15)}${s}`),
      fc.string({ unit: "binary", maxLength: 4 }),
      fc.string({ unit: fc.constantFrom("a", "b", "\u0000", "\uffff"), maxLength: 20 }),
      fc.constantFrom("", "A", "AA", "B")
    ]
    const ordersArb = fc.constantFrom(...kinds, fc.oneof(...kinds)).chain((idArb) =>
      fc.array(
        fc
          .tuple(orderArb, idArb)
          .map(([o, orderId]) => ({ ...o, orderId, ...(orderId.length % 5 === 0 ? { startDate: undefined } : {}) })),
        { maxLength: 40 }
      )
    )
    const w = { from: d("2026-01-01"), to: d("2026-02-15") }
    const options = { calendar: Calendar.target, convention: "following" } as const
    fc.assert(
      fc.property(ordersArb, (orders) => {
        const r = Projection.project(orders, w, options)
        expect(r.payments.map(keyOf)).toEqual(reference(orders, w, options).map(keyOf))
        const notProjectable = orders.filter((o) => o.startDate === undefined && o.nextDate === undefined)
        expect(r.skipped.map((s) => s.orderId)).toEqual(notProjectable.map((o) => o.orderId))
      }),
      { numRuns: 300 }
    )
  })
  it("long windows with few payments (ordered by a comparison sort) follow the same rules", () => {
    const sparse = orderArb.filter((o) => o.frequency !== "DAIL" && o.frequency !== "DAI7" && o.frequency !== "WEEK")
    const longWindow = fc
      .tuple(dayArb("2023-01-01", "2025-12-31"), fc.integer({ min: 1500, max: 4000 }))
      .map(([from, len]) => ({ from, to: LocalDate.addDays(from, len) }))
    fc.assert(
      fc.property(fc.array(sparse, { maxLength: 6 }), longWindow, optionsArb, (orders, w, options) => {
        const r = Projection.project(orders, w, options)
        expect(r.payments.map(keyOf)).toEqual(reference(orders, w, options).map(keyOf))
        expect([...Projection.lazy(orders, w, options).payments].map(keyOf)).toEqual(r.payments.map(keyOf))
        expect(CashFlow.totals(r.payments, { period: "week" })).toEqual(referenceTotals(r.payments, "week"))
        for (const period of ["day", "week", "month"] as const) {
          expect(Projection.totals(orders, w, { ...options, period })).toEqual(CashFlow.totals(r.payments, { period }))
        }
      }),
      { numRuns: 200 }
    )
  })
  it("Projection.totals count each order period by period or walk it, equal to CashFlow.totals of the payments", () => {
    // windows of a few days to three years, every code, a calendar per currency: orders with more payments than
    // periods are counted per period by the engine, the others walked payment by payment
    const window = fc
      .tuple(dayArb("2024-01-01", "2027-12-31"), fc.integer({ min: 0, max: 1100 }))
      .map(([from, len]) => ({ from, to: LocalDate.addDays(from, len) }))
    const byCurrency = (currency: string) => (currency === "CZK" ? Calendar.weekends : Calendar.target)
    fc.assert(
      fc.property(
        fc.array(orderArb, { maxLength: 8 }),
        window,
        fc.constantFrom("following", "preceding", "modified-following", "none" as const),
        (orders, w, convention) => {
          const options = { calendar: byCurrency, convention }
          const { payments } = Projection.project(orders, w, options)
          for (const period of ["day", "week", "month"] as const) {
            expect(Projection.totals(orders, w, { ...options, period })).toEqual(CashFlow.totals(payments, { period }))
          }
        }
      ),
      { numRuns: 150 }
    )
  })
  it("the lazy merge and the Stream give the same payments in the same order as the array", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(orderArb, { maxLength: 12 }), windowArb, optionsArb, async (orders, w, options) => {
        const array = Projection.project(orders, w, options)
        const lazy = Projection.lazy(orders, w, options)
        expect([...lazy.payments].map(keyOf)).toEqual(array.payments.map(keyOf))
        expect(lazy.skipped).toEqual(array.skipped)
        expect(Projection.skipped(orders, options)).toEqual(array.skipped)
        const streamed = await Effect.runPromise(Stream.runCollect(Projection.stream(orders, w, options)))
        expect(streamed.map(keyOf)).toEqual(array.payments.map(keyOf))
        const days = [...Projection.batches(orders, w, options).batches]
        expect(days.flat().map(keyOf)).toEqual(array.payments.map(keyOf))
        for (const day of days) {
          expect(day.length).toBeGreaterThan(0)
          expect(new Set(day.map((p) => p.executionDate)).size).toBe(1)
        }
        // the engine's columns (read by Export): the same payments (as plain data, every field), one non-empty
        // date at a time in order
        const perDay: Array<number> = []
        const made = Export.make(orders, w, { ...options, onDay: (n) => perDay.push(n) })
        // and then the orders that pay, but not in the window (issue 34), each planned but with no payment in it
        expect(made.skipped.slice(0, array.skipped.length)).toEqual(array.skipped)
        const idle = made.skipped.slice(array.skipped.length)
        const paying = new Set(array.payments.map((p) => p.orderId))
        for (const s of idle)
          expect(paying.has(s.orderId!) && orders.filter((o) => o.orderId === s.orderId).length === 1).toBe(false)
        const viewed = Array.from(Export.payments(made))
        expect(viewed).toEqual(array.payments)
        expect(perDay.every((n) => n > 0)).toBe(true)
        expect(perDay.length).toBe(new Set(array.payments.map((p) => p.executionDate)).size)
        // the totals from the columns are CashFlow's over the payments
        for (const period of ["day", "week", "month"] as const) {
          expect(Projection.totals(orders, w, { ...options, period })).toEqual(
            CashFlow.totals(array.payments, { period })
          )
        }
      }),
      { numRuns: 200 }
    )
  })
  it("a day of many thousand payments reaches lazy and Stream readers in pieces, in the array's order", async () => {
    // 9,000 orders, a third of them sharing orderIds: pieces end between orderIds, never inside one day's group
    const frequencies = ["DAI7", "DAIL", "WEEK", "MNTH"] as const
    const orders = Array.from({ length: 9000 }, (_, i) =>
      order(`SO-${String(i % 3 === 0 ? i % 300 : i).padStart(5, "0")}`, {
        frequency: frequencies[i % 4]!,
        startDate: d(i % 5 === 0 ? "2026-01-05" : "2025-12-29"),
        ...(i % 7 === 0 ? { nextDate: d("2026-01-08") } : {})
      })
    )
    const w = { from: d("2026-01-01"), to: d("2026-01-20") }
    const options = { calendar: Calendar.target, convention: "following" } as const
    const array = Projection.project(orders, w, options).payments.map(keyOf)
    expect([...Projection.lazy(orders, w, options).payments].map(keyOf)).toEqual(array)
    const chunks = await Effect.runPromise(Stream.runCollect(Stream.chunks(Projection.stream(orders, w, options))))
    expect(chunks.flat().map(keyOf)).toEqual(array)
    expect(chunks.length).toBeGreaterThan(w.to - w.from + 1)
    for (const chunk of chunks) {
      expect(new Set(chunk.map((p) => p.executionDate)).size).toBe(1)
      expect(chunk.length).toBeLessThan(4096 + 100)
    }
    const days = [...Projection.batches(orders, w, options).batches]
    expect(days.flat().map(keyOf)).toEqual(array)
    expect(new Set(days.map((day) => day[0]!.executionDate)).size).toBe(days.length)
    // the columns (read by Export) hand on whole dates, read one at a time
    let dates = 0
    const made = Export.make(orders, w, { ...options, onDay: () => dates++ })
    expect(Array.from(Export.payments(made), keyOf)).toEqual(array)
    expect(dates).toBe(days.length)
  })
  it("the lazy merge follows the rules for many daily orders over long windows, on any calendar", () => {
    // DAI7 and DAIL orders move through the merge's runs (every day, every working day), the others through its
    // queue: long windows, many orders joining and leaving, calendars with extra holidays
    const calendarArb = fc.oneof(
      fc.constantFrom(Calendar.target, Calendar.weekends),
      fc
        .array(dayArb("2023-12-01", "2027-12-31"), { maxLength: 30 })
        .map((days) => Calendar.withHolidays(Calendar.target, days))
    )
    const longWindow = fc
      .tuple(dayArb("2023-06-01", "2026-12-31"), fc.integer({ min: 0, max: 900 }))
      .map(([from, len]) => ({ from, to: LocalDate.addDays(from, len) }))
    const mostlyDaily = fc.array(
      fc.tuple(orderArb, fc.constantFrom("DAIL", "DAI7", "DAIL", "DAI7", "WEEK", "MNTH" as const)).map(([o, f]) => ({
        ...o,
        frequency: f
      })),
      { maxLength: 40 }
    )
    fc.assert(
      fc.property(
        mostlyDaily,
        longWindow,
        calendarArb,
        fc.constantFrom("following", "preceding", "none" as const),
        (orders, w, calendar, convention) => {
          const options = { calendar, convention }
          const expected = reference(orders, w, options).map(keyOf)
          expect([...Projection.lazy(orders, w, options).payments].map(keyOf)).toEqual(expected)
          const days = [...Projection.batches(orders, w, options).batches]
          for (const day of days) expect(day.length).toBeGreaterThan(0)
        }
      ),
      { numRuns: 300 }
    )
  })
  it("CashFlow.totals of a projection equal exact sums payment by payment, for any amounts and period", () => {
    // whole cents, more decimals or huge values
    const amountArb = fc.oneof(
      fc.record({ value: fc.bigInt({ min: -99_999_999n, max: 99_999_999n }), scale: fc.integer({ min: -2, max: 2 }) }),
      fc.record({ value: fc.bigInt({ min: 1n, max: 2n ** 70n }), scale: fc.integer({ min: -1, max: 5 }) })
    )
    const withAmount = fc
      .tuple(orderArb, amountArb, fc.constantFrom("EUR", "CZK", "USD"), fc.constantFrom("SK01", "SK02", "CZ03"))
      .map(([o, a, currency, iban]) => ({
        ...o,
        instructedAmount: { value: BigDecimal.make(a.value, a.scale), currency },
        debtor: { iban }
      }))
    fc.assert(
      fc.property(
        fc.array(withAmount, { maxLength: 12 }),
        windowArb,
        optionsArb,
        fc.constantFrom("day", "week", "month" as const),
        (orders, w, options, period) => {
          const { payments } = Projection.project(orders, w, options)
          expect(CashFlow.totals(payments, { period })).toEqual(referenceTotals(payments, period))
          const acc = CashFlow.accumulator({ period })
          for (const p of Projection.lazy(orders, w, options).payments) acc.add(p)
          expect(acc.result()).toEqual(referenceTotals(payments, period))
        }
      ),
      { numRuns: 400 }
    )
  })
  it("CashFlow.totals of a projection's array follow changes made to it", () => {
    fc.assert(
      fc.property(
        fc.array(orderArb, { minLength: 1, maxLength: 12 }),
        windowArb,
        fc.nat(),
        fc.constantFrom("replace", "push", "pop", "amount", "date", "mutate"),
        (orders, w, at, change) => {
          const { payments } = Projection.project(orders, w)
          if (payments.length === 0) return
          const i = at % payments.length
          const p = payments[i]!
          if (change === "replace") payments[i] = { ...p, debtorIban: "CZ99" }
          if (change === "push") payments.push({ ...p, executionDate: LocalDate.addDays(p.executionDate, 1) })
          if (change === "pop") payments.pop()
          if (change === "amount") payments[i] = { ...p, amount: BigDecimal.fromStringUnsafe("0.005") }
          if (change === "date") payments[i] = { ...p, executionDate: LocalDate.addDays(p.executionDate, 1) }
          if (change === "mutate") (payments[i] as { currency: string }).currency = "USD"
          expect(CashFlow.totals(payments, { period: "week" })).toEqual(referenceTotals(payments, "week"))
        }
      ),
      { numRuns: 300 }
    )
  })
  it("CashFlow.totals sums whole cents exactly near the limit of a safe integer", () => {
    // the largest amount a standing order carries ([9.2]), every day of a year
    const big = [order("A", { frequency: "DAI7", startDate: d("2026-01-01") }, "999999999.99")]
    const w = { from: d("2026-01-01"), to: d("2026-12-31") }
    const { payments } = Projection.project(big, w)
    const totals = CashFlow.totals(payments)
    expect(totals).toEqual(referenceTotals(payments, "month"))
    expect(BigDecimal.format(totals.byCurrency[0]!.amount)).toBe("364999999996.35")
  })
  it("skips an amount it cannot project exactly (not a positive [9.2] amount) with its reason, and totals without it", () => {
    const w = { from: d("2026-01-01"), to: d("2026-01-31") }
    const amounts = ["0", "-5", "-12.50", "12.345", "1000000000", "1000000000000000", "10.00"]
    const orders = amounts.map((a, i) => order(`O${i}`, { frequency: "MNTH", startDate: d("2026-01-10") }, a))
    const { payments, skipped } = Projection.project(orders, w)
    expect(payments.map((p) => p.orderId)).toEqual(["O6"])
    expect(skipped.map((s) => s.orderId)).toEqual(["O0", "O1", "O2", "O3", "O4", "O5"])
    expect(skipped.map((s) => s.reason.replace(/ \(format.*$/, ""))).toEqual([
      "instructedAmount.value 0: amount must be positive, got 0",
      "instructedAmount.value -5: amount must be positive, got -5",
      "instructedAmount.value -12.5: amount must be positive, got -12.5",
      "instructedAmount.value 12.345: amount has 3 decimals, at most 2 allowed",
      "instructedAmount.value 1000000000: amount has 10 digits before the decimal point, at most 9 allowed",
      "instructedAmount.value 1000000000000000: amount has 16 digits before the decimal point, at most 9 allowed"
    ])
    expect(Projection.skipped(orders).map((s) => s.orderId)).toEqual(["O0", "O1", "O2", "O3", "O4", "O5"])
    expect(BigDecimal.format(CashFlow.totals(payments).byCurrency[0]!.amount)).toBe("10")
  })
  it("totals of a projection equal the sums of its payments", () => {
    fc.assert(
      fc.property(fc.array(orderArb, { maxLength: 12 }), windowArb, (orders, w) => {
        const { payments } = Projection.project(orders, w)
        const t = CashFlow.totals(payments, { period: "week" })
        for (const c of ["EUR", "CZK"]) {
          const ps = payments.filter((p) => p.currency === c)
          const sum = ps.reduce((a, p) => BigDecimal.sum(a, p.amount), BigDecimal.fromBigInt(0n))
          const total = t.byCurrency.find((x) => x.currency === c)
          expect(total === undefined ? ps.length === 0 : BigDecimal.equals(total.amount, sum)).toBe(true)
        }
      }),
      { numRuns: 200 }
    )
  })
})

describe("Projection with a calendar per currency", () => {
  const inCurrency = (orderId: string, currency: string, startDate: string, frequency: string, value = 100): Order =>
    order(
      orderId,
      {
        startDate: d(startDate),
        frequency: frequency as Order["frequency"],
        instructedAmount: { value: BigDecimal.fromNumberUnsafe(value), currency }
      },
      String(value)
    )
  const dates = (payments: ReadonlyArray<Payment.Payment>) =>
    payments.map((p) => `${p.orderId} ${f(p.nominalDate)}→${f(p.executionDate)}`)
  const orders = [
    inCurrency("SO-CZK", "CZK", "2026-01-28", "MNTH"),
    inCurrency("SO-EUR", "EUR", "2026-01-28", "MNTH"),
    inCurrency("SO-GBP", "GBP", "2026-01-28", "MNTH")
  ]
  const window = { from: d("2026-10-01"), to: d("2026-12-31") }

  it("moves each payment by its own currency's holidays; the default stays TARGET for all", () => {
    const auto = Projection.project(orders, window, { calendar: Holidays.byCurrency() })
    expect(dates(auto.payments)).toEqual([
      "SO-EUR 2026-10-28→2026-10-28",
      "SO-GBP 2026-10-28→2026-10-28",
      "SO-CZK 2026-10-28→2026-10-29", // Czech Independence Day
      "SO-CZK 2026-11-28→2026-11-30",
      "SO-EUR 2026-11-28→2026-11-30",
      "SO-GBP 2026-11-28→2026-11-30",
      "SO-CZK 2026-12-28→2026-12-28",
      "SO-EUR 2026-12-28→2026-12-28",
      "SO-GBP 2026-12-28→2026-12-29" // Boxing Day, substitute
    ])
    const target = Projection.project(orders, window).payments
    expect(target.every((p) => p.nominalDate === p.executionDate || LocalDate.isWeekend(p.nominalDate))).toBe(true)
  })

  it("gives the same payments as projecting each currency alone on its calendar, merged in payment order", () => {
    const frequencies = ["DAIL", "DAI7", "WEEK", "MNTH", "QUTR", "SEMI", "YEAR"]
    const currencies = ["EUR", "CZK", "GBP", "USD", "PLN"]
    const many = Array.from({ length: 40 }, (_, i) =>
      inCurrency(
        `SO-${String(i).padStart(2, "0")}`,
        currencies[i % currencies.length]!,
        `2025-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + ((i * 7) % 28)).padStart(2, "0")}`,
        frequencies[i % frequencies.length]!,
        10 + i
      )
    )
    const year = { from: d("2026-01-01"), to: d("2026-12-31") }
    const unanchored = order("SO-BAD", { frequency: "MNTH" })
    const options = { calendar: Holidays.byCurrency() }
    const auto = Projection.project([...many, unanchored], year, options)
    const expected = currencies
      .flatMap(
        (currency) =>
          Projection.project(
            many.filter((o) => o.instructedAmount.currency === currency),
            year,
            { calendar: Holidays.ofCurrency(currency) }
          ).payments
      )
      .sort(Payment.compare)
    expect(dates(auto.payments)).toEqual(dates(expected))
    for (let i = 1; i < auto.payments.length; i++) {
      expect(Payment.compare(auto.payments[i - 1]!, auto.payments[i]!)).toBeLessThanOrEqual(0)
    }
    expect(auto.skipped.map((s) => s.orderId)).toEqual(["SO-BAD"])
    // every way of reading the projection gives the same payments
    expect(Array.from(Projection.lazy(many, year, options).payments, Payment.toPlain)).toEqual(auto.payments)
    expect(Array.from(Export.payments(Export.make(many, year, options)))).toEqual(auto.payments)
    expect(Projection.totals(many, year, options)).toEqual(CashFlow.totals(auto.payments))
  })

  it("computes the payments lazily", () => {
    const projected = Projection.lazy([inCurrency("A", "EUR", "2025-12-01", "DAIL")], {
      from: d("2026-01-01"),
      to: d("2026-01-31")
    })
    expect(projected.payments.next().done).toBe(false)
  })
})

describe("Projection: provenance", () => {
  it("a payment on the bank's nextDate is bank-confirmed, the others engine-predicted, in every projection", () => {
    // MNTH from 2026-01-15, the bank's nextDate 2026-03-16 (15 March a Sunday); another order without a nextDate
    const orders = [
      order("a", { startDate: d("2026-01-15"), nextDate: d("2026-03-16") }),
      order("b", { startDate: d("2026-03-16") })
    ]
    const window = { from: d("2026-03-01"), to: d("2026-05-31") }
    const expected = [
      ["a", "2026-03-16", "bank-confirmed"],
      ["b", "2026-03-16", "engine-predicted"],
      ["a", "2026-04-15", "engine-predicted"],
      ["b", "2026-04-16", "engine-predicted"],
      ["a", "2026-05-15", "engine-predicted"],
      ["b", "2026-05-18", "engine-predicted"]
    ]
    const rows = (ps: Iterable<Payment.Payment>) => [...ps].map((p) => [p.orderId, f(p.executionDate), p.provenance])
    expect(rows(Projection.project(orders, window).payments)).toEqual(expected)
    expect(rows(Projection.lazy(orders, window).payments)).toEqual(expected)
    expect(rows(Export.payments(Export.make(orders, window)))).toEqual(expected)
    const json = JSON.parse(
      new TextDecoder().decode(Buffer.concat([...Export.json(Export.make(orders, window))].map((c) => Buffer.from(c))))
    )
    expect(json.payments.map((p: { provenance: string }) => p.provenance)).toEqual(expected.map((e) => e[2]))
    expect(Payment.provenanceOf({})).toBe("engine-predicted")
  })
})

describe("Projection.explain", () => {
  const cz = Holidays.nationalUnsafe("CZ")
  const calendars = [Calendar.target, Calendar.weekends, cz, Calendar.withHolidays(Calendar.target, [d("2026-06-15")])]

  it("explains the first projected payment, and the one on a date; names a national holiday", () => {
    // 2026-10-28 is a Wednesday and a Czech state holiday
    const o = order("1", { startDate: d("2026-01-28"), nextDate: d("2026-10-28") })
    const t = Result.getOrThrow(Projection.explain(o, { calendar: () => cz }))!
    expect(f(t.execution)).toBe("2026-10-29")
    expect(t.calendar).toBe("CZ")
    expect(t.passed.map((c) => c.why)).toEqual(["Independent Czechoslovak State Day"])
    expect(t.cut).toEqual({ nextDate: d("2026-10-28"), paid: false })
    expect(f(Result.getOrThrow(Projection.explain(o, {}, d("2026-02-01")))!.execution)).toBe("2026-03-02")
    expect(
      Result.getOrThrow(
        Projection.explain(order("2", { startDate: d("2026-01-01"), endDate: d("2026-01-31") }), {}, d("2026-03-01"))
      )
    ).toBeUndefined()
    expect(Result.isFailure(Projection.explain(order("3", {}), {}))).toBe(true)
    expect(Result.isFailure(Projection.explain(order("4", { startDate: d("2026-01-01") }, "0.001"), {}))).toBe(true)
  })

  it("every payment of a random projection is explained by a trace that replays to its execution date", () => {
    const arbitrary = fc.record({
      orders: fc.array(
        fc.record({
          frequency: fc.constantFrom("DAIL", "DAI7", "WEEK", "MNTH", "QUTR", "SEMI", "YEAR" as const),
          startDate: fc.integer({ min: d("2024-01-01"), max: d("2027-12-31") }),
          next: fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined }),
          end: fc.option(fc.integer({ min: 0, max: 900 }), { nil: undefined })
        }),
        { minLength: 1, maxLength: 30 }
      ),
      calendar: fc.constantFrom(...calendars),
      convention: fc.constantFrom("following", "preceding", "modified-following", "modified-preceding", "none" as const)
    })
    fc.assert(
      fc.property(arbitrary, ({ orders, calendar, convention }) => {
        const list = orders.map((o, i) =>
          order(`o${i}`, {
            frequency: o.frequency,
            startDate: o.startDate as LocalDate.LocalDate,
            ...(o.next === undefined ? {} : { nextDate: (o.startDate + o.next) as LocalDate.LocalDate }),
            ...(o.end === undefined ? {} : { endDate: (o.startDate + o.end) as LocalDate.LocalDate })
          })
        )
        const byId = new Map(list.map((o) => [o.orderId, o]))
        const options = { calendar, convention }
        const { payments } = Projection.project(list, { from: d("2025-01-01"), to: d("2026-12-31") }, options)
        // the payments whose trace is not theirs, asserted once a run (three expects a payment cost most of the time)
        const wrong: Array<unknown> = []
        for (const p of payments) {
          const t = Result.getOrThrow(Projection.explain(byId.get(p.orderId)!, options, p.executionDate))!
          const replayed = DateTrace.replay(t)
          if (
            t.k !== p.k ||
            t.nominal !== p.nominalDate ||
            t.execution !== p.executionDate ||
            (t.cut?.paid ?? false) !== false ||
            !Result.isSuccess(replayed) ||
            replayed.success !== p.executionDate
          ) {
            wrong.push({ payment: p, trace: [t.k, t.nominal, t.execution, t.cut], replayed })
          }
        }
        expect(wrong).toEqual([])
      }),
      { numRuns: 300 }
    )
  })

  it("every payment of a random projection of recurrences (pauses, counts, every rule) is explained and replays", () => {
    fc.assert(
      fc.property(
        fc.array(recurrence, { minLength: 1, maxLength: 12 }),
        fc.constantFrom(Calendar.target, Calendar.weekends, Holidays.nationalUnsafe("SK")),
        (recurrences, calendar) => {
          const list = recurrences.map((r, i) => order(`r${i}`, { frequency: undefined, recurrence: r }))
          const byId = new Map(list.map((o) => [o.orderId, o]))
          const window = { from: d("2024-01-01"), to: d("2025-12-31") }
          const { payments } = Projection.project(list, window, { calendar })
          const seen = new Set<string>()
          const wrong: Array<unknown> = []
          for (const p of payments) {
            // two occurrences a convention moves onto one day: explain traces the first of them
            const key = `${p.orderId} ${p.executionDate}`
            if (seen.has(key)) continue
            seen.add(key)
            const t = Result.getOrThrow(Projection.explain(byId.get(p.orderId)!, { calendar }, p.executionDate))!
            const replayed = DateTrace.replay(t)
            if (
              t.k !== p.k ||
              t.nominal !== p.nominalDate ||
              t.execution !== p.executionDate ||
              t.frequency !== undefined ||
              !Result.isSuccess(replayed) ||
              replayed.success !== p.executionDate
            ) {
              wrong.push({ payment: p, trace: [t.k, t.nominal, t.execution, t.frequency], replayed })
            }
          }
          expect(wrong).toEqual([])
        }
      ),
      { numRuns: 300 }
    )
    // about 1 s: core's plan of a working-day recurrence with a count no longer counts a national calendar's working
    // days to 9999-12-31 (that was most of the 12 s of CPU this test took)
  })
})
