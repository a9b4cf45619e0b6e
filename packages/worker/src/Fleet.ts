/**
 * One worker of the fleet: a cluster runner on PostgreSQL (effect's socket runner with SQL message and runner
 * storage), effect's cluster workflow engine, and tppkit's two workflows (the daily sweep and the per-payment funds
 * check) with, optionally, the daily cron. Every runner of a fleet points at the same database; a runner that dies
 * loses its shards to the others once its shard locks expire. Runners reach each other at the address each one
 * registers (`runnerHost`, 127.0.0.1 by default); beyond loopback their traffic is mutual TLS with the fleet's own
 * certificate authority (effect's socket layer carries `node:tls` on both ends), so a process without a
 * certificate of that authority cannot make a runner act.
 *
 * @since 0.1.0
 */
import { isIP } from "node:net"
import * as NodeSocket from "@effect/platform-node/NodeSocket"
import * as NodeSocketServer from "@effect/platform-node/NodeSocketServer"
import { Backoff } from "@tppkit/core"
import { Cause, Duration, Effect, Layer, Option, Redacted, Result, Schema } from "effect"
import {
  type MessageStorage as ClusterMessageStorage,
  ClusterWorkflowEngine,
  RunnerAddress,
  RunnerHealth,
  Runners,
  ShardingConfig,
  SocketRunner,
  SqlRunnerStorage
} from "effect/cluster"
import type { Sharding } from "effect/cluster/Sharding"
import { WebCrypto } from "effect/crypto"
import * as RpcClient from "effect/rpc/RpcClient"
import * as RpcSerialization from "effect/rpc/RpcSerialization"
import { Socket } from "effect/socket/Socket"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import type { WorkflowEngine } from "effect/workflow"
import type { Checks } from "./Checks.ts"
import * as Database from "./Database.ts"
import { freePortOn } from "./EmbeddedDb.ts"
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

/**
 * The fleet's TLS material, PEM text: this runner's certificate and key, and the fleet's certificate authority.
 * Every runner presents its certificate and accepts a peer only with a certificate that authority signed (mutual
 * TLS); the peer's name is not checked, since runners are found by the addresses they register: the authority must
 * be the fleet's own, signing nothing else.
 */
export interface Tls {
  readonly cert: string
  readonly key: Redacted.Redacted<string>
  readonly ca: string
}

/** Where a runner is reached and how its traffic is protected. */
export interface Network {
  /** The address other runners reach this one at, as it is registered in the database (default 127.0.0.1). */
  readonly runnerHost?: string | undefined
  /** The address its socket binds (default: {@link Network.runnerHost}). */
  readonly runnerListen?: string | undefined
  /** TCP port of this runner's socket (default 0: a free port). */
  readonly runnerPort?: number | undefined
  /** Mutual TLS between the runners (required when the runner host is not on loopback). */
  readonly tls?: Tls | undefined
}

/** Options of a runner. */
export interface Options extends Timing, Network {
  readonly databaseUrl: Redacted.Redacted<string>
  /** Connections of this runner's pool (default 10). */
  readonly maxConnections?: number | undefined
  /** The fleet's shards (default {@link shardsPerGroup}); the same on every runner of a fleet. */
  readonly shards?: number | undefined
}

/**
 * The default shards of a fleet: every runner of one fleet must use the same number (it decides which shard a
 * payment's workflow lives on). 30 instead of effect's 300: a final reply is stored only once a refresh of its
 * shard's lock confirms the runner still holds it, and replies on one shard share that refresh, so fewer shards mean
 * fewer lock refreshes per payment (BENCHMARKS.md, "30 shards instead of effect's 300"); a fleet of 30 shards grows
 * to 30 runners, and `shards` (up to {@link maxShards}) makes room for more.
 */
export const shardsPerGroup = 30

/** The most shards a fleet may have (effect's default shard group size). */
export const maxShards = 300

/**
 * Why a runner does not join: its network settings (`network`), its shard count against the fleet's (`shards`), or a
 * setting of the environment out of its range (`settings`, `Runner`'s readers of `TPPKIT_WORKER_*`).
 */
export const Reason = Schema.Literals(["network", "shards", "settings"])

/** Why a runner does not join. */
export type Reason = typeof Reason.Type

/** A runner that cannot join the fleet as configured, with one line saying why and what to give. */
export class FleetError extends Schema.TaggedError<FleetError>()("FleetError", {
  reason: Reason,
  message: Schema.String
}) {}

/** Whether a host name or address is this machine's loopback (127.0.0.0/8, ::1, localhost). */
export const isLoopback = (host: string): boolean => {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase()
  return h === "localhost" || h === "::1" || (isIP(h) === 4 && h.startsWith("127.")) || h === "::ffff:127.0.0.1"
}

