/**
 * `tppkit project` of a long window as a process, interrupted (issue 40): SIGINT or SIGTERM, sent as soon as the
 * first output arrives, ends it with exit code 130 in every format (the table ignored it and went on to exit 0: it
 * read every payment for its totals in one go), and what it wrote ends with a whole line.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { root } from "./harness.ts"

const dir = mkdtempSync(join(tmpdir(), "tppkit-signals-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// 2,000 orders paying every day for eleven years: some eight million payments, far more than a signal needs
const orders = join(dir, "daily.json")
writeFileSync(
  orders,
  JSON.stringify(
    Array.from({ length: 2000 }, (_, i) => ({
      orderId: `SO-${i}`,
      debtor: { name: "Debtor", iban: "SK2411000000002612345678" },
      creditor: { name: `Creditor ${i}`, iban: "SK6609000000005012345678" },
      instructedAmount: { value: 1 + (i % 50), currency: "EUR" },
      startDate: "2026-01-01",
      frequency: "DAI7"
    }))
  )
)

interface Interrupted {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  /** The bytes written before the end, counted, and the last of them. */
  readonly bytes: number
  readonly tail: string
  readonly stderr: string
}

/**
 * Runs `tppkit project` over eleven years in a format and sends `signal` when the first output arrives; keeps only
 * the count and the last bytes of stdout (an uninterrupted run writes gigabytes). Killed after two minutes.
 */
const interrupted = (format: string, signal: NodeJS.Signals): Promise<Interrupted> =>
  new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        "--conditions=@tppkit/source",
        "packages/cli/src/bin.ts",
        "project",
        "--orders",
        orders,
        "--from",
        "2026-01-01",
        "--to",
        "2036-12-31",
        "--format",
        format
      ],
      { cwd: root, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] }
    )
    let bytes = 0
    let tail = Buffer.alloc(0)
    let stderr = ""
    let sent = false
    child.stdout.on("data", (chunk: Buffer) => {
      bytes += chunk.length
      tail = Buffer.concat([tail, chunk]).subarray(-200)
      if (!sent) {
        sent = true
        child.kill(signal)
      }
    })
    child.stderr.setEncoding("utf8").on("data", (c: string) => {
      stderr += c
    })
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000)
    child.on("close", (code, sig) => {
      clearTimeout(timer)
      resolve({ code, signal: sig, bytes, tail: tail.toString("utf8"), stderr })
    })
  })

describe("tppkit project interrupted", { timeout: 150_000 }, () => {
  const cases = [
    ["table", "SIGINT"],
    ["csv", "SIGINT"],
    ["json", "SIGTERM"],
    ["ics", "SIGINT"],
    ["html", "SIGTERM"]
  ] as const
  for (const [format, signal] of cases) {
    it(`--format ${format}: ${signal} ends it with exit code 130 and a whole last line`, async () => {
      const run = await interrupted(format, signal)
      expect(run.signal).toBeNull()
      expect(run.code, run.stderr).toBe(130)
      expect(run.bytes).toBeGreaterThan(0)
      expect(run.tail.endsWith("\n"), JSON.stringify(run.tail.slice(-80))).toBe(true)
      // interrupted early: a whole run writes gigabytes (the table: its totals, which come last)
      if (format === "table") expect(run.tail).not.toMatch(/2036-12/)
    })
  }
})
