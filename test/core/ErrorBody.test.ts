import { ErrorBody } from "@tppkit/core"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"

describe("ErrorBody", () => {
  it("recognises an OAuth error (RFC 6749 5.2)", () => {
    const raw = '{"error":"invalid_client","error_description":"unknown client"}'
    const b = ErrorBody.decode(401, "application/json", raw)
    expect(b).toEqual({ _tag: "OAuth", body: { error: "invalid_client", error_description: "unknown client" }, raw })
    expect(ErrorBody.code(b)).toBe("invalid_client")
    expect(ErrorBody.summary(b)).toBe("invalid_client: unknown client")
  })

  it("recognises problem details (RFC 9457) with code, and fills the status", () => {
    const raw = '{"type":"about:blank","title":"Too Many Requests","detail":"4 calls a day","code":"DAILY_LIMIT"}'
    const b = ErrorBody.decode(429, "application/problem+json", raw)
    expect(b._tag).toBe("Problem")
    expect(b._tag === "Problem" && b.body.status).toBe(429)
    expect(ErrorBody.code(b)).toBe("DAILY_LIMIT")
    expect(ErrorBody.summary(b)).toBe("DAILY_LIMIT: Too Many Requests: 4 calls a day")
  })

  it("recognises Berlin Group tppMessages and Czech/Slovak errors", () => {
    const badRequest = (raw: string) => ErrorBody.decode(400, "application/json", raw)
    const tpp = badRequest('{"tppMessages":[{"category":"ERROR","code":"FORMAT_ERROR","text":"bad iban"}]}')
    expect(tpp._tag).toBe("TppMessages")
    expect(ErrorBody.summary(tpp)).toBe("FORMAT_ERROR: bad iban")
    const cz = badRequest(
      '{"errors":[{"error":"FIELD_INVALID","scope":"iban","parameters":{"max":34},"message":"too long"}]}'
    )
    expect(cz._tag).toBe("Errors")
    expect(ErrorBody.code(cz)).toBe("FIELD_INVALID")
  })

  it("keeps anything else as raw text", () => {
    for (const raw of ["<html>Bad Gateway</html>", "", "[1,2]", '"text"', '{"foo":1}', '{"errors":"nope"}']) {
      expect(ErrorBody.decode(502, "text/html", raw)).toEqual({ _tag: "Raw", raw })
    }
    expect(ErrorBody.summary(ErrorBody.decode(500, undefined, "x".repeat(500)), 10)).toHaveLength(10)
  })

  it("the schemas round-trip the bodies the mock bank writes", () => {
    const oauth = { error: "invalid_scope" }
    expect(Schema.encodeSync(ErrorBody.OAuthError)(Schema.decodeUnknownSync(ErrorBody.OAuthError)(oauth))).toEqual(
      oauth
    )
    const problem = { type: "about:blank", title: "Unauthorized", status: 401, code: "invalid_token" }
    expect(
      Schema.encodeSync(ErrorBody.ProblemDetails)(Schema.decodeUnknownSync(ErrorBody.ProblemDetails)(problem))
    ).toEqual(problem)
  })
})

describe("ErrorBody.encode", () => {
  it("writes every known shape so that decode reads it back as the same shape and code", () => {
    const shapes: Array<ErrorBody.Outgoing> = [
      { _tag: "OAuth", body: { error: "invalid_client", error_description: "unknown client" } },
      {
        _tag: "Problem",
        body: { type: "about:blank", title: "Bad Request", status: 400, detail: "x", code: "FORMAT_ERROR" }
      },
      {
        _tag: "TppMessages",
        body: { tppMessages: [{ category: "ERROR", code: "CONSENT_MISSING", text: "no consent" }] }
      },
      {
        _tag: "Errors",
        body: { errors: [{ error: "TOKEN_INVALID", scope: null, parameters: [], message: "unknown token" }] }
      }
    ]
    for (const shape of shapes) {
      const encoded = ErrorBody.encode(shape)
      expect(encoded._tag).toBe("Success")
      if (encoded._tag !== "Success") continue
      const back = ErrorBody.decode(400, encoded.success.contentType, encoded.success.text)
      expect(back._tag).toBe(shape._tag)
      expect(back._tag !== "Raw" && back.body).toEqual(shape.body)
    }
  })

  it("reads a CZ/SK error whose scope is null (an error about no field) instead of keeping it raw", () => {
    const raw = '{"errors":[{"error":"TOKEN_EXPIRED","scope":null,"parameters":[],"message":"expired"}]}'
    const b = ErrorBody.decode(401, "application/json", raw)
    expect(b._tag).toBe("Errors")
    expect(ErrorBody.code(b)).toBe("TOKEN_EXPIRED")
  })
})
