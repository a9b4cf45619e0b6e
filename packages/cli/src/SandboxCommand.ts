/**
 * `tppkit sandbox`: starts the mock bank and prints its base URL, the sandbox client id and secret (it is a
 * sandbox, so printing them is right) and the fixture accounts; with `--format json` that report is one JSON line.
 * It serves until SIGINT or SIGTERM, then shuts down cleanly. The mock bank is loaded only when the command runs.
 *
 * @since 0.1.0
 */
import { BusinessDayConvention, Money } from "@tppkit/core"
import type { Sandbox } from "@tppkit/sandbox"
import { Config, Effect, Redacted } from "effect"
import { Flag } from "effect/cli"
import * as CommandSpec from "./internal/commandSpec.ts"
import * as Flags from "./internal/flags.ts"

/** The start-up report printed by `tppkit sandbox --format json`, as one line. */
export interface Report {
  readonly baseUrl: string
  readonly clientId: string
  readonly clientSecret: string
  readonly accounts: ReadonlyArray<{
    readonly iban: string
    readonly currency: string
    readonly balance: string
    readonly consent: "branch" | "electronic" | "none"
  }>
  /** The profile it plays and its API key, when not the seed bank's (`--profile`). */
  readonly profile?: string
  readonly apiKey?: string
}

/** Builds the start-up report from a running sandbox. */
export const report = (info: Sandbox.SandboxInfo["Service"]): Report => ({
  baseUrl: info.baseUrl,
  clientId: info.clientId,
  clientSecret: Redacted.value(info.clientSecret),
  accounts: info.accounts.map((a) => ({
    iban: a.iban,
    currency: a.currency,
    balance: Money.formatMinor(a.balance, a.currency),
    consent: a.consent
  })),
  ...(info.profile.name === "sbas" ? {} : { profile: info.profile.name, apiKey: Redacted.value(info.apiKey) })
})

/** Renders the start-up report for people. */
export const renderText = (info: Sandbox.SandboxInfo["Service"]): string => {
  const r = report(info)
  const ops = info.profile.operations
  const detail = ops.standingOrder?.paths[info.environment]
  const lines = [
    `tppkit mock bank listening on ${r.baseUrl} (${info.environment.toUpperCase()} paths)`,
    ...(r.profile === undefined ? [] : [`  profile        ${r.profile}: ${info.profile.title}`]),
    `  token          POST ${info.paths.token}`,
    `  balance check  ${ops.balanceCheck.method.padEnd(4)} ${info.paths.balanceCheck}`,
    `  standing order ${ops.standingOrders.method.padEnd(4)} ${info.paths.standingOrders}`,
    ...(detail === undefined ? [] : [`  one order      ${ops.standingOrder?.method.padEnd(4)} ${detail}`]),
    `  OpenAPI        GET  /openapi.json    journal  GET /__journal`,
    `  admin          GET|POST /__clock     GET|PUT /__faults`,
    `client id:     ${r.clientId}`,
    `client secret: ${r.clientSecret}`,
    ...(r.apiKey === undefined ? [] : [`API key:       ${r.apiKey}`]),
    "accounts:",
    ...r.accounts.map((a) => `  ${a.iban.padEnd(34)} ${a.currency} ${a.balance.padStart(14)}  consent: ${a.consent}`),
    "Press Ctrl+C to stop."
  ]
  return lines.join("\n")
}

/**
 * `tppkit sandbox [--host H] [--port P] [--fixtures FILE] [--client-id ID --client-secret S] [--live]
 * [--error-dialect D] [--fault-rate R --fault-seed N] [--tls-cert F --tls-key F [--tls-ca F] [--require-client-cert]]
 * [--admin-token T] [--clock-skew-seconds S] [--format text|json]`.
 */
