import { AccessToken } from "@tppkit/core"
import { Redacted, Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

describe("AccessToken", () => {
  it("decodes the token response of section 2.1 with expires_in as a number or a numeric string", () => {
    for (const expires_in of [1200, "1200"]) {
      const res = Schema.decodeUnknownSync(AccessToken.TokenResponse)({
        access_token: "abc.def",
        expires_in,
        token_type: "Bearer"
      })
      expect(res.expires_in).toBe(AccessToken.LIFETIME_SECONDS)
      expect(Redacted.value(res.access_token)).toBe("abc.def")
      expect(String(res.access_token)).not.toContain("abc.def")
      expect(Redacted.value(AccessToken.authorization(res))).toBe("Bearer abc.def")
    }
    const lower = Schema.decodeUnknownSync(AccessToken.TokenResponse)({
      access_token: "t",
      expires_in: 5,
      token_type: "bearer"
    })
    expect(Redacted.value(AccessToken.authorization(lower))).toBe("Bearer t")
  })

  it("rejects malformed token responses naming the field", () => {
    const msg = (u: unknown) => {
      const r = Schema.decodeUnknownResult(AccessToken.TokenResponse)(u)
      return Result.isFailure(r) ? r.failure.message : "(success)"
    }
    expect(msg({ access_token: "t", expires_in: "soon", token_type: "Bearer" })).toMatch(/expires_in/)
    expect(msg({ access_token: "t", expires_in: -1, token_type: "Bearer" })).toMatch(/expires_in/)
    expect(msg({ expires_in: 1200, token_type: "Bearer" })).toMatch(/access_token/)
  })

  it("encodes the token request form of section 4.1", () => {
    const req = Schema.decodeUnknownSync(AccessToken.TokenRequest)({
      grant_type: "client_credentials",
      client_id: "tpp-123",
      client_secret: "s3cret",
      scope: AccessToken.scopeString(["PIISP", "AISP", "PIISP"])
    })
    expect(String(req.client_secret)).not.toContain("s3cret")
    expect(AccessToken.toForm(req)).toEqual({
      grant_type: "client_credentials",
      client_id: "tpp-123",
      client_secret: "s3cret",
      scope: "PIISP AISP"
    })
    expect(Schema.encodeSync(AccessToken.TokenRequest)(req)).toEqual(AccessToken.toForm(req))
    expect(AccessToken.parseScopes("PIISP AISP")).toEqual(["PIISP", "AISP"])
    const bad = Schema.decodeUnknownResult(AccessToken.TokenRequest)({ ...AccessToken.toForm(req), scope: "piisp" })
    expect(Result.isFailure(bad) && bad.failure.message).toMatch(/scope/)
    const wrongGrant = Schema.decodeUnknownResult(AccessToken.TokenRequest)({
      ...AccessToken.toForm(req),
      grant_type: "password"
    })
    expect(Result.isFailure(wrongGrant) && wrongGrant.failure.message).toMatch(/grant_type/)
  })

  it("never shows a secret in an error message", () => {
    const r = Schema.decodeUnknownResult(AccessToken.TokenRequest)({
      grant_type: "x",
      client_id: "id",
      client_secret: "s3cret",
      scope: "PISP"
    })
    expect(Result.isFailure(r) && r.failure.message).not.toContain("s3cret")
  })

  it("decode(encode(x)) = x for generated responses (property)", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.nat({ max: 100_000 }),
        fc.constantFrom("Bearer", "bearer"),
        (token, expires, type) => {
          const res = Schema.decodeUnknownSync(AccessToken.TokenResponse)({
            access_token: token,
            expires_in: expires,
            token_type: type
          })
          const wire = Schema.encodeSync(AccessToken.TokenResponse)(res)
          expect(wire).toEqual({ access_token: token, expires_in: expires, token_type: type })
        }
      )
    )
  })

  it("token requests round-trip (property)", () => {
    const scopes = fc.uniqueArray(fc.constantFrom<AccessToken.Scope>("PISP", "PIISP", "AISP"), { minLength: 1 })
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), scopes, (id, secret, scope) => {
        const form = {
          grant_type: "client_credentials",
          client_id: id,
          client_secret: secret,
          scope: AccessToken.scopeString(scope)
        }
        const req = Schema.decodeUnknownSync(AccessToken.TokenRequest)(form)
        expect(Schema.encodeSync(AccessToken.TokenRequest)(req)).toEqual(form)
        expect(AccessToken.parseScopes(req.scope)).toEqual(scope)
      })
    )
  })
})

describe("AccessToken wire entry points", () => {
  it("decodes the form toForm writes, and decodes the response encodeResponse writes", () => {
    const request = {
      grant_type: AccessToken.grantType,
      client_id: "c",
      client_secret: Redacted.make("s"),
      scope: "PIISP AISP"
    }
    const back = AccessToken.decodeRequest(AccessToken.toForm(request))
    expect(Result.isSuccess(back) && Redacted.value(back.success.client_secret)).toBe("s")
    expect(Result.isFailure(AccessToken.decodeRequest({ ...AccessToken.toForm(request), scope: "PIISP  X" }))).toBe(
      true
    )
    const response = {
      access_token: Redacted.make("tok", { label: "access_token" }),
      expires_in: 1200,
      token_type: "Bearer",
      scope: "PIISP"
    }
    const json = AccessToken.encodeResponse(response)
    expect(Result.isSuccess(json) && json.success).toEqual({
      access_token: "tok",
      expires_in: 1200,
      token_type: "Bearer",
      scope: "PIISP"
    })
    const decoded = AccessToken.decodeResponse(JSON.stringify(Result.getOrThrow(json)))
    expect(Result.isSuccess(decoded) && Redacted.value(decoded.success.access_token)).toBe("tok")
  })
})
