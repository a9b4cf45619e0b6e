/**
 * The fleet's daily sweep through faults (issue 25, the sweep side): `tppkit worker --once` processes on one
 * embedded PostgreSQL against the mock bank. Counted at the bank (its journal): shards moving during a slow
 * listing (a worker joining, the worker that lists killed) do not cost the day, the pages already fetched are never
 * fetched again, and the budget stays within its 4 unattended calls.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Fixtures, type Journal } from "@tppkit/sandbox"
import { EmbeddedDb } from "@tppkit/worker"
import * as Database from "@tppkit/worker/Database"
import { Effect, Exit, Redacted, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { embeddedDb } from "../worker/pg.ts"
import { type BankInfo, delayed, mockBank, setFaults, until, workerEnv } from "./fleetSupport.ts"
import { type Run, tppkit, workerOnce } from "./harness.ts"
import { expectedChecks, keysOf } from "./plan.ts"

const db = embeddedDb()
const day = "2026-11-02"

const bankScope = Scope.makeUnsafe()
afterAll(() => Effect.runPromise(Scope.close(bankScope, Exit.void)))

/** The one number a query returns (0 when it fails, e.g. before the table exists). */
const count = (url: Redacted.Redacted<string>, text: string): Promise<number> =>
  Effect.runPromise(
    Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql.unsafe<{ n: number }>(text)).pipe(
      Effect.map((rows) => Number(rows[0]?.n ?? 0)),
      Effect.provide(Database.layer(url, { maxConnections: 1 })),
      Effect.scoped,
      Effect.orElseSucceed(() => 0)
    )
  )

/** The unattended listing requests the bank received (no customer present), in order of arrival. */
const unattendedListings = (journal: Journal.Journal["Service"]) =>
  journal
    .entriesUnsafe()
    .filter((e) => e.path.endsWith("/standingOrder") && e.headers["psu-last-logged-time"] === undefined)

/** The pages those requests asked for. */
const pagesOf = (journal: Journal.Journal["Service"]) =>
  unattendedListings(journal).map((e) => (JSON.parse(e.body) as { page?: number }).page ?? 0)

const last = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}")

/** `worker status --format json` of the fleet's database. */
const statusOf = async (url: Redacted.Redacted<string>) => {
  const status = await tppkit(["worker", "status", "--database-url", Redacted.value(url), "--format", "json"])
  assert.strictEqual(status.code, 0, status.stderr)
  return JSON.parse(status.stdout) as {
    checks: Array<{ orderId: string; nominalDate: string; outcome: string; attempts: number }>
    budget: Array<{ used: number; limit: number }>
  }
}

/**
 * The worker that stayed ended with the day's sweep complete and nothing unanswered, and every due payment was
 * planned and answered: the plan of what the bank lists, for the day. Its summary and the fleet's status.
 */
const sweptTheDay = async (done: Run, url: Redacted.Redacted<string>, info: BankInfo) => {
  assert.strictEqual(done.code, 0, done.stderr)
  const summary = last(done.stdout)
  assert.strictEqual(summary.sweep, "complete")
  assert.strictEqual(summary.unanswered, 0)
  const document = await statusOf(url)
  assert.deepStrictEqual(keysOf(document.checks), keysOf(await expectedChecks(info, day)))
  return { summary, document }
}

/** The listing's pages asked (`sent`): page 0 once, at most 4 requests. */
const listedOnce = (sent: ReadonlyArray<number>) => {
  assert.strictEqual(sent.filter((p) => p === 0).length, 1, `pages asked: ${sent.join(", ")}`)
  assert.isAtMost(sent.length, 4, `pages asked: ${sent.join(", ")}`)
}

