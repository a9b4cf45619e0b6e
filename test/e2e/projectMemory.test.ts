/**
 * `tppkit project` runs in bounded memory whatever the window: one DAI7 order from 0001-01-01 to 9999-12-31
 * (3,652,059 payments) projected by a real process whose heap is limited to 400 MB, in every format (table, json,
 * csv, ics, html); of the long outputs only the end is kept by the test.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { root, tppkit } from "./harness.ts"

const dir = mkdtempSync(join(tmpdir(), "tppkit-memory-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const orders = join(dir, "dai7.json")
writeFileSync(
  orders,
  JSON.stringify([
    {
      orderId: "SO-DAI7",
      debtor: { name: "Jana Novakova", iban: "SK2411000000002612345678" },
      creditor: { name: "Landlord s.r.o.", iban: "SK6609000000005012345678" },
      instructedAmount: { value: "1.50", currency: "EUR" },
      startDate: "0001-01-01",
      frequency: "DAI7"
    }
  ])
)

const PAYMENTS = 3_652_059

const window = ["--from", "0001-01-01", "--to", "9999-12-31"]

/** Runs `tppkit project` on the order with a 400 MB heap, keeping only the last 64 KB of stdout. */
const tail = (format: string): Promise<{ code: number | null; stderr: string; end: string; bytes: number }> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        "--conditions=@tppkit/source",
        "packages/cli/src/bin.ts",
        "project",
        "--orders",
        orders,
        ...window,
        "--format",
        format
      ],
      {
        cwd: root,
        env: { ...process.env, NO_COLOR: "1", NODE_OPTIONS: "--max-old-space-size=400" },
        stdio: ["ignore", "pipe", "pipe"]
      }
    )
    let end = Buffer.alloc(0)
    let bytes = 0
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => {
      bytes += chunk.length
      end = Buffer.concat([end, chunk]).subarray(-65_536)
    })
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk
    })
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stderr, end: end.toString("utf8"), bytes }))
  })

describe("project over 3.65 M payments, the heap limited to 400 MB", () => {
  it("table: lists the first rows, says how many more, totals every payment", { timeout: 600_000 }, async () => {
    const run = await tppkit(["project", "--orders", orders, "--from", "0001-01-01", "--to", "9999-12-31"], {
      env: { NODE_OPTIONS: "--max-old-space-size=400" },
      timeoutMs: 590_000
    })
    expect(run.timedOut).toBe(false)
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(`Totals (${PAYMENTS} payments)`)
    // 3,652,059 × 1.50
    expect(run.stdout).toMatch(new RegExp(`EUR +${PAYMENTS} +5478088\\.50\\n`))
    expect(run.stdout.replaceAll("\n", " ")).toContain(`… ${PAYMENTS - 5000} more payments are in the totals`)
  })
  it("json: every payment, the totals over all of them", { timeout: 900_000 }, async () => {
    const run = await tail("json")
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.end).toContain(`"totals": [\n    {"currency":"EUR","count":${PAYMENTS},"amount":"5478088.50"}\n  ]\n}\n`)
  })

  it("ics: an event per payment, the last one without DTEND", { timeout: 900_000 }, async () => {
    const run = await tail("ics")
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(
      run.end.endsWith(
        "BEGIN:VEVENT\r\nUID:SO-DAI7-99991231@tppkit\r\nDTSTAMP:99991231T000000Z\r\nDTSTART;VALUE=DATE:99991231\r\n" +
          "SUMMARY:Standing order 1.50 EUR to Landlord s.r.o.\r\n" +
          "DESCRIPTION:Amount: 1.50 EUR\\nFrom: SK2411000000002612345678\\nTo: Landlord \r\n" +
          " s.r.o. (SK6609000000005012345678)\\nStanding order: SO-DAI7\\, occurrence 36\r\n" +
          " 52058\\nNominal date: 9999-12-31\\; execution date: 9999-12-31\\nDate: engine\r\n" +
          " -predicted\r\nX-TPPKIT-PROVENANCE:engine-predicted\r\n" +
          "TRANSP:TRANSPARENT\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
      )
    ).toBe(true)
    // every payment's event, of about 485 bytes each (the provenance line and property included)
    expect(run.bytes).toBeGreaterThan(PAYMENTS * 470)
  })

  it("html: the table capped and saying so, the totals over every payment", { timeout: 900_000 }, async () => {
    const run = await tail("html")
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.end).toContain(`${PAYMENTS - 5000} more payments are in the chart and the totals but not listed`)
    expect(run.end).toContain(
      `<td><code>SK2411000000002612345678</code></td><td>EUR</td><td class="num">${PAYMENTS}</td>` +
        `<td class="num">5\u2009478\u2009088.50</td>`
    )
    expect(run.end.endsWith("</html>\n")).toBe(true)
  })

  it("csv: a line per payment", { timeout: 900_000 }, async () => {
    const run = await tail("csv")
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(
      run.end.endsWith(
        "SO-DAI7,9999-12-31,9999-12-31,engine-predicted,1.50,EUR,SK2411000000002612345678,SK6609000000005012345678,Landlord s.r.o.\r\n"
      )
    ).toBe(true)
  })
})
