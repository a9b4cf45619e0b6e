/**
 * A large list answer with bad records in the middle, for the suites of the decoders that read a listing as it
 * arrives (core's `StandingOrder.decoder`, the CLI's `Project.ordersDecoder`): every good order around them must come
 * through.
 */
import { expect } from "vitest"

/** A good monthly order from Jana to her landlord, 12.50 EUR from 31 January 2026, `extra` fields in place of its own. */
export const order = (orderId: string, extra: Record<string, unknown> = {}) => ({
  orderId,
  debtor: { name: "Jana", iban: "SK2411000000002612345678" },
  creditor: { name: "Landlord", iban: "SK6609000000005012345678" },
  instructedAmount: { value: 12.5, currency: "EUR" },
  startDate: "2026-01-31",
  frequency: "MNTH",
  ...extra
})

/**
 * 20,000 records as a bank's list answer, indented one field a line; record i (0-based) is the order `SO-<i>` but for
 * three: 4,000 is `BAD-DATE` (30 February), 12,345 the number 42, 19,999 `BAD-IBAN` (its creditor's IBAN `SK00`).
 */
export const largeListing = (): string => {
  const records: Array<unknown> = Array.from({ length: 20_000 }, (_, i) => order(`SO-${i}`))
  records[4_000] = order("BAD-DATE", { startDate: "2026-02-30" })
  records[12_345] = 42
  records[19_999] = order("BAD-IBAN", { creditor: { iban: "SK00" } })
  return JSON.stringify({ pageCount: 1, standingOrders: records }, null, 1)
}

/** Pushes `text` into `decoder` in pieces of 4,093 characters (cut anywhere), asserting each is taken; then ends it. */
export const pushInPieces = <A>(decoder: { push(text: string): boolean; end(): A }, text: string): A => {
  for (let at = 0; at < text.length; at += 4093) expect(decoder.push(text.slice(at, at + 4093))).toBe(true)
  return decoder.end()
}
