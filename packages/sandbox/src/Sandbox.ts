/**
 * The mock bank as a scoped Layer: it validates the fixtures, starts the server on loopback (port 0 by default),
 * provides `SandboxInfo` (base URL, credentials, accounts) together with the `SandboxClock` and `Journal` it
 * uses, and stops the server when the scope closes.
 */
import { Endpoint, Headers, LocalDate, Profile } from "@tppkit/core"
import { BigDecimal, Context, Effect, Layer, Redacted, Result, Schema } from "effect"
import type * as Faults from "./Faults.ts"
import * as Fixtures from "./Fixtures.ts"
import * as Bank from "./internal/bank.ts"
import type { Dialect } from "./internal/errors.ts"
import type { HttpLimits } from "./internal/server.ts"
import * as Server from "./internal/server.ts"
import { Journal } from "./Journal.ts"
import * as OpenApi from "./OpenApi.ts"
import type * as Personality from "./Personality.ts"
import { SandboxClock } from "./SandboxClock.ts"

export type { HttpLimits } from "./internal/server.ts"

/** The error body shape of the API paths: RFC 9457 problem details, Berlin Group `tppMessages`, or CZ/SK `errors[]`. */
export type ErrorDialect = Dialect

/**
 * Which paths are served: the SANDBOX ones (`/identity-server-test/…`) or the LIVE ones (docs/bank-interface.md,
 * "Environments and paths").
 */
export type Environment = Bank.Environment

/** The paths of one environment: core's `Endpoint.paths`. */
export const paths: (environment: Environment) => Endpoint.Paths = Endpoint.paths

/** TLS for the server: PEM certificate and key, optional CA and whether client certificates are required. */
export interface Tls {
  readonly cert: string
  readonly key: string
  readonly ca?: string
  readonly requireClientCert?: boolean
}

/** Options of the mock bank; every one has a default suited to tests. */
export interface Options {
  /** Interface to bind (default `127.0.0.1`). */
  readonly host?: string
  /** Port (default 0: an ephemeral port). */
  readonly port?: number
  /**
   * Fixture set (default {@link Fixtures.defaults}): a file's content, decoded with {@link Fixtures.decode} on start,
   * or a set that `Fixtures.decode` already loaded, used as it is.
   */
  readonly fixtures?: Fixtures.Fixtures | Fixtures.Loaded
  /** Serve the SANDBOX (default) or the LIVE paths. */
  readonly environment?: Environment
  /** Error body dialect of the API paths (default `problem`); a request may override it with `X-Sandbox-Error-Dialect`. */
  readonly errorDialect?: ErrorDialect
  /** Global fault injection at a seeded rate (default none). */
  readonly faults?: Faults.GlobalFaults
  /**
   * Largest accepted request body in bytes (default 65536; a token request's form at most 8192); larger bodies get
   * 413 as soon as they are seen to be larger, before the rest is read.
   */
  readonly bodyLimit?: number
  /** Time zone of the calendar day for the daily listing limit and consent validity (default `Europe/Bratislava`). */
  readonly timeZone?: string
  /** Send `pageCount` as a string, like the document's reference example (default false: a JSON number). */
  readonly pageCountAsString?: boolean
  /**
   * How far ahead of the bank's clock a `PSU-Last-Logged-Time` may lie and still count as present, in milliseconds
   * (default 60000); a later one makes the listing unattended, like an old or missing one (docs/bank-interface.md,
   * "Daily limit").
   */
  readonly clockSkewMillis?: number
  /** Serve HTTPS with these PEM texts (default: plain HTTP). */
  readonly tls?: Tls
  /**
   * An admin token (default none): when set, `GET /__journal` and requests with `X-Sandbox-Fault` are refused with
   * 401 unless they carry it in an `X-Sandbox-Admin` header.
   */
  readonly adminToken?: Redacted.Redacted<string>
  /** Edges of the HTTP transport (timeouts, connection cap, header size); every one has a default. */
  readonly http?: HttpLimits
  /**
   * The bank's date rule (default `{}`: tppkit's own, `following` on `target`, execution dates): each listed
   * `nextDate` is computed from the listing day and the rule, with the personality's rate of anomalies;
   * `"as-given"` (`Personality.asGiven`) lists the fixtures' own `nextDate`s unchanged.
   */
  readonly personality?: Personality.Personality | typeof Personality.asGiven
  /**
   * The day the bank lists its `nextDate`s as of (default: its clock's day in its time zone, which `POST /__clock`
   * moves): pins the listed dates for reproducible runs while the clock keeps running for tokens, consents and the
   * daily limit.
   */
  readonly listingDay?: LocalDate.LocalDate
  /**
   * What a listing's daily limit counts on (docs/bank-interface.md, "Daily limit"): the token's consent, its client
   * with every account bound to it (`"client"`, the default), or, for a listing of one bound account (`iban`), that
   * account's own consent (`"account"`: each account holder consented on their own, as `tppkit sandbox --orders`
   * seeds them).
   */
  readonly listingConsent?: "client" | "account"
  /**
   * The bank the mock bank plays (default `Profile.sbas`, the seed bank's): its paths, methods, required headers,
   * authentication (a COBS bank: the authorization-code flow with refresh tokens, an API key), records, error dialect
   * (unless `errorDialect` says otherwise) and technical breaks (packages/sandbox/README.md, "Profiles").
   */
  readonly profile?: Profile.Profile
  /** The API key a profile's operations check (default {@link defaultApiKey}). */
  readonly apiKey?: Redacted.Redacted<string>
}