/**
 * The runner's network settings checked against the database's address: without a runner host, loopback when the
 * database is on loopback, else a refusal asking for one (its peers could not reach a runner registered on
 * loopback); a runner host beyond loopback needs TLS (runner traffic is never open to whoever reaches the port).
 */
export const network = (databaseHost: string, given: Network): Result.Result<Network, FleetError> => {
  const host = given.runnerHost?.trim()
  if (host === undefined || host === "") {
    if (!isLoopback(databaseHost)) {
      return Result.fail(
        new FleetError({
          reason: "network",
          message: `the database ${databaseHost} is not on this machine, so other workers may be elsewhere: give --runner-host ADDR (TPPKIT_RUNNER_HOST), the address the other workers reach this one at`
        })
      )
    }
    return Result.succeed({ ...given, runnerHost: "127.0.0.1" })
  }
  if (!isLoopback(host) && given.tls === undefined) {
    return Result.fail(
      new FleetError({
        reason: "network",
        message: `runner host ${host} is reachable from other machines: give --runner-tls-cert, --runner-tls-key and --runner-tls-ca (the fleet's certificate authority) so that only the fleet's runners talk to it`
      })
    )
  }
  return Result.succeed({ ...given, runnerHost: host })
}

/** The sharding overrides of a timing, at a runner address (the one it registers, and the one its socket binds). */
export const shardingConfig = (
  timing: Timing,
  runnerPort: number,
  address: { readonly host?: string | undefined; readonly listen?: string | undefined; readonly shards?: number } = {}
): Partial<ShardingConfig.ShardingConfig["Service"]> => {
  const expiration = Duration.fromInputUnsafe(timing.shardLockExpiration ?? "20 seconds")
  const host = address.host ?? "127.0.0.1"
  return {
    runnerAddress: Option.some(RunnerAddress.make(host, runnerPort)),
    runnerListenAddress: Option.some(RunnerAddress.make(address.listen ?? host, runnerPort)),
    entityMessagePollInterval: timing.pollInterval ?? "1 second",
    shardLockExpiration: expiration,
    shardLockRefreshInterval: Duration.divideUnsafe(expiration, 3),
    runnerHealthCheckInterval: Duration.divideUnsafe(expiration, 2),
    refreshAssignmentsInterval: "1 second",
    shardsPerGroup: address.shards ?? shardsPerGroup,
    maxResidentEntities: timing.maxResidentEntities ?? maxResidentEntities,
    entityMaxIdleTime: "30 seconds",
    entityTerminationTimeout: "5 seconds"
  }
}

/**
 * Joins the fleet's shard count: the first runner stores its own (a fleet whose cluster tables were made before the
 * count was stored had {@link shardsPerGroup}); a runner with another count is refused with one line, since a
 * workflow's shard is decided by the count and every runner must find it on the same one.
 */
