import { Render } from "@tppkit/cli"
import { LocalDate, Money } from "@tppkit/core"
import { CashFlow } from "@tppkit/schedule"
import { BigDecimal } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"

const d = LocalDate.parseUnsafe
const bd = BigDecimal.fromStringUnsafe

const payment = (
  orderId: string,
  date: string,
  amount: string,
  currency = "EUR",
  extra: { nominal?: string; creditorName?: string } = {}
): Render.PaymentRow => ({
  orderId,
  nominalDate: d(extra.nominal ?? date),
  executionDate: d(date),
  amount: bd(amount),
  currency,
  debtorIban: "SK3112000000198742637541",
  creditorIban: "SK6807200002891987426353",
  ...(extra.creditorName === undefined ? {} : { creditorName: extra.creditorName })
})

const report: Render.ProjectionReport = {
  from: d("2026-01-01"),
  to: d("2026-03-31"),
  calendar: "target",
  convention: "following",
  payments: [
    payment("SO-1", "2026-01-02", "1250.5", "EUR", { nominal: "2026-01-01", creditorName: 'Landlord, "Ltd"' }),
    payment("SO-2", "2026-01-15", "0.1", "CZK"),
    payment("SO-3", "2026-02-02", "0.2", "EUR")
  ],
  skipped: [{ orderId: "SO-9", reason: 'frequency "FOO" is not one of DAIL, DAI7, WEEK, MNTH, QUTR, SEMI, YEAR' }]
}

describe("totals (from CashFlow)", () => {
  it("counts and sums per currency, sorted by currency", () => {
    const t = CashFlow.totals(report.payments).byCurrency
    expect(t.map((x) => [x.currency, x.count, Money.formatFixed2(x.amount)])).toEqual([
      ["CZK", 1, "0.10"],
      ["EUR", 2, "1250.70"]
    ])
  })

  it("groups per month and currency", () => {
    const t = CashFlow.totals(report.payments, { period: "month" }).byPeriod
    expect(t.map((x) => [x.label, x.currency, x.count, Money.formatFixed2(x.amount)])).toEqual([
      ["2026-01", "CZK", 1, "0.10"],
      ["2026-01", "EUR", 1, "1250.50"],
      ["2026-02", "EUR", 1, "0.20"]
    ])
  })
})

describe("table", () => {
  it("aligns columns and never exceeds the width", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }), fc.string({ maxLength: 12 })), {
          maxLength: 8
        }),
        fc.integer({ min: 40, max: 120 }),
        (rows, width) => {
          const cleaned = rows.map((r) => r.map((s) => s.replace(/\s/g, "x")))
          const lines = Render.table(
            [
              { header: "Name", flex: true },
              { header: "Text", flex: true },
              { header: "Amount", align: "right" }
            ],
            cleaned,
            width
          )
          for (const line of lines) expect(line.length).toBeLessThanOrEqual(width)
          expect(lines).toHaveLength(cleaned.length + 2)
        }
      )
    )
  })

  it("right-aligns amounts", () => {
    const lines = Render.totalsTable(CashFlow.totals(report.payments).byCurrency)
    expect(lines).toEqual([
      "Currency  Payments    Total",
      "────────  ────────  ───────",
      "CZK              1     0.10",
      "EUR              2  1250.70"
    ])
  })
})

