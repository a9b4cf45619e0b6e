/**
 * One worker of the fleet: a cluster runner on PostgreSQL (effect's `NodeClusterSocket` with SQL message and
 * runner storage; runners talk over sockets on 127.0.0.1), effect's cluster workflow engine, and tppkit's two
 * workflows (the daily sweep and the per-payment funds check) with, optionally, the daily cron. Every runner of
 * a fleet points at the same database; a runner that dies loses its shards to the others once its shard locks
 * expire.
 *
 * @since 0.1.0
 */
import { NodeClusterSocket } from "@effect/platform-node"
import { Duration, Effect, Layer, Option, type Redacted } from "effect"
import { ClusterWorkflowEngine, RunnerAddress, type ShardingConfig } from "effect/cluster"
import type { Sharding } from "effect/cluster/Sharding"
import type { SqlClient } from "effect/sql"
import type { WorkflowEngine } from "effect/workflow"
import { Checks } from "./Checks.ts"
import * as Database from "./Database.ts"
import { freePort } from "./EmbeddedDb.ts"
import * as FundsCheckWorkflow from "./FundsCheckWorkflow.ts"
import * as Sweep from "./Sweep.ts"

/** Timing of the cluster: lower than effect's defaults so that a fleet reacts within seconds. */
export interface Timing {
  /** How often a runner reads unprocessed messages from the database (default 1 s; effect's default 10 s). */
  readonly pollInterval?: Duration.Input | undefined
  /** How long a dead runner's shards stay locked (default 20 s; effect's default 35 s). */
  readonly shardLockExpiration?: Duration.Input | undefined
}

/** Options of a runner. */
export interface Options extends Timing {
  readonly databaseUrl: Redacted.Redacted<string>
  /** TCP port of this runner's socket on 127.0.0.1 (default 0: a free port). */
  readonly runnerPort?: number | undefined
  /** Connections of this runner's pool (default 10). */
  readonly maxConnections?: number | undefined
}

/** The sharding overrides of a timing. */
export const shardingConfig = (
  timing: Timing,
  runnerPort: number
): Partial<ShardingConfig.ShardingConfig["Service"]> => {
  const expiration = Duration.fromInputUnsafe(timing.shardLockExpiration ?? "20 seconds")
  return {
    runnerAddress: Option.some(RunnerAddress.make("127.0.0.1", runnerPort)),
    entityMessagePollInterval: timing.pollInterval ?? "1 second",
    shardLockExpiration: expiration,
    shardLockRefreshInterval: Duration.divideUnsafe(expiration, 3),
    runnerHealthCheckInterval: Duration.divideUnsafe(expiration, 2),
    refreshAssignmentsInterval: "1 second",
    entityMaxIdleTime: "30 seconds",
    entityTerminationTimeout: "5 seconds"
  }
}

/**
 * The cluster of this runner on PostgreSQL: sharding, runners over sockets on 127.0.0.1, SQL storages, plus the
 * `SqlClient` (with tppkit's tables created).
 */
export const cluster = (options: Options) =>
  Layer.unwrap(
    Effect.map(
      options.runnerPort !== undefined && options.runnerPort > 0 ? Effect.succeed(options.runnerPort) : freePort,
      (port) =>
        NodeClusterSocket.layer({ storage: "sql", shardingConfig: shardingConfig(options, port) }).pipe(
          Layer.provideMerge(Database.layer(options.databaseUrl, { maxConnections: options.maxConnections }))
        )
    )
  )

/** The workflow engine with tppkit's workflows registered, over a cluster. */
export const workflows: Layer.Layer<
  WorkflowEngine.WorkflowEngine,
  never,
  | Sharding
  | import("effect/cluster").MessageStorage.MessageStorage
  | Checks
  | Sweep.SweepSettings
  | Sweep.OrderSource
  | FundsCheckWorkflow.BalanceChecker
> = Layer.mergeAll(FundsCheckWorkflow.layer, Sweep.layer).pipe(Layer.provideMerge(ClusterWorkflowEngine.layer))

/** Checks in the fleet's database. */
export const checksSql: Layer.Layer<Checks, never, SqlClient.SqlClient> = Checks.layerSql
