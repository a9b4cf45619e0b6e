/**
 * The fleet's funds checks through faults (issue 25, the check side): three `tppkit worker --once` processes on one
 * embedded PostgreSQL against the mock bank (every request delayed, so that checks take a few seconds), with a
 * fault injected while the checks run. Counted at the bank (its journal): every due payment is answered once the
 * fault passes, the requests sent into a bank that is down are bounded, and each check's `attempts` equals the
 * requests the bank received for it.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Fixtures } from "@tppkit/sandbox"
import * as Database from "@tppkit/worker/Database"
import * as EmbeddedDb from "@tppkit/worker/EmbeddedDb"
import { Effect, Exit, Redacted, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { embeddedDb } from "../worker/pg.ts"
import { delayed, mockBank, setFaults, workerEnv } from "./fleetSupport.ts"
import { start as startWorker, workerOnce } from "./harness.ts"

const db = embeddedDb()
// a day ahead of the real one (the sandbox accepts any day): checks that failed on a fault are tried again only
// until their payment's execution date has passed, by the real clock
const day = "2027-03-01"
/** The most checks in flight per worker in these tests (the default is 64). */
const cap = 8
const payments = 300

/** `payments` monthly orders of one account paying on 2027-03-01, -02 or -03 (Monday to Wednesday: all due). */
const fixtures = (): Fixtures.Fixtures => {
  const base = Fixtures.defaults
  const template = base.standingOrders[0] as Record<string, unknown>
  return {
    ...base,
    standingOrders: Array.from({ length: payments }, (_, i) => ({
      ...template,
      orderId: `FAULT-${String(i + 1).padStart(4, "0")}`,
      frequency: "MNTH",
      startDate: `2026-10-0${1 + (i % 3)}`,
      nextDate: `2027-03-0${1 + (i % 3)}`,
      instructedAmount: { value: 10 + (i % 500), currency: "EUR" },
      remittanceInformation: `fault ${i + 1}`
    }))
  } as unknown as Fixtures.Fixtures
}

const bankScope = Scope.makeUnsafe()
afterAll(() => Effect.runPromise(Scope.close(bankScope, Exit.void)))

const query = <A extends object>(url: Redacted.Redacted<string>, text: string) =>
  Effect.runPromise(
    Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql.unsafe<A>(text)).pipe(
      Effect.provide(Database.layer(url, { maxConnections: 1 })),
      Effect.scoped
    )
  )

/** Waits until `n` checks have an outcome. */
const finished = async (url: Redacted.Redacted<string>, n: number) => {
  for (let i = 0; i < 3000; i++) {
    const [row] = await query<{ n: number }>(
      url,
      "SELECT count(*)::int AS n FROM tppkit_checks WHERE outcome IS NOT NULL"
    ).catch(() => [{ n: 0 }])
    if ((row?.n ?? 0) >= n) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`fewer than ${n} checks finished`)
}

/** The mock bank's usual state in these tests: every request answered after 300 ms. */
const slow = delayed(300)

const fleet = async () => {
  const { info, journal } = await mockBank({ fixtures: fixtures(), faults: slow }, bankScope)
  const url = await Effect.runPromise(db.freshUrl())
  const env = workerEnv(info, {
    TPPKIT_WORKER_LOCK_EXPIRATION_MS: "9000",
    TPPKIT_WORKER_CHECK_BACKOFF_MS: "500",
    TPPKIT_WORKER_CHECKS_IN_FLIGHT: String(cap),
    TPPKIT_WORKER_ONCE_WAIT_MS: "60000"
  })
  // an attended listing: three pages of orders, never short of the daily budget
  const args = workerOnce(Redacted.value(url), info, day, "--psu-last-logged-time", "now")
  const balanceChecks = async () =>
    (await Effect.runPromise(journal.entries)).filter((e) => e.path.includes("balanceCheck"))
  return { info, url, env, args, balanceChecks }
}

/** A stored check with the balance-check requests the bank received under its Correlation-IDs (`requests`). */
interface CheckAtBank {
  readonly order_id: string
  readonly attempts: number
  readonly unconfirmed: number
  readonly correlation_ids: Array<string>
  readonly outcome: string
  readonly requests: number
}

/** Every stored check, with the requests the bank received for it. */
const checksAtBank = async (
  url: Redacted.Redacted<string>,
  received: ReadonlyArray<{ readonly headers: Readonly<Record<string, string>> }>
): Promise<Array<CheckAtBank>> => {
  const rows = await query<Omit<CheckAtBank, "requests">>(
    url,
    "SELECT order_id, attempts, unconfirmed, correlation_ids, outcome FROM tppkit_checks"
  )
  const byCorrelation = new Map<string, number>()
  for (const e of received) {
    const id = e.headers["correlation-id"] ?? ""
    byCorrelation.set(id, (byCorrelation.get(id) ?? 0) + 1)
  }
  return rows.map((r) => ({
    ...r,
    requests: r.correlation_ids.reduce((n, id) => n + (byCorrelation.get(id) ?? 0), 0)
  }))
}

