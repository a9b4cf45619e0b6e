/**
 * A worker's lifecycle on stderr, one line per event: joined, shards held, next sweep (time and zone), sweep
 * started, finished or failed with counts, failed checks, left; logfmt by default, JSON lines with
 * `--log-format json`; the cause first, never a stack trace.
 */
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { embeddedDb } from "../worker/pg.ts"
import { root, workerOnce } from "./harness.ts"

const db = embeddedDb()
const bankScope = Scope.makeUnsafe()
afterAll(() => Effect.runPromise(Scope.close(bankScope, Exit.void)))

/** logfmt's `key=value` pairs (values bare or JSON-quoted). */
const logfmt = (line: string): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const m of line.matchAll(/([a-z_]+)=("(?:[^"\\]|\\.)*"|\S+)/g)) {
    const [, key = "", value = ""] = m
    out[key] = value.startsWith('"') ? (JSON.parse(value) as string) : value
  }
  return out
}

const start = (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const child = spawn(process.execPath, ["--conditions=@tppkit/source", "packages/cli/src/bin.ts", ...args], {
    cwd: root,
    env: { ...process.env, NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const lines: Array<string> = []
  const waiters: Array<() => void> = []
  createInterface({ input: child.stderr }).on("line", (l) => {
    lines.push(l)
    for (const w of waiters.splice(0)) w()
  })
  const timer = setTimeout(() => child.kill("SIGKILL"), 90_000)
  const done = new Promise<number | null>((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve(code)
    })
  )
  const until = async (found: (line: string) => boolean): Promise<string> => {
    for (;;) {
      const line = lines.find(found)
      if (line !== undefined) return line
      await new Promise<void>((resolve) => waiters.push(resolve))
    }
  }
  return { child, lines, done, until }
}

const bank = async () => {
  const context = await Effect.runPromise(
    Layer.buildWithScope(Sandbox.layer({ listingDay: Fixtures.baseDate }), bankScope)
  )
  return Context.get(context, Sandbox.SandboxInfo)
}

describe("worker lifecycle lines", { timeout: 120_000 }, () => {
  it("--once: joined, shards, sweep started, sweep failed with its cause first, left; logfmt, short, no stack", async () => {
    const info = await bank()
    const url = await Effect.runPromise(db.freshUrl())
    const day = "2026-11-02"
    const worker = start(workerOnce(Redacted.value(url), info, day, "--consents", `bad=NOT-AN-IBAN,${info.clientId}`), {
      TPPKIT_CLIENT_SECRET: Redacted.value(info.clientSecret),
      TPPKIT_WORKER_POLL_MS: "250"
    })
    assert.strictEqual(await worker.done, 9, worker.lines.join("\n"))
    const events = worker.lines.filter((l) => l.startsWith("time=")).map(logfmt)
    const names = events.map((e) => e.event)
    for (const name of ["joined", "shards", "sweep_started", "sweep_failed", "run_finished", "left"])
      assert.include(names, name)
    assert.strictEqual(names[0], "joined")
    assert.strictEqual(names.at(-1), "left")
    const joined = events[0]
    assert.strictEqual(joined?.database, new URL(Redacted.value(url)).host)
    assert.strictEqual(joined?.consents, "2")
    const failed = events.find((e) => e.event === "sweep_failed")
    assert.deepInclude(failed, { level: "error", day, run: "0", consents: "2", failed: "1", unlisted: "bad" })
    assert.include(failed?.cause, "invalid IBAN NOT-AN-IBAN")
    // the run's last word: the consent left unplanned (page 0 not read: its pages unknown), and why
    const finished = events.find((e) => e.event === "run_finished")
    assert.deepInclude(finished, { level: "error", day, repeated: "0", unplanned: "bad:unknown" })
    assert.include(finished?.cause, "invalid IBAN NOT-AN-IBAN")
    // the cause comes right after the level and the event's name
    const line = worker.lines.find((l) => l.includes("event=sweep_failed")) ?? ""
    assert.match(line, /^time=\S+ level=error event=sweep_failed cause=/)
    for (const l of worker.lines) {
      assert.isAtMost(l.length, 600, l)
      assert.notMatch(l, /^\s+at /)
      assert.isTrue(l.startsWith("time=") || l.startsWith("tppkit: "), l)
    }
  })

  it("a worker on the daily cron announces the next sweep with its time and zone; JSON lines with --log-format json", async () => {
    const info = await bank()
    const url = await Effect.runPromise(db.freshUrl())
    const worker = start(
      [
        "worker",
        "--database-url",
        Redacted.value(url),
        "--base-url",
        info.baseUrl,
        "--client-id",
        info.clientId,
        "--hour",
        "8",
        "--time-zone",
        "Europe/Bratislava",
        "--log-format",
        "json"
      ],
      { TPPKIT_CLIENT_SECRET: Redacted.value(info.clientSecret), TPPKIT_WORKER_POLL_MS: "250" }
    )
    const next = JSON.parse(await worker.until((l) => l.includes('"next_sweep"'))) as Record<string, string>
    assert.strictEqual(next.zone, "Europe/Bratislava")
    assert.match(next.at ?? "", /^\d{4}-\d\d-\d\dT08:00:00\+0[12]:00$/)
    assert.isAbove(Date.parse(next.at ?? ""), Date.now())
    await worker.until((l) => l.includes('"shards"'))
    worker.child.kill("SIGTERM")
    assert.strictEqual(await worker.done, 130)
    const events = worker.lines.map((l) => JSON.parse(l) as Record<string, unknown>)
    assert.deepStrictEqual(
      events.map((e) => e.event).filter((e) => e === "joined" || e === "left"),
      ["joined", "left"]
    )
  })
})