export const sandboxCommand = CommandSpec.make({
  name: "sandbox",
  flags: {
    host: Flag.String("host").pipe(Flag.withDescription("Interface to bind"), Flag.withDefault("127.0.0.1")),
    port: Flags.int("port", "Port (0: any free port)", 0),
    fixtures: Flags.file(
      "fixtures",
      "Fixture JSON file (clients, accounts, standing orders); default: the built-in set"
    ).pipe(Flag.optional),
    clientId: Flag.String("client-id").pipe(
      Flag.withDescription("Client id of the first fixture client"),
      Flag.optional
    ),
    clientSecret: Flag.String("client-secret").pipe(
      Flag.withDescription("Client secret of the first fixture client"),
      Flag.optional
    ),
    live: Flags.toggle("live", "Serve the LIVE paths instead of the SANDBOX ones"),
    errorDialect: Flag.Literals("error-dialect", ["problem", "berlin-group", "cz-sk"]).pipe(
      Flag.withDescription("Error body shape of the API paths (default: the profile's; sbas: problem)"),
      Flag.optional
    ),
    profile: Flags.optionalText(
      "profile",
      "NAME|FILE",
      "The bank the mock bank plays: sbas (default), cobs, or a profile file (TPPKIT_PROFILE)",
      "TPPKIT_PROFILE"
    ),
    faultRate: Flag.Finite("fault-rate").pipe(
      Flag.withDescription("Probability (0-1) that a request gets a random fault"),
      Flag.withDefault(0)
    ),
    faultSeed: Flags.int("fault-seed", "Seed of the fault sequence", 1),
    tlsCert: Flags.file("tls-cert", "PEM certificate: serve HTTPS").pipe(Flag.optional),
    tlsKey: Flags.file("tls-key", "PEM private key").pipe(Flag.optional),
    tlsCa: Flags.file("tls-ca", "PEM CA for client certificates").pipe(Flag.optional),
    requireClientCert: Flags.toggle(
      "require-client-cert",
      "Require a client certificate signed by --tls-ca (mutual TLS)"
    ),
    clockSkewSeconds: Flags.int(
      "clock-skew-seconds",
      "How far in the future PSU-Last-Logged-Time may be and still count as present",
      60
    ),
    adminToken: Flag.Redacted("admin-token").pipe(
      Flag.withDescription(
        "Require this token in X-Sandbox-Admin for the /__ endpoints and X-Sandbox-Fault (TPPKIT_SANDBOX_ADMIN_TOKEN; required with a --host beyond loopback)"
      ),
      Flag.withFallbackConfig(Config.Redacted("TPPKIT_SANDBOX_ADMIN_TOKEN")),
      Flag.optional
    ),
    bankConvention: Flag.Literals("bank-convention", BusinessDayConvention.conventions).pipe(
      Flag.withDescription("The bank's business-day convention for its listed nextDates (computed from its clock)"),
      Flag.optional
    ),
    bankCalendar: Flag.String("bank-calendar").pipe(
      Flag.withDescription("The bank's calendar: target (default), weekends, every-day or an ISO 3166 country code"),
      Flag.optional
    ),
    bankHolidays: Flags.optionalText("bank-holidays", "YYYY-MM-DD,...", "Holidays of the bank besides its calendar's"),
    bankNextDate: Flag.Literals("bank-next-date", ["execution", "nominal", "as-given"]).pipe(
      Flag.withDescription(
        "Whether the bank lists the execution or the nominal date as nextDate (computed by default), or the fixtures' own as given"
      ),
      Flag.optional
    ),
    listingDay: Flags.optionalText(
      "listing-day",
      "YYYY-MM-DD",
      "The day the bank lists its nextDates as of (default: its clock's day in Europe/Bratislava); the clock keeps running"
    ),
    bankAnomalyRate: Flag.Finite("bank-anomaly-rate").pipe(
      Flag.withDescription("Share (0-1) of monthly orders listed with a nextDate ten days off"),
      Flag.optional
    ),
    orders: Flag.Int("orders").pipe(
      Flag.withMetavar("N"),
      Flag.withDescription(
        "Seed N generated standing orders (instead of the built-in set) over enough accounts, each its own consent, that each listing fits the daily budget (400 orders each)"
      ),
      Flag.optional
    ),
    format: Flags.format(["text", "json"], "Start-up report: text, or one JSON line")
  },
  run: (flags) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/sandbox.ts")),
      (impl) => impl.run(flags, (info, format) => (format === "json" ? JSON.stringify(report(info)) : renderText(info)))
    ),
  description: "Start the mock bank on loopback and serve until SIGINT or SIGTERM",
  examples: [
    { command: "tppkit sandbox --port 8080", description: "The mock bank on http://127.0.0.1:8080" },
    { command: "tppkit sandbox --fault-rate 0.1", description: "One request in ten gets a random fault" }
  ]
})