/** Every payment's check stored and answered (APPR or DECL), with the requests the bank received for it. */
const answeredAtBank = async (
  url: Redacted.Redacted<string>,
  received: ReadonlyArray<{ readonly headers: Readonly<Record<string, string>> }>
): Promise<Array<CheckAtBank>> => {
  const rows = await checksAtBank(url, received)
  assert.strictEqual(rows.length, payments)
  for (const r of rows) assert.include(["APPR", "DECL"], r.outcome)
  return rows
}

/** Every payment answered, each check's attempts the requests the bank received under its Correlation-IDs. */
const attemptsAgree = async (
  url: Redacted.Redacted<string>,
  received: ReadonlyArray<{ readonly headers: Readonly<Record<string, string>> }>
) => {
  const rows = await answeredAtBank(url, received)
  for (const r of rows) {
    assert.strictEqual(r.attempts, r.requests, `${r.order_id}: ${r.attempts} attempts, the bank received ${r.requests}`)
  }
  return rows
}

describe("the fleet's checks through faults", () => {
  it("backs off as a whole while the bank is down: requests during the outage bounded, every payment answered after", async () => {
    const { info, url, env, args, balanceChecks } = await fleet()
    const workers = [startWorker(args, env), startWorker(args, env), startWorker(args, env)]
    await finished(url, 30)
    // the bank goes down for 3 seconds while most checks are still to be sent
    await setFaults(info.baseUrl, { rate: 1, kinds: ["503"] })
    const [pending] = await query<{ n: number }>(
      url,
      "SELECT count(*)::int AS n FROM tppkit_checks WHERE outcome IS NULL"
    )
    await new Promise((r) => setTimeout(r, 3000))
    await setFaults(info.baseUrl, slow)
    const ended = await Promise.all(workers.map((w) => w.done))
    const summaries = ended.map((w) => {
      assert.strictEqual(w.code, 0, w.stderr)
      const summary = JSON.parse(w.stdout.trim().split("\n").at(-1) ?? "{}")
      assert.deepStrictEqual([summary.checks, summary.failed, summary.unanswered], [payments, 0, 0])
      return summary
    })
    // what the bank received while it was down, the bound: each worker refills the slots that answers to requests
    // sent before the outage free (at most its cap, 3 x cap), the failures that open the fleet's breaker (its
    // threshold, 3) and one probe per wait (0.5, 1, 2 s: three in 3 s, and one at the edge): 31. An answer to a
    // request sent before the latest failure no longer closes the breaker: when it did, every such answer let up
    // to three more checks into the outage (36 were seen once under a load of 30).
    const received = await balanceChecks()
    const refused = received.filter((e) => e.status === 503).length
    const bound = 3 * cap + 3 + 4
    assert.isAbove(refused, 0)
    assert.isAtMost(refused, bound, `${refused} balance checks sent into the outage`)
    assert.isAbove(pending?.n ?? 0, 2 * bound, "the backlog at the outage is far larger than the bound")
    // every payment answered, each asked as often as its attempts say
    await attemptsAgree(url, received)
    assert.strictEqual(received.length - refused, payments, "one answered request per payment")
    // each worker's report counts every balance-check request the bank received, the refused ones too
    for (const summary of summaries)
      assert.deepStrictEqual([summary.requests, summary.unconfirmed], [received.length, 0])
  }, 150_000)

  it("a worker stopped with SIGTERM sends nothing more, lets its checks in flight finish and exits 130: no repeats", async () => {
    const { url, env, args, balanceChecks } = await fleet()
    // the worker to be stopped is told apart at the bank by its PSU-User-Agent
    const agent = "tppkit-stopped-worker"
    const workers = [
      startWorker(args, env),
      startWorker([...args, "--psu-user-agent", agent], env),
      startWorker(args, env)
    ]
    await finished(url, 30)
    const fromStopped = async () => (await balanceChecks()).filter((e) => e.headers["psu-user-agent"] === agent)
    const before = (await fromStopped()).length
    workers[1]?.child.kill("SIGTERM")
    const stopped = await workers[1]?.done
    const after = (await fromStopped()).length - before
    const [a, c] = await Promise.all([workers[0]?.done, workers[2]?.done])
    assert.strictEqual(stopped?.code, 130, stopped?.stderr)
    // it had checks in flight when the signal came, sent nothing more and waited for every one of them
    const waited = /waiting for the (\d+) check\(s\) in flight/.exec(stopped?.stderr ?? "")
    assert.isNotNull(waited, stopped?.stderr)
    assert.isAbove(Number(waited?.[1]), 0)
    assert.isAtMost(Number(waited?.[1]), cap)
    assert.notInclude(stopped?.stderr ?? "", "still in flight")
    assert.isAbove(before, 0)
    // the requests of the stopped worker that reached the bank after the signal: at most one per slot (a check whose
    // slot freed, 300 ms after it was sent, while the signal was on its way); without the drain it goes on sending
    // its backlog until the cluster stops its checks
    assert.isAtMost(after, cap, `${after} balance checks sent by the stopped worker after SIGTERM`)
    for (const w of [a, c]) assert.strictEqual(w?.code, 0, w?.stderr)
    // every payment asked once at the bank: the stopped worker's checks in flight were answered and recorded before
    // it left, and those it had not sent were sent by the others
    const received = await balanceChecks()
    const rows = await attemptsAgree(url, received)
    assert.strictEqual(received.length, payments, "one request per payment")
    // the stopped worker's checks, in flight at the signal too, each asked once
    const sentByStopped = new Set(
      received.filter((e) => e.headers["psu-user-agent"] === agent).map((e) => e.headers["correlation-id"])
    )
    for (const r of rows.filter((r) => r.correlation_ids.some((id) => sentByStopped.has(id))))
      assert.strictEqual(r.requests, 1, r.order_id)
    const [marked] = await query<{ n: number }>(
      url,
      "SELECT count(*)::int AS n FROM tppkit_checks WHERE unconfirmed > 0"
    )
    assert.strictEqual(marked?.n, 0)
  }, 150_000)

  it("a whole fleet killed during the checks and started again answers every payment, repeats within the checks in flight", async () => {
    const { url, env, args, balanceChecks } = await fleet()
    const first = [startWorker(args, env), startWorker(args, env), startWorker(args, env)]
    await finished(url, 30)
    for (const w of first) w.child.kill("SIGKILL")
    for (const w of await Promise.all(first.map((w) => w.done))) assert.strictEqual(w.signal, "SIGKILL")
    const again = [startWorker(args, env), startWorker(args, env), startWorker(args, env)]
    for (const w of await Promise.all(again.map((w) => w.done))) assert.strictEqual(w.code, 0, w.stderr)
    const rows = await answeredAtBank(url, await balanceChecks())
    let repeated = 0
    for (const r of rows) {
      const requests = r.requests
      // attempts count what the bank received, plus the requests in flight on the killed workers (unconfirmed)
      assert.isTrue(
        requests <= r.attempts && r.attempts - r.unconfirmed <= requests,
        `${r.order_id}: ${r.attempts} attempts (${r.unconfirmed} unconfirmed), the bank received ${requests}`
      )
      if (requests > 1) {
        repeated++
        assert.isAbove(r.unconfirmed, 0, `${r.order_id} was asked again without a mark`)
      }
    }
    // the bound: the checks the three killed workers had in flight
    assert.isAtMost(repeated, 3 * cap)
  }, 150_000)

  it("the database away for a few seconds during the checks: every payment answered once it is back, repeats within the checks in flight", async () => {
    // the fleet's own PostgreSQL, stopped and started again on the same data and port by the test
    const dataDir = mkdtempSync(join(tmpdir(), "tppkit-dbdown-"))
    // run as root, the server runs as the OS user postgres, which must reach the data directory
    chmodSync(dataDir, 0o755)
    const first = Scope.makeUnsafe()
    try {
      const running = await Effect.runPromise(
        Scope.provide(EmbeddedDb.start({ dataDir: join(dataDir, "data") }), first)
      )
      const url = running.url
      const { env, balanceChecks, info } = await fleet()
      const args = workerOnce(Redacted.value(url), info, day, "--psu-last-logged-time", "now")
      const workers = [startWorker(args, env), startWorker(args, env), startWorker(args, env)]
      await finished(url, 30)
      await Effect.runPromise(Scope.close(first, Exit.void))
      await new Promise((r) => setTimeout(r, 3000))
      const second = Scope.makeUnsafe()
      try {
        await Effect.runPromise(
          Scope.provide(EmbeddedDb.start({ dataDir: join(dataDir, "data"), port: running.port }), second)
        )
        const ended = await Promise.all(workers.map((w) => w.done))
        for (const w of ended) assert.strictEqual(w.code, 0, w.stderr.slice(-2000))
        const rows = await answeredAtBank(url, await balanceChecks())
        assert.isAtMost(rows.filter((r) => r.requests > 1).length, 3 * cap)
      } finally {
        await Effect.runPromise(Scope.close(second, Exit.void))
      }
    } finally {
      await Effect.runPromise(Scope.close(first, Exit.void))
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 150_000)
})
