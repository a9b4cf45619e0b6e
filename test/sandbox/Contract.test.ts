/**
 * The contract between the mock bank and tppkit's own reading of the wire: every endpoint, fault and error dialect
 * of the mock bank is driven, and every answer it produces is decoded with core's schemas (`ErrorBody.decode`, the
 * response entry points) and through the http client. No answer the mock bank itself writes may come back as `Raw`;
 * only the faults that break the answer on purpose (502 HTML, nonjson, truncate, reset) are not decodable.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { AccessToken, BalanceCheck, type Currency, ErrorBody, Iban, Money, Profile, StandingOrder } from "@tppkit/core"
import { BankClient, BankConfig, BankTransport } from "@tppkit/http"
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { Effect, Exit, Layer, Redacted, Result, Schema } from "effect"
import { type Answer, apiHeaders, balanceBody, post, token, tokenAnswer } from "./support.ts"

const dialects = ["problem", "berlin-group", "cz-sk"] as const
const present = () => ({ "psu-last-logged-time": new Date().toISOString() })
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
const formHeaders = { "content-type": "application/x-www-form-urlencoded" }

/** Core's reading of an error answer: a known shape (never `Raw`) with the expected code. */
const assertDecodedError = (a: Answer, code: string, label: string) => {
  const body = ErrorBody.decode(a.status, a.headers.get("content-type") ?? undefined, a.text)
  assert.notStrictEqual(body._tag, "Raw", `${label}: ${a.status} ${a.text}`)
  assert.strictEqual(ErrorBody.code(body), code, label)
}

