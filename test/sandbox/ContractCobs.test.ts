/**
 * The contract's core-decoding half under the COBS profile (issue 37; test/sandbox/Contract.test.ts has it for the
 * seed bank's): the mock bank playing COBS is driven by hand-made requests over loopback at every endpoint — the
 * authorization-code token, the list to its last page, the detail, the balance check — and through every error it
 * answers, and each answer is read with tppkit's own readers: core's `Orders` (the list page as a list body),
 * `SourceRecord` (paging, the detail), `AccessToken.decodeResponse`, `ErrorBody.decode` (never `Raw`, the code as the
 * rule book names it), and the client's COBS balance-check reader.
 */
import { AccessToken, ErrorBody, LocalDate, Orders, Profile, SourceRecord } from "@tppkit/core"
import { Fixtures } from "@tppkit/sandbox"
import { Effect, Redacted, Result } from "effect"
import { describe, expect, it } from "vitest"
import { decodeBalanceCheck } from "../../packages/http/src/internal/cobsWire.ts"
import { cobsHeaders, customerTokens, runOnBank } from "./support.ts"

interface Answer {
  readonly status: number
  readonly contentType: string | undefined
  readonly text: string
}

/** Core's reading of an error answer: a known dialect (never `Raw`) and its code. */
const codeOf = (a: Answer): string => {
  const body = ErrorBody.decode(a.status, a.contentType, a.text)
  expect(body._tag, `${a.status} ${a.text}`).not.toBe("Raw")
  return `${a.status} ${ErrorBody.code(body)}`
}

describe("Contract under COBS: every answer of the mock bank decodes with tppkit's readers", () => {
  it("the token, the list to its last page, the detail, the balance check and every error", async () => {
    const result = await runOnBank({ profile: Profile.cobs }, ({ info, clock }) =>
      Effect.promise(async () => {
        const tokens = await customerTokens(info)
        const token = AccessToken.decodeResponse(tokens)
        const send = async (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) => {
          const res = await fetch(`${info.baseUrl}${path}`, {
            ...init,
            headers: cobsHeaders(info, tokens.access_token, "tppkit contract", init.headers)
          })
          return {
            status: res.status,
            contentType: res.headers.get("content-type") ?? undefined,
            date: res.headers.get("date") ?? undefined,
            text: await res.text()
          }
        }
        // the list, page by page from 0, each page a list body core reads; paging by the page's own fields
        const ids: Array<string> = []
        const pages: Array<SourceRecord.Page> = []
        for (let page = 0; page < 20; page++) {
          const a = await send(`/my/standingorders?size=25&page=${page}`)
          expect(a.status, a.text).toBe(200)
          const d = Orders.decoder({ body: true, listedOn: LocalDate.parseUnsafe("2026-11-29") })
          const pushed = d.push(a.text)
          const end = d.end()
          if (Result.isFailure(end)) throw new Error(end.failure.reason)
          const items = [...pushed, ...end.success.items]
          expect(items.filter((i) => i._tag === "Unread")).toEqual([])
          const p = SourceRecord.page(JSON.parse(a.text))
          pages.push(p)
          for (const r of SourceRecord.envelope(JSON.parse(a.text)).records) {
            const read = SourceRecord.read(r, { standard: "cobs" })
            if (read?._tag === "Order" && read.reading.orderId !== undefined) ids.push(read.reading.orderId)
            else if (read?._tag === "Skipped" && read.orderId !== undefined) ids.push(read.orderId)
          }
          if (p.last) break
        }
        // the detail of each order listed: a whole COBS record with its start and its creditor
        const details = await Promise.all(
          ids.map(async (id) => {
            const a = await send(`/my/standingorders/${encodeURIComponent(id)}`)
            expect(a.status, a.text).toBe(200)
            const read = SourceRecord.read(JSON.parse(a.text), { standard: "cobs" })
            return read?._tag === "Order"
              ? `${read.reading.orderId} ${read.reading.creditor.account === undefined ? "no creditor" : "creditor"}`
              : read?._tag
          })
        )
        // the balance check, read as the client reads it
        const account = { identification: { iban: Fixtures.ibans.eurBranch } }
        const bc = (body: unknown, headers: Record<string, string> = {}) =>
          send("/accounts/balanceCheck", {
            method: "POST",
            body: typeof body === "string" ? body : JSON.stringify(body),
            headers: { "user-involved": "false", ...headers }
          })
        const appr = await bc({
          exchangeIdentification: "C-1",
          debtorAccount: account,
          transactionDetails: { currency: "EUR", totalAmount: 1 }
        })
        const answer = decodeBalanceCheck(JSON.parse(appr.text), appr.date, Date.now())
        const errors = {
          unauthorised: codeOf(await send("/my/standingorders", { headers: { authorization: "Bearer nope" } })),
          idNotFound: codeOf(await send("/my/standingorders/NOPE")),
          pageNotFound: codeOf(await send("/my/standingorders?size=10&page=999")),
          parameterInvalid: codeOf(await send("/my/standingorders?size=ten")),
          fieldMissing: codeOf(await send("/my/standingorders", { headers: { "tpp-name": "" } })),
          unsupportedMediaType: codeOf(await send("/my/standingorders", { headers: { accept: "text/xml" } })),
          fieldInvalid: codeOf(
            await bc({
              exchangeIdentification: "X".repeat(19),
              debtorAccount: account,
              transactionDetails: { currency: "EUR", totalAmount: 1 }
            })
          ),
          ff01: codeOf(await bc("{")),
          ac02: codeOf(
            await bc({
              exchangeIdentification: "C-2",
              debtorAccount: { identification: { iban: "DE89370400440532013000" } },
              transactionDetails: { currency: "EUR", totalAmount: 1 }
            })
          ),
          tokenRefused: codeOf(
            await send("/oauth2/token", {
              method: "POST",
              headers: { "content-type": "application/x-www-form-urlencoded" },
              body: new URLSearchParams({
                grant_type: "refresh_token",
                refresh_token: "nope",
                client_id: info.clientId,
                client_secret: Redacted.value(info.clientSecret)
              }).toString()
            })
          ),
          forbidden: ""
        }
        // the customer's access token runs out: 403 FORBIDDEN
        clock.setUnsafe(Date.now() + 2 * 3_600_000)
        errors.forbidden = codeOf(await send("/my/standingorders/NOPE"))
        return {
          token: Result.isSuccess(token),
          pages: pages.map((p) => `${p.pageNumber}/${p.pageCount}${p.last ? " last" : ""}`),
          listed: ids.length,
          details,
          answer: Result.isSuccess(answer) ? answer.success.response : answer.failure.message,
          errors
        }
      })
    )
    expect(result.token).toBe(true)
    expect(result.listed).toBeGreaterThan(2)
    expect(result.pages.at(-1)).toMatch(/ last$/)
    expect(result.pages.length).toBeGreaterThan(1)
    expect(result.details.every((d) => d?.endsWith(" creditor"))).toBe(true)
    expect(result.answer).toBe("APPR")
    expect(result.errors).toEqual({
      unauthorised: "401 UNAUTHORISED",
      idNotFound: "404 ID_NOT_FOUND",
      pageNotFound: "400 PAGE_NOT_FOUND",
      parameterInvalid: "400 PARAMETER_INVALID",
      fieldMissing: "400 FIELD_MISSING",
      unsupportedMediaType: "415 UNSUPPORTED_MEDIA_TYPE",
      fieldInvalid: "400 FIELD_INVALID",
      ff01: "400 FF01",
      ac02: "400 AC02",
      tokenRefused: "400 invalid_grant",
      forbidden: "403 FORBIDDEN"
    })
  })
})
