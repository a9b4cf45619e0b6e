/**
 * The fleet's message storage: effect's SQL message storage with two changes that save round trips per payment, a
 * batched `INSERT` of requests and a final reply saved in one statement, and one that keeps a shard taken back from
 * stalling, the reset of its claims owed until it is made (their doc comments say how).
 */
import * as NodeCrypto from "@effect/platform-node/NodeCrypto"
import { Array as Arr, Deferred, Effect, Layer, Option } from "effect"
import { ClusterError, type EntityAddress, MessageStorage, ShardId, Snowflake, SqlMessageStorage } from "effect/cluster"
import { SqlClient } from "effect/sql"

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
 * A shard's claims reset before any of its messages is read again, however the reset effect's cluster asked for
 * went. Effect's storage claims each message it reads (`last_read`) and reads a claimed message again only ten
 * minutes later; when a runner takes a shard (back), effect's sharding resets the claims of the shard's unprocessed
 * messages, so that the runs this runner had under way when it lost the shard are delivered again, but it ignores a
 * reset that fails and cuts off one that takes longer than its lock refresh interval. A runner that lost its shards
 * to a database outage takes them back as the database returns, when a reset is most likely to fail or be cut off
 * (a connection of the old server, a database slow to answer): the runs of those shards stayed claimed, and nothing
 * ran on them for ten minutes while the runner held them. Here every reset asked for is owed until one has
 * succeeded, and a read of messages first makes the owed resets of its shards, leaving out those whose reset fails
 * again (tried at each read, every poll interval).
 */
export const owedResets = (
  encoded: Pick<MessageStorage.Encoded, "resetShards" | "unprocessedMessages">
): Pick<MessageStorage.Encoded, "resetShards" | "unprocessedMessages"> => {
  // each owed shard, with the number of the latest reset asked for it (a reset made pays only those it was asked for)
  const owed = new Map<string, number>()
  let asked = 0
  const pay = (shardIds: ReadonlyArray<string>) =>
    Effect.suspend(() => {
      const due = shardIds.filter((id) => owed.has(id))
      if (!Arr.isArrayNonEmpty(due)) return Effect.void
      const numbers = due.map((id) => [id, owed.get(id)] as const)
      return Effect.tap(encoded.resetShards(due), () =>
        Effect.sync(() => {
          for (const [id, n] of numbers) if (owed.get(id) === n) owed.delete(id)
        })
      )
    })
  return {
    resetShards: (shardIds) =>
      Effect.suspend(() => {
        asked++
        for (const id of shardIds) owed.set(id, asked)
        return pay(shardIds)
      }),
    unprocessedMessages: (shardIds, now, options) =>
      Effect.andThen(Effect.ignore(pay(shardIds)), () => {
        const readable = shardIds.filter((id) => !owed.has(id))
        return Arr.isArrayNonEmpty(readable) ? encoded.unprocessedMessages(readable, now, options) : Effect.succeed([])
      })
  }
}

/** The waits for replies of one entity on this runner, and whether its run was left (its shard lost). */
interface EntityWaits {
  /** The request ids waited for, each with how many waits. */
  readonly requests: Map<Snowflake.Snowflake, number>
  /** Set while the entity's run is left to the shard's next owner: whether the shard is still lost. */
  left: (() => boolean) | undefined
}

/** Each storage's waits by entity, for {@link leaveWaits}. */
const waitsOf = new WeakMap<MessageStorage.MessageStorage["Service"], Map<string, EntityWaits>>()

const keyOf = (address: EntityAddress.EntityAddress) =>
  `${address.entityType} ${address.entityId} ${ShardId.toString(address.shardId)}`