layer(Sandbox.layer())("Contract: every answer of the mock bank decodes with core", (it) => {
  it.effect("the token endpoint: the token, and every OAuth error", () =>
    Effect.gen(function* () {
      const info = yield* Sandbox.SandboxInfo
      const ok = yield* tokenAnswer(info, "PIISP AISP")
      assert.strictEqual(ok.status, 200)
      assert.isTrue(Result.isSuccess(AccessToken.decodeResponse(JSON.parse(ok.text))))
      const url = info.baseUrl + info.paths.token
      const secret = Redacted.value(info.clientSecret)
      const valid = {
        grant_type: "client_credentials",
        client_id: info.clientId,
        client_secret: secret,
        scope: "PIISP"
      }
      const cases: Array<[string, { headers?: Record<string, string>; body?: string; method?: string }, string]> = [
        ["not a form", { headers: { "content-type": "application/json" }, body: "{}" }, "invalid_request"],
        [
          "missing field",
          { headers: formHeaders, body: form({ grant_type: "client_credentials" }) },
          "invalid_request"
        ],
        ["twice", { headers: formHeaders, body: `${form(valid)}&scope=AISP` }, "invalid_request"],
        ["grant", { headers: formHeaders, body: form({ ...valid, grant_type: "password" }) }, "unsupported_grant_type"],
        ["secret", { headers: formHeaders, body: form({ ...valid, client_secret: "wrong" }) }, "invalid_client"],
        ["scope", { headers: formHeaders, body: form({ ...valid, scope: "PIISP NOPE" }) }, "invalid_scope"],
        [
          "right",
          {
            headers: formHeaders,
            body: form({ ...valid, client_id: "tppkit-piisp", client_secret: "piisp-secret", scope: "AISP" })
          },
          "invalid_scope"
        ],
        ["too large", { headers: formHeaders, body: "a".repeat(70_000) }, "invalid_request"],
        [
          "fault 503",
          { headers: { ...formHeaders, "x-sandbox-fault": "503" }, body: form(valid) },
          "temporarily_unavailable"
        ],
        [
          "unknown fault",
          { headers: { ...formHeaders, "x-sandbox-fault": "bogus" }, body: form(valid) },
          "invalid_request"
        ]
      ]
      for (const [label, init, code] of cases) assertDecodedError(yield* post(url, init), code, `token ${label}`)
      const expired = yield* post(url, {
        headers: { ...formHeaders, "x-sandbox-fault": "expired-token" },
        body: form(valid)
      })
      assert.isTrue(Result.isSuccess(AccessToken.decodeResponse(JSON.parse(expired.text))))
    })
  )

  for (const dialect of dialects) {
    it.effect(`the API paths in the ${dialect} dialect: every success and every error`, () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const check = info.baseUrl + info.paths.balanceCheck
        const list = info.baseUrl + info.paths.standingOrders
        const piisp = yield* token(info, "PIISP")
        const aisp = yield* token(info, "AISP PIISP")
        const d = { "x-sandbox-error-dialect": dialect }
        const withDialect = (t: string, extra: Record<string, string> = {}) => apiHeaders(t, { ...d, ...extra })

        const approved = yield* post(check, {
          headers: withDialect(piisp),
          body: balanceBody(Fixtures.ibans.eurBranch, 1)
        })
        const decodedCheck = BalanceCheck.decodeResponse(approved.json)
        assert.isTrue(Result.isSuccess(decodedCheck) && decodedCheck.success.response === "APPR")
        const page = yield* post(list, { headers: withDialect(aisp, present()), body: '{"pageSize":10}' })
        assert.strictEqual(page.status, 200)
        const lenient = StandingOrder.decodeListLenient(page.json)
        assert.isTrue(
          Result.isSuccess(lenient) && lenient.success.errors.length === 0 && lenient.success.orders.length === 10
        )
        assert.isTrue(Result.isSuccess(Schema.decodeUnknownResult(StandingOrder.ListResponse)(page.json)))

        const other = yield* token(info, "AISP", { clientId: "tppkit-aisp", clientSecret: "aisp-secret" })
        type Case = [string, string, { headers?: Record<string, string>; body?: string; method?: string }, string]
        /** A balance check with the token's headers plus `extra`, its body empty. */
        const headerCase = (label: string, extra: Record<string, string>, code: string): Case => [
          label,
          check,
          { headers: withDialect(piisp, extra), body: "{}" },
          code
        ]
        /** A balance check with `body` under `bearer` (the PIISP token unless given). */
        const bodyCase = (label: string, body: string, code: string, bearer = piisp): Case => [
          label,
          check,
          { headers: withDialect(bearer), body },
          code
        ]
        const aispExpired = yield* token(info, "PIISP AISP", { clientId: "tppkit-aisp", clientSecret: "aisp-secret" })
        const cases: Array<Case> = [
          headerCase("content type", { "content-type": "text/plain" }, "UNSUPPORTED_MEDIA_TYPE"),
          headerCase("no request id", { "request-id": "" }, "FORMAT_ERROR"),
          headerCase("bad ip", { "psu-ip-address": "999.1.1.1" }, "FORMAT_ERROR"),
          headerCase("bad geo", { "psu-geolocation": "north" }, "FORMAT_ERROR"),
          headerCase("bad login time", { "psu-last-logged-time": "yesterday" }, "FORMAT_ERROR"),
          ["no token", check, { headers: { ...withDialect(piisp), authorization: "" }, body: "{}" }, "TOKEN_MISSING"],
          [
            "not bearer",
            check,
            { headers: { ...withDialect(piisp), authorization: "Basic abc" }, body: "{}" },
            "TOKEN_INVALID"
          ],
          bodyCase("unknown token", "{}", "TOKEN_INVALID", "nope"),
          bodyCase("not json", "{oops", "FORMAT_ERROR"),
          bodyCase("not an object", "[1]", "FORMAT_ERROR"),
          bodyCase("schema", '{"iban":"SK00"}', "FORMAT_ERROR"),
          bodyCase("scope", balanceBody(Fixtures.ibans.eurBranch, 1), "SCOPE_INSUFFICIENT", other),
          bodyCase("no consent", balanceBody(Fixtures.ibans.eurNoConsent, 1), "CONSENT_MISSING"),
          bodyCase("sca", balanceBody(Fixtures.ibans.czkElectronic, 1, "CZK"), "SCA_REQUIRED"),
          bodyCase("expired consent", balanceBody(Fixtures.ibans.eurExpired, 1), "CONSENT_EXPIRED", aispExpired),
          ["list scope", list, { headers: withDialect(piisp), body: "{}" }, "SCOPE_INSUFFICIENT"],
          [
            "not bound",
            list,
            { headers: withDialect(aisp), body: JSON.stringify({ iban: Fixtures.ibans.eurExpired }) },
            "ACCOUNT_NOT_BOUND"
          ],
          ["page size", list, { headers: withDialect(aisp), body: '{"pageSize":15}' }, "FORMAT_ERROR"],
          bodyCase("too large", "a".repeat(70_000), "PAYLOAD_TOO_LARGE"),
          ["unknown path", `${info.baseUrl}/nowhere`, { headers: withDialect(piisp), body: "{}" }, "RESOURCE_UNKNOWN"],
          ["method", check, { headers: withDialect(piisp), method: "PUT", body: "{}" }, "METHOD_NOT_ALLOWED"],
          ["journal method", `${info.baseUrl}/__journal`, { headers: d, method: "DELETE" }, "METHOD_NOT_ALLOWED"],
          ["journal query", `${info.baseUrl}/__journal?since=x`, { headers: d, method: "GET" }, "FORMAT_ERROR"],
          headerCase("fault 503", { "x-sandbox-fault": "503" }, "SERVICE_UNAVAILABLE"),
          headerCase("fault 429", { "x-sandbox-fault": "429" }, "TOO_MANY_REQUESTS"),
          headerCase("fault expired", { "x-sandbox-fault": "expired-token" }, "TOKEN_EXPIRED"),
          headerCase("fault unknown", { "x-sandbox-fault": "bogus" }, "FORMAT_ERROR"),
          bodyCase("magic amount", balanceBody(Fixtures.ibans.eurBranch, 503.03), "SERVICE_UNAVAILABLE")
        ]
        for (const [label, url, init, code] of cases)
          assertDecodedError(yield* post(url, init), code, `${dialect} ${label}`)

        // the daily limit: a token of its own consent, four unattended listings, then the fifth
        const limited = yield* token(info, "AISP", { clientId: "tppkit-aisp", clientSecret: "aisp-secret" })
        let fifth: Answer | undefined
        for (let i = 0; i < 5; i++) fifth = yield* post(list, { headers: withDialect(limited), body: "{}" })
        if (dialect === "problem" && fifth !== undefined) assertDecodedError(fifth, "ACCESS_EXCEEDED", "daily limit")
        else if (fifth !== undefined && fifth.status === 429)
          assertDecodedError(fifth, "ACCESS_EXCEEDED", "daily limit")
      })
    )
  }
})

