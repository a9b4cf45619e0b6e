/**
 * Webhooks end to end: `tppkit worker --once --webhook URL` against the mock bank posts every DECL, refused or
 * unanswered check and failed sweep to a receiver on loopback as Standard Webhooks, each request verified by the
 * `standardwebhooks` package; a receiver that fails and comes back gets every event, and a worker that leaves while
 * its deliveries hang leaves them in the outbox for the next worker, and one killed (SIGKILL) while they hang
 * leaves them too: the next worker delivers them under the same webhook-ids. `tppkit webhook verify` checks what
 * the receiver got; a secret without whsec_ and the setting of the version before are refused at the start.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { Webhook } from "@tppkit/worker"
import * as Database from "@tppkit/worker/Database"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { healthyRunner, request } from "../worker/clusterQueue.ts"
import { embeddedDb } from "../worker/pg.ts"
import { start, tppkit, workerOnce } from "./harness.ts"
import { type Received, receiver, verifies } from "./webhookReceiver.ts"

const db = embeddedDb()
const day = "2026-11-25"
const secret = Redacted.value(Webhook.makeSecret())

const bankScope = Scope.makeUnsafe()
afterAll(() => Effect.runPromise(Scope.close(bankScope, Exit.void)))

/** The events the fleet's records make: every check that answered DECL or failed, every failed sweep. */
const expectedEvents = (url: Redacted.Redacted<string>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const checks = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM tppkit_checks
        WHERE outcome IN ('DECL', 'failed')`
      const sweeps = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM tppkit_sweep_log WHERE state = 'failed'`
      const decl = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM tppkit_checks WHERE outcome = 'DECL'`
      return {
        total: Number(checks[0]?.n) + Number(sweeps[0]?.n),
        decl: Number(decl[0]?.n)
      }
    }).pipe(Effect.provide(Database.layer(url)), Effect.scoped)
  )

/** Whether the reference library verifies what the receiver got. */
const valid = (g: Received) => verifies(secret, g)

describe("webhooks from tppkit worker", { timeout: 180_000 }, () => {
  it("delivers every event, signed, to a receiver that fails and comes back; after a worker left or was killed mid-delivery the next one delivers what was left", async () => {
    // generated orders on an account short of money (DECLs) and a consent whose IBAN filter is not an IBAN (its
    // sweep fails)
    const generated = Fixtures.generate(200)
    const fixtures: Fixtures.Fixtures = {
      ...generated.fixtures,
      accounts: generated.fixtures.accounts.map((a) => ({ ...a, balance: "150.00" }))
    }
    const bank = await Effect.runPromise(
      Layer.buildWithScope(Sandbox.layer({ fixtures, listingDay: Fixtures.baseDate }), bankScope)
    )
    const info = Context.get(bank, Sandbox.SandboxInfo)
    const consents = [...generated.consents.map((c) => `${c.key}=${c.iban}`), "broken=NOT-AN-IBAN"].join(",")
    const env = {
      TPPKIT_CLIENT_SECRET: Redacted.value(info.clientSecret),
      TPPKIT_WEBHOOK_SECRET: secret,
      TPPKIT_CONSENTS: consents,
      TPPKIT_WORKER_POLL_MS: "250",
      TPPKIT_WEBHOOK_POLL_MS: "100",
      TPPKIT_WEBHOOK_RETRY_SCALE: "0.0001"
    }

    // a receiver that answers 503 twice, then 200
    let calls = 0
    const flaky = await receiver(() => (++calls <= 2 ? 503 : 200))
    const url1 = await Effect.runPromise(db.freshUrl())
    const first = await tppkit(workerOnce(Redacted.value(url1), info, day, "--webhook", flaky.url), {
      env,
      timeoutMs: 120_000
    })
    await flaky.close()
    assert.strictEqual(first.code, 9, first.stderr)
    const report = JSON.parse(first.stdout.trim().split("\n").at(-1) ?? "{}")
    assert.strictEqual(report.undelivered, 0, first.stdout)
    assert.match(
      first.stderr,
      /level=warn event=webhook_retry cause="HTTP 503 from http:\/\/127\.0\.0\.1:\d+\/tppkit" /
    )
    assert.notInclude(first.stderr, secret)
    const expected = await expectedEvents(url1)
    assert.isAbove(expected.decl, 0, "the mock bank's day has payments at risk")
    const sweepFailed = flaky.got
      .filter((g) => g.status === 200)
      .map((g) => JSON.parse(g.body))
      .filter((e) => e.type === "sweep.failed")
    assert.deepStrictEqual(
      sweepFailed.map((e) => [e.data.consent, e.data.reason]),
      [["broken", "InvalidIban"]]
    )
    const delivered = flaky.got.filter((g) => g.status === 200)
    assert.strictEqual(new Set(delivered.map((g) => g.id)).size, expected.total)
    assert.isTrue(flaky.got.every(valid), "every request is signed with the endpoint's secret")
    const decl = delivered.map((g) => JSON.parse(g.body)).filter((e) => e.type === "check.declined")
    assert.strictEqual(decl.length, expected.decl)
    for (const e of decl) assert.match(e.data.amount, /^\d+\.\d{2}$/)

    // worker status shows the day's sweep per consent, the failed one with why, and fits 100 columns
    const status = await tppkit(["worker", "status", "--database-url", Redacted.value(url1)])
    assert.strictEqual(status.code, 0, status.stderr)
    for (const l of status.stdout.split("\n")) assert.isAtMost(l.length, 100, l)
    assert.match(status.stdout, new RegExp(`^${day} +broken +0 +failed +1 `, "m"))
    assert.match(status.stdout, new RegExp(`^${day} +${generated.consents[0]?.key} +0 +finished +\\d+ +1 `, "m"))
    assert.include(status.stdout, `${day} broken: failed (InvalidIban): invalid IBAN NOT-AN-IBAN`)

    // the worker has left: no healthy runner, the fleet has stopped; a request nobody reads while a runner looks
    // healthy (the cluster's read position stopped) shows the stall
    assert.match(status.stdout, /^Fleet: (stopped|live): /m)
    await Effect.runPromise(
      Effect.gen(function* () {
        yield* healthyRunner("127.0.0.1:34431")
        yield* request(Date.now() - 600_000, 1)
      }).pipe(Effect.provide(Database.layer(url1)), Effect.scoped)
    )
    const stalled = await tppkit(["worker", "status", "--database-url", Redacted.value(url1)])
    assert.strictEqual(stalled.code, 0, stalled.stderr)
    assert.match(
      stalled.stdout.replaceAll(/\n +/g, " "),
      /\nFleet: stalled since \d\d-\d\d \d\d:\d\d UTC: the cluster has read none of 1 due request for 6\d\d s while 1 runner looks healthy\n$/
    )
    for (const l of stalled.stdout.split("\n")) assert.isAtMost(l.length, 100, l)

    // tppkit webhook verify: the request as received verifies; another secret or a changed body does not
    // tppkit webhook replay: every event of the day due again for the endpoint, the DECLs alone with --type
    const replayAll = await tppkit(["webhook", "replay", "--since", day, "--database-url", Redacted.value(url1)])
    assert.strictEqual(replayAll.code, 0, replayAll.stderr)
    assert.deepStrictEqual(JSON.parse(replayAll.stdout).endpoints, { [flaky.url]: expected.total })
    const replayDecl = await tppkit([
      "webhook",
      "replay",
      "--since",
      day,
      "--type",
      "check.declined",
      "--endpoint",
      flaky.url,
      "--database-url",
      Redacted.value(url1)
    ])
    assert.deepStrictEqual(JSON.parse(replayDecl.stdout).endpoints, { [flaky.url]: expected.decl })
    const sample = delivered[0] as Received
    const verify = (key: string, body: string) =>
      tppkit(
        ["webhook", "verify", "--id", sample.id, "--timestamp", sample.timestamp, "--signature", sample.signature],
        { stdin: body, env: { TPPKIT_WEBHOOK_SECRET: key } }
      )
    const ok = await verify(secret, sample.body)
    assert.strictEqual(ok.code, 0, ok.stderr)
    assert.strictEqual(JSON.parse(ok.stdout).id, sample.id)
    const another = Redacted.value(Webhook.makeSecret())
    const wrong = await verify(another, sample.body)
    assert.strictEqual(wrong.code, 7)
    assert.strictEqual(
      wrong.stderr.trim(),
      "tppkit: webhook: the signature does not match the id, the timestamp, the body and the secret"
    )
    assert.notInclude(wrong.stderr, another)
    const changed = await verify(secret, sample.body.replace(/"/, ' "'))
    assert.strictEqual(changed.code, 7)

    // a secret of the version before (no whsec_) and its back-off setting: refused at the start, with the way out
    const url0 = Redacted.value(await Effect.runPromise(db.freshUrl()))
    const plain = await tppkit(workerOnce(url0, info, day, "--webhook", flaky.url), {
      env: { ...env, TPPKIT_WEBHOOK_SECRET: "e2e-webhook-secret" }
    })
    assert.strictEqual(plain.code, 3)
    assert.include(
      plain.stderr,
      "a webhook secret starts with whsec_ (Standard Webhooks); make one with tppkit webhook secret"
    )
    assert.notInclude(plain.stderr, "e2e-webhook-secret")
    const backoff = await tppkit(workerOnce(url0, info, day, "--webhook", flaky.url), {
      env: { ...env, TPPKIT_WEBHOOK_BACKOFF_MS: "100" }
    })
    assert.strictEqual(backoff.code, 3)
    assert.include(backoff.stderr, "TPPKIT_WEBHOOK_BACKOFF_MS is gone")

    // a receiver that hangs: the worker leaves with its deliveries undone; the next worker delivers them
    let mode: "hang" | 200 = "hang"
    const slow = await receiver(() => mode)
    const url2 = await Effect.runPromise(db.freshUrl())
    const slowEnv = { ...env, TPPKIT_WEBHOOK_TIMEOUT_MS: "60000", TPPKIT_WEBHOOK_LEASE_MS: "1000" }
    const left = await tppkit(workerOnce(Redacted.value(url2), info, day, "--webhook", slow.url), {
      env: { ...slowEnv, TPPKIT_WORKER_WEBHOOK_WAIT_MS: "1500" },
      timeoutMs: 120_000
    })
    assert.strictEqual(left.code, 9, left.stderr)
    const leftReport = JSON.parse(left.stdout.trim().split("\n").at(-1) ?? "{}")
    assert.isAbove(leftReport.undelivered, 0, left.stdout)
    assert.match(left.stderr, /webhook deliveries not made yet; they stay in the fleet's outbox/)
    const held = slow.got.map((g) => g.id)
    assert.isAbove(held.length, 0)
    // a worker that takes the deliveries over (their leases have ended) and is killed while they hang: a crash
    const crashing = start(
      [
        "worker",
        "--database-url",
        Redacted.value(url2),
        "--base-url",
        info.baseUrl,
        "--client-id",
        info.clientId,
        "--webhook",
        slow.url
      ],
      slowEnv
    )
    for (let i = 0; i < 300 && slow.got.length <= held.length; i++) await new Promise((r) => setTimeout(r, 100))
    assert.isAbove(slow.got.length, held.length, "the second worker took the deliveries over")
    crashing.child.kill("SIGKILL")
    assert.strictEqual((await crashing.done).signal, "SIGKILL")
    mode = 200
    const next = await tppkit(workerOnce(Redacted.value(url2), info, day, "--webhook", slow.url), {
      env: slowEnv,
      timeoutMs: 120_000
    })
    await slow.close()
    assert.strictEqual(next.code, 9, next.stderr)
    assert.strictEqual(JSON.parse(next.stdout.trim().split("\n").at(-1) ?? "{}").undelivered, 0, next.stdout)
    const expected2 = await expectedEvents(url2)
    const delivered2 = slow.got.filter((g) => g.status === 200)
    // the second worker ran the failed sweep again (run 1), which failed again: one more sweep.failed event
    assert.strictEqual(new Set(delivered2.map((g) => g.id)).size, expected2.total + 1)
    for (const id of held) {
      const again = delivered2.filter((g) => g.id === id)
      assert.isAtLeast(again.length, 1, `event ${id} delivered after the restart`)
      assert.strictEqual(again[0]?.body, slow.got.find((g) => g.id === id)?.body)
    }
    // repeated only under the same webhook-id: one body per id, whoever sent it and however often
    const bodies = new Map<string, Set<string>>()
    for (const g of slow.got) bodies.set(g.id, (bodies.get(g.id) ?? new Set()).add(g.body))
    assert.isTrue([...bodies.values()].every((b) => b.size === 1))
    assert.isTrue(slow.got.every(valid))
  })
})
