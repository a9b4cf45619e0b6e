import { randomUUID } from "node:crypto"
import { assert, describe, layer } from "@effect/vitest"
import { Fixtures, Journal, Sandbox, SandboxClock } from "@tppkit/sandbox"
import { Effect, Redacted } from "effect"
import { apiHeaders, balanceBody, post, token, tokenAnswer } from "./support.ts"

const { ibans } = Fixtures
const present = () => ({ "psu-last-logged-time": new Date().toISOString() })
const piispOnly = { clientId: "tppkit-piisp", clientSecret: "piisp-secret" }
const aispExpired = { clientId: "tppkit-aisp", clientSecret: "aisp-secret" }

/** The mock bank's info, a token of the default client for `scope`, and the full URL of its API path `path`. */
const session = (scope: string, path: "balanceCheck" | "standingOrders") =>
  Effect.gen(function* () {
    const info = yield* Sandbox.SandboxInfo
    return { info, t: yield* token(info, scope), url: info.baseUrl + info.paths[path] }
  })

layer(Sandbox.layer())("Sandbox over loopback", (it) => {
  describe("SandboxInfo", () => {
    it.effect("reports a loopback base URL, the default client and the accounts", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        assert.match(info.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/)
        assert.strictEqual(info.clientId, "tppkit-sandbox")
        assert.strictEqual(Redacted.value(info.clientSecret), "sandbox-secret")
        assert.strictEqual(String(info.clientSecret), "<redacted>")
        assert.strictEqual(info.paths.token, "/identity-server-test/connect/token")
        assert.strictEqual(info.accounts.length, 4)
      })
    )
  })

  describe("token endpoint", () => {
    it.effect("issues a Bearer token valid 1200 s for the client's scopes", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const a = yield* tokenAnswer(info, "PIISP AISP")
        assert.strictEqual(a.status, 200)
        assert.strictEqual(a.json.token_type, "Bearer")
        assert.strictEqual(a.json.expires_in, 1200)
        assert.isString(a.json.access_token)
        assert.strictEqual(a.headers.get("cache-control"), "no-store")
      })
    )

    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
    const good = { grant_type: "client_credentials", client_id: "tppkit-sandbox", client_secret: "sandbox-secret" }
    const cases: ReadonlyArray<[string, string, number, string]> = [
      ["wrong secret", form({ ...good, client_secret: "nope", scope: "PIISP" }), 401, "invalid_client"],
      ["unknown client", form({ ...good, client_id: "who", scope: "PIISP" }), 401, "invalid_client"],
      ["wrong grant", form({ ...good, grant_type: "password", scope: "PIISP" }), 400, "unsupported_grant_type"],
      ["missing scope", form(good), 400, "invalid_request"],
      ["unknown scope", form({ ...good, scope: "ADMIN" }), 400, "invalid_scope"],
      [
        "missing secret",
        form({ grant_type: "client_credentials", client_id: "x", scope: "PIISP" }),
        400,
        "invalid_request"
      ],
      ["duplicate parameter", `${form({ ...good, scope: "PIISP" })}&scope=AISP`, 400, "invalid_request"]
    ]
    for (const [name, body, status, error] of cases) {
      it.effect(`RFC 6749 5.2 error: ${name}`, () =>
        Effect.gen(function* () {
          const info = yield* Sandbox.SandboxInfo
          const a = yield* post(info.baseUrl + info.paths.token, {
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body
          })
          assert.strictEqual(a.status, status)
          assert.strictEqual(a.json.error, error)
          assert.isString(a.json.error_description)
        })
      )
    }

    it.effect("refuses scopes beyond the client's rights", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const a = yield* tokenAnswer(info, "AISP", piispOnly)
        assert.strictEqual(a.status, 400)
        assert.strictEqual(a.json.error, "invalid_scope")
      })
    )

    it.effect("accepts only a form body (415 otherwise)", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const a = yield* post(info.baseUrl + info.paths.token, {
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ grant_type: "client_credentials" })
        })
        assert.strictEqual(a.status, 415)
        assert.strictEqual(a.json.error, "invalid_request")
      })
    )

    it.effect("takes the form type with any parameters, in any case, and refuses look-alikes with 415", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const form = new URLSearchParams({
          grant_type: "client_credentials",
          client_id: info.clientId,
          client_secret: Redacted.value(info.clientSecret),
          scope: "PIISP"
        }).toString()
        const send = (type: string) =>
          post(info.baseUrl + info.paths.token, { headers: { "content-type": type }, body: form })
        const forms = [
          "application/x-www-form-urlencoded",
          "application/x-www-form-urlencoded;charset=UTF-8",
          "Application/X-WWW-Form-URLEncoded ; Charset=utf-8",
          'application/x-www-form-urlencoded;\tcharset="utf-8"',
          "APPLICATION/X-WWW-FORM-URLENCODED; charset=ISO-8859-1"
        ]
        const others = [
          "application/x-www-form-urlencoded-evil",
          "application/x-www-form-urlencodedx",
          "application/x-www-form-urlencoded/json",
          "application/x-www-form-urlencoded,text/plain",
          "xapplication/x-www-form-urlencoded",
          "application/x-www-form",
          "multipart/form-data; boundary=x",
          "text/plain"
        ]
        // a form is answered; anything else is refused with 415 as an OAuth invalid_request
        for (const type of [...forms, ...others]) {
          const a = yield* send(type)
          const isForm = forms.includes(type)
          assert.strictEqual(a.status, isForm ? 200 : 415, type)
          if (!isForm) assert.strictEqual(a.json.error, "invalid_request", type)
        }
      })
    )

    it.effect("reads a form up to 8 KiB whatever else it carries; a larger one gets 413 before it is read", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const fields = {
          grant_type: "client_credentials",
          client_id: info.clientId,
          client_secret: Redacted.value(info.clientSecret),
          scope: "PIISP"
        }
        const headers = { "content-type": "application/x-www-form-urlencoded" }
        const padded = (bytes: number) => {
          const form = new URLSearchParams(fields).toString()
          return `pad=${"x".repeat(bytes - form.length - 5)}&${form}`
        }
        // thousands of other fields are skipped, and the four are still found (also when percent-encoded)
        const many = yield* post(info.baseUrl + info.paths.token, {
          headers,
          body: `${"a=b&".repeat(1500)}grant%5Ftype=client_credentials&${padded(1000).slice(padded(1000).indexOf("&client_id"))}`
        })
        assert.strictEqual(many.status, 200, many.text)
        const exact = padded(8192)
        assert.strictEqual(exact.length, 8192)
        assert.strictEqual((yield* post(info.baseUrl + info.paths.token, { headers, body: exact })).status, 200)
        const over = yield* post(info.baseUrl + info.paths.token, { headers, body: padded(8193) })
        assert.strictEqual(over.status, 413)
        assert.strictEqual(over.json.error, "invalid_request")
        const huge = yield* post(info.baseUrl + info.paths.token, { headers, body: padded(5_000_000) })
        assert.strictEqual(huge.status, 413)
        // a repeated field is still refused
        const twice = yield* post(info.baseUrl + info.paths.token, {
          headers,
          body: `${new URLSearchParams(fields).toString()}&client%5Fid=other`
        })
        assert.strictEqual(twice.status, 400)
        assert.match(twice.json.error_description, /client_id given more than once/)
      })
    )
  })

  describe("balance check", () => {
    it.effect("APPR when the balance covers the amount, DECL otherwise; IDs echoed", () =>
      Effect.gen(function* () {
        const { t, url } = yield* session("PIISP", "balanceCheck")
        const headers = apiHeaders(t, { "correlation-id": "corr-1", "process-id": "proc-1" })
        const ok = yield* post(url, { headers, body: balanceBody(ibans.eurBranch, 12500) })
        assert.strictEqual(ok.status, 200)
        assert.strictEqual(ok.json.response, "APPR")
        assert.match(ok.json.dateTime, /^\d{4}-\d{2}-\d{2}T/)
        assert.strictEqual(ok.headers.get("response-id"), headers["request-id"])
        assert.strictEqual(ok.headers.get("correlation-id"), "corr-1")
        assert.strictEqual(ok.headers.get("process-id"), "proc-1")
        const no = yield* post(url, { headers: apiHeaders(t), body: balanceBody(ibans.eurBranch, 12500.01) })
        assert.strictEqual(no.json.response, "DECL")
        const otherCurrency = yield* post(url, { headers: apiHeaders(t), body: balanceBody(ibans.eurBranch, 1, "CZK") })
        assert.strictEqual(otherCurrency.json.response, "DECL")
      })
    )

    it.effect("accepts an IBAN in print form", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const t = yield* token(info, "PIISP")
        const printed = ibans.eurBranch.replace(/(.{4})/g, "$1 ").trim()
        const a = yield* post(info.baseUrl + info.paths.balanceCheck, {
          headers: apiHeaders(t),
          body: balanceBody(printed, 1)
        })
        assert.strictEqual(a.status, 200)
      })
    )

    it.effect("403 without consent, for unknown accounts, without the PIISP scope", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const url = info.baseUrl + info.paths.balanceCheck
        const t = yield* token(info, "PIISP")
        const none = yield* post(url, { headers: apiHeaders(t), body: balanceBody(ibans.eurNoConsent, 1) })
        assert.strictEqual(none.status, 403)
        assert.strictEqual(none.json.code, "CONSENT_MISSING")
        assert.strictEqual(none.headers.get("content-type"), "application/problem+json")
        const unknown = yield* post(url, { headers: apiHeaders(t), body: balanceBody("AT483200000012345864", 1) })
        assert.strictEqual(unknown.status, 403)
        const aisp = yield* token(info, "AISP")
        const scope = yield* post(url, { headers: apiHeaders(aisp), body: balanceBody(ibans.eurBranch, 1) })
        assert.strictEqual(scope.status, 403)
        assert.strictEqual(scope.json.code, "SCOPE_INSUFFICIENT")
      })
    )

    it.effect("an electronic consent needs an SCA-style token (PIISP AISP bound to the account) and expires", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const url = info.baseUrl + info.paths.balanceCheck
        const plain = yield* token(info, "PIISP")
        const refused = yield* post(url, {
          headers: apiHeaders(plain),
          body: balanceBody(ibans.czkElectronic, 1, "CZK")
        })
        assert.strictEqual(refused.status, 403)
        assert.strictEqual(refused.json.code, "SCA_REQUIRED")
        const sca = yield* token(info, "PIISP AISP")
        const ok = yield* post(url, { headers: apiHeaders(sca), body: balanceBody(ibans.czkElectronic, 1, "CZK") })
        assert.strictEqual(ok.status, 200)
        assert.strictEqual(ok.json.response, "APPR")
        const expiredSca = yield* token(info, "PIISP AISP", aispExpired)
        const expired = yield* post(url, {
          headers: apiHeaders(expiredSca),
          body: balanceBody(ibans.eurExpired, 1)
        })
        assert.strictEqual(expired.status, 403)
        assert.strictEqual(expired.json.code, "CONSENT_EXPIRED")
      })
    )

    it.effect("500 concurrent balance checks are all answered correctly", () =>
      Effect.gen(function* () {
        const { t, url } = yield* session("PIISP", "balanceCheck")
        const answers = yield* Effect.forEach(
          Array.from({ length: 500 }, (_, i) => i),
          (i) =>
            Effect.map(
              post(url, {
                headers: apiHeaders(t),
                body: balanceBody(ibans.eurBranch, i % 2 === 0 ? 10 + i : 20000 + i)
              }),
              (a) => [i, a] as const
            ),
          { concurrency: "unbounded" }
        )
        for (const [i, a] of answers) {
          assert.strictEqual(a.status, 200)
          assert.strictEqual(a.json.response, i % 2 === 0 ? "APPR" : "DECL")
        }
      })
    )
  })

  describe("standing orders", () => {
    it.effect("pages through the orders bound to the AISP token with the default and explicit page sizes", () =>
      Effect.gen(function* () {
        const { info, t, url } = yield* session("AISP", "standingOrders")
        const bound = new Set(info.clients[0]?.aispAccounts)
        const expected = Fixtures.defaults.standingOrders.filter((o) => bound.has(o.debtor.iban))
        const p0 = yield* post(url, { headers: apiHeaders(t, present()), body: "{}" })
        assert.strictEqual(p0.status, 200)
        assert.strictEqual(p0.json.standingOrders.length, 50)
        assert.strictEqual(p0.json.pageCount, Math.ceil(expected.length / 50))
        const seen: Array<string> = []
        for (let page = 0; page < Math.ceil(expected.length / 100); page++) {
          const p = yield* post(url, {
            headers: apiHeaders(t, present()),
            body: JSON.stringify({ pageSize: 100, page })
          })
          for (const o of p.json.standingOrders) seen.push(o.orderId)
        }
        assert.deepStrictEqual(
          seen.sort(),
          expected.map((o) => o.orderId)
        )
        const beyond = yield* post(url, { headers: apiHeaders(t, present()), body: JSON.stringify({ page: 99 }) })
        assert.strictEqual(beyond.json.standingOrders.length, 0)
      })
    )

    it.effect("filters by IBAN and refuses accounts not bound to the token", () =>
      Effect.gen(function* () {
        const { t, url } = yield* session("AISP", "standingOrders")
        const one = yield* post(url, {
          headers: apiHeaders(t, present()),
          body: JSON.stringify({ iban: ibans.czkElectronic, pageSize: 100 })
        })
        assert.strictEqual(one.status, 200)
        assert.isAbove(one.json.standingOrders.length, 0)
        for (const o of one.json.standingOrders) assert.strictEqual(o.debtor.iban, ibans.czkElectronic)
        const other = yield* post(url, {
          headers: apiHeaders(t, present()),
          body: JSON.stringify({ iban: ibans.eurExpired })
        })
        assert.strictEqual(other.status, 403)
        assert.strictEqual(other.json.code, "ACCOUNT_NOT_BOUND")
      })
    )

    it.effect("validates page and pageSize (400 naming the field) and needs the AISP scope", () =>
      Effect.gen(function* () {
        const { info, t, url } = yield* session("AISP", "standingOrders")
        for (const [body, field] of [
          [{ pageSize: 15 }, "pageSize"],
          [{ pageSize: 110 }, "pageSize"],
          [{ page: -1 }, "page"],
          [{ page: "1" }, "page"],
          [{ iban: "SK00" }, "iban"]
        ] as const) {
          const a = yield* post(url, { headers: apiHeaders(t, present()), body: JSON.stringify(body) })
          assert.strictEqual(a.status, 400, JSON.stringify(body))
          assert.include(a.json.detail, field)
        }
        const piisp = yield* token(info, "PIISP")
        const scope = yield* post(url, { headers: apiHeaders(piisp, present()), body: "{}" })
        assert.strictEqual(scope.status, 403)
      })
    )
  })

  describe("bad input gets its 4xx and the server keeps serving", () => {
    /** A valid 1 EUR balance check whose headers have `extra` set (changed or added). */
    const validWith = (extra: Record<string, string>) => (_: string, t: string) => ({
      headers: apiHeaders(t, extra),
      body: balanceBody(ibans.eurBranch, 1)
    })
    /** A valid 1 EUR balance check without one of its headers (lower-case name). */
    const validWithout = (header: string) => (_: string, t: string) => {
      const headers = apiHeaders(t)
      delete headers[header]
      return { headers, body: balanceBody(ibans.eurBranch, 1) }
    }
    const cases: ReadonlyArray<{
      name: string
      status: number
      code: string
      request: (url: string, t: string) => { method?: string; headers: Record<string, string>; body?: string }
      path?: "balanceCheck" | "unknown"
    }> = [
      {
        name: "malformed JSON",
        status: 400,
        code: "FORMAT_ERROR",
        request: (_, t) => ({ headers: apiHeaders(t), body: "{" })
      },
      {
        name: "a JSON array",
        status: 400,
        code: "FORMAT_ERROR",
        request: (_, t) => ({ headers: apiHeaders(t), body: "[]" })
      },
      {
        name: "a repeated key",
        status: 400,
        code: "FORMAT_ERROR",
        request: (_, t) => ({
          headers: apiHeaders(t),
          body: balanceBody(ibans.eurBranch, 1).replace(
            '"amount":',
            '"amount":{"value":999999,"currency":"EUR"},"amount":'
          )
        })
      },
      {
        // read digit for digit: 22 decimals, which a float would have made 1
        name: "an amount with more decimals than a float holds",
        status: 400,
        code: "FORMAT_ERROR",
        request: (_, t) => ({
          headers: apiHeaders(t),
          body: balanceBody(ibans.eurBranch, 1).replace('"value":1,', '"value":1.0000000000000000000001,')
        })
      },
      {
        name: "wrong type of amount.value",
        status: 400,
        code: "FORMAT_ERROR",
        request: (_, t) => ({
          headers: apiHeaders(t),
          body: JSON.stringify({
            instructionIdentification: "x",
            iban: ibans.eurBranch,
            amount: { value: "1", currency: "EUR" }
          })
        })
      },
      {
        name: "three decimals",
        status: 400,
        code: "FORMAT_ERROR",
        request: (_, t) => ({ headers: apiHeaders(t), body: balanceBody(ibans.eurBranch, 1.234) })
      },
      {
        name: "lower-case currency",
        status: 400,
        code: "FORMAT_ERROR",
        request: (_, t) => ({ headers: apiHeaders(t), body: balanceBody(ibans.eurBranch, 1, "eur") })
      },
      ...(["Request-ID", "PSU-IP-Address", "PSU-Device-OS", "PSU-User-Agent"] as const).map((header) => ({
        name: `missing ${header}`,
        status: 400,
        code: "FORMAT_ERROR",
        request: validWithout(header.toLowerCase())
      })),
      {
        name: "missing Authorization",
        status: 401,
        code: "TOKEN_MISSING",
        request: validWithout("authorization")
      },
      {
        name: "unknown token",
        status: 401,
        code: "TOKEN_INVALID",
        request: () => ({ headers: apiHeaders("nope"), body: balanceBody(ibans.eurBranch, 1) })
      },
      {
        name: "bad PSU-IP-Address",
        status: 400,
        code: "FORMAT_ERROR",
        request: validWith({ "psu-ip-address": "localhost" })
      },
      {
        name: "bad PSU-Last-Logged-Time",
        status: 400,
        code: "FORMAT_ERROR",
        request: validWith({ "psu-last-logged-time": "yesterday" })
      },
      {
        name: "oversized body",
        status: 413,
        code: "PAYLOAD_TOO_LARGE",
        request: (_, t) => ({ headers: apiHeaders(t), body: JSON.stringify({ pad: "x".repeat(70_000) }) })
      },
      {
        name: "wrong content type",
        status: 415,
        code: "UNSUPPORTED_MEDIA_TYPE",
        request: validWith({ "content-type": "text/plain" })
      },
      {
        name: "wrong method",
        status: 405,
        code: "METHOD_NOT_ALLOWED",
        request: (_, t) => ({ method: "GET", headers: apiHeaders(t) })
      },
      {
        name: "unknown path",
        status: 404,
        code: "RESOURCE_UNKNOWN",
        path: "unknown",
        request: (_, t) => ({ headers: apiHeaders(t), body: "{}" })
      },
      {
        name: "unknown fault name",
        status: 400,
        code: "FORMAT_ERROR",
        request: validWith({ "x-sandbox-fault": "explode" })
      }
    ]
    for (const c of cases) {
      it.effect(`${c.name} → ${c.status}`, () =>
        Effect.gen(function* () {
          const info = yield* Sandbox.SandboxInfo
          const t = yield* token(info, "PIISP")
          const url = info.baseUrl + (c.path === "unknown" ? "/piisp-test/api/v2/nothing" : info.paths.balanceCheck)
          const a = yield* post(url, c.request(url, t))
          assert.strictEqual(a.status, c.status, a.text)
          assert.strictEqual(a.json.code, c.code)
          assert.strictEqual(a.json.status, c.status)
          const after = yield* post(info.baseUrl + info.paths.balanceCheck, {
            headers: apiHeaders(t),
            body: balanceBody(ibans.eurBranch, 1)
          })
          assert.strictEqual(after.status, 200)
        })
      )
    }

    it.effect("a missing mandatory header is named in the answer; both geolocation spellings are accepted", () =>
      Effect.gen(function* () {
        const { t, url } = yield* session("PIISP", "balanceCheck")
        const headers = apiHeaders(t)
        delete headers["psu-device-os"]
        const a = yield* post(url, { headers, body: balanceBody(ibans.eurBranch, 1) })
        assert.include(a.json.detail, "PSU-Device-OS")
        for (const name of ["psu-geolocation", "psu-geo-location"]) {
          const ok = yield* post(url, {
            headers: apiHeaders(t, { [name]: "48.1486, 17.1077" }),
            body: balanceBody(ibans.eurBranch, 1)
          })
          assert.strictEqual(ok.status, 200, name)
        }
      })
    )
  })

  describe("error dialects", () => {
    it.effect("problem details by default; Berlin Group and CZ/SK on request", () =>
      Effect.gen(function* () {
        const { t, url } = yield* session("PIISP", "balanceCheck")
        const bg = yield* post(url, {
          headers: apiHeaders(t, { "x-sandbox-error-dialect": "berlin-group" }),
          body: balanceBody(ibans.eurNoConsent, 1)
        })
        assert.strictEqual(bg.status, 403)
        assert.strictEqual(bg.json.tppMessages[0].category, "ERROR")
        assert.strictEqual(bg.json.tppMessages[0].code, "CONSENT_MISSING")
        const cz = yield* post(url, {
          headers: apiHeaders(t, { "x-sandbox-error-dialect": "cz-sk" }),
          body: balanceBody(ibans.eurNoConsent, 1)
        })
        assert.strictEqual(cz.json.errors[0].error, "CONSENT_MISSING")
        assert.strictEqual(cz.json.errors[0].scope, "iban")
        assert.isString(cz.json.errors[0].message)
      })
    )
  })

  describe("faults", () => {
    const call = (fault: string) =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const t = yield* token(info, "PIISP")
        return yield* Effect.promise(() =>
          fetch(info.baseUrl + info.paths.balanceCheck, {
            method: "POST",
            headers: apiHeaders(t, { "x-sandbox-fault": fault }),
            body: balanceBody(ibans.eurBranch, 1)
          }).then(
            async (res) => ({
              status: res.status,
              headers: res.headers,
              text: await res.text().catch(() => "<broken>")
            }),
            (e: unknown) => ({ status: -1, headers: new Headers(), text: String(e) })
          )
        )
      })
    it.effect("503 and 429 with Retry-After, 502 as HTML", () =>
      Effect.gen(function* () {
        const a = yield* call("503")
        assert.strictEqual(a.status, 503)
        assert.strictEqual(a.headers.get("retry-after"), "1")
        const b = yield* call("429")
        assert.strictEqual(b.status, 429)
        assert.isNotNull(b.headers.get("retry-after"))
        const c = yield* call("502")
        assert.strictEqual(c.status, 502)
        assert.match(c.headers.get("content-type") ?? "", /text\/html/)
      })
    )
    it.effect("reset, truncate and nonjson break the answer; expired-token answers 401", () =>
      Effect.gen(function* () {
        const reset = yield* call("reset")
        assert.strictEqual(reset.status, -1)
        const truncated = yield* call("truncate")
        assert.isTrue(truncated.status === -1 || truncated.text === "<broken>", JSON.stringify(truncated.text))
        const nonjson = yield* call("nonjson")
        assert.strictEqual(nonjson.status, 200)
        assert.throws(() => JSON.parse(nonjson.text))
        const expired = yield* call("expired-token")
        assert.strictEqual(expired.status, 401)
        assert.include(expired.text, "TOKEN_EXPIRED")
      })
    )
    it.effect("delay postpones the answer", () =>
      Effect.gen(function* () {
        const a = yield* call("delay=50")
        assert.strictEqual(a.status, 200)
      })
    )
    it.effect("magic balance-check amounts select faults without the header; the header wins over them", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const t = yield* token(info, "PIISP")
        const check = (value: number, extra: Record<string, string> = {}) =>
          post(info.baseUrl + info.paths.balanceCheck, {
            headers: apiHeaders(t, extra),
            body: balanceBody(ibans.eurBranch, value)
          })
        const expected: Array<[number, number]> = [
          [503.03, 503],
          [502.02, 502],
          [429.29, 429],
          [401.01, 401],
          [503.3, 200],
          [503, 200]
        ]
        for (const [value, status] of expected) {
          const a = yield* check(value)
          assert.strictEqual(a.status, status, String(value))
        }
        // the amount is read digit for digit: the same decimal written longer is magic, a different one is not
        const written = (amount: string) =>
          post(info.baseUrl + info.paths.balanceCheck, {
            headers: apiHeaders(t),
            body: balanceBody(ibans.eurBranch, 1).replace('"value":1,', `"value":${amount},`)
          })
        assert.strictEqual((yield* written("503.030")).status, 503)
        assert.strictEqual((yield* written("503.030000000000000000001")).status, 400)
        const unavailable = yield* check(503.03)
        assert.strictEqual(unavailable.headers.get("retry-after"), "1")
        assert.strictEqual(unavailable.json.code, "SERVICE_UNAVAILABLE")
        const headerWins = yield* check(503.03, { "x-sandbox-fault": "delay=1" })
        assert.strictEqual(headerWins.status, 200)
        assert.strictEqual(headerWins.json.response, "APPR")
      })
    )
  })

  describe("journal", () => {
    it.effect("records requests with secrets masked, readable by service and by GET /__journal", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const journal = yield* Journal.Journal
        const t = yield* token(info, "PIISP")
        yield* post(info.baseUrl + info.paths.balanceCheck, {
          headers: apiHeaders(t, { "request-id": "journal-probe" }),
          body: balanceBody(ibans.eurBranch, 1)
        })
        const entries = yield* journal.entries
        const probe = entries.find((e) => e.headers["request-id"] === "journal-probe")
        assert.isDefined(probe)
        assert.strictEqual(probe?.status, 200)
        assert.strictEqual(probe?.outcome, "ok:APPR")
        assert.strictEqual(probe?.headers.authorization, "Bearer ***")
        const tokenEntry = entries.find((e) => e.path === info.paths.token)
        assert.include(tokenEntry?.body ?? "", "client_secret=***")
        assert.notInclude(JSON.stringify(entries), "sandbox-secret")
        assert.notInclude(JSON.stringify(entries), t)
        const web = yield* post(`${info.baseUrl}/__journal`, { method: "GET" })
        assert.strictEqual(web.status, 200)
        assert.isTrue(
          web.json.some((e: { headers: Record<string, string> }) => e.headers["request-id"] === "journal-probe")
        )
      })
    )
  })

  describe("OpenAPI", () => {
    it.effect("GET /openapi.json serves the document with the three operations", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const a = yield* post(`${info.baseUrl}/openapi.json`, { method: "GET" })
        assert.strictEqual(a.status, 200)
        assert.strictEqual(a.json.openapi, "3.1.0")
        for (const p of [info.paths.token, info.paths.balanceCheck, info.paths.standingOrders]) {
          assert.isDefined(a.json.paths[p]?.post, p)
        }
      })
    )
  })
})

