/**
 * Access tokens. `TokenService` obtains client-credentials tokens (docs/bank-interface.md, "Token"): a form POST with
 * the four fields, cached per scope set, renewed a safety margin before the 1200 s lifetime ends (never handed out
 * expired), one shared request for concurrent callers. `TokenProvider` is what the bank client asks; its default draws
 * on `TokenService`, and a caller may hand in a token from strong customer authentication.
 */
import { AccessToken, type Profile } from "@tppkit/core"
import { Clock, Context, Deferred, Duration, Effect, Exit, Layer, Redacted, Result, Semaphore } from "effect"
import { BankConfig, type Environment } from "./BankConfig.ts"
import { BankError, type MalformedResponse } from "./BankError.ts"
import { BankTransport } from "./BankTransport.ts"
import * as Retry from "./internal/retry.ts"
import * as Transport from "./internal/transport.ts"
import * as Wire from "./internal/wire.ts"

/** An access token bound to the environment that issued it; the value is redacted everywhere. */
export interface Token {
  readonly environment: Environment
  readonly tokenType: string
  readonly value: Redacted.Redacted<string>
  /** The scopes it was asked for; empty when unknown (a token handed in by the caller). */
  readonly scopes: ReadonlyArray<string>
  /** Whether the client may discard it and ask `TokenService` for a new one after a 401. */
  readonly renewable: boolean
  /** The lifetime the bank gave (`expires_in`, seconds); absent when unknown (a token handed in by the caller). */
  readonly expiresIn?: number
  /**
   * When the bank's lifetime ends, in epoch milliseconds by effect's `Clock`, counted from the moment the request
   * was sent (the bank's clock started no earlier); absent when unknown.
   */
  readonly expiresAt?: number
}

/** Wraps a token obtained by strong customer authentication (not specified by the document) for one environment. */
export const fromSca = (environment: Environment, value: Redacted.Redacted<string>, tokenType = "Bearer"): Token => ({
  environment,
  tokenType,
  value,
  scopes: [],
  renewable: false
})

/** The Authorization header value: the token type, a space and the token, still redacted. */
export const authorization = (token: Token): Redacted.Redacted<string> =>
  Redacted.make(`${token.tokenType} ${Redacted.value(token.value)}`)

/** The cache key of a scope set: sorted, de-duplicated and space-joined, as sent in the `scope` field. */
export const scopeKey = (scopes: ReadonlyArray<string>): string => [...new Set(scopes)].sort().join(" ")

// the same frozen scope arrays (from the configuration) are asked for on every call: their key is worked out once
const scopeKeys = new WeakMap<ReadonlyArray<string>, string>()
const keyOf = (scopes: ReadonlyArray<string>): string => {
  if (!Object.isFrozen(scopes)) return scopeKey(scopes)
  let key = scopeKeys.get(scopes)
  if (key === undefined) {
    key = scopeKey(scopes)
    scopeKeys.set(scopes, key)
  }
  return key
}

interface Issued {
  readonly token: Token
  /** How long the cache may keep it: lifetime minus safety margin minus the time the request took. */
  readonly keepMillis: number
}

/** The cache entry of one scope set: the request in flight, then its token for `keepMillis`. */
interface Entry {
  /** Completed with the request's token or failure; awaited by the callers that came while it was in flight. */
  readonly pending: Deferred.Deferred<Token, BankError>
  /** The token as a ready exit, once the request succeeded (the entry is dropped when its time is up). */
  ready: Exit.Exit<Token> | undefined
}

/** The longest token lifetime believed: one day (core's `AccessToken.MAX_LIFETIME_SECONDS`). */
export const maxExpiresInSeconds = AccessToken.MAX_LIFETIME_SECONDS

/**
 * Decodes the token response with core's strict decoder (`AccessToken.decodeResponse`): `access_token` a non-empty
 * text of printable ASCII, `token_type` Bearer in any case (written `Bearer`), `expires_in` a whole number of
 * seconds from 1 to a day as a number or numeric string, missing meaning the document's 1200 s. The text is parsed
 * within `maxDepth`; anything else, an error body with a 2xx status included, is a `MalformedResponse` naming the
 * field; never a defect.
 */