export const claimShards = (shards: number): Effect.Effect<void, FleetError | SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE IF NOT EXISTS tppkit_fleet (id integer PRIMARY KEY CHECK (id = 1), shards integer NOT NULL)`
    const older = yield* sql<{
      n: number
    }>`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'cluster_messages'`
    const first = (older[0]?.n ?? 0) > 0 ? shardsPerGroup : shards
    yield* sql`INSERT INTO tppkit_fleet (id, shards) VALUES (1, ${first}) ON CONFLICT (id) DO NOTHING`
    const rows = yield* sql<{ shards: number }>`SELECT shards FROM tppkit_fleet WHERE id = 1`
    const fleet = Number(rows[0]?.shards ?? shards)
    if (fleet !== shards) {
      return yield* new FleetError({
        reason: "shards",
        message: `this runner has ${shards} shards but the fleet has ${fleet}: start it with --shards ${fleet} (a fleet keeps the shard count it was made with)`
      })
    }
  })

/** The cause of a failure in a few words: its first error's message, or its tag and reason, and what caused it. */
const causeText = (cause: Cause.Cause<unknown>): string => {
  const parts: Array<string> = []
  let error: unknown = Cause.squash(cause)
  for (let depth = 0; depth < 4 && error !== undefined && error !== null; depth++) {
    const e = error as { readonly message?: unknown; readonly _tag?: unknown; readonly reason?: unknown }
    const text =
      typeof e.message === "string" && e.message !== "" ? e.message : typeof e._tag === "string" ? e._tag : ""
    if (text !== "" && !parts.includes(text)) parts.push(text)
    error = e.reason !== undefined && typeof e.reason === "object" ? e.reason : (error as { cause?: unknown }).cause
  }
  return parts.length === 0 ? "no answer" : parts.join(": ")
}

/**
 * Effect's ping health check of the other runners, with one warning line naming the address of a runner this one
 * cannot reach (effect's own check marks it unhealthy silently).
 */
const health = Layer.effect(
  RunnerHealth.RunnerHealth,
  Effect.gen(function* () {
    const runners = yield* Runners.Runners
    return RunnerHealth.RunnerHealth.of({
      isAlive: (address) =>
        runners.ping(address).pipe(
          Effect.timeout(10_000),
          Effect.retry({ times: 5, schedule: Backoff.schedule(Backoff.spaced(500)) }),
          Effect.exit,
          Effect.flatMap((exit) =>
            exit._tag === "Success"
              ? Effect.succeed(true)
              : Effect.as(
                  Effect.logWarning(
                    `cannot reach runner ${address.host}:${address.port} (${causeText(exit.cause)}); check that it listens there and that this machine may reach it`
                  ),
                  false
                )
          )
        )
    })
  })
)

/** How a runner dials another: TCP, or TLS with the fleet's material (effect's socket protocol over either). */
const clientProtocol = (tls: Tls | undefined) =>
  Layer.effect(Runners.RpcClientProtocol)(
    Effect.gen(function* () {
      const serialization = yield* RpcSerialization.RpcSerialization
      return {
        codecFor: serialization.codecFor,
        make: Effect.fnUntraced(function* (address: RunnerAddress.RunnerAddress) {
          const socket = yield* tls === undefined
            ? NodeSocket.makeNet({ openTimeout: 1000, timeout: 5500, host: address.host, port: address.port })
            : NodeSocket.makeTls({
                openTimeout: 1000,
                timeout: 5500,
                host: address.host,
                port: address.port,
                cert: tls.cert,
                key: Redacted.value(tls.key),
                ca: tls.ca,
                // trust is the fleet's authority: runners are found by the addresses they register
                checkServerIdentity: () => undefined
              })
          return yield* RpcClient.makeProtocolSocket().pipe(
            Effect.provideService(Socket, socket),
            Effect.provideService(RpcSerialization.RpcSerialization, serialization)
          )
        }, Effect.orDie)
      }
    })
  )

/** The socket other runners dial: TCP, or TLS requiring a client certificate of the fleet's authority. */
const socketServer = (listen: string, port: number, tls: Tls | undefined) =>
  tls === undefined
    ? NodeSocketServer.layer({ host: listen, port })
    : NodeSocketServer.layerTls({
        host: listen,
        port,
        cert: tls.cert,
        key: Redacted.value(tls.key),
        ca: tls.ca,
        requestCert: true,
        rejectUnauthorized: true
      })

/**
 * The cluster of this runner on PostgreSQL: sharding, runners over sockets (TLS when given) at its runner host,
 * SQL storages (effect's runner storage, and its message storage with replies saved in one statement), plus the
 * `SqlClient` (with tppkit's tables created, and the fleet's shard count claimed).
 */
export const cluster = (options: Options) =>
  Layer.unwrap(
    Effect.map(
      options.runnerPort !== undefined && options.runnerPort > 0
        ? Effect.succeed(options.runnerPort)
        : freePortOn(options.runnerListen ?? options.runnerHost ?? "127.0.0.1"),
      (port) => {
        const host = options.runnerHost ?? "127.0.0.1"
        const listen = options.runnerListen ?? host
        const shards = options.shards ?? shardsPerGroup
        const config = ShardingConfig.layerFromEnv(shardingConfig(options, port, { host, listen, shards }))
        const protocol = clientProtocol(options.tls)
        // this runner's sessions by name: the holder its checks' writes are fenced with (FundsCheckWorkflow.FenceHolder)
        const holder = `tppkit runner ${port} ${crypto.randomUUID().slice(0, 8)}`
        return SocketRunner.layer.pipe(
          Layer.provide([socketServer(listen, port, options.tls), protocol]),
          Layer.provide(health.pipe(Layer.provide(Runners.layerRpc), Layer.provide(protocol))),
          Layer.provideMerge(MessageStorage.layer),
          Layer.provide(Layer.orDie(SqlRunnerStorage.layer)),
          Layer.provide(config),
          Layer.provide(RpcSerialization.layerSchemaBinary()),
          Layer.provide(Layer.effectDiscard(claimShards(shards))),
          Layer.provideMerge(
            Database.layer(options.databaseUrl, { maxConnections: options.maxConnections, applicationName: holder })
          ),
          Layer.provideMerge(Layer.succeed(FundsCheckWorkflow.FenceHolder)(holder))
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
