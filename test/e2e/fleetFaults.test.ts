/**
 * The fleet keeps its word under faults (issue 42): `tppkit worker` processes on one embedded PostgreSQL server of
 * this file (a fresh database per case) against the mock bank, the bank's journal the witness of what reached it
 * and the due payments computed by the engine from a listing with the customer present. The database server frozen
 * (its postmaster and every backend stopped with SIGSTOP, as a stalled disk or a paused VM) while a listing is read
 * and while the checks are sent, or killed (SIGKILL, then started again on the same data directory); workers paused
 * past their shard locks on 4-page listings; a connection dropped on page 2 of 4 with the day before's listing kept;
 * the bank's process restarted during a listing; a wrong client secret. Outages of seconds, locks of 4 s.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { BankClient } from "@tppkit/http"
import { Fixtures, Journal, Sandbox, SandboxClock } from "@tppkit/sandbox"
import { Database, EmbeddedDb, Listings } from "@tppkit/worker"
import { Context, DateTime, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { type BankInfo, clientOf, delayed, setFaults, until, workerEnv } from "./fleetSupport.ts"
import { start, tppkit, workerOnce } from "./harness.ts"
import { expectedChecks } from "./plan.ts"

const day = "2026-11-02"
const bankScope = Scope.makeUnsafe()
afterAll(() => Effect.runPromise(Scope.close(bankScope, Exit.void)))

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

type Entry = Pick<Journal.Entry, "path" | "headers" | "body">

/** The unattended listing requests the bank received (no customer present), in order of arrival: their pages. */
const pagesOfEntries = (entries: ReadonlyArray<Entry>) =>
  entries
    .filter((e) => e.path.endsWith("/standingOrder") && e.headers["psu-last-logged-time"] === undefined)
    .map((e) => (JSON.parse(e.body) as { page?: number }).page ?? 0)
const pagesOf = (journal: Journal.Journal["Service"]) => pagesOfEntries(journal.entriesUnsafe())

/** The balance-check requests the bank received. */
const balanceChecksOf = (journal: Journal.Journal["Service"]) =>
  journal.entriesUnsafe().filter((e) => e.path.endsWith("/balanceCheck")).length

/** What the bank lists for `on`, as the sweep plans it: the keys of the checks due. */
const expectedPlan = async (info: BankInfo, on = day, bankTime?: number) =>
  (await expectedChecks(info, on, bankTime)).map((p) => `${p.orderId}/${p.nominalDate}`)

/**
 * The file's PostgreSQL server, on a data directory and port that survive its restarts: a fresh database per case,
 * and the server's processes to freeze or kill.
 */
const server = (() => {
  const dataDir = mkdtempSync(join(tmpdir(), "tppkit-faults-db-"))
  let port = 0
  let scope = Scope.makeUnsafe()
  let url: Redacted.Redacted<string> | undefined
  let databases = 0
  const startDb = async () => {
    scope = Scope.makeUnsafe()
    url = (await Effect.runPromise(Scope.provide(EmbeddedDb.start({ dataDir, port }), scope))).url
  }
  beforeAll(async () => {
    port = await Effect.runPromise(EmbeddedDb.freePort)
    await startDb()
  }, 90_000)
  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    rmSync(dataDir, { recursive: true, force: true })
  }, 60_000)
  /** Runs a statement on a database of the server: its rows. */
  const run = <A extends object = Record<string, unknown>>(on: Redacted.Redacted<string>, statement: string) =>
    Effect.runPromise(
      Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql.unsafe<A>(statement)).pipe(
        Effect.provide(Database.layer(on, { maxConnections: 1 })),
        Effect.scoped
      )
    )
  /** The postmaster's process id (the first line of its lock file). */
  const postmaster = () => Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0])
  /** The postmaster and every process it started (its backends), as a stalled machine stops them all. */
  const processes = () => {
    const root = postmaster()
    const children = readdirSync("/proc")
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          const stat = readFileSync(`/proc/${p}/stat`, "utf8")
          return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === root
        } catch {
          return false
        }
      })
      .map(Number)
    return [root, ...children]
  }
  return {
    /** A new empty database of the server. */
    fresh: async () => {
      if (url === undefined) throw new Error("the test PostgreSQL has not started")
      const name = `faults_${databases++}`
      await run(url, `CREATE DATABASE ${name}`)
      return Redacted.make(Redacted.value(url).replace(/\/postgres$/, `/${name}`))
    },
    run,
    postmaster,
    freeze: () => {
      const all = processes()
      for (const pid of all) process.kill(pid, "SIGSTOP")
      return () => {
        for (const pid of all) process.kill(pid, "SIGCONT")
      }
    },
    restart: startDb
  }
})()

