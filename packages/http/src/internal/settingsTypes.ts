/**
 * The types of the client's configuration (`BankConfig` re-exports each): what a caller gives (`Options`), what
 * validation makes of it (`Settings`) and their parts. Here, not in `BankConfig.ts`, so that the checking in
 * `settingsCheck.ts` and the public module both read them without importing each other.
 */
import type { Backoff, Endpoint, Profile, Standard } from "@tppkit/core"
import type { Duration, Redacted } from "effect"

/** The bank's two environments (core's `Endpoint.Environment`); they differ only in the first path segment. */
export type Environment = Endpoint.Environment

/** How transient failures are retried: bounded in attempts and in total time, exponential backoff with jitter. */
export interface RetryPolicy {
  /** Attempts in total, the first one included (1 disables retries). */
  readonly maxAttempts: number
  /**
   * The waits between attempts: from the `baseDelay` setting (`initial`), doubled for each further retry up to the
   * `maxDelay` setting (`cap`), then jittered to 50–100 % (core's `Backoff`).
   */
  readonly backoff: Backoff.Backoff
  /** No retry starts later than this after the first attempt began. */
  readonly maxElapsed: Duration.Duration
}

/** How large and deep an answer the client accepts; past a limit the exchange is aborted (`ResponseTooLarge`). */
export interface ResponseLimits {
  /** Body bytes at most, counted while the body streams in. */
  readonly maxBodyBytes: number
  /** Bytes of the status line and headers at most. */
  readonly maxHeaderBytes: number
  /** Nesting depth of JSON arrays and objects at most. */
  readonly maxJsonDepth: number
}

/** Client certificate, key and CA (PEM text) for mutual TLS; the key passphrase is redacted. */
export interface Tls {
  readonly cert?: string
  readonly key?: string
  readonly passphrase?: Redacted.Redacted<string>
  readonly ca?: string
}

/** The scopes asked for per operation (space-joined in the token request: docs/bank-interface.md, "Token"). */
export interface Scopes {
  readonly balanceCheck: ReadonlyArray<string>
  readonly standingOrders: ReadonlyArray<string>
}

/** The complete, validated configuration. */
export interface Settings {
  /**
   * The bank's profile (core's `Profile`): its operations, paths, authentication, headers, paging, error dialect and
   * unattended rule (packages/http/README.md, "Bank profiles"); default `Profile.sbas`, the seed bank's.
   */
  readonly profile: Profile.Profile
  /**
   * The standard the bank's standing-order records are read in, in place of the profile's `standard` (the CLI's
   * `--standard` on `worker` and `standing-orders`); unset, the profile's.
   */
  readonly standard?: Standard.Standard | undefined
  /** The API key the bank gave at registration, for a profile whose operations need one (header `API-key` in COBS). */
  readonly apiKey: Redacted.Redacted<string> | undefined
  /** The TPP's name and licence number, for a profile whose headers send them (`TPP-Name`, `TPP-Identification`). */
  readonly tpp: { readonly name?: string; readonly identification?: string }
  readonly environment: Environment
  /** Base address without a trailing slash. */
  readonly baseUrl: string
  /**
   * Which bank the daily budget counts against, in place of `baseUrl` in budget keys (`Budget.consentKey`); unset,
   * the base URL (with the client id, a real bank's identity). A mock bank announces an instance id, so that a
   * restarted one on the same address is a new bank, not the same bank's day (README.md, "Daily budget").
   */
  readonly bankIdentity?: string | undefined
  /** The paths of the environment (the profile's; for `sbas` core's `Endpoint.paths`). */
  readonly paths: Endpoint.Paths
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  readonly scopes: Scopes
  readonly requestTimeout: Duration.Duration
  readonly tokenSafetyMargin: Duration.Duration
  readonly retry: RetryPolicy
  readonly budget: { readonly timeZone: string; readonly dailyLimit: number }
  readonly tls: Tls | undefined
  readonly limits: ResponseLimits
}

/** What a caller gives to build the configuration in code; everything but the first four has a default. */
export interface Options {
  readonly environment: Environment
  readonly baseUrl: string
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  /** The bank's profile (default `Profile.sbas`). */
  readonly profile?: Profile.Profile
  /** The standard the bank's records are read in (default the profile's): see `Settings.standard`. */
  readonly standard?: Standard.Standard | undefined
  /** The API key, for a profile whose operations authenticate with one. */
  readonly apiKey?: Redacted.Redacted<string>
  /** The TPP's name and licence number, for a profile whose headers carry them. */
  readonly tpp?: { readonly name?: string; readonly identification?: string }
  /** Which bank the daily budget counts against (default the base URL): see `Settings.bankIdentity`. */
  readonly bankIdentity?: string | undefined
  readonly scopes?: Partial<Scopes>
  readonly requestTimeout?: Duration.Input
  readonly tokenSafetyMargin?: Duration.Input
  readonly retry?: {
    readonly maxAttempts?: number
    readonly baseDelay?: Duration.Input
    readonly maxDelay?: Duration.Input
    readonly maxElapsed?: Duration.Input
  }
  readonly budget?: { readonly timeZone?: string; readonly dailyLimit?: number }
  readonly tls?: Tls
  readonly limits?: Partial<ResponseLimits>
}

/**
 * Why `BankConfig.readProfile` has no profile: `Unreadable`, the name is no built-in profile and no file can be read by
 * it; `Invalid`, the file's wrong fields, each named (core's `Profile.decodeJson`).
 */
export type ProfileProblem =
  | { readonly _tag: "Unreadable" }
  | { readonly _tag: "Invalid"; readonly problems: ReadonlyArray<Profile.Problem> }
