import { Endpoint, Headers, Timestamp } from "@tppkit/core"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Arb from "../arbitraries/core.ts"

const valid = {
  "content-type": "application/json;charset=UTF-8",
  authorization: "Bearer abc",
  "request-id": "99391c7e-ad88-49ec-a2ad-99ddcb1f7721",
  "psu-ip-address": "192.168.8.78",
  "psu-device-os": "Android 14",
  "psu-user-agent": "Mozilla/5.0"
}

describe("Headers", () => {
  it("builds the outgoing headers of section 4.2 with the document's names", () => {
    const h = Headers.request({
      authorization: "Bearer abc",
      ids: { requestId: "r-1", processId: "p-1" },
      psu: {
        ipAddress: "2001:db8::1",
        deviceOs: "iOS",
        userAgent: "App/1.0",
        geoLocation: "48.1486, 17.1077",
        lastLoggedTime: Timestamp.parseUnsafe("2024-05-01T10:00:00Z")
      }
    })
    expect(h).toEqual({
      "Content-Type": "application/json;charset=UTF-8",
      Authorization: "Bearer abc",
      "Request-ID": "r-1",
      "Process-ID": "p-1",
      "PSU-IP-Address": "2001:db8::1",
      "PSU-Device-OS": "iOS",
      "PSU-User-Agent": "App/1.0",
      "PSU-GeoLocation": "48.1486, 17.1077",
      "PSU-Last-Logged-Time": "2024-05-01T10:00:00Z"
    })
  })

  it("decodes request headers as a server sees them, both geo-location spellings", () => {
    expect(Result.isSuccess(Schema.decodeUnknownResult(Headers.RequestHeaders)(valid))).toBe(true)
    const a = Schema.decodeUnknownSync(Headers.RequestHeaders)({ ...valid, "psu-geo-location": "48.1, 17.1" })
    expect(Headers.geoLocation(a)).toBe("48.1, 17.1")
    const b = Schema.decodeUnknownSync(Headers.RequestHeaders)({ ...valid, "psu-geolocation": "-33.9, 151.2" })
    expect(Headers.geoLocation(b)).toBe("-33.9, 151.2")
  })

  it("rejects each header constraint naming the header", () => {
    const msg = (patch: Record<string, unknown>) => {
      const r = Schema.decodeUnknownResult(Headers.RequestHeaders)({ ...valid, ...patch })
      return Result.isFailure(r) ? r.failure.message : "(success)"
    }
    expect(msg({ authorization: "Basic x" })).toMatch(/Bearer[\s\S]*authorization/)
    expect(msg({ "request-id": undefined })).toMatch(/request-id/)
    expect(msg({ "psu-ip-address": "300.1.1.1" })).toMatch(/psu-ip-address/)
    expect(msg({ "psu-device-os": "" })).toMatch(/psu-device-os/)
    expect(msg({ "psu-geolocation": "north" })).toMatch(/psu-geolocation/)
    expect(msg({ "psu-last-logged-time": "yesterday" })).toMatch(/psu-last-logged-time/)
  })

  it("recognises IP addresses", () => {
    for (const ok of ["127.0.0.1", "::1", "::", "2001:db8::8a2e:370:7334", "1:2:3:4:5:6:7:8", "::ffff:192.0.2.1"]) {
      expect(Headers.isIpAddress(ok)).toBe(true)
    }
    for (const bad of ["", "1.2.3", "256.1.1.1", "1:2:3:4:5:6:7:8:9", "1::2::3", "g::1", "01.2.3.4", "localhost"]) {
      expect(Headers.isIpAddress(bad)).toBe(false)
    }
  })

  it("reads response IDs in any case", () => {
    expect(Headers.responseIds({ "Response-ID": "x", "correlation-id": ["c"] })).toEqual({
      responseId: "x",
      correlationId: "c",
      processId: undefined
    })
  })
})

describe("Headers properties", () => {
  it("built headers decode on the server side and round-trip", () => {
    fc.assert(
      fc.property(Arb.psu, fc.uuid(), (psu, requestId) => {
        const sent = Headers.request({ authorization: "Bearer t0k", ids: { requestId }, psu })
        const lower = Object.fromEntries(Object.entries(sent).map(([k, v]) => [k.toLowerCase(), v]))
        const decoded = Schema.decodeUnknownSync(Headers.RequestHeaders)(lower)
        expect(Schema.encodeSync(Headers.RequestHeaders)(decoded)).toEqual(lower)
        expect(Headers.geoLocation(decoded)).toBe(psu.geoLocation)
      })
    )
  })
})

describe("Headers.isPresent (section 8: present when the log-in is at most one hour old)", () => {
  const now = Date.UTC(2026, 2, 10, 12, 0, 0)
  it("counts the hour's edges, refuses older, absent and future times beyond the skew", () => {
    expect(Headers.isPresent(now, now)).toBe(true)
    expect(Headers.isPresent(now - 3_600_000, now)).toBe(true)
    expect(Headers.isPresent(now - 3_600_001, now)).toBe(false)
    expect(Headers.isPresent(undefined, now)).toBe(false)
    expect(Headers.isPresent(now + 60_000, now)).toBe(true)
    expect(Headers.isPresent(now + 60_001, now)).toBe(false)
    expect(Headers.isPresent(now + 1, now, 0)).toBe(false)
    expect(Headers.isPresent(Headers.lastLoggedMillis("2099-01-01T00:00:00Z"), now)).toBe(false)
    expect(Headers.isPresent(Headers.lastLoggedMillis(" 2026-03-10T12:30:00+01:00 "), now)).toBe(true)
    expect(Headers.lastLoggedMillis("yesterday")).toBeUndefined()
  })

  it("is attended exactly for ages from minus the skew to one hour", () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.nat({ max: 600_000 }), (age, skew) => {
        expect(Headers.isPresent(now - age, now, skew)).toBe(age >= -skew && age <= Headers.presenceWindowMillis)
      })
    )
  })
})

describe("Endpoint", () => {
  it("has the six paths of sections 4 and 9", () => {
    expect(Endpoint.paths("live")).toEqual({
      token: "/identity-server/connect/token",
      balanceCheck: "/piisp/api/v1/accounts/balanceCheck",
      standingOrders: "/aisp/api/v1/accounts/standingOrder"
    })
    expect(Endpoint.paths("sandbox")).toEqual({
      token: "/identity-server-test/connect/token",
      balanceCheck: "/piisp-test/api/v1/accounts/balanceCheck",
      standingOrders: "/aisp-test/api/v1/accounts/standingOrder"
    })
    expect(Endpoint.url("http://127.0.0.1:8080/", "sandbox", "token")).toBe(
      "http://127.0.0.1:8080/identity-server-test/connect/token"
    )
    expect(new Set(Endpoint.all.map((e) => e.path)).size).toBe(6)
    expect(new Set(Endpoint.all.map((e) => e.operation))).toEqual(new Set(Endpoint.Operation.literals))
    for (const { path } of Endpoint.all)
      expect(path.split("/")[1]?.replace("-test", "")).toMatch(/^(identity-server|piisp|aisp)$/)
  })
})
