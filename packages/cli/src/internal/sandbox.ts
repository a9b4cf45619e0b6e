/**
 * The work behind `tppkit sandbox`, loaded only when it runs (it pulls in the mock bank): flag checks, fixtures
 * and TLS files, then the server until interrupted.
 */
import { BankRule, LocalDate, Profile } from "@tppkit/core"
import * as BankConfig from "@tppkit/http/BankConfig"
import { Fixtures, Personality, Sandbox } from "@tppkit/sandbox"
import { Context, Effect, Layer, Option, Result } from "effect"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"
import * as Project from "../Project.ts"
import * as Reconcile from "../Reconcile.ts"
import * as Files from "./files.ts"
import type * as SandboxFlags from "./sandboxFlags.ts"

/** A built-in profile by name, or a profile file (each wrong field named); a usage error otherwise. */
const loadProfile = (nameOrFile: string): Effect.Effect<Profile.Profile, Failure.CliFailure> =>
  Effect.mapError(Effect.fromResult(BankConfig.readProfile(nameOrFile)), (problem) =>
    Failure.usage(
      problem._tag === "Unreadable"
        ? `--profile ${nameOrFile}: neither a built-in profile (${[...Profile.builtIns.keys()].join(", ")}) nor a readable file`
        : `--profile ${nameOrFile}:\n${Profile.describe(problem.problems)}`
    )
  )

/** The parsed flags of `tppkit sandbox`. */
export type Input = SandboxFlags.Input

/**
 * The bank's personality from the `--bank-*` flags (`{}`, tppkit's own rule, when none is given; `"as-given"` for
 * `--bank-next-date as-given`: the fixtures' nextDates listed as they are), or why a flag is wrong.
 */
export const personalityOf = (
  flags: Input
): Result.Result<Personality.Personality | typeof Personality.asGiven, string> =>
  Result.gen(function* () {
    const some = <A>(o: Option.Option<A> | undefined): A | undefined =>
      o !== undefined && Option.isSome(o) ? o.value : undefined
    const convention = some(flags.bankConvention)
    const calendarName = some(flags.bankCalendar)
    const holidays = some(flags.bankHolidays)
    const reports = some(flags.bankNextDate)
    const rate = some(flags.bankAnomalyRate)
    if (reports === Personality.asGiven) {
      if ([convention, calendarName, holidays, rate].some((x) => x !== undefined)) {
        return yield* Result.fail(
          "--bank-next-date as-given lists the fixtures' nextDates: no other --bank-* flag applies"
        )
      }
      return Personality.asGiven
    }
    if ([convention, calendarName, holidays, reports, rate].every((x) => x === undefined)) return {}
    if (rate !== undefined && (rate < 0 || rate > 1))
      return yield* Result.fail("--bank-anomaly-rate must be from 0 to 1")
    const calendar = calendarName === undefined ? undefined : yield* Reconcile.calendarChoiceOf(calendarName)
    const extra = yield* Project.datesOf("bank-holidays", holidays)
    return {
      rule: BankRule.make({
        ...(convention === undefined ? {} : { convention }),
        ...(calendar === undefined ? {} : { calendar }),
        ...(reports === undefined ? {} : { reports })
      }),
      extraHolidays: extra,
      ...(rate === undefined ? {} : { anomalyRate: rate })
    }
  })

const readText = (what: string, file: string) => Files.readText(what, file, Failure.usage)

const optionalText = (what: string, file: Option.Option<string>) =>
  Option.isSome(file) ? Effect.map(readText(what, file.value), Option.some) : Effect.succeed(Option.none<string>())

/** The fixture set with the first client's id and secret replaced where the flags give them. */
const withFirstClient = <
  F extends { readonly clients: ReadonlyArray<{ readonly clientId: string; readonly clientSecret: string }> }
>(
  fixtures: F,
  clientId: Option.Option<string>,
  clientSecret: Option.Option<string>
): F => {
  const [head, ...rest] = fixtures.clients
  if (head === undefined) return fixtures
  const first = {
    ...head,
    clientId: Option.getOrElse(clientId, () => head.clientId),
    clientSecret: Option.getOrElse(clientSecret, () => head.clientSecret)
  }
  return { ...fixtures, clients: [first, ...rest] }
}

/** `KEY=IBAN,…` of generated consents, as `tppkit worker --consents` (or `TPPKIT_CONSENTS`) takes them. */
export const consentsFlag = (generated: Fixtures.Generated): string =>
  generated.consents.map((c) => `${c.key}=${c.iban}`).join(",")

/** The start-up report with the generated consents: a `consents` key in JSON, or lines before the last one. */
const withConsents = (text: string, format: "text" | "json", generated: Fixtures.Generated): string => {
  if (format === "json") {
    return JSON.stringify({
      ...(JSON.parse(text) as object),
      orders: generated.consents.reduce((n, c) => n + c.orders, 0),
      consents: generated.consents,
      consentsFlag: consentsFlag(generated)
    })
  }
  const lines = text.split("\n")
  const last = lines.pop() ?? ""
  const count = generated.consents.reduce((n, c) => n + c.orders, 0)
  return [
    ...lines,
    `standing orders: ${count} generated over ${generated.consents.length} consent(s), each its own account and daily budget (at most ${Fixtures.ordersPerConsent} orders: 4 listings of 100)`,
    `for the fleet: export TPPKIT_CONSENTS=${consentsFlag(generated)}`,
    last
  ].join("\n")
}

/** Whether a host to bind is this machine's loopback (127.0.0.0/8, ::1, localhost). */
const isLoopbackHost = (host: string): boolean => {
  const h = host
    .trim()
    .replace(/^\[|\]$/g, "")
    .toLowerCase()
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h)
}