/** The API key the mock bank gives every client when its profile asks for one. */
export const defaultApiKey: string = Bank.defaultApiKey

/** A fixture account as reported at start-up. */
export interface AccountInfo {
  readonly iban: string
  readonly owner: string
  readonly currency: string
  readonly balance: BigDecimal.BigDecimal
  readonly consent: Fixtures.ConsentKind
}

/** A fixture client as reported at start-up. */
export interface ClientInfo {
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  readonly rights: ReadonlyArray<Fixtures.Right>
  readonly aispAccounts: ReadonlyArray<string>
}

/** Where the running mock bank is and how to log in to it. */
export class SandboxInfo extends Context.Service<
  SandboxInfo,
  {
    /** `http://127.0.0.1:<port>` (or `https://…` with TLS), without a trailing slash. */
    readonly baseUrl: string
    readonly host: string
    readonly port: number
    readonly environment: Environment
    /** Full paths of the three operations. */
    readonly paths: Endpoint.Paths
    /** The first fixture client (in the defaults: `tppkit-sandbox`, every right). */
    readonly clientId: string
    /** Its secret (in the defaults: `sandbox-secret`). */
    readonly clientSecret: Redacted.Redacted<string>
    /** Every fixture client. */
    readonly clients: ReadonlyArray<ClientInfo>
    /** Every fixture account. */
    readonly accounts: ReadonlyArray<AccountInfo>
    /** The profile it plays. */
    readonly profile: Profile.Profile
    /** The API key its profile's operations check. */
    readonly apiKey: Redacted.Redacted<string>
  }
>()("@tppkit/sandbox/SandboxInfo") {}

/**
 * Why the mock bank could not start: its port is taken (`portInUse`, the address is already served by another
 * program), or anything else (`other`, the default).
 */
export const Reason = Schema.Literals(["portInUse", "other"])

/** Why the mock bank could not start. */
export type Reason = typeof Reason.Type

/** Why the mock bank could not start. */
export class SandboxError extends Schema.TaggedError<SandboxError>()("SandboxError", {
  message: Schema.String,
  reason: Schema.optionalKey(Reason)
}) {}

/**
 * The server alone: needs a `SandboxClock` and a `Journal`, so that callers can supply their own; prefer
 * {@link layer}, which supplies both.
 */
