/**
 * The client's wire helpers: the balance-check body it writes by hand is the text `JSON.stringify` makes of core's
 * encoding, for every request core accepts.
 */
import { BalanceCheck } from "@tppkit/core"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Wire from "../../packages/http/src/internal/wire.ts"
import * as Arb from "../arbitraries/core.ts"

describe("Wire.balanceCheckText", () => {
  const request = fc.record(
    {
      instructionIdentification: fc.oneof(
        Arb.text(35, 1),
        fc.string({ minLength: 1, maxLength: 40, unit: "binary" }),
        fc.constantFrom(
          'a"b',
          "a\\b",
          "line\nbreak",
          "\u2028",
          "\ud800",
          "ü€",
          "pair \ud83d\ude00",
          "tab\there",
          "\u007f"
        )
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

describe("Wire.parseJson", () => {
  /** The plain rule: the depth is counted first, then the text parsed. */
  const reference = (text: string, max: number): { ok: true; value: unknown } | { ok: false; detail: string } => {
    if (Wire.depthExceeds(text, max)) return { ok: false, detail: `JSON nested deeper than ${max} levels` }
    try {
      return { ok: true, value: JSON.parse(text) }
    } catch {
      return { ok: false, detail: text.trim() === "" ? "the body is empty" : "the body is not JSON" }
    }
  }

  it("gives what counting the depth before parsing gives, short texts included (property)", () => {
    const nested = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom(1, "x", "[[{", null),
        fc.array(tie("node"), { maxLength: 2 }),
        fc.dictionary(fc.constantFrom("a", "["), tie("node"), { maxKeys: 2 })
      )
    })).node
    const text = fc.oneof(
      nested.map((u) => JSON.stringify(u)),
      fc.string({ unit: fc.constantFrom("[", "]", "{", "}", '"', ",", ":", "1", " ", "a"), maxLength: 24 }),
      fc.string({ maxLength: 12 })
    )
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 6 }), (t, max) => {
        const parsed = Wire.parseJson(t, max)
        const expected = reference(t, max)
        if (expected.ok) {
          expect(Result.isSuccess(parsed)).toBe(true)
          if (Result.isSuccess(parsed)) expect(parsed.success).toEqual(expected.value)
        } else {
          expect(Result.isFailure(parsed)).toBe(true)
          if (Result.isFailure(parsed)) expect(parsed.failure.detail).toBe(expected.detail)
        }
      }),
      { numRuns: 20_000 }
    )
  })
})
