/**
 * The bank client (docs/bank-interface.md): balance check and the standing-order list, one page or all pages as
 * a Stream. Every request carries the headers exactly as that document's "Headers" names them, with a fresh
 * Request-ID per request, a Correlation-ID per logical call and a Process-ID per listing
 * (README.md, "Request identity"). Transient failures are retried (never for unattended listings, which spend the
 * budget of its "Daily limit"); a 401 discards the token and retries once. Every failure is a `BankError`. This module holds the service and its three
 * operations; the call pipeline (identity, token, 401 renewal, retry) is `internal/call.ts`, the listing of every
 * page `internal/allPages.ts` over the paging rules of `internal/listing.ts`.
 */

import { BalanceCheck, Profile, type SourceRecord, StandingOrder } from "@tppkit/core"
import { Context, DateTime, Duration, Effect, Layer, Result, type Stream, type Tracer } from "effect"
import { BankConfig } from "./BankConfig.ts"
import { type BankConfigError, type BankError, InvalidRequest, withAttempts } from "./BankError.ts"
import { BankTransport } from "./BankTransport.ts"
import { Budget, consentKey as budgetKey } from "./Budget.ts"
import { BudgetStore } from "./BudgetStore.ts"
import * as AllPages from "./internal/allPages.ts"
import * as Call from "./internal/call.ts"
import type {
  AllPagesOptions,
  CallOptions,
  ListOptions,
  PageOptions,
  Reply,
  StandingOrdersPage
} from "./internal/clientTypes.ts"
import * as CobsWire from "./internal/cobsWire.ts"
import * as Listing from "./internal/listing.ts"
import * as Profiled from "./internal/profiled.ts"
import * as Transport from "./internal/transport.ts"
import * as Wire from "./internal/wire.ts"
import * as PsuContext from "./PsuContext.ts"
import { TokenProvider, TokenService } from "./TokenService.ts"

export type {
  AllPagesOptions,
  CallOptions,
  ListOptions,
  PageOptions,
  RawRecord,
  Reply,
  StandingOrdersPage
} from "./internal/clientTypes.ts"

/** One order's detail as the bank sent it (COBS `GET /my/standingorders/{transactionIdentification}`), read by core. */
export interface StandingOrderDetail {
  readonly id: string
  readonly json: unknown
  readonly read: SourceRecord.Read | undefined
}

/** The default hard page limit of a listing of every page. */
export const DEFAULT_PAGE_LIMIT = 100

/** The default overall deadline of a listing of every page. */
export const DEFAULT_LISTING_DEADLINE: Duration.Duration = Duration.seconds(60)

/**
 * How old a complete unattended listing may be and still be reused by default (`AllPagesOptions.maxAge`): callers
 * whose start-up is staggered by load still share one listing (README.md, "Daily budget").
 */
export const DEFAULT_MAX_AGE: Duration.Duration = Duration.seconds(60)

/** The bank client service. */
export class BankClient extends Context.Service<
  BankClient,
  {
    /** Asks whether an amount is available on an account. */
    readonly balanceCheck: (
      request: BalanceCheck.Request,
      options: CallOptions
    ) => Effect.Effect<Reply<BalanceCheck.Response>, BankError>
    /** Fetches one page of standing orders (docs/bank-interface.md, "Standing-order list"). */
    readonly standingOrdersPage: (options: PageOptions) => Effect.Effect<Reply<StandingOrdersPage>, BankError>
    /** Fetches all pages of standing orders, one element per page, sharing one Process-ID. */
    readonly standingOrders: (options: AllPagesOptions) => Stream.Stream<Reply<StandingOrdersPage>, BankError>
    /**
     * Fetches one order's detail by its id, under a profile that offers it (COBS: the list lacks the creditor and
     * the dates); an unattended detail spends the budget where the profile counts it and is never retried.
     */
    readonly standingOrder: (id: string, options: ListOptions) => Effect.Effect<Reply<StandingOrderDetail>, BankError>
  }
