/**
 * `tppkit project` runs in bounded memory whatever the window: one DAI7 order from 0001-01-01 to 9999-12-31
 * (3,652,059 payments) projected by a real process whose heap is limited to 400 MB. Formats not yet covered here
 * (json, csv, ics, html) are issue 19's open part.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { tppkit } from "./harness.ts"

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
})