describe("the daily sweep while shards move", () => {
  it("a worker joins and the listing worker is killed mid-listing: the day completes, pages never fetched twice, within budget", async () => {
    // every request takes 3 s: the listing (token, then 3 pages of 50) takes about 12 s
    const { info, journal } = await mockBank({ listingDay: Fixtures.baseDate, faults: delayed(3000) }, bankScope)
    const url = await Effect.runPromise(db.freshUrl())
    const env = workerEnv(info, {
      TPPKIT_WORKER_LOCK_EXPIRATION_MS: "6000",
      TPPKIT_WORKER_PAGE_SIZE: "50",
      TPPKIT_WORKER_SWEEP_BACKOFF_MS: "500"
    })
    const args = workerOnce(Redacted.value(url), info, day)
    const listed = () => unattendedListings(journal)
    const pages = () => pagesOf(journal)

    let first = 0
    const a = tppkit(args, { env, timeoutMs: 150_000, onSpawn: (pid) => (first = pid) })
    // page 2 of 3 has reached the bank (it answers 3 s later): the listing is half done
    await until(() => pages().includes(1), "page 1 of the listing")
    // a second worker joins the fleet: the shards are balanced between the two
    const b = tppkit(args, { env, timeoutMs: 150_000 })
    await until(
      async () =>
        pages().includes(2) || (await count(url, "SELECT count(*)::int AS n FROM cluster_runners WHERE healthy")) >= 2,
      "the second worker in the fleet"
    )
    // the first worker dies without a word while its listing is in flight
    process.kill(first, "SIGKILL")
    const killed = await a
    assert.notStrictEqual(killed.code, 0)
    // the last page has reached the bank: the checks need no delay
    await until(() => pages().includes(2), "page 2 of the listing")
    await setFaults(info.baseUrl, { rate: 0 })
    const { summary, document } = await sweptTheDay(await b, url, info)
    assert.strictEqual(summary.checks, document.checks.length)
    assert.isAbove(document.checks.length, 50)
    for (const c of document.checks) assert.include(["APPR", "DECL", "failed"], c.outcome)

    // counted at the bank: no page fetched twice but the one in flight when its worker died, at most 4 listing
    // requests, none refused for the daily limit, and the budget counts every one that reached it
    const sent = pages()
    listedOnce(sent)
    assert.deepStrictEqual([...new Set(sent)].sort(), [0, 1, 2])
    assert.isFalse(
      listed().some((e) => e.status === 429),
      "the bank refused a listing"
    )
    assert.strictEqual(document.budget.length, 1)
    assert.isAtMost(document.budget[0]?.used ?? 99, 4)
    assert.isAtLeast(document.budget[0]?.used ?? 0, sent.length)
    // the report says the same: the listing's pages, the listing requests the budget counts, the balance checks sent
    assert.deepStrictEqual(summary.listing, { pages: 3, requests: document.budget[0]?.used })
    assert.strictEqual(
      summary.requests,
      document.checks.reduce((n, c) => n + c.attempts, 0)
    )
  }, 180_000)
})

describe("the daily sweep while the fleet's database restarts", () => {
  it("PostgreSQL stopped for a few seconds during the listing: the sweep completes once it is back", async () => {
    const { info, journal } = await mockBank({ listingDay: Fixtures.baseDate, faults: delayed(1500) }, bankScope)
    // a server of its own, stopped and started again on the same data directory and port
    const dataDir = mkdtempSync(join(tmpdir(), "tppkit-sweep-db-"))
    const port = await Effect.runPromise(EmbeddedDb.freePort)
    const startDb = async () => {
      const scope = Scope.makeUnsafe()
      const running = await Effect.runPromise(Scope.provide(EmbeddedDb.start({ dataDir, port }), scope))
      return { url: running.url, stop: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
    }
    let server = await startDb()
    try {
      const url = server.url
      const env = workerEnv(info, { TPPKIT_WORKER_PAGE_SIZE: "50", TPPKIT_WORKER_SWEEP_BACKOFF_MS: "500" })
      const args = workerOnce(Redacted.value(url), info, day)
      const pages = () => pagesOf(journal)
      const worker = tppkit(args, { env, timeoutMs: 150_000 })
      // the listing's first page has reached the bank: the database goes away for a few seconds
      await until(() => pages().length > 0, "the first page of the listing")
      await server.stop()
      await new Promise((r) => setTimeout(r, 3000))
      server = await startDb()
      await setFaults(info.baseUrl, { rate: 0 })
      const { document } = await sweptTheDay(await worker, url, info)
      listedOnce(pages())
      assert.isAtMost(document.budget[0]?.used ?? 99, 4)
    } finally {
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 180_000)
})
