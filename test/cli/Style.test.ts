import { OrderTables, Style } from "@tppkit/cli"
import { BigDecimal } from "effect"
import { describe, expect, it } from "vitest"

describe("Style.colourEnabled", () => {
  it.each<[Record<string, string>, boolean, boolean]>([
    [{}, true, true],
    [{}, false, false],
    [{ TERM: "dumb" }, true, false],
    [{ NO_COLOR: "1" }, true, false],
    [{ NO_COLOR: "" }, true, true], // an empty NO_COLOR does not count
    [{ FORCE_COLOR: "1" }, false, true],
    [{ FORCE_COLOR: "" }, false, true],
    [{ FORCE_COLOR: "0" }, true, false],
    [{ FORCE_COLOR: "false" }, true, false],
    [{ NO_COLOR: "1", FORCE_COLOR: "1" }, true, false] // NO_COLOR wins
  ])("%o, terminal %s → %s", (env, terminal, expected) => {
    expect(Style.colourEnabled(env, terminal)).toBe(expected)
    expect(Style.of(env, terminal).enabled).toBe(expected)
  })
})

describe("Style.table", () => {
  const lines = OrderTables.orderTotalsTable([
    {
      orderId: "SO-1",
      frequency: "MNTH",
      creditor: { iban: "SK6609000000005012345678" },
      instructedAmount: { value: BigDecimal.fromStringUnsafe("125.00"), currency: "EUR" }
    }
  ])

  it("makes the header bold and the rule dim, leaving the text and its alignment as they were", () => {
    const styled = Style.table(Style.ansi, lines)
    expect(styled.map(Style.strip)).toEqual(lines)
    expect(styled[0]).toBe(Style.ansi.bold(lines[0]!))
    expect(styled[1]).toBe(Style.ansi.dim(lines[1]!))
    expect(styled.slice(2)).toEqual(lines.slice(2))
  })

  it("makes the totals under a later rule bold, not the row above that rule", () => {
    const withTotals = ["A  B", "─  ─", "1  2", "3  4", "─  ─", "T  6"]
    expect(Style.table(Style.ansi, withTotals)).toEqual([
      Style.ansi.bold("A  B"),
      Style.ansi.dim("─  ─"),
      "1  2",
      "3  4",
      Style.ansi.dim("─  ─"),
      Style.ansi.bold("T  6")
    ])
  })

  it("leaves text alone without colour", () => {
    expect(Style.table(Style.plain, lines)).toEqual(lines)
    expect(Style.plain.red("x")).toBe("x")
  })
})
