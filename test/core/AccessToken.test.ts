import { AccessToken, SchemaProblem } from "@tppkit/core"
import { Redacted, Result, Schema, SchemaParser } from "effect"
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
        fc.stringMatching(/^[\x20-\x7e]+$/),
        fc.integer({ min: 1, max: AccessToken.MAX_LIFETIME_SECONDS }),
        fc.constantFrom("Bearer", "bearer", "BEARER", "bEaReR"),
        (token, expires, type) => {
          const res = Schema.decodeUnknownSync(AccessToken.TokenResponse)({
            access_token: token,
            expires_in: expires,
            token_type: type
          })
          const wire = Schema.encodeSync(AccessToken.TokenResponse)(res)
          // the type is written Bearer whatever its case on the wire
          expect(wire).toEqual({ access_token: token, expires_in: expires, token_type: "Bearer" })
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
      token_type: "Bearer" as const,
      scope: "PIISP"
    }
    const json = AccessToken.encodeResponse(response)
    expect(Result.isSuccess(json) && json.success).toEqual({
      access_token: "tok",
      expires_in: 1200,
      token_type: "Bearer",
      scope: "PIISP"
    })
    const decoded = AccessToken.decodeResponse(JSON.parse(JSON.stringify(Result.getOrThrow(json))))
    expect(Result.isSuccess(decoded) && Redacted.value(decoded.success.access_token)).toBe("tok")
  })
})

