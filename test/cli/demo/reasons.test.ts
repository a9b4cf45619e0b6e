/**
 * The demo words a check without an answer from the typed failure: the same few words it once read back from the
 * failure's message ("403 CONSENT_MISSING", or the reason's line), for every kind of failure.
 */
import { CheckFailure } from "@tppkit/worker"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Reasons from "../../../packages/cli/src/internal/demo/reasons.ts"
import { bankError } from "../../arbitraries/bankError.ts"

/** The demo's earlier reading of a failure's message, kept here as the oracle. */
const fromMessage = (message: string): string => {
  const text = message.replace(/^[^:]+: /, "").replace(/ \[.*\]$/, "")
  const short = /^(\d{3}) [a-z ]+ \(([A-Z][A-Z_]+)(?::[^)]*)?\)$/.exec(text)
  return short === null ? text : `${short[1]} ${short[2]}`
}

describe("demo reasons", () => {
  it("say what the message said, without reading it", () => {
    fc.assert(
      fc.property(bankError, (error) => {
        expect(Reasons.describeFailure(error)).toBe(fromMessage(error.message))
        expect(Reasons.describeRecorded(error)).toBe(fromMessage(error.message))
      }),
      { numRuns: 5000 }
    )
  })

  it("word a recorded payment that could not be sent, and a row without a failure", () => {
    const invalid = new CheckFailure.InvalidPayment({ amount: "x", currency: "EUR", debtorIban: "SK00" })
    expect(Reasons.describeRecorded(invalid)).toBe(fromMessage(invalid.message))
    expect(Reasons.describeRecorded(undefined)).toBe("no description")
  })
})