/**
 * A transport that adds the given headers to every API request (the client cannot set sandbox headers itself); the
 * token request gets only the dialect header, so that a fault hits the call under test.
 */
const withHeaders = (headers: Record<string, string>) =>
  Layer.effect(
    BankTransport.BankTransport,
    Effect.map(Effect.service(BankTransport.BankTransport), (base) =>
      BankTransport.BankTransport.of({
        send: (outgoing, timeout) => {
          const extra = outgoing.url.includes("/connect/token")
            ? Object.fromEntries(Object.entries(headers).filter(([k]) => k !== "x-sandbox-fault"))
            : headers
          return base.send({ ...outgoing, headers: { ...outgoing.headers, ...extra } }, timeout)
        }
      })
    )
  ).pipe(Layer.provide(BankTransport.BankTransport.layerUndici()))

/** The http client against a running mock bank (under its profile), every request carrying `headers`. */
const clientStack = (info: Sandbox.SandboxInfo["Service"], headers: Record<string, string>, secret?: string) => {
  const config = BankConfig.BankConfig.layer({
    environment: "sandbox",
    baseUrl: info.baseUrl,
    clientId: info.clientId,
    clientSecret: secret === undefined ? info.clientSecret : Redacted.make(secret),
    retry: { maxAttempts: 1, baseDelay: "1 millis", maxDelay: "1 millis" },
    ...(info.profile.name === "sbas"
      ? {}
      : { profile: info.profile, apiKey: info.apiKey, tpp: { name: "tppkit contract" } })
  })
  const transport = withHeaders(headers)
  return BankClient.BankClient.layerOver(config, transport).pipe(Layer.orDie)
}