describe("AccessToken.decodeResponse: the strict token response", () => {
  const problem = (u: unknown) => {
    const r = AccessToken.decodeResponse(u)
    return Result.isFailure(r) ? SchemaProblem.first(r.failure) : undefined
  }

  it("refuses a lifetime of 0, negative, fractional, absurd or not a number, naming the bounds", () => {
    for (const expires_in of [0, -5, 0.5, 1e308, 86_401, "0", "0.5", "soon", "1e3", true, {}]) {
      const p = problem({ access_token: "t", token_type: "Bearer", expires_in })
      expect(p?.path, JSON.stringify(expires_in)).toBe("expires_in")
      expect(p?.message).toMatch(/^expires_in must be a (whole )?number of seconds/)
    }
    expect(problem({ access_token: "t", token_type: "Bearer", expires_in: 1e308 })?.message).toBe(
      "expires_in must be a whole number of seconds from 1 to 86400, got 1e+308"
    )
  })

  it("reads a missing or null lifetime as the document's 1200 s, and a numeric string as its number", () => {
    for (const [expires_in, seconds] of [
      [undefined, 1200],
      [null, 1200],
      ["600", 600],
      [" 86400 ", 86_400],
      [1, 1]
    ] as const) {
      const body =
        expires_in === undefined
          ? { access_token: "t", token_type: "Bearer" }
          : { access_token: "t", token_type: "Bearer", expires_in }
      const r = AccessToken.decodeResponse(body)
      expect(Result.isSuccess(r) && r.success.expires_in).toBe(seconds)
    }
  })

  it("wants a non-empty printable access_token and a Bearer token_type in any case", () => {
    expect(problem({ token_type: "Bearer" })).toEqual({ path: "access_token", message: "access_token is missing" })
    expect(problem({ access_token: "", token_type: "Bearer" })?.path).toBe("access_token")
    expect(problem({ access_token: "a\nb", token_type: "Bearer" })?.path).toBe("access_token")
    expect(problem({ access_token: "t\u00e9", token_type: "Bearer" })?.path).toBe("access_token")
    expect(problem({ access_token: 7, token_type: "Bearer" })?.path).toBe("access_token")
    expect(problem({ access_token: "t", token_type: "mac" })).toEqual({
      path: "token_type",
      message: 'token_type must be Bearer, got "mac"'
    })
    expect(problem({ access_token: "t" })?.path).toBe("token_type")
    expect(problem({ error: "invalid_client" })?.path).toBe("access_token")
    expect(problem([])?.path).toBeUndefined()
    const r = AccessToken.decodeResponse({ access_token: "t", token_type: "bEaReR", scope: null, other: 1 })
    expect(Result.isSuccess(r) && r.success).toMatchObject({ token_type: "Bearer", expires_in: 1200 })
    expect(Result.isSuccess(r) && "scope" in r.success).toBe(false)
  })

  it("never puts the token into a message", () => {
    const secret = "SECRET-TOKEN"
    for (const access_token of [`${secret}\n`, `${secret}\u0000`, `\u00ff${secret}`]) {
      const r = AccessToken.decodeResponse({ access_token, token_type: "Bearer" })
      expect(Result.isFailure(r)).toBe(true)
      if (Result.isFailure(r)) {
        expect(JSON.stringify(SchemaProblem.all(r.failure))).not.toContain(secret)
        expect(r.failure.toString()).not.toContain(secret)
      }
    }
  })

  it("any JSON value decodes to a valid token response or a problem with a message, never a throw (property)", () => {
    const member = fc.oneof(fc.jsonValue(), fc.integer({ min: -10, max: 100_000 }), fc.constantFrom("Bearer", "t"))
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ access_token: member, token_type: member, expires_in: member, scope: member }, { requiredKeys: [] })
    )
    fc.assert(
      fc.property(body, (u) => {
        const r = AccessToken.decodeResponse(u)
        if (Result.isSuccess(r)) {
          const { access_token, token_type, expires_in } = r.success
          expect(Redacted.value(access_token)).toMatch(/^[\x20-\x7e]+$/)
          expect(token_type).toBe("Bearer")
          expect(
            Number.isInteger(expires_in) && expires_in >= 1 && expires_in <= AccessToken.MAX_LIFETIME_SECONDS
          ).toBe(true)
        } else {
          expect(SchemaProblem.first(r.failure).message.length).toBeGreaterThan(0)
        }
      }),
      { numRuns: 10_000 }
    )
  })

  it("a numeric lifetime is accepted exactly when it is a whole number from 1 to a day (property)", () => {
    const n = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: -5, max: 90_000 }))
    fc.assert(
      fc.property(n, (expires_in) => {
        const r = AccessToken.decodeResponse({ access_token: "t", token_type: "Bearer", expires_in })
        const valid = Number.isInteger(expires_in) && expires_in >= 1 && expires_in <= 86_400
        expect(Result.isSuccess(r)).toBe(valid)
        if (Result.isSuccess(r)) expect(r.success.expires_in).toBe(expires_in)
        else expect(SchemaProblem.first(r.failure).path).toBe("expires_in")
      }),
      { numRuns: 10_000 }
    )
  })

  it("the mock bank's encoding decodes back to the same response (property)", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[\x20-\x7e]+$/),
        fc.integer({ min: 1, max: AccessToken.MAX_LIFETIME_SECONDS }),
        fc.option(fc.constantFrom("PIISP", "AISP", "PIISP AISP"), { nil: undefined }),
        (token, expires_in, scope) => {
          const response: AccessToken.TokenResponse = {
            access_token: Redacted.make(token, { label: "access_token" }),
            token_type: "Bearer",
            expires_in,
            ...(scope !== undefined ? { scope } : {})
          }
          const back = AccessToken.decodeResponse(
            JSON.parse(JSON.stringify(Result.getOrThrow(AccessToken.encodeResponse(response))))
          )
          expect(Result.isSuccess(back)).toBe(true)
          if (Result.isSuccess(back)) {
            expect(Redacted.value(back.success.access_token)).toBe(token)
            expect({ ...back.success, access_token: 0 }).toEqual({ ...response, access_token: 0 })
          }
        }
      )
    )
  })
})

describe("SchemaProblem", () => {
  it("words a failure as a dotted field path and a message, the root without a path", () => {
    const r = AccessToken.decodeRequest({
      grant_type: "client_credentials",
      client_id: "",
      client_secret: "s",
      scope: "X"
    })
    expect(Result.isFailure(r)).toBe(true)
    if (Result.isFailure(r)) {
      expect(SchemaProblem.first(r.failure)).toEqual({ path: "client_id", message: "client_id must not be empty" })
    }
    const all = SchemaParser.decodeUnknownResult(AccessToken.TokenRequest)(
      { grant_type: "client_credentials", client_id: "", client_secret: "s", scope: "X" },
      { errors: "all" }
    )
    if (Result.isFailure(all)) expect(SchemaProblem.all(all.failure).map((p) => p.path)).toEqual(["client_id", "scope"])
    const root = AccessToken.decodeResponse("text")
    if (Result.isFailure(root)) expect(SchemaProblem.first(root.failure).path).toBeUndefined()
  })
})
