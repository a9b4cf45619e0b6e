/**
 * worker internal/sbasListing.ts `readAs`: the seed bank's records read again in another standard stop at a record
 * past core's reader's limit (1 MiB): the stop is said as an unread part of the listing, with the reader's reason, so
 * the records from there on are never left out without a word (they were: the reader's failure was dropped).
 */
import { StandingOrder } from "@tppkit/core"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { readAs } from "../../packages/worker/src/internal/sbasListing.ts"

const order = (orderId: string, more: object = {}): StandingOrder.StandingOrder =>
  Result.getOrThrow(
    StandingOrder.decode({
      orderId,
      frequency: "MNTH",
      startDate: "2026-03-02",
      instructedAmount: { value: "25.00", currency: "EUR" },
      debtor: { name: "Jana", iban: "SK2411000000002612345678" },
      creditor: { name: "Landlord", iban: "SK6609000000005012345678" },
      ...more
    })
  )

describe("readAs", () => {
  it("says where the reader stopped: the records before it read, the stop an unread part of the listing", () => {
    const huge = order("HUGE", { creditor: { name: "x".repeat(1 << 20), iban: "SK6609000000005012345678" } })
    const read = readAs([order("A"), huge, order("B")], "cobs", "2026-11-01")
    // A is no COBS record (unread, as before); the reader stops at HUGE, and B is behind the stop
    expect(read.orders).toEqual([])
    expect(read.unread.map((u) => u.position)).toEqual(["record 1 (A)", "listing"])
    expect(read.unread[1]?.reason).toMatch(
      /^not read as cobs: .*is longer than 1048576 characters .*; the records from there on were not read$/
    )
  })
})