describe("projection renderers", () => {
  it("JSON has the documented keys in order and two-decimal amounts", () => {
    const json = JSON.parse(Render.projectionJson(report))
    expect(Object.keys(json)).toEqual(["from", "to", "calendar", "convention", "payments", "skipped", "totals"])
    expect(json.payments[0]).toEqual({
      orderId: "SO-1",
      nominalDate: "2026-01-01",
      executionDate: "2026-01-02",
      amount: "1250.50",
      currency: "EUR",
      debtorIban: "SK3112000000198742637541",
      creditorIban: "SK6807200002891987426353",
      creditorName: 'Landlord, "Ltd"'
    })
    expect(Object.keys(json.payments[1])).not.toContain("creditorName")
    expect(json.skipped).toEqual([{ orderId: "SO-9", reason: report.skipped[0]!.reason }])
    expect(json.totals).toEqual([
      { currency: "CZK", count: 1, amount: "0.10" },
      { currency: "EUR", count: 2, amount: "1250.70" }
    ])
  })

  it("streamed JSON equals the JSON value, also for empty lists, with one payment per line", () => {
    expect(JSON.parse(Render.projectionJson(report))).toEqual(Render.projectionJsonValue(report))
    const empty = { ...report, payments: [], skipped: [] }
    expect(JSON.parse(Render.projectionJson(empty))).toEqual(Render.projectionJsonValue(empty))
    const lines = Render.projectionJson(report).split("\n")
    expect(lines.filter((l) => l.includes('"executionDate"'))).toHaveLength(3)
    // a lazy sequence is consumed once, while rendering
    function* lazy() {
      yield* report.payments
    }
    expect(JSON.parse(Render.projectionJson({ ...report, payments: lazy() }))).toEqual(
      Render.projectionJsonValue(report)
    )
  })

  it("table fits 80 columns and shows totals and skipped orders", () => {
    const text = Render.projectionTable(report)
    for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(80)
    expect(text).toContain("Payments 2026-01-01 to 2026-03-31 (calendar target, convention following)")
    expect(text).toContain("1250.50")
    expect(text).toContain("Totals (3 payments)")
    expect(text).toContain("SO-9: frequency")
  })

  it("CSV quotes fields per RFC 4180", () => {
    const lines = Render.projectionCsv(report).split("\r\n")
    expect(lines[0]).toBe("orderId,nominalDate,executionDate,amount,currency,debtorIban,creditorIban,creditorName")
    expect(lines[1]).toBe(
      'SO-1,2026-01-01,2026-01-02,1250.50,EUR,SK3112000000198742637541,SK6807200002891987426353,"Landlord, ""Ltd"""'
    )
    expect(lines).toHaveLength(5)
  })
})

describe("small renderers", () => {
  it("keyValues aligns on the longest key", () => {
    expect(
      Render.keyValues([
        ["A", "1"],
        ["Longer", "2"]
      ])
    ).toBe("A       1\nLonger  2")
  })

  it("ordersTable shows next (or start) date, creditor name or IBAN, and the amount", () => {
    const lines = Render.ordersTable([
      {
        orderId: "SO-1",
        frequency: "MNTH",
        startDate: d("2024-01-31"),
        creditor: { iban: "SK6609000000005012345678" },
        instructedAmount: { value: bd("1250.5"), currency: "EUR" }
      },
      {
        orderId: "SO-2",
        frequency: "WEEK",
        startDate: d("2024-01-01"),
        nextDate: d("2026-12-21"),
        creditor: { name: "Gym", iban: "SK6609000000005012345678" },
        instructedAmount: { value: bd("15"), currency: "EUR" }
      }
    ])
    expect(lines[2]).toMatch(/^SO-1\s+MNTH\s+2024-01-31\s+SK6609000000005012345678\s+1250\.50\s+EUR$/)
    expect(lines[3]).toMatch(/^SO-2\s+WEEK\s+2026-12-21\s+Gym\s+15\.00\s+EUR$/)
  })

  it("skipped orders without an orderId are null in JSON", () => {
    const json = Render.projectionJsonValue({ ...report, skipped: [{ orderId: undefined, reason: "no orderId" }] })
    expect(json.skipped).toEqual([{ orderId: null, reason: "no orderId" }])
    expect(
      JSON.parse(Render.projectionJson({ ...report, skipped: [{ orderId: undefined, reason: "x" }] })).skipped
    ).toEqual([{ orderId: null, reason: "x" }])
  })
})

