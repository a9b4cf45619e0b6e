/**
 * The client's configuration: environment, base address, client credentials, scopes, timeouts, retry policy, budget
 * time zone and optional mutual-TLS material. Built from code (`layer`) or from `TPPKIT_*` environment variables
 * (`layerConfig`). LIVE is refused over plain `http://` (docs/bank-interface.md, "Environments and paths"); one layer
 * holds one environment, so sandbox and live credentials and tokens never meet.
 */
import { Profile, type Standard } from "@tppkit/core"
import { Config, Context, Effect, Layer, Option, Result } from "effect"
import { BankConfigError } from "./BankError.ts"
import * as Check from "./internal/settingsCheck.ts"
import type { Options, ProfileProblem, Settings, Tls } from "./internal/settingsTypes.ts"

/**
 * The configuration's types (`internal/settingsTypes.ts` documents each): `Environment`, the bank's two environments;
 * `Options`, what a caller gives; `Settings`, the complete, validated configuration, with its parts `RetryPolicy`,
 * `ResponseLimits`, `Scopes` and `Tls`; `ProfileProblem`, why `readProfile` has no profile.
 */
export type {
  Environment,
  Options,
  ProfileProblem,
  ResponseLimits,
  RetryPolicy,
  Scopes,
  Settings,
  Tls
} from "./internal/settingsTypes.ts"

/** The standard a bank's standing-order records are read in: `Settings.standard`, else its profile's. */
export const recordStandard = (settings: Settings): Standard.Standard => settings.standard ?? settings.profile.standard

/**
 * Defaults: PIISP for balance checks, AISP for standing orders, 10 s per request, 60 s token margin, 3 attempts (200 ms
 * doubled up to 5 s, none begun after 30 s), a budget of 4 listings a day in the bank's time zone, 4 MiB of body,
 * 32 KiB of headers, JSON 32 levels deep.
 */
export const defaults = Check.defaults

/** Validates options into settings; LIVE over `http://` and other mistakes come back as `BankConfigError`. */
export const make: (options: Options) => Result.Result<Settings, BankConfigError> = Check.make

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