/**
 * On the sandbox clock set to `at`, four unattended listings with a new AISP token, each answered, then the fifth:
 * refused with 429. The fifth one's response, the token and the listing's URL.
 */
const fifthListing = (at: string) =>
  Effect.gen(function* () {
    yield* (yield* SandboxClock.SandboxClock).set(Date.parse(at))
    const { t, url } = yield* session("AISP", "standingOrders")
    for (let i = 0; i < 4; i++) {
      const a = yield* post(url, { headers: apiHeaders(t), body: "{}" })
      assert.strictEqual(a.status, 200, `call ${i + 1}`)
    }
    const fifth = yield* post(url, { headers: apiHeaders(t), body: "{}" })
    assert.strictEqual(fifth.status, 429)
    return { fifth, t, url }
  })

layer(Sandbox.layer())("Sandbox clock", (it) => {
  it.effect("a token expires after 1200 s of sandbox time, with no real waiting", () =>
    Effect.gen(function* () {
      const clock = yield* SandboxClock.SandboxClock
      const { t, url } = yield* session("PIISP", "balanceCheck")
      yield* clock.adjust("1199 seconds")
      const still = yield* post(url, { headers: apiHeaders(t), body: balanceBody(ibans.eurBranch, 1) })
      assert.strictEqual(still.status, 200)
      yield* clock.adjust("1 second")
      const gone = yield* post(url, { headers: apiHeaders(t), body: balanceBody(ibans.eurBranch, 1) })
      assert.strictEqual(gone.status, 401)
      assert.strictEqual(gone.json.code, "TOKEN_EXPIRED")
      assert.match(gone.headers.get("www-authenticate") ?? "", /invalid_token/)
    })
  )

  it.effect("4 listings a day without the customer present, then 429 with Retry-After until the next day", () =>
    Effect.gen(function* () {
      const info = yield* Sandbox.SandboxInfo
      const clock = yield* SandboxClock.SandboxClock
      // Noon in Bratislava, so that the day does not change under the test.
      const { fifth, t, url } = yield* fifthListing("2026-11-23T11:00:00Z")
      assert.strictEqual(fifth.json.code, "ACCESS_EXCEEDED")
      assert.strictEqual(fifth.headers.get("retry-after"), String(12 * 3600))
      // The customer present (logged in within the hour by the sandbox clock) is not limited; a log-in time in the
      // future (beyond the minute of clock skew) does not make the customer present.
      for (const [loggedIn, status] of [
        ["2026-11-23T10:30:00Z", 200], // within the hour
        ["2026-11-23T09:59:59Z", 429], // a stale log-in
        ["2099-01-01T00:00:00Z", 429], // in the future
        ["2026-11-23T11:00:30Z", 200] // slightly ahead, within the skew
      ] as const) {
        const listing = yield* post(url, { headers: apiHeaders(t, { "psu-last-logged-time": loggedIn }), body: "{}" })
        assert.strictEqual(listing.status, status, loggedIn)
      }
      // The next day in Bratislava the budget is back.
      yield* clock.adjust("12 hours")
      const t2 = yield* token(info, "AISP")
      const nextDay = yield* post(url, { headers: apiHeaders(t2, { "request-id": randomUUID() }), body: "{}" })
      assert.strictEqual(nextDay.status, 200)
    })
  )
})

