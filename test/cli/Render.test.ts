import { Render } from "@tppkit/cli"
import { LocalDate } from "@tppkit/core"
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

describe("fixed2", () => {
  it.each([
    ["0", "0.00"],
    ["1250.5", "1250.50"],
    ["0.1", "0.10"],
    ["-3.456", "-3.46"],
    ["123456789.99", "123456789.99"],
    ["1e3", "1000.00"]
  ])("%s -> %s", (input, expected) => expect(Render.fixed2(bd(input))).toBe(expected))

  it("sums exactly where binary floats would not", () => {
    expect(Render.fixed2(BigDecimal.sum(bd("0.1"), bd("0.2")))).toBe("0.30")
  })

  it("is the value itself for every amount with at most two decimals", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }), (cents) => {
        const text = Render.fixed2(BigDecimal.make(cents, 2))
        expect(text).toMatch(/^-?\d+\.\d{2}$/)
        expect(BigDecimal.equals(bd(text), BigDecimal.make(cents, 2))).toBe(true)
      })
    )
  })
})

describe("totals (from CashFlow)", () => {
  it("counts and sums per currency, sorted by currency", () => {
    const t = CashFlow.totals(report.payments).byCurrency
    expect(t.map((x) => [x.currency, x.count, Render.fixed2(x.amount)])).toEqual([
      ["CZK", 1, "0.10"],
      ["EUR", 2, "1250.70"]
    ])
  })

  it("groups per month and currency", () => {
    const t = CashFlow.totals(report.payments, { period: "month" }).byPeriod
    expect(t.map((x) => [x.label, x.currency, x.count, Render.fixed2(x.amount)])).toEqual([
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
      const text = [...Render.projectionRenderers[format].render(once())].join("")
      const again = [...Render.projectionRenderers[format].render(withK)].join("")
      expect(text).toBe(again)
      expect(text).toContain("SO-2")
    }
  })

  it("the table and JSON formats list the skipped orders, CSV and iCalendar leave them to the command", () => {
    for (const format of Render.projectionFormats) {
      const text = [...Render.projectionRenderers[format].render(withK)].join("")
      expect(text.includes("SO-9")).toBe(Render.projectionRenderers[format].listsSkipped)
    }
  })

  it("JSON totals equal CashFlow's over the payments read once", () => {
    const json = JSON.parse([...Render.projectionRenderers.json.render(once())].join(""))
    expect(json.totals).toEqual(
      CashFlow.totals(report.payments).byCurrency.map((t) => ({
        currency: t.currency,
        count: t.count,
        amount: Render.fixed2(t.amount)
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
