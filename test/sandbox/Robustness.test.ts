import { assert, layer } from "@effect/vitest"
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { Effect } from "effect"
import fc from "fast-check"
import { apiHeaders, balanceBody, post, token } from "./support.ts"

const send = (url: string, headers: Record<string, string>, body: string) =>
  fetch(url, { method: "POST", headers, body }).then(async (res) => ({ status: res.status, text: await res.text() }))

layer(Sandbox.layer())("bad input never yields a 500", (it) => {
  it.effect("arbitrary JSON bodies on both API paths get 200 or a 4xx with a JSON body", () =>
    Effect.gen(function* () {
      const info = yield* Sandbox.SandboxInfo
      const t = yield* token(info, "PIISP AISP")
      const urls = [info.baseUrl + info.paths.balanceCheck, info.baseUrl + info.paths.standingOrders]
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(fc.constantFrom(...urls), fc.jsonValue(), async (url, value) => {
            const a = await send(
              url,
              apiHeaders(t, { "psu-last-logged-time": new Date().toISOString() }),
              JSON.stringify(value)
            )
            return (a.status === 200 || (a.status >= 400 && a.status < 500)) && JSON.parse(a.text) !== undefined
          }),
          { numRuns: 150 }
        )
      )
    })
  )

  it.effect("arbitrary header values and raw body text get 200 or a 4xx, and the server keeps serving", () =>
    Effect.gen(function* () {
      const info = yield* Sandbox.SandboxInfo
      const t = yield* token(info, "PIISP")
      const url = info.baseUrl + info.paths.balanceCheck
      const headerValue = fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, "").trim())
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(
            fc.constantFrom("psu-ip-address", "psu-geolocation", "psu-last-logged-time", "request-id", "content-type"),
            headerValue,
            fc.oneof(fc.string(), fc.constant(balanceBody(Fixtures.ibans.eurBranch, 1))),
            async (name, value, body) => {
              const a = await send(url, { ...apiHeaders(t), [name]: value }, body)
              return a.status === 200 || (a.status >= 400 && a.status < 500)
            }
          ),
          { numRuns: 150 }
        )
      )
      const after = yield* post(url, { headers: apiHeaders(t), body: balanceBody(Fixtures.ibans.eurBranch, 1) })
      assert.strictEqual(after.status, 200)
    })
  )
})
