/**
 * Numbers are numbers on the command line (issue 33): a record of each standard whose numeric fields are JSON numbers
 * (the cases and every numeric field of the core README's table) projects the dates its standard means,
 * as the library reads it (test/core/Orders.test.ts), and a number where the standard wants text is a warning.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { numeric } from "../arbitraries/numericRecords.ts"
import { run } from "./inProcess.ts"

const dir = mkdtempSync(join(tmpdir(), "tppkit-numbers-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const parties = {
  debtor: { name: "A", iban: "SK3112000000198742637541" },
  creditor: { name: "B", iban: "CZ6508000000192000145399" },
  instructedAmount: { value: 10, currency: "EUR" }
}

describe("tppkit project: numbers in every standard's fields", () => {
  it("projects the dates each standard means, the whole file read as the library reads it", async () => {
    const file = join(dir, "numbers.json")
    writeFileSync(file, JSON.stringify(numeric.map((c, i) => ({ orderId: `N${i}`, ...parties, ...c.record }))))
    const r = await run(["project", "--orders", file, "--from", "2027-01-01", "--to", "2029-12-31", "--format", "json"])
    expect(r.stderr).not.toContain("skipped")
    expect(r.code).toBe(0)
    const payments = (JSON.parse(r.stdout) as { payments: Array<{ orderId: string; nominalDate: string }> }).payments
    numeric.forEach((c, i) => {
      const nominal = payments.filter((p) => p.orderId === `N${i}`).map((p) => p.nominalDate)
      if (c.dates.length < 6) expect(nominal, c.name).toEqual(c.dates)
      else expect(nominal.slice(0, c.dates.length), c.name).toEqual(c.dates)
      // a number where the standard wants text: read, with a warning naming the field
      const warned = r.stderr.split("\n").filter((l) => l.startsWith(`tppkit: warning N${i}: `))
      expect(warned.length, c.name).toBe(c.tolerated === undefined ? 0 : 1)
      if (c.tolerated !== undefined) expect(warned[0], c.name).toContain(`tolerated: ${c.tolerated} `)
    })
  })
})
