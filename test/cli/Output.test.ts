/**
 * Output's writes as real processes see them: stdout opened on /dev/full (every write fails with ENOSPC) makes
 * every command that prints fail with one line `cannot write output: no space left on device` and a non-zero
 * exit code, whatever the format; a reader that closes the pipe after a few bytes (`| head -c 64`) ends the
 * command quietly with exit code 0.
 */
import { spawn } from "node:child_process"
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { root } from "../e2e/harness.ts"

const dir = mkdtempSync(join(tmpdir(), "tppkit-output-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** One daily order over two centuries: far more output than a pipe holds. */
const orders = join(dir, "orders.json")
writeFileSync(
  orders,
  JSON.stringify([
    {
      orderId: "SO-DAILY",
      debtor: { name: "Jana Novakova", iban: "SK2411000000002612345678" },
      creditor: { name: "Landlord s.r.o.", iban: "SK6609000000005012345678" },
      instructedAmount: { value: "1.50", currency: "EUR" },
      startDate: "2000-01-01",
      frequency: "DAIL"
    }
  ])
)

interface Ended {
  readonly code: number | null
  readonly stderr: string
  readonly read: number
}

/**
 * Runs `tppkit <args>` with stdout on `/dev/full`, or on a pipe that this side closes after `closeAfter` bytes.
 */
const run = (args: ReadonlyArray<string>, stdout: "full" | { readonly closeAfter: number }): Promise<Ended> =>
  new Promise((resolve, reject) => {
    const full = stdout === "full" ? openSync("/dev/full", "w") : undefined
    const child = spawn(process.execPath, ["--conditions=@tppkit/source", "packages/cli/src/bin.ts", ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1", TPPKIT_BUDGET_FILE: "memory" },
      stdio: ["ignore", full ?? "pipe", "pipe"]
    })
    if (full !== undefined) closeSync(full)
    let stderr = ""
    let read = 0
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk
    })
    if (stdout !== "full") {
      child.stdout?.on("data", (chunk: Buffer) => {
        read += chunk.length
        if (read >= stdout.closeAfter) child.stdout?.destroy()
      })
    }
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stderr, read }))
  })

const projectArgs = (format: string) => [
  "project",
  "--orders",
  orders,
  "--from",
  "2000-01-01",
  "--to",
  "2199-12-31",
  "--format",
  format
]

describe("a write to a full disk", { timeout: 120_000 }, () => {
  describe.concurrent("fails the command with one line", () => {
    for (const format of ["table", "csv", "ics", "html"]) {
      it(`project --format ${format}`, async () => {
        const ended = await run(projectArgs(format), "full")
        expect(ended.code).toBe(1)
        expect(ended.stderr).toBe("tppkit: cannot write output: no space left on device\n")
      })
    }
    it("project --format json (the failure as a JSON line)", async () => {
      const ended = await run(projectArgs("json"), "full")
      expect(ended.code).toBe(1)
      expect(JSON.parse(ended.stderr)).toEqual({
        error: { kind: "failure", message: "cannot write output: no space left on device", exitCode: 1 }
      })
    })
    for (const args of [["--help"], ["help", "project"], ["--version"], ["worker", "--help"]]) {
      it(args.join(" "), async () => {
        const ended = await run(args, "full")
        expect(ended.code).toBe(1)
        expect(ended.stderr).toBe("tppkit: cannot write output: no space left on device\n")
      })
    }
  })
})

describe("a reader that closes the pipe", { timeout: 120_000 }, () => {
  for (const format of ["table", "csv", "json"]) {
    it(`ends project --format ${format} quietly with exit code 0`, async () => {
      const ended = await run(projectArgs(format), { closeAfter: 64 })
      expect(ended.read).toBeGreaterThanOrEqual(64)
      expect(ended.stderr).toBe("")
      expect(ended.code).toBe(0)
    })
  }
})
