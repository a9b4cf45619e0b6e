import { Card, Currency, Text } from "@tppkit/core"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Arb from "../arbitraries/core.ts"

const message = (r: Result.Result<unknown, { message: string }>): string =>
  Result.isFailure(r) ? r.failure.message : "(success)"

describe("Currency", () => {
  it("accepts three upper-case letters only", () => {
    expect(Schema.decodeUnknownSync(Currency.CurrencyCode)("EUR")).toBe("EUR")
    const S = Schema.Struct({ currency: Currency.CurrencyCode })
    for (const bad of ["eur", "EURO", "EU", "E1R", " EUR", ""]) {
      expect(message(Schema.decodeUnknownResult(S)({ currency: bad }))).toMatch(/currency must be three[\s\S]*currency/)
    }
    expect(Result.isFailure(Currency.parseCurrency("czk"))).toBe(true)
  })

  it("country codes are two upper-case letters", () => {
    expect(Schema.decodeUnknownSync(Currency.CountryCode)("SK")).toBe("SK")
    const S = Schema.Struct({ countryCode: Currency.CountryCode })
    expect(message(Schema.decodeUnknownResult(S)({ countryCode: "SVK" }))).toMatch(/country code[\s\S]*countryCode/)
    expect(Result.isFailure(Currency.parseCountry("sk"))).toBe(true)
  })

  it("round-trips generated codes", () => {
    fc.assert(
      fc.property(Arb.currencyCode, (c) => {
        expect(Schema.decodeUnknownSync(Currency.CurrencyCode)(Schema.encodeSync(Currency.CurrencyCode)(c))).toBe(c)
      })
    )
  })
})

describe("Card", () => {
  it("accepts masked card numbers with or without one separator", () => {
    for (const ok of ["************1234", "**** **** **** 1234", "****-****-****-1234"]) {
      expect(Schema.decodeUnknownSync(Card.MaskedCardNumber)(ok)).toBe(ok)
    }
    const S = Schema.Struct({ chequeNumber: Card.MaskedCardNumber })
    for (const bad of ["1234567812345678", "***********1234", "****  **** **** 1234", "**** ****-**** 1234", "****"]) {
      expect(message(Schema.decodeUnknownResult(S)({ chequeNumber: bad }))).toMatch(
        /masked card number[\s\S]*chequeNumber/
      )
    }
    expect(Card.maskCardNumber("4111 1111 1111 1234")).toBe("************1234")
    expect(Card.maskCardNumber("4111")).toBeUndefined()
  })

  it("merchant category codes are four digits", () => {
    expect(Schema.decodeUnknownSync(Card.MerchantCategoryCode)("5411")).toBe("5411")
    const S = Schema.Struct({ merchantCode: Card.MerchantCategoryCode })
    expect(message(Schema.decodeUnknownResult(S)({ merchantCode: "541" }))).toMatch(/four digits[\s\S]*merchantCode/)
    expect(message(Schema.decodeUnknownResult(S)({ merchantCode: "54111" }))).toMatch(/four digits/)
  })
})

describe("Text", () => {
  it("outgoing texts are bounded, incoming ones kept whole", () => {
    const S = Schema.Struct({ holderName: Text.Max35 })
    expect(Schema.decodeUnknownSync(S)({ holderName: "x".repeat(35) }).holderName).toHaveLength(35)
    expect(message(Schema.decodeUnknownResult(S)({ holderName: "x".repeat(36) }))).toMatch(
      /at most 35 characters[\s\S]*holderName/
    )
    expect(Schema.decodeUnknownSync(Text.Incoming)("y".repeat(500))).toHaveLength(500)
    expect(Text.exceeds("abc", 2)).toBe(true)
  })

  it("round-trips generated texts within their bounds", () => {
    fc.assert(
      fc.property(Arb.text(140), (t) => {
        expect(Schema.decodeUnknownSync(Text.Max140)(Schema.encodeSync(Text.Max140)(t))).toBe(t)
      })
    )
  })
})

describe("properties", () => {
  it("country codes, merchant codes and masked card numbers round-trip", () => {
    fc.assert(
      fc.property(Arb.countryCode, Arb.merchantCategoryCode, Arb.maskedCardNumber, (country, mcc, card) => {
        expect(Schema.decodeUnknownSync(Currency.CountryCode)(Schema.encodeSync(Currency.CountryCode)(country))).toBe(
          country
        )
        expect(
          Schema.decodeUnknownSync(Card.MerchantCategoryCode)(Schema.encodeSync(Card.MerchantCategoryCode)(mcc))
        ).toBe(mcc)
        expect(Schema.decodeUnknownSync(Card.MaskedCardNumber)(Schema.encodeSync(Card.MaskedCardNumber)(card))).toBe(
          card
        )
      })
    )
  })
})

describe("Currency.minorUnits (issue 40)", () => {
  it("gives ISO 4217's minor unit digits, none for a code without one", () => {
    expect(
      ["EUR", "CZK", "USD", "JPY", "KRW", "BHD", "KWD", "CLF", "XAU", "XXX", "eur"].map(Currency.minorUnits)
    ).toEqual([2, 2, 2, 0, 0, 3, 3, 4, undefined, undefined, undefined])
  })
})
