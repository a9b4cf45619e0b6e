import { createConfig, lintFromString } from "@redocly/openapi-core"
import { OpenApi } from "@tppkit/sandbox"
import { describe, expect, it } from "vitest"

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
