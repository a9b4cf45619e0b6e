/**
 * What `tppkit worker` runs with, read and checked before it joins the fleet: the database URL and date flags, the
 * consents, the settings of the environment (`TPPKIT_WORKER_*`, `TPPKIT_WEBHOOK_*`, read by worker's `Runner`) as
 * one-line failures, the webhook endpoints, the opening balances of `--balances` and the runner's network.
 */
import { type BusinessDayConvention, LocalDate, type Standard } from "@tppkit/core"
import { Database, Fleet, type Lifecycle, type Sweep, Webhook } from "@tppkit/worker"
import { Config, Effect, Option, Redacted, Result } from "effect"
import type * as Connection from "../Connection.ts"
import * as Failure from "../Failure.ts"
import * as DatabaseFailure from "./database.ts"
import * as Environment from "./environment.ts"

/** The parsed flags of `tppkit worker`. */
export interface Input extends Connection.Values {
  readonly daysBefore: number
  readonly calendar: string
  /** `--holidays D,D`: the bank's own closing days, added to the plan's calendar. */
  readonly holidays?: Option.Option<string> | undefined
  /** `--convention`: how the plan moves a payment off a closing day (default following). */
  readonly convention?: BusinessDayConvention.BusinessDayConvention | undefined
  /** `--standard`: the standard this worker's bank's records are read in, in place of its profile's (`--profile`). */
  readonly standard?: Option.Option<Standard.Standard> | undefined
  readonly hour: number
  readonly timeZone: string
  readonly today: Option.Option<string>
  readonly once: boolean
  readonly consents: Option.Option<string>
  readonly metricsPort: Option.Option<number>
  readonly runnerPort: number
  /** `--runner-host`, `--runner-listen`, the runner's TLS files and `--shards` (issue 43). */
  readonly runnerHost?: Option.Option<string> | undefined
  readonly runnerListen?: Option.Option<string> | undefined
  readonly runnerTlsCert?: Option.Option<string> | undefined
  readonly runnerTlsKey?: Option.Option<string> | undefined
  readonly runnerTlsCa?: Option.Option<string> | undefined
  readonly shards?: number | undefined
  /** `--bank-rate N`: the fleet's requests a second to each bank (issue 43). */
  readonly bankRate?: Option.Option<number> | undefined
  readonly logFormat: Lifecycle.Format
  readonly reconfigure: boolean
  readonly webhook: ReadonlyArray<string>
  readonly webhookSecret: ReadonlyArray<Redacted.Redacted<string>>
  /** `--balances FILE`: opening balances stored with the fleet's plan settings for `worker status` (issue 24). */
  readonly balances?: Option.Option<string> | undefined
  /** `--horizon N`: working days the sweep forecasts the accounts with balances ahead (issue 39; default 10). */
  readonly horizon?: number | undefined
}

/** The database URL of `--database-url` (or `TPPKIT_DATABASE_URL`) checked, or a usage failure without one. */
export const databaseUrlOf = (url: Option.Option<Redacted.Redacted<string>>) =>
  Option.match(url, {
    onNone: () => Effect.fail(Failure.usage("no database: give --database-url URL or set TPPKIT_DATABASE_URL")),
    onSome: DatabaseFailure.checkUrl
  })

/** A date flag (`--day`, `--today`) read, or a usage failure naming the flag. */
export const dateOf = (flag: string, text: Option.Option<string>) =>
  Option.match(text, {
    onNone: () => Effect.succeed(Option.none<LocalDate.LocalDate>()),
    onSome: (t) =>
      Result.match(LocalDate.parse(t.trim()), {
        onSuccess: (d) => Effect.succeed(Option.some(d)),
        onFailure: (reason) => Effect.fail(Failure.usage(`--${flag} ${JSON.stringify(t)}: ${reason}`))
      })
  })