export const decodeTokenResponse = (
  text: string,
  maxDepth = 32,
  status = 200,
  contentType?: string
): Result.Result<AccessToken.TokenResponse, MalformedResponse> => {
  const json = Wire.parseJson(text, maxDepth)
  if (Result.isFailure(json)) return Result.fail(json.failure)
  const decoded = AccessToken.decodeResponse(json.success)
  if (Result.isSuccess(decoded)) return Result.succeed(decoded.success)
  const { path, message } = Wire.firstIssue(decoded.failure)
  return Result.fail(
    Wire.malformed(status, contentType, text, path, path === "$" ? "the body is not a JSON object" : message)
  )
}

/** Client-credentials tokens, cached per scope set. */
export class TokenService extends Context.Service<
  TokenService,
  {
    /** A valid token for the scopes: cached, or freshly requested (concurrent callers share one request). */
    readonly get: (scopes: ReadonlyArray<string>) => Effect.Effect<Token, BankError>
    /**
     * The cached token of the scopes when one is ready, else `undefined` (then `get` requests or awaits one): a
     * plain lookup, for callers already running in an effect that would otherwise pay one more step per call.
     */
    readonly ready?: (scopes: ReadonlyArray<string>) => Token | undefined
    /** Discards the cached token of the scopes (after a 401), so the next `get` requests a new one. */
    readonly invalidate: (scopes: ReadonlyArray<string>) => Effect.Effect<void>
  }