describe("projection renderers by format", () => {
  const withK = { ...report, payments: Array.from(report.payments, (p, k) => ({ ...p, k })) }
  /** The payments as a sequence that can be read only once, as the projection gives them. */
  const once = () => ({ ...withK, payments: withK.payments.values() })

  it("each format renders a report whose payments can be read only once, the default first", () => {
    expect(Render.projectionFormats[0]).toBe("table")
    expect(Render.projectionFormats).toEqual(["table", "json", "csv", "ics", "html"])
    for (const format of Render.projectionFormats) {
      const text = Render.text(Render.projectionRenderers[format].render(once()))
      const again = Render.text(Render.projectionRenderers[format].render(withK))
      expect(text).toBe(again)
      expect(text).toContain("SO-2")
    }
  })

  it("the table and JSON formats list the skipped orders, CSV and iCalendar leave them to the command", () => {
    for (const format of Render.projectionFormats) {
      const text = Render.text(Render.projectionRenderers[format].render(withK))
      expect(text.includes("SO-9")).toBe(Render.projectionRenderers[format].listsSkipped)
    }
  })

  it("JSON totals equal CashFlow's over the payments read once", () => {
    const json = JSON.parse(Render.text(Render.projectionRenderers.json.render(once())))
    expect(json.totals).toEqual(
      CashFlow.totals(report.payments).byCurrency.map((t) => ({
        currency: t.currency,
        count: t.count,
        amount: Money.formatFixed2(t.amount)
      }))
    )
  })
})

describe("projection JSON text", () => {
  it("parses to the JSON value for any texts, and one orderId with changing fields", () => {
    const text = fc.string({ maxLength: 12, unit: "grapheme" })
    const row = fc.record({
      orderId: fc.constantFrom("A", 'B"q', "C\\d", "\u00e9"),
      day: fc.integer({ min: d("2026-01-01"), max: d("2026-03-31") }),
      cents: fc.bigInt({ min: 1n, max: 10n ** 12n }),
      currency: fc.constantFrom("EUR", "CZK"),
      creditorName: fc.option(text, { nil: undefined }),
      creditorIban: text
    })
    fc.assert(
      fc.property(fc.array(row, { maxLength: 20 }), (rows) => {
        const payments = rows.map((r) => ({
          ...payment(r.orderId, LocalDate.format(r.day as LocalDate.LocalDate), "0", r.currency),
          amount: BigDecimal.make(r.cents, 2),
          creditorIban: r.creditorIban,
          ...(r.creditorName === undefined ? {} : { creditorName: r.creditorName })
        }))
        const value = { ...report, payments }
        expect(JSON.parse(Render.projectionJson(value))).toEqual(Render.projectionJsonValue(value))
      }),
      { numRuns: 300 }
    )
  })
})