/** `KEY[=IBAN][@PROFILE],…` as consents (a profile by its name: `sbas`, `cobs`, or the worker's own `--profile`). */
export const parseConsents = (text: string): Result.Result<Array<Sweep.Consent>, string> => {
  const out: Array<Sweep.Consent> = []
  for (const part of text.split(",")) {
    let trimmed = part.trim()
    if (trimmed.length === 0) continue
    const at = trimmed.lastIndexOf("@")
    const profile = at < 0 ? undefined : trimmed.slice(at + 1).trim()
    if (profile !== undefined) {
      if (!/^[a-z0-9][a-z0-9-]{0,39}$/.test(profile)) {
        return Result.fail(
          `--consents: ${JSON.stringify(profile)} in ${JSON.stringify(part.trim())} is no profile name (sbas, cobs, or a profile file's name)`
        )
      }
      trimmed = trimmed.slice(0, at).trim()
    }
    const eq = trimmed.indexOf("=")
    const key = eq < 0 ? trimmed : trimmed.slice(0, eq).trim()
    const iban = eq < 0 ? undefined : trimmed.slice(eq + 1).replace(/\s+/g, "")
    if (key.length === 0) return Result.fail(`--consents: empty consent key in ${JSON.stringify(part)}`)
    out.push({
      key,
      ...(iban === undefined || iban.length === 0 ? {} : { iban }),
      ...(profile === undefined ? {} : { profile })
    })
  }
  return out.length === 0 ? Result.fail("--consents: no consent given") : Result.succeed(out)
}

/**
 * A worker setting read from the environment (worker's `Runner.*FromEnv`: `TPPKIT_WORKER_*`, `TPPKIT_WEBHOOK_*`),
 * its failure one line (exit 3): the variable, its value and the form it needs, or the range it is out of.
 */
export const fromEnv = <A>(read: Effect.Effect<A, Config.ConfigError | Fleet.FleetError>) =>
  Effect.mapError(read, (e) =>
    e._tag === "FleetError" ? Failure.configuration(e.message) : Failure.configuration(Environment.describe(e), e)
  )

/**
 * The worker's webhook endpoints: each `--webhook` URL with its secret, the n-th `--webhook-secret` (or the one given
 * for all, or `TPPKIT_WEBHOOK_SECRET`); a URL given twice is one endpoint. A secret is Standard Webhooks' `whsec_`
 * and base64 (`tppkit webhook secret` makes one); during a rotation it is the new and the old, space-separated, and
 * each delivery is signed with both. Never prints a secret.
 */
export const webhookEndpoints = (urls: ReadonlyArray<string>, secrets: ReadonlyArray<Redacted.Redacted<string>>) =>
  Effect.gen(function* () {
    if (urls.length === 0) {
      if (secrets.length > 0) return yield* Failure.usage("--webhook-secret without --webhook")
      return [] as Array<Webhook.Endpoint>
    }
    const fromEnv = yield* Config.Redacted("TPPKIT_WEBHOOK_SECRET").pipe(
      Config.option,
      Effect.mapError((e) => Failure.configuration(Environment.describe(e), e))
    )
    const given = secrets.length > 0 ? secrets : Option.isSome(fromEnv) ? [fromEnv.value] : []
    if (given.length === 0) {
      return yield* Failure.configuration(
        "no secret for --webhook: set TPPKIT_WEBHOOK_SECRET (one for all) or give --webhook-secret per endpoint; tppkit webhook secret makes one"
      )
    }
    if (given.length !== 1 && given.length !== urls.length) {
      return yield* Failure.usage(
        `${urls.length} --webhook but ${given.length} --webhook-secret: give one secret for all or one per endpoint, in order`
      )
    }
    const endpoints = new Map<string, ReadonlyArray<Redacted.Redacted<string>>>()
    for (const [i, url] of urls.entries()) {
      const checked = Webhook.checkUrl(url.trim())
      if (Result.isFailure(checked)) return yield* Failure.usage(checked.failure.message)
      const text = Redacted.value((given.length === 1 ? given[0] : given[i]) as Redacted.Redacted<string>)
      const rotation = text.split(/\s+/).filter((t) => t.length > 0)
      if (rotation.length === 0) return yield* Failure.configuration("an empty webhook secret")
      const keys = rotation.map((t) => Redacted.make(t))
      for (const key of keys) {
        const checkedKey = Webhook.keyOf(key)
        if (Result.isFailure(checkedKey)) {
          return yield* Failure.configuration(
            `the secret of --webhook ${Webhook.displayUrl(url)}: ${checkedKey.failure.message}`
          )
        }
      }
      endpoints.set(checked.success, keys)
    }
    return [...endpoints].map(([url, secret]): Webhook.Endpoint => ({ url, secret }))
  })

