/**
 * The paging rules' kept listing (http's `internal/listing.ts`): a record of a page that pays nothing (issue 34) is
 * kept with its reason in a listing's payload, and a payload written before the reason was kept gets it back, placed
 * at the record's index among the page's malformed records.
 */
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import * as Listing from "../../packages/http/src/internal/listing.ts"
import * as Wire from "../../packages/http/src/internal/wire.ts"

const order = (orderId: string, dates: object) => ({
  orderId,
  debtor: { name: "Jana", iban: "SK2411000000002612345678" },
  creditor: { name: "Landlord", iban: "SK6609000000005012345678" },
  instructedAmount: { value: 12.5, currency: "EUR" },
  frequency: "MNTH",
  ...dates
})

describe("a kept listing (issue 34)", () => {
  // record 1 malformed, record 2 ends before it starts, record 3 pays
  const body = JSON.stringify({
    standingOrders: [
      { orderId: "BAD" },
      order("ENDED", { startDate: "2026-03-01", endDate: "2026-01-01" }),
      order("RENT", { startDate: "2026-01-05" })
    ]
  })
  const page = { page: 0, ...Result.getOrThrow(Wire.decodePage(body, 64, 0)) }
  const reason = "endDate 2026-01-01 is before startDate 2026-03-01: the order never pays"

  it("the page names the record that pays nothing, at its index, and lists it", () => {
    expect(page.orders.map((o) => o.orderId)).toEqual(["ENDED", "RENT"])
    expect(page.skipped).toEqual([{ index: 1, orderId: "ENDED", path: "endDate", message: reason }])
  })

  it("keeps it in the payload, and gives it back from a payload written without it", () => {
    const kept = Listing.decodeSnapshot(Listing.encodeSnapshot([{ page, identity: {}, echoed: {} }]))
    expect(kept?.[0]?.page.skipped).toEqual(page.skipped)
    const older = JSON.parse(Listing.encodeSnapshot([{ page, identity: {}, echoed: {} }]))
    delete older.pages[0].skipped
    expect(Listing.decodeSnapshot(JSON.stringify(older))?.[0]?.page.skipped).toEqual(page.skipped)
  })
})
