/**
 * The call pipeline of the bank client: one call of an operation from its spec to a decoded reply or a `BankError`.
 * In order: the PSU context is checked, a token is taken (the caller's, the provider's cached one, or a fresh one),
 * an unattended request is paid from the budget first, the request is sent with a fresh Request-ID under the call's
 * Correlation-ID (and Process-ID), a 2xx is decoded, a 401 with a renewable token discards it and tries once more
 * with a new one, and transient failures are retried by the one rule of `retry.ts` (never for unattended calls).
 * Plain functions around one transport effect: this runs on every request.
 */
import { Headers, Profile } from "@tppkit/core"
import { Clock, DateTime, Effect, Redacted, Result, type Tracer } from "effect"
import type { BankConfig } from "../BankConfig.ts"
import { BankError, type Identity, InvalidRequest, withAttempts, withCallRequests } from "../BankError.ts"
import type { BankTransport, Exchange, Outgoing } from "../BankTransport.ts"
import type { Budget } from "../Budget.ts"
import * as PsuContext from "../PsuContext.ts"
import { authorization, type Token, type TokenProvider } from "../TokenService.ts"
import type { CallOptions, Reply } from "./clientTypes.ts"
import * as ProfileHeaders from "./profileHeaders.ts"
import * as Retry from "./retry.ts"
import * as Transport from "./transport.ts"
import * as Wire from "./wire.ts"

/** The operations the client calls (the token request has its own path in `TokenService`). */
export type ApiOperation = Exclude<Profile.Operation, "token">

/** One call of an operation: what to send, for whom, how to decode the answer, and whether the budget pays. */
export interface CallSpec<A> {
  readonly operation: ApiOperation
  /** The whole URL, made once per client: the same string every time, so the transport's URL lookup hashes it once. */
  readonly url: string
  /** The profile's method of the operation when it is not `POST` (a `GET` sends no body). */
  readonly method?: "GET" | "POST"
  readonly body: string
  /**
   * The body of each request of the call when it differs from request to request (asked once per request sent, the
   * call's retries and a resend after a 401 included); `body` when absent. COBS's balance check sends its later
   * requests under a fresh `exchangeIdentification` (packages/http/README.md, "Bank profiles").
   */
  readonly bodyOfRequest?: () => string
  readonly options: CallOptions
  readonly correlationId: string
  readonly processId: string | undefined
  /**
   * The budget key when the call is unattended (docs/bank-interface.md, "Daily limit"): no retries, every request
   * counted.
   */
  readonly unattended: string | undefined
  /** The first request of this unattended call was paid for already (a listing reserves its pages at once). */
  readonly prepaid?: boolean
  readonly decode: (json: unknown) => Result.Result<A, { readonly path: string; readonly message: string }>
  /**
   * Decodes a 2xx body from its text or bytes instead of `decode` over `JSON.parse` (a standing-order page, read
   * exactly: numbers from their source text, repeated keys and invalid UTF-8 reported).
   */
  readonly decodeBody?: (exchange: Exchange) => Result.Result<A, { readonly path: string; readonly message: string }>
  /** The call's span when it is not the fiber's current span (the exchange spans become its children). */
  readonly span?: Tracer.AnySpan | undefined
  /** Set when the call found no tracer installed (`transport.traced`): the exchange then makes no span either. */
  readonly untraced?: boolean
}

const isUnauthorized = (e: BankError): boolean => e.reason._tag === "Unauthorized"

/**
 * Whether a failed request never reached the bank, so that it costs no budget (docs/bank-interface.md, "Daily
 * limit"): its token request failed, the connection was refused, or the client refused it before sending.
 */
export const neverSent = (e: BankError): boolean =>
  e.operation === "token" ||
  (e.reason._tag === "TransportFailure" && e.reason.kind === "connect") ||
  e.reason._tag === "InvalidRequest"

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

// The secrets an answer to a request with a token must never carry back (the token, the client secret), per token.
const secretsByToken = new WeakMap<Token, ReadonlyArray<string>>()

