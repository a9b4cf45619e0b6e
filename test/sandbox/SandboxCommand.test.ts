import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { Fixtures } from "@tppkit/sandbox"
import { describe, expect, it } from "vitest"
import { tppkit } from "../e2e/harness.ts"

const script = join(import.meta.dirname, "bin", "sandbox-command.ts")

const start = (args: ReadonlyArray<string>) => {
  const child = spawn(process.execPath, ["--conditions=@tppkit/source", script, ...args], {
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stderr = ""
  child.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString()
  })
  const firstLine = new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout as NodeJS.ReadableStream })
    rl.once("line", resolve)
    child.once("exit", (code) => reject(new Error(`exited with ${code}: ${stderr}`)))
  })
  firstLine.catch(() => undefined)
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : null)))
  )
  return { child, firstLine, exited, stderr: () => stderr }
}

const stop = async (child: ChildProcess, exited: Promise<number | null>, signal: NodeJS.Signals) => {
  child.kill(signal)
  return exited
}

describe("tppkit sandbox (as a process)", () => {
  it("prints one JSON line with the base URL, credentials and accounts, serves, and stops on SIGTERM", async () => {
    const p = start(["--format", "json", "--client-id", "my-tpp", "--client-secret", "s3cret"])
    const report = JSON.parse(await p.firstLine)
    expect(report.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(report.clientId).toBe("my-tpp")
    expect(report.clientSecret).toBe("s3cret")
    expect(report.accounts).toHaveLength(Fixtures.defaults.accounts.length)
    expect(report.accounts[0]).toEqual({
      iban: Fixtures.ibans.eurBranch,
      currency: "EUR",
      balance: "12500.00",
      consent: "branch"
    })
    const res = await fetch(`${report.baseUrl}/identity-server-test/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&client_id=my-tpp&client_secret=s3cret&scope=PIISP"
    })
    expect(res.status).toBe(200)
    const code = await stop(p.child, p.exited, "SIGTERM")
    expect(code).not.toBeNull()
    await expect(fetch(`${report.baseUrl}/openapi.json`)).rejects.toThrow()
  })

  it("serves the LIVE paths and a fixture file on request, and stops on SIGINT", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tppkit-sandbox-"))
    const file = join(dir, "fixtures.json")
    writeFileSync(
      file,
      JSON.stringify({ ...Fixtures.defaults, standingOrders: Fixtures.defaults.standingOrders.slice(0, 3) })
    )
    const p = start(["--format", "json", "--live", "--fixtures", file])
    try {
      const report = JSON.parse(await p.firstLine)
      const res = await fetch(`${report.baseUrl}/identity-server/connect/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials&client_id=tppkit-sandbox&client_secret=sandbox-secret&scope=AISP"
      })
      expect(res.status).toBe(200)
      await stop(p.child, p.exited, "SIGINT")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("refuses an invalid fixtures file with a message and a non-zero exit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tppkit-sandbox-"))
    const file = join(dir, "bad.json")
    writeFileSync(file, JSON.stringify({ clients: [] }))
    const p = start(["--fixtures", file])
    const code = await p.exited
    rmSync(dir, { recursive: true, force: true })
    expect(code).not.toBe(0)
    expect(p.stderr()).toMatch(/invalid fixtures/)
  })

  it("takes --admin-token for the journal and refuses a clock skew beyond an hour", async () => {
    const p = start(["--format", "json", "--admin-token", "cli-admin"])
    const report = JSON.parse(await p.firstLine)
    expect((await fetch(`${report.baseUrl}/__journal`)).status).toBe(401)
    expect((await fetch(`${report.baseUrl}/__journal`, { headers: { "x-sandbox-admin": "cli-admin" } })).status).toBe(
      200
    )
    await stop(p.child, p.exited, "SIGTERM")
    const bad = start(["--clock-skew-seconds", "7200"])
    expect(await bad.exited).not.toBe(0)
    expect(bad.stderr()).toMatch(/clock-skew-seconds/)
  })

  it("--bank-* flags give the mock bank a personality that tppkit reconcile finds", async () => {
    const p = start(["--format", "json", "--bank-calendar", "every-day", "--bank-anomaly-rate", "0"])
    const report = JSON.parse(await p.firstLine)
    try {
      const set = await fetch(`${report.baseUrl}/__clock`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ set: "2026-07-25T08:00:00Z" })
      })
      expect(set.status).toBe(200)
      const env = {
        TPPKIT_BASE_URL: report.baseUrl,
        TPPKIT_CLIENT_ID: report.clientId,
        TPPKIT_CLIENT_SECRET: report.clientSecret,
        TPPKIT_BUDGET_FILE: "memory"
      }
      const list = await tppkit(["standing-orders", "--all", "--format", "json"], { env })
      expect(list.code).toBe(0)
      const run = await tppkit(["reconcile", "--orders", "-", "--as-of", "2026-07-25", "--format", "json"], {
        stdin: list.stdout
      })
      const json = JSON.parse(run.stdout)
      expect(json.counts.explained).toBeGreaterThan(0)
      expect(json.counts.anomaly + json.counts.unexplained).toBe(0)
      expect(json.explainedBy.map((e: { rule: { text: string } }) => e.rule.text)).toEqual(["every day"])
      expect(run.code).toBe(0)
    } finally {
      await stop(p.child, p.exited, "SIGTERM")
    }
    const bad = start(["--bank-anomaly-rate", "2"])
    expect(await bad.exited).not.toBe(0)
    expect(bad.stderr()).toMatch(/--bank-anomaly-rate must be from 0 to 1/)
  }, 90_000)

  it("by default lists by tppkit's own rule; --listing-day pins the day; as-given goes alone", async () => {
    const p = start(["--format", "json", "--listing-day", "2026-07-25"])
    const report = JSON.parse(await p.firstLine)
    try {
      const env = {
        TPPKIT_BASE_URL: report.baseUrl,
        TPPKIT_CLIENT_ID: report.clientId,
        TPPKIT_CLIENT_SECRET: report.clientSecret,
        TPPKIT_BUDGET_FILE: "memory"
      }
      // the bank's clock runs on today; its listing day is pinned, and reconciliation on that day is clean
      const run = await tppkit(
        ["standing-orders", "--all", "--reconcile", "--as-of", "2026-07-25", "--psu-last-logged-time", "now"],
        { env }
      )
      expect(run.stderr).toBe("")
      expect(run.code).toBe(0)
      expect(run.stdout).toMatch(/^matched +(\d+)$/m)
      expect(run.stdout).toMatch(/^explained +0$/m)
      expect(run.stdout).toMatch(/^the bank's rule: following · target, explains (\d+) of \1 dates/m)
    } finally {
      await stop(p.child, p.exited, "SIGTERM")
    }
    const mixed = start(["--bank-next-date", "as-given", "--bank-calendar", "weekends"])
    expect(await mixed.exited).not.toBe(0)
    expect(mixed.stderr()).toMatch(/as-given lists the fixtures' nextDates: no other --bank-\* flag applies/)
    const bad = start(["--listing-day", "2026-02-30"])
    expect(await bad.exited).not.toBe(0)
    expect(bad.stderr()).toMatch(/--listing-day "2026-02-30"/)
  }, 90_000)
})
