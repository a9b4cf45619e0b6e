import { assert, describe, it } from "@effect/vitest"
import { Checks, Database, Fleet, FundsCheckWorkflow, Sweep } from "@tppkit/worker"
import { BigDecimal, Context, Deferred, Effect, Fiber, Layer, Option, Redacted, Ref, References, Result } from "effect"
import { RunnerAddress, ShardId } from "effect/cluster"
import { Sharding } from "effect/cluster/Sharding"
import { SqlClient } from "effect/sql"
import { runnerOf } from "./fleet.ts"
import { embeddedDb } from "./pg.ts"
import { listedOrder } from "./support.ts"

const db = embeddedDb()

const orders = Array.from({ length: 40 }, (_, i) =>
  listedOrder(`SO-${String(i).padStart(2, "0")}`, `2026-10-0${2 + (i % 3)}`, { value: `${10 + i}.50` })
)

/** Twenty-four consents, c00 to c23. */
const consents24 = Array.from({ length: 24 }, (_, i) => ({ key: `c${String(i).padStart(2, "0")}` }))

/** The database sessions holding runners' shard locks (advisory locks of each runner's pool, named after it). */
const lockSessions = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql<{ pid: number; runner: string }>`SELECT DISTINCT l.pid, a.application_name AS runner FROM pg_locks l
    JOIN pg_stat_activity a ON a.pid = l.pid
    WHERE l.locktype = 'advisory' AND a.application_name LIKE 'tppkit runner%'`
)

describe("Fleet.cluster (one runner on PostgreSQL)", () => {
  db.live(
    "a sweep checks every payment once, however often started; one stored message and reply per request",
    (url) =>
      Effect.gen(function* () {
        const sent = yield* Ref.make(0)
        const runner = runnerOf(
          url,
          [{ key: "c1" }],
          () => Effect.succeed({ orders, pages: 1 }),
          (due) =>
            Effect.as(
              Ref.update(sent, (n) => n + 1),
              {
                answer: BigDecimal.isLessThan(due.amount, BigDecimal.fromBigInt(30n))
                  ? ("APPR" as const)
                  : ("DECL" as const),
                requestId: `req-${due.orderId}`
              }
            )
        )
        const result = yield* Effect.gen(function* () {
          const checks = yield* Checks.Checks
          const summary = yield* Sweep.sweepNow("2026-11-02")
          while ((yield* checks.pending("2026-11-02")) > 0) yield* Effect.sleep("100 millis")
          // the same day's sweep again: the same workflow, nothing new is started or sent
          const again = yield* Sweep.sweepNow("2026-11-02")
          // starting checked payments again, and a new one three times at once (one batch of requests holding
          // duplicates of stored messages and of each other): one more check in all
          const planned = yield* checks.planned("2026-11-02", "c1")
          const extra = { ...planned[0]!, orderId: "SO-EXTRA" }
          yield* Effect.forEach(
            [...planned.slice(0, 5), extra, ...planned.slice(0, 5), extra, extra],
            (due) => FundsCheckWorkflow.FundsCheck.execute(due, { discard: true }),
            { concurrency: "unbounded", discard: true }
          )
          while ((yield* checks.pending("2026-11-02")) > 0) yield* Effect.sleep("100 millis")
          // a workflow's own reply is stored just after its check is recorded
          const sql = yield* SqlClient.SqlClient
          const unprocessed = sql<{ n: number }>`SELECT count(*)::int AS n FROM cluster_messages
              WHERE entity_type = 'Workflow/tppkit/FundsCheck' AND NOT processed`
          while (((yield* unprocessed)[0]?.n ?? 0) > 0) yield* Effect.sleep("100 millis")
          yield* Effect.sleep("300 millis")
          const messages = yield* sql<{ tag: string; n: number; processed: number }>`
            SELECT tag, count(*)::int AS n, count(*) FILTER (WHERE processed)::int AS processed
              FROM cluster_messages WHERE entity_type = 'Workflow/tppkit/FundsCheck' GROUP BY tag ORDER BY tag`
          const [replies] = yield* sql<{ n: number; unmatched: number }>`
            SELECT count(*)::int AS n,
                   count(*) FILTER (WHERE NOT EXISTS (
                     SELECT 1 FROM cluster_messages m WHERE m.id = r.request_id AND m.last_reply_id = r.id))::int
                     AS unmatched
              FROM cluster_replies r
             WHERE r.request_id IN (SELECT id FROM cluster_messages WHERE entity_type = 'Workflow/tppkit/FundsCheck')`
          return { summary, again, counts: yield* checks.summary("2026-11-02"), messages, replies }
        }).pipe(Effect.provide(runner), Effect.provideService(References.MinimumLogLevel, "Warn"))
        assert.deepStrictEqual(result.summary, {
          day: "2026-11-02",
          consents: [{ consent: "c1", planned: 40, pages: 1 }],
          rerun: false
        })
        assert.deepStrictEqual(result.again, result.summary)
        assert.deepStrictEqual(result.counts, {
          checks: 41,
          APPR: 21,
          DECL: 20,
          failed: 0,
          pending: 0,
          repeated: 0,
          requests: 41,
          unconfirmed: 0
        })
        assert.strictEqual(yield* Ref.get(sent), 41)
        // one persisted request and one final reply per payment: the balance check is journaled by the check store,
        // not as an activity of the cluster
        assert.deepStrictEqual(result.messages, [{ tag: "run", n: 41, processed: 41 }])
        assert.deepStrictEqual(result.replies, { n: 41, unmatched: 0 })
      }),
    60_000
  )
})

