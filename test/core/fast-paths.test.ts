/**
 * The hand-written fast paths of core (used by the bank client on every call) give the same answers as the
 * schemas and parsers they stand in for: on valid input, on near-valid input (one character changed) and on noise.
 */
import { BalanceCheck, type Currency, Iban, Money, Timestamp } from "@tppkit/core"
import { BigDecimal, Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Fast from "../../packages/core/src/internal/balanceCheckFast.ts"
import * as Arb from "../arbitraries/core.ts"

/** A text with one character replaced by one of `alphabet`, or one removed, or one inserted. */
const mutated = (text: fc.Arbitrary<string>, alphabet: string): fc.Arbitrary<string> =>
  fc
    .tuple(text, fc.nat(), fc.constantFrom(...alphabet), fc.constantFrom("replace", "remove", "insert"))
    .map(([t, at, c, how]) => {
      const i = t.length === 0 ? 0 : at % t.length
      if (how === "replace") return t.slice(0, i) + c + t.slice(i + 1)
      if (how === "remove") return t.slice(0, i) + t.slice(i + 1)
      return t.slice(0, i) + c + t.slice(i)
    })

const dateTimeAlphabet = "0123456789-:T tZz+.x"

/** The IBAN rules read independently: shape, country length, and mod 97 with BigInt arithmetic. */
const referenceIsValid = (text: string): boolean => {
  if (text.length > Iban.MAX_LENGTH || !/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(text)) return false
  const expected = Iban.countryLengths[text.slice(0, 2)]
  if (expected === undefined ? text.length < 15 : text.length !== expected) return false
  const digits = (text.slice(4) + text.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55))
  return BigInt(digits) % 97n === 1n
}

describe("Iban.isValid", () => {
  it("agrees with an independent reading of the rules on valid, corrupted and random texts (property)", () => {
    const texts = fc.oneof(
      Arb.iban,
      mutated(Arb.iban, "0123456789ABCZ a-"),
      fc.stringMatching(/^[A-Z]{2}\d{2}[A-Z0-9]{0,32}$/),
      fc.string({ maxLength: 40 })
    )
    fc.assert(
      fc.property(texts, (text) => {
        expect(Iban.isValid(text)).toBe(referenceIsValid(text))
        expect(Iban.invalidReason(text) === undefined).toBe(referenceIsValid(text))
      }),
      { numRuns: 20_000 }
    )
  })
})

describe("Timestamp.isValid and isValidIncoming", () => {
  it("agree with parse and parseIncoming (property)", () => {
    const texts = fc.oneof(
      Arb.dateTime,
      mutated(Arb.dateTime, dateTimeAlphabet),
      mutated(mutated(Arb.dateTime, dateTimeAlphabet), dateTimeAlphabet),
      fc.string({ maxLength: 40, unit: fc.constantFrom(...dateTimeAlphabet) })
    )
    fc.assert(
      fc.property(texts, (text) => {
        expect(Timestamp.isValid(text)).toBe(Result.isSuccess(Timestamp.parse(text)))
        expect(Timestamp.isValidIncoming(text)).toBe(Result.isSuccess(Timestamp.parseIncoming(text)))
      }),
      { numRuns: 20_000 }
    )
  })

  it("examples: limits of every field", () => {
    const cases: Array<[string, boolean]> = [
      ["2024-02-29T23:59:60Z", true],
      ["2023-02-29T10:00:00Z", false],
      ["0000-01-01T00:00:00Z", false],
      ["9999-12-31T23:59:59.999999+23:59", true],
      ["2024-05-01T10:15:30.+02:00", false],
      ["2024-05-01T10:15:30+24:00", false],
      ["2024-05-01T10:15:30+02:60", false],
      ["2024-05-01T10:15:30+0200", false]
    ]
    for (const [text, valid] of cases) expect([text, Timestamp.isValid(text)]).toEqual([text, valid])
    expect(Timestamp.isValidIncoming("2024-05-01T10:15:30+0200")).toBe(true)
  })
})

describe("Money.invalidReason fast path", () => {
  it("agrees with the digit count on amounts at any scale, normalised or not (property)", () => {
    const amounts = fc
      .tuple(fc.bigInt({ min: -(10n ** 16n), max: 10n ** 16n }), fc.integer({ min: -4, max: 6 }))
      .map(([value, scale]) => BigDecimal.make(value, scale))
    const format = fc.constantFrom(Money.balanceCheckFormat, Money.standingOrderFormat)
    fc.assert(
      fc.property(amounts, format, (amount, f) => {
        const normalized = BigDecimal.normalize(amount)
        const expected =
          normalized.value > 0n &&
          Money.integerDigits(amount) <= f.integerDigits &&
          Money.fractionDigits(amount) <= f.fractionDigits
        expect(Money.invalidReason(amount, f) === undefined).toBe(expected)
      }),
      { numRuns: 20_000 }
    )
  })
})

