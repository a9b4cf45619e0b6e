/**
 * The demo's fleet step, loaded only when the demo runs it (it pulls in the cluster, the workflow engine and the
 * PostgreSQL driver): one `tppkit worker --once` as code, on the demo's temporary PostgreSQL and mock bank.
 */
import { randomBytes } from "node:crypto"
import { Calendar, LocalDate, Profile } from "@tppkit/core"
import { BankConfig } from "@tppkit/http"
import type { Sandbox } from "@tppkit/sandbox"
import { Coverage } from "@tppkit/schedule"
import { Consents, FleetStatus, Runner, Sweep } from "@tppkit/worker"
import { Effect, Layer, Option, Redacted, References, Result } from "effect"
import * as Connection from "../../Connection.ts"
import * as Failure from "../../Failure.ts"
import type * as WorkerStatus from "../../WorkerStatus.ts"
import { optionsOf } from "../client.ts"
import { failureOf } from "../workerFailure.ts"
import { grantOf } from "./customer.ts"

/** The worker's settings in the demo: the defaults of `tppkit worker`, the sweep's consent the demo's client. */
export const sweepSettings = (clientId: string): Sweep.Settings => ({
  consents: [{ key: clientId }],
  daysBefore: 2,
  calendar: Calendar.target,
  timeZone: LocalDate.bankTimeZone,
  hour: 8
})

/** What the worker did: the sweep's summary and the status of the fleet's database afterwards. */
export interface Outcome {
  readonly summary: Sweep.Summary
  readonly status: WorkerStatus.Status
  /** The last day whose payments the sweep planned checks for: `daysBefore` working days after today. */
  readonly horizon: LocalDate.LocalDate
  readonly daysBefore: number
}

/**
 * Runs one worker as `tppkit worker --today <today> --once` would: joins a cluster of one runner on the database,
 * sweeps the day (one unattended listing of the client's standing orders, within the shared budget), waits until
 * the durable check of every payment due is finished, reads the status and hands it to `report` right away; then
 * the runner leaves the cluster (a second or two: it hands its shards off), and the effect ends. The cluster's
 * logs are dropped.
 */
export const sweep = (
  databaseUrl: Redacted.Redacted<string>,
  bank: Sandbox.SandboxInfo["Service"],
  today: LocalDate.LocalDate,
  report: (outcome: Outcome) => Effect.Effect<void>
): Effect.Effect<void, Failure.CliFailure> =>
  Effect.gen(function* () {
    const profile = bank.profile
    const sbas = Profile.isSbas(profile)
    const settings = BankConfig.load({
      ...optionsOf({
        environment: bank.environment,
        baseUrl: bank.baseUrl,
        clientId: bank.clientId,
        clientSecret: bank.clientSecret
      }),
      ...(sbas ? {} : { profile, apiKey: bank.apiKey, tpp: { name: "tppkit demo" } })
    })
    if (Result.isFailure(settings)) return yield* Failure.configuration(settings.failure.message, settings.failure)
    // under a profile that lists with the customer's token, the consent keeps the customer's refresh token, sealed
    // with a key of this demo's own
    const refreshTokenKey = sbas ? undefined : Redacted.make(randomBytes(32).toString("base64"))
    const refreshToken = sbas
      ? undefined
      : (yield* grantOf(bank).pipe(
          Effect.provide(Layer.succeed(BankConfig.BankConfig, settings.success)),
          Effect.mapError((e) => Failure.failure(`the customer's token: ${e.message}`, e))
        )).refreshToken
    const sweep = sweepSettings(bank.clientId)
    const day = LocalDate.format(today)
    const setup: Runner.Setup = {
      databaseUrl,
      bankSettings: settings.success,
      psu: Connection.defaultPsu,
      sweep,
      // one runner that polls often: the demo waits for it
      timing: { pollInterval: "100 millis" },
      runnerPort: 0,
      cron: false,
      ...(refreshTokenKey === undefined ? {} : { refreshTokenKey })
    }
    return yield* Effect.gen(function* () {
      // the demo's consent, a row of the fleet's consents as `tppkit worker` seeds it
      yield* Consents.seed(sweep.consents.map((c) => (refreshToken === undefined ? c : { ...c, refreshToken }))).pipe(
        Effect.provideService(Consents.RefreshTokenKey, Option.fromUndefinedOr(refreshTokenKey))
      )
      const summary = yield* Sweep.sweepNow(day)
      yield* Runner.awaitDay(day, "50 millis")
      const status = yield* FleetStatus.read(Option.none(), settings.success.budget.dailyLimit)
      yield* report({
        summary,
        status,
        horizon: Coverage.horizon(today, sweep.daysBefore, sweep.calendar),
        daysBefore: sweep.daysBefore
      })
    }).pipe(
      // a fresh memo map: the demo's own client layers (its in-memory budget above all) must not be reused here
      Effect.provide(Runner.layer(setup), { local: true }),
      Effect.provideService(References.MinimumLogLevel, "None"),
      Effect.mapError(failureOf(databaseUrl))
    )
  })
