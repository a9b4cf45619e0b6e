import { Iban } from "@tppkit/core"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Arb from "../arbitraries/core.ts"

/** An independent mod-97 check with BigInt arithmetic (not the module's incremental one). */
const independentCheck = (iban: string): boolean => {
  const rearranged = iban.slice(4) + iban.slice(0, 4)
  const digits = rearranged.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55))
  return BigInt(digits) % 97n === 1n
}

/** Well-known published example IBANs of 14 countries, each confirmed by the independent check below. */
const examples = [
  "DE89370400440532013000",
  "GB82WEST12345698765432",
  "SK3112000000198742637541",
  "CZ6508000000192000145399",
  "AT611904300234573201",
  "FR1420041010050500013M02606",
  "NL91ABNA0417164300",
  "BE68539007547034",
  "CH9300762011623852957",
  "ES9121000418450200051332",
  "IT60X0542811101000000123456",
  "PL61109010140000071219812874",
  "NO9386011117947",
  "GR1601101250000000012300695",
  "FI2112345600000785",
  "HU42117730161111101800000000"
]

describe("Iban", () => {
  it("accepts valid IBANs of at least 10 countries, confirmed by an independent mod-97", () => {
    expect(new Set(examples.map((e) => e.slice(0, 2))).size).toBeGreaterThanOrEqual(10)
    for (const e of examples) {
      expect(independentCheck(e)).toBe(true)
      expect(Iban.parse(e)).toEqual(Result.succeed(e))
    }
  })

  it("computes the check digits of the examples", () => {
    for (const e of examples) expect(Iban.checkDigits(e.slice(0, 2), e.slice(4))).toBe(e.slice(2, 4))
  })

  it("rejects every single-character substitution (digit for digit, letter for letter)", () => {
    for (const e of examples) {
      for (let i = 0; i < e.length; i++) {
        const c = e[i] ?? ""
        const pool = /\d/.test(c) ? "0123456789" : "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        for (const r of pool) {
          if (r === c) continue
          const corrupted = e.slice(0, i) + r + e.slice(i + 1)
          expect(independentCheck(corrupted) && corrupted.slice(0, 2) === e.slice(0, 2)).toBe(false)
          expect(Result.isFailure(Iban.parse(corrupted))).toBe(true)
        }
      }
    }
  })

  it("normalises spaces and case", () => {
    expect(Iban.parse("sk31 1200 0000 1987 4263 7541")).toEqual(Result.succeed("SK3112000000198742637541"))
    expect(Schema.decodeUnknownSync(Iban.Iban)(" de89 3704 0044 0532 0130 00 ")).toBe("DE89370400440532013000")
    expect(Iban.formatPrint(Iban.parseUnsafe("SK3112000000198742637541"))).toBe("SK31 1200 0000 1987 4263 7541")
  })

  it("explains each rejection", () => {
    const reason = (s: string) => {
      const r = Iban.parse(s)
      return Result.isFailure(r) ? r.failure : ""
    }
    expect(reason("")).toMatch(/empty/)
    expect(reason("SK31120000001987426375411")).toMatch(/SK must have 24 characters, got 25/)
    expect(reason("SK3112000000198742637542")).toMatch(/check digits/)
    expect(reason("1234")).toMatch(/country code/)
    expect(reason("SKAB")).toMatch(/check digits/)
    expect(reason("SK31-1200")).toMatch(/letters and digits/)
    expect(reason(`XX00${"1".repeat(31)}`)).toMatch(/at most 34/)
    expect(reason("XX001234")).toMatch(/at least 15/)
  })

  it("names the field in schema errors", () => {
    const S = Schema.Struct({ iban: Iban.Iban })
    const r = Schema.decodeUnknownResult(S)({ iban: "SK3112000000198742637542" })
    expect(Result.isFailure(r) && r.failure.message).toMatch(/check digits[\s\S]*\["iban"\]/)
  })

  describe("properties", () => {
    it("generated IBANs are valid, round-trip through the schema and agree with the independent check", () => {
      fc.assert(
        fc.property(Arb.ibanText, (text) => {
          const iban = Schema.decodeUnknownSync(Iban.Iban)(text)
          expect(independentCheck(iban)).toBe(true)
          expect(Schema.decodeUnknownSync(Iban.Iban)(Schema.encodeSync(Iban.Iban)(iban))).toBe(iban)
        }),
        { numRuns: 2_000 }
      )
    })

    it("a changed check digit is always rejected", () => {
      fc.assert(
        fc.property(Arb.iban, fc.integer({ min: 1, max: 9 }), (iban, delta) => {
          const d = (Number(iban[3]) + delta) % 10
          expect(Result.isFailure(Iban.parse(`${iban.slice(0, 3)}${d}${iban.slice(4)}`))).toBe(true)
        })
      )
    })
  })
})
