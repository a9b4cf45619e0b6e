/**
 * The commands that talk to a bank: `tppkit token`, `tppkit balance-check` and `tppkit standing-orders`.
 * Each takes the connection and PSU flags of `Connection`, prints a table or JSON on stdout, and fails with one
 * line naming the operation, the status and the request identifiers. Tokens are printed only on request.
 *
 * @since 0.1.0
 */
import { Currency, Iban, LocalDate, Money, StandingOrder } from "@tppkit/core"
import { BankClient, BankConfig, ErrorBody, TokenService } from "@tppkit/http"
import { Clock, Effect, Option, Redacted, Result, Stream } from "effect"
import { Command, Flag } from "effect/cli"
import { HttpClient, HttpClientRequest } from "effect/http"
import * as Connection from "./Connection.ts"
import * as Failure from "./Failure.ts"
import * as Output from "./Output.ts"
import * as Render from "./Render.ts"

const format = Flag.Literals("format", ["table", "json"]).pipe(
  Flag.withDescription("Output format"),
  Flag.withDefault("table")
)

/** Key/value lines aligned on the longest key. */
export const keyValues = (rows: ReadonlyArray<readonly [string, string]>): string => {
  const width = Math.max(...rows.map(([k]) => k.length))
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join("\n")
}

const settingsOf = (target: Connection.Target) =>
  Effect.mapError(
    Effect.fromResult(
      BankConfig.make({
        environment: target.environment,
        baseUrl: target.baseUrl,
        clientId: target.clientId,
        clientSecret: target.clientSecret
      })
    ),
    (e) => Failure.usage(e.message)
  )

// ---------------------------------------------------------------------------
// token
// ---------------------------------------------------------------------------

/** What `tppkit token` learned: the token, its type and scopes, and when it expires. */
export interface Issued {
  readonly tokenType: string
  readonly accessToken: Redacted.Redacted<string>
  readonly scopes: ReadonlyArray<string>
  readonly expiresIn: number
  readonly expiresAt: string
  readonly environment: "sandbox" | "live"
}

const transportMessage = (url: string, e: { readonly message: string }) =>
  `token: cannot reach ${url}: ${e.message.split("\n")[0]}`

/** Requests a client-credentials token (section 4.1) and reports its expiry; the secret is never printed. */
const issueToken = (settings: BankConfig.Settings, scopes: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const url = `${settings.baseUrl}${settings.paths.token}`
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: settings.clientId,
      client_secret: Redacted.value(settings.clientSecret),
      scope: scopes.join(" ")
    }).toString()
    const started = yield* Clock.currentTimeMillis
    const reply = yield* HttpClientRequest.post(url).pipe(
      HttpClientRequest.bodyText(form, "application/x-www-form-urlencoded;charset=UTF-8"),
      HttpClientRequest.acceptJson,
      client.execute,
      Effect.flatMap((res) => Effect.map(res.text, (text) => ({ status: res.status, headers: res.headers, text }))),
      Effect.timeoutOrElse({
        duration: settings.requestTimeout,
        orElse: () => Effect.fail(Failure.failure(`token: no answer from ${url} in time`))
      }),
      Effect.catchTag("HttpClientError", (e) => Effect.fail(Failure.failure(transportMessage(url, e))))
    )
    if (reply.status < 200 || reply.status > 299) {
      const body = ErrorBody.decode(reply.text, reply.headers["content-type"])
      return yield* Failure.failure(`token: status ${reply.status} (${ErrorBody.summary(body)})`)
    }
    const decoded = TokenService.decodeTokenResponse(reply.text)
    if (Result.isFailure(decoded)) return yield* Failure.failure(`token: ${decoded.failure.message}`)
    const { access_token, token_type, expires_in } = decoded.success
    return {
      tokenType: token_type,
      accessToken: access_token,
      scopes,
      expiresIn: expires_in,
      expiresAt: new Date(started + expires_in * 1000).toISOString().replace(/\.\d{3}Z$/, "Z"),
      environment: settings.environment
    } satisfies Issued
  }).pipe(Effect.scoped, Effect.provide(BankClient.httpLayer(settings)))