>()("@tppkit/http/TokenService") {
  /** The live service: form POST to the token path of the configured environment. */
  static readonly layer: Layer.Layer<TokenService, never, BankConfig | BankTransport> = Layer.effect(
    TokenService,
    Effect.gen(function* () {
      const config = yield* BankConfig
      const transport = yield* BankTransport
      const url = `${config.baseUrl}${config.paths.token}`
      const request = Transport.requestLine(url)
      const margin = Duration.toMillis(config.tokenSafetyMargin)

      const requestToken = (key: string): Effect.Effect<Issued, BankError> =>
        Effect.gen(function* () {
          const started = yield* Clock.currentTimeMillis
          const form = new URLSearchParams(
            AccessToken.toForm({
              grant_type: AccessToken.grantType,
              client_id: config.clientId,
              client_secret: config.clientSecret,
              scope: key
            })
          ).toString()
          const requestId = crypto.randomUUID()
          const identity = { requestId }
          const outgoing = { url, headers: {}, contentType: AccessToken.contentType, body: form }
          const received = yield* Transport.send(transport, outgoing, {
            operation: "token",
            identity,
            timeout: config.requestTimeout,
            maxBodyBytes: config.limits.maxBodyBytes
          })
          // the client secret never comes back into anything kept or printed, whatever the bank echoes
          const exchange = Transport.masked(received, [Redacted.value(config.clientSecret)])
          const finished = yield* Clock.currentTimeMillis
          const echoed = Transport.echoedIdentity(identity, exchange.headers)
          if (exchange.status < 200 || exchange.status > 299) {
            return yield* new BankError({
              operation: "token",
              identity: echoed,
              reason: Transport.statusReason(exchange, finished),
              request
            })
          }
          const decoded = decodeTokenResponse(
            exchange.text,
            config.limits.maxJsonDepth,
            exchange.status,
            exchange.headers["content-type"]
          )
          if (Result.isFailure(decoded)) {
            return yield* new BankError({ operation: "token", identity: echoed, reason: decoded.failure, request })
          }
          const { access_token, token_type, expires_in: expiresIn } = decoded.success
          // counted from the moment the request was sent: the bank's clock started no earlier
          const keepMillis = Math.max(0, expiresIn * 1000 - margin - (finished - started))
          return {
            token: {
              environment: config.environment,
              tokenType: token_type,
              value: access_token,
              scopes: key.split(" "),
              renewable: true,
              expiresIn,
              expiresAt: started + expiresIn * 1000
            },
            keepMillis
          }
        })

      // The one token cache: per scope set, the shared request while it is in flight (concurrent callers wait for
      // it), then its token as a ready exit, dropped by a sleeping fiber when its `keepMillis` are over (so a
      // lookup reads no clock; after a machine's suspend a token may outlive its time, and the bank's 401 then
      // renews it). The request runs in the layer's scope, so an interrupted caller does not cancel it for the
      // others. A failure is not kept.
      // `invalidate` drops the entry: a request already in flight still answers its waiters, but its token is
      // not kept (the entry it would fill is no longer the scope set's).
      const scope = yield* Effect.scope
      const entries = new Map<string, Entry>()
      const requested = (key: string): Effect.Effect<Token, BankError> => {
        const entry: Entry = { pending: Deferred.makeUnsafe<Token, BankError>(), ready: undefined }
        // at most 64 scope sets: the oldest is forgotten first
        if (entries.size >= 64) entries.delete(entries.keys().next().value as string)
        entries.set(key, entry)
        const request = Retry.retrying(config.retry, () => requestToken(key)).pipe(
          // traced where a token is really requested, not on every cache hit
          Effect.withSpan("TokenService.request", { attributes: { scope: key } }, { captureStackTrace: false }),
          Effect.onExit((exit) =>
            Effect.sync(() => {
              const current = entries.get(key) === entry
              if (Exit.isSuccess(exit)) {
                Deferred.doneUnsafe(entry.pending, Exit.succeed(exit.value.token))
                if (!current) return Effect.void
                if (exit.value.keepMillis <= 0) {
                  entries.delete(key)
                  return Effect.void
                }
                entry.ready = Exit.succeed(exit.value.token)
                // dropped when its time is up (by effect's Clock: TestClock moves it in tests)
                const expire = Effect.andThen(
                  Effect.sleep(Duration.millis(exit.value.keepMillis)),
                  Effect.sync(() => {
                    if (entries.get(key) === entry) entries.delete(key)
                  })
                )
                return Effect.asVoid(Effect.forkIn(expire, scope))
              } else {
                if (current) entries.delete(key)
                Deferred.doneUnsafe(entry.pending, Exit.failCause(exit.cause))
                return Effect.void
              }
            }).pipe(Effect.flatten)
          )
        )
        return Effect.andThen(Effect.forkIn(request, scope), Deferred.await(entry.pending))
      }
      return TokenService.of({
        // no clock reading per call: a kept token is dropped by its own timer when its time is up
        get: (scopes) =>
          Effect.suspend(() => {
            const key = keyOf(scopes)
            const entry = entries.get(key)
            return entry === undefined ? requested(key) : (entry.ready ?? Deferred.await(entry.pending))
          }),
        ready: (scopes) => {
          const ready = entries.get(keyOf(scopes))?.ready
          return ready !== undefined && Exit.isSuccess(ready) ? ready.value : undefined
        },
        invalidate: (scopes) =>
          Effect.sync(() => {
            entries.delete(keyOf(scopes))
          })
      })
    })
  )
}

/**
 * The customer's tokens of an authorization-code flow (COBS; packages/http/README.md, "Bank profiles"): the access
 * token (about an hour) and the refresh token that renews it, both redacted; `expiresIn` in seconds when known.
 */
export interface CustomerGrant {
  readonly accessToken: Redacted.Redacted<string>
  readonly refreshToken: Redacted.Redacted<string>
  readonly expiresIn?: number | undefined
}

/**
 * One form request to the profile's token path (an authorization code, or a refresh token): the customer's new
 * grant, the refresh token kept when the bank sends no new one. Every failure is a `BankError` of the token
 * operation; the secrets never reach a message.
 */