describe("Fleet.network", () => {
  it("keeps loopback for a database on loopback, asks for a runner host otherwise, and TLS beyond loopback", () => {
    const tls = { cert: "c", key: Redacted.make("k"), ca: "a" }
    for (const host of ["127.0.0.1", "localhost", "::1", "127.0.1.1"]) {
      assert.deepStrictEqual(
        Result.map(Fleet.network(host, {}), (n) => n.runnerHost),
        Result.succeed("127.0.0.1")
      )
    }
    const elsewhere = Fleet.network("10.0.0.5", {})
    assert.isTrue(Result.isFailure(elsewhere) && elsewhere.failure.reason === "network")
    const plain = Fleet.network("10.0.0.5", { runnerHost: "10.0.0.6" })
    assert.isTrue(Result.isFailure(plain) && /--runner-tls-cert/.test(plain.failure.message))
    const ok = Fleet.network("10.0.0.5", { runnerHost: "10.0.0.6", tls })
    assert.isTrue(Result.isSuccess(ok) && ok.success.runnerHost === "10.0.0.6")
    // loopback runners of a remote database (one machine, tunnelled database) need no TLS
    assert.isTrue(Result.isSuccess(Fleet.network("10.0.0.5", { runnerHost: "127.0.0.1" })))
  })

  it("registers the runner host and binds the listen address", () => {
    const config = Fleet.shardingConfig({}, 7400, { host: "10.0.0.6", listen: "0.0.0.0", shards: 60 })
    assert.strictEqual(String(config.runnerAddress), String(Option.some(RunnerAddress.make("10.0.0.6", 7400))))
    assert.strictEqual(String(config.runnerListenAddress), String(Option.some(RunnerAddress.make("0.0.0.0", 7400))))
    assert.strictEqual(config.shardsPerGroup, 60)
  })
})

