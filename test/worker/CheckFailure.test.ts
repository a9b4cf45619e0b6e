/**
 * A check's failure is kept as data: stored and read back unchanged, and described (for `tppkit worker status`)
 * with exactly the line its message gave without the request identifiers, as the status printed it from the
 * message before failures were kept as data.
 */
import { CheckFailure } from "@tppkit/worker"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { bankError } from "../arbitraries/bankError.ts"

/** How `worker status` read a recorded message before: its line without the identifiers at its end. */
const messageWithoutIds = (message: string): string => message.replace(/ \[[^\]]*\]$/, "")

describe("CheckFailure", () => {
  it("describes a bank failure as its message without the request identifiers", () => {
    fc.assert(
      fc.property(bankError, (error) => {
        expect(CheckFailure.describe(error)).toBe(messageWithoutIds(error.message))
      }),
      { numRuns: 2000 }
    )
  })

  it("comes back from its stored JSON (as an object or as text) as it went in", () => {
    fc.assert(
      fc.property(bankError, (error) => {
        const json = CheckFailure.encodeJson(error)
        for (const stored of [JSON.parse(JSON.stringify(json)), JSON.stringify(json)]) {
          const back = CheckFailure.decodeJson(stored)
          expect(back?._tag).toBe("BankError")
          expect(CheckFailure.encodeJson(back!)).toEqual(json)
          expect(back?.message).toBe(error.message)
        }
      }),
      { numRuns: 500 }
    )
  })

  it("keeps a payment that could not be sent, and reads nothing from what is not a failure", () => {
    const invalid = new CheckFailure.InvalidPayment({ amount: "1.234", currency: "EUR", debtorIban: "SK00" })
    expect(CheckFailure.describe(invalid)).toBe("invalid payment 1.234 EUR on SK00")
    expect(CheckFailure.classify(invalid)).toBe("invalid")
    expect(CheckFailure.reasonTag(invalid)).toBe("InvalidPayment")
    expect(CheckFailure.decodeJson(JSON.stringify(CheckFailure.encodeJson(invalid)))?.message).toBe(invalid.message)
    for (const other of [null, undefined, "", "timeout", "{", { _tag: "Other" }, 42]) {
      expect(CheckFailure.decodeJson(other)).toBeUndefined()
    }
  })
})
