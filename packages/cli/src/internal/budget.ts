/**
 * The work behind `tppkit budget`, loaded only when it runs: today's counts per consent, from the budget file or
 * from a fleet's PostgreSQL.
 */
import { existsSync } from "node:fs"
import { BankConfig, Budget, BudgetStore } from "@tppkit/http"
import { Config, DateTime, Effect, type Layer, Option, type Redacted } from "effect"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"
import * as Render from "../Render.ts"
import { budgetStoreOf, defaultBudgetFile, targetBudgetStore } from "./client.ts"
import * as Environment from "./environment.ts"

/** One consent's budget today, as `tppkit budget` shows it. */
export interface Row {
  readonly environment: string
  readonly baseUrl: string
  readonly clientId: string
  readonly consent: string
  readonly used: number
  readonly left: number
  readonly resetsAt: string
}

/** Runs `tppkit budget`. */
export const budget = Effect.fn("tppkit.budget")(function* (input: {
  readonly budgetFile: Option.Option<string>
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly format: "table" | "json"
}) {
  const given = Option.getOrUndefined(input.budgetFile)
  const file = given ?? defaultBudgetFile()
  const tuning = yield* Effect.mapError(BankConfig.tuningFromEnv, (e) => Failure.usage(Environment.describe(e)))
  // the bank's profile (TPPKIT_PROFILE) says the day's time zone and limit unless the tuning does
  const profileName = yield* Effect.orElseSucceed(Config.String("TPPKIT_PROFILE"), () => "sbas")
  const profile = yield* Effect.mapError(Effect.fromResult(BankConfig.loadProfile(profileName)), (e) =>
    Failure.configuration(e.message, e)
  )
  const timeZone = tuning.budget?.timeZone ?? profile.unattended.timeZone
  const limit = tuning.budget?.dailyLimit ?? profile.unattended.dailyLimit
  const named = profile.name === "sbas" ? {} : { profile: profile.name }
  const { day, freesAt } = Budget.dayOf(yield* DateTime.now, timeZone)
  // the fleet's database when given (it wins over the file, as for the bank commands); a file that does not
  // exist holds nothing: reading it must not create it
  const store: Layer.Layer<BudgetStore.BudgetStore, Failure.CliFailure> | undefined = Option.isSome(input.databaseUrl)
    ? targetBudgetStore({ databaseUrl: input.databaseUrl.value })
    : file === "memory" || !existsSync(file)
      ? undefined
      : budgetStoreOf(file)
  const { counts, where } =
    store === undefined
      ? { counts: [], where: file }
      : yield* Effect.flatMap(Effect.service(BudgetStore.BudgetStore), (s) =>
          Effect.map(s.usages(day), (counts) => ({ counts, where: s.description }))
        ).pipe(
          Effect.provide(store),
          Effect.mapError((e) => (e._tag === "CliFailure" ? e : Failure.configuration(e.message, e)))
        )
  const rows: Array<Row> = counts.map((c) => {
    const parts = Budget.parseConsentKey(c.consentKey) ?? {
      environment: "?",
      baseUrl: "?",
      clientId: "?",
      consent: c.consentKey
    }
    return { ...parts, used: c.used, left: Math.max(0, limit - c.used), resetsAt: freesAt }
  })
  const source = Option.isSome(input.databaseUrl) ? { database: where } : { file }
  if (input.format === "json") {
    return yield* Output.line(
      JSON.stringify({ ...source, ...named, day, timeZone, limit, resetsAt: freesAt, consents: rows }, null, 2)
    )
  }
  yield* Output.line(
    `Daily budget of unattended listings: ${limit} calls per consent and day; ${day} in ${timeZone}, resets at ${freesAt}`
  )
  if (named.profile !== undefined) yield* Output.line(`Profile ${named.profile}: ${profile.title}`)
  yield* Output.line("database" in source ? `Database ${source.database}` : `File ${file}`)
  if (rows.length === 0) return yield* Output.line("Nothing spent today.")
  yield* Output.line(
    Render.table(
      [
        { header: "Environment" },
        { header: "Bank", flex: true },
        { header: "Client", flex: true },
        { header: "Consent", flex: true },
        { header: "Used", align: "right" },
        { header: "Left", align: "right" }
      ],
      rows.map((r) => [r.environment, r.baseUrl, r.clientId, r.consent, String(r.used), String(r.left)])
    ).join("\n")
  )
})
