/**
 * The engine of `TokenService` and `TokenProvider`: the client-credentials request and its one cache per scope set,
 * the customer's token requests of an authorization-code flow (a code, a refresh token) and the renewal of the
 * customer's access token that `TokenProvider.layerCustomer` hands out.
 */
import { AccessToken, type Profile } from "@tppkit/core"
import { Clock, Deferred, Duration, Effect, Exit, Redacted, Result, type Scope, Semaphore } from "effect"
import type { BankConfig, Environment } from "../BankConfig.ts"
import { BankError, type MalformedResponse } from "../BankError.ts"
import type { BankTransport } from "../BankTransport.ts"
import * as Retry from "./retry.ts"
import * as Transport from "./transport.ts"
import * as Wire from "./wire.ts"

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

/**
 * The customer's tokens of an authorization-code flow (COBS; packages/http/README.md, "Bank profiles"): the access
 * token (about an hour) and the refresh token that renews it, both redacted; `expiresIn` in seconds when known.
 */
export interface CustomerGrant {
  readonly accessToken: Redacted.Redacted<string>
  readonly refreshToken: Redacted.Redacted<string>
  readonly expiresIn?: number | undefined
}

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

/**
 * Decodes the token response with core's strict decoder (`TokenService.decodeTokenResponse` documents it).
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

/**
 * Posts a token request's form to the profile's token path and takes the answer: as received, and with `secrets`
 * masked (what is kept or printed), the moment it finished and the identity the bank echoed; a status outside 2xx
 * fails as the bank's refusal.
 */
const tokenExchange = (
  config: BankConfig["Service"],
  transport: BankTransport["Service"],
  body: string,
  secrets: ReadonlyArray<string>
) =>
  Effect.gen(function* () {
    const url = `${config.baseUrl}${config.paths.token}`
    const identity = { requestId: crypto.randomUUID() }
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
    const exchange = Transport.masked(received, secrets)
    const finished = yield* Clock.currentTimeMillis
    const echoed = Transport.echoedIdentity(identity, exchange.headers)
    if (exchange.status < 200 || exchange.status > 299)
      return yield* new BankError({
        operation: "token",
        identity: echoed,
        reason: Transport.statusReason(exchange, finished),
        request: Transport.requestLine(url)
      })
    return { received, exchange, finished, echoed }
  })

/** The one token cache of a client (per scope set): `TokenService.layer`'s service, its requests in `scope`. */
export const cache = (
  config: BankConfig["Service"],
  transport: BankTransport["Service"],
  scope: Scope.Scope
): {
  readonly get: (scopes: ReadonlyArray<string>) => Effect.Effect<Token, BankError>
  readonly ready: (scopes: ReadonlyArray<string>) => Token | undefined
  readonly invalidate: (scopes: ReadonlyArray<string>) => Effect.Effect<void>
} => {
  const request = Transport.requestLine(`${config.baseUrl}${config.paths.token}`)
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
      // the client secret never comes back into anything kept or printed, whatever the bank echoes
      const { exchange, finished, echoed } = yield* tokenExchange(config, transport, form, [
        Redacted.value(config.clientSecret)
      ])
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
  return {
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
  }
}

/**
 * One form request to the profile's token path (an authorization code, or a refresh token): the customer's new
 * grant, the refresh token kept when the bank sends no new one. Every failure is a `BankError` of the token
 * operation; the secrets never reach a message.
 */
export const customerTokenRequest = (
  config: BankConfig["Service"],
  transport: BankTransport["Service"],
  form: Record<string, string>,
  keepRefresh: Redacted.Redacted<string> | undefined
): Effect.Effect<CustomerGrant, BankError> =>
  Effect.gen(function* () {
    const request = Transport.requestLine(`${config.baseUrl}${config.paths.token}`)
    const body = new URLSearchParams({
      ...form,
      client_id: config.clientId,
      client_secret: Redacted.value(config.clientSecret)
    }).toString()
    const secrets = [Redacted.value(config.clientSecret), ...Object.values(form).filter((v) => v.length >= 8)]
    const { received, exchange, echoed } = yield* tokenExchange(config, transport, body, secrets)
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

/** The configured scopes of an operation (a standing order's detail: the list's). */
export const scopesOf = (
  config: BankConfig["Service"],
  operation: Exclude<Profile.Operation, "token">
): ReadonlyArray<string> => (operation === "balanceCheck" ? config.scopes.balanceCheck : config.scopes.standingOrders)

/**
 * The customer's access token of `grant`, renewed with its refresh token a safety margin before it runs out and after
 * the bank refuses it (`stale`), one renewal shared by concurrent callers; `onRenewed` is told each new grant.
 */
export const customer = (
  config: BankConfig["Service"],
  transport: BankTransport["Service"],
  grant: CustomerGrant,
  onRenewed: ((grant: CustomerGrant) => Effect.Effect<void>) | undefined
) =>
  Effect.gen(function* () {
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
    return {
      /** Whether the profile authenticates the operation with the customer's token. */
      serves: (operation: Exclude<Profile.Operation, "token">): boolean =>
        config.profile.operations[operation]?.auth.includes("customerToken") === true,
      /** The customer's access token, renewed when due. */
      token: customer,
      /** Whether a token is the customer's one handed out now. */
      owns: (token: Token): boolean => token === current.token,
      /** Marks the customer's token refused: the next call renews it. */
      stale: Effect.sync(() => {
        stale = true
      })
    }
  })