/** The identity of a request with the bank's Response-ID added. */
const withResponseId = (identity: Identity, responseId: string): Identity => {
  const result: { -readonly [K in keyof Identity]: Identity[K] } = {}
  if (identity.requestId !== undefined) result.requestId = identity.requestId
  if (identity.correlationId !== undefined) result.correlationId = identity.correlationId
  if (identity.processId !== undefined) result.processId = identity.processId
  result.responseId = responseId
  return result
}

/** Pays one unattended request: the budget unit spent before it is sent, given back when it never reached the bank. */
type Spend = <A>(request: Effect.Effect<A, BankError>) => Effect.Effect<A, BankError>

/** The pipeline of one client, over its configuration, transport, token provider and budget. */
export interface Pipeline {
  /** The whole URL of each operation, made once per client (the same string every time). */
  readonly urls: Readonly<Record<ApiOperation, string>>
  /** "POST /path" of each operation, as messages name it. */
  readonly requestLines: Readonly<Record<ApiOperation, string>>
  /** A `BankError` of the operation, naming its request. */
  readonly fail: (
    operation: ApiOperation,
    identity: Identity,
    reason: BankError["reason"]
  ) => Effect.Effect<never, BankError>
  /** Runs one call: the PSU context checked, then token, budget, request, 401 renewal and retries. */
  readonly call: <A>(spec: CallSpec<A>) => Effect.Effect<Reply<A>, BankError>
  /** The `BankError` of a budget refusal (or store failure) of an operation, before any request. */
  readonly budgetError: (
    operation: ApiOperation,
    correlationId: string,
    processId: string | undefined,
    reason: BankError["reason"]
  ) => BankError
}

