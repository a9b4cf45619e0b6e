/**
 * `forecast`, `reconcile`, `translate` and `explain` as processes, interrupted (issue 40): they compute before they
 * print, and SIGINT or SIGTERM ignored (they ran on, printed everything and exited 8 or 130 after it). Sent while the
 * command reads or computes (its orders on stdin, the signal once stdin has ended or while it is read), it ends the
 * command with exit code 130 and nothing written; sent when the first output arrives, with 130 and what was written
 * ending with a whole line, far short of the whole output.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { root } from "./harness.ts"

const dir = mkdtempSync(join(tmpdir(), "tppkit-compute-signals-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const DEBTOR = "SK2411000000002612345678"
const codes = ["DAI7", "WEEK", "MNTH", "MNTH", "QUTR", "DAIL"]
/** `n` orders of one debtor; `nextDate` (the bank's, reconciled) when given. */
const ordersText = (n: number, nextDate?: boolean): string =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) => ({
      orderId: `SO-${i}`,
      debtor: { name: "Debtor", iban: DEBTOR },
      creditor: { name: `Creditor ${i}`, iban: "SK6609000000005012345678" },
      instructedAmount: { value: 1 + (i % 50), currency: "EUR" },
      startDate: `2026-01-${String(1 + (i % 28)).padStart(2, "0")}`,
      ...(nextDate === true ? { nextDate: `2027-03-0${1 + ((i * 7) % 9)}` } : {}),
      frequency: codes[i % codes.length]
    }))
  )
// an account with ten euros for ten years of 1,500 orders: every day at risk, 100,000 payments listed
const forecastOrders = join(dir, "forecast.json")
writeFileSync(forecastOrders, ordersText(1500))
const balances = join(dir, "balances.json")
writeFileSync(balances, JSON.stringify([{ iban: DEBTOR, currency: "EUR", amount: "10.00", date: "2026-01-01" }]))
const listing = join(dir, "listing.json")
writeFileSync(listing, ordersText(15_000, true))

interface Interrupted {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  /** The bytes written before the end, counted, and the last of them. */
  readonly bytes: number
  readonly tail: string
  readonly stderr: string
}

/**
 * Runs `tppkit args` and sends `signal`: when the first output arrives (`at: "output"`), once stdin (the text given)
 * has ended (`"ended"`), or once the command has taken a megabyte of it, never ending it (`"reading"`). Killed after
 * two minutes.
 */
const interrupted = (
  args: ReadonlyArray<string>,
  signal: NodeJS.Signals,
  at: "output" | "ended" | "reading",
  stdin?: string
): Promise<Interrupted> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, ["--conditions=@tppkit/source", "packages/cli/src/bin.ts", ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: [stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"]
    })
    let bytes = 0
    let tail = Buffer.alloc(0)
    let stderr = ""
    let sent = false
    const send = () => {
      if (sent) return
      sent = true
      child.kill(signal)
    }
    child.stdout?.on("data", (chunk: Buffer) => {
      bytes += chunk.length
      tail = Buffer.concat([tail, chunk]).subarray(-200)
      if (at === "output") send()
    })
    child.stderr?.setEncoding("utf8").on("data", (c: string) => {
      stderr += c
    })
    if (stdin !== undefined && child.stdin !== null) {
      child.stdin.on("error", () => {})
      if (at === "reading") {
        // the pipe holds some 64 KiB: a megabyte written means the command is reading it (its handlers are set)
        child.stdin.write(stdin.slice(0, 1 << 20), () => send())
      } else child.stdin.end(stdin, () => (at === "ended" ? send() : undefined))
    }
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000)
    child.on("close", (code, sig) => {
      clearTimeout(timer)
      resolve({ code, signal: sig, bytes, tail: tail.toString("utf8"), stderr })
    })
  })

/** Exit code 130, not killed by the signal; nothing written, or a whole last line. */
const endedCleanly = (run: Interrupted) => {
  expect(run.signal).toBeNull()
  expect(run.code, run.stderr).toBe(130)
  if (run.bytes > 0) expect(run.tail.endsWith("\n"), JSON.stringify(run.tail.slice(-80))).toBe(true)
}

const window = ["--from", "2026-01-01", "--to", "2035-12-31"]

describe.concurrent("commands that compute before they print, interrupted", { timeout: 150_000 }, () => {
  it("forecast: SIGINT while it reads and computes ends it with 130 and nothing written", async () => {
    const run = await interrupted(
      ["forecast", "--orders", "-", "--balances", balances, ...window],
      "SIGINT",
      "ended",
      readFileSync(forecastOrders, "utf8")
    )
    endedCleanly(run)
    expect(run.bytes).toBe(0)
  })

  it("forecast --format json: SIGTERM at the first output ends it with 130 on a whole line (the whole is some 60 MB)", async () => {
    const run = await interrupted(
      ["forecast", "--orders", forecastOrders, "--balances", balances, ...window, "--format", "json"],
      "SIGTERM",
      "output"
    )
    endedCleanly(run)
    expect(run.bytes).toBeGreaterThan(0)
    expect(run.bytes).toBeLessThan(20_000_000)
  })

  it("reconcile: SIGTERM while it reconciles ends it with 130 and nothing written; at the first JSON output, short of the whole", async () => {
    const computing = await interrupted(
      ["reconcile", "--orders", "-", "--as-of", "2027-03-01"],
      "SIGTERM",
      "ended",
      readFileSync(listing, "utf8")
    )
    endedCleanly(computing)
    expect(computing.bytes).toBe(0)
    const writing = await interrupted(
      ["reconcile", "--orders", listing, "--as-of", "2027-03-01", "--format", "json"],
      "SIGINT",
      "output"
    )
    endedCleanly(writing)
    // the whole document is some 4 MB; a signal at its first piece stops it short of its end
    expect(writing.tail).not.toMatch(/\}\n$/)
  })

  it("translate: SIGINT while it writes a whole list (cobs) ends it with 130 and nothing written; JSON lines end whole", async () => {
    const whole = await interrupted(
      ["translate", "--orders", "-", "--to", "cobs"],
      "SIGINT",
      "ended",
      readFileSync(listing, "utf8")
    )
    endedCleanly(whole)
    expect(whole.bytes).toBe(0)
    const lines = await interrupted(
      ["translate", "--orders", listing, "--to", "rrule", "--format", "json"],
      "SIGINT",
      "output"
    )
    endedCleanly(lines)
    expect(lines.tail).not.toContain('"orderId":"SO-14999"')
  })

  it("explain: SIGTERM while it reads the orders ends it with 130 and nothing written", async () => {
    const run = await interrupted(
      ["explain", "--orders", "-", "--order", "SO-14999", "--date", "2027-03-01"],
      "SIGTERM",
      "reading",
      readFileSync(listing, "utf8")
    )
    endedCleanly(run)
    expect(run.bytes).toBe(0)
  })
})
