import { BankRule, Calendar } from "@tppkit/core"
import { describe, expect, it } from "vitest"
import { listing, monthly } from "../cli/listing.ts"
import { tppkit } from "./harness.ts"

describe("tppkit reconcile", { timeout: 90_000 }, () => {
  it("a listing of a bank paying modified-preceding: explained by that rule, exit 0; an odd date makes it exit 8", async () => {
    const asOf = "2026-07-25" // 1 August 2026 is a Saturday
    const rule = BankRule.make({ convention: "modified-preceding", calendar: Calendar.weekends })
    const clean = await tppkit(["reconcile", "--orders", "-", "--as-of", asOf, "--format", "json"], {
      stdin: listing(monthly, rule, asOf)
    })
    expect(clean.stderr).toBe("")
    expect(clean.code).toBe(0)
    const json = JSON.parse(clean.stdout)
    expect(json.counts.anomaly + json.counts.unexplained).toBe(0)
    expect(json.explainedBy.map((e: { rule: { convention: string } }) => e.rule.convention)).toEqual([
      "modified-preceding"
    ])

    const odd = [
      ...monthly,
      { orderId: "ODD", frequency: "MNTH" as const, startDate: "2025-01-15", nextDate: "2026-08-20" }
    ]
    const flagged = await tppkit(["reconcile", "--orders", "-", "--as-of", asOf], { stdin: listing(odd, rule, asOf) })
    expect(flagged.code).toBe(8)
    expect(flagged.stderr).toBe("")
    expect(flagged.stdout).toMatch(/^ODD +MNTH +anomaly +2026-08-17 +2026-08-20 +-$/m)
  })
})