/**
 * The storage's waits for replies (`registerReplyHandler`) counted by entity, so that a workflow's run left to its
 * shard's next owner ({@link leaveWaits}) releases them. Effect's workflow engine answers a `resume` (a child
 * workflow finished: a consent's sweep telling its day's sweep) by waiting, uninterruptible, for the reply of the
 * entity's current run; a run left by the shard guard (internal/shardGuard.ts) saves no reply, and effect releases
 * such waits (`unregisterShardReplyHandlers`) only once the shard's entities have stopped, which waits for the
 * uninterruptible `resume` itself. A forced shard release (`Shard lock storage is unhealthy`) that met a `resume`
 * whose wait began as or after the day's run was left stayed pending for good (issue 42: `Forced shard release is
 * still pending`, `entityTypes: ["Workflow/tppkit/DailySweep"]`, for minutes, the shards never taken back). Here the
 * waits of a left run's entity are resumed with `EntityNotAssignedToRunner` at once, and a wait registered while its
 * shard is still lost fails so at once: what effect does to them when the release ends (the caller reads the reply
 * from storage, the engine's `resume` takes it as the run's abandonment and leaves itself to the shard's owner).
 */
const leavableWaits = (storage: MessageStorage.MessageStorage["Service"]): MessageStorage.MessageStorage["Service"] => {
  const byEntity = new Map<string, EntityWaits>()
  const wrapped = MessageStorage.MessageStorage.of({
    ...storage,
    registerReplyHandler: (message) =>
      Effect.suspend(() => {
        const address = message.envelope.address
        const key = keyOf(address)
        let entity = byEntity.get(key)
        if (entity?.left !== undefined) {
          if (entity.left()) return Effect.fail(new ClusterError.EntityNotAssignedToRunner({ address }))
          entity.left = undefined
        }
        if (entity === undefined) {
          entity = { requests: new Map(), left: undefined }
          byEntity.set(key, entity)
        }
        const waits = entity
        const id = message.envelope.requestId
        waits.requests.set(id, (waits.requests.get(id) ?? 0) + 1)
        // effect's handler registers as it starts, before it suspends: nothing here suspends before it
        return Effect.ensuring(
          storage.registerReplyHandler(message),
          Effect.sync(() => {
            const n = (waits.requests.get(id) ?? 1) - 1
            if (n > 0) waits.requests.set(id, n)
            else waits.requests.delete(id)
            if (waits.requests.size === 0 && waits.left === undefined) byEntity.delete(key)
          })
        )
      })
  })
  waitsOf.set(wrapped, byEntity)
  return wrapped
}

/**
 * Leaves the waits for an entity's replies to its shard's next owner, for a workflow run left there: those waiting
 * are resumed with `EntityNotAssignedToRunner`, and those registered while `stillLost()` holds fail so at once
 * ({@link leavableWaits} says why). A storage not made here is left as it is.
 */
export const leaveWaits = (
  storage: MessageStorage.MessageStorage["Service"],
  address: EntityAddress.EntityAddress,
  stillLost: () => boolean
): Effect.Effect<void> =>
  Effect.suspend(() => {
    const byEntity = waitsOf.get(storage)
    if (byEntity === undefined) return Effect.void
    const key = keyOf(address)
    const entity = byEntity.get(key) ?? { requests: new Map(), left: undefined }
    entity.left = stillLost
    byEntity.set(key, entity)
    return Effect.forEach(Array.from(entity.requests.keys()), (id) => storage.unregisterReplyHandler(id), {
      discard: true
    })
  })

/**
 * effect's SQL message storage (tables `cluster_messages` and `cluster_replies`, created by effect's migrations)
 * with one change: the final reply of a request is saved in one statement, the reply's `INSERT` and the request's
 * `UPDATE … SET processed` together in one `WITH` (atomic as a single statement), where effect's storage sends
 * `BEGIN`, the two statements and `COMMIT`. Every payment's check saves a final reply (its workflow's; the sweep's
 * activities theirs): three round trips fewer per payment. Streamed replies (chunks) are saved by effect's
 * own code. Requests are saved in batches ({@link batchedRequests}) and shards taken back are read only once their
 * claims are reset ({@link owedResets}).
 */
export const layer: Layer.Layer<MessageStorage.MessageStorage, never, SqlClient.SqlClient> = Layer.effect(
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
    const storage = yield* MessageStorage.makeEncoded({ ...encoded, saveEnvelope, saveReply, ...owedResets(encoded) })
    return leavableWaits(storage)
  })
).pipe(Layer.provide([Snowflake.layerGenerator, SqlMessageStorage.layerMigrations({}), NodeCrypto.layerDigest]))