export const layerServer = (options: Options = {}): Layer.Layer<SandboxInfo, SandboxError, SandboxClock | Journal> =>
  Layer.effect(
    SandboxInfo,
    Effect.gen(function* () {
      const clock = yield* SandboxClock
      const journal = yield* Journal
      const given = options.fixtures ?? Fixtures.defaults
      const checked = Fixtures.isLoaded(given) ? Result.succeed(given) : Fixtures.decode(given)
      if (Result.isFailure(checked)) {
        return yield* new SandboxError({ message: `invalid fixtures: ${checked.failure.slice(0, 5).join("; ")}` })
      }
      const fixtures = checked.success
      const environment = options.environment ?? "sandbox"
      const host = options.host ?? "127.0.0.1"
      let document: string | undefined
      let baseUrl = ""
      const adminToken = options.adminToken === undefined ? undefined : Redacted.value(options.adminToken)
      const bank = Bank.make({
        fixtures,
        environment,
        dialect: options.errorDialect ?? (options.profile ?? Profile.sbas).errorDialect,
        profile: options.profile,
        apiKey: options.apiKey === undefined ? undefined : Redacted.value(options.apiKey),
        faults: options.faults,
        now: clock.nowUnsafe,
        timeZone: options.timeZone ?? LocalDate.bankTimeZone,
        pageCountAsString: options.pageCountAsString ?? false,
        clockSkewMillis: options.clockSkewMillis ?? Headers.defaultClockSkewMillis,
        journal,
        adminToken,
        moveClock: { set: clock.setUnsafe, adjust: clock.adjustUnsafe },
        bodyLimit: options.bodyLimit ?? 65_536,
        personality: options.personality,
        listingDay: options.listingDay,
        listingConsent: options.listingConsent ?? "client",
        openapi: () => {
          document ??= JSON.stringify(
            options.profile === undefined || Profile.isSbas(options.profile)
              ? OpenApi.document(environment, baseUrl)
              : OpenApi.profileDocument(options.profile, environment, baseUrl)
          )
          return document
        }
      })
      const running = yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: () =>
            Server.listen({
              host,
              port: options.port ?? 0,
              bodyLimit: options.bodyLimit ?? 65_536,
              bodyLimitOf: bank.bodyLimitOf,
              limits: options.http ?? {},
              tls: options.tls,
              handle: bank.handle,
              // one byte more than the journal keeps, so that it still sees the body was cut
              journalBodyBytes: journal.maxBodyBytes + 1,
              journal,
              now: clock.nowUnsafe
            }),
          catch: (e) =>
            (e as { readonly code?: unknown } | undefined)?.code === "EADDRINUSE"
              ? new SandboxError({
                  reason: "portInUse",
                  message: `port ${options.port ?? 0} on ${host} is in use (another tppkit sandbox or program listens there); choose another with --port N (0: any free port)`
                })
              : new SandboxError({
                  message: `cannot listen on ${host}:${options.port ?? 0}: ${e instanceof Error ? e.message : String(e)}`
                })
        }),
        (r) => Effect.promise(() => r.close())
      )
      const hostPart = host.includes(":") ? `[${host}]` : host
      baseUrl = `${options.tls ? "https" : "http"}://${hostPart}:${running.port}`
      const clients = fixtures.clients.map(
        (c): ClientInfo => ({
          clientId: c.clientId,
          clientSecret: Redacted.make(c.clientSecret),
          rights: c.rights,
          aispAccounts: c.aispAccounts
        })
      )
      const firstClient = clients[0] as ClientInfo
      return SandboxInfo.of({
        profile: options.profile ?? Profile.sbas,
        apiKey: options.apiKey ?? Redacted.make(Bank.defaultApiKey),
        baseUrl,
        host,
        port: running.port,
        environment,
        paths: bank.paths,
        clientId: firstClient.clientId,
        clientSecret: firstClient.clientSecret,
        clients,
        accounts: fixtures.accounts.map((a) => ({
          iban: a.iban,
          owner: a.owner,
          currency: a.currency,
          balance: BigDecimal.fromStringUnsafe(a.balance),
          consent: a.consent.kind
        }))
      })
    })
  )

/**
 * The mock bank with its own wall-clock `SandboxClock` and in-memory `Journal`, all three provided: start it in
 * a test with `Effect.provide(Sandbox.layer())` or `layer(Sandbox.layer())("…", (it) => …)`.
 */
export const layer = (options: Options = {}): Layer.Layer<SandboxInfo | SandboxClock | Journal, SandboxError> =>
  layerServer(options).pipe(Layer.provideMerge(Layer.mergeAll(SandboxClock.layer, Journal.layer)))
