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
import { Output } from "@tppkit/cli"
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

describe("Output.lineBatches (issue 40)", () => {
  const text = (b: string | Uint8Array) => (typeof b === "string" ? b : new TextDecoder().decode(b))
  it("ends every batch but the last at a line end, text and bytes alike, the text unchanged", () => {
    const encoder = new TextEncoder()
    const pieces: Array<string | Uint8Array> = [
      "head\nhalf a ",
      "line\n",
      "",
      encoder.encode("bytes 1\nbytes 2\nbytes "),
      encoder.encode("3\nlast"),
      "",
      " line\n"
    ]
    const batches = [...Output.lineBatches(pieces)]
    expect(batches.map(text).join("")).toBe(pieces.map(text).join(""))
    const written = batches.filter((b) => b.length > 0)
    for (const b of written.slice(0, -1)) expect(text(b).endsWith("\n")).toBe(true)
    // a pause (an empty piece) writes the whole lines gathered so far first
    expect(text(batches[0]!)).toBe("head\nhalf a line\n")
    expect(batches[1]!.length).toBe(0)
  })
  it("keeps what follows a byte chunk's last line end though the chunk's buffer is reused", () => {
    const buffer = new TextEncoder().encode("a\nb")
    const out: Array<string> = []
    const source = function* () {
      yield buffer
      buffer.set(new TextEncoder().encode("c\nd"))
      yield buffer
    }
    for (const b of Output.lineBatches(source())) out.push(text(b))
    expect(out.join("")).toBe("a\nbc\nd")
  })
})