/**
 * A mock bank whose every answer is slowed down (a listing takes seconds), and the ways to fault it and to lift
 * that; on the sandbox clock `at` when given (moved a day by `nextDay`).
 */
const slowBank = async (options: { readonly delayMs?: number; readonly at?: number } = {}) => {
  const settings = {
    listingDay: Fixtures.baseDate,
    faults: delayed(options.delayMs ?? 1000)
  }
  const bank = await Effect.runPromise(
    Layer.buildWithScope(
      options.at === undefined
        ? Sandbox.layer(settings)
        : Sandbox.layerServer(settings).pipe(
            Layer.provideMerge(Layer.mergeAll(SandboxClock.SandboxClock.layerFixed(options.at), Journal.Journal.layer))
          ),
      bankScope
    )
  )
  const info = Context.get(bank, Sandbox.SandboxInfo)
  const journal = Context.get(bank, Journal.Journal)
  const faults = (json: object) => setFaults(info.baseUrl, json)
  return {
    info,
    journal,
    faults,
    lift: () => faults({ rate: 0 }),
    nextDay: () => Context.get(bank, SandboxClock.SandboxClock).adjustUnsafe(86_400_000)
  }
}

interface Status {
  readonly checks: Array<{ orderId: string; nominalDate: string; outcome: string; attempts: number }>
  readonly budget: Array<{ used: number; limit: number }>
}

/** The fleet's checks and budget, read from its tables (what `worker status` shows). */
const statusOf = async (url: Redacted.Redacted<string>): Promise<Status> => {
  const checks = await server.run<{ order_id: string; nominal_date: string; outcome: string; attempts: number }>(
    url,
    "SELECT order_id, nominal_date, outcome, attempts FROM tppkit_checks"
  )
  const budget = await server.run<{ used: number }>(url, "SELECT used FROM tppkit_budget")
  return {
    checks: checks.map((c) => ({
      orderId: c.order_id,
      nominalDate: c.nominal_date,
      outcome: c.outcome,
      attempts: Number(c.attempts)
    })),
    budget: budget.map((b) => ({ used: Number(b.used), limit: 4 }))
  }
}

const summaryOf = (run: { readonly stdout: string }) => JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}")

/**
 * What every case asserts once the day is done: every payment due checked, none invented, each page of the listing
 * asked for once and counted once (the budget equals the bank's count), and every balance check the bank saw
 * counted in `attempts` (exactly as often when no worker stopped mid-request).
 */
const keptItsWord = async (
  url: Redacted.Redacted<string>,
  bank: { readonly info: BankInfo; readonly journal: { readonly entriesUnsafe: () => ReadonlyArray<Entry> } },
  run: { readonly code: number | null; readonly stdout: string; readonly stderr: string },
  exact = true
) => {
  assert.strictEqual(run.code, 0, run.stderr)
  const summary = summaryOf(run)
  assert.strictEqual(summary.sweep, "complete")
  const document = await statusOf(url)
  assert.deepStrictEqual(
    document.checks.map((c) => `${c.orderId}/${c.nominalDate}`).sort(),
    (await expectedPlan(bank.info)).sort()
  )
  const entries = bank.journal.entriesUnsafe()
  const pages = pagesOfEntries(entries)
  assert.deepStrictEqual(pages, [...new Set(pages)], `pages asked: ${pages.join(", ")}`)
  assert.strictEqual(document.budget[0]?.used, pages.length)
  const requests = entries.filter((e) => e.path.endsWith("/balanceCheck")).length
  const attempts = document.checks.reduce((n, c) => n + c.attempts, 0)
  if (exact) assert.strictEqual(attempts, requests)
  else assert.isAtLeast(attempts, requests)
  return { summary, pages, checks: document.checks.length, requests }
}

