/**
 * Golden requests of the COBS profile, written from the standard (shared spec standard-records.md §1.3–§1.4 and
 * §1.10, the COBS OpenAPI v7/v8 as summarised there), not from the profile file: method, path, query and every
 * header of the list, the detail and the balance check, as the transport receives them.
 */

import { it as itEffect } from "@effect/vitest"
import { Profile } from "@tppkit/core"
import { BankClient, TokenService } from "@tppkit/http"
import { DateTime, Effect, Fiber, Redacted, Stream } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { cobsCheck, cobsItem, recorded, recording, type Sent, starClient } from "./recording.ts"

const answers = (s: Sent) => {
  if (s.url.pathname === "/my/standingorders")
    return {
      status: 200,
      body: { pageNumber: 0, pageCount: 1, pageSize: 1, nextPage: 0, standingOrders: [cobsItem("SO2026000000004711")] }
    }
  if (s.url.pathname.startsWith("/my/standingorders/"))
    return { status: 200, body: { ...cobsItem("SO2026000000004711"), requestedExecutionDate: "2026-01-20" } }
  return { status: 200, body: { responseIdentification: 1, exchangeIdentification: "PIISP-1", response: "APPR" } }
}

const API_KEY = "ce0f4b31-fe74-4403-92ef-2d706f288107"
const CUSTOMER_TOKEN = "77d49180-customer-access-token"

const unattended = { ipAddress: "192.168.1.221", deviceOs: "Mac OS", userAgent: "MyBudgetApp/2.1" }
const token = TokenService.fromSca("sandbox", Redacted.make(CUSTOMER_TOKEN))
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const httpDate =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/

/** The §1.4 headers every call carries, whoever is present: R = required by the yaml. */
const common = (h: Readonly<Record<string, string>>) => {
  expect(h["Content-Type"]).toBe("application/json") // R, even on GET
  expect(h["API-key"]).toBe(API_KEY) // the ApiKey security scheme's header
  expect(h["X-Request-ID"]).toMatch(uuid) // R, ≤ 60, a UUID recommended
  expect(h.Date).toMatch(httpDate) // R; the readmes' RFC 7231 form
  expect(h["TPP-Name"]).toBe("Star Corporation, a.s.") // R
  expect(h["TPP-Identification"]).toBe("CZ013984-14")
}

/** The first request sent, asserted to be `method` on `path` with no query and the §1.4 headers. */
const first = (sent: ReadonlyArray<Sent>, method: string, path: string): Sent => {
  const s = sent[0] as Sent
  expect(s.method).toBe(method)
  expect(s.url.pathname).toBe(path)
  expect(s.url.search).toBe("")
  common(s.headers)
  return s
}

