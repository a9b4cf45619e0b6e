import { Money } from "@tppkit/core"
import { BigDecimal, Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Arb from "../arbitraries/core.ts"

const bd = Money.parseUnsafe
const message = (r: Result.Result<unknown, { message: string }>): string =>
  Result.isFailure(r) ? r.failure.message : "(success)"

describe("Money", () => {
  describe("formatFixed2 (the one two-decimal formatter, moved here with the CLI's Render.fixed2 tests)", () => {
    it.each([
      ["0", "0.00"],
      ["1250.5", "1250.50"],
      ["0.1", "0.10"],
      ["-3.456", "-3.456"], // more than two decimals keep every digit: nothing is rounded
      ["123456789.99", "123456789.99"],
      ["1e3", "1000.00"]
    ])("%s -> %s", (input, expected) => expect(Money.formatFixed2(BigDecimal.fromStringUnsafe(input))).toBe(expected))

    it("sums exactly where binary floats would not", () => {
      expect(Money.formatFixed2(BigDecimal.sum(bd("0.1"), bd("0.2")))).toBe("0.30")
    })

    it("is the value itself, with exactly two decimals, for every amount with at most two decimals", () => {
      fc.assert(
        fc.property(fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }), (cents) => {
          const text = Money.formatFixed2(BigDecimal.make(cents, 2))
          expect(text).toMatch(/^-?\d+\.\d{2}$/)
          expect(BigDecimal.equals(bd(text), BigDecimal.make(cents, 2))).toBe(true)
        })
      )
    })
  })

  it("formats with exactly two decimals", () => {
    expect(Money.formatFixed2(bd("1250.5"))).toBe("1250.50")
    expect(Money.formatFixed2(bd("1250.50"))).toBe("1250.50")
    expect(Money.formatFixed2(bd("100"))).toBe("100.00")
    expect(Money.formatFixed2(bd("0.01"))).toBe("0.01")
    expect(Money.formatFixed2(bd("999999999999.99"))).toBe("999999999999.99")
    expect(Money.formatFixed2(bd("7.125"))).toBe("7.125")
    expect(Money.toPlainString(BigDecimal.make(1n, -20))).toBe("100000000000000000000")
    expect(Money.toPlainString(BigDecimal.make(1n, 20))).toBe("0.00000000000000000001")
  })

  it("counts digits", () => {
    expect(Money.integerDigits(bd("0.5"))).toBe(0)
    expect(Money.integerDigits(bd("999999999999.99"))).toBe(12)
    expect(Money.fractionDigits(bd("1.10"))).toBe(1)
  })

  it("decodes JSON numbers exactly, without float artefacts", () => {
    const decode = Schema.decodeUnknownSync(Money.BalanceCheckAmountValue)
    expect(Money.equals(decode(0.1), bd("0.1"))).toBe(true)
    expect(Money.equals(decode(1250.5), bd("1250.50"))).toBe(true)
    expect(Money.equals(decode(999999999999.99), bd("999999999999.99"))).toBe(true)
    expect(Money.equals(decode(0.01), bd("0.01"))).toBe(true)
    const sum = BigDecimal.sum(decode(0.1), decode(0.2))
    expect(Money.equals(sum, bd("0.3"))).toBe(true)
    expect(Schema.encodeSync(Money.BalanceCheckAmountValue)(sum)).toBe(0.3)
    expect(JSON.stringify({ value: Schema.encodeSync(Money.BalanceCheckAmountValue)(bd("999999999999.99")) })).toBe(
      '{"value":999999999999.99}'
    )
  })

  it("enforces [12.2] both ways with messages naming the field", () => {
    const S = Schema.Struct({ amount: Schema.Struct({ value: Money.BalanceCheckAmountValue }) })
    expect(message(Schema.decodeUnknownResult(S)({ amount: { value: 0 } }))).toMatch(/positive[\s\S]*"value"/)
    expect(message(Schema.decodeUnknownResult(S)({ amount: { value: -1 } }))).toMatch(/positive/)
    expect(message(Schema.decodeUnknownResult(S)({ amount: { value: 1000000000000 } }))).toMatch(
      /13 digits before the decimal point, at most 12[\s\S]*\["amount"\]\["value"\]/
    )
    expect(message(Schema.decodeUnknownResult(S)({ amount: { value: 1.005 } }))).toMatch(/3 decimals, at most 2/)
    expect(message(Schema.decodeUnknownResult(S)({ amount: { value: "12.50" } }))).toMatch(/number/)
    expect(message(Schema.encodeResult(S)({ amount: { value: bd("0.001") } }))).toMatch(/3 decimals/)
  })

  it("standing-order amounts: tolerant decoding, strict [9.2] encoding", () => {
    const decode = Schema.decodeUnknownSync(Money.StandingOrderAmountValue)
    const encode = Schema.encodeResult(Money.StandingOrderAmountValue)
    expect(Money.toPlainString(decode("1250.50"))).toBe("1250.5")
    expect(Money.toPlainString(decode(1234567890123.456))).toBe("1234567890123.456")
    expect(Money.toPlainString(decode("-5"))).toBe("-5")
    expect(Money.toPlainString(decode("12345678901234567890.123"))).toBe("12345678901234567890.123")
    expect(() => decode("12,50")).toThrow(/plain decimal/)
    expect(() => decode("")).toThrow()
    expect(encode(bd("999999999.99"))).toEqual(Result.succeed(999999999.99))
    expect(message(encode(bd("1000000000")))).toMatch(/10 digits before the decimal point, at most 9/)
    expect(message(encode(bd("-1")))).toMatch(/positive/)
  })

  it("refuses to write an amount a JSON number cannot carry exactly", () => {
    expect(Money.toJsonNumber(bd("1234567890.123456789"))).toBeUndefined()
    expect(Result.isFailure(Schema.encodeResult(Money.JsonNumber)(bd("1234567890.123456789")))).toBe(true)
  })

  it("refuses to send a [12.2] amount out of format, with the format's message", () => {
    const encode = Schema.encodeResult(Money.BalanceCheckAmountValue)
    expect(message(encode(bd("0")))).toMatch(/positive, got 0/)
    expect(message(encode(bd("-12.5")))).toMatch(/positive, got -12.5/)
    expect(message(encode(bd("1000000000000")))).toMatch(/13 digits before the decimal point, at most 12/)
    expect(message(encode(BigDecimal.make(1n, -12)))).toMatch(/13 digits before the decimal point, at most 12/)
    expect(message(encode(bd("1000000000000.001")))).toMatch(/13 digits before the decimal point/)
    expect(message(encode(bd("12.345")))).toMatch(/3 decimals, at most 2/)
    expect(encode(BigDecimal.make(120500n, 3))).toEqual(Result.succeed(120.5))
    expect(encode(BigDecimal.make(1n, -11))).toEqual(Result.succeed(100000000000))
  })

  it("writes unnormalized and large-scale amounts as the same JSON number", () => {
    expect(Money.toJsonNumber(BigDecimal.make(12050n, 2))).toBe(120.5)
    expect(Money.toJsonNumber(BigDecimal.make(-3n, 0))).toBe(-3)
    expect(Money.toJsonNumber(BigDecimal.make(0n, 5))).toBe(0)
    expect(Money.toJsonNumber(BigDecimal.make(1n, -22))).toBe(1e22)
    expect(Money.toJsonNumber(BigDecimal.make(123n, 24))).toBe(1.23e-22)
    expect(Money.toJsonNumber(BigDecimal.make(1n, -400))).toBeUndefined()
    expect(Money.toJsonNumber(BigDecimal.make(10n ** 17n, 2))).toBe(1e15)
  })

  describe("properties", () => {
    it("[12.2]: decode(encode(x)) = x and the JSON text is the exact decimal", () => {
      fc.assert(
        fc.property(Arb.balanceCheckAmount, (x) => {
          const wire = Schema.encodeSync(Money.BalanceCheckAmountValue)(x)
          const json = JSON.stringify(wire)
          expect(json).toBe(Money.toPlainString(x))
          const back = Schema.decodeUnknownSync(Money.BalanceCheckAmountValue)(JSON.parse(json))
          expect(Money.equals(back, x)).toBe(true)
        }),
        { numRuns: 10_000 }
      )
    })

    it("[9.2]: decode(encode(x)) = x", () => {
      fc.assert(
        fc.property(Arb.standingOrderAmount, (x) => {
          const wire = Schema.encodeSync(Money.StandingOrderAmountValue)(x)
          expect(typeof wire).toBe("number")
          const back = Schema.decodeUnknownSync(Money.StandingOrderAmountValue)(JSON.parse(JSON.stringify(wire)))
          expect(Money.equals(back, x)).toBe(true)
        }),
        { numRuns: 10_000 }
      )
    })

    // The definitions the cheaper checks must agree with: digits counted as text, exactness through the text.
    const referenceInvalidReason = (amount: Money.Amount, format: Money.Format): string | undefined => {
      if (!BigDecimal.isPositive(amount)) return `amount must be positive, got ${Money.toPlainString(amount)}`
      const i = Money.integerDigits(amount)
      if (i > format.integerDigits) {
        return `amount has ${i} digits before the decimal point, at most ${format.integerDigits} allowed`
      }
      const f = Money.fractionDigits(amount)
      if (f > format.fractionDigits) return `amount has ${f} decimals, at most ${format.fractionDigits} allowed`
      return undefined
    }
    const referenceToJsonNumber = (amount: Money.Amount): number | undefined => {
      const n = Number(Money.toPlainString(amount))
      if (!Number.isFinite(n)) return undefined
      const back = Money.fromJsonNumber(n)
      return back !== undefined && BigDecimal.equals(back, amount) ? n : undefined
    }
    const anyDecimal = fc
      .tuple(
        fc.oneof(fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }), fc.bigInt({ min: -999_999n, max: 999_999n })),
        fc.integer({ min: -30, max: 30 })
      )
      .map(([value, scale]) => BigDecimal.make(value, scale))

    it("invalidReason and toJsonNumber agree with their text-based definitions", () => {
      fc.assert(
        fc.property(anyDecimal, (x) => {
          for (const format of [Money.balanceCheckFormat, Money.standingOrderFormat]) {
            expect(Money.invalidReason(x, format)).toBe(referenceInvalidReason(x, format))
          }
          expect(Object.is(Money.toJsonNumber(x), referenceToJsonNumber(x))).toBe(true)
        }),
        { numRuns: 10_000 }
      )
    })

    it("sums of decoded amounts stay exact (no 0.1 + 0.2 drift)", () => {
      fc.assert(
        fc.property(fc.array(Arb.standingOrderAmount, { maxLength: 50 }), (xs) => {
          const cents = xs.reduce((acc, x) => acc + BigInt(Money.formatFixed2(x).replace(".", "")), 0n)
          const total = BigDecimal.sumAll(xs)
          expect(
            Money.formatFixed2(total)
              .replace(".", "")
              .replace(/^0+(?=\d)/, "")
          ).toBe(`${cents}`)
        })
      )
    })
  })
})