/** `tppkit token [--scope S] [--show-token]`. */
export const tokenCommand = Command.make(
  "token",
  {
    ...Connection.flags,
    scope: Flag.String("scope").pipe(
      Flag.withDescription("Scopes, space- or comma-separated: PISP, PIISP, AISP"),
      Flag.withDefault("PIISP")
    ),
    showToken: Flag.Boolean("show-token").pipe(
      Flag.withDescription("Print the token itself (only it, for piping into other tools)"),
      Flag.withDefault(false)
    ),
    format
  },
  Effect.fn("tppkit.token")(function* (input) {
    const target = yield* Connection.target(input, { needsClient: true })
    const settings = yield* settingsOf(target)
    const scopes = input.scope.split(/[\s,]+/).filter((s) => s.length > 0)
    const issued = yield* issueToken(settings, scopes)
    if (input.showToken && input.format === "table") return yield* Output.line(Redacted.value(issued.accessToken))
    if (input.format === "json") {
      return yield* Output.line(
        JSON.stringify({
          tokenType: issued.tokenType,
          scopes: issued.scopes,
          expiresIn: issued.expiresIn,
          expiresAt: issued.expiresAt,
          environment: issued.environment,
          ...(input.showToken ? { accessToken: Redacted.value(issued.accessToken) } : {})
        })
      )
    }
    yield* Output.line(
      keyValues([
        ["Token type", issued.tokenType],
        ["Scopes", issued.scopes.join(" ")],
        ["Expires in", `${issued.expiresIn} s (at ${issued.expiresAt})`],
        ["Environment", issued.environment],
        ["Token", "hidden (use --show-token to print it)"]
      ])
    )
  })
).pipe(Command.withDescription("Obtain a client-credentials token and show its type, scopes and expiry"))

// ---------------------------------------------------------------------------
// balance-check
// ---------------------------------------------------------------------------

/** `tppkit balance-check --iban I --amount A --currency C`. */
export const balanceCheckCommand = Command.make(
  "balance-check",
  {
    ...Connection.flags,
    accessToken: Connection.accessTokenFlag,
    iban: Flag.String("iban").pipe(Flag.withDescription("Account to check")),
    amount: Flag.String("amount").pipe(Flag.withDescription("Amount, e.g. 125.50 (format [12.2])")),
    currency: Flag.String("currency").pipe(Flag.withDescription("ISO 4217 code, e.g. EUR")),
    format
  },
  Effect.fn("tppkit.balanceCheck")(function* (input) {
    const iban = Iban.parse(input.iban)
    if (Result.isFailure(iban)) return yield* Failure.usage(`--iban ${JSON.stringify(input.iban)}: ${iban.failure}`)
    const amount = Money.parse(input.amount)
    if (Result.isFailure(amount)) {
      return yield* Failure.usage(`--amount ${JSON.stringify(input.amount)}: ${amount.failure}`)
    }
    const tooLarge = Money.invalidReason(amount.success, Money.balanceCheckFormat)
    if (tooLarge !== undefined) return yield* Failure.usage(`--amount ${JSON.stringify(input.amount)}: ${tooLarge}`)
    const currency = Currency.parseCurrency(input.currency)
    if (Result.isFailure(currency)) {
      return yield* Failure.usage(`--currency ${JSON.stringify(input.currency)}: ${currency.failure}`)
    }
    const target = yield* Connection.target(input, { needsClient: Option.isNone(input.accessToken) })
    const token = Connection.scaToken(target.environment, input.accessToken)
    const reply = yield* Effect.gen(function* () {
      const client = yield* BankClient.BankClient
      return yield* client.balanceCheck(
        {
          instructionIdentification: crypto.randomUUID(),
          iban: iban.success,
          amount: { value: amount.success, currency: currency.success }
        },
        { psu: Connection.psu(input), ...(token === undefined ? {} : { token }) }
      )
    }).pipe(Effect.provide(Connection.clientLayer(target)))
    const ids = reply.identity
    if (input.format === "json") {
      return yield* Output.line(
        JSON.stringify({
          iban: iban.success,
          amount: Money.formatFixed2(amount.success),
          currency: currency.success,
          response: reply.body.response,
          dateTime: reply.body.dateTime,
          requestId: ids.requestId,
          correlationId: ids.correlationId,
          responseId: ids.responseId
        })
      )
    }
    yield* Output.line(
      keyValues([
        ["IBAN", iban.success],
        ["Amount", `${Money.formatFixed2(amount.success)} ${currency.success}`],
        ["Answer", reply.body.response === "APPR" ? "APPR (sufficient funds)" : "DECL (insufficient funds)"],
        ["Date-time", String(reply.body.dateTime)],
        ["Request-ID", ids.requestId ?? ""],
        ["Response-ID", ids.responseId ?? ""]
      ])
    )
  })
).pipe(Command.withDescription("Ask the bank whether an amount is available on an account (APPR or DECL)"))

// ---------------------------------------------------------------------------
// standing-orders
// ---------------------------------------------------------------------------