>()("@tppkit/http/BankClient") {
  /** The client over any `HttpClient`, token provider and budget. */
  static readonly layer: Layer.Layer<BankClient, never, BankConfig | BankTransport | TokenProvider | Budget> =
    Layer.effect(
      BankClient,
      Effect.suspend(() => make)
    )

  /**
   * The whole stack on Node from a configuration layer: undici directly (`BankTransport.layerUndici`) with the
   * configured mutual-TLS material,
   * client-credentials tokens, and the daily budget in memory unless `budgetFile` names an SQLite file (opened on
   * first use; the library never picks a file itself) or `budgetStore` gives any store layer. Also exposes
   * `BankConfig`, `TokenService` and `Budget`.
   */
  static readonly layerNode = <E, R>(
    config: Layer.Layer<BankConfig, E, R>,
    options?: { readonly budgetFile?: string; readonly budgetStore?: Layer.Layer<BudgetStore> }
  ): Layer.Layer<BankClient | BankConfig | TokenService | Budget, E, R> => {
    const http = Layer.unwrap(
      Effect.map(Effect.service(BankConfig), (settings) =>
        BankTransport.layerUndici({ tls: settings.tls, maxHeaderBytes: settings.limits.maxHeaderBytes })
      )
    )
    const store =
      options?.budgetStore ??
      (options?.budgetFile === undefined || options.budgetFile === "memory"
        ? BudgetStore.layerMemory
        : BudgetStore.layerSqlite(options.budgetFile))
    return BankClient.layerOver(config, http, store)
  }

  /**
   * The whole stack over any transport (undici, an effect `HttpClient` through `BankTransport.layerHttpClient`, or
   * a stand-in): client-credentials tokens, the daily budget over `store` (memory by default) and the client. Also
   * exposes `BankConfig`, `TokenService` and `Budget`; the transport may itself read `BankConfig`.
   */
  static readonly layerOver = <E, R, E2, R2>(
    config: Layer.Layer<BankConfig, E, R>,
    transport: Layer.Layer<BankTransport, E2, R2>,
    store: Layer.Layer<BudgetStore> = BudgetStore.layerMemory,
    /** Where tokens come from (default client credentials; `TokenProvider.layerCustomer` for a customer's grant). */
    tokens: Layer.Layer<TokenProvider, never, BankConfig | TokenService | BankTransport> = TokenProvider.layer
  ): Layer.Layer<BankClient | BankConfig | TokenService | Budget, E | E2, R | Exclude<R2, BankConfig>> =>
    BankClient.layer.pipe(
      Layer.provide(tokens),
      Layer.provideMerge(Layer.mergeAll(TokenService.layer, Budget.layer.pipe(Layer.provide(store)))),
      Layer.provide(transport),
      Layer.provideMerge(config)
    )
}

/** Convenience: `BankClient.layerNode(BankConfig.layer(options), budget)` with a config error at start-up. */
export const layerNodeFromOptions = (
  options: Parameters<typeof BankConfig.layer>[0],
  budget?: { readonly budgetFile?: string; readonly budgetStore?: Layer.Layer<BudgetStore> }
): Layer.Layer<BankClient | BankConfig | TokenService | Budget, BankConfigError> =>
  BankClient.layerNode(BankConfig.layer(options), budget)

