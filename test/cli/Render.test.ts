import { OrderTables, ProjectionFormats, Render } from "@tppkit/cli"
import { LocalDate } from "@tppkit/core"
import { CashFlow, Export } from "@tppkit/schedule"
import { BigDecimal } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { row as payment, rows as payments } from "../schedule/payments.ts"

const d = LocalDate.parseUnsafe
const bd = BigDecimal.fromStringUnsafe

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
    const lines = ProjectionFormats.totalsTable(CashFlow.totals(payments).byCurrency)
    expect(lines).toEqual([
      "Currency  Payments    Total",
      "────────  ────────  ───────",
      "CZK              1     0.10",
      "EUR              2  1250.70"
    ])
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
      ...ProjectionFormats.paymentTable([bad], 200),
      ...OrderTables.ordersTable(
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
        ProjectionFormats.projectionRenderers.table.render(
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
