import { BalanceCheck, Money } from "@tppkit/core"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Arb from "../arbitraries/core.ts"

/** A request with every field of section 2.2, card transaction at a merchant. */
const full = {
  instructionIdentification: "PIISP-2024-000123",
  creationDateTime: "2024-05-01T10:15:30+02:00",
  iban: "SK3112000000198742637541",
  amount: { value: 1250.5, currency: "EUR" },
  relatedParties: {
    tradingParty: {
      identification: "MERCHANT-0042",
      name: "Kaviareň pri Dunaji s.r.o.",
      address: "Rázusovo nábrežie 1, Bratislava",
      countryCode: "SK",
      merchantCode: "5814"
    }
  },
  references: { chequeNumber: "**** **** **** 1234", holderName: "JANA NOVAKOVA" }
}

const failure = (u: unknown): string => {
  const r = Schema.decodeUnknownResult(BalanceCheck.Request)(u)
  return Result.isFailure(r) ? r.failure.message : "(success)"
}

describe("BalanceCheck", () => {
  it("decodes and re-encodes a full request with every field of section 2.2", () => {
    const req = Schema.decodeUnknownSync(BalanceCheck.Request)(full)
    expect(Money.formatFixed2(req.amount.value)).toBe("1250.50")
    expect(Schema.encodeSync(BalanceCheck.Request)(req)).toEqual(full)
  })

  it("the minimal request has only the mandatory fields", () => {
    const minimal = { instructionIdentification: "x", iban: full.iban, amount: { value: 0.01, currency: "EUR" } }
    expect(
      JSON.stringify(Schema.encodeSync(BalanceCheck.Request)(Schema.decodeUnknownSync(BalanceCheck.Request)(minimal)))
    ).toBe(
      '{"instructionIdentification":"x","iban":"SK3112000000198742637541","amount":{"value":0.01,"currency":"EUR"}}'
    )
  })

  it("rejects each constraint with a message that names the field", () => {
    const tp = full.relatedParties.tradingParty
    const cases: Array<[unknown, RegExp]> = [
      [{ ...full, instructionIdentification: "" }, /instructionIdentification/],
      [{ ...full, creationDateTime: "2024-05-01 10:15" }, /creationDateTime/],
      [{ ...full, iban: "SK3112000000198742637540" }, /check digits[\s\S]*\["iban"\]/],
      [{ ...full, amount: { value: 1e12, currency: "EUR" } }, /at most 12[\s\S]*\["amount"\]\["value"\]/],
      [{ ...full, amount: { value: 0.001, currency: "EUR" } }, /decimals[\s\S]*\["value"\]/],
      [{ ...full, amount: { value: -5, currency: "EUR" } }, /positive[\s\S]*\["value"\]/],
      [{ ...full, amount: { value: 5, currency: "eur" } }, /currency/],
      [
        { ...full, relatedParties: { tradingParty: { ...tp, identification: "i".repeat(36) } } },
        /35[\s\S]*identification/
      ],
      [{ ...full, relatedParties: { tradingParty: { ...tp, name: "n".repeat(141) } } }, /140[\s\S]*\["name"\]/],
      [{ ...full, relatedParties: { tradingParty: { ...tp, address: "a".repeat(71) } } }, /70[\s\S]*address/],
      [{ ...full, relatedParties: { tradingParty: { ...tp, countryCode: "SVK" } } }, /countryCode/],
      [{ ...full, relatedParties: { tradingParty: { ...tp, merchantCode: "58" } } }, /merchantCode/],
      [{ ...full, references: { chequeNumber: "4111111111111234" } }, /chequeNumber/],
      [{ ...full, references: { holderName: "h".repeat(36) } }, /35[\s\S]*holderName/]
    ]
    for (const [input, pattern] of cases) expect(failure(input)).toMatch(pattern)
  })

  it("decodes the response (section 2.3)", () => {
    const res = Schema.decodeUnknownSync(BalanceCheck.Response)({ response: "APPR", dateTime: "2024-05-01T10:15:31Z" })
    expect(BalanceCheck.isApproved(res)).toBe(true)
    const declined = Schema.decodeUnknownSync(BalanceCheck.Response)({
      response: "DECL",
      dateTime: "2024-05-01T10:15:31.5+02:00"
    })
    expect(BalanceCheck.isApproved(declined)).toBe(false)
    const r = Schema.decodeUnknownResult(BalanceCheck.Response)({ response: "YES", dateTime: "2024-05-01T10:15:31Z" })
    expect(Result.isFailure(r) && r.failure.message).toMatch(/response/)
  })

  it("decode(encode(x)) = x for generated requests (property)", () => {
    const request = fc.record(
      {
        instructionIdentification: Arb.text(35, 1),
        iban: Arb.iban,
        amount: fc.record({ value: Arb.balanceCheckAmount, currency: Arb.currencyCode }),
        creationDateTime: Arb.dateTime,
        relatedParties: fc.record({
          tradingParty: fc.record(
            {
              identification: Arb.text(35),
              name: Arb.text(140),
              address: Arb.text(70),
              countryCode: Arb.countryCode,
              merchantCode: Arb.merchantCategoryCode
            },
            { requiredKeys: [] }
          )
        }),
        references: fc.record({ chequeNumber: Arb.maskedCardNumber, holderName: Arb.text(35) }, { requiredKeys: [] })
      },
      { requiredKeys: ["instructionIdentification", "iban", "amount"] }
    )
    fc.assert(
      fc.property(request, (req) => {
        const wire = JSON.parse(JSON.stringify(Schema.encodeSync(BalanceCheck.Request)(req)))
        const back = Schema.decodeUnknownSync(BalanceCheck.Request)(wire)
        expect(Money.equals(back.amount.value, req.amount.value)).toBe(true)
        expect(Schema.encodeSync(BalanceCheck.Request)(back)).toEqual(wire)
      }),
      { numRuns: 2_000 }
    )
  })

  it("responses round-trip (property)", () => {
    fc.assert(
      fc.property(fc.constantFrom("APPR", "DECL"), Arb.dateTime, (response, dateTime) => {
        const wire = { response, dateTime }
        expect(Schema.encodeSync(BalanceCheck.Response)(Schema.decodeUnknownSync(BalanceCheck.Response)(wire))).toEqual(
          wire
        )
      })
    )
  })
})
