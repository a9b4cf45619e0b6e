/**
 * The client's COBS requests checked independently against the COBS OpenAPI description (issue 37): the list (every
 * page), the detail with the customer absent and present, and the balance check, as the transport receives them,
 * validated by openapi-backend against test/openapi/cobs.openapi.json (written from the shared field tables, standard-
 * records.md §1: the standard's own file cannot be fetched here) — method and path, the query (no parameter it does
 * not declare), every required header and each header's type, length and pattern, and the balance check's body.
 */
import { type BankClient, TokenService } from "@tppkit/http"
import { DateTime, type Effect, Redacted, Stream } from "effect"
import type { OpenAPIBackend } from "openapi-backend"
import { beforeAll, describe, expect, it } from "vitest"
import { errorsOf, load } from "../openapi/validators.ts"
import { cobsCheck, cobsItem, recorded, type Sent } from "./recording.ts"

/** A bank answering as COBS does: two pages of the list, a detail, an approved balance check. */
const answer = (s: Sent): unknown => {
  if (s.url.pathname === "/my/standingorders") {
    const page = Number(s.url.searchParams.get("page") ?? "0")
    return {
      pageNumber: page,
      pageCount: 2,
      pageSize: 1,
      nextPage: page === 0 ? 1 : 0,
      standingOrders: [cobsItem(`SO-${page}`)]
    }
  }
  if (s.url.pathname.startsWith("/my/standingorders/"))
    return { ...cobsItem("SO-0"), requestedExecutionDate: "2026-01-20" }
  return { responseIdentification: 1, exchangeIdentification: "PIISP-1", response: "APPR" }
}

const token = TokenService.fromSca("sandbox", Redacted.make("77d49180-customer-access-token"))
const absent = { ipAddress: "192.168.1.221", deviceOs: "Mac OS", userAgent: "MyBudgetApp/2.1" }
const present = { ...absent, geoLocation: "50.089354, 14.400031", lastLoggedTime: DateTime.makeUnsafe(Date.now()) }

let cobs: OpenAPIBackend
beforeAll(async () => {
  cobs = await load("cobs")
}, 60_000)

/** The request as the description reads it (header names are case-insensitive), validated against one operation. */
const validate = (s: Sent, operation: string): string =>
  errorsOf(
    cobs.validateRequest(
      {
        method: s.method.toLowerCase(),
        path: s.url.pathname,
        query: Object.fromEntries(s.url.searchParams),
        headers: Object.fromEntries(Object.entries(s.headers).map(([k, v]) => [k.toLowerCase(), v])),
        ...(s.body === undefined ? {} : { body: JSON.parse(s.body) as unknown })
      },
      operation
    )
  )

// API-key: the schema's maxLength is 10 (its examples are UUIDs: the bank gives the key, the client sends it as given)
const runWith = <A, E>(f: (bank: BankClient.BankClient["Service"]) => Effect.Effect<A, E>) =>
  recorded((s) => ({ status: 200, body: answer(s) }), "ce0f4b31fe", f)

describe("the client's COBS requests against the COBS OpenAPI description", () => {
  it("the list, every page (the customer absent)", async () => {
    const { value, sent } = await runWith((bank) => Stream.runCollect(bank.standingOrders({ psu: absent, token })))
    expect(value.length).toBe(2)
    expect(sent.map((s) => s.url.searchParams.get("page"))).toEqual(["0", "1"])
    for (const s of sent) expect(validate(s, "getStandingorders")).toBe("")
  })

  it("the detail, the customer absent and present (the User-* headers)", async () => {
    for (const psu of [absent, present]) {
      const { sent } = await runWith((bank) => bank.standingOrder("SO-0", { psu, token }))
      expect(sent.length).toBe(1)
      expect(validate(sent[0]!, "getStandingorder")).toBe("")
    }
  })

  it("the balance check: the COBS body, no Authorization", async () => {
    const { sent } = await runWith((bank) => bank.balanceCheck(cobsCheck("PIISP-1", "1250.50"), { psu: absent }))
    expect(sent.length).toBe(1)
    expect(validate(sent[0]!, "balanceCheck")).toBe("")
  })

  it("the check bites: a request without a required header, an API key longer than the schema allows", () => {
    const list: Sent = {
      method: "GET",
      url: new URL("https://api.bank.cz/my/standingorders?size=10&page=0"),
      headers: { "Content-Type": "application/json", Authorization: "Bearer x", "X-Request-ID": "r", Date: "d" },
      body: undefined
    }
    expect(validate(list, "getStandingorders")).toContain("user-involved")
    const full = { ...list.headers, "User-Involved": "false", "TPP-Name": "T" }
    expect(validate({ ...list, headers: full }, "getStandingorders")).toBe("")
    expect(validate({ ...list, headers: { ...full, "API-key": crypto.randomUUID() } }, "getStandingorders")).toContain(
      "api-key"
    )
    expect(
      validate(
        { ...list, url: new URL("https://api.bank.cz/my/standingorders?size=10&offset=0"), headers: full },
        "getStandingorders"
      )
    ).toContain("offset")
  })
})
