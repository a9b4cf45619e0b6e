/**
 * `tppkit sandbox --orders N` seeds N standing orders over consents of at most 400 orders each, and the README's
 * fleet recipe works as written, twice in a row: a worker given the printed consents sweeps today, every consent
 * listed within its daily budget, checks planned and answered.
 */
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { embeddedDb } from "../worker/pg.ts"
import { root, tppkit } from "./harness.ts"

const db = embeddedDb()
const children: Array<() => void> = []
afterAll(() => {
  for (const stop of children) stop()
})

describe("tppkit sandbox --orders", { timeout: 120_000 }, () => {
  it("seeds 1000 orders over 3 consents, and a worker sweeps them all within each consent's budget", async () => {
    const child = spawn(
      process.execPath,
      ["--conditions=@tppkit/source", "packages/cli/src/bin.ts", "sandbox", "--orders", "1000", "--format", "json"],
      { cwd: root, stdio: ["ignore", "pipe", "pipe"] }
    )
    const exited = new Promise((resolve) => child.on("close", resolve))
    children.push(() => child.kill("SIGKILL"))
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once("line", resolve)
      child.once("close", (code) => reject(new Error(`sandbox exited with ${code}`)))
    })
    const started = JSON.parse(line) as {
      baseUrl: string
      clientId: string
      clientSecret: string
      orders: number
      consents: Array<{ key: string; iban: string; orders: number }>
      consentsFlag: string
    }
    assert.strictEqual(started.orders, 1000)
    assert.deepStrictEqual(
      started.consents.map((c) => c.orders),
      [334, 333, 333]
    )
    const url = Redacted.value(await Effect.runPromise(db.freshUrl()))
    // as the README runs it (issue 40): the sandbox lists as of its own day, today, and the worker sweeps today;
    // a day before the sandbox's (the README's --today 2026-11-25 once) finds every payment already paid
    const sweep = () =>
      tppkit(
        ["worker", "--database-url", url, "--base-url", started.baseUrl, "--client-id", started.clientId, "--once"],
        {
          env: {
            TPPKIT_CLIENT_SECRET: started.clientSecret,
            TPPKIT_CONSENTS: started.consentsFlag,
            TPPKIT_WORKER_POLL_MS: "250"
          },
          timeoutMs: 100_000
        }
      )
    for (const run of [1, 2]) {
      // twice in a row the same day: the second finds the day swept and spends no more of the budget
      const worker = await sweep()
      assert.strictEqual(worker.code, 0, `run ${run}: ${worker.stderr}`)
      const summary = JSON.parse(worker.stdout.trim().split("\n").at(-1) ?? "{}") as {
        sweep: string
        checks: number
        APPR: number
        DECL: number
      }
      assert.strictEqual(summary.sweep, "complete")
      assert.isAbove(summary.checks, 0)
      assert.strictEqual(summary.APPR + summary.DECL, summary.checks)
    }
    // each consent's listing took 4 calls of 100 at most
    const budget = await tppkit(["budget", "--database-url", url, "--format", "json"])
    const used = (JSON.parse(budget.stdout) as { consents: Array<{ consent: string; used: number }> }).consents
    assert.deepStrictEqual(used.map((c) => c.consent).sort(), started.consents.map((c) => c.key).sort())
    for (const c of used) assert.isAtMost(c.used, 4)
    child.kill("SIGTERM")
    await exited
  })
})

describe("tppkit sandbox --host beyond loopback", () => {
  it("is refused without an admin token, in one line (exit 3)", async () => {
    const run = await tppkit(["sandbox", "--host", "0.0.0.0", "--port", "0"])
    assert.strictEqual(run.code, 3, run.stderr)
    assert.strictEqual(
      run.stderr,
      "tppkit: the sandbox on 0.0.0.0 is reachable from other machines: give --admin-token TOKEN (TPPKIT_SANDBOX_ADMIN_TOKEN), which its /__journal, /__clock and /__faults then require in X-Sandbox-Admin\n"
    )
  })
})
