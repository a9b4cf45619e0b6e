import { Render } from "@tppkit/cli"
import { LocalDate, Money } from "@tppkit/core"
import { CashFlow, Export } from "@tppkit/schedule"
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

const payments: ReadonlyArray<Render.PaymentRow> = [
  payment("SO-1", "2026-01-02", "1250.5", "EUR", { nominal: "2026-01-01", creditorName: 'Landlord, "Ltd"' }),
  payment("SO-2", "2026-01-15", "0.1", "CZK"),
  payment("SO-3", "2026-02-02", "0.2", "EUR")
]

const skipped = [{ orderId: "SO-9", reason: 'frequency "FOO" is not one of DAIL, DAI7, WEEK, MNTH, QUTR, SEMI, YEAR' }]

/** The same payments projected from yearly orders (1 January is a TARGET holiday), with one skipped order. */
const report: Render.ProjectionReport = Export.make(
  payments.map((p) => ({
    orderId: p.orderId,
    frequency: "YEAR",
    startDate: p.nominalDate,
    instructedAmount: { value: p.amount, currency: p.currency },
    debtor: { iban: p.debtorIban },
    creditor: { iban: p.creditorIban, name: p.creditorName }
  })),
  { from: d("2026-01-01"), to: d("2026-03-31") },
  { skipped }
)

describe("totals (from CashFlow)", () => {
  it("counts and sums per currency, sorted by currency", () => {
    const t = CashFlow.totals(payments).byCurrency
    expect(t.map((x) => [x.currency, x.count, Money.formatFixed2(x.amount)])).toEqual([
      ["CZK", 1, "0.10"],
      ["EUR", 2, "1250.70"]
    ])
  })

  it("groups per month and currency", () => {
    const t = CashFlow.totals(payments, { period: "month" }).byPeriod
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
    const lines = Render.totalsTable(CashFlow.totals(payments).byCurrency)
    expect(lines).toEqual([
      "Currency  Payments    Total",
      "────────  ────────  ───────",
      "CZK              1     0.10",
      "EUR              2  1250.70"
    ])
  })
})

