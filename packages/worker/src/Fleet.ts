/**
 * One worker of the fleet: a cluster runner on PostgreSQL (effect's `NodeClusterSocket` with SQL message and
 * runner storage; runners talk over sockets on 127.0.0.1), effect's cluster workflow engine, and tppkit's two
 * workflows (the daily sweep and the per-payment funds check) with, optionally, the daily cron. Every runner of
 * a fleet points at the same database; a runner that dies loses its shards to the others once its shard locks
 * expire.
 *
 * @since 0.1.0
 */
import { createHash, type webcrypto as NodeWebCrypto } from "node:crypto"
import { NodeClusterSocket, NodeCrypto } from "@effect/platform-node"
import { Deferred, Duration, Effect, Layer, Option, type Redacted } from "effect"
import {
  ClusterError,
  ClusterWorkflowEngine,
  MessageStorage,
  RunnerAddress,
  ShardId,
  ShardingConfig,
  Snowflake,
  SqlMessageStorage,
  SqlRunnerStorage
} from "effect/cluster"
import type { Sharding } from "effect/cluster/Sharding"
import { WebCrypto } from "effect/crypto"
import { SqlClient } from "effect/sql"
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

/**
 * The shards of a fleet: every runner of one fleet must use the same number (it decides which shard a payment's
 * workflow lives on). 30 instead of effect's 300: a final reply is stored only once a refresh of its shard's lock
 * confirms the runner still holds it, and replies on one shard share that refresh, so fewer shards mean fewer
 * lock refreshes per payment (about 0.7 statements fewer per payment at 3 runners); a fleet can grow to 30
 * runners.
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
    entityMaxIdleTime: "30 seconds",
    entityTerminationTimeout: "5 seconds"
  }
}

type SaveOptions = Parameters<MessageStorage.Encoded["saveEnvelope"]>[0]
type SaveResult = MessageStorage.SaveResult.Encoded

/** The most requests stored by one `INSERT`. */
const maxBatch = 256

/**
 * Requests with a primary key (a workflow's start, an activity's call), saved many in one `INSERT … ON CONFLICT
 * (message_id) DO NOTHING RETURNING id`: the requests that arrive while the fibers of this turn run are stored
 * together, after them. The rows are those effect's storage writes (message id = the primary key, which fits the
 * column's 255 characters). A request the `INSERT` did not store (its primary key is stored already) and every
 * request of a batch that failed is saved again by effect's own code, which reads the stored message and answers
 * `Duplicate` (or fails) exactly as before; a request saved inside a transaction is not batched.
 */
const batchedRequests = (
  encoded: MessageStorage.Encoded,
  sql: SqlClient.SqlClient
): MessageStorage.Encoded["saveEnvelope"] => {
  interface Item {
    readonly options: SaveOptions
    readonly done: Deferred.Deferred<SaveResult, ClusterError.PersistenceError>
  }
  let batch: Array<Item> = []
  const rowOf = ({ envelope, primaryKey, deliverAt }: SaveOptions) => {
    const request = envelope as Extract<SaveOptions["envelope"], { _tag: "Request" }>
    return {
      id: request.requestId,
      message_id: primaryKey,
      shard_id: ShardId.toString(request.address.shardId),
      entity_type: request.address.entityType,
      entity_id: request.address.entityId,
      kind: 0,
      tag: request.tag,
      payload: JSON.stringify(request.payload),
      headers: JSON.stringify(request.headers),
      trace_id: request.traceId ?? null,
      span_id: request.spanId ?? null,
      sampled: request.sampled ?? null,
      request_id: request.requestId,
      reply_id: null,
      deliver_at: deliverAt
    }
  }
  const one = (item: Item) =>
    Effect.flatMap(Effect.exit(encoded.saveEnvelope(item.options)), (exit) => Deferred.done(item.done, exit))
  const flush = (items: ReadonlyArray<Item>) => {
    const [first, ...rest] = items.map((item) => rowOf(item.options))
    if (first === undefined) return Effect.void
    return sql<{ id: string }>`INSERT INTO cluster_messages ${sql.insert([first, ...rest])}
        ON CONFLICT (message_id) DO NOTHING RETURNING id::text AS id`.pipe(
      Effect.map((rows) => new Set(rows.map((r) => r.id))),
      Effect.orElseSucceed(() => new Set<string>()),
      Effect.flatMap((stored) =>
        Effect.forEach(
          items,
          (item) =>
            stored.has((item.options.envelope as { readonly requestId: string }).requestId)
              ? Deferred.succeed(item.done, MessageStorage.SaveResultEncoded.Success())
              : one(item),
          { concurrency: 8, discard: true }
        )
      )
    )
  }
  const take = Effect.suspend(() => {
    const items = batch
    batch = []
    return flush(items)
  })
  return (options) =>
    options.envelope._tag !== "Request" || options.primaryKey === null || options.primaryKey.length > 255
      ? encoded.saveEnvelope(options)
      : Effect.flatMap(Effect.serviceOption(sql.transactionService), (transaction) => {
          if (Option.isSome(transaction)) return encoded.saveEnvelope(options)
          const done = Deferred.makeUnsafe<SaveResult, ClusterError.PersistenceError>()
          batch.push({ options, done })
          const start =
            batch.length >= maxBatch
              ? Effect.forkDetach(take)
              : batch.length === 1
                ? Effect.forkDetach(Effect.andThen(Effect.yieldNow, take))
                : Effect.void
          return Effect.andThen(start, Deferred.await(done))
        })
}