const customerTokenRequest = (
  config: BankConfig["Service"],
  transport: BankTransport["Service"],
  form: Record<string, string>,
  keepRefresh: Redacted.Redacted<string> | undefined
): Effect.Effect<CustomerGrant, BankError> =>
  Effect.gen(function* () {
    const url = `${config.baseUrl}${config.paths.token}`
    const request = Transport.requestLine(url)
    const identity = { requestId: crypto.randomUUID() }
    const body = new URLSearchParams({
      ...form,
      client_id: config.clientId,
      client_secret: Redacted.value(config.clientSecret)
    }).toString()
    const received = yield* Transport.send(
      transport,
      { url, headers: {}, contentType: AccessToken.contentType, body },
      {
        operation: "token",
        identity,
        timeout: config.requestTimeout,
        maxBodyBytes: config.limits.maxBodyBytes
      }
    )
    const secrets = [Redacted.value(config.clientSecret), ...Object.values(form).filter((v) => v.length >= 8)]
    const exchange = Transport.masked(received, secrets)
    const finished = yield* Clock.currentTimeMillis
    const echoed = Transport.echoedIdentity(identity, exchange.headers)
    if (exchange.status < 200 || exchange.status > 299)
      return yield* new BankError({
        operation: "token",
        identity: echoed,
        reason: Transport.statusReason(exchange, finished),
        request
      })
    const decoded = decodeTokenResponse(
      received.text,
      config.limits.maxJsonDepth,
      exchange.status,
      exchange.headers["content-type"]
    )
    if (Result.isFailure(decoded))
      return yield* new BankError({ operation: "token", identity: echoed, reason: decoded.failure, request })
    const json = Wire.parseJson(received.text, config.limits.maxJsonDepth)
    const refresh =
      Result.isSuccess(json) && typeof (json.success as { refresh_token?: unknown }).refresh_token === "string"
        ? Redacted.make((json.success as { refresh_token: string }).refresh_token, { label: "refresh_token" })
        : keepRefresh
    if (refresh === undefined)
      return yield* new BankError({
        operation: "token",
        identity: echoed,
        reason: Wire.malformed(
          exchange.status,
          exchange.headers["content-type"],
          exchange.text,
          "refresh_token",
          "is missing"
        ),
        request
      })
    return { accessToken: decoded.success.access_token, refreshToken: refresh, expiresIn: decoded.success.expires_in }
  })

/**
 * Exchanges the authorization code the customer's consent returned for their tokens (RFC 6749 4.1.3) at the
 * profile's token path, with the client's id and secret.
 */
export const exchangeCode = (
  code: Redacted.Redacted<string>,
  redirectUri: string
): Effect.Effect<CustomerGrant, BankError, BankConfig | BankTransport> =>
  Effect.gen(function* () {
    const config = yield* BankConfig
    const transport = yield* BankTransport
    return yield* customerTokenRequest(
      config,
      transport,
      { grant_type: "authorization_code", code: Redacted.value(code), redirect_uri: redirectUri },
      undefined
    )
  })

/**
 * Renews the customer's grant with its refresh token (RFC 6749 section 6) at the profile's token path, with the
 * client's id and secret: a new access token, and the refresh token the bank sent (the given one when it sent none),
 * e.g. for a fleet that keeps each consent's refresh token and lists without the customer.
 */
export const refreshGrant = (
  refreshToken: Redacted.Redacted<string>
): Effect.Effect<CustomerGrant, BankError, BankConfig | BankTransport> =>
  Effect.gen(function* () {
    const config = yield* BankConfig
    const transport = yield* BankTransport
    return yield* customerTokenRequest(
      config,
      transport,
      { grant_type: "refresh_token", refresh_token: Redacted.value(refreshToken) },
      refreshToken
    )
  })

/** The configured scopes of an operation (a standing order's detail: the list's). */
const scopesOf = (
  config: BankConfig["Service"],
  operation: Exclude<Profile.Operation, "token">
): ReadonlyArray<string> => (operation === "balanceCheck" ? config.scopes.balanceCheck : config.scopes.standingOrders)

/** Where the bank client gets its tokens from, per operation. */
export class TokenProvider extends Context.Service<
  TokenProvider,
  {
    /** A token for the operation. */
    readonly token: (operation: Exclude<Profile.Operation, "token">) => Effect.Effect<Token, BankError>
    /**
     * The token for the operation when one is at hand without waiting, else `undefined` (then `token` gets one):
     * what the client looks up first, saving an effect step per call. Optional: without it `token` is always used.
     */
    readonly ready?: (operation: Exclude<Profile.Operation, "token">) => Token | undefined
    /** Discards a token the bank refused with 401, when it can be renewed. */
    readonly invalidate: (token: Token) => Effect.Effect<void>
  }