const encodeWithSchema = Schema.encodeResult(BalanceCheck.Request)
const decodeWithSchema = Schema.decodeUnknownResult(BalanceCheck.Response)

/** The public entry point succeeds exactly when the schema does, with the schema's value. */
const expectEntryIsSchema = <A>(entry: Result.Result<A, unknown>, slow: Result.Result<A, unknown>): void => {
  expect(Result.isSuccess(entry)).toBe(Result.isSuccess(slow))
  if (Result.isSuccess(entry)) expect(entry.success).toEqual(Result.getOrThrow(slow))
}

describe("BalanceCheck fast encoding and decoding", () => {
  const request = fc.record(
    {
      instructionIdentification: fc.oneof(Arb.text(35, 1), fc.constant("")),
      iban: fc.oneof(
        Arb.iban,
        mutated(Arb.iban, "0123456789AZ").map((t) => t as Iban.Iban)
      ),
      amount: fc.record({
        value: fc.oneof(
          Arb.balanceCheckAmount,
          fc
            .tuple(fc.bigInt({ min: -(10n ** 16n), max: 10n ** 16n }), fc.integer({ min: -3, max: 4 }))
            .map(([v, s]) => BigDecimal.make(v, s))
        ),
        currency: fc.oneof(
          Arb.currencyCode,
          fc.constantFrom("eur", "EURO", "").map((c) => c as Currency.CurrencyCode)
        )
      }),
      creationDateTime: Arb.dateTime
    },
    { requiredKeys: ["instructionIdentification", "iban", "amount"] }
  )

  it("whatever the fast encoder returns is the schema's encoding (property)", () => {
    fc.assert(
      fc.property(request, (req) => {
        const fast = Fast.encodeRequest(req)
        const slow = encodeWithSchema(req)
        expectEntryIsSchema(BalanceCheck.encodeRequest(req), slow)
        if (fast !== undefined) {
          expect(Result.isSuccess(slow)).toBe(true)
          expect(fast).toEqual(Result.getOrThrow(slow))
          expect(JSON.stringify(fast)).toBe(JSON.stringify(Result.getOrThrow(slow)))
        } else if (req.creationDateTime === undefined) {
          // without optional parts the fast encoder declines only what the schema refuses
          expect(Result.isFailure(slow)).toBe(true)
        }
      }),
      { numRuns: 5_000 }
    )
  })

  it("whatever the fast decoder returns is the schema's decoding, and it declines only what the schema refuses (property)", () => {
    const json = fc.oneof(
      fc.record({ response: fc.constantFrom("APPR", "DECL"), dateTime: Arb.dateTime }),
      fc.record({
        response: fc.constantFrom("APPR", "DECL", "appr", "OK"),
        dateTime: fc.oneof(mutated(Arb.dateTime, dateTimeAlphabet), fc.constant(42)),
        extra: fc.string()
      }),
      fc.record({ response: fc.constantFrom("APPR", "DECL") }, { requiredKeys: [] }),
      fc.jsonValue()
    )
    fc.assert(
      fc.property(json, (body) => {
        const fast = Fast.decodeResponse(body)
        const slow = decodeWithSchema(body)
        expectEntryIsSchema(BalanceCheck.decodeResponse(body), slow)
        if (fast === undefined) expect(Result.isFailure(slow)).toBe(true)
        else expect(fast).toEqual(Result.getOrThrow(slow))
      }),
      { numRuns: 5_000 }
    )
  })

  it("the common request of section 2.2 is encoded by the fast path", () => {
    const req = {
      instructionIdentification: "PIISP-1",
      iban: Iban.parseUnsafe("SK31 1200 0000 1987 4263 7541"),
      amount: { value: Money.parseUnsafe("1250.50"), currency: "EUR" as Currency.CurrencyCode }
    }
    expect(JSON.stringify(Fast.encodeRequest(req))).toBe(
      '{"instructionIdentification":"PIISP-1","iban":"SK3112000000198742637541","amount":{"value":1250.5,"currency":"EUR"}}'
    )
  })
})