const make = Effect.gen(function* () {
  const config = yield* BankConfig
  const transport = yield* BankTransport
  const tokens = yield* TokenProvider
  const budget = yield* Budget

  const pipeline = Call.make(config, transport, tokens, budget)
  const { urls, requestLines, fail, call } = pipeline
  const sbas = Profile.isSbas(config.profile)
  const cobsBalanceCheck = config.profile.operations.balanceCheck.body === "cobs"
  const balanceCheckUrl = urls.balanceCheck
  const standingOrderUrl = urls.standingOrders

  const cobsBalanceCheckBody = Profiled.decodeBalanceCheckBody(config.limits.maxJsonDepth)
  // core's one entry point per wire shape (each with its fast path inside)
  const decodeBalanceCheck = (json: unknown) =>
    Result.mapError(BalanceCheck.decodeResponse(json), (issue) => Wire.firstIssue(issue))
  const balanceCheckBody = (request: BalanceCheck.Request): Result.Result<string, InvalidRequest> => {
    const encoded = BalanceCheck.encodeRequest(request)
    if (Result.isSuccess(encoded)) return Result.succeed(Wire.balanceCheckText(encoded.success))
    const { path, message } = Wire.firstIssue(encoded.failure)
    return Result.fail(new InvalidRequest({ path, detail: message }))
  }

  /**
   * COBS's balance check (packages/http/README.md, "Bank profiles": `exchangeIdentification`): the first request
   * carries the caller's `instructionIdentification`, every later one (a retry after a lost answer or a 5xx, a resend
   * after a 401) a fresh id, since COBS refuses an id it has seen (`RF01`); an `RF01` to the caller's id (an earlier
   * call with that id reached the bank and its answer was lost) is asked once more under a fresh id. A balance check
   * changes nothing at the bank, so asking again is safe; the payment's own key stays the caller's (the fleet's
   * `ORDER/DATE`).
   */
  const cobsCheck = (
    request: BalanceCheck.Request,
    first: string,
    options: CallOptions,
    correlationId: string,
    span: Tracer.AnySpan | undefined
  ): Effect.Effect<Reply<BalanceCheck.Response>, BankError> => {
    let sent = 0
    const bodyOfRequest = () => {
      if (sent++ === 0) return first
      const fresh = CobsWire.balanceCheckText({
        ...request,
        instructionIdentification: CobsWire.freshExchangeIdentification()
      })
      return Result.isSuccess(fresh) ? fresh.success : first
    }
    const spec = {
      operation: "balanceCheck",
      url: balanceCheckUrl,
      body: first,
      bodyOfRequest,
      options,
      correlationId,
      processId: undefined,
      unattended: undefined,
      decode: decodeBalanceCheck,
      decodeBody: cobsBalanceCheckBody,
      span,
      untraced: span === undefined
    } as const
    return Effect.catchIf(call(spec), CobsWire.isNotUnique, (refused) =>
      call(spec).pipe(
        Effect.map(
          (reply): Reply<BalanceCheck.Response> => ({
            ...reply,
            requests: (reply.requests ?? 1) + (refused.attempts ?? 1)
          })
        ),
        Effect.mapError((e) => withAttempts(e, (e.attempts ?? 1) + (refused.attempts ?? 1)))
      )
    )
  }

  const balanceCheck = (
    request: BalanceCheck.Request,
    options: CallOptions,
    span: Tracer.AnySpan | undefined
  ): Effect.Effect<Reply<BalanceCheck.Response>, BankError> => {
    const correlationId = options.correlationId ?? crypto.randomUUID()
    const body = cobsBalanceCheck ? CobsWire.balanceCheckText(request) : balanceCheckBody(request)
    if (Result.isFailure(body)) return fail("balanceCheck", { correlationId }, body.failure)
    if (cobsBalanceCheck) return cobsCheck(request, body.success, options, correlationId, span)
    return call({
      operation: "balanceCheck",
      url: balanceCheckUrl,
      body: body.success,
      options,
      correlationId,
      processId: undefined,
      unattended: undefined,
      decode: decodeBalanceCheck,
      ...(cobsBalanceCheck ? { decodeBody: cobsBalanceCheckBody } : {}),
      span,
      // `Transport.traced` gives a span exactly when a tracer is installed
      untraced: span === undefined
    })
  }

  const consentKey = (options: ListOptions) =>
    budgetKey({
      environment: config.environment,
      baseUrl: config.bankIdentity ?? config.baseUrl,
      clientId: config.clientId,
      consent: options.consentKey ?? config.clientId
    })

  /**
   * The budget key when the customer is not present (docs/bank-interface.md, "Daily limit"), or undefined when they
   * are.
   */
  const budgetKeyUnlessPresent = (options: ListOptions) =>
    Effect.map(DateTime.now, (now) => (PsuContext.isPresent(options.psu, now) ? undefined : consentKey(options)))

  /** One page's call (`prepaid`: a listing paid for it already). */
  const page: AllPages.PageCall = (options, page, pageSize, correlationId, processId, unattended, span, prepaid) => {
    const request: { -readonly [K in keyof StandingOrder.ListRequest]: StandingOrder.ListRequest[K] } = {}
    if (options.iban !== undefined) request.iban = options.iban
    if (pageSize !== undefined) request.pageSize = pageSize
    if (page !== undefined) request.page = page
    const body = StandingOrder.encodeListRequest(request)
    if (Result.isFailure(body)) {
      const { path, message } = Wire.firstIssue(body.failure)
      return fail("standingOrders", { correlationId }, new InvalidRequest({ path, detail: message }))
    }
    return call({
      operation: "standingOrders",
      url: standingOrderUrl,
      body: JSON.stringify(body.success),
      options,
      correlationId,
      processId,
      unattended,
      ...(prepaid === true ? { prepaid } : {}),
      decode: () => Result.fail({ path: "$", message: "read from the body's bytes" }),
      decodeBody: (exchange) =>
        Result.map(Wire.decodePage(exchange.bytes ?? exchange.text, config.limits.maxJsonDepth, page ?? 0), (p) => ({
          ...p,
          page: page ?? 0
        })),
      span
    })
  }

  const standingOrdersPage = Effect.fnUntraced(function* (
    options: PageOptions,
    span: Tracer.AnySpan | undefined
  ): Effect.fn.Return<Reply<StandingOrdersPage>, BankError> {
    const correlationId = options.correlationId ?? crypto.randomUUID()
    const invalid = Listing.validatePaging(options.page, options.pageSize)
    if (invalid !== undefined) return yield* fail("standingOrders", { correlationId }, invalid)
    const unattended = yield* budgetKeyUnlessPresent(options)
    return yield* page(
      options,
      options.page,
      options.pageSize,
      correlationId,
      options.processId ?? crypto.randomUUID(),
      unattended,
      span
    )
  })

  const standingOrders = AllPages.make({
    budget,
    requestLine: requestLines.standingOrders,
    budgetKeyUnlessPresent,
    page,
    defaults: { pageLimit: DEFAULT_PAGE_LIMIT, deadline: DEFAULT_LISTING_DEADLINE, maxAge: DEFAULT_MAX_AGE }
  })

  if (!sbas) {
    const profiled = Profiled.make({
      config,
      pipeline,
      budget,
      budgetKeyUnlessPresent,
      pageLimit: DEFAULT_PAGE_LIMIT,
      maxAge: DEFAULT_MAX_AGE
    })
    return BankClient.of({
      balanceCheck: (request, options) =>
        Transport.traced("BankClient.balanceCheck", (span) => balanceCheck(request, options, span)),
      standingOrdersPage: (options) =>
        Transport.traced("BankClient.standingOrdersPage", (span) => profiled.standingOrdersPage(options, span)),
      standingOrders: profiled.standingOrders,
      standingOrder: (id, options) =>
        Transport.traced("BankClient.standingOrder", (span) => profiled.standingOrder(id, options, span))
    })
  }

  return BankClient.of({
    // `useSpan` (through `Transport.traced`, only when a tracer is installed; no stack-trace capture) with the span
    // handed down as the exchanges' parent: making it the fiber's current span (`withSpan`) would change the
    // fiber's context twice per call; a token requested on the way is traced under the caller's span instead
    balanceCheck: (request, options) =>
      Transport.traced("BankClient.balanceCheck", (span) => balanceCheck(request, options, span)),
    standingOrdersPage: (options) =>
      Transport.traced("BankClient.standingOrdersPage", (span) => standingOrdersPage(options, span)),
    standingOrders,
    standingOrder: (_id, options) =>
      fail(
        "standingOrder",
        { correlationId: options.correlationId ?? crypto.randomUUID() },
        new InvalidRequest({
          path: "profile",
          detail: `the ${config.profile.name} profile has no standing-order detail`
        })
      )
  })
})
