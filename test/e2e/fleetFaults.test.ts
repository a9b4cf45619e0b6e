/**
 * The fleet keeps its word under faults (issue 42): `tppkit worker --once` processes on an embedded PostgreSQL of
 * their own against the mock bank, the bank's journal the witness of what reached it and the due payments computed
 * by the engine from a listing with the customer present. The database server frozen (its postmaster and every
 * backend stopped with SIGSTOP, as a stalled disk or a paused VM) or killed (SIGKILL, then started again on the same
 * data directory) while a listing is read; a wrong client secret. Outages of seconds.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Calendar, LocalDate } from "@tppkit/core"
import { BankClient } from "@tppkit/http"
import { Fixtures, Journal, Sandbox } from "@tppkit/sandbox"
import { EmbeddedDb, Sweep } from "@tppkit/worker"
import { Context, DateTime, Effect, Exit, Layer, Redacted, Scope, Stream } from "effect"
import { tppkit, workerOnce } from "./harness.ts"

const day = "2026-11-02"
const bankScope = Scope.makeUnsafe()
afterAll(() => Effect.runPromise(Scope.close(bankScope, Exit.void)))

/** Resolves once `ready` holds, looking every 50 ms; fails after `timeoutMs` (a bound, not a timing). */
const until = async (ready: () => boolean, what: string, timeoutMs = 90_000): Promise<void> => {
  const end = Date.now() + timeoutMs
  while (!ready()) {
    if (Date.now() > end) throw new Error(`gave up waiting: ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The unattended listing requests the bank received (no customer present), in order of arrival: their pages. */
const pagesOf = (journal: Journal.Journal["Service"]) =>
  journal
    .entriesUnsafe()
    .filter((e) => e.path.endsWith("/standingOrder") && e.headers["psu-last-logged-time"] === undefined)
    .map((e) => (JSON.parse(e.body) as { page?: number }).page ?? 0)

/** The balance-check requests the bank received. */
const balanceChecksOf = (journal: Journal.Journal["Service"]) =>
  journal.entriesUnsafe().filter((e) => e.path.endsWith("/balanceCheck")).length

/** What the bank lists for the day, as the sweep plans it (asked with the customer present: no budget spent). */
const expectedPlan = (info: Sandbox.SandboxInfo["Service"]) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const client = yield* BankClient.BankClient
      const psu = { ipAddress: "127.0.0.1", deviceOs: "test", userAgent: "test", lastLoggedTime: yield* DateTime.now }
      const orders = yield* Stream.runCollect(client.standingOrders({ psu }))
      return Sweep.plan(
        orders.flatMap((p) => p.body.orders),
        info.clientId,
        LocalDate.parseUnsafe(day),
        { daysBefore: 2, calendar: Calendar.target, timeZone: "Europe/Bratislava", hour: 8 }
      )
    }).pipe(
      Effect.provide(
        BankClient.layerNodeFromOptions(
          { environment: "sandbox", baseUrl: info.baseUrl, clientId: info.clientId, clientSecret: info.clientSecret },
          { budgetFile: "memory" }
        )
      )
    )
  )

/** A server of the test's own on a data directory and port that survive its restarts. */
const ownDatabase = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "tppkit-faults-db-"))
  const port = await Effect.runPromise(EmbeddedDb.freePort)
  let scope = Scope.makeUnsafe()
  const startDb = async () => {
    scope = Scope.makeUnsafe()
    return (await Effect.runPromise(Scope.provide(EmbeddedDb.start({ dataDir, port }), scope))).url
  }
  const url = await startDb()
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
    url,
    postmaster,
    freeze: () => {
      const all = processes()
      for (const pid of all) process.kill(pid, "SIGSTOP")
      return () => {
        for (const pid of all) process.kill(pid, "SIGCONT")
      }
    },
    restart: startDb,
    close: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** A mock bank whose every answer is slowed down (the listing takes seconds), and the way to lift that. */
const slowBank = async () => {
  const bank = await Effect.runPromise(
    Layer.buildWithScope(
      Sandbox.layer({ listingDay: Fixtures.baseDate, faults: { rate: 1, kinds: ["delay"], delayMs: 1500 } }),
      bankScope
    )
  )
  const info = Context.get(bank, Sandbox.SandboxInfo)
  const journal = Context.get(bank, Journal.Journal)
  const lift = async () => {
    const lifted = await fetch(`${info.baseUrl}/__faults`, { method: "PUT", body: JSON.stringify({ rate: 0 }) })
    assert.strictEqual(lifted.status, 200, await lifted.text())
  }
  return { info, journal, lift }
}

const statusOf = async (url: Redacted.Redacted<string>) => {
  const status = await tppkit(["worker", "status", "--database-url", Redacted.value(url), "--format", "json"])
  assert.strictEqual(status.code, 0, status.stderr)
  return JSON.parse(status.stdout) as {
    checks: Array<{ orderId: string; nominalDate: string; outcome: string; attempts: number }>
    budget: Array<{ used: number; limit: number }>
  }
}

/**
 * What every case asserts once the day is done: every payment due checked, none invented, each page of the listing
 * asked for once and counted once (the budget equals the bank's count), and every balance check the bank saw
 * counted in `attempts`.
 */
const keptItsWord = async (
  url: Redacted.Redacted<string>,
  bank: Awaited<ReturnType<typeof slowBank>>,
  run: { readonly code: number | null; readonly stdout: string; readonly stderr: string },
  exact = true
) => {
  assert.strictEqual(run.code, 0, run.stderr)
  const summary = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}")
  assert.strictEqual(summary.sweep, "complete")
  const document = await statusOf(url)
  const expected = await expectedPlan(bank.info)
  assert.deepStrictEqual(
    document.checks.map((c) => `${c.orderId}/${c.nominalDate}`).sort(),
    expected.map((p) => `${p.orderId}/${p.nominalDate}`).sort()
  )
  const pages = pagesOf(bank.journal)
  assert.deepStrictEqual(pages, [...new Set(pages)], `pages asked: ${pages.join(", ")}`)
  assert.strictEqual(document.budget[0]?.used, pages.length)
  // no balance evaluated more often than attempts admit; exactly as often when no worker stopped mid-request
  const attempts = document.checks.reduce((n, c) => n + c.attempts, 0)
  if (exact) assert.strictEqual(attempts, balanceChecksOf(bank.journal))
  else assert.isAtLeast(attempts, balanceChecksOf(bank.journal))
  return { summary, pages, checks: document.checks.length, requests: balanceChecksOf(bank.journal) }
}

const envOf = (info: Sandbox.SandboxInfo["Service"]) => ({
  TPPKIT_CLIENT_SECRET: Redacted.value(info.clientSecret),
  TPPKIT_WORKER_POLL_MS: "250",
  TPPKIT_WORKER_PAGE_SIZE: "50",
  TPPKIT_WORKER_SWEEP_BACKOFF_MS: "500"
})

describe("the fleet under faults (the bank's journal the witness)", () => {
  it("the database server frozen (SIGSTOP of the postmaster and its backends) while a listing is read", async () => {
    const bank = await slowBank()
    const db = await ownDatabase()
    try {
      const worker = tppkit(workerOnce(Redacted.value(db.url), bank.info, day), {
        env: envOf(bank.info),
        timeoutMs: 150_000
      })
      await until(() => pagesOf(bank.journal).length > 0, "the first page of the listing")
      const thaw = db.freeze()
      await sleep(4000)
      thaw()
      await bank.lift()
      const run = await worker
      const seen = await keptItsWord(db.url, bank, run)
      // the worker's own lines say what happened; effect's are below error
      assert.match(run.stderr, /level=warn event=database_unreachable cause=/)
      assert.match(run.stderr, /level=info event=database_back after=\d+(\.\d)?s/)
      assert.notMatch(run.stderr, /level=error event=log/)
      console.log(`frozen database: ${seen.checks} checks, pages ${seen.pages.join(",")}, ${seen.requests} requests`)
    } finally {
      await db.close()
    }
  }, 180_000)

  it("the postmaster SIGKILLed while a listing is read, then started again on the same data directory", async () => {
    const bank = await slowBank()
    const db = await ownDatabase()
    try {
      const worker = tppkit(workerOnce(Redacted.value(db.url), bank.info, day), {
        env: envOf(bank.info),
        timeoutMs: 150_000
      })
      await until(() => pagesOf(bank.journal).length > 0, "the first page of the listing")
      process.kill(db.postmaster(), "SIGKILL")
      await sleep(2000)
      await db.restart()
      await bank.lift()
      const run = await worker
      const seen = await keptItsWord(db.url, bank, run)
      console.log(`killed database: ${seen.checks} checks, pages ${seen.pages.join(",")}, ${seen.requests} requests`)
    } finally {
      await db.close()
    }
  }, 180_000)

  it("a worker paused (SIGSTOP) past its shard locks after every page was read, with checks in flight", async () => {
    const bank = await slowBank()
    const db = await ownDatabase()
    try {
      const env = { ...envOf(bank.info), TPPKIT_WORKER_LOCK_EXPIRATION_MS: "4000" }
      let pausedPid = 0
      const args = workerOnce(Redacted.value(db.url), bank.info, day)
      const a = tppkit(args, { env, timeoutMs: 170_000, onSpawn: (pid) => (pausedPid = pid) })
      const b = tppkit(args, { env, timeoutMs: 170_000 })
      // every page read and balance checks on their way: the first worker stops for three lock timeouts
      await until(
        () => pagesOf(bank.journal).length >= 3 && balanceChecksOf(bank.journal) > 0,
        "the listing read and the first balance checks sent"
      )
      process.kill(pausedPid, "SIGSTOP")
      await sleep(12_000)
      process.kill(pausedPid, "SIGCONT")
      const [woken, other] = await Promise.all([a, b])
      assert.strictEqual(other.code, 0, other.stderr)
      // the woken worker rejoins and finishes, or gives up in one line within the lock timeout and a minute
      assert.include([0, 9], woken.code, woken.stderr)
      assert.isFalse(woken.timedOut)
      if (woken.code === 9)
        assert.match(woken.stderr, /this worker was paused for \d+ s and lost its shards; it gave up/)
      assert.match(woken.stderr, /event=shards_lost held=\d+ paused=\d+/)
      // the woken worker's checks that were waiting for a connection when it stopped count as sent (they may have
      // been); none is evaluated more often than attempts admit
      const seen = await keptItsWord(db.url, bank, other, false)
      // no check is left without the bank's answer (a timeout of the woken worker's never replaces one)
      assert.strictEqual(seen.summary.unanswered, 0)
      console.log(
        `paused worker: ${seen.checks} checks, pages ${seen.pages.join(",")}, ${seen.requests} requests, woken exit ${woken.code}`
      )
    } finally {
      await db.close()
    }
  }, 200_000)

  it("the bank failing every listing page after the first, no complete listing kept: page 0's payments planned, the rest named, exit 9", async () => {
    const bank = await slowBank()
    const db = await ownDatabase()
    try {
      const env = { ...envOf(bank.info), TPPKIT_WORKER_SWEEP_TRIES: "2" }
      const worker = tppkit(workerOnce(Redacted.value(db.url), bank.info, day), { env, timeoutMs: 150_000 })
      await until(() => pagesOf(bank.journal).length > 0, "the first page of the listing")
      const failing = await fetch(`${bank.info.baseUrl}/__faults`, {
        method: "PUT",
        body: JSON.stringify({ rate: 1, kinds: ["503"] })
      })
      assert.strictEqual(failing.status, 200, await failing.text())
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
      const document = await statusOf(db.url)
      const onPage0 = new Set(
        (
          await Effect.runPromise(
            Effect.gen(function* () {
              const client = yield* BankClient.BankClient
              const psu = { ipAddress: "127.0.0.1", deviceOs: "t", userAgent: "t", lastLoggedTime: yield* DateTime.now }
              return yield* client.standingOrdersPage({ psu, page: 0, pageSize: 50 })
            }).pipe(
              Effect.provide(
                BankClient.layerNodeFromOptions(
                  {
                    environment: "sandbox",
                    baseUrl: bank.info.baseUrl,
                    clientId: bank.info.clientId,
                    clientSecret: bank.info.clientSecret
                  },
                  { budgetFile: "memory" }
                )
              )
            )
          )
        ).body.orders.map((o) => o.orderId)
      )
      assert.deepStrictEqual(
        document.checks.map((c) => `${c.orderId}/${c.nominalDate}`).sort(),
        all
          .filter((p) => onPage0.has(p.orderId))
          .map((p) => `${p.orderId}/${p.nominalDate}`)
          .sort()
      )
      assert.strictEqual(document.budget[0]?.used, 3)
      console.log(
        `unplanned pages: ${document.checks.length} of ${all.length} due checked, pages ${pagesOf(bank.journal).join(",")}`
      )
    } finally {
      await db.close()
    }
  }, 180_000)

  it("a wrong client secret on a fleet that holds the day's listing: exit 3 at its first check, nothing sent", async () => {
    const bank = await slowBank()
    const db = await ownDatabase()
    try {
      const env = { ...envOf(bank.info), TPPKIT_WORKER_LOCK_EXPIRATION_MS: "4000" }
      const args = workerOnce(Redacted.value(db.url), bank.info, day)
      // a worker with the right secret reads the whole listing and is killed with its checks under way
      let first = 0
      const killed = tppkit(args, { env, timeoutMs: 150_000, onSpawn: (pid) => (first = pid) })
      await until(
        () => pagesOf(bank.journal).length >= 3 && balanceChecksOf(bank.journal) > 0,
        "the listing read and the first balance checks sent"
      )
      process.kill(first, "SIGKILL")
      await killed
      await sleep(2000)
      await bank.lift()
      /** Requests to the bank's API (not its token endpoint, not the mock bank's own probes). */
      const api = () =>
        bank.journal.entriesUnsafe().filter((e) => !e.path.endsWith("/token") && !e.path.startsWith("/__")).length
      const before = api()
      const secret = "not-the-secret-4711"
      const run = await tppkit(args, { env: { ...env, TPPKIT_CLIENT_SECRET: secret }, timeoutMs: 90_000 })
      assert.strictEqual(run.code, 3, run.stderr)
      const lines = run.stderr.split("\n").filter((l) => l.startsWith("tppkit:"))
      assert.strictEqual(lines.length, 1, run.stderr)
      assert.match(lines[0] ?? "", /the bank refused this client's credentials \(invalid_client\)/)
      assert.notInclude(run.stderr + run.stdout, secret)
      // the listing was held: no page asked again; and no balance check sent with the wrong secret
      assert.deepStrictEqual(pagesOf(bank.journal), [0, 1, 2])
      assert.strictEqual(api(), before)
      // worker status says why the checks got no answer
      const status = await tppkit(["worker", "status", "--database-url", Redacted.value(db.url)])
      assert.strictEqual(status.code, 0, status.stderr)
      assert.match(status.stdout, /invalid_client/)
    } finally {
      await db.close()
    }
  }, 200_000)

  it("a wrong client secret: one line naming the refusal at once, exit 3, nothing sent to the bank's API", async () => {
    const bank = await Effect.runPromise(
      Layer.buildWithScope(Sandbox.layer({ listingDay: Fixtures.baseDate }), bankScope)
    )
    const info = Context.get(bank, Sandbox.SandboxInfo)
    const journal = Context.get(bank, Journal.Journal)
    const db = await ownDatabase()
    try {
      const secret = "not-the-secret-4711"
      const started = Date.now()
      const run = await tppkit(workerOnce(Redacted.value(db.url), info, day), {
        env: { ...envOf(info), TPPKIT_CLIENT_SECRET: secret },
        timeoutMs: 60_000
      })
      assert.strictEqual(run.code, 3, run.stderr)
      assert.isBelow(Date.now() - started, 30_000)
      const lines = run.stderr.split("\n").filter((l) => l.startsWith("tppkit:"))
      assert.strictEqual(lines.length, 1, run.stderr)
      assert.match(lines[0] ?? "", /the bank refused this client's credentials \(invalid_client\)/)
      assert.notInclude(run.stderr + run.stdout, secret)
      // worker status says why the day's sweep failed
      const status = await tppkit(["worker", "status", "--database-url", Redacted.value(db.url)])
      assert.strictEqual(status.code, 0, status.stderr)
      assert.match(status.stdout, /failed \(Unauthorized\): token request .*: 401 unauthorized \(invalid_client\)/s)
      // nothing reached the bank's API: only token requests (and the mock bank's own instance probe)
      const api = journal.entriesUnsafe().filter((e) => !e.path.endsWith("/token") && !e.path.startsWith("/__"))
      assert.deepStrictEqual(
        api.map((e) => `${e.method} ${e.path}`),
        []
      )
    } finally {
      await db.close()
    }
  }, 90_000)
})
