/**
 * The client's wire helpers: the balance-check body it writes by hand is the text `JSON.stringify` makes of core's
 * encoding, for every request core accepts.
 */
import { BalanceCheck } from "@tppkit/core"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Wire from "../../packages/http/src/internal/Wire.ts"
import * as Arb from "../arbitraries/core.ts"

describe("Wire.balanceCheckText", () => {
  const request = fc.record(
    {
      instructionIdentification: fc.oneof(
        Arb.text(35, 1),
        fc.string({ minLength: 1, maxLength: 40, unit: "binary" }),
        fc.constantFrom('a"b', "a\\b", "line\nbreak", "\u2028", "\ud800", "ü€")
      ),
      iban: Arb.iban,
      amount: fc.record({ value: Arb.balanceCheckAmount, currency: Arb.currencyCode }),
      creationDateTime: Arb.dateTime,
      references: fc.record({ holderName: Arb.text(35, 1) })
    },
    { requiredKeys: ["instructionIdentification", "iban", "amount"] }
  )

  it("writes the same text as JSON.stringify of core's encoding (property)", () => {
    fc.assert(
      fc.property(request, (req) => {
        const encoded = BalanceCheck.encodeRequest(req)
        if (Result.isFailure(encoded)) return
        const text = Wire.balanceCheckText(encoded.success)
        expect(text).toBe(JSON.stringify(encoded.success))
        expect(JSON.parse(text)).toEqual(encoded.success)
      }),
      { numRuns: 20_000 }
    )
  })
})

describe("Wire.depthExceeds", () => {
  /** The depth by the plain definition: brackets outside strings, counted on the parsed value. */
  const depthOf = (u: unknown): number =>
    typeof u === "object" && u !== null
      ? 1 + Math.max(0, ...(Array.isArray(u) ? u : Object.values(u)).map((v) => depthOf(v)))
      : 0

  it("agrees with the depth of the parsed value, brackets inside strings not counted (property)", () => {
    const key = fc.constantFrom("a", "[", "{", '"', "\\", "b[[")
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom(1, "x", "[[{", '"}]', null),
        fc.array(tie("node"), { maxLength: 3 }),
        fc.dictionary(key, tie("node"), { maxKeys: 3 })
      )
    })).node
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 8 }), (u, max) => {
        const text = JSON.stringify(u)
        expect(Wire.depthExceeds(text, max)).toBe(depthOf(u) > max)
      }),
      { numRuns: 20_000 }
    )
  })
})
