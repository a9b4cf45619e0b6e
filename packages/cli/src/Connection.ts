/**
 * How bank commands connect: the connection and PSU flags (each with a `TPPKIT_*` fallback from the
 * environment), sensible PSU defaults for a command line, and the target they resolve to. Nothing here loads
 * the HTTP stack; the commands do that when they run.
 *
 * @since 0.1.0
 */
import { arch, type as osType, release } from "node:os"
import { Timestamp } from "@tppkit/core"
import type { PsuContext } from "@tppkit/http"
import { Config, Effect, Option, Redacted } from "effect"
import { Flag } from "effect/cli"
import * as Failure from "./Failure.ts"
import * as Flags from "./internal/flags.ts"
import * as Version from "./Version.ts"

/** The PSU headers the command line sends unless told otherwise (loopback address, this OS, this tool). */
export const defaultPsu: PsuContext.PsuContext = {
  ipAddress: "127.0.0.1",
  deviceOs: `${osType()} ${release()} ${arch()}`,
  userAgent: `tppkit/${Version.VERSION} (command line)`
}

/** What the command line knows about the bank it talks to. */
export interface Target {
  readonly environment: "sandbox" | "live"
  readonly baseUrl: string
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  /** The daily-budget store: an SQLite file, or `"memory"`; default `~/.tppkit/budget.sqlite`. */
  readonly budgetFile?: string | undefined
  /** The daily-budget store in a PostgreSQL database shared by a fleet (`--database-url`); wins over `budgetFile`. */
  readonly databaseUrl?: Redacted.Redacted<string> | undefined
  /** Mutual TLS: client certificate, key and CA as PEM files (or PEM text); the passphrase comes from the environment. */
  readonly tls?: { readonly cert?: string; readonly key?: string; readonly ca?: string }
  /** The bank's profile: a built-in name (`sbas`, `cobs`) or a profile file; default `sbas`. */
  readonly profile?: string | undefined
}

const optionalWithEnv = <A>(flag: Flag.Flag<A>, config: Config.Config<A>) =>
  flag.pipe(Flag.withFallbackConfig(config), Flag.optional)

/** An optional file flag with a `TPPKIT_*` fallback, the variable named at the end of its help text. */
const fileWithEnv = (name: string, env: string, description: string) =>
  optionalWithEnv(Flags.file(name, `${description} (${env})`), Config.String(env))

/** The flags every bank command takes: where the bank is, who the TPP is, who the customer is. */
export const flags = {
  baseUrl: optionalWithEnv(
    Flag.String("base-url").pipe(Flag.withMetavar("URL"), Flag.withDescription("Bank base URL (TPPKIT_BASE_URL)")),
    Config.String("TPPKIT_BASE_URL")
  ),
  env: Flags.literalsWithEnv("env", ["sandbox", "live"], "TPPKIT_ENVIRONMENT").pipe(
    Flag.withDescription("Sandbox or live paths (TPPKIT_ENVIRONMENT)"),
    Flag.withDefault("sandbox")
  ),
  clientId: optionalWithEnv(
    Flag.String("client-id").pipe(Flag.withDescription("TPP client id (TPPKIT_CLIENT_ID)")),
    Config.String("TPPKIT_CLIENT_ID")
  ),
  clientSecret: optionalWithEnv(
    Flag.Redacted("client-secret").pipe(
      Flag.withDescription("TPP client secret; prefer TPPKIT_CLIENT_SECRET, command lines are visible to others")
    ),
    Config.Redacted("TPPKIT_CLIENT_SECRET")
  ),
  budgetFile: fileWithEnv(
    "budget-file",
    "TPPKIT_BUDGET_FILE",
    "Daily budget of unattended listings: SQLite file or 'memory'"
  ),
  databaseUrl: optionalWithEnv(
    Flag.Redacted("database-url").pipe(
      Flag.withMetavar("URL"),
      Flag.withDescription("Daily budget in the fleet's PostgreSQL, postgres://… (TPPKIT_DATABASE_URL)")
    ),
    Config.Redacted("TPPKIT_DATABASE_URL")
  ),
  tlsCert: fileWithEnv("tls-cert", "TPPKIT_TLS_CERT", "Client certificate for mutual TLS, PEM"),
  tlsKey: fileWithEnv(
    "tls-key",
    "TPPKIT_TLS_KEY",
    "Its private key, PEM; a passphrase only via TPPKIT_TLS_KEY_PASSPHRASE"
  ),
  tlsCa: fileWithEnv("tls-ca", "TPPKIT_TLS_CA", "CA certificate to trust for the bank, PEM"),
  profile: optionalWithEnv(
    Flag.String("profile").pipe(
      Flag.withMetavar("NAME|FILE"),
      Flag.withDescription("The bank's profile: sbas (default), cobs or a profile file (TPPKIT_PROFILE)")
    ),
    Config.String("TPPKIT_PROFILE")
  ),
  psuIpAddress: Flag.String("psu-ip-address").pipe(
    Flag.withDescription("PSU-IP-Address header"),
    Flag.withDefault(defaultPsu.ipAddress)
  ),
  psuDeviceOs: Flag.String("psu-device-os").pipe(
    Flag.withDescription("PSU-Device-OS header (default: this machine)"),
    Flag.withDefault(defaultPsu.deviceOs)
  ),
  psuUserAgent: Flag.String("psu-user-agent").pipe(
    Flag.withDescription("PSU-User-Agent header"),
    Flag.withDefault(defaultPsu.userAgent)
  ),
  psuGeoLocation: Flag.String("psu-geo-location").pipe(
    Flag.withMetavar("LAT,LON"),
    Flag.withDescription("PSU-GeoLocation header"),
    Flag.optional
  ),
  psuLastLoggedTime: Flag.String("psu-last-logged-time").pipe(
    Flag.withMetavar("RFC3339|now"),
    Flag.withDescription("PSU-Last-Logged-Time: the customer is present when it is under an hour old"),
    // checked as the flags are read, before anything is sent or a budget is consulted
    Flag.filter(
      (s) => s === "now" || Timestamp.isValid(s.trim()),
      () => "an RFC 3339 date-time such as 2026-11-25T09:30:00+01:00, or now"
    ),
    Flag.optional
  )
} as const

