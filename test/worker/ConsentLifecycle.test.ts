import { assert, describe, it } from "@effect/vitest"
import { ErrorBody } from "@tppkit/core"
import { BankError } from "@tppkit/http"
import { ConsentLifecycle } from "@tppkit/worker"

const failure = (reason: "Forbidden" | "Unauthorized", code: string | undefined) => {
  const body = ErrorBody.decode(
    reason === "Forbidden" ? 403 : 401,
    "application/json",
    code === undefined ? "{}" : JSON.stringify({ code, title: "t" })
  )
  return new BankError.BankError({
    operation: "balanceCheck",
    identity: { requestId: "r1" },
    request: "POST /piisp/api/v1/balanceCheck",
    reason: reason === "Forbidden" ? new BankError.Forbidden({ body }) : new BankError.Unauthorized({ body })
  })
}

describe("ConsentLifecycle", () => {
  it("a consent gets its 14-day notice, then its 3-day notice, and none without an end or past it", () => {
    const c = { key: "c1", validUntil: "2026-12-20" }
    assert.strictEqual(ConsentLifecycle.expiring(c, "2026-12-05"), undefined)
    assert.deepStrictEqual(ConsentLifecycle.expiring(c, "2026-12-06"), {
      consent: "c1",
      validUntil: "2026-12-20",
      daysLeft: 14,
      notice: 14
    })
    assert.strictEqual(ConsentLifecycle.expiring(c, "2026-12-17")?.notice, 3)
    assert.strictEqual(ConsentLifecycle.expiring(c, "2026-12-20")?.daysLeft, 0)
    assert.strictEqual(ConsentLifecycle.expiring(c, "2026-12-21"), undefined)
    assert.strictEqual(ConsentLifecycle.expiring({ key: "branch" }, "2026-12-17"), undefined)
  })

  it("the bank's consent codes say a consent is over; a 401 without one is a token to renew", () => {
    assert.strictEqual(ConsentLifecycle.expiryCode(failure("Forbidden", "CONSENT_EXPIRED")), "CONSENT_EXPIRED")
    assert.strictEqual(ConsentLifecycle.expiryCode(failure("Unauthorized", "CONSENT_INVALID")), "CONSENT_INVALID")
    assert.strictEqual(ConsentLifecycle.expiryCode(failure("Unauthorized", undefined)), undefined)
    assert.strictEqual(ConsentLifecycle.expiryCode(failure("Forbidden", "CONSENT_MISSING")), undefined)
    assert.strictEqual(ConsentLifecycle.expiryCode(new Error("CONSENT_EXPIRED")), undefined)
  })
})

describe("ConsentLifecycle.toName", () => {
  it("names the consents the bank said are over and those within the first notice of their end or past it", () => {
    const expired = { day: "2026-12-01", code: "CONSENT_EXPIRED" }
    const consents = [
      { key: "far", validUntil: "2027-01-01", expired: undefined },
      { key: "near", validUntil: "2026-12-20", expired: undefined },
      { key: "past", validUntil: "2026-12-01", expired: undefined },
      { key: "branch", validUntil: undefined, expired: undefined },
      { key: "over", validUntil: undefined, expired }
    ]
    assert.deepStrictEqual(
      ConsentLifecycle.toName(consents, "2026-12-06").map((c) => [c.key, c.daysLeft]),
      [
        ["near", 14],
        ["past", -5],
        ["over", undefined]
      ]
    )
    assert.deepStrictEqual(
      ConsentLifecycle.toName(consents, "2026-12-05").map((c) => c.key),
      ["past", "over"]
    )
  })
})
