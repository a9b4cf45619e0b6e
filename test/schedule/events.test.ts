/**
 * The iCalendar column writer behind `Export.ics` (schedule's internal/events.ts) over payments given as columns:
 * its bytes equal `ICalendar.fromPayments` of the same payments, whatever the texts (folded anywhere, multi-byte
 * characters at the folds), the occurrence numbers, the dates (inside or outside its date tables, up to 9999-12-31,
 * whose event has no DTEND) and the options.
 */
import { LocalDate } from "@tppkit/core"
import { ICalendar, type Payment } from "@tppkit/schedule"
import { BigDecimal } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Events from "../../packages/schedule/src/internal/events.ts"
import type * as Plans from "../../packages/schedule/src/internal/plans.ts"
import * as Oracle from "./exportOracle.ts"

const d = LocalDate.parseUnsafe

/** One payment of an order (by index): occurrence, nominal and execution day. */
interface Entry {
  readonly order: number
  readonly k: number
  readonly nominal: number
  readonly execution: number
}

/** The entries as the writer's source (sorted by execution day, a day's columns together) and as payments. */
const sourceOf = (orders: ReadonlyArray<Plans.Fields>, entries: ReadonlyArray<Entry>) => {
  const sorted = [...entries].sort((a, b) => a.execution - b.execution)
  const payments: Array<Payment.Payment> = sorted.map((e) => ({
    ...orders[e.order]!,
    k: e.k,
    nominalDate: e.nominal as LocalDate.LocalDate,
    executionDate: e.execution as LocalDate.LocalDate
  }))
  function* days() {
    const day = { day: 0, length: 0, order: new Int32Array(4), k: new Int32Array(4), nominal: new Int32Array(4) }
    for (const e of sorted) {
      if (day.length > 0 && e.execution !== day.day) {
        yield day
        day.length = 0
      }
      day.day = e.execution
      if (day.length === day.order.length) {
        const grow = (a: Int32Array) => {
          const b = new Int32Array(2 * a.length)
          b.set(a)
          return b
        }
        day.order = grow(day.order)
        day.k = grow(day.k)
        day.nominal = grow(day.nominal)
      }
      day.order[day.length] = e.order
      day.k[day.length] = e.k
      day.nominal[day.length++] = e.nominal
    }
    if (day.length > 0) yield day
  }
  return { source: { orders, days: days() } satisfies Events.Source, payments }
}

const text = fc.oneof(
  fc.string({ maxLength: 90, unit: "grapheme" }),
  fc.string({ maxLength: 30, unit: "binary" }),
  fc.constantFrom("x\udc00y", "\ud83d"),
  fc.constantFrom("a;b,c\\d\r\ne\nf\rg", "€".repeat(40), "x".repeat(61), "\u{1f600}".repeat(30))
)

const fields: fc.Arbitrary<Plans.Fields> = fc.record({
  orderId: fc.oneof(
    fc.string({ maxLength: 60, unit: "grapheme" }),
    // lone surrogates too: the UID writes U+FFFD for them
    fc.string({ maxLength: 12, unit: "binary" }),
    fc.constantFrom("SO-1", "x".repeat(55), "A\ud800", "\udc00B")
  ),
  amount: fc
    .tuple(fc.bigInt({ min: 1n, max: 10n ** 14n }), fc.integer({ min: 0, max: 5 }))
    .map(([v, s]) => BigDecimal.make(v, s)),
  currency: fc.constantFrom("EUR", "CZK"),
  debtorIban: fc.constantFrom("SK3112000000198742637541", "CZ5508000000001234567899"),
  creditorIban: fc.constantFrom("SK6809000000005012345678", "SK68"),
  creditorName: fc.option(text, { nil: undefined }),
  // a payment executing on its order's nextDate is bank-confirmed
  nextDate: fc.option(fc.integer({ min: d("2026-01-01"), max: d("2026-03-31") }), { nil: undefined })
})

/** An order of 1.50 EUR between two Slovak accounts, its creditor unnamed; the tests' others are made from it. */
const order1: Plans.Fields = {
  orderId: "SO-1",
  amount: BigDecimal.make(150n, 2),
  currency: "EUR",
  debtorIban: "SK3112000000198742637541",
  creditorIban: "SK6809000000005012345678",
  creditorName: undefined
}