layer(Sandbox.layer())("Sandbox daily limit on a clock-change day", (it) => {
  it.effect("Retry-After counts to the next midnight in Bratislava on a 25-hour day", () =>
    Effect.gen(function* () {
      // 01:00 summer time on 2026-10-25; the clocks go back at 03:00, so the next midnight is 24 hours away
      const { fifth } = yield* fifthListing("2026-10-24T23:00:00Z")
      assert.strictEqual(fifth.headers.get("retry-after"), String(24 * 3600))
    })
  )
})

layer(Sandbox.layer())("Sandbox daily limit per consent", (it) => {
  it.effect("a new token of the same consent shares the 4 listings; another consent has its own", () =>
    Effect.gen(function* () {
      const info = yield* Sandbox.SandboxInfo
      const clock = yield* SandboxClock.SandboxClock
      yield* clock.set(Date.parse("2026-11-24T11:00:00Z"))
      const url = info.baseUrl + info.paths.standingOrders
      for (let i = 0; i < 4; i++) {
        const t = yield* token(info, "AISP")
        const a = yield* post(url, { headers: apiHeaders(t), body: "{}" })
        assert.strictEqual(a.status, 200, `call ${i + 1}`)
      }
      const again = yield* post(url, { headers: apiHeaders(yield* token(info, "AISP PIISP")), body: "{}" })
      assert.strictEqual(again.status, 429)
      const other = yield* post(url, { headers: apiHeaders(yield* token(info, "AISP", aispExpired)), body: "{}" })
      assert.strictEqual(other.status, 200)
    })
  )
})