describe("projection renderers", () => {
  it("table fits 80 columns and shows totals and skipped orders", () => {
    const text = Render.projectionTable(report)
    for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(80)
    expect(text).toContain("Payments 2026-01-01 to 2026-03-31 (calendar target, convention following)")
    expect(text).toContain("1250.50")
    expect(text).toContain("Totals (3 payments)")
    expect(text).toContain("SO-9: frequency")
  })

  it("table totals per month mark the months the window cuts as partial, with the days it covers", () => {
    const cut = Export.make(
      [
        {
          orderId: "SO-W",
          frequency: "WEEK",
          startDate: d("2026-01-05"),
          instructedAmount: { value: bd("10"), currency: "EUR" },
          debtor: { iban: "SK3112000000198742637541" },
          creditor: { iban: "SK6807200002891987426353" }
        }
      ],
      { from: d("2026-01-15"), to: d("2026-03-10") }
    )
    const lines = Render.projectionTable(cut).split("\n")
    const at = lines.indexOf("Totals per month")
    expect(at).toBeGreaterThan(0)
    expect(lines.slice(at + 1)).toEqual([
      "Month                     Currency  Payments  Total",
      "────────────────────────  ────────  ────────  ─────",
      "2026-01 (partial: 15–31)  EUR              2  20.00",
      "2026-02                   EUR              4  40.00",
      "2026-03 (partial: 1–10)   EUR              2  20.00"
    ])
    // the whole window within one month: the totals per currency say it all
    const oneMonth = Export.make([], { from: d("2026-01-15"), to: d("2026-01-20") })
    expect(Render.projectionTable(oneMonth)).not.toContain("Totals per month")
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

  it("ordersTable shows the next date or else the start, each marked, creditor name or IBAN, and the amount", () => {
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
    expect(lines[2]).toMatch(/^SO-1\s+MNTH\s+2024-01-31 start\s+SK6609000000005012345678\s+1250\.50\s+EUR$/)
    expect(lines[3]).toMatch(/^SO-2\s+WEEK\s+2026-12-21 next\s+Gym\s+15\.00\s+EUR$/)
  })

  const order = (id: string, frequency: string, amount: string, debtor: string) => ({
    orderId: id,
    frequency,
    nextDate: d("2027-01-04"),
    debtor: { iban: debtor },
    creditor: { name: "C", iban: "SK6609000000005012345678" },
    instructedAmount: { value: bd(amount), currency: "EUR" }
  })

  it("byDebtor groups a list that spans several debtor accounts by account, in the list's order", () => {
    const a = "SK2411000000002612345678"
    const b = "SK1709000000005012348888"
    const groups = Render.byDebtor([
      order("SO-1", "DAIL", "9.89", a),
      order("SO-2", "YEAR", "449.85", b),
      order("SO-3", "WEEK", "1", a)
    ])
    expect(groups.map(([iban, os]) => [iban, os.map((o) => o.orderId)])).toEqual([
      [a, ["SO-1", "SO-3"]],
      [b, ["SO-2"]]
    ])
  })

  it("orderTotalsTable sums one payment of each order per frequency and currency, never across frequencies", () => {
    const lines = Render.orderTotalsTable([
      order("SO-1", "YEAR", "449.85", "A"),
      order("SO-2", "DAIL", "9.89", "A"),
      order("SO-3", "DAIL", "0.11", "A"),
      order("SO-4", "MNTH", "100.005", "A")
    ])
    expect(lines[0]).toMatch(/^Freq\s+Currency\s+Orders\s+One payment each$/)
    expect(lines.slice(2).map((l) => l.split(/\s+/))).toEqual([
      ["DAIL", "EUR", "2", "10.00"],
      ["MNTH", "EUR", "1", "100.005"],
      ["YEAR", "EUR", "1", "449.85"]
    ])
  })
})

describe("projection renderers by format", () => {
  it("each format renders the report again with the same text, the default first", () => {
    expect(Render.projectionFormats[0]).toBe("table")
    expect(Render.projectionFormats).toEqual(["table", "json", "csv", "ics", "html"])
    for (const format of Render.projectionFormats) {
      const text = Render.text(Render.projectionRenderers[format].render(report))
      const again = Render.text(Render.projectionRenderers[format].render(report))
      expect(text).toBe(again)
      expect(text).toContain("SO-2")
    }
  })

  it("the table and JSON formats list the skipped orders, CSV and iCalendar leave them to the command", () => {
    for (const format of Render.projectionFormats) {
      const text = Render.text(Render.projectionRenderers[format].render(report))
      expect(text.includes("SO-9")).toBe(Render.projectionRenderers[format].listsSkipped)
    }
  })

  it("JSON totals equal CashFlow's over the payments", () => {
    const json = JSON.parse(Render.text(Render.projectionRenderers.json.render(report)))
    expect(json.totals).toEqual(
      CashFlow.totals(payments).byCurrency.map((t) => ({
        currency: t.currency,
        count: t.count,
        amount: Money.formatFixed2(t.amount)
      }))
    )
    expect(json.payments).toHaveLength(3)
    expect(json.payments[0]).toMatchObject({ nominalDate: "2026-01-01", executionDate: "2026-01-02" })
  })
})

describe("text from a bank or a file reaches the terminal escaped", () => {
  const retitle = "\u001b]0;pwned\u0007Landlord"
  const eraseAbove = "SO-\u001b[1A\u001b[2KX"
  /** Every character a terminal would act on (the C0 and C1 controls, DEL, bidi controls, lone surrogates). */
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding the control characters is the point
  const unprintable = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]/u

  it("printable escapes control characters as \\xNN and the others as \\u{…}, and leaves printable text alone", () => {
    expect(Render.printable(retitle)).toBe("\\x1b]0;pwned\\x07Landlord")
    expect(Render.printable(eraseAbove)).toBe("SO-\\x1b[1A\\x1b[2KX")
    expect(Render.printable("a\tb\r\nc\u007f\u009b\u202eé😀\ud800")).toBe(
      "a\\x09b\\x0d\\x0ac\\x7f\\u{9b}\\u{202e}é😀\\u{d800}"
    )
    expect(Render.printable('Landlord, "Ltd" – Žilina 😀')).toBe('Landlord, "Ltd" – Žilina 😀')
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (s) => {
        const shown = Render.printable(s)
        expect(unprintable.test(shown)).toBe(false)
        if (!unprintable.test(s)) expect(shown).toBe(s)
      })
    )
  })

  it("every table, wrapped line and key/value list escapes them", () => {
    const bad = payment(eraseAbove, "2026-01-02", "1", "EUR", { creditorName: retitle })
    const shown = [
      ...Render.paymentTable([bad], 200),
      ...Render.ordersTable(
        [
          {
            orderId: eraseAbove,
            frequency: "MNTH",
            startDate: d("2024-01-31"),
            creditor: { name: retitle, iban: "SK6609000000005012345678" },
            instructedAmount: { value: bd("1"), currency: "EUR" }
          }
        ],
        200
      ),
      ...Render.table([{ header: "X" }], [[retitle]]),
      ...Render.skippedLines([{ orderId: eraseAbove, reason: `creditor ${retitle}` }], 200),
      ...Render.wrap(retitle, 200),
      Render.keyValues([["Creditor", retitle]]),
      Render.text(
        Render.projectionRenderers.table.render(
          Export.make(
            [
              {
                orderId: eraseAbove,
                frequency: "YEAR",
                startDate: d("2026-01-02"),
                instructedAmount: { value: bd("1"), currency: "EUR" },
                debtor: { iban: "SK3112000000198742637541" },
                creditor: { iban: "SK6807200002891987426353", name: retitle }
              }
            ],
            { from: d("2026-01-01"), to: d("2026-12-31") },
            { skipped: [{ orderId: eraseAbove, reason: retitle }] }
          )
        )
      )
    ]
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding the control characters is the point
    for (const line of shown) expect(line).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
    expect(shown.join("\n")).toContain("\\x1b]0;pwned\\x07")
    expect(shown.join("\n")).toContain("SO-\\x1b[1A\\x1b[2KX")
  })
})

describe("the projection's table of many payments", () => {
  it("lists the first TABLE_ROWS payments, says how many more there are, and totals every payment", () => {
    const many = Export.make(
      [
        {
          orderId: "SO-DAILY",
          frequency: "DAI7",
          startDate: d("2000-01-01"),
          instructedAmount: { value: bd("0.01"), currency: "EUR" },
          debtor: { iban: "SK3112000000198742637541" },
          creditor: { iban: "SK6807200002891987426353", name: "Landlord" }
        }
      ],
      { from: d("2000-01-01"), to: d("2019-12-31") }
    )
    const lines = Render.projectionTable(many).split("\n")
    const count = [...Export.payments(many)].length
    expect(count).toBe(7305)
    expect(lines.filter((l) => l.includes("SO-DAILY"))).toHaveLength(Render.TABLE_ROWS)
    expect(lines.join(" ")).toContain(
      `… ${count - Render.TABLE_ROWS} more payments are in the totals but not listed; use --format csv for every payment.`
    )
    expect(lines).toContain(`Totals (${count} payments)`)
    expect(lines.some((l) => /^EUR +7305 +73\.05$/.test(l))).toBe(true)
  })
})
