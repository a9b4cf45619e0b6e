/**
 * The balance-check request's hand-written decoder (inside `BalanceCheck.decodeRequest`, the mock bank's entry point)
 * accepts only what the schema accepts, with equal values, and takes the common shape itself.
 */
import { describe, expect, it } from "@effect/vitest"
import { BalanceCheck, Iban, Json } from "@tppkit/core"
import { BigDecimal, Result, SchemaParser } from "effect"
import fc from "fast-check"
import * as Fast from "../../packages/core/src/internal/balanceCheckFast.ts"

const decodeSchema = SchemaParser.decodeUnknownResult(BalanceCheck.Request)

const validIbans = [
  ["SK", "11000000002612345678"],
  ["CZ", "08000000001234567899"],
  ["AT", "1904300234573201"],
  ["DE", "370400440532013000"]
].map(([country = "", bban = ""]) => `${country}${Iban.checkDigits(country, bban)}${bban}`)

/** IBAN texts: valid ones, the same in print form or lower case (the schema normalises those), broken ones. */
const iban = fc.oneof(
  fc.constantFrom(...validIbans),
  fc.constantFrom(...validIbans).map((s) => s.toLowerCase()),
  fc.constantFrom(...validIbans).map((s) => s.replace(/(.{4})/g, "$1 ")),
  fc.constantFrom(...validIbans).map((s) => `${s.slice(0, 3)}${s[3] === "9" ? "0" : "9"}${s.slice(4)}`),
  fc.string(),
  fc.integer()
)

/** Amount values: whole cents (inside and outside [12.2]), more decimals, zero and negatives, floats. */
const value = fc.oneof(
  fc.integer({ min: -1000, max: 100_000_000 }).map((c) => c / 100),
  fc.bigInt({ min: 1n, max: 10n ** 16n }).map((c) => Number(c) / 100),
  fc.integer({ min: 1, max: 1_000_000 }).map((c) => c / 1000),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 0.1 + 0.2, 1e-7, 999999999999.99, 1e12, 1e12 - 0.01, 5e-324),
  fc.string()
)

const currency = fc.oneof(fc.constantFrom("EUR", "CZK", "USD", "eur", "EURO", ""), fc.string(), fc.integer())

const amount = fc.oneof(
  { weight: 8, arbitrary: fc.record({ value, currency }) },
  { weight: 1, arbitrary: fc.record({ value, currency }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.constantFrom(null, [], "120.50", 120.5) }
)

/** Balance-check bodies of any mix of keys, sometimes with optional or unknown keys or wrong types. */
const anyBody = fc.record(
  {
    instructionIdentification: fc.oneof(fc.string(), fc.integer()),
    iban,
    amount,
    creationDateTime: fc.constantFrom("2026-01-02T10:00:00Z", "yesterday"),
    relatedParties: fc.constantFrom({}, { tradingParty: { countryCode: "SK" } }, 5),
    references: fc.constantFrom({}, { holderName: "A" }),
    extra: fc.jsonValue()
  },
  { requiredKeys: [] }
)

/** Balance-check bodies with the mandatory keys, mostly valid values and rarely other keys. */
const nearBody = fc.record({
  instructionIdentification: fc.oneof({ weight: 9, arbitrary: fc.string() }, fc.integer()),
  iban: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...validIbans) }, iban),
  amount: fc.oneof(
    {
      weight: 9,
      arbitrary: fc.record({
        value: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 10_000_000 }).map((c) => c / 100) }, value),
        currency: fc.oneof({ weight: 4, arbitrary: fc.constantFrom("EUR", "CZK") }, currency)
      })
    },
    amount
  ),
  extra: fc.option(fc.jsonValue(), { freq: 4 })
})

const body = fc.oneof(anyBody, nearBody)

/** The two ways a body is read: `JSON.parse` (floats) and core's `Json.parse` (every number as its text). */
const readers: ReadonlyArray<[string, (text: string) => unknown]> = [
  ["JSON.parse", (text) => JSON.parse(text)],
  ["Json.parse", (text) => Result.getOrThrow(Json.parse(text)).value]
]

