/**
 * The client's configuration: environment, base address, client credentials, scopes, timeouts, retry policy, budget
 * time zone and optional mutual-TLS material. Built from code (`layer`) or from `TPPKIT_*` environment variables
 * (`layerConfig`). LIVE is refused over plain `http://` (docs/bank-interface.md, "Environments and paths"); one layer
 * holds one environment, so sandbox and live credentials and tokens never meet.
 */
import { type Backoff, type Endpoint, Profile, type Standard } from "@tppkit/core"
import { Config, Context, type Duration, Effect, Layer, Option, type Redacted, Result } from "effect"
import { BankConfigError } from "./BankError.ts"
import * as Check from "./internal/settingsCheck.ts"

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

/** The standard a bank's standing-order records are read in: `Settings.standard`, else its profile's. */
export const recordStandard = (settings: Settings): Standard.Standard => settings.standard ?? settings.profile.standard

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
  /** The standard the bank's records are read in (default the profile's): see {@link Settings.standard}. */
  readonly standard?: Standard.Standard | undefined
  /** The API key, for a profile whose operations authenticate with one. */
  readonly apiKey?: Redacted.Redacted<string>
  /** The TPP's name and licence number, for a profile whose headers carry them. */
  readonly tpp?: { readonly name?: string; readonly identification?: string }
  /** Which bank the daily budget counts against (default the base URL): see {@link Settings.bankIdentity}. */
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
 * Defaults: PIISP for balance checks, AISP for standing orders, 10 s per request, 60 s token margin, 3 attempts (200 ms
 * doubled up to 5 s, none begun after 30 s), a budget of 4 listings a day in the bank's time zone, 4 MiB of body,
 * 32 KiB of headers, JSON 32 levels deep.
 */
export const defaults = Check.defaults

/** Validates options into settings; LIVE over `http://` and other mistakes come back as `BankConfigError`. */
export const make: (options: Options) => Result.Result<Settings, BankConfigError> = Check.make

/**
 * Why {@link readProfile} has no profile: `Unreadable`, the name is no built-in profile and no file can be read by
 * it; `Invalid`, the file's wrong fields, each named (core's `Profile.decodeJson`).
 */
export type ProfileProblem =
  | { readonly _tag: "Unreadable" }
  | { readonly _tag: "Invalid"; readonly problems: ReadonlyArray<Profile.Problem> }

/** A profile by its built-in name (`sbas`, `cobs`) or from a JSON file a user wrote, or why not. */
export const readProfile: (nameOrFile: string) => Result.Result<Profile.Profile, ProfileProblem> = Check.readProfile

/**
 * A profile by its built-in name (`sbas`, `cobs`) or from a JSON file a user wrote; a file's every wrong field is
 * named (core's `Profile.decodeJson`).
 */
export const loadProfile = (nameOrFile: string): Result.Result<Profile.Profile, BankConfigError> =>
  Result.mapError(
    readProfile(nameOrFile),
    (problem) =>
      new BankConfigError({
        setting: "profile",
        detail:
          problem._tag === "Unreadable"
            ? `${nameOrFile} is neither a built-in profile (${[...Profile.builtIns.keys()].join(", ")}) nor a readable file`
            : `${nameOrFile}:\n${Profile.describe(problem.problems)}`
      })
  )

/** The configuration service: one instance per environment and set of credentials. */
export class BankConfig extends Context.Service<BankConfig, Settings>()("@tppkit/http/BankConfig") {
  /** Builds the configuration from code; fails with `BankConfigError` at start-up when it is invalid. */
  static readonly layer = (options: Options): Layer.Layer<BankConfig, BankConfigError> =>
    Layer.effect(BankConfig, Effect.fromResult(make(options)))

  /**
   * Builds the configuration from `TPPKIT_*` variables through effect's `Config` (see `fromEnv` for the names), the
   * profile from `TPPKIT_PROFILE` (a built-in name or a file, default `sbas`).
   */
  static readonly layerConfig: Layer.Layer<BankConfig, BankConfigError | Config.ConfigError> = Layer.effect(
    BankConfig,
    Effect.gen(function* () {
      const options = yield* Effect.suspend(() => fromEnv)
      const name = yield* Config.String("TPPKIT_PROFILE").pipe(Config.withDefault("sbas"))
      const profile = yield* Effect.fromResult(loadProfile(name))
      return yield* Effect.fromResult(load({ ...options, profile }))
    })
  )
}

/** Like `make`, after replacing TLS settings that name a file (not PEM text) by the file's contents. */
export const load = (options: Options): Result.Result<Settings, BankConfigError> =>
  Result.flatMap(Check.readTlsFiles(options), make)

const pem = (setting: string) => Config.String(setting).pipe(Config.option)

const scopeList = (name: string, fallback: ReadonlyArray<string>) =>
  Config.String(name).pipe(
    Config.map((s: string) => s.split(" ").filter((x) => x !== "")),
    Config.withDefault(fallback)
  )

/** Everything but where the bank is and who the TPP is: the settings that have defaults. */
export type Tuning = Omit<Options, "environment" | "baseUrl" | "clientId" | "clientSecret">

/**
 * The settings with defaults read from the environment: `TPPKIT_SCOPE_BALANCE_CHECK`, `TPPKIT_SCOPE_STANDING_ORDERS`
 * (space-separated), `TPPKIT_REQUEST_TIMEOUT`, `TPPKIT_TOKEN_SAFETY_MARGIN`, `TPPKIT_RETRY_MAX_ATTEMPTS`,
 * `TPPKIT_RETRY_BASE_DELAY`, `TPPKIT_RETRY_MAX_DELAY`, `TPPKIT_RETRY_MAX_ELAPSED` (durations such as "10 seconds"),
 * `TPPKIT_BUDGET_TIME_ZONE`, `TPPKIT_MAX_BODY_BYTES`, `TPPKIT_MAX_HEADER_BYTES`, `TPPKIT_MAX_JSON_DEPTH`,
 * `TPPKIT_TLS_CERT`, `TPPKIT_TLS_KEY`, `TPPKIT_TLS_CA` (PEM text or a file path, read by `load`),
 * `TPPKIT_TLS_KEY_PASSPHRASE` and `TPPKIT_API_KEY` (redacted), `TPPKIT_TPP_NAME` and `TPPKIT_TPP_IDENTIFICATION`.
 */
