/**
 * The demo under a profile whose listing needs the customer's own token (COBS, issue 37): step 1 obtains it by the
 * authorization-code flow at the mock bank (which approves at once, standing in for the customer's login) and shows
 * what each operation is sent with; step 3 lists every page with that token and, the customer present, reads each
 * order's detail (the list lacks the creditor and the dates), each record read by core's reader on the demo's day.
 */
import { type LocalDate, Orders, type Profile } from "@tppkit/core"
import { BankConfig, BankTransport, Details, TokenService } from "@tppkit/http"
import type { Sandbox } from "@tppkit/sandbox"
import { Effect, Redacted, Result } from "effect"
import * as Output from "../../Output.ts"
import * as Render from "../../Render.ts"
import type { Bank } from "./bank.ts"
import { heading, INNER, indent, plural, say } from "./text.ts"

/** Where the mock bank sends the customer back with the code (never fetched: the code is read off the redirect). */
const redirectUri = "https://tpp.example/callback"

/** The authorization path of the mock bank's authorization-code flow. */
const authorizePath = "/oauth2/auth"

/**
 * The customer's grant (access and refresh token) by the authorization-code flow at the mock bank, which approves at
 * once (standing in for the customer's login).
 */
export const grantOf = (info: Sandbox.SandboxInfo["Service"]) =>
  Effect.gen(function* () {
    const query = new URLSearchParams({
      response_type: "code",
      client_id: info.clientId,
      redirect_uri: redirectUri,
      scope: "AISP aisp.standingorders",
      state: "demo"
    })
    const approved = yield* Effect.promise(() =>
      fetch(`${info.baseUrl}${authorizePath}?${query}`, { redirect: "manual" })
    )
    const code = new URL(approved.headers.get("location") ?? redirectUri).searchParams.get("code") ?? ""
    const config = yield* BankConfig.BankConfig
    return yield* TokenService.exchangeCode(Redacted.make(code), redirectUri).pipe(
      Effect.provide(
        BankTransport.BankTransport.layerUndici({ tls: config.tls, maxHeaderBytes: config.limits.maxHeaderBytes })
      )
    )
  })

/** Step 1: the customer's token by the authorization-code flow; returns it as the listing's token. */
export const tokens = (info: Sandbox.SandboxInfo["Service"], profile: Profile.Profile) =>
  Effect.gen(function* () {
    yield* heading(1, "Tokens (the customer's, by authorization code; the values stay secret)")
    const grant = yield* grantOf(info)
    const listing = profile.operations.standingOrders.auth.join(" + ")
    const check = profile.operations.balanceCheck.auth.join(" + ")
    yield* Output.line(
      indent(
        Render.table(
          [{ header: "Operation" }, { header: "Sent with" }, { header: "Expires in", align: "right" }],
          [
            ["standing orders", listing, grant.expiresIn === undefined ? "?" : `${grant.expiresIn} s`],
            ["balance check", check, ""]
          ],
          INNER
        )
      )
    )
    yield* say(
      `The ${profile.name} profile lists with the customer's access token (renewed with the refresh token, both ` +
        "kept secret) and checks balances with the API key (and, live, the qualified certificate): no token."
    )
    return TokenService.fromSca(info.environment, grant.accessToken)
  })

/** Step 3: every page and each order's detail with the customer present; returns the orders core read. */
export const standingOrders = (
  bank: Bank,
  token: TokenService.Token,
  profile: Profile.Profile,
  today: LocalDate.LocalDate
) =>
  Effect.gen(function* () {
    yield* heading(3, `Standing orders (all pages, each order's detail; the ${profile.name} profile)`)
    const listing = yield* Details.list({ psu: bank.psu, token })
    const read = Orders.decode(JSON.stringify(listing.orders.map((o) => o.detail ?? o.item)), {
      standard: profile.standard,
      listedOn: today
    })
    // the listing's own records joined are always a list: each record not read as an order is counted
    const orders = Result.isSuccess(read) ? read.success.orders : []
    const left = Result.isSuccess(read)
      ? read.success.unread.length + read.success.skipped.length
      : listing.orders.length
    const debtors = new Set(orders.map((o) => o.debtor.iban))
    yield* Output.line(
      `   ${plural(orders.length, "standing order")} of ${plural(debtors.size, "account")} ` +
        `on ${plural(listing.pages, "page")}, ${plural(listing.fetched.length, "detail")} read` +
        (left === 0 ? "" : `, ${left} record(s) not read as orders`)
    )
    return orders
  })
