/**
 * The bank client (docs/bank-interface.md): balance check and the standing-order list, one page or all pages as
 * a Stream. Every request carries the headers exactly as that document's "Headers" names them; identities follow
 * the README (fresh Request-ID per request, Correlation-ID per logical call, Process-ID per listing). Transient
 * failures are retried (never for unattended listings, which spend the budget of its "Daily limit"); a 401
 * discards the token and retries once. Every failure is a `BankError`.
 */

import { BalanceCheck, Headers, type Iban, StandingOrder } from "@tppkit/core"
import {
  Context,
  DateTime,
  type Deferred,
  Duration,
  Effect,
  Layer,
  Option,
  Redacted,
  Result,
  Stream,
  type Tracer
} from "effect"
import { BankConfig } from "./BankConfig.ts"
import { type BankConfigError, BankError, type Identity, InvalidRequest, ListingIncomplete } from "./BankError.ts"
import { BankTransport, type Exchange } from "./BankTransport.ts"
import { Budget, BudgetStore, consentKey as budgetKey } from "./Budget.ts"
import * as Listing from "./internal/listing.ts"
import * as Retry from "./internal/retry.ts"
import * as Transport from "./internal/transport.ts"
import * as Wire from "./internal/wire.ts"
import * as PsuContext from "./PsuContext.ts"
import { authorization, type Token, TokenProvider, TokenService } from "./TokenService.ts"

/** One page of standing orders: the good records, the malformed ones (core's lenient decoding), the page count. */
export interface StandingOrdersPage extends StandingOrder.LenientList {
  /** The zero-based page number. */
  readonly page: number
}

/** What every call needs: the customer's context, and optionally a Correlation-ID and a token to use. */
export interface CallOptions {
  /** The PSU headers of this customer (bank interface, "Headers"), given per call. */
  readonly psu: PsuContext.PsuContext
  /** Correlation-ID of this logical call, kept across its retries; a UUID v4 is generated when absent. */
  readonly correlationId?: string
  /** A token to use instead of the `TokenProvider`'s, e.g. from strong customer authentication; never renewed. */
  readonly token?: Token
}

/** Options of a standing-order listing. */
export interface ListOptions extends CallOptions {
  /** Only the standing orders of this account (bank interface, "Standing-order list": a filter). */
  readonly iban?: Iban.Iban
  /** Process-ID shared by all pages of the listing; a UUID v4 is generated when absent. */
  readonly processId?: string
  /**
   * The consent whose daily budget unattended calls spend (bank interface, "Daily limit"); defaults to the client id.
   */
  readonly consentKey?: string
}

/** One page: zero-based page number (default 0) and page size (multiple of 10, at most 100; bank default 50). */
export interface PageOptions extends ListOptions {
  readonly page?: number
  readonly pageSize?: number
}

/**
 * All pages: page size 100 unless given (fewest calls), and optionally at most `maxPages` pages. A listing is
 * bounded: it stops at an empty page (or a short one when the bank gives no `pageCount`), refuses more than `pageLimit` pages (announced by `pageCount` or
 * met as full pages without one) and a `pageCount` that changes between pages, and has one overall `deadline`;
 * each of these ends it with `ListingIncomplete` holding every page read. An orderId seen on an earlier page is
 * reported in the later page's `errors`, not merged.
 *
 * Unattended listings (the customer not present) spend the daily budget, so they are never wasted: one listing of
 * a consent (and filter) runs at a time across every caller sharing the budget store, and the others get its
 * result; the complete listing is kept in the store, and a caller that accepts one up to `maxAge` old gets it
 * without spending anything. Once page 0 gives `pageCount`, the rest of the listing is paid for at once, or
 * refused with `BudgetExhausted` saying how many pages it needed, before page 1 is asked for.
 */
export interface AllPagesOptions extends ListOptions {
  readonly pageSize?: number
  readonly maxPages?: number
  /** The hard page limit (default 100 pages, 10,000 orders at page size 100). */
  readonly pageLimit?: number
  /** One deadline for the whole listing, waiting for another caller's included (default 60 seconds). */
  readonly deadline?: Duration.Input
  /** Accept a complete unattended listing of the same consent and filter up to this old (default: none). */
  readonly maxAge?: Duration.Input
}