const payment0: Payment.Payment = { ...order1, k: 1, nominalDate: d("2026-03-01"), executionDate: d("2026-03-02") }

const anyDay = fc.integer({ min: LocalDate.MIN, max: LocalDate.MAX })

describe("the iCalendar column writer", () => {
  it("leaves out the DTEND of an event on 9999-12-31 (the day after it has no DATE text)", () => {
    const last = LocalDate.MAX
    const { source, payments } = sourceOf(
      [order1],
      [
        { order: 0, k: 1, nominal: last - 1, execution: last - 1 },
        { order: 0, k: 2, nominal: last, execution: last }
      ]
    )
    const written = Oracle.bytesOf(Events.encode(source, { from: d("9999-12-01"), to: last }, undefined)).toString()
    expect(written).toEqual(ICalendar.fromPayments(payments))
    expect(written.match(/DTEND;VALUE=DATE:\d+/g)).toEqual(["DTEND;VALUE=DATE:99991231"])
    expect(written).toContain("DTSTART;VALUE=DATE:99991231\r\nSUMMARY:")
  })

  it("writes the bytes of ICalendar.fromPayments for any orders, dates, occurrences and options", () => {
    fc.assert(
      fc.property(
        fc.array(fields, { minLength: 1, maxLength: 6 }),
        fc.array(
          fc.record({
            order: fc.nat(),
            k: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 2 ** 31 - 1 })),
            nominal: fc.oneof(anyDay, fc.integer({ min: d("2026-01-01"), max: d("2026-03-31") })),
            execution: fc.oneof(anyDay, fc.integer({ min: d("2026-01-01"), max: d("2026-03-31") }))
          }),
          { maxLength: 40 }
        ),
        fc.record(
          {
            name: text,
            domain: fc.oneof(text, fc.constantFrom("example.com", "bank,example;com")),
            stampMillis: fc.integer({ min: 0, max: 4_000_000_000_000 }),
            rule: fc.oneof(text, fc.constantFrom("following · target", "none · a,b;c\\d"))
          },
          { requiredKeys: [] }
        ),
        (orders, raw, options) => {
          const entries = raw.map((e) => ({ ...e, order: e.order % orders.length }))
          const { source, payments } = sourceOf(orders, entries)
          const window = { from: d("2026-01-01"), to: d("2026-03-31") }
          const written = Oracle.bytesOf(Events.encode(source, window, options))
          // as UTF-8 bytes: a lone surrogate of the text is U+FFFD in them
          expect(written.toString("utf8")).toEqual(
            Buffer.from(ICalendar.fromPayments(payments, options)).toString("utf8")
          )
        }
      ),
      { numRuns: 2000 }
    )
  })

  it("gives an orderId with a lone surrogate a UID, U+FFFD in its place", () => {
    expect(Events.uid({ orderId: "A\ud800", nominalDate: d("2026-03-01") })).toBe("A%EF%BF%BD-20260301@tppkit")
    expect(ICalendar.uid({ ...payment0, orderId: "\udc00" })).toBe("%EF%BF%BD-20260301@tppkit")
  })

  it("writes an event larger than a chunk, and many events across chunks", () => {
    const huge: Plans.Fields = { ...order1, orderId: "SO-HUGE", creditorName: "ž".repeat(Events.CHUNK) }
    const small: Plans.Fields = { ...huge, orderId: "SO-SMALL", creditorName: "Landlord" }
    const entries: Array<Entry> = []
    for (let i = 0; i < 6000; i++)
      entries.push({ order: 1, k: i, nominal: d("2026-01-01") + i, execution: d("2026-01-01") + i })
    entries.push({ order: 0, k: 1, nominal: d("2026-01-03"), execution: d("2026-01-03") })
    const { source, payments } = sourceOf([huge, small], entries)
    const chunks = Array.from(Events.encode(source, { from: d("2026-01-01"), to: d("2042-12-31") }, undefined), (c) =>
      c.slice()
    )
    expect(chunks.length).toBeGreaterThan(3)
    // compared as bytes: a failing diff of megabytes of text would take minutes to print
    expect(Buffer.concat(chunks).equals(Buffer.from(ICalendar.fromPayments(payments)))).toBe(true)
  })
})