/** The pipeline over a client's services. */
export const make = (
  config: BankConfig["Service"],
  transport: BankTransport["Service"],
  tokens: TokenProvider["Service"],
  budget: Budget["Service"]
): Pipeline => {
  const profile = config.profile
  const sbas = Profile.isSbas(profile)
  const detailPath = profile.operations.standingOrder?.paths[config.environment] ?? ""
  const urls: Record<ApiOperation, string> = {
    balanceCheck: `${config.baseUrl}${config.paths.balanceCheck}`,
    standingOrders: `${config.baseUrl}${config.paths.standingOrders}`,
    standingOrder: `${config.baseUrl}${detailPath}`
  }
  const methodOf = (operation: ApiOperation): "GET" | "POST" => profile.operations[operation]?.method ?? "POST"
  const requestLines: Record<ApiOperation, string> = {
    balanceCheck: Transport.requestLine(urls.balanceCheck, methodOf("balanceCheck")),
    standingOrders: Transport.requestLine(urls.standingOrders, methodOf("standingOrders")),
    standingOrder: Transport.requestLine(urls.standingOrder, methodOf("standingOrder"))
  }
  /** The operations that send a token (client credentials or the customer's): the others authenticate otherwise. */
  const withBearer: Record<ApiOperation, boolean> = {
    balanceCheck: usesToken(profile, "balanceCheck"),
    standingOrders: usesToken(profile, "standingOrders"),
    standingOrder: usesToken(profile, "standingOrder")
  }
  const profileHeaders = sbas ? undefined : ProfileHeaders.make(profile, config)
  const maxDepth = config.limits.maxJsonDepth

  const clientSecret = Redacted.value(config.clientSecret)
  const apiKey = config.apiKey === undefined ? undefined : Redacted.value(config.apiKey)
  /** The token's value, the client secret and the API key, masked in every answer (`Transport.masked`). */
  const secretsOf = (token: Token): ReadonlyArray<string> => {
    let secrets = secretsByToken.get(token)
    if (secrets === undefined) {
      secrets =
        apiKey === undefined
          ? [Redacted.value(token.value), clientSecret]
          : [Redacted.value(token.value), clientSecret, apiKey]
      secretsByToken.set(token, secrets)
    }
    return secrets
  }

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
    let decoded: Result.Result<A, { readonly path: string; readonly message: string }>
    if (spec.decodeBody !== undefined) decoded = spec.decodeBody(exchange)
    else {
      const json = Wire.parseJson(exchange.text, maxDepth)
      if (Result.isFailure(json)) return fail(spec.operation, Transport.echoedIdentity(identity, headers), json.failure)
      decoded = spec.decode(json.success)
    }
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
    if (profileHeaders !== undefined) return onceProfiled(spec, token, identity)
    const headers = Headers.request({
      authorization: authorizationOf(token),
      ids,
      psu: PsuContext.toHeaders(spec.options.psu)
    })
    const outgoing = {
      url: spec.url,
      headers,
      contentType: Headers.jsonContentType,
      body: spec.bodyOfRequest === undefined ? spec.body : spec.bodyOfRequest()
    }
    return sendOne(spec, token, identity, outgoing, undefined)
  }

  /** Sends one request of the call and reads its answer (`answered`, when given, adapts the exchange first). */
  const sendOne = <A>(
    spec: CallSpec<A>,
    token: Token,
    identity: Identity,
    outgoing: Outgoing,
    answered: ((exchange: Exchange) => Exchange) | undefined
  ): Effect.Effect<Reply<A>, BankError> =>
    Transport.sendThen(
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
      (exchange) => {
        const masked = Transport.masked(exchange, secretsOf(token))
        return replyOf(spec, identity, answered === undefined ? masked : answered(masked))
      }
    )

  /**
   * One request of a profile other than the seed bank's: its headers made by the profile (`ProfileHeaders`), with the
   * customer's presence and the `Date` read from the clock, its method and its own response-ID header.
   */
  const onceProfiled = <A>(spec: CallSpec<A>, token: Token, identity: Identity): Effect.Effect<Reply<A>, BankError> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const headers = (profileHeaders as ProfileHeaders.Builder)({
        authorization: withBearer[spec.operation] ? authorizationOf(token) : undefined,
        ids: identity,
        psu: spec.options.psu,
        now
      })
      const outgoing = {
        method: spec.method ?? "POST",
        url: spec.url,
        headers,
        contentType: headers["Content-Type"] ?? Headers.jsonContentType,
        body: spec.bodyOfRequest === undefined ? spec.body : spec.bodyOfRequest()
      }
      return sendOne(spec, token, identity, outgoing, (exchange) => ProfileHeaders.responseIds(profile, exchange))
    })

  /** The error of a budget refusal or store failure, naming the call's request. */
  const budgetError = (spec: CallSpec<unknown>, reason: BankError["reason"]) =>
    new BankError({
      operation: spec.operation,
      identity: {
        correlationId: spec.correlationId,
        ...(spec.processId === undefined ? {} : { processId: spec.processId })
      },
      reason,
      request: requestLines[spec.operation]
    })

  /** Fails when the budget cannot cover one more request; spends nothing. */
  const ensureFor = (spec: CallSpec<unknown>, unattended: string): Effect.Effect<void, BankError> =>
    Effect.asVoid(Effect.mapError(budget.ensure(unattended, 1), (reason) => budgetError(spec, reason)))

  /**
   * The budget unit an unattended request spends once it has its token and before it is sent; the unit is given
   * back when the request never reached the bank ({@link neverSent}).
   */
  const spendFor =
    (spec: CallSpec<unknown>, unattended: string): Spend =>
    (request) =>
      Effect.flatMap(
        Effect.mapError(budget.spend(unattended, 1), (reason) => budgetError(spec, reason)),
        (usage) =>
          Effect.tapError(request, (e) => (neverSent(e) ? budget.refund(unattended, 1, usage.day) : Effect.void))
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

  /**
   * After a 401: the token discarded and the request made once more with a new one, paying `spend` again; the reply
   * (or the second request's failure) says that the call sent two requests, and a new token that could not be had
   * says that the call sent one (the request answered 401).
   */
  const renewed = <A>(spec: CallSpec<A>, token: Token, spend: Spend | undefined): Effect.Effect<Reply<A>, BankError> =>
    Effect.andThen(
      tokens.invalidate(token),
      Effect.flatMap(
        Effect.mapError(tokens.token(spec.operation), (e) => withCallRequests(e, 1)),
        (fresh) =>
          (spend === undefined ? once(spec, fresh) : spend(once(spec, fresh))).pipe(
            Effect.map((reply): Reply<A> => ({ ...reply, requests: 2 })),
            Effect.mapError((e) => (e.operation === spec.operation ? withAttempts(e, (e.attempts ?? 1) + 1) : e))
          )
      )
    )

  /**
   * The call's request with `token`, paid by `spend` unless `prepaid`; after a 401 with a renewable token (not one
   * the caller handed in) the token is discarded and the request made once more with a new one, spending `spend`
   * again when the call is unattended.
   */
  const run = <A>(
    spec: CallSpec<A>,
    token: Token,
    spend: Spend | undefined,
    prepaid: boolean
  ): Effect.Effect<Reply<A>, BankError> => {
    const first = spend === undefined || prepaid ? attempt(spec, token) : spend(attempt(spec, token))
    if (!renews(spec, token)) return first
    return Effect.catchIf(first, isUnauthorized, () => renewed(spec, token, spend))
  }

  /**
   * Gets a token and runs the call's request with it (see {@link run}); an unattended request is paid once it has
   * its token, so a failed token request costs nothing.
   */
  const withToken = <A>(spec: CallSpec<A>): Effect.Effect<Reply<A>, BankError> => {
    const spend = spec.unattended === undefined ? undefined : spendFor(spec, spec.unattended)
    // a listing that reserved its pages at once has paid for this request already
    const prepaid = spec.prepaid === true
    // a token at hand (the caller's, or the provider's cached one) is used without an effect step to get it; this
    // runs when the call runs (inside the call's `withFiber` or effect), so the lookup is never stale; an operation
    // the profile authenticates without a token (an API key and the certificate) needs none
    const ready = withBearer[spec.operation]
      ? (spec.options.token ?? tokens.ready?.(spec.operation))
      : noToken(config.environment)
    const request =
      ready !== undefined
        ? run(spec, ready, spend, prepaid)
        : Effect.flatMap(tokens.token(spec.operation), (token) => run(spec, token, spend, prepaid))
    // a request the budget cannot cover is refused before any traffic, its token request included; with a token at
    // hand the spending itself refuses it before the request, so the budget is not read first
    return spec.unattended === undefined || prepaid || ready !== undefined
      ? request
      : Effect.andThen(ensureFor(spec, spec.unattended), request)
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
    const token =
      spec.unattended === undefined
        ? withBearer[spec.operation]
          ? (spec.options.token ?? tokens.ready?.(spec.operation))
          : noToken(config.environment)
        : undefined
    if (token === undefined) return Retry.retrying(policy, again)
    return Effect.catch(attempt(spec, token), (failure) =>
      renews(spec, token) && isUnauthorized(failure)
        ? Effect.catch(renewed(spec, token, undefined), (last) => Retry.afterFirstFailure(policy, last, again))
        : Retry.afterFirstFailure(policy, failure, again)
    )
  }

  return {
    urls,
    requestLines,
    fail,
    call: profile.technicalBreaks.length === 0 ? call : afterBreak(profile, call),
    budgetError: (operation, correlationId, processId, reason) =>
      budgetError({ operation, correlationId, processId } as CallSpec<unknown>, reason)
  }
}

/** Whether the profile's operation sends a bearer token (client credentials or the customer's). */
export const usesToken = (profile: Profile.Profile, operation: ApiOperation): boolean => {
  const auth = profile.operations[operation]?.auth ?? []
  return auth.includes("clientCredentials") || auth.includes("customerToken")
}

// the stand-in token of an operation that sends none: never renewed, its value never sent
const noTokens: Record<string, Token> = {}
const noToken = (environment: Token["environment"]): Token =>
  (noTokens[environment] ??= {
    environment,
    tokenType: "Bearer",
    value: Redacted.make(""),
    scopes: [],
    renewable: false
  })

/**
 * The call, started only outside the profile's technical breaks (Profile.breakEnd): a call that falls in one waits
 * until the break ends, then runs; nothing is sent or charged while it waits.
 */
const afterBreak =
  (profile: Profile.Profile, call: Pipeline["call"]): Pipeline["call"] =>
  (spec) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const end = Profile.breakEnd(profile, now)
      return end === undefined ? call(spec) : Effect.andThen(Effect.sleep(end - now), call(spec))
    })
