import { randomUUID } from "node:crypto"
import { assert, describe, layer } from "@effect/vitest"
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { Effect } from "effect"
import { apiHeaders, balanceBody, post, token, tokenAnswer } from "./support.ts"

const { ibans } = Fixtures

layer(Sandbox.layer())("Sandbox over loopback", (it) => {
  describe("token endpoint", () => {
    it.effect("issues a Bearer token valid 1200 s for the client's scopes", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        assert.match(info.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/)
        const a = yield* tokenAnswer(info, "PIISP AISP")
        assert.strictEqual(a.status, 200)
        assert.strictEqual(a.json.token_type, "Bearer")
        assert.strictEqual(a.json.expires_in, 1200)
        assert.isString(a.json.access_token)
      })
    )
  })

  describe("balance check", () => {
    it.effect("APPR when the balance covers the amount, DECL otherwise; IDs echoed", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const t = yield* token(info, "PIISP")
        const url = info.baseUrl + info.paths.balanceCheck
        const headers = apiHeaders(t, { "correlation-id": "corr-1", "process-id": "proc-1" })
        const ok = yield* post(url, { headers, body: balanceBody(ibans.eurBranch, 100.5) })
        assert.strictEqual(ok.status, 200)
        assert.strictEqual(ok.json.response, "APPR")
        assert.strictEqual(ok.headers.get("response-id"), headers["request-id"])
        assert.strictEqual(ok.headers.get("correlation-id"), "corr-1")
        assert.strictEqual(ok.headers.get("process-id"), "proc-1")
        const no = yield* post(url, { headers: apiHeaders(t), body: balanceBody(ibans.eurBranch, 12500.01) })
        assert.strictEqual(no.json.response, "DECL")
      })
    )
  })

  describe("standing orders", () => {
    it.effect("pages through the orders bound to the AISP token", () =>
      Effect.gen(function* () {
        const info = yield* Sandbox.SandboxInfo
        const t = yield* token(info, "AISP")
        const url = info.baseUrl + info.paths.standingOrder
        const last = new Date().toISOString()
        const p0 = yield* post(url, {
          headers: apiHeaders(t, { "psu-last-logged-time": last, "request-id": randomUUID() }),
          body: "{}"
        })
        assert.strictEqual(p0.status, 200)
        assert.strictEqual(p0.json.standingOrders.length, 50)
        assert.isAbove(p0.json.pageCount, 1)
      })
    )
  })
})
