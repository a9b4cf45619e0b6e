/**
 * `forecast`, `reconcile`, `translate` and `explain` as processes, interrupted (issue 40): they compute before they
 * print, and SIGINT or SIGTERM ignored (they ran on, printed everything and exited 8 or 130 after it). Sent while the
 * command reads or computes (its orders on stdin, the signal once stdin has ended or while it is read), it ends the
 * command with exit code 130 and nothing written; sent when the first output arrives, with 130 and what was written
 * ending with a whole line, far short of the whole output. `forecast` gives the runtime its turn while its engine
 * computes (between accounts): a signal then ends it before the forecast is done.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { tempFolder } from "../cli/tempFiles.ts"
import { endedCleanly, interrupted } from "./harness.ts"

const { file } = tempFolder("tppkit-compute-signals")

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
const forecastOrders = file("forecast.json", ordersText(1500))
const balances = file("balances.json", [{ iban: DEBTOR, currency: "EUR", amount: "10.00", date: "2026-01-01" }])
/** An IBAN of the Slovak form with its check digits (ISO 13616, mod 97). */
const ibanOf = (bban: string): string => `SK${String(98n - (BigInt(`${bban}282000`) % 97n)).padStart(2, "0")}${bban}`
// the same 1,500 orders over 15 accounts, each with ten euros (the first with a third decimal: a warning on stderr
// just before the forecast computes)
const debtors = Array.from({ length: 15 }, (_, k) => ibanOf(`11000000002612345${String(k).padStart(3, "0")}`))
const spreadOrders = file(
  "spread.json",
  (JSON.parse(ordersText(1500)) as Array<{ debtor: object }>).map((o, i) => ({
    ...o,
    debtor: { name: "Debtor", iban: debtors[i % debtors.length] }
  }))
)
const spreadBalances = file(
  "spread-balances.json",
  debtors.map((iban, k) => ({ iban, currency: "EUR", amount: k === 0 ? "10.001" : "10.00", date: "2026-01-01" }))
)
const listing = file("listing.json", ordersText(15_000, true))

const window = ["--from", "2026-01-01", "--to", "2035-12-31"]

describe.concurrent("commands that compute before they print, interrupted", { timeout: 150_000 }, () => {
  it("forecast: SIGINT while it computes ends it with 130, nothing written, before the forecast is done", async () => {
    // sent at the warning said just before the engine runs (some 0.4 s over the 15 accounts)
    const run = await interrupted(
      ["forecast", "--orders", "-", "--balances", spreadBalances, ...window],
      "SIGINT",
      /more decimals than EUR's minor unit/,
      readFileSync(spreadOrders, "utf8")
    )
    endedCleanly(run)
    expect(run.bytes).toBe(0)
    // the forecast was not finished: what is said of a finished one (its payments at risk counted) is not
    expect(run.stderr).not.toContain("payments out on days at risk")
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

  // a command that computes a whole list before it writes: interrupted while it computes (its stdin ended), and when
  // its first output arrives (the rest short of the end)
  it.each([
    {
      name: "reconcile",
      computing: { args: ["reconcile", "--orders", "-", "--as-of", "2027-03-01"], signal: "SIGTERM" as const },
      writing: {
        args: ["reconcile", "--orders", listing, "--as-of", "2027-03-01", "--format", "json"],
        signal: "SIGINT" as const
      },
      // the whole document is some 4 MB; a signal at its first piece stops it short of its end
      short: (tail: string) => expect(tail).not.toMatch(/\}\n$/)
    },
    {
      name: "translate (a whole list: cobs; JSON lines end whole)",
      computing: { args: ["translate", "--orders", "-", "--to", "cobs"], signal: "SIGINT" as const },
      writing: {
        args: ["translate", "--orders", listing, "--to", "rrule", "--format", "json"],
        signal: "SIGINT" as const
      },
      short: (tail: string) => expect(tail).not.toContain('"orderId":"SO-14999"')
    }
  ])(
    "$name: a signal while it computes ends it with 130 and nothing written; at the first output, short of the whole",
    async ({ computing, writing, short }) => {
      const whole = await interrupted(computing.args, computing.signal, "ended", readFileSync(listing, "utf8"))
      endedCleanly(whole)
      expect(whole.bytes).toBe(0)
      const lines = await interrupted(writing.args, writing.signal, "output")
      endedCleanly(lines)
      short(lines.tail)
    }
  )

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