layer(Sandbox.layer({ environment: "live", errorDialect: "cz-sk", pageCountAsString: true }))(
  "Sandbox options",
  (it) => {
    it.effect("serves the LIVE paths, answers in the chosen dialect and sends pageCount as text", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        assert.strictEqual(info.paths.token, "/identity-server/connect/token")
        const t = yield* token(info, "AISP PIISP")
        const list = yield* post(info.baseUrl + info.paths.standingOrders, {
          headers: apiHeaders(t, present()),
          body: "{}"
        })
        assert.strictEqual(typeof list.json.pageCount, "string")
        const refused = yield* post(info.baseUrl + info.paths.balanceCheck, {
          headers: apiHeaders(t),
          body: balanceBody(ibans.eurNoConsent, 1)
        })
        assert.strictEqual(refused.json.errors[0].error, "CONSENT_MISSING")
        const sandboxPath = yield* post(`${info.baseUrl}/piisp-test/api/v1/accounts/balanceCheck`, {
          headers: apiHeaders(t),
          body: "{}"
        })
        assert.strictEqual(sandboxPath.status, 404)
      })
    )
  }
)

layer(Sandbox.layer({ faults: { rate: 0.5, seed: 7, kinds: ["503"] } }))("Sandbox global faults", (it) => {
  it.effect("a seeded rate fails some requests and serves the rest", () =>
    Effect.gen(function* () {
      const info = yield* Sandbox.SandboxInfo
      const statuses: Array<number> = []
      for (let i = 0; i < 40; i++) {
        const a = yield* tokenAnswer(info, "PIISP")
        statuses.push(a.status)
      }
      assert.isTrue(statuses.includes(503))
      assert.isTrue(statuses.includes(200))
      assert.deepStrictEqual([...new Set(statuses)].sort(), [200, 503])
    })
  )
})