describe("COBS golden requests (standard-records.md §1.3–1.4, §1.10)", () => {
  it("the list: GET /my/standingorders?size=&page= from 0, the customer's token, User-Involved: false", async () => {
    const { value: pages, sent } = await recorded(answers, API_KEY, (bank) =>
      Stream.runCollect(bank.standingOrders({ psu: unattended, token }))
    )
    expect(pages.length).toBe(1) // nextPage: 0 on the last page is not followed: pageNumber + 1 >= pageCount
    expect(pages[0]?.body.records?.map((r) => r.id)).toEqual(["SO2026000000004711"])
    expect(sent.length).toBe(1)
    const list = sent[0] as Sent
    expect(list.method).toBe("GET")
    expect(list.url.pathname).toBe("/my/standingorders")
    expect([...list.url.searchParams]).toEqual([
      ["size", "100"],
      ["page", "0"]
    ])
    expect(list.body).toBeUndefined()
    common(list.headers)
    expect(list.headers.Authorization).toBe(`Bearer ${CUSTOMER_TOKEN}`) // R: OAuth2 AISP / aisp.standingorders
    expect(list.headers["User-Involved"]).toBe("false") // R: a background call
    expect(list.headers["Action-ID"]).toMatch(uuid) // the same on every page of one read
    expect(Object.keys(list.headers).sort()).toEqual(
      [
        "API-key",
        "Action-ID",
        "Authorization",
        "Content-Type",
        "Date",
        "TPP-Identification",
        "TPP-Name",
        "User-Involved",
        "X-Request-ID"
      ].sort()
    )
  })

  it("the detail with the customer present: User-Involved: true and the User-* headers, hyphen-spelt", async () => {
    const present = {
      ...unattended,
      geoLocation: "50.089354, 14.400031",
      lastLoggedTime: DateTime.makeUnsafe(Date.now())
    }
    const { value: detail, sent } = await recorded(answers, API_KEY, (bank) =>
      bank.standingOrder("SO2026000000004711", { psu: present, token })
    )
    expect(detail.body.id).toBe("SO2026000000004711")
    const get = first(sent, "GET", "/my/standingorders/SO2026000000004711")
    expect(get.headers.Authorization).toBe(`Bearer ${CUSTOMER_TOKEN}`)
    expect(get.headers["User-Involved"]).toBe("true")
    // `User–IP-Address` (EN DASH in the spec) cannot go over HTTP: sent with the hyphen
    expect(get.headers["User-IP-Address"]).toBe("192.168.1.221")
    expect(get.headers["User-Device-OS"]).toBe("Mac OS")
    expect(get.headers["User-User-Agent"]).toBe("MyBudgetApp/2.1")
    expect(get.headers["User-Geo-Location"]).toBe("GEO:50.089354;14.400031") // RFC 2426
    expect(Object.keys(get.headers).some((k) => /[^\x21-\x7e]/.test(k))).toBe(false)
    expect(Object.keys(get.headers).some((k) => k.startsWith("PSU-") || k === "Request-ID")).toBe(false)
  })

  it("the balance check: POST /accounts/balanceCheck, certificate and API key, no Authorization, the COBS body", async () => {
    const { value: reply, sent } = await recorded(answers, API_KEY, (bank) =>
      bank.balanceCheck(cobsCheck("PIISP-1", "1250.50"), { psu: unattended })
    )
    expect(reply.body.response).toBe("APPR")
    const post = first(sent, "POST", "/accounts/balanceCheck")
    // security: ClientCert + ApiKey only, no OAuth2 (send no Authorization unless the bank documents one)
    expect(post.headers.Authorization).toBeUndefined()
    expect(post.headers["User-Involved"]).toBe("false")
    expect(JSON.parse(post.body as string)).toEqual({
      exchangeIdentification: "PIISP-1", // R, string ≤ 18
      debtorAccount: { identification: { iban: "CZ4608000000002345678908" } }, // R; currency left out (§3.3.1)
      transactionDetails: { currency: "CZK", totalAmount: 1250.5 } // the amount and currency to check
    })
    expect(post.body).toContain('"totalAmount":1250.5}')
  })

  it("refuses an exchangeIdentification COBS cannot hold (a UUID) before sending", async () => {
    const { value: error, sent } = await recorded(answers, API_KEY, (bank) =>
      Effect.flip(bank.balanceCheck(cobsCheck(crypto.randomUUID(), "1.00"), { psu: unattended }))
    )
    expect(error.reason._tag).toBe("InvalidRequest")
    expect(error.message).toMatch(/at most 18 characters/)
    expect(sent.length).toBe(0)
  })
})

describe("a technical break of the profile", () => {
  itEffect.effect("is waited out: nothing is sent until it ends, then the call runs once", () => {
    const { sent, layer } = recording(answers)
    const profile: Profile.Profile = {
      ...Profile.cobs,
      technicalBreaks: [{ from: "00:00", to: "00:10", timeZone: "UTC" }]
    }
    const stack = starClient(layer, API_KEY, { profile, tpp: { name: "Star Corporation, a.s." } })
    return Effect.gen(function* () {
      const bank = yield* BankClient.BankClient
      // the test clock starts at 1970-01-01T00:00Z, inside the break
      const fiber = yield* Effect.forkChild(bank.balanceCheck(cobsCheck("PIISP-9", "1.00"), { psu: unattended }))
      yield* TestClock.adjust("9 minutes")
      expect(sent.length).toBe(0)
      yield* TestClock.adjust("1 minute")
      const reply = yield* Fiber.join(fiber)
      expect(reply.body.response).toBe("APPR")
      expect(sent.length).toBe(1)
    }).pipe(Effect.provide(stack))
  })
})
