import { Budget } from "@tppkit/http"
import { Checks, Lifecycle, type Runner, type Sweep } from "@tppkit/worker"
import { type Duration, Effect, Exit, Fiber, Option, Schedule } from "effect"
import * as ShardId from "effect/cluster/ShardId"
import { Sharding } from "effect/cluster/Sharding"
import { SqlClient } from "effect/sql"

/**
 * Waits until every check planned by the sweep of `day` is finished somewhere in the fleet, asking the database
 * once a second while more than 200 are pending and every `poll` near the end (the count of pending checks is read
 * on a partial index, so it stays cheap; BENCHMARKS.md, "The `--once` tail").
 */
export const awaitDay = (day: string, poll: Duration.Input = "250 millis") =>
  Effect.gen(function* () {
    const checks = yield* Checks.Checks
    for (;;) {
      // the database away for a while (a restart) is waited for, as the workers' cluster waits for it
      const pending = yield* Effect.retry(checks.pending(day), { schedule: Schedule.spaced("1 second"), times: 120 })
      if (pending === 0) return
      yield* Effect.sleep(pending > 200 ? "1 second" : poll)
    }
  })

/**
 * The `--once` report's listing counts: the pages of the listings the day's checks were planned from (this run's
 * consents; a consent carried over from an earlier run counts none), and the unattended listing requests of the
 * sweep's consents counted today against the daily budget (every page and every try, failed ones included, by any
 * process of this client sharing the fleet's budget).
 */
export const listingCounts = (summary: Sweep.Summary, setup: Runner.Setup) =>
  Effect.gen(function* () {
    const pages = summary.consents.reduce((n, c) => n + (c.pages ?? 0), 0)
    const keys = new Set(summary.consents.map((c) => c.consent))
    const usages = yield* Effect.orElseSucceed((yield* Budget.Budget).usages, () => [])
    const requests = usages
      .filter((u) => {
        const parts = Budget.parseConsentKey(u.consentKey)
        return parts !== undefined && parts.clientId === setup.bankSettings.clientId && keys.has(parts.consent)
      })
      .reduce((n, u) => n + u.used, 0)
    return { pages, requests }
  })

/**
 * Tells the listeners how many of the fleet's shards this worker holds, whenever that changes (read every second),
 * and when it lost them: a second that lasted longer than its shard locks (the process was paused or stalled, so its
 * locks expired and other workers took its shards over) calls `onPause` with how long it was away.
 */
export const watchShards = (total: number, lockMillis: number, onPause: (millis: number) => Effect.Effect<void>) =>
  Effect.gen(function* () {
    const sharding = yield* Sharding
    const ids = Array.from({ length: total }, (_, i) => ShardId.make("default", i + 1))
    let held = -1
    let last = Date.now()
    for (;;) {
      const now = Date.now()
      const away = now - last
      last = now
      if (away > lockMillis && held > 0) {
        yield* Lifecycle.emit({ _tag: "ShardsLost", held, pausedMillis: away })
        yield* onPause(away)
      }
      const count = ids.filter((id) => sharding.hasShardId(id)).length
      if (count !== held) {
        if (count === 0 && held > 0 && away <= lockMillis) {
          yield* Lifecycle.emit({ _tag: "ShardsLost", held, pausedMillis: undefined })
        }
        held = count
        yield* Lifecycle.emit({ _tag: "ShardsHeld", count, total })
      }
      yield* Effect.sleep("1 second")
    }
  })

/**
 * Tells the listeners when the fleet's database stops answering this worker (a query without an answer within 3 s,
 * or failing) and when it answers again, with how long it was away (asked every second, one query at a time: a
 * frozen server holds one of the worker's connections, not one per second).
 */
export const watchDatabase = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  let downSince: number | undefined
  const down = (cause: string) =>
    downSince === undefined
      ? Effect.andThen(
          Effect.sync(() => {
            downSince = Date.now()
          }),
          Lifecycle.emit({ _tag: "DatabaseUnreachable", cause })
        )
      : Effect.void
  for (;;) {
    const ping = yield* Effect.forkChild(Effect.exit(sql`SELECT 1`))
    const answered = yield* Effect.timeoutOption(Fiber.join(ping), "3 seconds")
    if (Option.isNone(answered)) yield* down("no answer within 3 s")
    const exit = Option.isSome(answered) ? answered.value : yield* Fiber.join(ping)
    if (Exit.isFailure(exit)) {
      yield* down(Lifecycle.causeText(exit.cause) ?? "the query failed")
    } else if (downSince !== undefined) {
      yield* Lifecycle.emit({ _tag: "DatabaseBack", afterMillis: Date.now() - downSince })
      downSince = undefined
    }
    yield* Effect.sleep("1 second")
  }
})
