/**
 * The header builder of a profile (internal/profileHeaders.ts): the built-in sbas profile, read as data, makes
 * exactly the headers core's `Headers.request` writes on the seed bank's hot path (names, values and order), so the
 * profile file describes today's behaviour; a COBS call sends the customer's headers only with the customer present.
 */
import { Headers, Profile } from "@tppkit/core"
import { BankConfig } from "@tppkit/http"
import { Redacted, Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as ProfileHeaders from "../../packages/http/src/internal/profileHeaders.ts"
import * as PsuContext from "../../packages/http/src/PsuContext.ts"

const settings = (profile: Profile.Profile) =>
  Result.getOrThrow(
    BankConfig.make({
      environment: "sandbox",
      baseUrl: "http://127.0.0.1:1",
      clientId: "c",
      clientSecret: Redacted.make("s"),
      profile,
      apiKey: Redacted.make("key"),
      tpp: { name: "TPP" }
    })
  )

const now = Date.parse("2026-11-29T08:00:00Z")
const text = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => /^[\x20-\x7e]+$/.test(s))
const psu = fc.record(
  {
    ipAddress: fc.constantFrom("203.0.113.7", "2001:db8::1"),
    deviceOs: text,
    userAgent: text,
    geoLocation: fc.constantFrom("48.1486, 17.1077", "-33.9, 151.2"),
    lastLoggedTime: fc.constantFrom("2026-11-29T07:30:00Z", "2026-11-28T07:30:00Z")
  },
  { requiredKeys: ["ipAddress", "deviceOs", "userAgent"] }
)
const ids = fc.record(
  { requestId: fc.uuid(), correlationId: fc.uuid(), processId: fc.uuid() },
  { requiredKeys: ["requestId"] }
)

describe("profileHeaders", () => {
  it("sbas as data makes exactly core's Headers.request: names, values and order", () => {
    const build = ProfileHeaders.make(Profile.sbas, settings(Profile.sbas))
    fc.assert(
      fc.property(psu, ids, (p, i) => {
        const made = build({ authorization: "Bearer t", ids: i, psu: p, now })
        const core = Headers.request({ authorization: "Bearer t", ids: i, psu: PsuContext.toHeaders(p) })
        expect(Object.entries(made)).toEqual(Object.entries(core))
      }),
      { numRuns: 2_000 }
    )
  })

  it("cobs: User-Involved from the customer's presence; the User-* headers only when present", () => {
    const build = ProfileHeaders.make(Profile.cobs, settings(Profile.cobs))
    fc.assert(
      fc.property(psu, ids, (p, i) => {
        const made = build({ authorization: undefined, ids: i, psu: p, now })
        const present = p.lastLoggedTime === "2026-11-29T07:30:00Z"
        expect(made["User-Involved"]).toBe(present ? "true" : "false")
        expect("User-IP-Address" in made).toBe(present)
        expect(made["User-Geo-Location"] === undefined).toBe(!present || p.geoLocation === undefined)
        expect(made.Authorization).toBeUndefined()
        expect(made["API-key"]).toBe("key")
        expect(made.Date).toBe("Sun, 29 Nov 2026 08:00:00 GMT")
        expect(Object.keys(made).every((k) => /^[\x21-\x7e]+$/.test(k))).toBe(true)
      }),
      { numRuns: 1_000 }
    )
  })

  it("reads the answer's id under the profile's name", () => {
    const exchange = { status: 200, headers: { "x-request-id": "abc" }, text: "" }
    expect(ProfileHeaders.responseIds(Profile.cobs, exchange).headers["response-id"]).toBe("abc")
    expect(ProfileHeaders.responseIds(Profile.sbas, exchange)).toBe(exchange)
  })
})
