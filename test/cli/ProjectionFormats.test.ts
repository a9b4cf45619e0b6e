import { ProjectionFormats, Render } from "@tppkit/cli"
import { type Frequency, LocalDate, Money } from "@tppkit/core"
import { CashFlow, Export } from "@tppkit/schedule"
import { BigDecimal } from "effect"
import { describe, expect, it } from "vitest"
import { rows as payments } from "../schedule/payments.ts"

const d = LocalDate.parseUnsafe
const bd = BigDecimal.fromStringUnsafe

const skipped = [{ orderId: "SO-9", reason: 'frequency "FOO" is not one of DAIL, DAI7, WEEK, MNTH, QUTR, SEMI, YEAR' }]

/** The same payments projected from yearly orders (1 January is a TARGET holiday), with one skipped order. */
const report: ProjectionFormats.ProjectionReport = Export.make(
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

/** The report of one order of `value` EUR between two Slovak accounts from `startDate`, over `from` to `to`. */
const oneOrder = (
  order: { orderId: string; frequency: Frequency.Frequency; startDate: string; value: string; creditorName?: string },
  from: string,
  to: string
): ProjectionFormats.ProjectionReport =>
  Export.make(
    [
      {
        orderId: order.orderId,
        frequency: order.frequency,
        startDate: d(order.startDate),
        instructedAmount: { value: bd(order.value), currency: "EUR" },
        debtor: { iban: "SK3112000000198742637541" },
        creditor: {
          iban: "SK6807200002891987426353",
          ...(order.creditorName === undefined ? {} : { name: order.creditorName })
        }
      }
    ],
    { from: d(from), to: d(to) }
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

describe("projection renderers", () => {
  it("table fits 80 columns and shows totals and skipped orders", () => {
    const text = ProjectionFormats.projectionTable(report)
    for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(80)
    expect(text).toContain("Payments 2026-01-01 to 2026-03-31 (calendar target, convention following)")
    expect(text).toContain("1250.50")
    expect(text).toContain("Totals (3 payments)")
    expect(text).toContain("SO-9: frequency")
  })

  it("table totals per month mark the months the window cuts as partial, with the days it covers", () => {
    const cut = oneOrder(
      { orderId: "SO-W", frequency: "WEEK", startDate: "2026-01-05", value: "10" },
      "2026-01-15",
      "2026-03-10"
    )
    const lines = ProjectionFormats.projectionTable(cut).split("\n")
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
    expect(ProjectionFormats.projectionTable(oneMonth)).not.toContain("Totals per month")
  })
})

describe("projection renderers by format", () => {
  it("each format renders the report again with the same text, the default first", () => {
    expect(ProjectionFormats.projectionFormats[0]).toBe("table")
    expect(ProjectionFormats.projectionFormats).toEqual(["table", "json", "csv", "ics", "html"])
    for (const format of ProjectionFormats.projectionFormats) {
      const text = Render.text(ProjectionFormats.projectionRenderers[format].render(report))
      const again = Render.text(ProjectionFormats.projectionRenderers[format].render(report))
      expect(text).toBe(again)
      expect(text).toContain("SO-2")
    }
  })

  it("the table and JSON formats list the skipped orders, CSV and iCalendar leave them to the command", () => {
    for (const format of ProjectionFormats.projectionFormats) {
      const text = Render.text(ProjectionFormats.projectionRenderers[format].render(report))
      expect(text.includes("SO-9")).toBe(ProjectionFormats.projectionRenderers[format].listsSkipped)
    }
  })

  it("JSON totals equal CashFlow's over the payments", () => {
    const json = JSON.parse(Render.text(ProjectionFormats.projectionRenderers.json.render(report)))
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

describe("the projection's table of many payments", () => {
  it("lists the first TABLE_ROWS payments, says how many more there are, and totals every payment", () => {
    const many = oneOrder(
      { orderId: "SO-DAILY", frequency: "DAI7", startDate: "2000-01-01", value: "0.01", creditorName: "Landlord" },
      "2000-01-01",
      "2019-12-31"
    )
    const lines = ProjectionFormats.projectionTable(many).split("\n")
    const count = [...Export.payments(many)].length
    expect(count).toBe(7305)
    expect(lines.filter((l) => l.includes("SO-DAILY"))).toHaveLength(ProjectionFormats.TABLE_ROWS)
    expect(lines.join(" ")).toContain(
      `… ${count - ProjectionFormats.TABLE_ROWS} more payments are in the totals but not listed; use --format csv for every payment.`
    )
    expect(lines).toContain(`Totals (${count} payments)`)
    expect(lines.some((l) => /^EUR +7305 +73\.05$/.test(l))).toBe(true)
  })
})
