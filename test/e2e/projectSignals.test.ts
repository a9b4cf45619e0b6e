/**
 * `tppkit project` of a long window as a process, interrupted (issue 40): SIGINT or SIGTERM, sent as soon as the
 * first output arrives, ends it with exit code 130 in every format (the table ignored it and went on to exit 0: it
 * read every payment for its totals in one go), and what it wrote ends with a whole line.
 */
import { describe, expect, it } from "vitest"
import { tempFolder } from "../cli/tempFiles.ts"
import { endedCleanly, interrupted } from "./harness.ts"

const { file } = tempFolder("tppkit-signals")

// 2,000 orders paying every day for eleven years: some eight million payments, far more than a signal needs
const orders = file(
  "daily.json",
  Array.from({ length: 2000 }, (_, i) => ({
    orderId: `SO-${i}`,
    debtor: { name: "Debtor", iban: "SK2411000000002612345678" },
    creditor: { name: `Creditor ${i}`, iban: "SK6609000000005012345678" },
    instructedAmount: { value: 1 + (i % 50), currency: "EUR" },
    startDate: "2026-01-01",
    frequency: "DAI7"
  }))
)
const window = ["--from", "2026-01-01", "--to", "2036-12-31"]

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
      // sent when the first output arrives
      const run = await interrupted(["project", "--orders", orders, ...window, "--format", format], signal, "output")
      endedCleanly(run)
      expect(run.bytes).toBeGreaterThan(0)
      // interrupted early: a whole run writes gigabytes (the table: its totals, which come last)
      if (format === "table") expect(run.tail).not.toMatch(/2036-12/)
    })
  }
})
