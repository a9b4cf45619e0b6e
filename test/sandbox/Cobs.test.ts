/**
 * The client against the mock bank playing COBS, over real loopback HTTP: the authorization-code flow, the list to
 * its last page (`nextPage: 0`), the detail, the balance check, every COBS error code the rule book lists for these
 * operations, the daily limit of unattended calls (the journal counts), and a technical break.
 */
import { type Currency, Iban, Money, Profile } from "@tppkit/core"
import { BankClient, type BankConfig, type BankError, BankTransport, TokenService } from "@tppkit/http"
import { Fixtures, type Journal, type Sandbox, type SandboxClock } from "@tppkit/sandbox"
import { Context, Effect, Layer, Redacted, Stream } from "effect"
import { describe, expect, it } from "vitest"
import { bankConfig, cobsClient, cobsOptions } from "../http/cobsClient.ts"
import { cobsHeaders, customerTokens, faulting, runOnBank } from "./support.ts"

const psu = { ipAddress: "192.168.1.221", deviceOs: "Mac OS", userAgent: "MyBudgetApp/2.1" }

/** The TPP these tests speak for. */
const star = { name: "Star Corporation, a.s." }

/** The COBS client of {@link star} over `transport`, sending each request once; `more` of its configuration. */
const starClient = (
  info: Sandbox.SandboxInfo["Service"],
  transport: Layer.Layer<BankTransport.BankTransport>,
  more: Partial<BankConfig.Options> = {}
) => cobsClient(info, transport, { tpp: star, retry: { maxAttempts: 1 }, ...more })

const run = <A>(
  body: (ctx: {
    bank: BankClient.BankClient["Service"]
    info: Sandbox.SandboxInfo["Service"]
    token: TokenService.Token
    journal: Journal.Journal["Service"]
    clock: SandboxClock.SandboxClock["Service"]
    raw: (path: string, init?: RequestInit) => Promise<Response>
  }) => Effect.Effect<A, BankError.BankError>,
  profile: Profile.Profile = Profile.cobs
) =>
  runOnBank({ profile }, ({ info, journal, clock }) =>
    Effect.gen(function* () {
      const tokens = yield* Effect.promise(() => customerTokens(info))
      const token = TokenService.fromSca("sandbox", Redacted.make(tokens.access_token))
      const raw = (path: string, init: RequestInit = {}) =>
        fetch(`${info.baseUrl}${path}`, {
          ...init,
          headers: cobsHeaders(info, tokens.access_token, star.name, init.headers as Record<string, string> | undefined)
        })
      const bank = Context.get(
        yield* Layer.build(starClient(info, BankTransport.BankTransport.layerUndici(), { profile })),
        BankClient.BankClient
      )
      return yield* body({ bank, info, token, journal, clock, raw })
    })
  )

const codeOf = (e: BankError.BankError): string | undefined => {
  const r = e.reason
  return "body" in r && r.body !== undefined && r.body._tag === "Errors" ? r.body.body.errors[0]?.error : undefined
}

const ownOrders = Fixtures.defaults.standingOrders.filter((o) =>
  (Fixtures.defaults.clients[0]?.aispAccounts ?? []).includes(o.debtor.iban)
)

