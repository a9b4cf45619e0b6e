/** The bank list decoder's reading in the core tests: a list read whole, its orders and what it says of its records. */
import { Orders } from "@tppkit/core"
import { Result } from "effect"
import { expect } from "vitest"

/** What the decoder says of one record: its index in the list, its orderId, the field's path and why. */
export interface Note {
  readonly index: number
  readonly orderId: string
  readonly path: string
  readonly message: string
}

/**
 * Reads `text` with `Orders.decodeBankList` (failing the test when it is not a list) and asserts its orders are
 * `orderIds` in that order, no record failed, and its `kind` notes (the records skipped, or the warnings) are `notes`.
 * The reading, for more.
 */
export const expectBankList = (
  text: string,
  orderIds: ReadonlyArray<string>,
  kind: "skipped" | "warnings",
  notes: ReadonlyArray<Note>,
  options?: Orders.BankListOptions
) => {
  const read = Result.getOrThrow(Orders.decodeBankList(text, options))
  expect(read.orders.map((o) => o.orderId)).toEqual(orderIds)
  expect(read.errors).toEqual([])
  expect(read[kind]).toEqual(notes)
  return read
}
