import { Checks, Consents, Fleet, FundsCheckWorkflow, Sweep } from "@tppkit/worker"
import { Effect, Layer, type Redacted } from "effect"
import { sweepSettings } from "./support.ts"

/** What a test gives a runner besides its database: the services it stands in for and the cluster's settings. */
export interface RunnerOptions {
  /** Checks each worker runs at once (the worker's default unless given). */
  readonly checksInFlight?: number
  /** The cluster's settings beyond the database (poll every 200 ms and 4 connections unless given). */
  readonly cluster?: Omit<Fleet.Options, "databaseUrl">
  /** The consents the sweep runs over read from the fleet's table (`Consents.layerSource`), not from `consents`. */
  readonly consentTable?: boolean
}

/**
 * A runner of the fleet on the database at `url`: the day's sweep of `consents` over `list` (the orders listed), each
 * check answered by `check` (APPR by default), the checks in PostgreSQL.
 */
export const runnerOf = (
  url: Redacted.Redacted<string>,
  consents: ReadonlyArray<Sweep.Consent>,
  list: Sweep.OrderSource["Service"]["list"],
  check: FundsCheckWorkflow.BalanceChecker["Service"]["check"] = () =>
    Effect.succeed({ answer: "APPR" as const, requestId: "r" }),
  options: RunnerOptions = {}
) =>
  Fleet.workflows.pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        Layer.succeed(Sweep.SweepSettings)(sweepSettings(consents)),
        Layer.succeed(Sweep.OrderSource)({ list }),
        Layer.succeed(FundsCheckWorkflow.BalanceChecker)({ check })
      )
    ),
    Layer.provide(
      options.checksInFlight === undefined
        ? Layer.empty
        : Layer.succeed(FundsCheckWorkflow.ChecksInFlight)(options.checksInFlight)
    ),
    Layer.provideMerge(
      options.consentTable === true
        ? Layer.mergeAll(Checks.Checks.layerSql, Consents.layerSource())
        : Checks.Checks.layerSql
    ),
    Layer.provideMerge(
      Fleet.cluster({ pollInterval: "200 millis", maxConnections: 4, ...options.cluster, databaseUrl: url })
    )
  )
