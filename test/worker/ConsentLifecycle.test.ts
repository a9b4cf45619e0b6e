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