const psu = { ipAddress: "203.0.113.7", deviceOs: "Linux", userAgent: "tppkit-contract" }
const check = (iban: string, amount = "1.00", currency = "EUR"): BalanceCheck.Request => ({
  instructionIdentification: "contract",
  iban: Iban.parseUnsafe(iban),
  amount: { value: Money.parseUnsafe(amount), currency: currency as Currency.CurrencyCode }
})

/** The code the client read from a failure's body; fails the test when the body is `Raw`. */
const codeOf = <A>(exit: Exit.Exit<A, { readonly reason: { readonly _tag: string } }>, label: string) => {
  assert.isTrue(Exit.isFailure(exit), label)
  if (!Exit.isFailure(exit)) return undefined
  const reason = exit.cause.reasons.find((r) => r._tag === "Fail")
  if (reason === undefined || reason._tag !== "Fail") throw new Error(`${label}: no typed failure`)
  const body = (reason.error.reason as { body?: ErrorBody.ErrorBody }).body
  assert.isDefined(body, `${label}: ${reason.error.reason._tag}`)
  if (body === undefined) return undefined
  assert.notStrictEqual(body._tag, "Raw", `${label}: ${body.raw}`)
  return ErrorBody.code(body)
}

/** What `f` did with the http client of the mock bank `info`, every request carrying `headers` (see `clientStack`). */
const withClient = <A, E>(
  info: Sandbox.SandboxInfo["Service"],
  headers: Record<string, string>,
  f: (c: BankClient.BankClient["Service"]) => Effect.Effect<A, E>,
  secret?: string
) =>
  Effect.exit(
    Effect.flatMap(Effect.service(BankClient.BankClient), f).pipe(Effect.provide(clientStack(info, headers, secret)))
  )

/** Each expectation's balance check, its headers added to `headers`, fails with the expectation's code. */
const expectCodes = (
  info: Sandbox.SandboxInfo["Service"],
  headers: Record<string, string>,
  expectations: ReadonlyArray<[string, Record<string, string>, BalanceCheck.Request, string]>,
  prefix: string
) =>
  Effect.gen(function* () {
    for (const [label, extra, request, code] of expectations) {
      const exit = yield* withClient(info, { ...headers, ...extra }, (c) => c.balanceCheck(request, { psu }))
      assert.strictEqual(codeOf(exit, `${prefix} ${label}`), code, `${prefix} ${label}`)
    }
  })

