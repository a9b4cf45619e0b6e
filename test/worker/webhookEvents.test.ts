/**
 * internal/webhookEvents: a DECL's event gives the amount with its currency's minor unit digits (issue 40: ISO 4217,
 * EUR 2, JPY 0, BHD 3), never rounded.
 */
import { Checks } from "@tppkit/worker"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import * as WebhookEvents from "../../packages/worker/src/internal/webhookEvents.ts"

const decl = (amount: string, currency: string): Checks.Row => ({
  ...Schema.decodeSync(Checks.Due)({
    consent: "c",
    orderId: "SO-1",
    nominalDate: "2027-01-04",
    executionDate: "2027-01-04",
    amount,
    currency,
    debtorIban: "SK2411000000002612345678",
    sweepDay: "2027-01-02",
    checkAt: 0
  }),
  outcome: "DECL",
  failure: undefined,
  attempts: 1,
  unconfirmed: 0,
  correlationIds: [],
  checkedAt: "2027-01-02T07:00:01Z",
  requestId: "r",
  responseId: "s"
})

describe("webhookEvents.checkEvent (issue 40)", () => {
  it("writes the amount with its currency's minor unit digits, one beyond them whole", () => {
    const amount = (value: string, currency: string) => {
      const made = WebhookEvents.checkEvent(decl(value, currency), { retrying: false })
      return (made?.event.data as { amount?: string } | undefined)?.amount
    }
    expect(amount("2500.5", "EUR")).toBe("2500.50")
    expect(amount("1500", "JPY")).toBe("1500")
    expect(amount("100.5", "JPY")).toBe("100.5")
    expect(amount("1.5", "BHD")).toBe("1.500")
  })
})