/** The values of {@link flags} as parsed. */
export interface Values {
  readonly baseUrl: Option.Option<string>
  readonly env: "sandbox" | "live"
  readonly clientId: Option.Option<string>
  readonly clientSecret: Option.Option<Redacted.Redacted<string>>
  readonly budgetFile: Option.Option<string>
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly tlsCert: Option.Option<string>
  readonly tlsKey: Option.Option<string>
  readonly tlsCa: Option.Option<string>
  readonly profile?: Option.Option<string> | undefined
  readonly psuIpAddress: string
  readonly psuDeviceOs: string
  readonly psuUserAgent: string
  readonly psuGeoLocation: Option.Option<string>
  readonly psuLastLoggedTime: Option.Option<string>
}

/** The target from the flags, or a configuration failure naming what is missing. */
export const target = (values: Values, options: { readonly needsClient: boolean }) =>
  Effect.gen(function* () {
    if (Option.isNone(values.baseUrl)) {
      return yield* Failure.configuration("no bank address: give --base-url URL or set TPPKIT_BASE_URL")
    }
    if (options.needsClient && Option.isNone(values.clientId)) {
      return yield* Failure.configuration("no client id: give --client-id or set TPPKIT_CLIENT_ID")
    }
    if (options.needsClient && Option.isNone(values.clientSecret)) {
      return yield* Failure.configuration("no client secret: set TPPKIT_CLIENT_SECRET (or give --client-secret)")
    }
    return {
      environment: values.env,
      baseUrl: values.baseUrl.value,
      // with an SCA token and no client credentials the token endpoint is never called
      clientId: Option.getOrElse(values.clientId, () => "unused"),
      clientSecret: Option.getOrElse(values.clientSecret, () => Redacted.make("unused")),
      budgetFile: Option.getOrUndefined(values.budgetFile),
      profile: values.profile === undefined ? undefined : Option.getOrUndefined(values.profile),
      databaseUrl: Option.getOrUndefined(values.databaseUrl),
      tls: {
        ...(Option.isSome(values.tlsCert) ? { cert: values.tlsCert.value } : {}),
        ...(Option.isSome(values.tlsKey) ? { key: values.tlsKey.value } : {}),
        ...(Option.isSome(values.tlsCa) ? { ca: values.tlsCa.value } : {})
      }
    } satisfies Target
  })

/** The PSU context from the flags (`--psu-last-logged-time now` means this moment). */
export const psu = (values: Values): PsuContext.PsuContext => ({
  ipAddress: values.psuIpAddress,
  deviceOs: values.psuDeviceOs,
  userAgent: values.psuUserAgent,
  ...(Option.isSome(values.psuGeoLocation) ? { geoLocation: values.psuGeoLocation.value } : {}),
  ...(Option.isSome(values.psuLastLoggedTime)
    ? {
        lastLoggedTime:
          values.psuLastLoggedTime.value === "now" ? new Date().toISOString() : values.psuLastLoggedTime.value
      }
    : {})
})

/** `--access-token` (or `TPPKIT_ACCESS_TOKEN`): a token from strong customer authentication. */
export const accessTokenFlag = optionalWithEnv(
  Flag.Redacted("access-token").pipe(
    Flag.withDescription("Token from strong customer authentication (TPPKIT_ACCESS_TOKEN); never printed")
  ),
  Config.Redacted("TPPKIT_ACCESS_TOKEN")
)