/**
 * `--balances FILE` read and checked before the worker joins, as `tppkit forecast` reads one: a file that cannot be
 * read fails (exit 1), a text that is no balances file is bad input (exit 2), and a record that cannot be read is
 * data that cannot be used (exit 7): the fleet stores a set of balances whole or not at all, since a forecast
 * without an account's balance would leave the account out. Returns the balances as the fleet stores them.
 */
export const balancesAtStart = (file: Option.Option<string>) =>
  Effect.gen(function* () {
    if (Option.isNone(file)) return undefined
    // loaded only here: a worker without balances needs none of the forecast
    const { CheckEvidence, ForecastFiles, Files } = yield* Effect.promise(async () => ({
      CheckEvidence: await import("@tppkit/worker/CheckEvidence"),
      ForecastFiles: await import("@tppkit/schedule/ForecastFiles"),
      Files: await import("./files.ts")
    }))
    const name = file.value
    const bytes = yield* Files.readText("balances file", name, (message) => Failure.failure(message))
    const read = ForecastFiles.balances(name, bytes)
    if (Result.isFailure(read)) return yield* Failure.badInput(`--balances ${name}: ${read.failure.reason.message}`)
    const bad = read.success.unreadable
    if (bad.length > 0) {
      const shown = bad.slice(0, 3).map((u) => `record ${u.index + 1}: ${u.reason}`)
      return yield* Failure.make(
        "data",
        `--balances ${name}: ${bad.length} ${bad.length === 1 ? "record" : "records"} could not be read (${shown.join("; ")}${bad.length > 3 ? "; …" : ""}); the fleet stores a balances file whole, so none was stored and the worker did not start`
      )
    }
    if (read.success.records.length === 0) return yield* Failure.badInput(`--balances ${name}: no balance in it`)
    return CheckEvidence.storedBalances(read.success.records)
  })

/**
 * The runner's network from `--runner-host`, `--runner-listen` and the TLS files, checked against the database's
 * address (`Fleet.network`): a refusal is one line (exit 3).
 */
export const runnerNetwork = (databaseUrl: Redacted.Redacted<string>, input: Input) =>
  Effect.gen(function* () {
    const files = [input.runnerTlsCert, input.runnerTlsKey, input.runnerTlsCa].map((f) =>
      Option.getOrUndefined(f ?? Option.none())
    )
    const given = files.filter((f) => f !== undefined).length
    if (given > 0 && given < 3) {
      return yield* Failure.usage("--runner-tls-cert, --runner-tls-key and --runner-tls-ca go together")
    }
    let tls: Fleet.Tls | undefined
    if (given === 3) {
      const Files = yield* Effect.promise(() => import("./files.ts"))
      const [cert, key, ca] = files as [string, string, string]
      const read = (what: string, file: string) =>
        Files.readText(what, file, (message) => Failure.configuration(message))
      tls = {
        cert: yield* read("runner certificate", cert),
        key: Redacted.make(yield* read("runner key", key)),
        ca: yield* read("fleet CA", ca)
      }
    }
    const host = Option.getOrUndefined(input.runnerHost ?? Option.none())
    const listen = Option.getOrUndefined(input.runnerListen ?? Option.none())
    const checked = Fleet.network(Database.host(databaseUrl), {
      runnerHost: host,
      runnerListen: listen,
      tls
    })
    if (Result.isFailure(checked)) return yield* Failure.configuration(checked.failure.message, checked.failure)
    return checked.success
  })
