/**
 * internal/webhookEvents: a DECL's event gives the amount with its currency's minor unit digits (issue 40: ISO 4217,
 * EUR 2, JPY 0, BHD 3), never rounded.
 */
import type { Checks } from "@tppkit/worker"
import { describe, expect, it } from "vitest"
import * as WebhookEvents from "../../packages/worker/src/internal/webhookEvents.ts"
import { checkRow } from "./support.ts"

const decl = (amount: string, currency: string): Checks.Row =>
  checkRow("SO-1", "SK2411000000002612345678", "2027-01-04", {
    consent: "c",
    amount,
    currency,
    sweepDay: "2027-01-02",
    outcome: "DECL",
    checkedAt: "2027-01-02T07:00:01Z"
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
