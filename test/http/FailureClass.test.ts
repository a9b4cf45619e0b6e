import { execFileSync } from "node:child_process"
import { ErrorBody } from "@tppkit/core"
import { BankError, FailureClass } from "@tppkit/http"
import { describe, expect, it } from "vitest"

const body = ErrorBody.decode(403, "application/json", JSON.stringify({ tppMessages: [{ code: "CONSENT_MISSING" }] }))
const dailyLimit = ErrorBody.decode(
  429,
  "application/problem+json",
  JSON.stringify({ status: 429, code: "ACCESS_EXCEEDED", title: "Too Many Requests" })
)
const exhausted = new BankError.BudgetExhausted({
  consentKey: "k",
  limit: 4,
  used: 4,
  requested: 1,
  freesAt: "2026-01-02T00:00:00Z"
})

/** A reason of each tag (and of each status or kind that changes the answer), its class, whether it is transient. */
const rows: ReadonlyArray<readonly [BankError.Reason, FailureClass.FailureClass, boolean]> = [
  [new BankError.TransportFailure({ kind: "connect", detail: "ECONNREFUSED" }), "unavailable", true],
  [new BankError.TransportFailure({ kind: "reset", detail: "ECONNRESET" }), "unavailable", true],
  [new BankError.TransportFailure({ kind: "timeout", detail: "10 s" }), "unavailable", true],
  [new BankError.TransportFailure({ kind: "truncated", detail: "ended early" }), "unavailable", true],
  [new BankError.TransportFailure({ kind: "tls", detail: "bad certificate" }), "unavailable", false],
  [new BankError.TransportFailure({ kind: "other", detail: "?" }), "unavailable", false],
  [new BankError.ServerError({ status: 500, body }), "unavailable", false],
  [new BankError.ServerError({ status: 502, body }), "unavailable", true],
  [new BankError.ServerError({ status: 503, body }), "unavailable", true],
  [new BankError.ServerError({ status: 504, body }), "unavailable", true],
  [new BankError.TooManyRequests({ body }), "unavailable", true],
  [new BankError.TooManyRequests({ retryAfterSeconds: 3, body }), "unavailable", true],
  // the bank's daily limit (issue 40): a spent budget, as BudgetExhausted, not a "not now" to repeat
  [new BankError.TooManyRequests({ retryAfterSeconds: 3600, body: dailyLimit }), "budget", false],
  [new BankError.UnexpectedStatus({ status: 507, body }), "unavailable", false],
  [new BankError.UnexpectedStatus({ status: 409, body }), "refused", false],
  [new BankError.BadRequest({ body }), "refused", false],
  [new BankError.Forbidden({ body }), "refused", false],
  [new BankError.NotFound({ body }), "refused", false],
  [new BankError.Unauthorized({ body }), "configuration", false],
  [new BankError.BudgetStoreError({ store: "memory", operation: "reserve", detail: "x" }), "configuration", false],
  [exhausted, "budget", false],
  [new BankError.MalformedResponse({ path: "standingOrders", detail: "not an array" }), "data", false],
  [new BankError.ResponseTooLarge({ part: "body", limit: 1024 }), "data", false],
  [new BankError.ListingIncomplete({ kind: "deadline", detail: "30 s", pages: [] }), "data", false],
  [new BankError.InvalidRequest({ path: "page", detail: "negative" }), "invalid", false]
]

describe("FailureClass", () => {
  it("classifies every reason and says which are transient", () => {
    for (const [reason, klass, transient] of rows) {
      expect([reason._tag, FailureClass.classify(reason)]).toEqual([reason._tag, klass])
      expect([reason._tag, FailureClass.isTransient(reason)]).toEqual([reason._tag, transient])
      expect(BankError.isTransient(reason)).toBe(transient)
    }
    expect(new Set(rows.map(([, klass]) => klass))).toEqual(new Set(FailureClass.all))
  })

  it("loads neither effect nor another module of the client", () => {
    // a child records every module that importing FailureClass resolves
    const script = `
      import { registerHooks } from "node:module"
      const seen = []
      registerHooks({ resolve: (specifier, context, next) => { const r = next(specifier, context); seen.push(r.url); return r } })
      const m = await import("@tppkit/http/FailureClass")
      console.log(JSON.stringify({ seen, exports: Object.keys(m).sort() }))`
    const out = execFileSync(
      process.execPath,
      ["--conditions=@tppkit/source", "--input-type=module", "--eval", script],
      { encoding: "utf8" }
    )
    const { seen, exports } = JSON.parse(out) as { seen: Array<string>; exports: Array<string> }
    expect(exports).toEqual(["DAILY_LIMIT_CODE", "all", "classify", "isDailyLimit", "isTransient"])
    expect(seen.map((url) => url.replace(/^.*\/packages\//, ""))).toEqual(["http/src/FailureClass.ts"])
  })
})
