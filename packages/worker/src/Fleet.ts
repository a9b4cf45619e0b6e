/**
 * One worker of the fleet: a cluster runner on PostgreSQL (effect's `NodeClusterSocket` with SQL message and
 * runner storage; runners talk over sockets on 127.0.0.1), effect's cluster workflow engine, and tppkit's two
 * workflows (the daily sweep and the per-payment funds check) with, optionally, the daily cron. Every runner of
 * a fleet points at the same database; a runner that dies loses its shards to the others once its shard locks
 * expire.
 *
 * @since 0.1.0
 */
import * as NodeClusterSocket from "@effect/platform-node/NodeClusterSocket"
import { Duration, Effect, Layer, Option, type Redacted } from "effect"
import {
  type MessageStorage as ClusterMessageStorage,
  ClusterWorkflowEngine,
  RunnerAddress,
  ShardingConfig,
  SqlRunnerStorage
} from "effect/cluster"
import type { Sharding } from "effect/cluster/Sharding"
import { WebCrypto } from "effect/crypto"
import type { WorkflowEngine } from "effect/workflow"
import type { Checks } from "./Checks.ts"
import * as Database from "./Database.ts"
import { freePort } from "./EmbeddedDb.ts"
import * as FundsCheckWorkflow from "./FundsCheckWorkflow.ts"
import * as Digest from "./internal/digest.ts"
import * as MessageStorage from "./internal/messageStorage.ts"
import * as Sweep from "./Sweep.ts"

/** Timing of the cluster: lower than effect's defaults so that a fleet reacts within seconds. */
export interface Timing {
  /** How often a runner reads unprocessed messages from the database (default 1 s; effect's default 10 s). */
  readonly pollInterval?: Duration.Input | undefined
  /** How long a dead runner's shards stay locked (default 20 s; effect's default 35 s). */
  readonly shardLockExpiration?: Duration.Input | undefined
  /** The most workflows resident in this runner's memory at once (default {@link maxResidentEntities}). */
  readonly maxResidentEntities?: number | undefined
}

/**
 * The most entities (a payment's check, the sweep) one runner keeps in memory at once, where effect's default is
 * 10,000: each resident check holds its workflow's entity (about 25 KB of mailbox, fibers, contexts and latches,
 * 50 KB while the balance check was an activity) from its start until effect's 10 s idle time after it finished,
 * so a 10,000-payment day on one runner took 1.3 GB at effect's default. Checks beyond it stay in the database until
 * a finished one leaves memory; a runner then finishes at most this many checks per 10-20 s (BENCHMARKS.md, "Memory
 * of a worker").
 */
export const maxResidentEntities = 2000

/** Options of a runner. */
export interface Options extends Timing {
  readonly databaseUrl: Redacted.Redacted<string>
  /** TCP port of this runner's socket on 127.0.0.1 (default 0: a free port). */
  readonly runnerPort?: number | undefined
  /** Connections of this runner's pool (default 10). */
  readonly maxConnections?: number | undefined
}

/**
 * The shards of a fleet: every runner of one fleet must use the same number (it decides which shard a payment's
 * workflow lives on). 30 instead of effect's 300: a final reply is stored only once a refresh of its shard's lock
 * confirms the runner still holds it, and replies on one shard share that refresh, so fewer shards mean fewer
 * lock refreshes per payment (BENCHMARKS.md, "30 shards instead of effect's 300"); a fleet can grow to 30 runners.
 */
export const shardsPerGroup = 30

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
    shardsPerGroup,
    maxResidentEntities: timing.maxResidentEntities ?? maxResidentEntities,
    entityMaxIdleTime: "30 seconds",
    entityTerminationTimeout: "5 seconds"
  }
}

/**
 * The cluster of this runner on PostgreSQL: sharding, runners over sockets on 127.0.0.1, SQL storages (effect's
 * runner storage, and its message storage with replies saved in one statement), plus the `SqlClient` (with
 * tppkit's tables created).
 */
export const cluster = (options: Options) =>
  Layer.unwrap(
    Effect.map(
      options.runnerPort !== undefined && options.runnerPort > 0 ? Effect.succeed(options.runnerPort) : freePort,
      (port) => {
        const config = shardingConfig(options, port)
        return NodeClusterSocket.layer({ storage: "byo", shardingConfig: config }).pipe(
          Layer.provideMerge(MessageStorage.layer),
          Layer.provide(Layer.orDie(SqlRunnerStorage.layer).pipe(Layer.provide(ShardingConfig.layerFromEnv(config)))),
          Layer.provideMerge(Database.layer(options.databaseUrl, { maxConnections: options.maxConnections }))
        )
      }
    )
  )

/** The workflow engine with tppkit's workflows registered, over a cluster. */
export const workflows: Layer.Layer<
  WorkflowEngine.WorkflowEngine | FundsCheckWorkflow.InFlight,
  never,
  | Sharding
  | ClusterMessageStorage.MessageStorage
  | Checks
  | Sweep.SweepSettings
  | Sweep.OrderSource
  | FundsCheckWorkflow.BalanceChecker
> = Layer.mergeAll(FundsCheckWorkflow.layer, Sweep.layer).pipe(
  Layer.provideMerge(ClusterWorkflowEngine.layer),
  Layer.provide(WebCrypto.layer(Digest.webCrypto))
)
