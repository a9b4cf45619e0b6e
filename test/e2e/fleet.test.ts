/**
 * The fleet end to end: one embedded PostgreSQL, the mock bank (every request delayed, so that checks are in
 * flight when a worker dies), and three `tppkit worker --once` processes for the same day; one of them is killed
 * with SIGKILL while its checks are in flight. Every due payment is checked, a payment is sent to the bank twice
 * only when its worker died after sending (then `attempts: 2`), and the bank's journal agrees with `worker status`.
 * And two workers given `--bank-rate` together keep to the fleet's rate, the bank's journal as the witness.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Fixtures, Journal, Sandbox } from "@tppkit/sandbox"
import * as Database from "@tppkit/worker/Database"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { embeddedDb } from "../worker/pg.ts"
import { delayed, mockBank, setFaults, workerEnv } from "./fleetSupport.ts"
import { checkKeys, start as startWorker, tppkit, workerOnce } from "./harness.ts"
import { expectedChecks, keysOf } from "./plan.ts"

const db = embeddedDb()
const day = "2026-11-02"

const bankScope = Scope.makeUnsafe()
afterAll(() => Effect.runPromise(Scope.close(bankScope, Exit.void)))

describe("a fleet of three workers on one PostgreSQL", () => {
  it("checks every due payment once across the fleet although one worker is killed mid-flight", async () => {
    const { info, journal } = await mockBank({ listingDay: Fixtures.baseDate, faults: delayed(300) }, bankScope)
    const url = await Effect.runPromise(db.freshUrl())
    // a lock refresh may take a third of the lock's expiration; the 2-core CI machine runs three workers and PostgreSQL
    const env = workerEnv(info, { TPPKIT_WORKER_LOCK_EXPIRATION_MS: "9000" })
    const args = workerOnce(Redacted.value(url), info, day)
    const workers = [startWorker(args, env), startWorker(args, env), startWorker(args, env)]
    // kill the second worker once a tenth of the checks have been sent by the fleet and none has finished yet
    const inFlight = Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      for (;;) {
        const rows = yield* sql<{ started: number }>`SELECT count(*)::int AS started FROM tppkit_checks
          WHERE attempts > 0`.pipe(Effect.orElseSucceed(() => [{ started: 0 }]))
        if (Number(rows[0]?.started ?? 0) >= 10) return
        yield* Effect.sleep("20 millis")
      }
    })
    await Effect.runPromise(
      inFlight.pipe(
        Effect.provide(Database.layer(url, { maxConnections: 1 })),
        Effect.scoped,
        Effect.timeout("90 seconds")
      )
    )
    workers[1]?.child.kill("SIGKILL")
    const [a, killed, c] = await Promise.all(workers.map((w) => w.done))
    assert.strictEqual(killed?.signal, "SIGKILL")
    for (const w of [a, c]) {
      assert.strictEqual(w?.code, 0, w?.stderr)
      const summary = JSON.parse(w?.stdout.trim().split("\n").at(-1) ?? "{}")
      assert.strictEqual(summary.day, day)
    }

    const status = await tppkit(["worker", "status", "--database-url", Redacted.value(url), "--format", "json"])
    assert.strictEqual(status.code, 0, status.stderr)
    const document = JSON.parse(status.stdout) as {
      checks: Array<{
        orderId: string
        nominalDate: string
        outcome: string
        attempts: number
        checkedAt: string
        requestId: string | null
      }>
      budget: Array<{ consent: string; day: string; used: number; limit: number }>
    }
    const { checks, budget } = document
    // the documented shape, exactly: every check of the day has finished, so no `pending` key, and the workers were
    // given no balances, so no `forecast` key (test/e2e/fleetForecast.test.ts has it); read from the fleet's database,
    // so whether the fleet advances (`fleet`) and its webhook endpoints (`webhookEndpoints`) follow
    assert.deepStrictEqual(Object.keys(document), ["checks", "budget", "fleet", "webhookEndpoints"])
    for (const r of checks) {
      assert.deepStrictEqual(Object.keys(r), checkKeys)
      assert.match(r.checkedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    }
    for (const b of budget) assert.deepStrictEqual(Object.keys(b), ["consent", "day", "used", "limit"])

    // every due payment is planned and checked: the plan of what the bank lists, for the day
    const expected = await expectedChecks(info, day)
    assert.isAbove(expected.length, 50)
    assert.deepStrictEqual(keysOf(checks), keysOf(expected))
    for (const r of checks) {
      assert.include(["APPR", "DECL", "failed"], r.outcome)
      assert.include([1, 2], r.attempts)
    }
    // at most the killed worker's checks in flight (64, `TPPKIT_WORKER_CHECKS_IN_FLIGHT`) were sent again
    assert.isAtMost(checks.filter((r) => r.attempts > 1).length, 64)

    // the journal agrees: balance checks per payment equal its attempts, except those in flight on the killed
    // worker, which count as sent and are marked unconfirmed (the bank may or may not have seen them); the last
    // request's Request-ID is the one recorded
    const rows = await Effect.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{
          order_id: string
          nominal_date: string
          attempts: number
          correlation_ids: Array<string>
          request_id: string | null
          unconfirmed: number
        }>`
          SELECT order_id, nominal_date, attempts, correlation_ids, request_id, unconfirmed FROM tppkit_checks`
      }).pipe(Effect.provide(Database.layer(url, { maxConnections: 1 })), Effect.scoped)
    )
    const entries = await Effect.runPromise(journal.entries)
    const sent = new Map<string, Array<string>>()
    for (const e of entries) {
      if (!e.path.endsWith("/balance-check") && !e.path.includes("balance")) continue
      const correlation = e.headers["correlation-id"] ?? ""
      sent.set(correlation, [...(sent.get(correlation) ?? []), e.headers["request-id"] ?? ""])
    }
    let journalled = 0
    let repeated = 0
    for (const r of rows) {
      const requests = r.correlation_ids.flatMap((id) => sent.get(id) ?? [])
      journalled += requests.length
      if (r.attempts === 2) repeated++
      assert.isTrue(
        requests.length === r.attempts ||
          (requests.length < r.attempts && r.attempts - r.unconfirmed <= requests.length),
        `${r.order_id}/${r.nominal_date}: ${r.attempts} attempts (${r.unconfirmed} unconfirmed), ${requests.length} requests`
      )
      assert.strictEqual(r.request_id, requests.at(-1))
    }
    // what `worker status` prints agrees with the journal too: attempts and the last Request-ID per payment
    const byPayment = new Map(rows.map((r) => [`${r.order_id}/${r.nominal_date}`, r]))
    for (const c of checks) {
      const row = byPayment.get(`${c.orderId}/${c.nominalDate}`)
      assert.strictEqual(c.attempts, row?.attempts)
      assert.strictEqual(c.requestId, row?.request_id ?? null)
      if (c.requestId !== null) assert.include([...sent.values()].flat(), c.requestId)
    }
    const allChecks = [...sent.values()].reduce((n, l) => n + l.length, 0)
    assert.strictEqual(journalled, allChecks, "no balance check outside the recorded attempts")
    assert.isAtMost(repeated, checks.length)
    // one listing of the consent for the whole fleet, within the shared budget
    assert.strictEqual(budget.length, 1)
    assert.strictEqual(budget[0]?.consent, info.clientId)
    assert.isAtMost(budget[0]?.used ?? 99, budget[0]?.limit ?? 0)
  }, 180_000)

  it("says why a consent could not be listed, and prints why checks failed from their recorded failures", async () => {
    const bank = await Effect.runPromise(
      Layer.buildWithScope(Sandbox.layer({ listingDay: Fixtures.baseDate }), bankScope)
    )
    const info = Context.get(bank, Sandbox.SandboxInfo)
    const url = await Effect.runPromise(db.freshUrl())
    const env = workerEnv(info)
    const worker = startWorker(
      workerOnce(Redacted.value(url), info, day, "--consents", `bad=NOT-AN-IBAN,${info.clientId}`),
      env
    )
    const run = await worker.done
    // the other consent is swept and its checks finished; the bad one is named with its typed failure's line, and
    // the day is incomplete (exit 9)
    assert.strictEqual(run.code, 9, run.stderr)
    assert.include(run.stderr, `tppkit: sweep of ${day}, consent bad: invalid IBAN NOT-AN-IBAN\n`)
    assert.include(run.stderr, `sweep of ${day} incomplete: the standing orders of 1 consent(s) could not be listed`)
    const summary = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}")
    assert.strictEqual(summary.sweep, "incomplete")
    assert.deepStrictEqual(summary.unlisted, ["bad"])
    // the failed checks are refusals (no consent for these accounts): final answers, none left unanswered
    assert.strictEqual(summary.unanswered, 0)
    assert.isAbove(summary.failed, 0)

    // the accounts without a usable consent for an unattended worker: their checks failed, grouped by reason
    // (the recorded BankError's line without its request identifiers)
    const status = await tppkit(["worker", "status", "--database-url", Redacted.value(url)])
    assert.strictEqual(status.code, 0, status.stderr)
    const reasons = status.stdout.split("\n").filter((l) => /^\s*\d+ failed: /.test(l))
    assert.isAbove(reasons.length, 0)
    assert.strictEqual(
      reasons.reduce((n, l) => n + Number(/^\s*(\d+) failed/.exec(l)?.[1]), 0),
      summary.failed
    )
    for (const l of reasons) {
      assert.match(l, /failed: balance check: 403 forbidden \((CONSENT_MISSING|SCA_REQUIRED)/)
      assert.notInclude(l, "Request-ID")
    }
  }, 120_000)

  it("runs again a day whose sweep failed on a bank fault once the bank is back, and never a complete one", async () => {
    // every request to the bank answers 502 until the test lifts the fault
    const { info, journal } = await mockBank(
      { listingDay: Fixtures.baseDate, faults: { rate: 1, kinds: ["502"] } },
      bankScope
    )
    const url = await Effect.runPromise(db.freshUrl())
    // one try per listing: the sweep fails at once instead of backing off; a check that timed out on a loaded
    // machine is tried again within a second, not after 5 s doubled (each run ends when its checks are answered)
    const env = workerEnv(info, { TPPKIT_WORKER_SWEEP_TRIES: "1", TPPKIT_WORKER_CHECK_BACKOFF_MS: "200" })
    const args = workerOnce(Redacted.value(url), info, day)
    const last = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}")
    const listings = async () =>
      (await Effect.runPromise(journal.entries)).filter((e) => e.path.includes("standing")).length

    const failed = await startWorker(args, env).done
    assert.strictEqual(failed.code, 9, failed.stderr)
    assert.include(failed.stderr, `tppkit: sweep of ${day}, consent ${info.clientId}: `)
    assert.deepStrictEqual(
      [last(failed.stdout).sweep, last(failed.stdout).unlisted, last(failed.stdout).checks],
      ["incomplete", [info.clientId], 0]
    )

    // the bank is back: the same command runs the day again, says so, and plans and checks every due payment
    await setFaults(info.baseUrl, { rate: 0 })
    const again = await startWorker(args, env).done
    assert.strictEqual(again.code, 0, again.stderr)
    assert.include(again.stderr, `tppkit: the sweep of ${day} had failed; running it again (run 1)`)
    const summary = last(again.stdout)
    assert.strictEqual(summary.sweep, "complete")
    assert.strictEqual(summary.run, 1)
    assert.isAbove(summary.checks, 50)
    assert.strictEqual(summary.unanswered, 0)

    // a complete sweep is never repeated: no listing sent, nothing said about a run again
    const before = await listings()
    const third = await startWorker(args, env).done
    assert.strictEqual(third.code, 0, third.stderr)
    assert.notInclude(third.stderr, "running it again")
    assert.strictEqual(last(third.stdout).checks, summary.checks)
    assert.strictEqual(await listings(), before)
    // the budget counts what reached the bank: the failed run's token requests cost nothing
    const status = await tppkit(["worker", "status", "--database-url", Redacted.value(url), "--format", "json"])
    const budget = (JSON.parse(status.stdout) as { budget: Array<{ used: number }> }).budget
    assert.deepStrictEqual(
      budget.map((b) => b.used),
      [before]
    )
    // three workers one after the other, each a Node start and a cluster join: bounded generously for a loaded CI
  }, 240_000)

  it("refuses --today after today in the live environment before anything is sent; the sandbox takes any day", async () => {
    const run = await tppkit(
      [
        "worker",
        "--env",
        "live",
        "--database-url",
        "postgres://nobody@127.0.0.1:9/none",
        "--base-url",
        "https://127.0.0.1:9",
        "--client-id",
        "tpp",
        "--today",
        "2999-12-31",
        "--once"
      ],
      { env: { TPPKIT_CLIENT_SECRET: "s" } }
    )
    assert.strictEqual(run.code, 2, run.stderr)
    assert.include(run.stderr, "--today 2999-12-31 is after today")
  })
})

// `tppkit worker --bank-rate N` as processes (issue 43): two `--once` workers of one fleet sweep a day against the mock
// bank with a rate of 10 requests a second, each sending balance checks of its own (told apart by its PSU-User-Agent);
// the bank's journal, the witness, saw their requests together no faster than the rate: in any stretch of time T, at
// most 10 × (T + 0.5 s) + 1 requests (half a second for a request sent late after its slot on a loaded machine), where
// the sweep's 40 requests sent at once would arrive within a fraction of a second, and two workers each keeping 10 a
// second to itself would send 20 a second.
describe("tppkit worker --bank-rate", () => {
  it("two workers together send the bank no more than the fleet's rate", async () => {
    const bank = await Effect.runPromise(
      Layer.buildWithScope(
        Sandbox.layer({
          listingDay: Fixtures.baseDate,
          // the seed bank's first 40 orders: one page, 37 payments to check, almost four seconds at the rate
          fixtures: { ...Fixtures.defaults, standingOrders: Fixtures.defaults.standingOrders.slice(0, 40) }
        }),
        bankScope
      )
    )
    const info = Context.get(bank, Sandbox.SandboxInfo)
    const journal = Context.get(bank, Journal.Journal)
    const url = await Effect.runPromise(db.freshUrl())
    // a worker starts every check it holds at once up to its checks in flight, and a started check waiting for its
    // slot stays with that worker when its shard moves: with the default 64 the first worker to hold the shards took
    // all 37 checks before the second was given any (its shards came a second or two after it joined), and the
    // second sent none. With 4 in flight the rest wait in the shards, and those of the shards handed over are sent by
    // the new holder; the day, four seconds at the rate, outlasts the handover
    const env = workerEnv(info, { TPPKIT_WORKER_CHECKS_IN_FLIGHT: "4" })
    const rate = 10
    const agents = ["tppkit-rate-worker-a", "tppkit-rate-worker-b"]
    const args = workerOnce(Redacted.value(url), info, day, "--bank-rate", String(rate))
    const [a, b] = await Promise.all(agents.map((agent) => startWorker([...args, "--psu-user-agent", agent], env).done))
    assert.strictEqual(a?.code, 0, a?.stderr)
    assert.strictEqual(b?.code, 0, b?.stderr)
    // the bank's operations (the mock bank's own /__ endpoints, which a worker asks for its instance, left out)
    const operations = (await Effect.runPromise(journal.entries)).filter((e) => !e.path.startsWith("/__"))
    // both took part: each sent balance checks of its own under the fleet's rate (its lines say when it joined and
    // when it was given shards)
    for (const [i, w] of [a, b].entries()) {
      const own = operations.filter((e) => e.path.includes("balanceCheck") && e.headers["psu-user-agent"] === agents[i])
      assert.isAbove(own.length, 0, `no balance check from ${agents[i]}:\n${w?.stderr}`)
    }
    const arrivals = operations.map((e) => Date.parse(e.at)).sort((x, y) => x - y)
    // the day's listing, its balance checks and each worker's token: enough that the rate shapes them
    assert.isAbove(arrivals.length, 30)
    for (let i = 0; i < arrivals.length; i++) {
      for (let j = i + 1; j < arrivals.length; j++) {
        const seconds = (arrivals[j]! - arrivals[i]!) / 1000
        assert.isAtMost(
          j - i + 1,
          rate * (seconds + 0.5) + 1,
          `${j - i + 1} requests within ${seconds.toFixed(3)} s (rate ${rate}/s)`
        )
      }
    }
    // the slots came from the fleet's one row for this bank, its base URL (whatever identity each worker found)
    const rows = await Effect.runPromise(
      Effect.flatMap(
        Effect.service(SqlClient.SqlClient),
        (sql) => sql<{ name: string }>`SELECT name FROM tppkit_bank_rate`
      ).pipe(Effect.provide(Database.layer(url, { maxConnections: 1 })), Effect.scoped)
    )
    assert.deepStrictEqual(
      rows.map((r) => r.name),
      [info.baseUrl]
    )
  }, 120_000)
})
