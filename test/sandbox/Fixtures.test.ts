import { Frequency, Iban, LocalDate, StandingOrder } from "@tppkit/core"
import { Fixtures } from "@tppkit/sandbox"
import { Result } from "effect"
import { describe, expect, it } from "vitest"

const { defaults } = Fixtures

describe("Fixtures.defaults", () => {
  it("is a valid fixture set", () => {
    expect(Result.isSuccess(Fixtures.decode(defaults))).toBe(true)
    expect(Result.isSuccess(Fixtures.decodeJson(JSON.stringify(defaults)))).toBe(true)
  })

  it("has at least 3 accounts in at least 2 currencies, every consent kind, valid IBANs", () => {
    expect(defaults.accounts.length).toBeGreaterThanOrEqual(3)
    expect(new Set(defaults.accounts.map((a) => a.currency)).size).toBeGreaterThanOrEqual(2)
    expect(new Set(defaults.accounts.map((a) => a.consent.kind))).toEqual(new Set(["branch", "electronic", "none"]))
    for (const a of defaults.accounts) expect(Result.isSuccess(Iban.parse(a.iban))).toBe(true)
  })

  it("has at least 120 standing orders covering every frequency and optional field, all decodable by core", () => {
    const orders = defaults.standingOrders
    expect(orders.length).toBeGreaterThanOrEqual(120)
    expect(new Set(orders.map((o) => o.frequency))).toEqual(new Set(Frequency.codes))
    for (const o of orders) expect(Result.isSuccess(StandingOrder.decode(o))).toBe(true)
    const some = (p: (o: (typeof orders)[number]) => boolean) => orders.some(p) && orders.some((o) => !p(o))
    expect(some((o) => o.endDate !== undefined)).toBe(true)
    expect(some((o) => o.nextDate !== undefined)).toBe(true)
    expect(some((o) => o.startDate !== undefined)).toBe(true)
    expect(some((o) => o.creditor.addressLine1 !== undefined)).toBe(true)
    expect(some((o) => o.creditor.name !== undefined)).toBe(true)
    expect(some((o) => o.remittanceInformation !== undefined)).toBe(true)
    expect(some((o) => o.endToEndIdentification !== undefined)).toBe(true)
    for (const o of orders) {
      expect(Result.isSuccess(Iban.parse(o.creditor.iban))).toBe(true)
      expect(o.instructedAmount.currency).toBe(defaults.accounts.find((a) => a.iban === o.debtor.iban)?.currency)
    }
  })

  it("has month-end and leap-day starts", () => {
    const starts = defaults.standingOrders.flatMap((o) => (o.startDate ? [LocalDate.parseUnsafe(o.startDate)] : []))
    expect(starts.some((d) => LocalDate.format(d).endsWith("-02-29"))).toBe(true)
    expect(
      starts.some((d) => {
        const { year, month, day } = LocalDate.toParts(d)
        return day === LocalDate.daysInMonth(year, month) && day >= 30
      })
    ).toBe(true)
  })

  it("keeps plenty of orders active in 2026-2027 (no endDate, or an endDate in 2027 or later)", () => {
    const active = defaults.standingOrders.filter((o) => o.endDate === undefined || o.endDate >= "2027-01-01")
    expect(active.length).toBeGreaterThanOrEqual(100)
  })
})

describe("Fixtures.decode", () => {
  it("reports schema problems with their path", () => {
    const bad = { ...defaults, accounts: [{ ...defaults.accounts[0], iban: "SK00 nonsense" }] }
    const r = Fixtures.decode(bad)
    expect(Result.isFailure(r)).toBe(true)
    if (Result.isFailure(r)) expect(r.failure[0]).toMatch(/^accounts\.0\.iban/)
  })

  it("reports unknown bound accounts, duplicate ids and debtors without an account", () => {
    const r = Fixtures.decode({
      ...defaults,
      clients: [...defaults.clients, defaults.clients[0]],
      accounts: defaults.accounts.slice(1)
    })
    expect(Result.isFailure(r)).toBe(true)
    if (Result.isFailure(r)) {
      const text = r.failure.join("\n")
      expect(text).toMatch(/duplicate clientId/)
      expect(text).toMatch(/unknown account/)
    }
  })

  it("rejects text that is not JSON", () => {
    expect(Result.isFailure(Fixtures.decodeJson("{oops"))).toBe(true)
  })
})

describe("Fixtures.generate", () => {
  it("seeds N valid orders over enough accounts that each consent holds at most 400, the same for the same N", () => {
    for (const n of [1, 400, 401, 1001, 5000]) {
      const generated = Fixtures.generate(n)
      const loaded = Fixtures.decode(generated.fixtures)
      expect(Result.isSuccess(loaded), Result.isFailure(loaded) ? loaded.failure.slice(0, 3).join("; ") : "").toBe(true)
      expect(generated.fixtures.standingOrders).toHaveLength(n)
      expect(generated.consents).toHaveLength(Math.ceil(n / Fixtures.ordersPerConsent))
      expect(generated.consents.reduce((s, c) => s + c.orders, 0)).toBe(n)
      for (const c of generated.consents) {
        expect(c.orders).toBeLessThanOrEqual(Fixtures.ordersPerConsent)
        expect(generated.fixtures.standingOrders.filter((o) => o.debtor.iban === c.iban)).toHaveLength(c.orders)
      }
      // every account is bound to the client and has a branch consent, so that balance checks get answers
      expect(generated.fixtures.clients[0]?.aispAccounts).toEqual(generated.consents.map((c) => c.iban))
      for (const a of generated.fixtures.accounts) expect(a.consent.kind).toBe("branch")
    }
    expect(Fixtures.generate(1001)).toEqual(Fixtures.generate(1001))
  })
})
