import { describe, expect, it } from "vitest"
import { tppkit } from "./harness.ts"

describe("tppkit demo", { timeout: 90_000 }, () => {
  it("runs the whole flow against the mock bank and prints the report within 80 columns", async () => {
    const run = await tppkit(["demo"], { timeoutMs: 60_000 })
    expect(run.timedOut).toBe(false)
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    const out = run.stdout
    expect(out).toMatch(/^tppkit demo: mock bank at http:\/\/127\.0\.0\.1:\d+ \(sandbox\)/)
    for (const heading of [
      "1. Tokens",
      "2. Balance check",
      "3. Standing orders",
      "4. Upcoming payments",
      "5. Cash flow per month and currency",
      "6. Funds check",
      "7. Payments at risk"
    ]) {
      expect(out).toContain(heading)
    }
    expect(out).toMatch(/: (APPR|DECL)\n {3}\[Response-ID /)
    expect(out).toMatch(/\d+ standing orders on [2-9] pages/)
    expect(out).not.toContain("sandbox-secret")
    for (const line of out.split("\n")) expect(line.length).toBeLessThanOrEqual(80)
  })
})
