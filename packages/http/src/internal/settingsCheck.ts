/**
 * The checking of `BankConfig`'s options: each setting validated and defaulted into the settings a client runs on (the
 * first wrong one named in a `BankConfigError`), the profile's needs (an API key, the TPP's name, a client
 * certificate), TLS material read from files, and a profile read by name or from a file.
 */
import { readFileSync } from "node:fs"
import { Backoff, Endpoint, LocalDate, Profile } from "@tppkit/core"
import { Duration, Option, Result } from "effect"
import { BankConfigError } from "../BankError.ts"
import type { Options, ProfileProblem, ResponseLimits, RetryPolicy, Scopes, Settings, Tls } from "./settingsTypes.ts"

/** The defaults of the settings (`BankConfig.defaults`). */
export const defaults = {
  scopes: { balanceCheck: ["PIISP"], standingOrders: ["AISP"] } satisfies Scopes,
  requestTimeout: Duration.seconds(10),
  tokenSafetyMargin: Duration.seconds(60),
  retry: {
    maxAttempts: 3,
    baseDelay: Duration.millis(200),
    maxDelay: Duration.seconds(5),
    maxElapsed: Duration.seconds(30)
  },
  budget: { timeZone: LocalDate.bankTimeZone, dailyLimit: 4 },
  /** 4 MiB of body (a full page of 100 standing orders is about 40 KiB), 32 KiB of headers, JSON 32 levels deep. */
  limits: { maxBodyBytes: 4 << 20, maxHeaderBytes: 32 << 10, maxJsonDepth: 32 } satisfies ResponseLimits
} as const

const fail = (setting: string, detail: string) => Result.fail(new BankConfigError({ setting, detail }))

const duration = (setting: string, input: Duration.Input | undefined, fallback: Duration.Duration) => {
  if (input === undefined) return Result.succeed(fallback)
  const d = Duration.fromInput(input)
  return Option.isSome(d) && Duration.isFinite(d.value) && !Duration.isNegative(d.value)
    ? Result.succeed(d.value)
    : fail(setting, "not a finite, non-negative duration")
}

/** Validates options into settings (`BankConfig.make`). */
export const make = (options: Options): Result.Result<Settings, BankConfigError> =>
  Result.gen(function* () {
    let url: URL
    try {
      url = new URL(options.baseUrl)
    } catch {
      return yield* fail("baseUrl", "not an absolute URL")
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      return yield* fail("baseUrl", "must use https:// (or http:// for the sandbox)")
    }
    if (options.environment === "live" && url.protocol !== "https:") {
      return yield* fail("baseUrl", "the live environment must use https://, plain http:// is refused")
    }
    if (url.search !== "" || url.hash !== "") return yield* fail("baseUrl", "must not carry a query or fragment")
    if (options.clientId.trim() === "") return yield* fail("clientId", "must not be empty")
    const given: Scopes = { ...defaults.scopes, ...options.scopes }
    // frozen copies: the settings never change under a running client
    const scopes: Scopes = {
      balanceCheck: Object.freeze([...given.balanceCheck]),
      standingOrders: Object.freeze([...given.standingOrders])
    }
    for (const name of ["balanceCheck", "standingOrders"] as const) {
      const list = scopes[name]
      if (list.length === 0 || list.some((s: string) => !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s))) {
        return yield* fail(`scopes.${name}`, "needs at least one scope token without spaces or quotes")
      }
    }
    const requestTimeout = yield* duration("requestTimeout", options.requestTimeout, defaults.requestTimeout)
    const tokenSafetyMargin = yield* duration(
      "tokenSafetyMargin",
      options.tokenSafetyMargin,
      defaults.tokenSafetyMargin
    )
    const maxAttempts = options.retry?.maxAttempts ?? defaults.retry.maxAttempts
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 20) {
      return yield* fail("retry.maxAttempts", "must be an integer from 1 to 20")
    }
    const retry: RetryPolicy = {
      maxAttempts,
      backoff: Backoff.exponential({
        initial: yield* duration("retry.baseDelay", options.retry?.baseDelay, defaults.retry.baseDelay),
        cap: yield* duration("retry.maxDelay", options.retry?.maxDelay, defaults.retry.maxDelay),
        jitter: [0.5, 1]
      }),
      maxElapsed: yield* duration("retry.maxElapsed", options.retry?.maxElapsed, defaults.retry.maxElapsed)
    }
    const profile = options.profile ?? Profile.sbas
    const problem = profileProblem(profile, options)
    if (problem !== undefined) return yield* fail(problem.setting, problem.detail)
    const timeZone = options.budget?.timeZone ?? profile.unattended.timeZone
    if (!Profile.isTimeZone(timeZone)) return yield* fail("budget.timeZone", "not an IANA time zone")
    const dailyLimit = options.budget?.dailyLimit ?? profile.unattended.dailyLimit
    if (!Number.isInteger(dailyLimit) || dailyLimit < 0) {
      return yield* fail("budget.dailyLimit", "must be a non-negative integer")
    }
    const limits: ResponseLimits = { ...defaults.limits, ...options.limits }
    for (const [name, min, max] of [
      ["maxBodyBytes", 1024, 1 << 30],
      ["maxHeaderBytes", 1024, 1 << 24],
      ["maxJsonDepth", 4, 10_000]
    ] as const) {
      const value = limits[name]
      if (!Number.isInteger(value) || value < min || value > max) {
        return yield* fail(`limits.${name}`, `must be an integer from ${min} to ${max}`)
      }
    }
    const tls = options.tls
    if (tls !== undefined && (tls.cert === undefined) !== (tls.key === undefined)) {
      return yield* fail("tls", "a client certificate needs its key, and a key its certificate")
    }
    return {
      profile,
      ...(options.standard === undefined ? {} : { standard: options.standard }),
      apiKey: options.apiKey,
      tpp: options.tpp ?? {},
      environment: options.environment,
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      ...(options.bankIdentity === undefined ? {} : { bankIdentity: options.bankIdentity }),
      paths: Profile.isSbas(profile)
        ? Endpoint.paths(options.environment)
        : {
            token: profile.operations.token.paths[options.environment],
            balanceCheck: profile.operations.balanceCheck.paths[options.environment],
            standingOrders: profile.operations.standingOrders.paths[options.environment]
          },
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      scopes,
      requestTimeout,
      tokenSafetyMargin,
      retry,
      budget: { timeZone, dailyLimit },
      tls,
      limits
    }
  })