const orderColumns: ReadonlyArray<Render.Column> = [
  { header: "Order", flex: true },
  { header: "Freq" },
  { header: "Next" },
  { header: "Creditor", flex: true },
  { header: "Amount", align: "right" },
  { header: "Cur" }
]

/** Standing orders as table rows: id, frequency, next (or start) date, creditor, amount. */
export const ordersTable = (
  orders: ReadonlyArray<StandingOrder.StandingOrder>,
  width: number = Render.WIDTH
): Array<string> =>
  Render.table(
    orderColumns,
    orders.map((o) => {
      const next = o.nextDate ?? o.startDate
      return [
        o.orderId,
        o.frequency,
        next === undefined ? "" : LocalDate.format(next),
        o.creditor.name ?? o.creditor.iban,
        Render.fixed2(o.instructedAmount.value),
        o.instructedAmount.currency
      ]
    }),
    width
  )

/** `tppkit standing-orders [--iban I] [--page N --page-size N | --all]`. */
export const standingOrdersCommand = Command.make(
  "standing-orders",
  {
    ...Connection.flags,
    accessToken: Connection.accessTokenFlag,
    iban: Flag.String("iban").pipe(Flag.withDescription("Only the orders of this account"), Flag.optional),
    page: Flag.Int("page").pipe(Flag.withDescription("Zero-based page (default 0)"), Flag.optional),
    pageSize: Flag.Int("page-size").pipe(
      Flag.withDescription("Records per page: a multiple of 10, at most 100"),
      Flag.optional
    ),
    all: Flag.Boolean("all").pipe(Flag.withDescription("Fetch every page (page size 100)"), Flag.withDefault(false)),
    format
  },
  Effect.fn("tppkit.standingOrders")(function* (input) {
    let iban: Iban.Iban | undefined
    if (Option.isSome(input.iban)) {
      const parsed = Iban.parse(input.iban.value)
      if (Result.isFailure(parsed)) {
        return yield* Failure.usage(`--iban ${JSON.stringify(input.iban.value)}: ${parsed.failure}`)
      }
      iban = parsed.success
    }
    if (input.all && Option.isSome(input.page)) return yield* Failure.usage("--all and --page exclude each other")
    const target = yield* Connection.target(input, { needsClient: Option.isNone(input.accessToken) })
    const token = Connection.scaToken(target.environment, input.accessToken)
    const options = {
      psu: Connection.psu(input),
      ...(token === undefined ? {} : { token }),
      ...(iban === undefined ? {} : { iban })
    }
    const pageSize = Option.getOrUndefined(input.pageSize)
    const pages = yield* Effect.gen(function* () {
      const client = yield* BankClient.BankClient
      if (!input.all) {
        const page = Option.getOrUndefined(input.page)
        const reply = yield* client.standingOrdersPage({
          ...options,
          ...(page === undefined ? {} : { page }),
          ...(pageSize === undefined ? {} : { pageSize })
        })
        return [reply]
      }
      return yield* client.standingOrders({ ...options, ...(pageSize === undefined ? {} : { pageSize }) }).pipe(
        Stream.tap((reply) =>
          Output.progress(
            `page ${reply.body.page + 1}${reply.body.pageCount === undefined ? "" : ` of ${reply.body.pageCount}`}: ${reply.body.orders.length} orders`
          )
        ),
        Stream.runCollect
      )
    }).pipe(Effect.provide(Connection.clientLayer(target)))
    const orders = pages.flatMap((p) => p.body.orders)
    for (const p of pages) {
      for (const e of p.body.errors) {
        yield* Output.errorLine(
          `tppkit: page ${p.body.page}, record ${e.index} (${e.orderId ?? "no orderId"}) is malformed: ${e.path} ${e.message}`
        )
      }
    }
    const pageCount = pages[pages.length - 1]?.body.pageCount
    if (input.format === "json") {
      const body = {
        ...(pageCount === undefined || input.all ? {} : { pageCount }),
        standingOrders: orders.map((o) => StandingOrder.encode(o))
      }
      return yield* Output.line(JSON.stringify(body, null, 2))
    }
    const first = pages[0]
    const where = input.all
      ? `all ${pages.length} page(s)`
      : `page ${first?.body.page ?? 0}${pageCount === undefined ? "" : ` of ${pageCount} (zero-based)`}`
    yield* Output.line(`${orders.length} standing order(s), ${where}`)
    if (orders.length > 0) yield* Output.line(ordersTable(orders).join("\n"))
    const last = pages[pages.length - 1]
    if (last !== undefined) yield* Output.line(`Process-ID ${last.identity.processId ?? ""}`)
  })
).pipe(Command.withDescription("List standing orders: one page, or every page with --all"))