describe("Money.formatMinor (issue 40)", () => {
  it("pads to the currency's minor unit digits (ISO 4217), never rounds, and says when an amount has more", () => {
    const cases: ReadonlyArray<readonly [string, string, string, boolean]> = [
      ["300", "EUR", "300.00", false],
      ["700.1", "CZK", "700.10", false],
      ["-5", "EUR", "-5.00", false],
      ["1500", "JPY", "1500", false],
      ["100.5", "JPY", "100.5", true],
      ["1.5", "BHD", "1.500", false],
      ["1.0005", "KWD", "1.0005", true],
      ["0.1", "CLF", "0.1000", false],
      ["1.005", "EUR", "1.005", true],
      ["12.3", "XAU", "12.3", false]
    ]
    for (const [amount, currency, text, beyond] of cases) {
      expect([
        Money.formatMinor(Money.parseUnsafe(amount), currency),
        Money.exceedsMinorUnits(Money.parseUnsafe(amount), currency)
      ]).toEqual([text, beyond])
    }
  })
})

describe("Money.PlainAmount", () => {
  it("reads plain decimal text exactly and writes the normalised text back; anything else is refused", () => {
    const decode = Schema.decodeUnknownResult(Money.PlainAmount)
    const encode = Schema.encodeSync(Money.PlainAmount)
    for (const [text, back] of [
      ["1250.50", "1250.5"],
      ["109", "109"],
      ["0.05", "0.05"],
      ["-3.100", "-3.1"],
      ["12345678901234567890.12", "12345678901234567890.12"]
    ] as const) {
      const read = decode(text)
      expect(Result.isSuccess(read) && encode(read.success)).toBe(back)
    }
    for (const bad of ["1e3", "x", "", " 1", "1,5"]) expect(Result.isFailure(decode(bad))).toBe(true)
  })

  it("a value written and read again is the same amount (10,000 runs)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.integer({ min: 0, max: 12 }),
        (value, scale) => {
          const amount = BigDecimal.make(value, scale)
          const text = Schema.encodeSync(Money.PlainAmount)(amount)
          const back = Schema.decodeSync(Money.PlainAmount)(text)
          expect(BigDecimal.equals(back, amount)).toBe(true)
          expect(Schema.encodeSync(Money.PlainAmount)(back)).toBe(text)
        }
      ),
      { numRuns: 10_000 }
    )
  })
})
