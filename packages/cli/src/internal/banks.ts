/**
 * The banks of a fleet's other profiles (issue 37): a consent naming a profile other than the worker's own
 * (`KEY[=IBAN][@PROFILE]`, `tppkit consents add KEY --profile P`) is listed and checked through that profile's bank,
 * whose connection comes from the variables of a bank's connection with the profile's name after `TPPKIT_`:
 * `TPPKIT_COBS_BASE_URL`, `TPPKIT_COBS_CLIENT_ID`, `TPPKIT_COBS_CLIENT_SECRET`, `TPPKIT_COBS_API_KEY`, … The tuning
 * variables (timeouts, retries, body limits) and the TPP's name are shared unless the prefixed ones are set. A profile
 * the worker is given as a file is named by `TPPKIT_<NAME>_PROFILE` (the file's `name` must be NAME): a consent may
 * name any profile the worker is given, not only a built-in one or the worker's own.
 */
import { Profile } from "@tppkit/core"
import { BankConfig } from "@tppkit/http"
import { CheckFailure } from "@tppkit/worker"
import { ConfigProvider, Effect, Result } from "effect"
import * as Failure from "../Failure.ts"
import * as Environment from "./environment.ts"

/** The prefix of a profile's bank variables: `TPPKIT_COBS_` for `cobs`, `TPPKIT_MY_BANK_` for `my-bank`. */
export const prefixOf = (name: string): string => `TPPKIT_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_`

/** The variables that name one bank's connection: a profile's bank has its own or none. */
const connection = [
  "TPPKIT_ENVIRONMENT",
  "TPPKIT_BASE_URL",
  "TPPKIT_CLIENT_ID",
  "TPPKIT_CLIENT_SECRET",
  "TPPKIT_API_KEY",
  "TPPKIT_TLS_CERT",
  "TPPKIT_TLS_KEY",
  "TPPKIT_TLS_CA",
  "TPPKIT_TLS_KEY_PASSPHRASE",
  "TPPKIT_SCOPE_BALANCE_CHECK",
  "TPPKIT_SCOPE_STANDING_ORDERS",
  "TPPKIT_BUDGET_TIME_ZONE",
  "TPPKIT_PROFILE"
]

/** The environment a profile's bank is read from: the shared variables, and its own as the unprefixed ones. */
export const environmentOf = (
  name: string,
  env: Record<string, string | undefined>
): Record<string, string | undefined> => {
  const prefix = prefixOf(name)
  const out: Record<string, string | undefined> = {}
  for (const [k, v] of Object.entries(env)) if (!connection.includes(k) && !k.startsWith(prefix)) out[k] = v
  for (const [k, v] of Object.entries(env)) if (k.startsWith(prefix)) out[`TPPKIT_${k.slice(prefix.length)}`] = v
  return out
}

/**
 * The profile `name` names: the one of the file `TPPKIT_<NAME>_PROFILE` gives (its `name` must be `name`), else the
 * worker's own by its name, else a built-in one; one line (exit 3) otherwise.
 */
export const profileOf = (
  name: string,
  consents: ReadonlyArray<string>,
  own: Profile.Profile,
  env: Record<string, string | undefined>
): Effect.Effect<Profile.Profile, Failure.CliFailure> => {
  const setting = `${prefixOf(name)}PROFILE`
  const file = env[setting]
  if (file !== undefined && file.trim() !== "") {
    const loaded = BankConfig.loadProfile(file.trim())
    if (Result.isFailure(loaded)) return Effect.fail(Failure.configuration(`${setting}: ${loaded.failure.detail}`))
    if (loaded.success.name !== name) {
      return Effect.fail(
        Failure.configuration(
          `${setting}: ${file.trim()} is the profile ${loaded.success.name}, not ${name} (consent ${consents.join(", ")} names ${name})`
        )
      )
    }
    return Effect.succeed(loaded.success)
  }
  const profile = name === own.name ? own : Profile.builtIns.get(name)
  return profile !== undefined
    ? Effect.succeed(profile)
    : Effect.fail(
        Failure.configuration(
          `consent ${consents.join(", ")} names the bank profile ${name}, which is neither a built-in profile (${[...Profile.builtIns.keys()].join(", ")}), this worker's --profile, nor a profile file given with ${setting}`
        )
      )
}

/**
 * The settings of the bank of profile `name` (a profile file the worker is given, the worker's own by its name, or a
 * built-in profile: {@link profileOf}) from the environment, for the fleet's `consents` that name it: one line
 * (exit 3) when the profile is unknown or its bank has no address, naming the variables.
 */
export const settingsOf = (
  name: string,
  consents: ReadonlyArray<string>,
  own: Profile.Profile,
  env: Record<string, string | undefined>
) =>
  Effect.gen(function* () {
    const profile = yield* profileOf(name, consents, own, env)
    const vars = environmentOf(name, env)
    if (vars.TPPKIT_BASE_URL === undefined) {
      return yield* Failure.configuration(
        new CheckFailure.NoBank({ consent: consents.join(", "), profile: name }).message
      )
    }
    const options = yield* BankConfig.fromEnv.pipe(
      Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(vars)),
      Effect.mapError((e) =>
        Failure.configuration(`the bank of profile ${name} (${prefixOf(name)}*): ${Environment.describe(e)}`, e)
      )
    )
    const loaded = BankConfig.load({ ...options, profile })
    if (Result.isFailure(loaded)) {
      return yield* Failure.configuration(`the bank of profile ${name} (${prefixOf(name)}*): ${loaded.failure.message}`)
    }
    return loaded.success
  })
