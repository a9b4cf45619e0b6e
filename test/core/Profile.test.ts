import { Endpoint, Profile } from "@tppkit/core"
import { Result } from "effect"
import { describe, expect, it } from "vitest"

const problems = (json: unknown) => {
  const decoded = Profile.decode(json)
  if (Result.isSuccess(decoded)) throw new Error("expected problems")
  return decoded.failure
}

describe("Profile", () => {
  it("ships sbas with the seed bank's paths (core's Endpoint) and cobs with the rule book's", () => {
    for (const environment of ["live", "sandbox"] as const) {
      const paths = Endpoint.paths(environment)
      expect(Profile.path(Profile.sbas, "token", environment)).toBe(paths.token)
      expect(Profile.path(Profile.sbas, "balanceCheck", environment)).toBe(paths.balanceCheck)
      expect(Profile.path(Profile.sbas, "standingOrders", environment)).toBe(paths.standingOrders)
      expect(Profile.path(Profile.sbas, "standingOrder", environment)).toBeUndefined()
    }
    expect(Profile.cobs.operations.standingOrders).toMatchObject({
      method: "GET",
      paths: { live: "/my/standingorders" }
    })
    expect(Profile.cobs.operations.balanceCheck.auth).toEqual(["apiKey", "mutualTls"])
    expect(Profile.cobs.unattended).toMatchObject({ marker: "userInvolved", dailyLimit: 4 })
    expect(Profile.isSbas(Profile.sbas)).toBe(true)
    expect(Profile.isSbas(Profile.cobs)).toBe(false)
    expect([...Profile.builtIns.keys()]).toEqual(["sbas", "cobs"])
  })

  it("names every wrong field of a profile a user wrote", () => {
    const json = structuredClone(Profile.cobs) as unknown as {
      operations: Record<string, { paths: Record<string, string>; auth: Array<string> }>
      headers: Array<Record<string, unknown>>
      paging: Record<string, unknown>
      unattended: Record<string, unknown>
    }
    json.operations.standingOrders!.paths.live = "my/standingorders"
    json.operations.balanceCheck!.auth = ["apiKey", "certificate"]
    json.headers.push({ name: "User–IP-Port", from: "psu.ipAddress", required: false })
    json.paging.firstPage = 2
    const found = problems(json)
    const byPath = new Map(found.map((p) => [p.path, p.message]))
    expect(byPath.get("operations.standingOrders.paths.live")).toMatch(/must start with \//)
    expect(byPath.get("operations.balanceCheck.auth.1")).toBeDefined()
    expect(byPath.get(`headers.${json.headers.length - 1}.name`)).toMatch(/dash that is not ASCII/)
    expect(byPath.get("paging.firstPage")).toBeDefined()
    expect(found.length).toBe(4)
  })

  it("checks the rules across fields: the detail's placeholder, constants, repeated headers, time zones", () => {
    const json = structuredClone(Profile.cobs) as unknown as {
      operations: { standingOrder: { paths: Record<string, string> } }
      headers: Array<Record<string, unknown>>
      unattended: Record<string, unknown>
      technicalBreaks: Array<unknown>
    }
    json.operations.standingOrder.paths.sandbox = "/my/standingorders/one"
    delete json.headers[0]?.value
    json.headers.push({ name: "x-request-id", from: "requestId", required: true })
    json.unattended.timeZone = "Europe/Atlantis"
    json.technicalBreaks = [{ from: "01:00", to: "01:00", timeZone: "Europe/Prague" }]
    expect(problems(json).map((p) => p.path)).toEqual([
      "operations.standingOrder.paths.sandbox",
      "headers.0.value",
      `headers.${json.headers.length - 1}.name`,
      "unattended.timeZone",
      "technicalBreaks.0.to"
    ])
    const text = Profile.describe(problems({ name: "x" }))
    expect(text).toMatch(/^title: /m)
    expect(Profile.decodeJson("{").pipe(Result.isFailure)).toBe(true)
  })

  it("reads an unknown member as a mistake, not silently", () => {
    const json = { ...structuredClone(Profile.sbas), pagign: {} }
    expect(problems(json).map((p) => p.path)).toEqual(["pagign"])
  })

  it("says when a technical break ends, past midnight and on chosen weekdays", () => {
    const profile: Profile.Profile = {
      ...Profile.cobs,
      technicalBreaks: [{ weekdays: [7], from: "23:30", to: "01:00", timeZone: "UTC" }]
    }
    // Sunday 2026-11-29 23:45 UTC: in the break, which ends Monday 01:00
    expect(Profile.breakEnd(profile, Date.parse("2026-11-29T23:45:10.500Z"))).toBe(Date.parse("2026-11-30T01:00:00Z"))
    expect(Profile.breakEnd(profile, Date.parse("2026-11-30T00:59:59Z"))).toBe(Date.parse("2026-11-30T01:00:00Z"))
    expect(Profile.breakEnd(profile, Date.parse("2026-11-30T01:00:00Z"))).toBeUndefined()
    // Saturday 23:45: not a break day
    expect(Profile.breakEnd(profile, Date.parse("2026-11-28T23:45:00Z"))).toBeUndefined()
    expect(Profile.breakEnd(Profile.sbas, Date.parse("2026-11-29T23:45:00Z"))).toBeUndefined()
  })
})
