/**
 * The flags of `tppkit sandbox`: `SandboxCommand` declares the command with them and `internal/sandbox.ts` reads
 * their values, typed from them ({@link Input}).
 */
import { BusinessDayConvention } from "@tppkit/core"
import { Config } from "effect"
import { Flag } from "effect/cli"
import type * as CommandSpec from "./commandSpec.ts"
import * as Flags from "./flags.ts"

/** The flags of `tppkit sandbox`, in the order its help lists them. */
export const flags = {
  host: Flag.String("host").pipe(Flag.withDescription("Interface to bind"), Flag.withDefault("127.0.0.1")),
  port: Flags.int("port", "Port (0: any free port)", 0),
  fixtures: Flags.file(
    "fixtures",
    "Fixture JSON file (clients, accounts, standing orders); default: the built-in set"
  ).pipe(Flag.optional),
  clientId: Flag.String("client-id").pipe(Flag.withDescription("Client id of the first fixture client"), Flag.optional),
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
}

/** The parsed flags of `tppkit sandbox`. */
export type Input = CommandSpec.Input<typeof flags>
