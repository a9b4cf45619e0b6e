/**
 * The fleet's message storage (internal/messageStorage.ts): the waits for a left run's replies end (issue 42), so
 * that effect's engine's uninterruptible `resume` does not hold a forced shard release for good.
 */
import { assert, describe } from "@effect/vitest"
import { Effect, Exit, Fiber } from "effect"
import { EntityAddress, EntityId, EntityType, MessageStorage, ShardId, Snowflake } from "effect/cluster"
import * as MessageStorageLayer from "../../packages/worker/src/internal/messageStorage.ts"
import { embeddedDb } from "./pg.ts"

const db = embeddedDb()

const addressOf = (entityId: string) =>
  EntityAddress.make({
    entityType: EntityType.make("Workflow/tppkit/DailySweep"),
    entityId: EntityId.make(entityId),
    shardId: ShardId.make("default", 29)
  })

/** A wait for the reply of a request to an entity, as effect's engine registers one for its current run. */
const waitFor = (storage: MessageStorage.MessageStorage["Service"], entityId: string, requestId: number) =>
  storage.registerReplyHandler({
    _tag: "OutgoingRequest",
    envelope: { requestId: Snowflake.Snowflake(requestId), address: addressOf(entityId) },
    respond: () => Effect.void
  } as unknown as Parameters<MessageStorage.MessageStorage["Service"]["registerReplyHandler"]>[0])

const notAssigned = (exit: Exit.Exit<void, unknown> | undefined) =>
  exit !== undefined && Exit.isFailure(exit) && String(exit.cause).includes("EntityNotAssignedToRunner")

describe("leaveWaits (issue 42)", () => {
  db.liveSql(
    "ends the waits for a left run's replies, refuses new ones while its shard is lost, and spares other entities",
    Effect.gen(function* () {
      const storage = yield* MessageStorage.MessageStorage
      let lost = true
      const waiting = yield* Effect.forkChild(waitFor(storage, "2026-11-02", 1), { startImmediately: true })
      const other = yield* Effect.forkChild(waitFor(storage, "2026-11-03", 2), { startImmediately: true })
      yield* MessageStorageLayer.leaveWaits(storage, addressOf("2026-11-02"), () => lost)
      // the wait begun before the run was left ends as effect's release would end it
      assert.isTrue(notAssigned(yield* Fiber.await(waiting)))
      // one begun after, while the shard is still lost, ends at once
      assert.isTrue(notAssigned(yield* Effect.exit(waitFor(storage, "2026-11-02", 3))))
      // another entity's wait goes on
      assert.isUndefined(other.pollUnsafe())
      // the shard held again: a wait is a wait again
      lost = false
      const again = yield* Effect.forkChild(waitFor(storage, "2026-11-02", 4), { startImmediately: true })
      yield* Effect.yieldNow
      assert.isUndefined(again.pollUnsafe())
      // effect's own release of a request's waits still reaches them through the fleet's storage
      yield* storage.unregisterReplyHandler(Snowflake.Snowflake(4))
      assert.isTrue(notAssigned(yield* Fiber.await(again)))
      yield* Fiber.interrupt(other)
    }).pipe(Effect.provide(MessageStorageLayer.layer)),
    60_000
  )
})
