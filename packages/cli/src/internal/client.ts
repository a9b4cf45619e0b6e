/**
 * The bank client on Node for a command-line target, and the SCA token given on the command line; loaded only by
 * the commands that talk to a bank (it pulls in the HTTP stack).
 */
import { homedir } from "node:os"
import { join } from "node:path"
import { BankClient, BankConfig, BankTransport, BudgetStore, TokenService } from "@tppkit/http"
import { Effect, Layer, Option, type Redacted } from "effect"
import type { Target } from "../Connection.ts"
import * as Failure from "../Failure.ts"
import * as Environment from "./environment.ts"

/** The configuration options of a target, with the settings that have defaults (timeouts, retries, TLS …). */
export const optionsOf = (target: Target, tuning: BankConfig.Tuning = {}): BankConfig.Options => {
  const tls = { ...tuning.tls, ...target.tls }
  return {
    ...tuning,
    environment: target.environment,
    baseUrl: target.baseUrl,
    clientId: target.clientId,
    clientSecret: target.clientSecret,
    ...(Object.keys(tls).length === 0 ? {} : { tls })
  }
}

/**
 * The validated settings of a target: the `TPPKIT_*` tuning variables (`BankConfig.tuningFromEnv`) under the
 * flags, TLS files read; a bad value is a configuration failure.
 */
export const settingsOf = (target: Target) =>
  Effect.gen(function* () {
    const tuning = yield* Effect.mapError(BankConfig.tuningFromEnv, (e) =>
      Failure.configuration(Environment.describe(e), e)
    )
    const profile = yield* Effect.mapError(Effect.fromResult(BankConfig.loadProfile(target.profile ?? "sbas")), (e) =>
      Failure.configuration(e.message, e)
    )
    return yield* Effect.mapError(Effect.fromResult(BankConfig.load({ ...optionsOf(target, tuning), profile })), (e) =>
      Failure.configuration(e.message, e)
    )
  })

/** The command line's own budget file when none is given: `~/.tppkit/budget.sqlite`. */
export const defaultBudgetFile = (): string => join(homedir(), ".tppkit", "budget.sqlite")

/**
 * The budget store of a `--budget-file` value: `memory`, the file given, or the default file (its folder made on
 * first use). SQLite opens the file only when budget is first spent or read, so commands that spend none never
 * create or need it.
 */
export const budgetStoreOf = (budgetFile: string | undefined): Layer.Layer<BudgetStore.BudgetStore> =>
  budgetFile === "memory"
    ? BudgetStore.BudgetStore.layerMemory
    : budgetFile === undefined
      ? BudgetStore.BudgetStore.layerSqlite(defaultBudgetFile(), { createDirectory: true })
      : BudgetStore.BudgetStore.layerSqlite(budgetFile)

/**
 * The budget store of a target: the fleet's PostgreSQL with `--database-url` (the worker package, loaded only
 * then; a database it cannot use is one line naming `host:port` and the cause, with its class's exit code), else {@link budgetStoreOf} its file.
 */
export const targetBudgetStore = (
  target: Pick<Target, "budgetFile" | "databaseUrl">
): Layer.Layer<BudgetStore.BudgetStore, Failure.CliFailure> => {
  const url = target.databaseUrl
  if (url === undefined) return budgetStoreOf(target.budgetFile)
  return Layer.unwrap(
    Effect.map(
      Effect.all([
        Effect.promise(() => import("@tppkit/worker/PgBudgetStore")),
        Effect.flatMap(
          Effect.promise(() => import("./database.ts")),
          (failure) => failure.checkUrl(url)
        ),
        Effect.promise(() => import("@tppkit/worker/Database")),
        Effect.promise(() => import("./database.ts"))
      ]),
      ([pg, , database, failure]) =>
        pg.layer(pg.describeUrl(url)).pipe(
          Layer.provide(database.layer(url, { maxConnections: 2 })),
          Layer.catch((e) => Layer.effect(BudgetStore.BudgetStore)(Effect.fail(failure.failure(url, e))))
        )
    )
  )
}

/** The bank client (with `BankConfig`, `TokenService` and `Budget`) on Node for validated settings. */
export const clientLayerOf = (settings: BankConfig.Settings, target: Pick<Target, "budgetFile" | "databaseUrl">) =>
  Layer.unwrap(
    Effect.map(Layer.build(targetBudgetStore(target)), (store) =>
      BankClient.BankClient.layerNode(Layer.succeed(BankConfig.BankConfig, settings), {
        budgetStore: Layer.succeedContext(store)
      })
    )
  )

/** The bank client on Node for a target with default settings (the demo's mock bank). */
export const clientLayer = (target: Target) =>
  BankClient.layerNodeFromOptions(optionsOf(target), { budgetStore: budgetStoreOf(target.budgetFile) })

/** Client-credentials tokens alone (no budget, no client) on Node for validated settings. */
export const tokenLayerOf = (settings: BankConfig.Settings) =>
  TokenService.TokenService.layer.pipe(
    Layer.provide(
      BankTransport.BankTransport.layerUndici({ tls: settings.tls, maxHeaderBytes: settings.limits.maxHeaderBytes })
    ),
    Layer.provide(Layer.succeed(BankConfig.BankConfig, settings))
  )

/** The SCA token of the environment, when one was given. */
export const scaToken = (
  environment: "sandbox" | "live",
  token: Option.Option<Redacted.Redacted<string>>
): TokenService.Token | undefined => (Option.isSome(token) ? TokenService.fromSca(environment, token.value) : undefined)
