/**
 * The bank's record without an anchor (no `startDate`, no `nextDate`) in an orders file, through the commands that do
 * not project it (cli README, "Output and errors": an order read whole but not projectable is only skipped, with its
 * reason, and the exit code stays 0): `translate` names it skipped rather than an unrepresentable translation (exit 8
 * before), `explain --order` says it pays nothing (exit 2 before), `reconcile` counts it skipped (it was counted
 * without nextDate, its reason unsaid); the good orders around it are used.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { run } from "./inProcess.ts"

const dir = mkdtempSync(join(tmpdir(), "tppkit-anchorless-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const order = (orderId: string, more: object) => ({
  orderId,
  frequency: "MNTH",
  instructedAmount: { value: 25, currency: "EUR" },
  debtor: { name: "Jana", iban: "SK2411000000002612345678" },
  creditor: { name: "Landlord", iban: "SK6609000000005012345678" },
  ...more
})
const orders = join(dir, "orders.json")
writeFileSync(
  orders,
  JSON.stringify([
    order("RENT", { startDate: "2026-03-02" }),
    order("NOANCHOR", {}),
    order("GYM", { startDate: "2026-03-05" })
  ])
)
const reason = "the order has neither startDate nor nextDate to anchor its schedule"

describe("the bank's record without an anchor, in a file: only skipped, with its reason", () => {
  it("translate names it skipped on stderr; the two good orders translated; exit 0", async () => {
    const r = await run(["translate", "--orders", orders, "--to", "sbas"])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^RENT {2}exact$/m)
    expect(r.stdout).toMatch(/^GYM {2}exact$/m)
    expect(r.stdout).not.toContain("NOANCHOR")
    expect(r.stderr).toBe(`tppkit: NOANCHOR skipped: ${reason}\ntppkit: 1 order skipped (each named above)\n`)
  })

  it("explain --order says it pays nothing and why, in the table and JSON; exit 0", async () => {
    const table = await run(["explain", "--orders", orders, "--order", "NOANCHOR"])
    expect([table.code, table.stdout]).toEqual([0, `Order "NOANCHOR" pays nothing: ${reason}.\n`])
    const json = await run(["explain", "--orders", orders, "--order", "NOANCHOR", "--format", "json"])
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual({ orderId: "NOANCHOR", skipped: reason })
    const rent = await run(["explain", "--orders", orders, "--order", "RENT", "--date", "2026-12-02"])
    expect(rent.code, rent.stderr).toBe(0)
  })

  it("reconcile counts it skipped with its position, the two others without nextDate; exit 0", async () => {
    const r = await run(["reconcile", "--orders", orders, "--as-of", "2026-11-01", "--format", "json"])
    expect(r.code, r.stderr).toBe(0)
    const json = JSON.parse(r.stdout)
    expect(json.counts).toMatchObject({ withoutNextDate: 2, skipped: 1 })
    expect(json.skipped).toEqual([{ orderId: "NOANCHOR", position: 2, reason }])
  })
})