/** The default hard page limit of a listing of every page. */
export const DEFAULT_PAGE_LIMIT = 100

/** How long a listing's lease lasts between renewals: a runner that dies frees its listing within this time. */
const LEASE_MILLIS = 10_000

/** The default overall deadline of a listing of every page. */
export const DEFAULT_LISTING_DEADLINE: Duration.Duration = Duration.seconds(60)

/** A decoded body with the identifiers of the request that produced it and those the bank echoed. */
export interface Reply<A> {
  readonly body: A
  /** Request-ID, Correlation-ID and Process-ID as sent, and the bank's Response-ID. */
  readonly identity: Identity
  /** Correlation-ID and Process-ID as the bank echoed them, when it did. */
  readonly echoed: { readonly correlationId?: string; readonly processId?: string }
  /** When the reply comes from a stored complete listing rather than a request: when that listing completed. */
  readonly snapshotTakenAt?: string
}

/** The bank client service. */
export class BankClient extends Context.Service<
  BankClient,
  {
    /** Asks whether an amount is available on an account. */
    readonly balanceCheck: (
      request: BalanceCheck.Request,
      options: CallOptions
    ) => Effect.Effect<Reply<BalanceCheck.Response>, BankError>
    /** Fetches one page of standing orders (bank interface, "Standing-order list"). */
    readonly standingOrdersPage: (options: PageOptions) => Effect.Effect<Reply<StandingOrdersPage>, BankError>
    /** Fetches all pages of standing orders, one element per page, sharing one Process-ID. */
    readonly standingOrders: (options: AllPagesOptions) => Stream.Stream<Reply<StandingOrdersPage>, BankError>
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
    store: Layer.Layer<BudgetStore> = BudgetStore.layerMemory
  ): Layer.Layer<BankClient | BankConfig | TokenService | Budget, E | E2, R | Exclude<R2, BankConfig>> =>
    BankClient.layer.pipe(
      Layer.provide(TokenProvider.layer),
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

type ApiOperation = "balanceCheck" | "standingOrders"

interface CallSpec<A> {
  readonly operation: ApiOperation
  /** The whole URL, made once per client: the same string every time, so the transport's URL lookup hashes it once. */
  readonly url: string
  readonly body: string
  readonly options: CallOptions
  readonly correlationId: string
  readonly processId: string | undefined
  /** The budget key when the call is unattended (bank interface, "Daily limit"): no retries, every request counted. */
  readonly unattended: string | undefined
  /** The first request of this unattended call was paid for already (a listing reserves its pages at once). */
  readonly prepaid?: boolean
  readonly decode: (json: unknown) => Result.Result<A, { readonly path: string; readonly message: string }>
  /** The call's span when it is not the fiber's current span (the exchange spans become its children). */
  readonly span?: Tracer.AnySpan | undefined
  /** Set when the call found no tracer installed (`Transport.traced`): the exchange then makes no span either. */
  readonly untraced?: boolean
}

const isUnauthorized = (e: BankError): boolean => e.reason._tag === "Unauthorized"

// A token is used for many calls: its Authorization text is worked out once per token object (tokens are never
// changed once made).
const authorizations = new WeakMap<Token, string>()
const authorizationOf = (token: Token): string => {
  let value = authorizations.get(token)
  if (value === undefined) {
    value = Redacted.value(authorization(token))
    authorizations.set(token, value)
  }
  return value
}

/** The identity of a request with the bank's Response-ID added. */
const withResponseId = (identity: Identity, responseId: string): Identity => {
  const result: { -readonly [K in keyof Identity]: Identity[K] } = {}
  if (identity.requestId !== undefined) result.requestId = identity.requestId
  if (identity.correlationId !== undefined) result.correlationId = identity.correlationId
  if (identity.processId !== undefined) result.processId = identity.processId
  result.responseId = responseId
  return result
}

const make = Effect.gen(function* () {
  const config = yield* BankConfig
  const transport = yield* BankTransport
  const tokens = yield* TokenProvider
  const budget = yield* Budget

  const balanceCheckUrl = `${config.baseUrl}${config.paths.balanceCheck}`
  const standingOrderUrl = `${config.baseUrl}${config.paths.standingOrder}`
  const requestLines: Record<ApiOperation, string> = {
    balanceCheck: Transport.requestLine(balanceCheckUrl),
    standingOrders: Transport.requestLine(standingOrderUrl)
  }
  const maxDepth = config.limits.maxJsonDepth

  const fail = (operation: ApiOperation, identity: Identity, reason: BankError["reason"]) =>
    Effect.fail(new BankError({ operation, identity, reason, request: requestLines[operation] }))

  /** What a 2xx, or any other status, of one exchange makes: the decoded reply or a `BankError`. */
  const replyOf = <A>(
    spec: CallSpec<A>,
    identity: Identity,
    exchange: Exchange
  ): Effect.Effect<Reply<A>, BankError> => {
    const headers = exchange.headers
    if (exchange.status < 200 || exchange.status > 299) {
      return Effect.flatMap(DateTime.now, (now) =>
        fail(
          spec.operation,
          Transport.echoedIdentity(identity, headers),
          Transport.statusReason(exchange, DateTime.toEpochMillis(now))
        )
      )
    }
    const json = Wire.parseJson(exchange.text, maxDepth)
    if (Result.isFailure(json)) return fail(spec.operation, Transport.echoedIdentity(identity, headers), json.failure)
    const decoded = spec.decode(json.success)
    if (Result.isFailure(decoded)) {
      const { path, message } = decoded.failure
      return fail(
        spec.operation,
        Transport.echoedIdentity(identity, headers),
        Wire.malformed(exchange.status, headers["content-type"], exchange.text, path, message)
      )
    }
    // built field by field (no spreads): this runs on every response
    const responseId = headers["response-id"]
    const echoedCorrelation = headers["correlation-id"]
    const echoedProcess = headers["process-id"]
    const echoed: { correlationId?: string; processId?: string } = {}
    if (echoedCorrelation !== undefined) echoed.correlationId = echoedCorrelation
    if (echoedProcess !== undefined) echoed.processId = echoedProcess
    return Effect.succeed({
      body: decoded.success,
      identity: responseId === undefined ? identity : withResponseId(identity, responseId),
      echoed
    })
  }

  /** One request: headers, send, status, decode (plain functions around one transport effect: a hot path). */
  const once = <A>(spec: CallSpec<A>, token: Token): Effect.Effect<Reply<A>, BankError> => {
    const requestId = crypto.randomUUID()
    const ids =
      spec.processId === undefined
        ? { requestId, correlationId: spec.correlationId }
        : { requestId, correlationId: spec.correlationId, processId: spec.processId }
    const identity: Identity = ids
    const headers = Headers.request({
      authorization: authorizationOf(token),
      ids,
      psu: PsuContext.toHeaders(spec.options.psu)
    })
    const outgoing = {
      url: spec.url,
      headers,
      contentType: Headers.jsonContentType,
      body: spec.body
    }
    return Transport.sendThen(
      transport,
      outgoing,
      {
        operation: spec.operation,
        identity,
        timeout: config.requestTimeout,
        maxBodyBytes: config.limits.maxBodyBytes,
        parent: spec.span,
        untraced: spec.untraced
      },
      (exchange) => replyOf(spec, identity, exchange)
    )
  }

  /** The budget unit an unattended request spends before anything is sent, the token request included. */
  const spendFor = (spec: CallSpec<unknown>, unattended: string): Effect.Effect<void, BankError> =>
    Effect.mapError(
      budget.spend(unattended, 1),
      (reason) =>
        new BankError({
          operation: spec.operation,
          identity: {
            correlationId: spec.correlationId,
            ...(spec.processId === undefined ? {} : { processId: spec.processId })
          },
          reason,
          request: requestLines[spec.operation]
        })
    )

  /** The call's request with `token`, its failure left to the caller (a token of another environment is refused). */
  const attempt = <A>(spec: CallSpec<A>, token: Token): Effect.Effect<Reply<A>, BankError> =>
    token.environment === config.environment
      ? once(spec, token)
      : fail(
          spec.operation,
          { correlationId: spec.correlationId },
          new InvalidRequest({
            path: "token",
            detail: `a ${token.environment} token cannot be used with the ${config.environment} environment`
          })
        )

  /** Whether a 401 to a request with `token` renews it: a token the provider gave, not one the caller handed in. */
  const renews = (spec: CallSpec<unknown>, token: Token): boolean => token.renewable && spec.options.token === undefined

  /** After a 401: the token discarded and the request made once more with a new one, paying `spend` again. */
  const renewed = <A>(
    spec: CallSpec<A>,
    token: Token,
    spend: Effect.Effect<void, BankError> | undefined
  ): Effect.Effect<Reply<A>, BankError> => {
    const again = Effect.flatMap(tokens.token(spec.operation), (fresh) => once(spec, fresh))
    return Effect.andThen(tokens.invalidate(token), spend === undefined ? again : Effect.andThen(spend, again))
  }

  /**
   * The call's request with `token`; after a 401 with a renewable token (not one the caller handed in) the token is
   * discarded and the request made once more with a new one, spending `spend` again when the call is unattended.
   */
  const run = <A>(
    spec: CallSpec<A>,
    token: Token,
    spend: Effect.Effect<void, BankError> | undefined
  ): Effect.Effect<Reply<A>, BankError> => {
    const first = attempt(spec, token)
    if (!renews(spec, token)) return first
    return Effect.catchIf(first, isUnauthorized, () => renewed(spec, token, spend))
  }

  /** Gets a token and runs the call's request with it (see {@link run}); an unattended request is paid first. */
  const withToken = <A>(spec: CallSpec<A>): Effect.Effect<Reply<A>, BankError> => {
    const spend = spec.unattended === undefined ? undefined : spendFor(spec, spec.unattended)
    // a token at hand (the caller's, or the provider's cached one) is used without an effect step to get it; this
    // runs when the call runs (inside the call's `withFiber` or effect), so the lookup is never stale
    const ready = spec.options.token ?? tokens.ready?.(spec.operation)
    const request =
      ready !== undefined
        ? run(spec, ready, spend)
        : Effect.flatMap(tokens.token(spec.operation), (token) => run(spec, token, spend))
    // a listing that reserved its pages at once has paid for this request already
    return spend === undefined || spec.prepaid === true ? request : Effect.andThen(spend, request)
  }

  /**
   * Validates the PSU context, then runs the call with retries unless it is unattended. The common case (a token at
   * hand, nothing to pay) has one failure handler for both the 401 renewal and the retry rule, the same steps as
   * `withToken` under `Retry.retrying` (every request of a call pays for that handler; only a failure runs it).
   */
  const call = <A>(spec: CallSpec<A>): Effect.Effect<Reply<A>, BankError> => {
    const invalid = PsuContext.problem(spec.options.psu)
    if (invalid !== undefined) return fail(spec.operation, { correlationId: spec.correlationId }, invalid)
    const policy = Retry.policyFor(config.retry, spec.unattended !== undefined)
    const again = () => withToken(spec)
    const token = spec.unattended === undefined ? (spec.options.token ?? tokens.ready?.(spec.operation)) : undefined
    if (token === undefined) return Retry.retrying(policy, again)
    return Effect.catch(attempt(spec, token), (failure) =>
      renews(spec, token) && isUnauthorized(failure)
        ? Effect.catch(renewed(spec, token, undefined), (last) => Retry.afterFirstFailure(policy, last, again))
        : Retry.afterFirstFailure(policy, failure, again)
    )
  }

  // core's one entry point per wire shape (each with its fast path inside)
  const decodeBalanceCheck = (json: unknown) =>
    Result.mapError(BalanceCheck.decodeResponse(json), (issue) => Wire.firstIssue(issue))
  const balanceCheckBody = (request: BalanceCheck.Request): Result.Result<string, InvalidRequest> => {
    const encoded = BalanceCheck.encodeRequest(request)
    if (Result.isSuccess(encoded)) return Result.succeed(Wire.balanceCheckText(encoded.success))
    const { path, message } = Wire.firstIssue(encoded.failure)
    return Result.fail(new InvalidRequest({ path, detail: message }))
  }

  const balanceCheck = (
    request: BalanceCheck.Request,
    options: CallOptions,
    span: Tracer.AnySpan | undefined
  ): Effect.Effect<Reply<BalanceCheck.Response>, BankError> => {
    const correlationId = options.correlationId ?? crypto.randomUUID()
    const body = balanceCheckBody(request)
    if (Result.isFailure(body)) return fail("balanceCheck", { correlationId }, body.failure)
    return call({
      operation: "balanceCheck",
      url: balanceCheckUrl,
      body: body.success,
      options,
      correlationId,
      processId: undefined,
      unattended: undefined,
      decode: decodeBalanceCheck,
      span,
      // `Transport.traced` gives a span exactly when a tracer is installed
      untraced: span === undefined
    })
  }

  const validatePaging = (page: number | undefined, pageSize: number | undefined): InvalidRequest | undefined => {
    if (
      pageSize !== undefined &&
      (!Number.isInteger(pageSize) || pageSize < 10 || pageSize > 100 || pageSize % 10 !== 0)
    ) {
      return new InvalidRequest({
        path: "pageSize",
        detail: "must be a multiple of 10 from 10 to 100 (docs/bank-interface.md, Standing-order list)"
      })
    }
    if (page !== undefined && (!Number.isInteger(page) || page < 0)) {
      return new InvalidRequest({
        path: "page",
        detail: "must be a non-negative integer (docs/bank-interface.md, Standing-order list)"
      })
    }
    return undefined
  }

  const consentKey = (options: ListOptions) =>
    budgetKey({
      environment: config.environment,
      baseUrl: config.baseUrl,
      clientId: config.clientId,
      consent: options.consentKey ?? config.clientId
    })

  /** The budget key when the customer is not present (bank interface, "Daily limit"), or undefined when they are. */
  const budgetKeyUnlessPresent = (options: ListOptions) =>
    Effect.map(DateTime.now, (now) => (PsuContext.isPresent(options.psu, now) ? undefined : consentKey(options)))

  const page = (
    options: ListOptions,
    page: number | undefined,
    pageSize: number | undefined,
    correlationId: string,
    processId: string,
    unattended: string | undefined,
    span?: Tracer.AnySpan | undefined,
    prepaid?: boolean
  ): Effect.Effect<Reply<StandingOrdersPage>, BankError> => {
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
      decode: (json) => Result.map(Wire.decodePage(json), (p) => ({ ...p, page: page ?? 0 })),
      span
    })
  }

  const standingOrdersPage = Effect.fnUntraced(function* (
    options: PageOptions,
    span: Tracer.AnySpan | undefined
  ): Effect.fn.Return<Reply<StandingOrdersPage>, BankError> {
    const correlationId = options.correlationId ?? crypto.randomUUID()
    const invalid = validatePaging(options.page, options.pageSize)
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

  /** Listings in flight in this client, by listing key: callers in this process share one run. */
  const inFlight = new Map<string, Deferred.Deferred<unknown, unknown>>()

  const standingOrders = (options: AllPagesOptions): Stream.Stream<Reply<StandingOrdersPage>, BankError> =>
    Stream.unwrap(
      Effect.gen(function* () {
        const correlationId = options.correlationId ?? crypto.randomUUID()
        const processId = options.processId ?? crypto.randomUUID()
        const identity = { correlationId, processId }
        const refuse = (reason: BankError["reason"]) =>
          new BankError({ operation: "standingOrders", identity, reason, request: requestLines.standingOrders })
        const pageSize = options.pageSize ?? 100
        const invalid = validatePaging(0, pageSize)
        if (invalid !== undefined) return yield* refuse(invalid)
        const positive = (value: number | undefined, path: string) =>
          value !== undefined && (!Number.isInteger(value) || value < 1)
            ? new InvalidRequest({ path, detail: "must be a positive integer" })
            : undefined
        const wrong = positive(options.maxPages, "maxPages") ?? positive(options.pageLimit, "pageLimit")
        if (wrong !== undefined) return yield* refuse(wrong)
        const bounds: Listing.Bounds = {
          pageSize,
          maxPages: options.maxPages ?? Number.POSITIVE_INFINITY,
          pageLimit: options.pageLimit ?? DEFAULT_PAGE_LIMIT
        }
        const deadline = Duration.fromInputUnsafe(options.deadline ?? DEFAULT_LISTING_DEADLINE)
        const unattended = yield* budgetKeyUnlessPresent(options)
        /** Every page read so far, for the error that ends a listing early. */
        const read: Array<StandingOrdersPage> = []
        const overdue = Effect.suspend(() =>
          Effect.fail(
            refuse(
              new ListingIncomplete({
                kind: "deadline",
                detail: `no complete listing within ${Duration.format(deadline)}`,
                pages: [...read]
              })
            )
          )
        )
        const ensure = (n: number) =>
          unattended === undefined || n <= 0 ? Effect.void : Effect.mapError(budget.ensure(unattended, n), refuse)
        const state = Listing.initial()
        let prepaid = false
        const pages = Stream.paginate(0, (n: number) =>
          Effect.gen(function* () {
            const reply = yield* page(options, n, pageSize, correlationId, processId, unattended, undefined, prepaid)
            const { page: checked, step } = Listing.afterPage(state, reply.body, bounds)
            const kept: Reply<StandingOrdersPage> = checked === reply.body ? reply : { ...reply, body: checked }
            read.push(checked)
            if (step._tag === "refuse") {
              return yield* refuse(new ListingIncomplete({ kind: step.kind, detail: step.detail, pages: [...read] }))
            }
            const known = checked.pageCount
            if (step._tag === "more" && n === 0 && unattended !== undefined && known !== undefined) {
              // the rest of the listing is paid for at once, before page 1 is asked for
              const total = Math.min(known, bounds.maxPages)
              yield* Effect.mapError(budget.spend(unattended, total - 1, total), refuse)
              prepaid = true
            }
            return [[kept], step._tag === "more" ? Option.some(n + 1) : Option.none()] as const
          })
        )
        if (unattended === undefined)
          return Stream.interruptWhen(pages, Effect.andThen(Effect.sleep(deadline), overdue))
        const maxAgeMillis =
          options.maxAge === undefined ? 0 : Duration.toMillis(Duration.fromInputUnsafe(options.maxAge))
        const listingKey = JSON.stringify([unattended, options.iban ?? null, pageSize, options.maxPages ?? null])
        const all = Listing.coalesce(budget.store, inFlight, {
          key: listingKey,
          maxAgeMillis,
          leaseMillis: LEASE_MILLIS,
          pollMillis: 100,
          encode: (replies: ReadonlyArray<Reply<StandingOrdersPage>>) =>
            Listing.encodeSnapshot(replies.map((r) => ({ page: r.body, identity: r.identity, echoed: r.echoed }))),
          decode: (payload, takenAt) => {
            const stored = Listing.decodeSnapshot<Identity>(payload)
            const at = DateTime.formatIso(DateTime.makeUnsafe(takenAt))
            return stored?.map((p) => ({ body: p.page, identity: p.identity, echoed: p.echoed, snapshotTakenAt: at }))
          },
          storeError: refuse,
          // say before the first request when the pages asked for cannot fit the remaining budget
          run: Effect.andThen(ensure(Number.isFinite(bounds.maxPages) ? bounds.maxPages : 1), Stream.runCollect(pages))
        })
        const timed = Effect.timeoutOrElse(all, { duration: deadline, orElse: () => overdue })
        return Stream.fromIterableEffect(timed)
      })
    )

  return BankClient.of({
    // `useSpan` (through `Transport.traced`, only when a tracer is installed; no stack-trace capture) with the span
    // handed down as the exchanges' parent: making it the fiber's current span (`withSpan`) would change the
    // fiber's context twice per call; a token requested on the way is traced under the caller's span instead
    balanceCheck: (request, options) =>
      Transport.traced("BankClient.balanceCheck", (span) => balanceCheck(request, options, span)),
    standingOrdersPage: (options) =>
      Transport.traced("BankClient.standingOrdersPage", (span) => standingOrdersPage(options, span)),
    standingOrders
  })
})
