/**
 * `tppkit standing-orders` (internal/bank.ts) in process against the mock bank on loopback: `--standard` reads the
 * bank's records in a standard in place of the profile's (issue 40), for `--reconcile`.
 */
import { describe, expect, it } from "vitest"
import { run } from "./inProcess.ts"
import { bankFlags, listedOrder, mockBank, withOrders } from "./mockBank.ts"

describe("standing-orders --reconcile --standard (issue 40)", { timeout: 60_000 }, () => {
  const listed = (orderId: string, nextDate: string) => listedOrder(orderId, { startDate: "2026-03-02", nextDate })
  const bank = mockBank({ fixtures: withOrders([listed("RENT", "2026-05-04"), listed("GYM", "2026-05-04")]) })
  const reconcile = (...flags: Array<string>) =>
    run([
      "standing-orders",
      "--all",
      "--reconcile",
      "--as-of",
      "2026-04-20",
      "--format",
      "json",
      ...bankFlags(bank()),
      ...flags
    ])

  /** The listed dates the reconciliation counts, in every class. */
  const total = (json: string): number =>
    Object.values(JSON.parse(json).counts as Record<string, number>).reduce((a, b) => a + b, 0)

  it("the profile's own standard named reconciles as without it; another reads every record in it", async () => {
    const own = await reconcile()
    expect(total(own.stdout)).toBe(2)
    const sbas = await reconcile("--standard", "sbas")
    expect([sbas.code, sbas.stdout]).toEqual([own.code, own.stdout])
    // the seed bank's records read as COBS: none is a COBS record, each said on stderr, exit 7 (data)
    const cobs = await reconcile("--standard", "cobs")
    expect(cobs.code, cobs.stderr).toBe(7)
    expect(total(cobs.stdout)).toBe(0)
    expect(cobs.stderr).toContain("the listing (read as cobs): 2 records or parts of the list could not be read")
  })
})