describe("the sweep spread over the workers (issue 43)", () => {
  db.live(
    "two runners list a day's consents together: each consent once, on both runners, several at once",
    (url) =>
      Effect.gen(function* () {
        const consents = consents24
        const listed: Array<{ readonly runner: string; readonly consent: string }> = []
        let inFlight = 0
        let most = 0
        const runner = (name: string) =>
          runnerOf(url, consents, (consent) =>
            Effect.gen(function* () {
              inFlight++
              most = Math.max(most, inFlight)
              listed.push({ runner: name, consent: consent.key })
              yield* Effect.sleep("150 millis")
              inFlight--
              return { orders: orders.slice(0, 2), pages: 1 }
            })
          )
        // the second runner joins and holds its shards while the first sweeps
        const second = yield* Effect.forkChild(Effect.provide(Effect.never, Layer.fresh(runner("b"))))
        const summary = yield* Effect.gen(function* () {
          const checks = yield* Checks.Checks
          // both runners hold shards before the day's run starts
          while (new Set((yield* lockSessions).map((s) => s.runner)).size < 2) yield* Effect.sleep("200 millis")
          const summary = yield* Sweep.sweepNow("2026-11-02")
          while ((yield* checks.pending("2026-11-02")) > 0) yield* Effect.sleep("100 millis")
          return summary
        }).pipe(Effect.provide(Layer.fresh(runner("a"))), Effect.provideService(References.MinimumLogLevel, "Warn"))
        yield* Fiber.interrupt(second)
        assert.deepStrictEqual(
          summary.consents.map((c) => c.consent),
          consents.map((c) => c.key)
        )
        assert.isTrue(summary.consents.every((c) => c.failure === undefined))
        // each consent listed once in the fleet, some on each runner, and more than one at a time
        assert.deepStrictEqual(listed.map((l) => l.consent).sort(), consents.map((c) => c.key).sort())
        const byRunner = new Set(listed.map((l) => l.runner))
        assert.deepStrictEqual([...byRunner].sort(), ["a", "b"])
        assert.isAbove(most, 1)
      }),
    90_000
  )
})