export const tuningFromEnv: Config.Config<Tuning> = Config.all({
  balanceCheck: scopeList("TPPKIT_SCOPE_BALANCE_CHECK", defaults.scopes.balanceCheck),
  standingOrders: scopeList("TPPKIT_SCOPE_STANDING_ORDERS", defaults.scopes.standingOrders),
  requestTimeout: Config.Duration("TPPKIT_REQUEST_TIMEOUT").pipe(Config.withDefault(defaults.requestTimeout)),
  tokenSafetyMargin: Config.Duration("TPPKIT_TOKEN_SAFETY_MARGIN").pipe(Config.withDefault(defaults.tokenSafetyMargin)),
  maxAttempts: Config.Int("TPPKIT_RETRY_MAX_ATTEMPTS").pipe(Config.withDefault(defaults.retry.maxAttempts)),
  baseDelay: Config.Duration("TPPKIT_RETRY_BASE_DELAY").pipe(Config.withDefault(defaults.retry.baseDelay)),
  maxDelay: Config.Duration("TPPKIT_RETRY_MAX_DELAY").pipe(Config.withDefault(defaults.retry.maxDelay)),
  maxElapsed: Config.Duration("TPPKIT_RETRY_MAX_ELAPSED").pipe(Config.withDefault(defaults.retry.maxElapsed)),
  timeZone: Config.String("TPPKIT_BUDGET_TIME_ZONE").pipe(Config.option),
  maxBodyBytes: Config.Int("TPPKIT_MAX_BODY_BYTES").pipe(Config.withDefault(defaults.limits.maxBodyBytes)),
  maxHeaderBytes: Config.Int("TPPKIT_MAX_HEADER_BYTES").pipe(Config.withDefault(defaults.limits.maxHeaderBytes)),
  maxJsonDepth: Config.Int("TPPKIT_MAX_JSON_DEPTH").pipe(Config.withDefault(defaults.limits.maxJsonDepth)),
  cert: pem("TPPKIT_TLS_CERT"),
  key: pem("TPPKIT_TLS_KEY"),
  ca: pem("TPPKIT_TLS_CA"),
  passphrase: Config.Redacted("TPPKIT_TLS_KEY_PASSPHRASE").pipe(Config.option),
  apiKey: Config.Redacted("TPPKIT_API_KEY").pipe(Config.option),
  tppName: Config.String("TPPKIT_TPP_NAME").pipe(Config.option),
  tppIdentification: Config.String("TPPKIT_TPP_IDENTIFICATION").pipe(Config.option)
}).pipe(
  Config.map((c): Tuning => {
    const tls: Tls = {
      ...(Option.isSome(c.cert) ? { cert: c.cert.value } : {}),
      ...(Option.isSome(c.key) ? { key: c.key.value } : {}),
      ...(Option.isSome(c.ca) ? { ca: c.ca.value } : {}),
      ...(Option.isSome(c.passphrase) ? { passphrase: c.passphrase.value } : {})
    }
    return {
      scopes: { balanceCheck: c.balanceCheck, standingOrders: c.standingOrders },
      requestTimeout: c.requestTimeout,
      tokenSafetyMargin: c.tokenSafetyMargin,
      retry: { maxAttempts: c.maxAttempts, baseDelay: c.baseDelay, maxDelay: c.maxDelay, maxElapsed: c.maxElapsed },
      // unset, the profile's time zone (the seed bank's: Europe/Bratislava)
      ...(Option.isSome(c.timeZone) ? { budget: { timeZone: c.timeZone.value } } : {}),
      limits: { maxBodyBytes: c.maxBodyBytes, maxHeaderBytes: c.maxHeaderBytes, maxJsonDepth: c.maxJsonDepth },
      ...(Object.keys(tls).length === 0 ? {} : { tls }),
      ...(Option.isSome(c.apiKey) ? { apiKey: c.apiKey.value } : {}),
      ...(Option.isSome(c.tppName) || Option.isSome(c.tppIdentification)
        ? {
            tpp: {
              ...(Option.isSome(c.tppName) ? { name: c.tppName.value } : {}),
              ...(Option.isSome(c.tppIdentification) ? { identification: c.tppIdentification.value } : {})
            }
          }
        : {})
    }
  })
)

/**
 * The options read from the environment: `TPPKIT_ENVIRONMENT` (sandbox | live), `TPPKIT_BASE_URL`,
 * `TPPKIT_CLIENT_ID`, `TPPKIT_CLIENT_SECRET` (redacted), and the variables of `tuningFromEnv`.
 */
export const fromEnv: Config.Config<Options> = Config.all({
  environment: Config.Literals(["sandbox", "live"], "TPPKIT_ENVIRONMENT").pipe(Config.withDefault("sandbox" as const)),
  baseUrl: Config.String("TPPKIT_BASE_URL"),
  clientId: Config.String("TPPKIT_CLIENT_ID"),
  clientSecret: Config.Redacted("TPPKIT_CLIENT_SECRET"),
  tuning: tuningFromEnv
}).pipe(
  Config.map(
    (c): Options => ({
      environment: c.environment,
      baseUrl: c.baseUrl,
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      ...c.tuning
    })
  )
)
