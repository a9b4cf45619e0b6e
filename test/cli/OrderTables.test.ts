import { OrderTables } from "@tppkit/cli"
import { LocalDate } from "@tppkit/core"
import { BigDecimal } from "effect"
import { describe, expect, it } from "vitest"

const d = LocalDate.parseUnsafe
const bd = BigDecimal.fromStringUnsafe

describe("OrderTables", () => {
  it("ordersTable shows the next date or else the start, each marked, creditor name or IBAN, and the amount", () => {
    const lines = OrderTables.ordersTable([
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
    const groups = OrderTables.byDebtor([
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
    const lines = OrderTables.orderTotalsTable([
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
