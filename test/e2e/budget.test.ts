/**
 * The budget as the command line uses it: `tppkit budget`, `--max-age`, ten concurrent unattended listings on one
 * budget file against the mock bank, and the page bomb (bounded time and memory).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { get } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Journal, Sandbox } from "@tppkit/sandbox"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pagingBank, start } from "../http/hostile.ts"
import { tppkit } from "./harness.ts"

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tppkit-budget-e2e-"))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/**
 * The instance a mock bank announces, asked on a connection of its own: a pooled keep-alive socket of `fetch` to a
 * bank that was closed on the same port would fail the request ("fetch failed").
 */
const instanceOf = (baseUrl: string): Promise<string> =>
  new Promise((resolve, reject) => {
    get(`${baseUrl}/__instance`, { agent: false }, (res) => {
      let body = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => {
        body += chunk
      })
      res.on("end", () => resolve((JSON.parse(body) as { instance: string }).instance))
      res.on("error", reject)
    }).on("error", reject)
  })

/** A mock bank for one test, with options; closed by the returned function. */
const bank = async (options: Sandbox.Options = {}) => {
  const scope = await Effect.runPromise(Scope.make())
  const context = await Effect.runPromise(
    Layer.buildWithScope(Sandbox.layer(options), scope) as Effect.Effect<
      Context.Context<Sandbox.SandboxInfo | Journal.Journal>,
      unknown
    >
  )
  const info = Context.get(context, Sandbox.SandboxInfo)
  const journal = Context.get(context, Journal.Journal)
  const instance = await instanceOf(info.baseUrl)
  return {
    info,
    instance,
    env: { TPPKIT_BASE_URL: info.baseUrl, TPPKIT_CLIENT_ID: info.clientId, TPPKIT_CLIENT_SECRET: "sandbox-secret" },
    listingPages: () =>
      journal
        .entriesUnsafe()
        .filter((e) => e.path.endsWith("/standingOrder"))
        .map((e) => (JSON.parse(e.body) as { page?: number }).page ?? 0),
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

/** Runs `use` with a mock bank for the test, closed after it. */
const withBank = async (use: (b: Awaited<ReturnType<typeof bank>>) => Promise<void>): Promise<void> => {
  const b = await bank()
  try {
    await use(b)
  } finally {
    await b.close()
  }
}

/** The peak resident set of a process so far (VmHWM), in bytes, or 0 when it has gone. */
const peakRss = (pid: number): number => {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return m === null ? 0 : Number(m[1]) * 1024
  } catch {
    return 0
  }
}

describe("tppkit budget", { timeout: 120_000 }, () => {
  it("the README's flow with TPPKIT_BUDGET_FILE=memory: twice a day, then the bank's daily limit is exit 4 with the ways out (issue 40)", () =>
    withBank(async (b) => {
      const env = { ...b.env, TPPKIT_BUDGET_FILE: "memory" }
      // the README's listing (2 pages of 100: 2 of the 4 unattended calls a day), twice in a row
      for (const run of [1, 2]) {
        const listed = await tppkit(["standing-orders", "--all", "--format", "json"], { env })
        expect(listed.code, `run ${run}: ${listed.stderr}`).toBe(0)
      }
      // the third: nothing counted in memory from the runs before, so the bank itself answers 429 ACCESS_EXCEEDED
      const third = await tppkit(["standing-orders", "--all"], { env })
      expect(third.code, third.stderr).toBe(4)
      expect(third.stderr).toMatch(/429 too many requests \(ACCESS_EXCEEDED\): the bank's daily limit of unattended/)
      expect(third.stderr).toMatch(/Ways out: .*--psu-last-logged-time.*--max-age/)
      // the way out it names works: the customer present, nothing counted
      const present = await tppkit(["standing-orders", "--all", "--psu-last-logged-time", "now"], { env })
      expect(present.code, present.stderr).toBe(0)
    }))

  it("shows used, left and the reset per consent; a missing file is not created", () =>
    withBank(async (b) => {
      const file = join(dir, "shown.sqlite")
      const none = await tppkit(["budget", "--budget-file", file, "--format", "json"])
      expect(none.code).toBe(0)
      expect(JSON.parse(none.stdout).consents).toEqual([])
      expect(existsSync(file)).toBe(false)
      const listed = await tppkit(["standing-orders", "--page-size", "10", "--budget-file", file], { env: b.env })
      expect(listed.code).toBe(0)
      const json = await tppkit(["budget", "--budget-file", file, "--format", "json"])
      expect(json.code).toBe(0)
      const shown = JSON.parse(json.stdout)
      expect(shown.limit).toBe(4)
      expect(shown.consents).toEqual([
        {
          environment: "sandbox",
          baseUrl: `${b.info.baseUrl}#instance=${b.instance}`,
          clientId: b.info.clientId,
          consent: b.info.clientId,
          used: 1,
          left: 3,
          resetsAt: shown.resetsAt
        }
      ])
      const table = await tppkit(["budget", "--budget-file", file])
      expect(table.stdout).toMatch(/Used\s+Left/)
      expect(table.stdout).toMatch(/sandbox\s.*\s1\s+3\n?$/m)
    }))

  it("a mock bank restarted on the same port is a new bank's day; the running one keeps counting its own", async () => {
    const file = join(dir, "restarted.sqlite")
    const list = (env: Record<string, string>) =>
      tppkit(["standing-orders", "--page-size", "10", "--budget-file", file], { env })
    const before = await bank()
    const port = Number(new URL(before.info.baseUrl).port)
    try {
      expect((await list(before.env)).code).toBe(0)
      expect((await list(before.env)).code).toBe(0)
    } finally {
      await before.close()
    }
    const after = await bank({ port })
    try {
      expect(after.info.baseUrl).toBe(before.info.baseUrl)
      expect(after.instance).not.toBe(before.instance)
      expect((await list(after.env)).code).toBe(0)
      const shown = JSON.parse((await tppkit(["budget", "--budget-file", file, "--format", "json"])).stdout)
      const used = Object.fromEntries(
        (shown.consents as Array<{ baseUrl: string; used: number }>).map((c) => [c.baseUrl, c.used])
      )
      expect(used).toEqual({
        [`${before.info.baseUrl}#instance=${before.instance}`]: 2,
        [`${after.info.baseUrl}#instance=${after.instance}`]: 1
      })
    } finally {
      await after.close()
    }
  })

  it("--max-age serves a recent complete listing without spending budget", () =>
    withBank(async (b) => {
      const file = join(dir, "maxage.sqlite")
      const args = ["standing-orders", "--all", "--format", "json", "--budget-file", file]
      const first = await tppkit(args, { env: b.env })
      expect(first.code).toBe(0)
      // a run started moments later shares the listing by default (one up to a minute old is reused)
      const late = await tppkit(args, { env: b.env })
      expect(late.code).toBe(0)
      expect(JSON.parse(late.stdout)).toEqual(JSON.parse(first.stdout))
      expect(b.listingPages()).toEqual([0, 1])
      for (let i = 0; i < 3; i++) {
        const again = await tppkit([...args, "--max-age", "10m"], { env: b.env })
        expect(again.stderr).toBe("")
        expect(again.code).toBe(0)
        expect(JSON.parse(again.stdout)).toEqual(JSON.parse(first.stdout))
      }
      expect(b.listingPages()).toEqual([0, 1])
      // --max-age 0 asks the bank again
      const fresh = await tppkit([...args, "--max-age", "0"], { env: b.env })
      expect(fresh.code).toBe(0)
      expect(b.listingPages()).toEqual([0, 1, 0, 1])
      const used = JSON.parse((await tppkit(["budget", "--budget-file", file, "--format", "json"])).stdout)
      expect(used.consents[0].used).toBe(4)
      const bad = await tppkit([...args, "--max-age", "soon"], { env: b.env })
      expect(bad.code).toBe(2)
    }))

  it("ten concurrent unattended --all listings on one file: all exit 0 with the same list, the bank sees one listing", async () => {
    // every request to the bank takes 2.5 s, so that the ten processes overlap the one listing in flight
    const b = await bank({ faults: { rate: 1, kinds: ["delay"], delayMs: 2500 } })
    try {
      const file = join(dir, "ten.sqlite")
      const started = Date.now()
      const runs = await Promise.all(
        Array.from({ length: 10 }, () =>
          tppkit(["standing-orders", "--all", "--format", "json", "--budget-file", file], {
            env: b.env,
            timeoutMs: 90_000
          })
        )
      )
      const seconds = (Date.now() - started) / 1000
      for (const run of runs) {
        expect(run.stderr).toBe("")
        expect(run.code).toBe(0)
      }
      const lists = runs.map((r) => r.stdout)
      expect(new Set(lists).size).toBe(1)
      expect(JSON.parse(lists[0] ?? "{}").standingOrders.length).toBeGreaterThan(100)
      expect(b.listingPages()).toEqual([0, 1])
      console.log(`ten concurrent unattended listings: 10 of 10 exit 0 in ${seconds.toFixed(1)} s, bank saw pages 0, 1`)
    } finally {
      await b.close()
    }
  }, 120_000)
})

describe("the page bomb", { timeout: 60_000 }, () => {
  for (const [name, pageCount] of [
    ["pageCount 1,000,000,000", () => 1_000_000_000],
    ["full pages with no pageCount", () => undefined]
  ] as const) {
    it(`${name}: one clear line within 15 s, peak RSS under 300 MB`, async () => {
      const server = await start(pagingBank(pageCount), { maxRequests: 500, lifetimeMs: 50_000 })
      let pid = 0
      let peak = 0
      const sampler = setInterval(() => {
        if (pid !== 0) peak = Math.max(peak, peakRss(pid))
      }, 25)
      try {
        const started = Date.now()
        const run = await tppkit(["standing-orders", "--all", "--psu-last-logged-time", "now"], {
          env: { TPPKIT_BASE_URL: server.baseUrl, TPPKIT_CLIENT_ID: "c", TPPKIT_CLIENT_SECRET: "s" },
          timeoutMs: 30_000,
          onSpawn: (p) => {
            pid = p
          }
        })
        const seconds = (Date.now() - started) / 1000
        expect(run.timedOut).toBe(false)
        expect(run.code).toBe(7)
        const lines = run.stderr.trimEnd().split("\n")
        expect(lines).toHaveLength(1)
        expect(lines[0]).toMatch(/^tppkit: .*listing stopped after \d+ page\(s\).*limit of 100/)
        expect(seconds).toBeLessThan(15)
        expect(peak).toBeGreaterThan(0)
        expect(peak).toBeLessThan(300 * 1024 * 1024)
        const pages = server.received.filter((r) => !r.path.endsWith("/connect/token")).length
        console.log(
          `page bomb (${name}): ${pages} pages, ${seconds.toFixed(1)} s, peak RSS ${(peak / 2 ** 20).toFixed(0)} MB`
        )
      } finally {
        clearInterval(sampler)
        await server.close()
      }
    })
  }
})