>()("@tppkit/http/TokenProvider") {
  /** Client-credentials tokens from `TokenService`, with the configured scopes of each operation. */
  static readonly layer: Layer.Layer<TokenProvider, never, BankConfig | TokenService> = Layer.effect(
    TokenProvider,
    Effect.gen(function* () {
      const config = yield* BankConfig
      const tokens = yield* TokenService
      return TokenProvider.of({
        token: (operation) => tokens.get(scopesOf(config, operation)),
        ready: (operation) => tokens.ready?.(scopesOf(config, operation)),
        invalidate: (token) => (token.renewable ? tokens.invalidate(token.scopes) : Effect.void)
      })
    })
  )

  /**
   * The customer's access token for the operations the profile authenticates with it (`customerToken`), renewed with
   * the refresh token a safety margin before it runs out and after the bank refuses it (401), one renewal shared by
   * concurrent callers; client-credentials tokens from `TokenService` for the others. `onRenewed` is told each new
   * grant (the refresh token may change), e.g. to store it.
   */
  static readonly layerCustomer = (
    grant: CustomerGrant,
    onRenewed?: (grant: CustomerGrant) => Effect.Effect<void>
  ): Layer.Layer<TokenProvider, never, BankConfig | TokenService | BankTransport> =>
    Layer.effect(
      TokenProvider,
      Effect.gen(function* () {
        const config = yield* BankConfig
        const tokens = yield* TokenService
        const transport = yield* BankTransport
        const margin = Duration.toMillis(config.tokenSafetyMargin)
        const lock = yield* Semaphore.make(1)
        const tokenOf = (g: CustomerGrant, now: number): Token => ({
          environment: config.environment,
          tokenType: "Bearer",
          value: g.accessToken,
          scopes: [],
          renewable: true,
          ...(g.expiresIn === undefined ? {} : { expiresIn: g.expiresIn, expiresAt: now + g.expiresIn * 1000 })
        })
        let current: { grant: CustomerGrant; token: Token } = {
          grant,
          token: tokenOf(grant, yield* Clock.currentTimeMillis)
        }
        let stale = false
        const fresh = (now: number) =>
          !stale && (current.token.expiresAt === undefined || now < current.token.expiresAt - margin)
        const customer = Effect.flatMap(Clock.currentTimeMillis, (now) =>
          fresh(now)
            ? Effect.succeed(current.token)
            : lock.withPermit(
                Effect.gen(function* () {
                  const at = yield* Clock.currentTimeMillis
                  if (fresh(at)) return current.token
                  const renewed = yield* customerTokenRequest(
                    config,
                    transport,
                    { grant_type: "refresh_token", refresh_token: Redacted.value(current.grant.refreshToken) },
                    current.grant.refreshToken
                  )
                  current = { grant: renewed, token: tokenOf(renewed, at) }
                  stale = false
                  if (onRenewed !== undefined) yield* onRenewed(renewed)
                  return current.token
                })
              )
        )
        const isCustomer = (operation: Exclude<Profile.Operation, "token">) =>
          config.profile.operations[operation]?.auth.includes("customerToken") === true
        return TokenProvider.of({
          token: (operation) => (isCustomer(operation) ? customer : tokens.get(scopesOf(config, operation))),
          invalidate: (token) =>
            token === current.token
              ? Effect.sync(() => {
                  stale = true
                })
              : token.renewable
                ? tokens.invalidate(token.scopes)
                : Effect.void
        })
      })
    )

  /** Always hands out the given token (e.g. from strong customer authentication); it is never renewed. */
  static readonly layerStatic = (token: Token): Layer.Layer<TokenProvider> =>
    Layer.succeed(
      TokenProvider,
      TokenProvider.of({ token: () => Effect.succeed(token), ready: () => token, invalidate: () => Effect.void })
    )
}
