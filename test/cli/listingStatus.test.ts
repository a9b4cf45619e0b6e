import type { ListingReconciliation } from "@tppkit/worker"
import { describe, expect, it } from "vitest"
import * as ListingStatus from "../../packages/cli/src/internal/listingStatus.ts"

const clean: ListingReconciliation.Summary = {
  day: "2026-07-25",
  consent: "home",
  ruleInUse: "following · target",
  match: 108,
  explained: 0,
  stale: 0,
  anomaly: 0,
  unexplained: 0,
  withoutNextDate: 6,
  skipped: 0,
  inferred: "following · target",
  tied: [],
  support: 108,
  evidence: 108,
  findings: false
}

describe("listingStatus", () => {
  it("nothing without reconciliations; a table with the bank's rule and a line of findings", () => {
    expect(ListingStatus.lines([], 120)).toEqual([])
    const odd = { ...clean, consent: "shop", match: 90, explained: 16, anomaly: 2, findings: true }
    const tie = { ...clean, consent: "tied", inferred: undefined, tied: ["following · target", "none · target"] }
    const lines = ListingStatus.lines([clean, odd, tie, { ...clean, consent: "empty", evidence: 0 }], 120)
    expect(lines[1]).toBe("Listed nextDates against following · target (the sweep's day is the listing day):")
    expect(lines.find((l) => l.includes("home"))).toMatch(
      /^2026-07-25 +home +108 +0 +0 +0 +0 +following · target \(108 of 108\)$/
    )
    expect(lines.find((l) => l.includes("shop"))).toMatch(/ 90 +16 +0 +2 +0 /)
    expect(ListingStatus.bankRule(tie)).toBe("tied: following · target | none · target (108 of 108 each)")
    expect(lines.join("\n")).toContain("no dates to compare")
    expect(lines.at(-1)).toBe(
      "1 listing(s) with findings: 2026-07-25 shop (tppkit standing-orders --all --reconcile shows the orders)"
    )
    expect(ListingStatus.lines([clean], 120).at(-1)).toBe(
      "no findings: every date matches or one rule explains the differences"
    )
    // an orderId the listing repeats (issue 34): named, with the keys its records are checked by
    expect(ListingStatus.lines([{ ...clean, repeated: [{ orderId: "RENT", records: 2 }] }], 100).at(-1)).toBe(
      "repeated orderIds, each record checked on its own as ID#1, ID#2, …: 2026-07-25 home RENT (2 records)"
    )
  })
})