describe("projection JSON and CSV bytes", () => {
  /** The bytes of rendered pieces, each copied before the next is asked for (byte pieces share a reused buffer). */
  const bytesOf = (pieces: Iterable<string | Uint8Array>): Buffer => {
    const copies: Array<Buffer> = []
    for (const piece of pieces) copies.push(Buffer.from(piece))
    return Buffer.concat(copies)
  }

  /** The straightforward JSON rendering: `JSON.stringify` of every item of the JSON value, one per line. */
  const referenceJson = (report: Render.ProjectionReport): string => {
    const value = Render.projectionJsonValue(report)
    const list = (items: ReadonlyArray<unknown>) =>
      items.length === 0 ? "[]" : `[\n${items.map((item) => `    ${JSON.stringify(item)}`).join(",\n")}\n  ]`
    return (
      `{\n  "from": ${JSON.stringify(value.from)},\n  "to": ${JSON.stringify(value.to)},\n` +
      `  "calendar": ${JSON.stringify(value.calendar)},\n  "convention": ${JSON.stringify(value.convention)},\n` +
      `  "payments": ${list(value.payments)},\n  "skipped": ${list(value.skipped)},\n  "totals": ${list(value.totals)}\n}\n`
    )
  }

  /** The straightforward CSV rendering: `Render.csv` of every payment's fields. */
  const referenceCsv = (report: Render.ProjectionReport): string =>
    Render.csv(
      ["orderId", "nominalDate", "executionDate", "amount", "currency", "debtorIban", "creditorIban", "creditorName"],
      Array.from(report.payments, (p) => [
        p.orderId,
        LocalDate.format(p.nominalDate),
        LocalDate.format(p.executionDate),
        Money.formatFixed2(p.amount),
        p.currency,
        p.debtorIban,
        p.creditorIban,
        p.creditorName ?? ""
      ])
    )

  /** Equal bytes; when not, the first difference with some context around it. */
  const expectBytes = (actual: Buffer, expected: Buffer) => {
    if (actual.equals(expected)) return
    let at = 0
    while (at < actual.length && actual[at] === expected[at]) at++
    const around = (b: Buffer) => JSON.stringify(b.subarray(Math.max(0, at - 80), at + 80).toString("utf8"))
    expect({ at, length: actual.length, text: around(actual) }).toEqual({
      at,
      length: expected.length,
      text: around(expected)
    })
  }

  const expectSameBytes = (report: Render.ProjectionReport) => {
    const payments = Array.from(report.payments)
    const fixed = { ...report, payments }
    expectBytes(
      bytesOf(Render.projectionRenderers.json.render({ ...fixed, payments: payments.values() })),
      Buffer.from(referenceJson(fixed), "utf8")
    )
    expectBytes(
      bytesOf(Render.projectionCsvChunks({ ...fixed, payments: payments.values() })),
      Buffer.from(referenceCsv(fixed), "utf8")
    )
  }

  // texts with JSON escapes, CSV quoting, non-ASCII, astral and lone surrogate characters
  const awkward = fc.constantFrom(
    '"',
    "\\",
    "\n",
    "\r",
    ",",
    "\u0000",
    "\u001f",
    "\u007f",
    "é",
    "\u2028",
    "😀",
    "\ud800"
  )
  const text = fc
    .array(fc.oneof(awkward, fc.string({ maxLength: 6, unit: "binary" })), { maxLength: 4 })
    .map((parts) => parts.join(""))
  const day = (lo: string, hi: string) => fc.integer({ min: d(lo), max: d(hi) }).map((n) => n as LocalDate.LocalDate)
  const amount = fc.oneof(
    fc.record({ value: fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), scale: fc.integer({ min: -3, max: 6 }) }),
    fc.record({ value: fc.bigInt({ min: 0n, max: 999n }), scale: fc.constant(2) })
  )
  const order = fc.record({
    orderId: fc.oneof(fc.constantFrom("SO-1", "SO-2", "SO-3"), text),
    amount,
    currency: fc.oneof(fc.constantFrom("EUR", "CZK", "USD", "JPY"), text),
    debtorIban: fc.oneof(fc.constant("SK3112000000198742637541"), text),
    creditorIban: fc.oneof(fc.constant("SK6807200002891987426353"), text),
    creditorName: fc.option(text, { nil: undefined })
  })
  const paymentOf = (
    o: {
      orderId: string
      amount: { value: bigint; scale: number }
      currency: string
      debtorIban: string
      creditorIban: string
      creditorName: string | undefined
    },
    amount: BigDecimal.BigDecimal,
    execution: LocalDate.LocalDate,
    shift: number
  ): Render.PaymentRow => ({
    orderId: o.orderId,
    nominalDate: LocalDate.addDays(execution, shift),
    executionDate: execution,
    amount,
    currency: o.currency,
    debtorIban: o.debtorIban,
    creditorIban: o.creditorIban,
    ...(o.creditorName === undefined ? {} : { creditorName: o.creditorName })
  })

  it("equal the straightforward renderings for random projections (escapes, currencies, amounts, dates)", () => {
    const projection = fc
      .record({
        from: day("2000-01-01", "2030-12-31"),
        span: fc.integer({ min: 0, max: 800 }),
        orders: fc.array(order, { minLength: 1, maxLength: 8 }),
        rows: fc.array(
          fc.record({
            order: fc.nat(),
            // mostly in the window; some far outside it (the date table's margin and beyond)
            offset: fc.oneof(fc.integer({ min: 0, max: 800 }), fc.integer({ min: -3000, max: 3000 })),
            shift: fc.oneof(fc.integer({ min: -7, max: 7 }), fc.integer({ min: -200, max: 200 })),
            // a fresh amount object of the same value (the per-order text is then made again)
            fresh: fc.boolean()
          }),
          { maxLength: 40 }
        ),
        sorted: fc.boolean(),
        skipped: fc.array(fc.record({ orderId: fc.option(text, { nil: undefined }), reason: text }), { maxLength: 3 }),
        calendar: text,
        convention: fc.constantFrom("following", "modifiedFollowing")
      })
      .map((g) => {
        const amounts = g.orders.map((o) => BigDecimal.make(o.amount.value, o.amount.scale))
        const payments = g.rows.map((r) => {
          const i = r.order % g.orders.length
          const o = g.orders[i]!
          const amount = r.fresh ? BigDecimal.make(o.amount.value, o.amount.scale) : amounts[i]!
          return paymentOf(o, amount, LocalDate.addDays(g.from, r.offset), r.shift)
        })
        if (g.sorted) payments.sort((a, b) => a.executionDate - b.executionDate)
        return {
          from: g.from,
          to: LocalDate.addDays(g.from, g.span),
          calendar: g.calendar,
          convention: g.convention,
          payments,
          skipped: g.skipped
        } satisfies Render.ProjectionReport
      })
    fc.assert(fc.property(projection, expectSameBytes), { numRuns: 500 })
  })

  it("equal them across many chunks, at the ends of the date range and for a line longer than a chunk", () => {
    const from = d("2026-01-01")
    const orders = Array.from({ length: 500 }, (_, i) => ({
      orderId: `SO-${i}`,
      amount: { value: BigInt(i * 37 + 1), scale: i % 4 },
      currency: i % 3 === 0 ? "CZK" : "EUR",
      debtorIban: `SK${i % 7}`,
      creditorIban: `CZ${i}`,
      creditorName: i % 5 === 0 ? undefined : `Creditor ${"é".repeat(i % 11)} ${i}`
    }))
    const amounts = orders.map((o) => BigDecimal.make(o.amount.value, o.amount.scale))
    const payments: Array<Render.PaymentRow> = []
    for (let day = 0; day < 365; day++) {
      for (let i = day % 9; i < orders.length; i += 9) {
        payments.push(paymentOf(orders[i]!, amounts[i]!, LocalDate.addDays(from, day), i % 4 === 0 ? -1 : 0))
      }
    }
    const base = { from, to: d("2026-12-31"), calendar: "target", convention: "following", skipped: [] }
    expectSameBytes({ ...base, payments })
    const big = { ...orders[1]!, creditorName: "x".repeat(1_500_000) }
    const ends = [
      paymentOf(orders[0]!, amounts[0]!, LocalDate.MIN, 0),
      paymentOf(big, amounts[1]!, from, 0),
      paymentOf(orders[2]!, amounts[2]!, LocalDate.MAX, 0),
      paymentOf(orders[3]!, amounts[3]!, LocalDate.addDays(from, 9), 0)
    ]
    expectSameBytes({ ...base, payments: [...payments.slice(0, 6000), ...ends, ...payments.slice(6000, 9000)] })
    expectSameBytes({ ...base, from: LocalDate.MIN, to: LocalDate.MAX, payments: ends })
  })
})
