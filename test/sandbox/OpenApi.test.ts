import { createConfig, lintFromString } from "@redocly/openapi-core"
import { Profile } from "@tppkit/core"
import { OpenApi } from "@tppkit/sandbox"
import { Effect } from "effect"
import { OpenAPIBackend } from "openapi-backend"
import { describe, expect, it } from "vitest"
import { cobsHeaders, customerTokens, runOnBank } from "./support.ts"

describe("OpenApi.document", () => {
  const doc = OpenApi.document("sandbox") as {
    openapi: string
    paths: Record<
      string,
      { post: { requestBody: { content: Record<string, unknown> }; parameters?: Array<{ name: string }> } }
    >
    components: { schemas: Record<string, unknown> }
  }

  it("describes the three operations with their request content types and headers", () => {
    expect(doc.openapi).toBe("3.1.0")
    const token = doc.paths["/identity-server-test/connect/token"]?.post
    expect(Object.keys(token?.requestBody.content ?? {})).toEqual(["application/x-www-form-urlencoded"])
    const check = doc.paths["/piisp-test/api/v1/accounts/balanceCheck"]?.post
    expect(Object.keys(check?.requestBody.content ?? {})).toEqual(["application/json"])
    expect(check?.parameters?.map((p) => p.name)).toContain("PSU-IP-Address")
    expect(doc.paths["/aisp-test/api/v1/accounts/standingOrder"]).toBeDefined()
  })

  it("lists every status the token endpoint answers with: 413 for a large form, 415 for another type, 503", () => {
    const token = (
      OpenApi.document("sandbox") as {
        paths: Record<string, { post: { responses: Record<string, { description: string }> } }>
      }
    ).paths["/identity-server-test/connect/token"]?.post
    expect(Object.keys(token?.responses ?? {}).sort()).toEqual(["200", "400", "401", "413", "415", "503"])
    expect(token?.responses["415"]?.description).toContain("application/x-www-form-urlencoded")
  })

  it("resolves every $ref inside the document and is plain JSON", () => {
    const text = JSON.stringify(doc)
    for (const m of text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) {
      expect(doc.components.schemas[m[1] ?? ""]).toBeDefined()
    }
    expect(text).not.toContain("#/$defs/")
    expect(JSON.parse(text)).toEqual(doc)
  })

  it("uses the LIVE paths for the live environment", () => {
    const live = OpenApi.document("live") as { paths: Record<string, unknown> }
    expect(Object.keys(live.paths)).toContain("/identity-server/connect/token")
  })
})

describe("OpenApi.document against a standard linter", () => {
  it("passes Redocly's recommended rules with no error and no warning, for both environments", async () => {
    const config = await createConfig({ extends: ["recommended"] })
    for (const environment of ["sandbox", "live"] as const) {
      const problems = await lintFromString({
        source: JSON.stringify(OpenApi.document(environment, "http://127.0.0.1:8080")),
        absoluteRef: `/${environment}/openapi.json`,
        config
      })
      expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([])
    }
  })

  it("describes every error dialect with core's schemas (problem details, tppMessages, errors[], OAuth)", () => {
    const doc = OpenApi.document("sandbox") as {
      paths: Record<string, { post: { responses: Record<string, { content: Record<string, unknown> }> } }>
    }
    const text = JSON.stringify(doc)
    for (const name of ["tppMessages", "errors", "error_description", "instance"]) expect(text).toContain(`"${name}"`)
    const check = doc.paths["/piisp-test/api/v1/accounts/balanceCheck"]?.post
    expect(Object.keys(check?.responses["401"]?.content ?? {}).sort()).toEqual([
      "application/json",
      "application/problem+json"
    ])
  })
})

describe("OpenApi.profileDocument: the mock bank playing COBS (issue 37)", () => {
  const doc = OpenApi.profileDocument(Profile.cobs, "sandbox") as {
    paths: Record<string, Record<string, { parameters?: Array<{ name: string; required: boolean }> }>>
  }

  it("describes the COBS operations at the profile's paths, with the profile's headers", () => {
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        "/accounts/balanceCheck",
        "/my/standingorders",
        "/my/standingorders/{transactionIdentification}",
        "/oauth2/token"
      ].sort()
    )
    const list = doc.paths["/my/standingorders"]?.get?.parameters ?? []
    expect(list.filter((p) => p.required).map((p) => p.name)).toEqual(
      expect.arrayContaining(["Content-Type", "Authorization", "X-Request-ID", "Date", "User-Involved", "TPP-Name"])
    )
    expect(list.map((p) => p.name)).toEqual(expect.arrayContaining(["size", "page", "User-IP-Address"]))
    // the balance check carries no token
    expect(doc.paths["/accounts/balanceCheck"]?.post?.parameters?.map((p) => p.name)).not.toContain("Authorization")
  })

  it("passes Redocly's recommended rules with no error", async () => {
    const config = await createConfig({ extends: ["recommended"] })
    const problems = await lintFromString({
      source: JSON.stringify(OpenApi.profileDocument(Profile.cobs, "sandbox", "http://127.0.0.1:8080")),
      absoluteRef: "/cobs/openapi.json",
      config
    })
    expect(problems.filter((p) => p.severity === "error").map((p) => `${p.ruleId}: ${p.message}`)).toEqual([])
  })

  it("is what GET /openapi.json serves under --profile cobs, and the mock bank's own list answers validate against it", async () => {
    const { served, listed } = await runOnBank({ profile: Profile.cobs }, ({ info }) =>
      Effect.promise(async () => {
        const served = (await (await fetch(`${info.baseUrl}/openapi.json`)).json()) as Record<string, unknown>
        const tokens = await customerTokens(info)
        const list = await fetch(`${info.baseUrl}/my/standingorders?size=5&page=0`, {
          headers: cobsHeaders(info, tokens.access_token, "tppkit")
        })
        return { served, listed: await list.json() }
      })
    )
    expect(Object.keys(served.paths as object)).toContain("/my/standingorders/{transactionIdentification}")
    // the document is OpenAPI 3.1 (Redocly lints it above); openapi-backend checks documents against 3.0 only: skipped
    const api = new OpenAPIBackend({ definition: served as never, quick: true, validate: true })
    await api.init()
    const result = api.validateResponse(listed, "standingOrders", 200)
    expect(result.errors ?? []).toEqual([])
  })
})