/**
 * What the options lack for the profile: an API key its operations need, the TPP name its headers require, the
 * certificate its LIVE operations authenticate with (mutual TLS; a sandbox over loopback may go without).
 */
const profileProblem = (
  profile: Profile.Profile,
  options: Options
): { readonly setting: string; readonly detail: string } | undefined => {
  for (const [name, op] of Object.entries(profile.operations) as Array<[string, Profile.OperationSpec | undefined]>) {
    if (op === undefined) continue
    if (op.auth.includes("apiKey") && options.apiKey === undefined)
      return { setting: "apiKey", detail: `the ${profile.name} profile's ${name} authenticates with an API key` }
    if (op.auth.includes("mutualTls") && options.environment === "live" && options.tls?.cert === undefined)
      return {
        setting: "tls",
        detail: `the ${profile.name} profile's ${name} needs the client certificate (mutual TLS)`
      }
  }
  for (const header of profile.headers) {
    if (!header.required) continue
    if (header.from === "tppName" && (options.tpp?.name ?? "").trim() === "")
      return { setting: "tpp.name", detail: `the ${profile.name} profile sends ${header.name} on every call` }
    if (header.from === "tppIdentification" && (options.tpp?.identification ?? "").trim() === "")
      return { setting: "tpp.identification", detail: `the ${profile.name} profile sends ${header.name} on every call` }
  }
  return undefined
}

/** A profile by its built-in name or from a JSON file, or why not (`BankConfig.readProfile`). */
export const readProfile = (nameOrFile: string): Result.Result<Profile.Profile, ProfileProblem> => {
  const builtIn = Profile.builtIns.get(nameOrFile)
  if (builtIn !== undefined) return Result.succeed(builtIn)
  let text: string
  try {
    text = readFileSync(nameOrFile, "utf8")
  } catch {
    return Result.fail({ _tag: "Unreadable" })
  }
  return Result.mapError(Profile.decodeJson(text), (problems): ProfileProblem => ({ _tag: "Invalid", problems }))
}

const readPem = (setting: string, value: string | undefined): Result.Result<string | undefined, BankConfigError> => {
  if (value === undefined || value.trimStart().startsWith("-----BEGIN")) return Result.succeed(value)
  try {
    return Result.succeed(readFileSync(value, "utf8"))
  } catch {
    return fail(setting, "neither PEM text nor a readable file")
  }
}

/** Replaces TLS settings that name a file by the file's PEM text. */
export const readTlsFiles = (options: Options): Result.Result<Options, BankConfigError> =>
  Result.gen(function* () {
    if (options.tls === undefined) return options
    const cert = yield* readPem("TPPKIT_TLS_CERT", options.tls.cert)
    const key = yield* readPem("TPPKIT_TLS_KEY", options.tls.key)
    const ca = yield* readPem("TPPKIT_TLS_CA", options.tls.ca)
    const tls: Tls = {
      ...(cert === undefined ? {} : { cert }),
      ...(key === undefined ? {} : { key }),
      ...(ca === undefined ? {} : { ca }),
      ...(options.tls.passphrase === undefined ? {} : { passphrase: options.tls.passphrase })
    }
    return { ...options, tls }
  })