describe("a runner that loses its shard locks mid-sweep (issue 43)", () => {
  db.live(
    "takes every shard back and finishes the sweep: no run of the sweep holds its lost shard",
    (url) =>
      Effect.gen(function* () {
        const consents = consents24
        let listed = 0
        const runner = runnerOf(url, consents, () =>
          Effect.as(
            Effect.andThen(
              Effect.sleep("2 seconds"),
              Effect.sync(() => listed++)
            ),
            { orders: orders.slice(0, 2), pages: 1 }
          )
        )
        const result = yield* Effect.gen(function* () {
          const checks = yield* Checks.Checks
          const sql = yield* SqlClient.SqlClient
          const sweep = yield* Effect.forkChild(Sweep.sweepNow("2026-11-02"))
          // the first eight listings done, the next eight halfway
          while (listed < 8) yield* Effect.sleep("20 millis")
          yield* Effect.sleep("1 second")
          // the session holding the runner's shard locks ends (a database restart, a dropped connection): every
          // shard is lost at once while the day's run waits for its consents and the consents for their listings
          const sessions = yield* lockSessions
          assert.isAbove(sessions.length, 0)
          for (const s of sessions) yield* sql`SELECT pg_terminate_backend(${s.pid})`
          // before: the day's run on its shard (default:29) waited for good and that shard was never taken back
          const summary = yield* Effect.timeoutOption(Fiber.join(sweep), "45 seconds")
          if (Option.isSome(summary)) {
            while ((yield* checks.pending("2026-11-02")) > 0) yield* Effect.sleep("100 millis")
          }
          const [unread] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM cluster_messages
            WHERE NOT processed AND entity_type <> 'Workflow/tppkit/DailySweep'`
          return { summary, unread: unread?.n, counts: yield* checks.summary("2026-11-02") }
        }).pipe(Effect.provide(runner), Effect.provideService(References.MinimumLogLevel, "None"))
        assert.isTrue(Option.isSome(result.summary), "the sweep did not finish after the runner lost its shards")
        const summary = Option.getOrThrow(result.summary)
        assert.deepStrictEqual(
          summary.consents.map((c) => c.consent),
          consents.map((c) => c.key)
        )
        assert.isTrue(summary.consents.every((c) => c.failure === undefined && c.planned === 2))
        assert.strictEqual(result.unread, 0)
        assert.strictEqual(result.counts.checks, 48)
        assert.strictEqual(result.counts.pending, 0)
      }),
    90_000
  )
})

describe("a runner that takes its shards back while their claims cannot be reset (issue 42)", () => {
  db.live(
    "delivers the runs it had claimed again: the day's checks finish, none is left claimed for ten minutes",
    (url) =>
      Effect.gen(function* () {
        const runner = runnerOf(
          url,
          [{ key: "c1" }],
          () => Effect.succeed({ orders, pages: 1 }),
          () => Effect.as(Effect.sleep("100 millis"), { answer: "APPR" as const, requestId: "r" }),
          {
            // two checks at a time: the others wait, claimed by the runner, when it loses its shards
            checksInFlight: 2,
            // locks refreshed every second, a refresh given up after one
            cluster: { shardLockExpiration: "3 seconds" }
          }
        )
        // the test's own connections: a transaction holding the runs' rows, and the look-ups
        const own = yield* Layer.build(Database.layer(url, { maxConnections: 2 }))
        const sql = Context.get(own, SqlClient.SqlClient)
        const result = yield* Effect.gen(function* () {
          const checks = yield* Checks.Checks
          const sharding = yield* Sharding
          const holds = Effect.sync(() =>
            Array.from({ length: Fleet.shardsPerGroup }, (_, i) => ShardId.make("default", i + 1)).some((id) =>
              sharding.hasShardId(id)
            )
          )
          yield* Sweep.sweepNow("2026-11-02")
          const done = sql<{ n: number }>`SELECT count(*)::int AS n FROM tppkit_checks WHERE outcome IS NOT NULL`
          while (((yield* done)[0]?.n ?? 0) < 6) yield* Effect.sleep("20 millis")
          // the runs not yet finished (claimed, waiting for a slot) held by a transaction of the test: the reset of
          // their claims, when the runner takes their shards back, waits for it past effect's lock interval, which
          // cuts the reset off (as a database just back from an outage, slow or failing, does)
          const release = yield* Deferred.make<void>()
          const holding = yield* Deferred.make<number>()
          const holder = yield* Effect.forkChild(
            sql
              .withTransaction(
                Effect.gen(function* () {
                  const rows = yield* sql`SELECT id FROM cluster_messages
                    WHERE NOT processed AND entity_type = 'Workflow/tppkit/FundsCheck' FOR KEY SHARE`
                  yield* Deferred.succeed(holding, rows.length)
                  yield* Deferred.await(release)
                })
              )
              .pipe(Effect.orDie)
          )
          const held = yield* Deferred.await(holding)
          // the session holding the runner's shard locks stalls (stopped) past a lock refresh: effect finds its
          // lock storage unhealthy and force-releases every shard, then takes them back once the session answers
          const [session] = yield* sql<{ pid: number }>`SELECT DISTINCT l.pid FROM pg_locks l
            JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND a.application_name LIKE 'tppkit runner%'`
          assert.isDefined(session)
          process.kill(session?.pid ?? 0, "SIGSTOP")
          yield* Effect.ensuring(
            Effect.gen(function* () {
              for (let i = 0; i < 200 && (yield* holds); i++) yield* Effect.sleep("50 millis")
            }),
            Effect.sync(() => process.kill(session?.pid ?? 0, "SIGCONT"))
          )
          const lost = !(yield* holds)
          // taken back: effect marks a shard held only after its reset returned or was cut off
          for (let i = 0; i < 200 && !(yield* holds); i++) yield* Effect.sleep("50 millis")
          yield* Deferred.succeed(release, undefined)
          yield* Fiber.join(holder)
          // before: the claimed runs were read again only ten minutes later, and the day never finished
          const finished = yield* Effect.timeoutOption(
            Effect.gen(function* () {
              while ((yield* checks.pending("2026-11-02")) > 0) yield* Effect.sleep("100 millis")
            }),
            "20 seconds"
          )
          // the runs still unprocessed with a claim: read by no one until their claim is ten minutes old
          const [claimed] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM cluster_messages
            WHERE NOT processed AND last_read IS NOT NULL`
          return {
            held,
            lost,
            finished: Option.isSome(finished),
            claimed: claimed?.n,
            counts: yield* checks.summary("2026-11-02")
          }
        }).pipe(Effect.provide(runner), Effect.provideService(References.MinimumLogLevel, "None"))
        assert.isAbove(result.held, 0)
        assert.isTrue(result.lost, "the runner did not lose its shards")
        assert.isTrue(
          result.finished,
          `the day's checks did not finish: ${result.claimed} runs left claimed, ${JSON.stringify(result.counts)}`
        )
        assert.strictEqual(result.counts.checks, 40)
        assert.strictEqual(result.counts.pending, 0)
      }),
    60_000
  )
})
