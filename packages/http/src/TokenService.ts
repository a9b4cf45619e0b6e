/**
 * Access tokens. `TokenService` obtains client-credentials tokens (docs/bank-interface.md, "Token"): a form POST with
 * the four fields, cached per scope set, renewed a safety margin before the 1200 s lifetime ends (never handed out
 * expired), one shared request for concurrent callers. `TokenProvider` is what the bank client asks; its default draws
 * on `TokenService`, and a caller may hand in a token from strong customer authentication. The requests, the cache
 * and the customer's renewal are `internal/tokens.ts`.
 */
import { AccessToken, type Profile } from "@tppkit/core"
import { Context, Effect, Layer, Redacted } from "effect"
import { BankConfig, type Environment } from "./BankConfig.ts"
import type { BankError } from "./BankError.ts"
import { BankTransport } from "./BankTransport.ts"
import type { CustomerGrant, Token } from "./internal/tokens.ts"
import * as Tokens from "./internal/tokens.ts"

export type { CustomerGrant, Token } from "./internal/tokens.ts"

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
export const scopeKey: (scopes: ReadonlyArray<string>) => string = Tokens.scopeKey

/** The longest token lifetime believed: one day (core's `AccessToken.MAX_LIFETIME_SECONDS`). */
export const maxExpiresInSeconds = AccessToken.MAX_LIFETIME_SECONDS

/**
 * Decodes the token response with core's strict decoder (`AccessToken.decodeResponse`): `access_token` a non-empty
 * text of printable ASCII, `token_type` Bearer in any case (written `Bearer`), `expires_in` a whole number of
 * seconds from 1 to a day as a number or numeric string, missing meaning the document's 1200 s. The text is parsed
 * within `maxDepth`; anything else, an error body with a 2xx status included, is a `MalformedResponse` naming the
 * field; never a defect.
 */
export const decodeTokenResponse: typeof Tokens.decodeTokenResponse = Tokens.decodeTokenResponse

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
      const cache = Tokens.cache(yield* BankConfig, yield* BankTransport, yield* Effect.scope)
      return TokenService.of(cache)
    })
  )
}

/** A customer's token request with `form` at the profile's token path; `keepRefresh` the refresh token kept when the bank sends none. */
const customerGrant = (
  form: Record<string, string>,
  keepRefresh: Redacted.Redacted<string> | undefined
): Effect.Effect<CustomerGrant, BankError, BankConfig | BankTransport> =>
  Effect.gen(function* () {
    const config = yield* BankConfig
    const transport = yield* BankTransport
    return yield* Tokens.customerTokenRequest(config, transport, form, keepRefresh)
  })

/**
 * Exchanges the authorization code the customer's consent returned for their tokens (RFC 6749 4.1.3) at the
 * profile's token path, with the client's id and secret.
 */
export const exchangeCode = (
  code: Redacted.Redacted<string>,
  redirectUri: string
): Effect.Effect<CustomerGrant, BankError, BankConfig | BankTransport> =>
  customerGrant({ grant_type: "authorization_code", code: Redacted.value(code), redirect_uri: redirectUri }, undefined)

/**
 * Renews the customer's grant with its refresh token (RFC 6749 section 6) at the profile's token path, with the
 * client's id and secret: a new access token, and the refresh token the bank sent (the given one when it sent none),
 * e.g. for a fleet that keeps each consent's refresh token and lists without the customer.
 */
export const refreshGrant = (
  refreshToken: Redacted.Redacted<string>
): Effect.Effect<CustomerGrant, BankError, BankConfig | BankTransport> =>
  customerGrant({ grant_type: "refresh_token", refresh_token: Redacted.value(refreshToken) }, refreshToken)

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
        token: (operation) => tokens.get(Tokens.scopesOf(config, operation)),
        ready: (operation) => tokens.ready?.(Tokens.scopesOf(config, operation)),
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
        const renewing = yield* Tokens.customer(config, yield* BankTransport, grant, onRenewed)
        const tokens = yield* TokenService
        return TokenProvider.of({
          token: (operation) =>
            renewing.serves(operation) ? renewing.token : tokens.get(Tokens.scopesOf(config, operation)),
          invalidate: (token) =>
            renewing.owns(token) ? renewing.stale : token.renewable ? tokens.invalidate(token.scopes) : Effect.void
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
