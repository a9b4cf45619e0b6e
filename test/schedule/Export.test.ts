import { Calendar, LocalDate } from "@tppkit/core"
import { Export, Holidays, ICalendar, Payment, Projection } from "@tppkit/schedule"
import { BigDecimal, Effect, Stream } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Oracle from "./exportOracle.ts"

const d = LocalDate.parseUnsafe

const frequencies = ["DAIL", "DAI7", "WEEK", "MNTH", "QUTR", "SEMI", "YEAR"] as const
const ibans = ["SK2411000000002612345678", "CZ5508000000001234567899", "SK6609000000005012345678"] as const
const day = (lo: string, hi: string) => fc.integer({ min: d(lo), max: d(hi) }).map((n) => n as LocalDate.LocalDate)

const order: fc.Arbitrary<Projection.ProjectableOrder> = fc
  .record(
    {
      // few orderIds, so that orders share them
      orderId: fc.constantFrom("SO-1", "SO-2", "SO-3", "SO-é", "SO-\u{1f600}", 'SO-"q"'),
      frequency: fc.constantFrom(...frequencies),
      startDate: day("2025-06-01", "2026-09-30"),
      endDate: day("2025-09-01", "2027-06-30"),
      nextDate: day("2025-06-01", "2026-12-31"),
      cents: fc.integer({ min: 1, max: 10_000_000 }),
      currency: fc.constantFrom("EUR", "CZK"),
      debtor: fc.constantFrom(...ibans),
      creditor: fc.constantFrom(...ibans),
      name: fc.string({ maxLength: 8, unit: "grapheme" })
    },
    { requiredKeys: ["orderId", "frequency", "startDate", "cents", "currency", "debtor", "creditor"] }
  )
  .map((o) => ({
    orderId: o.orderId,
    frequency: o.frequency,
    startDate: o.startDate,
    endDate: o.endDate,
    nextDate: o.nextDate,
    instructedAmount: { value: BigDecimal.make(BigInt(o.cents), 2), currency: o.currency },
    debtor: { iban: o.debtor },
    creditor: { iban: o.creditor, name: o.name }
  }))

const settings = fc.record({
  from: day("2025-10-01", "2026-12-31"),
  span: fc.integer({ min: 0, max: 200 }),
  calendar: fc.constantFrom<Calendar.Calendar | ((currency: string) => Calendar.Calendar)>(
    Calendar.target,
    Calendar.weekends,
    Holidays.nationalUnsafe("SK"),
    Holidays.byCurrency()
  ),
  convention: fc.constantFrom("following", "modified-following", "preceding", "modified-preceding", "none" as const)
})

/** What the documents of a projection should say: its payments read one by one, as `Projection.project` gives them. */
const expected = (
  orders: ReadonlyArray<Projection.ProjectableOrder>,
  window: Projection.Window,
  options: Export.Options,
  calendar: string
) => {
  const projected = Projection.project(orders, window, options)
  return {
    projected,
    document: {
      ...window,
      calendar,
      convention: options.convention ?? "following",
      payments: projected.payments,
      skipped: [...(options.skipped ?? []), ...projected.skipped]
    } satisfies Oracle.Document
  }
}

describe("Export", () => {
  it("writes the same JSON, CSV and iCalendar bytes as the payments read one by one", () => {
    let lines = 0
    fc.assert(
      fc.property(fc.array(order, { maxLength: 25 }), settings, (orders, g) => {
        const window = { from: g.from, to: LocalDate.addDays(g.from, g.span) }
        const options = {
          calendar: g.calendar,
          convention: g.convention,
          calendarName: "label",
          skipped: [{ orderId: "SO-0", reason: "record 0: not decoded" }]
        }
        const { projected, document: own } = expected(orders, window, options, "label")
        const made = Export.make(orders, window, options)
        // then each order that pays, but not in the window, in input order (issue 34): an order projected alone
        const span = `${LocalDate.format(window.from)} to ${LocalDate.format(window.to)}`
        const idle = orders.filter((o) => {
          const alone = Projection.project([o], window, options)
          return alone.skipped.length === 0 && alone.payments.length === 0
        })
        const rest = made.skipped.slice(own.skipped.length)
        expect(made.skipped.slice(0, own.skipped.length)).toEqual(own.skipped)
        expect(rest.map((s) => s.orderId)).toEqual(idle.map((o) => o.orderId))
        for (const s of rest) expect(s.reason.startsWith(`no payment in this window (${span}): `)).toBe(true)
        const document = { ...own, skipped: made.skipped }
        const json = Oracle.bytesOf(Export.json(made)).toString("utf8")
        expect(json).toEqual(Oracle.json(document))
        const csv = Oracle.bytesOf(Export.csv(made)).toString("utf8")
        expect(csv).toEqual(Oracle.csv(document))
        expect(Oracle.bytesOf(Export.ics(made)).toString("utf8")).toEqual(ICalendar.fromPayments(projected.payments))
        expect(Array.from(Export.payments(made), Payment.toPlain)).toEqual(projected.payments.map(Payment.toPlain))
        lines += csv.split("\r\n").length - 2
      }),
      { numRuns: 150 }
    )
    // the generated orders do pay: thousands of lines in all
    expect(lines).toBeGreaterThan(1000)
  })

  it("names the calendar and the convention as given, or by default", () => {
    const window = { from: d("2026-01-01"), to: d("2026-01-31") }
    const one = Export.make([], window)
    expect([one.calendarName, one.convention]).toEqual(["target", "following"])
    expect(Export.make([], window, { calendar: Holidays.nationalUnsafe("SK") }).calendarName).toBe("SK")
    expect(Export.make([], window, { calendar: Holidays.byCurrency() }).calendarName).toBe("auto")
    const text = Oracle.bytesOf(Export.json(Export.make([], window, { calendarName: "mine" }))).toString("utf8")
    expect(JSON.parse(text)).toMatchObject({ calendar: "mine", payments: [], skipped: [], totals: [] })
  })

  it("can be written again, as a Stream of chunks each of its own, and counts the payments of each day", async () => {
    const orders = Array.from({ length: 3000 }, (_, i) => ({
      orderId: `SO-${i}`,
      frequency: frequencies[i % frequencies.length]!,
      startDate: d("2026-01-05"),
      instructedAmount: { value: BigDecimal.make(BigInt(100 + i), 2), currency: i % 2 === 0 ? "EUR" : "CZK" },
      debtor: { iban: ibans[i % 3]! },
      creditor: { iban: ibans[(i + 1) % 3]!, name: `Creditor ${i}` }
    }))
    let counted = 0
    const made = Export.make(
      orders,
      { from: d("2026-01-01"), to: d("2026-06-30") },
      {
        onDay: (n) => {
          counted += n
        }
      }
    )
    const once = Oracle.bytesOf(Export.json(made))
    expect(once.length).toBeGreaterThan(3 << 20)
    expect(Oracle.bytesOf(Export.json(made)).equals(once)).toBe(true)
    const chunks = await Effect.runPromise(Stream.runCollect(Export.toStream(made, "json")))
    expect(chunks.length).toBeGreaterThan(2)
    expect(Buffer.concat(Array.from(chunks)).equals(once)).toBe(true)
    const payments = JSON.parse(once.toString("utf8")).payments.length
    expect(counted).toBe(3 * payments)
  })
})