/** Amount texts a float cannot carry: more digits than a double holds, in and out of [12.2]. */
const longAmount = fc.constantFrom(
  "1.0000000000000000000001",
  "12345678901.25000000000000000000",
  "0.01000000000000000000000000001",
  "999999999999.990000000000000000001",
  "1e-7",
  "12.3E1"
)

describe("the balance-check request fast decoder", () => {
  it.each(readers)("accepts only what the schema accepts, with equal values (bodies read with %s)", (_, read) => {
    let accepted = 0
    fc.assert(
      fc.property(body, (b) => {
        const json = read(JSON.stringify(b)) as object
        const fast = Fast.decodeRequest(json)
        if (fast === undefined) return
        accepted += 1
        const slow = decodeSchema(json)
        expect(Result.isSuccess(slow)).toBe(true)
        if (Result.isFailure(slow)) return
        expect(fast.instructionIdentification).toBe(slow.success.instructionIdentification)
        expect(fast.iban).toBe(slow.success.iban)
        expect(fast.amount.currency).toBe(slow.success.amount.currency)
        expect(BigDecimal.equals(fast.amount.value, slow.success.amount.value)).toBe(true)
        expect(Object.keys(slow.success).sort()).toEqual(["amount", "iban", "instructionIdentification"])
        // the public entry point answers the same
        const entry = BalanceCheck.decodeRequest(json)
        expect(Result.isSuccess(entry) && entry.success).toEqual(fast)
      }),
      { numRuns: 10_000 }
    )
    // The property must also see many accepted bodies, not only refusals.
    expect(accepted).toBeGreaterThan(1000)
  })

  it("reads an amount's text digit for digit, as the schema does: a float's rounding never makes it valid", () => {
    fc.assert(
      fc.property(fc.constantFrom(...validIbans), longAmount, (iban, amount) => {
        const json = Result.getOrThrow(
          Json.parse(`{"instructionIdentification":"x","iban":"${iban}","amount":{"value":${amount},"currency":"EUR"}}`)
        ).value
        const fast = Fast.decodeRequest(json)
        const slow = decodeSchema(json)
        expect(fast === undefined).toBe(Result.isFailure(slow))
        if (fast !== undefined && Result.isSuccess(slow)) {
          expect(BigDecimal.equals(fast.amount.value, slow.success.amount.value)).toBe(true)
        }
        // more decimals than [12.2] allows are refused, whatever a float would have made of them
        expect(Result.isSuccess(slow)).toBe(amount === "12345678901.25000000000000000000" || amount === "12.3E1")
      })
    )
  })

  it("takes the common shape (mandatory fields only, valid) itself", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.constantFrom(...validIbans),
        fc.integer({ min: 1, max: 99_999_999_999_999 }),
        fc.constantFrom("EUR", "CZK", "USD"),
        (id, ib, cents, cur) => {
          const json = { instructionIdentification: id, iban: ib, amount: { value: cents / 100, currency: cur } }
          const fast = Fast.decodeRequest(json)
          expect(fast).toBeDefined()
          expect(fast?.amount.value !== undefined && BigDecimal.format(fast.amount.value)).toBe(
            BigDecimal.format(BigDecimal.make(BigInt(cents), 2))
          )
        }
      ),
      { numRuns: 10_000 }
    )
  })

  it("leaves bodies with optional parts, lower-case IBANs and too many decimals to the schema", () => {
    const base = { instructionIdentification: "x", iban: validIbans[0] ?? "", amount: { value: 1, currency: "EUR" } }
    expect(Fast.decodeRequest(base)).toBeDefined()
    expect(Fast.decodeRequest({ ...base, creationDateTime: "2026-01-02T10:00:00Z" })).toBeUndefined()
    expect(Fast.decodeRequest({ ...base, iban: base.iban.toLowerCase() })).toBeUndefined()
    expect(Fast.decodeRequest({ ...base, amount: { value: 1.005, currency: "EUR" } })).toBeUndefined()
    expect(Fast.decodeRequest({ ...base, amount: { value: 1e12, currency: "EUR" } })).toBeUndefined()
    expect(Fast.decodeRequest({ ...base, instructionIdentification: "" })).toBeUndefined()
  })
})