/** Starts the mock bank for the flags, prints the start-up report made by `present`, and serves until interrupted. */
export const run = Effect.fn("SandboxCommand")(function* (
  flags: Input,
  present: (info: Sandbox.SandboxInfo["Service"], format: "text" | "json") => string
) {
  if (flags.faultRate < 0 || flags.faultRate > 1) return yield* Failure.usage("--fault-rate must be from 0 to 1")
  if (flags.port < 0 || flags.port > 65535) return yield* Failure.usage("--port must be from 0 to 65535")
  if (flags.clockSkewSeconds < 0 || flags.clockSkewSeconds > 3600) {
    return yield* Failure.usage("--clock-skew-seconds must be from 0 to 3600")
  }
  if (Option.isSome(flags.tlsCert) !== Option.isSome(flags.tlsKey)) {
    return yield* Failure.usage("--tls-cert and --tls-key go together")
  }
  // beyond loopback, others could read the journal and move the clock: the admin endpoints need a token
  if (!isLoopbackHost(flags.host) && Option.isNone(flags.adminToken)) {
    return yield* Failure.configuration(
      `the sandbox on ${flags.host} is reachable from other machines: give --admin-token TOKEN (TPPKIT_SANDBOX_ADMIN_TOKEN), which its /__journal, /__clock and /__faults then require in X-Sandbox-Admin`
    )
  }
  if (flags.requireClientCert && (Option.isNone(flags.tlsCa) || Option.isNone(flags.tlsCert))) {
    return yield* Failure.usage("--require-client-cert needs --tls-cert, --tls-key and --tls-ca")
  }
  let fixtures: Fixtures.Fixtures | Fixtures.Loaded = Fixtures.defaults
  const orders = flags.orders !== undefined && Option.isSome(flags.orders) ? flags.orders.value : undefined
  let generated: Fixtures.Generated | undefined
  if (orders !== undefined) {
    if (Option.isSome(flags.fixtures)) return yield* Failure.usage("--orders and --fixtures: give one of them")
    if (!Number.isInteger(orders) || orders < 1 || orders > 1_000_000) {
      return yield* Failure.usage("--orders must be a whole number from 1 to 1000000")
    }
    generated = Fixtures.generate(orders)
    fixtures = generated.fixtures
  }
  if (Option.isSome(flags.fixtures)) {
    const decoded = Fixtures.decodeJson(yield* readText("fixtures file", flags.fixtures.value))
    if (Result.isFailure(decoded)) {
      return yield* Failure.usage(`invalid fixtures file: ${decoded.failure.slice(0, 3).join("; ")}`)
    }
    fixtures = decoded.success
  }
  if (Option.isSome(flags.clientId) || Option.isSome(flags.clientSecret)) {
    fixtures = Fixtures.isLoaded(fixtures)
      ? withFirstClient(fixtures, flags.clientId, flags.clientSecret)
      : withFirstClient(fixtures, flags.clientId, flags.clientSecret)
  }
  const personality = personalityOf(flags)
  if (Result.isFailure(personality)) return yield* Failure.usage(personality.failure)
  const listingDayText =
    flags.listingDay !== undefined && Option.isSome(flags.listingDay) ? flags.listingDay.value : undefined
  const listingDay = listingDayText === undefined ? undefined : LocalDate.parse(listingDayText)
  if (listingDay !== undefined && Result.isFailure(listingDay)) {
    return yield* Failure.usage(`--listing-day ${JSON.stringify(listingDayText)}: ${listingDay.failure}`)
  }
  const cert = yield* optionalText("TLS certificate", flags.tlsCert)
  const key = yield* optionalText("TLS key", flags.tlsKey)
  const ca = yield* optionalText("TLS CA", flags.tlsCa)
  const profileName = flags.profile !== undefined && Option.isSome(flags.profile) ? flags.profile.value : "sbas"
  const profile = yield* loadProfile(profileName)
  const options: Sandbox.Options = {
    host: flags.host,
    port: flags.port,
    fixtures,
    environment: flags.live ? "live" : "sandbox",
    profile,
    ...(Option.isSome(flags.errorDialect) ? { errorDialect: flags.errorDialect.value } : {}),
    ...(flags.faultRate > 0 ? { faults: { rate: flags.faultRate, seed: flags.faultSeed } } : {}),
    ...(Option.isSome(flags.adminToken) ? { adminToken: flags.adminToken.value } : {}),
    clockSkewMillis: flags.clockSkewSeconds * 1000,
    personality: personality.success,
    ...(listingDay === undefined ? {} : { listingDay: listingDay.success }),
    // generated accounts are each their own consent: a listing of one of them spends its own daily budget
    ...(generated === undefined ? {} : { listingConsent: "account" as const }),
    ...(Option.isSome(cert) && Option.isSome(key)
      ? {
          tls: {
            cert: cert.value,
            key: key.value,
            ...(Option.isSome(ca) ? { ca: ca.value } : {}),
            requireClientCert: flags.requireClientCert
          }
        }
      : {})
  }
  yield* Effect.scoped(
    Effect.gen(function* () {
      // a busy port is a setting to change (exit 3, as `tppkit db start` says it); anything else is a failure
      const services = yield* Layer.build(Sandbox.layer(options)).pipe(
        Effect.mapError((e) =>
          e.reason === "portInUse" ? Failure.configuration(e.message, e) : Failure.failure(e.message, e)
        )
      )
      const info = Context.get(services, Sandbox.SandboxInfo)
      yield* Output.line(
        generated === undefined
          ? present(info, flags.format)
          : withConsents(present(info, flags.format), flags.format, generated)
      )
      return yield* Effect.never
    })
  )
})
