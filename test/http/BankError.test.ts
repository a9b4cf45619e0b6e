import { describe, expect, it } from "@effect/vitest"
import { ErrorBody } from "@tppkit/core"
import { BankError } from "@tppkit/http"
import { Schema } from "effect"

const error = (status: number, contentType: string | undefined, text: string) =>
  new BankError.BankError({
    operation: "balanceCheck",
    identity: { requestId: "req-1" },
    reason: new BankError.Forbidden({ body: ErrorBody.decode(status, contentType, text) })
  })

describe("BankError with core's ErrorBody", () => {
  it("names codes and titles of each dialect, never the free text", () => {
    const rows: Array<[string | undefined, unknown, string, string]> = [
      [
        "application/problem+json",
        { title: "Forbidden", code: "CONSENT_MISSING", detail: "SK31 secret" },
        "Problem",
        "CONSENT_MISSING: Forbidden"
      ],
      [
        "application/json",
        { tppMessages: [{ category: "ERROR", code: "CONSENT_UNKNOWN", text: "SK31 secret" }] },
        "TppMessages",
        "CONSENT_UNKNOWN"
      ],
      [
        "application/json",
        { errors: [{ error: "CONSENT_MISSING", message: "SK31 secret" }] },
        "Errors",
        "CONSENT_MISSING"
      ],
      ["application/json", { error: "invalid_client", error_description: "SK31 secret" }, "OAuth", "invalid_client"]
    ]
    for (const [type, body, tag, headline] of rows) {
      const e = error(403, type, JSON.stringify(body))
      expect(e.reason._tag === "Forbidden" && e.reason.body._tag).toBe(tag)
      expect(e.message).toBe(`balance check: 403 forbidden (${headline}) [Request-ID req-1]`)
      expect(e.message).not.toContain("secret")
    }
  })

  it("keeps an unrecognised body only in the reason, not in the message", () => {
    const e = error(403, "text/html", "<html>SK31 secret</html>")
    expect(e.reason._tag === "Forbidden" && e.reason.body).toEqual({ _tag: "Raw", raw: "<html>SK31 secret</html>" })
    expect(e.message).toContain("(unrecognised body)")
    expect(error(403, undefined, "").message).toContain("(empty body)")
  })

  it("the decoded body is a schema value: it encodes and decodes unchanged", () => {
    const body = ErrorBody.decode(400, "application/problem+json", '{"code":"FORMAT_ERROR","title":"Bad Request"}')
    const roundTrip = Schema.decodeUnknownSync(ErrorBody.ErrorBody)(Schema.encodeSync(ErrorBody.ErrorBody)(body))
    expect(roundTrip).toEqual(body)
  })
})