const envOf = (info: BankInfo) =>
  workerEnv(info, {
    TPPKIT_WORKER_PAGE_SIZE: "50",
    TPPKIT_WORKER_SWEEP_BACKOFF_MS: "500",
    TPPKIT_WORKER_CHECK_BACKOFF_MS: "500"
  })

describe("the fleet under faults (the bank's journal the witness)", () => {
  it("the database server frozen (SIGSTOP of the postmaster and its backends) and killed (SIGKILL, started again on the same data directory) while a listing is read, and frozen again while the checks are sent", async () => {
    const bank = await slowBank()
    const url = await server.fresh()
    const worker = tppkit(workerOnce(Redacted.value(url), bank.info, day), {
      env: envOf(bank.info),
      timeoutMs: 150_000
    })
    await until(() => pagesOf(bank.journal).length > 0, "the first page of the listing")
    let thaw = server.freeze()
    await sleep(4000)
    thaw()
    // the next page on its way (each answer takes a second): the postmaster killed, then started again
    await until(() => pagesOf(bank.journal).length > 1, "the second page of the listing")
    process.kill(server.postmaster(), "SIGKILL")
    await sleep(1000)
    await server.restart()
    // the checks on their way: frozen again with some in flight
    await until(() => balanceChecksOf(bank.journal) > 0, "the first balance checks")
    thaw = server.freeze()
    await sleep(4000)
    thaw()
    await bank.lift()
    const run = await worker
    const seen = await keptItsWord(url, bank, run)
    // the worker's own lines say what happened, each time; effect's are below error
    assert.isAtLeast(run.stderr.match(/level=warn event=database_unreachable cause=/g)?.length ?? 0, 2, run.stderr)
    assert.isAtLeast(run.stderr.match(/level=info event=database_back after=\d+(\.\d)?s/g)?.length ?? 0, 2, run.stderr)
    assert.notMatch(run.stderr, /level=error event=log/)
    assert.match(run.stderr, /level=info event=run_finished .*repeated=0 .*unplanned=none/)
    console.log(`database faults: ${seen.checks} checks, pages ${seen.pages.join(",")}, ${seen.requests} requests`)
  }, 180_000)

  it("three workers on 4-page listings, two paused (SIGSTOP) past their shard locks with checks in flight: a --once one gives up or finishes, a long-running one rejoins", async () => {
    const bank = await slowBank()
    const url = await server.fresh()
    const env = { ...envOf(bank.info), TPPKIT_WORKER_PAGE_SIZE: "30", TPPKIT_WORKER_LOCK_EXPIRATION_MS: "4000" }
    const args = workerOnce(Redacted.value(url), bank.info, day)
    let onceId = 0
    const once = tppkit(args, { env, timeoutMs: 170_000, onSpawn: (pid) => (onceId = pid) })
    const other = tppkit(args, { env, timeoutMs: 170_000 })
    // a worker of the daily cron, joined with the sweep of the day (the same flags without --once)
    const longRunning = start(
      args.filter((a) => a !== "--once"),
      env
    )
    let longLines = ""
    longRunning.child.stderr?.on("data", (c: Buffer) => {
      longLines += c.toString("utf8")
    })
    try {
      // every page read (4 pages of 30) and balance checks on their way: two workers stop for two lock timeouts
      await until(
        () => pagesOf(bank.journal).length >= 4 && balanceChecksOf(bank.journal) > 0,
        "the listing read and the first balance checks sent"
      )
      const longId = longRunning.child.pid ?? 0
      process.kill(onceId, "SIGSTOP")
      process.kill(longId, "SIGSTOP")
      await sleep(9000)
      process.kill(onceId, "SIGCONT")
      process.kill(longId, "SIGCONT")
      await bank.lift()
      const [woken, finished] = await Promise.all([once, other])
      assert.strictEqual(finished.code, 0, finished.stderr)
      // the woken --once worker finishes, or gives up in one line within the lock timeout and a minute
      assert.include([0, 9], woken.code, woken.stderr)
      assert.isFalse(woken.timedOut)
      if (woken.code === 9)
        assert.match(woken.stderr, /this worker was paused for \d+ s and lost its shards; it gave up/)
      assert.match(woken.stderr, /event=shards_lost held=\d+ paused=\d+/)
      // every check finished by now: what the woken long-running worker does from here changes none of them
      const outcomes = async () =>
        (await statusOf(url)).checks.map((c) => `${c.orderId}/${c.nominalDate} ${c.outcome} ${c.attempts}`).sort()
      const finishedOutcomes = await outcomes()
      // the long-running one rejoins: it says it lost its shards, then holds the fleet's every shard once the others left
      await until(
        () => /event=shards_lost held=\d+ paused=[\s\S]*event=shards held=30 of=30/.test(longLines),
        "the woken long-running worker holding every shard",
        60_000
      )
      longRunning.child.kill("SIGTERM")
      const left = await longRunning.done
      assert.match(left.stderr, /event=left reason=stopped/, left.stderr)
      assert.notMatch(left.stderr, /level=error/, left.stderr)
      assert.deepStrictEqual(await outcomes(), finishedOutcomes)
      // checks that were waiting for a connection when their worker stopped count as sent (they may have been); none
      // is evaluated more often than attempts admit, and none is left without the bank's answer (a timeout of a woken
      // worker's never replaces one)
      const seen = await keptItsWord(url, bank, finished, false)
      assert.strictEqual(seen.pages.length, 4)
      assert.strictEqual(seen.summary.unanswered, 0)
      console.log(
        `paused workers: ${seen.checks} checks, pages ${seen.pages.join(",")}, ${seen.requests} requests, woken --once exit ${woken.code}`
      )
    } finally {
      if (longRunning.child.exitCode === null && longRunning.child.signalCode === null)
        longRunning.child.kill("SIGKILL")
    }
  }, 200_000)

  it("a connection dropped on page 2 of 4 with the day before's listing kept: 0 payments unplanned, the stand-ins say which listing", async () => {
    const first = "2026-11-01"
    // the bank's clock is the test's: a listing with the customer present is asked as of its time
    const now = Date.UTC(2026, 10, 2, 7)
    const bank = await slowBank({ delayMs: 0, at: now })
    await bank.lift()
    const url = await server.fresh()
    const env = {
      ...envOf(bank.info),
      TPPKIT_WORKER_PAGE_SIZE: "30",
      TPPKIT_WORKER_SWEEP_TRIES: "2"
    }
    // the day before's complete listing, kept as a worker keeps it (read here with the customer present: no budget)
    await Effect.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        for (const statement of Listings.ddl) yield* sql.unsafe(statement)
        const client = yield* BankClient.BankClient
        const listings = yield* Listings.Listings
        const id = Listings.listingId(bank.info.clientId, undefined, 30)
        const psu = { ipAddress: "127.0.0.1", deviceOs: "t", userAgent: "t", lastLoggedTime: DateTime.makeUnsafe(now) }
        for (let n = 0; ; n++) {
          const { body } = yield* client.standingOrdersPage({ psu, page: n, pageSize: 30 })
          yield* listings.keep(id, first, {
            page: n,
            pageCount: body.pageCount,
            records: body.orders.length + body.errors.filter((e) => e.index >= 0).length,
            orders: body.orders
          })
          if (n >= (body.pageCount ?? 0) - 1) break
        }
        yield* listings.complete(id, first)
      }).pipe(
        Effect.provide(Listings.Listings.layerSql),
        Effect.provide(clientOf(bank.info)),
        Effect.provide(Database.layer(url, { maxConnections: 1 })),
        Effect.scoped
      )
    )
    const kept = await server.run<{ page: number }>(url, "SELECT page FROM tppkit_listing_pages ORDER BY page")
    assert.deepStrictEqual(
      kept.map((r) => Number(r.page)),
      [0, 1, 2, 3]
    )
    const seenBefore = bank.journal.entriesUnsafe().length
    const today = () => pagesOfEntries(bank.journal.entriesUnsafe().slice(seenBefore))
    await bank.faults({ rate: 1, kinds: ["delay"], delayMs: 1000 })
    const worker = tppkit(workerOnce(Redacted.value(url), bank.info, day), { env, timeoutMs: 120_000 })
    await until(() => today().length >= 2, "page 1 of the day's listing asked for")
    // page 2 (the third) dropped, and dropped again when tried again: the day's 4 calls are spent
    await bank.faults({ rate: 1, kinds: ["reset"] })
    await until(() => today().length >= 4, "page 2 tried twice")
    await bank.lift()
    const run = await worker
    assert.strictEqual(run.code, 0, run.stderr)
    assert.deepStrictEqual(today(), [0, 1, 2, 2])
    const summary = summaryOf(run)
    assert.strictEqual(summary.sweep, "complete")
    assert.deepStrictEqual(
      { ...summary.partial?.[0], plannedFromEarlier: undefined },
      {
        consent: bank.info.clientId,
        pagesKept: 2,
        pagesUnread: [2, 3],
        plannedFrom: first,
        plannedFromEarlier: undefined
      }
    )
    // every payment due is checked, none invented; the stand-ins are listed with their listing's day
    const document = await statusOf(url)
    assert.deepStrictEqual(
      document.checks.map((c) => `${c.orderId}/${c.nominalDate}`).sort(),
      (await expectedPlan(bank.info, day, now)).sort()
    )
    const standIns = summary.listedOn as Array<{ orderId: string; listedOn: string; outcome: string | null }>
    assert.isAbove(standIns.length, 0)
    assert.strictEqual(standIns.length, summary.partial[0].plannedFromEarlier)
    for (const c of standIns) assert.strictEqual(c.listedOn, first)
    assert.strictEqual(document.budget[0]?.used, 4)
    assert.match(run.stderr, /level=warn event=listing_partial .*pages_kept=2 pages_unread=2 planned_from=2026-11-01/)
    assert.match(run.stderr, new RegExp(`event=run_finished .*stand_ins=${standIns.length} unplanned=none`))
    console.log(`stand-ins: ${standIns.length} of ${document.checks.length} checks planned from ${first}`)
  }, 180_000)

  it("the bank's process restarted (forgetting its tokens) while a listing is read: the page cut off asked again, counted", async () => {
    const port = await Effect.runPromise(EmbeddedDb.freePort)
    const sandbox = () => {
      const bank = start(["sandbox", "--port", String(port), "--listing-day", "2026-11-01", "--format", "json"], {})
      let out = ""
      bank.child.stdout?.on("data", (c: Buffer) => {
        out += c.toString("utf8")
      })
      return {
        bank,
        report: async () => {
          await until(() => out.includes("\n"), "the sandbox's report", 60_000)
          return JSON.parse(out.split("\n")[0] ?? "{}") as { baseUrl: string; clientId: string; clientSecret: string }
        }
      }
    }
    const journalOf = async (baseUrl: string): Promise<Array<Entry>> => {
      const text = await (await fetch(`${baseUrl}/__journal`)).text()
      const parsed = text.trim().startsWith("[")
        ? (JSON.parse(text) as Array<Entry>)
        : text
            .split("\n")
            .filter((l) => l.trim() !== "")
            .map((l) => JSON.parse(l) as Entry)
      return parsed
    }
    let running = sandbox()
    const report = await running.report()
    const info = {
      baseUrl: report.baseUrl,
      clientId: report.clientId,
      clientSecret: Redacted.make(report.clientSecret)
    }
    const slow = () =>
      fetch(`${info.baseUrl}/__faults`, {
        method: "PUT",
        body: JSON.stringify({ rate: 1, kinds: ["delay"], delayMs: 1000 })
      })
    assert.strictEqual((await slow()).status, 200)
    const url = await server.fresh()
    // pages of 100: a 2-page listing, so that page 1 asked again after the bank's 401 still fits the day's 4 calls
    const env = { ...envOf(info), TPPKIT_WORKER_PAGE_SIZE: "100" }
    const worker = tppkit(workerOnce(Redacted.value(url), info, day), { env, timeoutMs: 150_000 })
    // page 1 arrived and waits a second for its answer: the bank's process killed meanwhile (journaled on arrival)
    let before: Array<Entry> = []
    await until(async () => {
      before = await journalOf(info.baseUrl)
      return pagesOfEntries(before).length >= 2
    }, "page 1 asked for")
    running.bank.child.kill("SIGKILL")
    await running.bank.done
    running = sandbox()
    await running.report()
    const run = await worker
    const after = await journalOf(info.baseUrl)
    try {
      const entries = [...before, ...after]
      // page 1 cut off, then asked again with the old token (401: the bank forgot it) and with a new one
      assert.deepStrictEqual(pagesOfEntries(entries), [0, 1, 1, 1])
      assert.strictEqual(run.code, 0, run.stderr)
      const document = await statusOf(url)
      assert.deepStrictEqual(
        document.checks.map((c) => `${c.orderId}/${c.nominalDate}`).sort(),
        (await expectedPlan(info)).sort()
      )
      // every request the bank saw counted: the budget the pages, attempts the balance checks
      assert.strictEqual(document.budget[0]?.used, 4)
      assert.strictEqual(
        document.checks.reduce((n, c) => n + c.attempts, 0),
        entries.filter((e) => e.path.endsWith("/balanceCheck")).length
      )
    } finally {
      running.bank.child.kill("SIGTERM")
      await running.bank.done
    }
  }, 180_000)

  it("the bank failing every listing page after the first, no complete listing kept: page 0's payments planned, the rest named, exit 9", async () => {
    const bank = await slowBank()
    const url = await server.fresh()
    const env = { ...envOf(bank.info), TPPKIT_WORKER_SWEEP_TRIES: "2" }
    const worker = tppkit(workerOnce(Redacted.value(url), bank.info, day), { env, timeoutMs: 150_000 })
    await until(() => pagesOf(bank.journal).length > 0, "the first page of the listing")
    await bank.faults({ rate: 1, kinds: ["503"] })
    // page 1 asked twice (two tries), both answered 503: then the balance checks may go through
    await until(() => pagesOf(bank.journal).length >= 3, "the listing's two tries of page 1")
    await bank.lift()
    const run = await worker
    assert.strictEqual(run.code, 9, run.stderr)
    assert.deepStrictEqual(pagesOf(bank.journal), [0, 1, 1])
    const summary = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}")
    assert.deepStrictEqual(summary.unlisted, [bank.info.clientId])
    assert.deepStrictEqual(summary.partial, [
      { consent: bank.info.clientId, pagesKept: 1, pagesUnread: [1, 2], plannedFrom: null, plannedFromEarlier: 0 }
    ])
    assert.match(run.stderr, /page\(s\) 1, 2 not read and no complete listing kept: their payments are not planned/)
    assert.match(run.stderr, /event=listing_partial .*pages_kept=1 pages_unread=2 planned_from=none/)
    // exactly the payments of the page read are checked
    const all = await expectedPlan(bank.info)
    const document = await statusOf(url)
    const onPage0 = new Set(
      (
        await Effect.runPromise(
          Effect.gen(function* () {
            const client = yield* BankClient.BankClient
            const psu = { ipAddress: "127.0.0.1", deviceOs: "t", userAgent: "t", lastLoggedTime: yield* DateTime.now }
            return yield* client.standingOrdersPage({ psu, page: 0, pageSize: 50 })
          }).pipe(Effect.provide(clientOf(bank.info)))
        )
      ).body.orders.map((o) => o.orderId)
    )
    assert.deepStrictEqual(
      document.checks.map((c) => `${c.orderId}/${c.nominalDate}`).sort(),
      all.filter((k) => onPage0.has(k.slice(0, k.indexOf("/")))).sort()
    )
    assert.strictEqual(document.budget[0]?.used, 3)
    console.log(
      `unplanned pages: ${document.checks.length} of ${all.length} due checked, pages ${pagesOf(bank.journal).join(",")}`
    )
  }, 180_000)

  it("a wrong client secret, on a fresh fleet and on one that holds the day's listing: one line naming the refusal at once, exit 3, nothing sent to the bank's API", async () => {
    const bank = await slowBank()
    const url = await server.fresh()
    const env = { ...envOf(bank.info), TPPKIT_WORKER_LOCK_EXPIRATION_MS: "4000" }
    const args = workerOnce(Redacted.value(url), bank.info, day)
    const secret = "not-the-secret-4711"
    /** Requests to the bank's API (not its token endpoint, not the mock bank's own probes). */
    const api = () =>
      bank.journal.entriesUnsafe().filter((e) => !e.path.endsWith("/token") && !e.path.startsWith("/__")).length
    const refused = async () => {
      const before = api()
      const started = Date.now()
      const run = await tppkit(args, { env: { ...env, TPPKIT_CLIENT_SECRET: secret }, timeoutMs: 90_000 })
      assert.strictEqual(run.code, 3, run.stderr)
      assert.isBelow(Date.now() - started, 60_000)
      const lines = run.stderr.split("\n").filter((l) => l.startsWith("tppkit:"))
      assert.strictEqual(lines.length, 1, run.stderr)
      assert.match(lines[0] ?? "", /the bank refused this client's credentials \(invalid_client\)/)
      assert.notInclude(run.stderr + run.stdout, secret)
      assert.strictEqual(api(), before)
    }
    // a fresh fleet: the day's sweep fails on the refusal, and its record (what worker status shows) says why
    await refused()
    const sweeps = await server.run<{ state: string; reason: string; cause: string }>(
      url,
      "SELECT state, reason, cause FROM tppkit_sweep_log"
    )
    assert.deepStrictEqual(
      sweeps.map((r) => [r.state, r.reason]),
      [["failed", "Unauthorized"]]
    )
    assert.match(sweeps[0]?.cause ?? "", /token request .*: 401 unauthorized \(invalid_client\)/)
    // a worker with the right secret reads the whole listing and is killed with its checks under way
    let first = 0
    const killed = tppkit(args, { env, timeoutMs: 150_000, onSpawn: (pid) => (first = pid) })
    await until(
      () => pagesOf(bank.journal).length >= 3 && balanceChecksOf(bank.journal) > 0,
      "the listing read and the first balance checks sent"
    )
    process.kill(first, "SIGKILL")
    await killed
    await bank.lift()
    // the listing held: no page asked again, and no balance check sent with the wrong secret
    await refused()
    assert.deepStrictEqual(pagesOf(bank.journal), [0, 1, 2])
    // worker status says why the checks got no answer
    const status = await tppkit(["worker", "status", "--database-url", Redacted.value(url)])
    assert.strictEqual(status.code, 0, status.stderr)
    assert.match(status.stdout, /invalid_client/)
  }, 200_000)
})