/**
 * effect's SQL message storage (tables `cluster_messages` and `cluster_replies`, created by effect's migrations)
 * with one change: the final reply of a request is saved in one statement, the reply's `INSERT` and the request's
 * `UPDATE … SET processed` together in one `WITH` (atomic as a single statement), where effect's storage sends
 * `BEGIN`, the two statements and `COMMIT`. Every payment's check saves two final replies (its workflow's and its
 * balance-check activity's): six round trips fewer per payment. Streamed replies (chunks) are saved by effect's
 * own code.
 */
export const messageStorage: Layer.Layer<MessageStorage.MessageStorage, never, SqlClient.SqlClient> = Layer.effect(
  MessageStorage.MessageStorage,
  Effect.gen(function* () {
    const encoded = yield* SqlMessageStorage.makeEncodedStorage()
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const saveEnvelope = batchedRequests(encoded, sql)
    const saveReply: MessageStorage.Encoded["saveReply"] = (reply) =>
      reply._tag !== "WithExit"
        ? encoded.saveReply(reply)
        : sql`WITH reply AS (
                INSERT INTO cluster_replies (id, kind, request_id, payload, sequence)
                VALUES (${reply.id}, 0, ${reply.requestId}, ${JSON.stringify(reply.exit)}, NULL)
              )
              UPDATE cluster_messages SET processed = TRUE, last_reply_id = ${reply.id}
              WHERE request_id = ${reply.requestId}`.pipe(Effect.asVoid, ClusterError.PersistenceError.refail)
    return yield* MessageStorage.makeEncoded({ ...encoded, saveEnvelope, saveReply })
  })
).pipe(Layer.provide([Snowflake.layerGenerator, SqlMessageStorage.layerMigrations({}), NodeCrypto.layerDigest]))

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
          Layer.provideMerge(messageStorage),
          Layer.provide(Layer.orDie(SqlRunnerStorage.layer).pipe(Layer.provide(ShardingConfig.layerFromEnv(config)))),
          Layer.provideMerge(Database.layer(options.databaseUrl, { maxConnections: options.maxConnections }))
        )
      }
    )
  )

const nodeHashNames: Readonly<Record<string, string>> = {
  "SHA-1": "sha1",
  "SHA-256": "sha256",
  "SHA-384": "sha384",
  "SHA-512": "sha512"
}

/**
 * The Web Crypto object the workflow engine hashes execution ids with, its `subtle.digest` computed on the spot by
 * `node:crypto` (the same bytes). Node's own `crypto.subtle.digest` sends every digest to the thread pool: a
 * sweep starting 10,000 workflows spent about 5 s of its runner's time there on two busy cores.
 */
export const webCrypto: Parameters<typeof WebCrypto.layer>[0] = (() => {
  const base: NodeWebCrypto.Crypto = globalThis.crypto
  const subtle = new Proxy(base.subtle, {
    get: (target, property) => {
      if (property === "digest") {
        return (
          algorithm: NodeWebCrypto.AlgorithmIdentifier,
          data: NodeWebCrypto.BufferSource
        ): Promise<ArrayBuffer> => {
          const name = typeof algorithm === "string" ? algorithm : algorithm.name
          const node = nodeHashNames[name.toUpperCase()]
          if (node === undefined) return target.digest(algorithm, data)
          const bytes = ArrayBuffer.isView(data)
            ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
            : new Uint8Array(data)
          const digest = createHash(node).update(bytes).digest()
          return Promise.resolve(digest.buffer.slice(digest.byteOffset, digest.byteOffset + digest.byteLength))
        }
      }
      const value = Reflect.get(target, property, target)
      return typeof value === "function" ? value.bind(target) : value
    }
  })
  return {
    subtle,
    getRandomValues: <T extends ArrayBufferView | null>(array: T) => base.getRandomValues(array as never) as T,
    randomUUID: () => base.randomUUID()
  } as unknown as Parameters<typeof WebCrypto.layer>[0]
})()

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
> = Layer.mergeAll(FundsCheckWorkflow.layer, Sweep.layer).pipe(
  Layer.provideMerge(ClusterWorkflowEngine.layer),
  Layer.provide(WebCrypto.layer(webCrypto))
)

/** Checks in the fleet's database. */
export const checksSql: Layer.Layer<Checks, never, SqlClient.SqlClient> = Checks.layerSql
