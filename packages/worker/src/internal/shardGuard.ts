/**
 * A sweep workflow's run left to its shard's next owner once this runner loses the shard. Effect's cluster stops
 * a lost shard's entities before it may take the shard again, and a workflow's run is uninterruptible: a run waiting
 * for a message of its own shard (the day's run for its consents' results, a consent's run for its activity's reply)
 * waits for good, since a lost shard's messages are no longer read, and the shard is never taken back. The run is
 * abandoned instead (effect's cluster abandonment: no reply stored, the owner replays it from its journal). A run that
 * ends while its shard is lost, abandoned here or interrupted by effect's forced release, also leaves the waits for
 * its entity's replies (internal/messageStorage.leaveWaits): effect's engine answers a `resume` by waiting,
 * uninterruptible, for the current run's reply, which a left run never saves, and the shard's release waits for that
 * `resume` (issue 42).
 */
import { Duration, Effect, Option } from "effect"
import { ClusterSchema, Entity, MessageStorage } from "effect/cluster"
import { Sharding } from "effect/cluster/Sharding"
import { leaveWaits } from "./messageStorage.ts"

/** How often a running sweep workflow checks that this runner still owns its shard. */
export const checkEvery: Duration.Duration = Duration.millis(500)

/** Runs a workflow's body, abandoning the run as soon as this runner no longer owns the workflow's shard. */
export const abandonOnShardLoss = <A, E, R>(body: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.gen(function* () {
    const address = yield* Effect.serviceOption(Entity.CurrentAddress)
    const sharding = yield* Effect.serviceOption(Sharding)
    // outside a cluster entity (a workflow engine in memory) there is no shard to lose
    if (Option.isNone(address) || Option.isNone(sharding)) return yield* body
    const shardId = address.value.shardId
    const lost = Effect.gen(function* () {
      while (sharding.value.hasShardId(shardId)) yield* Effect.sleep(checkEvery)
      return yield* Effect.withFiber<never>((fiber) => {
        fiber.interruptUnsafe(fiber.id, ClusterSchema.Abandon.annotation)
        return Effect.interruptible(Effect.never)
      })
    })
    const storage = yield* Effect.serviceOption(MessageStorage.MessageStorage)
    const stillLost = () => !sharding.value.hasShardId(shardId)
    return yield* Effect.raceFirst(Effect.interruptible(body), Effect.interruptible(lost)).pipe(
      Effect.onExit(() =>
        Option.isSome(storage) && stillLost() ? leaveWaits(storage.value, address.value, stillLost) : Effect.void
      )
    )
  })