describe("the mock bank playing COBS, with the client over loopback", () => {
  it("exchanges the customer's code and renews their access token with the refresh token before it runs out", async () => {
    const result = await runOnBank({ profile: Profile.cobs }, ({ info, journal }) =>
      Effect.gen(function* () {
        const redirect = "https://tpp.example/callback"
        const auth = yield* Effect.promise(() =>
          fetch(
            `${info.baseUrl}/oauth2/auth?response_type=code&client_id=${info.clientId}&redirect_uri=${redirect}&scope=AISP`,
            { redirect: "manual" }
          )
        )
        const code = new URL(auth.headers.get("location") ?? "").searchParams.get("code") ?? ""
        const config = bankConfig(info, { ...cobsOptions(info), tpp: star })
        const transport = BankTransport.BankTransport.layerUndici()
        const grant = yield* TokenService.exchangeCode(Redacted.make(code), redirect).pipe(
          Effect.provide(Layer.merge(config, transport))
        )
        const renewed: Array<TokenService.CustomerGrant> = []
        // a grant about to run out (within the 60 s safety margin): the first call renews it
        const client = BankClient.BankClient.layerOver(
          config,
          transport,
          undefined,
          TokenService.TokenProvider.layerCustomer({ ...grant, expiresIn: 30 }, (g) =>
            Effect.sync(() => {
              renewed.push(g)
            })
          )
        )
        const bank = Context.get(yield* Layer.build(client), BankClient.BankClient)
        const present = { ...psu, lastLoggedTime: new Date().toISOString() }
        const page = yield* bank.standingOrdersPage({ psu: present, pageSize: 10 })
        const again = yield* bank.standingOrdersPage({ psu: present, pageSize: 10 })
        const tokenCalls = (yield* journal.entries).filter((e) => e.path === "/oauth2/token").map((e) => e.body)
        return { grant, renewed, page, again, tokenCalls }
      })
    )
    expect(Redacted.isRedacted(result.grant.accessToken) && Redacted.isRedacted(result.grant.refreshToken)).toBe(true)
    expect(result.grant.expiresIn).toBe(3600)
    expect(result.renewed.length).toBe(1) // renewed once, then the fresh token (an hour) served the second call
    expect(result.tokenCalls.map((b) => new URLSearchParams(b).get("grant_type"))).toEqual([
      "authorization_code",
      "refresh_token"
    ])
    expect(result.tokenCalls.join()).not.toContain(Redacted.value(result.grant.refreshToken))
    expect(result.page.body.records?.length).toBe(10)
    expect(result.again.body.records?.length).toBe(10)
  })

  it("lists every page to the last (nextPage: 0 there), each record with its id, and one detail", async () => {
    const result = await run(({ bank, token, journal }) =>
      Effect.gen(function* () {
        const present = { ...psu, lastLoggedTime: new Date().toISOString() }
        const pages = yield* Stream.runCollect(bank.standingOrders({ psu: present, token, pageSize: 10 }))
        const detail = yield* bank.standingOrder(pages[0]?.body.records?.[0]?.id ?? "", { psu: present, token })
        const entries = yield* journal.entries
        return { pages, detail, entries }
      })
    )
    const ids = result.pages.flatMap((p) => p.body.records?.map((r) => r.id) ?? [])
    expect(ids.length).toBeGreaterThan(10)
    expect(new Set(ids).size).toBe(ids.length)
    expect(result.pages.length).toBe(Math.ceil(ids.length / 10))
    const lastPage = result.entries.filter((e) => e.path.startsWith("/my/standingorders?")).at(-1)
    expect(lastPage?.path).toBe(`/my/standingorders?size=10&page=${result.pages.length - 1}`)
    expect((result.detail.body.json as { requestedExecutionDate?: string }).requestedExecutionDate).toMatch(
      /^\d{4}-\d{2}-\d{2}$/
    )
    expect((result.detail.body.json as { creditorAccount?: unknown }).creditorAccount).toBeDefined()
    // core's reader: the detail is a whole order; a list item of a longer interval waits for its detail
    expect(result.detail.body.read?._tag).toBe("Order")
    const reads = result.pages.flatMap((p) => p.body.records ?? []).map((r) => r.read)
    expect(reads.every((r) => r !== undefined)).toBe(true)
    const skipped = reads.filter((r) => r?._tag === "Skipped")
    expect(skipped.every((r) => r?._tag === "Skipped" && /requestedExecutionDate/.test(r.reason))).toBe(true)
    expect(reads.some((r) => r?._tag === "Order")).toBe(true)
    expect(ids.length).toBeLessThanOrEqual(ownOrders.length)
  })

  it("answers the balance check APPR, DECL and its codes AG01, AC02, AC09, and RF01 to an id seen", async () => {
    const answers = await run(({ bank, info }) =>
      Effect.gen(function* () {
        const check = (id: string, iban: string, value: string, currency = "EUR") =>
          bank
            .balanceCheck(
              {
                instructionIdentification: id,
                iban: Iban.parseUnsafe(iban),
                amount: { value: Money.parseUnsafe(value), currency: currency as Currency.CurrencyCode }
              },
              { psu }
            )
            .pipe(
              Effect.map((r) => `${r.body.response}${r.requests === undefined ? "" : ` (${r.requests} requests)`}`),
              Effect.catch((e) => Effect.succeed(`${e.reason._tag} ${codeOf(e)}`))
            )
        void info
        return [
          yield* check("C1", Fixtures.ibans.eurBranch, "10.00"),
          yield* check("C2", Fixtures.ibans.eurBranch, "999999.00"),
          yield* check("C3", Fixtures.ibans.eurNoConsent, "1.00"),
          yield* check("C4", "DE89370400440532013000", "1.00"),
          yield* check("C5", Fixtures.ibans.eurBranch, "1.00", "CZK"),
          yield* check("C1", Fixtures.ibans.eurBranch, "10.00")
        ]
      })
    )
    expect(answers).toEqual([
      "APPR",
      "DECL",
      "BadRequest AG01",
      "BadRequest AC02",
      "BadRequest AC09",
      // C1 again: the bank refuses the id it has seen (RF01), the client asks once more under a fresh one
      // (packages/http/README.md, "Bank profiles"); an RF01 that reaches the caller is below
      "APPR (2 requests)"
    ])
  })

  it("answers every COBS error code of these operations in the rule book's dialect", async () => {
    const codes = await run(({ raw }) =>
      Effect.promise(async () => {
        const codeOf = async (r: Response) =>
          `${r.status} ${((await r.json()) as { errors: Array<{ error: string }> }).errors[0]?.error}`
        const bc = (body: unknown, headers: Record<string, string> = {}) =>
          raw("/accounts/balanceCheck", { method: "POST", body: JSON.stringify(body), headers }).then(codeOf)
        const account = { identification: { iban: Fixtures.ibans.eurBranch } }
        const amount = { currency: "EUR", totalAmount: 1 }
        return {
          unauthorised: await raw("/my/standingorders", { headers: { authorization: "Bearer nope" } }).then(codeOf),
          noKey: await raw("/my/standingorders", { headers: { "api-key": "wrong" } }).then(codeOf),
          idNotFound: await raw("/my/standingorders/NOPE").then(codeOf),
          pageNotFound: await raw("/my/standingorders?size=10&page=999").then(codeOf),
          parameterInvalid: await raw("/my/standingorders?size=ten").then(codeOf),
          headerMissing: await raw("/my/standingorders", { headers: { "tpp-name": "" } }).then(codeOf),
          unsupportedMediaType: await raw("/my/standingorders", { headers: { accept: "text/xml" } }).then(codeOf),
          fieldMissing: await bc({ debtorAccount: account, transactionDetails: amount }),
          fieldInvalid: await bc({
            exchangeIdentification: "X".repeat(19),
            debtorAccount: account,
            transactionDetails: amount
          }),
          ff01: await raw("/accounts/balanceCheck", { method: "POST", body: "{" }).then(codeOf),
          rr10: await bc({ exchangeIdentification: "ščř", debtorAccount: account, transactionDetails: amount }),
          am12: await bc({
            exchangeIdentification: "A1",
            debtorAccount: account,
            transactionDetails: { currency: "EUR", totalAmount: -1 }
          }),
          am11: await bc({
            exchangeIdentification: "A2",
            debtorAccount: account,
            transactionDetails: { currency: "eur", totalAmount: 1 }
          })
        }
      })
    )
    expect(codes).toEqual({
      unauthorised: "401 UNAUTHORISED",
      noKey: "401 UNAUTHORISED",
      idNotFound: "404 ID_NOT_FOUND",
      pageNotFound: "400 PAGE_NOT_FOUND",
      parameterInvalid: "400 PARAMETER_INVALID",
      headerMissing: "400 FIELD_MISSING",
      unsupportedMediaType: "415 UNSUPPORTED_MEDIA_TYPE",
      fieldMissing: "400 FIELD_MISSING",
      fieldInvalid: "400 FIELD_INVALID",
      ff01: "400 FF01",
      rr10: "400 RR10",
      am12: "400 AM12",
      am11: "400 AM11"
    })
  })

  it("every COBS error code of these operations the client can be led to reaches it as a typed BankError (AG01, AC02, AC09 above, RF01 below)", async () => {
    const outcomes = await run(({ bank, info, token, clock }) =>
      Effect.gen(function* () {
        const present = { ...psu, lastLoggedTime: new Date().toISOString() }
        /** A check by a client of the same mock bank with another configuration. */
        const other = (change: Partial<BankConfig.Options>, id: string) =>
          Effect.scoped(
            Effect.flatMap(
              Layer.build(starClient(info, BankTransport.BankTransport.layerUndici(), change)),
              (context) => check(Context.get(context, BankClient.BankClient), id, "1.00")
            )
          ).pipe(Effect.orDie)
        const outcome = <A>(e: Effect.Effect<A, BankError.BankError>) =>
          e.pipe(
            Effect.map(() => "ok"),
            Effect.catch((e) =>
              Effect.succeed(
                `${e.reason._tag}${"status" in e.reason ? ` ${e.reason.status}` : ""} ${codeOf(e) ?? ""}`.trim()
              )
            )
          )
        const check = (client: BankClient.BankClient["Service"], id: string, value: string, currency = "EUR") =>
          outcome(
            client.balanceCheck(
              {
                instructionIdentification: id,
                iban: Iban.parseUnsafe(Fixtures.ibans.eurBranch),
                amount: { value: Money.parseUnsafe(value), currency: currency as Currency.CurrencyCode }
              },
              { psu }
            )
          )
        const xml: Profile.Profile = {
          ...Profile.cobs,
          headers: [
            ...Profile.cobs.headers,
            { name: "Accept", from: "constant", value: "application/xml", required: false }
          ]
        }
        const result = {
          unauthorised: yield* outcome(
            bank.standingOrdersPage({ psu: present, token: TokenService.fromSca("sandbox", Redacted.make("nope")) })
          ),
          unauthorisedKey: yield* other({ apiKey: Redacted.make("wrong-key") }, "K1"),
          unsupportedMediaType: yield* other({ profile: xml }, "M1"),
          idNotFound: yield* outcome(bank.standingOrder("NOPE", { psu: present, token })),
          pageNotFound: yield* outcome(bank.standingOrdersPage({ psu: present, token, page: 999, pageSize: 10 })),
          // a profile written without the required TPP-Name (a user's profile file may be wrong so)
          fieldMissing: yield* other(
            { profile: { ...Profile.cobs, headers: Profile.cobs.headers.filter((h) => h.name !== "TPP-Name") } },
            "T1"
          ),
          rr10: yield* check(bank, "ščř", "1.00"),
          am12: yield* check(bank, "A12", "0.00"),
          am11: yield* check(bank, "A11", "1.00", "eur"),
          forbidden: ""
        }
        // the customer's access token runs out (about an hour): the bank refuses it with 403 FORBIDDEN
        clock.setUnsafe(Date.now() + 2 * 3_600_000)
        return { ...result, forbidden: yield* outcome(bank.standingOrder("NOPE", { psu: present, token })) }
      })
    )
    expect(outcomes).toEqual({
      unauthorised: "Unauthorized UNAUTHORISED",
      unauthorisedKey: "Unauthorized UNAUTHORISED",
      unsupportedMediaType: "UnexpectedStatus 415 UNSUPPORTED_MEDIA_TYPE",
      forbidden: "Forbidden FORBIDDEN",
      idNotFound: "NotFound ID_NOT_FOUND",
      // one page asked for; a listing reads it as the end of the data (rule book, "Paging")
      pageNotFound: "BadRequest PAGE_NOT_FOUND",
      fieldMissing: "BadRequest FIELD_MISSING",
      // what the bank would refuse with RR10, AM12 and AM11 the client refuses before sending (the test above sends
      // them by hand), as FIELD_INVALID (an exchangeIdentification over 18 characters) and FF01 (no JSON)
      rr10: "InvalidRequest",
      am12: "InvalidRequest",
      am11: "InvalidRequest"
    })
  })

  it("RR10, AM11, AM12, FIELD_INVALID, FF01 and RF01 answered to a request the client sends reach it as typed BankErrors", async () => {
    // the client refuses before sending what the rule book's own rules forbid (an id over 18 characters or outside
    // the SWIFT set, a currency that is no ISO 4217 code, an amount outside [12.2] or not above zero; it always sends
    // a JSON object): the mock bank, keeping the same rules, answers these codes only to hand-made requests (above).
    // A bank stricter than the rule book answers them to a request the client does send: the mock bank is told to
    // (X-Sandbox-Fault: error=CODE), and each answer reaches the client typed, its code as the bank sent it
    const result = await run(({ info, token, journal }) =>
      Effect.gen(function* () {
        const answered = (code: string) =>
          faulting((request) => (request.url.endsWith("/oauth2/token") ? undefined : `error=${code}`))
        const clientOf = (code: string) =>
          Effect.map(Layer.build(starClient(info, answered(code))), (context) =>
            Context.get(context, BankClient.BankClient)
          ).pipe(Effect.orDie)
        const typed = <A>(e: Effect.Effect<A, BankError.BankError>) =>
          e.pipe(
            Effect.map(() => "ok"),
            Effect.catch((e) => Effect.succeed(`${e.operation} ${e.reason._tag} ${codeOf(e)}`))
          )
        const present = { ...psu, lastLoggedTime: new Date().toISOString() }
        const outcomes: Array<string> = []
        for (const [i, code] of ["RR10", "AM11", "AM12", "FIELD_INVALID", "FF01", "RF01"].entries()) {
          const client = yield* clientOf(code)
          outcomes.push(
            yield* typed(
              client.balanceCheck(
                {
                  instructionIdentification: `CHK-${i}`,
                  iban: Iban.parseUnsafe(Fixtures.ibans.eurBranch),
                  amount: { value: Money.parseUnsafe("10.00"), currency: "EUR" as Currency.CurrencyCode }
                },
                { psu }
              )
            )
          )
        }
        const invalid = yield* clientOf("FIELD_INVALID")
        outcomes.push(yield* typed(invalid.standingOrdersPage({ psu: present, token, pageSize: 10 })))
        outcomes.push(yield* typed(invalid.standingOrder("SO-0001", { psu: present, token })))
        const sent = (yield* journal.entries).map((e) => e.outcome).filter((o) => o.startsWith("fault:error="))
        return { outcomes, sent: sent.length }
      }).pipe(Effect.scoped)
    )
    expect(result.outcomes).toEqual([
      "balanceCheck BadRequest RR10",
      "balanceCheck BadRequest AM11",
      "balanceCheck BadRequest AM12",
      "balanceCheck BadRequest FIELD_INVALID",
      "balanceCheck BadRequest FF01",
      // refused again under the fresh id the client asks with after an RF01: the second refusal reaches it
      "balanceCheck BadRequest RF01",
      "standingOrders BadRequest FIELD_INVALID",
      "standingOrder BadRequest FIELD_INVALID"
    ])
    // each was a request the bank received: one each, never retried, but RF01's two (the caller's id, a fresh one)
    expect(result.sent).toBe(9)
  })

  it("counts unattended calls (User-Involved: false), the detail too, 4 a day, and the client refuses the fifth", async () => {
    const result = await run(({ bank, token, journal }) =>
      Effect.gen(function* () {
        const present = { ...psu, lastLoggedTime: new Date().toISOString() }
        const page = yield* bank.standingOrdersPage({ psu: present, token, pageSize: 10 })
        const id = page.body.records?.[0]?.id ?? ""
        const outcomes: Array<string> = []
        for (let i = 0; i < 5; i++) {
          outcomes.push(
            yield* bank.standingOrder(id, { psu, token }).pipe(
              Effect.map(() => "ok"),
              Effect.catch((e) => Effect.succeed(e.reason._tag))
            )
          )
        }
        const sent = (yield* journal.entries).filter((e) => e.path.startsWith("/my/standingorders/"))
        return { outcomes, sent: sent.map((e) => `${e.status} ${e.outcome}`) }
      })
    )
    expect(result.outcomes).toEqual(["ok", "ok", "ok", "ok", "BudgetExhausted"])
    expect(result.sent).toEqual(Array(4).fill("200 ok:unattended"))
  })

  it("does not answer in a technical break (503 with Retry-After, no body)", async () => {
    const profile: Profile.Profile = {
      ...Profile.cobs,
      technicalBreaks: [{ from: "01:00", to: "02:00", timeZone: "UTC" }]
    }
    const status = await run(
      ({ raw, clock }) =>
        Effect.promise(async () => {
          clock.setUnsafe(Date.parse("2026-11-30T01:30:00Z"))
          const r = await raw("/my/standingorders")
          return `${r.status} ${r.headers.get("retry-after")} ${(await r.text()).length}`
        }),
      profile
    )
    expect(status).toBe("503 1800 0")
  })
})