describe("Contract: the http client reads every answer of the mock bank", () => {
  for (const dialect of dialects) {
    it.live(`${dialect}: successes, refusals and faults come back decoded, never Raw`, () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const inDialect = { "x-sandbox-error-dialect": dialect }
        const run = <A, E>(f: (c: BankClient.BankClient["Service"]) => Effect.Effect<A, E>) =>
          withClient(info, inDialect, f)
        const ok = yield* run((c) => c.balanceCheck(check(Fixtures.ibans.eurBranch), { psu }))
        assert.isTrue(Exit.isSuccess(ok) && ok.value.body.response === "APPR")
        const listed = yield* run((c) =>
          c.standingOrdersPage({ psu: { ...psu, lastLoggedTime: new Date().toISOString() }, pageSize: 20 })
        )
        assert.isTrue(
          Exit.isSuccess(listed) && listed.value.body.errors.length === 0 && listed.value.body.orders.length === 20
        )
        const expectations: Array<[string, Record<string, string>, BalanceCheck.Request, string]> = [
          ["no consent", {}, check(Fixtures.ibans.eurNoConsent), "CONSENT_MISSING"],
          ["sca", {}, check(Fixtures.ibans.czkElectronic, "1.00", "CZK"), "SCA_REQUIRED"],
          ["503", { "x-sandbox-fault": "503" }, check(Fixtures.ibans.eurBranch), "SERVICE_UNAVAILABLE"],
          ["429", { "x-sandbox-fault": "429" }, check(Fixtures.ibans.eurBranch), "TOO_MANY_REQUESTS"],
          ["expired", { "x-sandbox-fault": "expired-token" }, check(Fixtures.ibans.eurBranch), "TOKEN_EXPIRED"],
          ["unknown fault", { "x-sandbox-fault": "bogus" }, check(Fixtures.ibans.eurBranch), "FORMAT_ERROR"]
        ]
        yield* expectCodes(info, inDialect, expectations, dialect)
        const notBound = yield* run((c) =>
          c.standingOrdersPage({ psu, iban: Iban.parseUnsafe(Fixtures.ibans.eurExpired) })
        )
        assert.strictEqual(codeOf(notBound, "not bound"), "ACCOUNT_NOT_BOUND")
        // the token endpoint's OAuth errors, read by the client's token service
        const badSecret = yield* withClient(
          info,
          inDialect,
          (c) => c.balanceCheck(check(Fixtures.ibans.eurBranch), { psu }),
          "wrong-secret"
        )
        assert.strictEqual(codeOf(badSecret, "bad secret"), "invalid_client")
      }).pipe(Effect.provide(Sandbox.layer()))
    )
  }

  // the same contract with the mock bank playing COBS: its dialect, its codes, the same faults
  it.live("cobs: successes, refusals and faults come back decoded in COBS's dialect, never Raw", () =>
    Effect.gen(function* () {
      const info = yield* Sandbox.SandboxInfo
      const cobsCheck = (iban: string, id: string, amount = "1.00", currency = "EUR") => ({
        ...check(iban, amount, currency),
        instructionIdentification: id
      })
      const ok = yield* withClient(info, {}, (c) =>
        c.balanceCheck(cobsCheck(Fixtures.ibans.eurBranch, "C-OK"), { psu })
      )
      assert.isTrue(Exit.isSuccess(ok) && ok.value.body.response === "APPR")
      const expectations: Array<[string, Record<string, string>, BalanceCheck.Request, string]> = [
        ["no consent", {}, cobsCheck(Fixtures.ibans.eurNoConsent, "C-1"), "AG01"],
        ["other currency", {}, cobsCheck(Fixtures.ibans.eurBranch, "C-2", "1.00", "CZK"), "AC09"],
        // a repeated id is asked again under a fresh one (the client's rule): a bank refusing that too answers RF01
        ["repeated id", { "x-sandbox-fault": "error=RF01" }, cobsCheck(Fixtures.ibans.eurBranch, "C-OK"), "RF01"],
        ["503", { "x-sandbox-fault": "503" }, cobsCheck(Fixtures.ibans.eurBranch, "C-3"), "SERVICE_UNAVAILABLE"],
        ["429", { "x-sandbox-fault": "429" }, cobsCheck(Fixtures.ibans.eurBranch, "C-4"), "TOO_MANY_REQUESTS"],
        ["wrong key", { "api-key": "wrong" }, cobsCheck(Fixtures.ibans.eurBranch, "C-5"), "UNAUTHORISED"]
      ]
      yield* expectCodes(info, {}, expectations, "cobs")
      // the list without the customer's token: the bank's 401 in its dialect
      const noToken = yield* withClient(info, {}, (c) =>
        c.standingOrdersPage({ psu, token: { ...badToken, environment: "sandbox" } })
      )
      assert.strictEqual(codeOf(noToken, "cobs bad token"), "UNAUTHORISED")
    }).pipe(Effect.provide(Sandbox.layer({ profile: Profile.cobs })))
  )
})

const badToken = {
  environment: "sandbox" as const,
  tokenType: "Bearer",
  value: Redacted.make("not-a-token-of-this-bank"),
  scopes: [],
  renewable: false
}
