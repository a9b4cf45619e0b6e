/**
 * Amounts in their currency's minor unit digits in every format (issue 40; ISO 4217: EUR 2, JPY 0, BHD 3), JSON
 * included as exact strings, and never rounded: an amount with more decimals than its currency has prints whole,
 * with a warning on stderr.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DemoReport, SandboxCommand, WorkerStatus } from "@tppkit/cli"
import type { Sandbox } from "@tppkit/sandbox"
import { Checks } from "@tppkit/worker"
import { parse as parseCsv } from "csv-parse/sync"
import { BigDecimal, Redacted, Schema } from "effect"
import ICAL from "ical.js"
import { afterAll, describe, expect, it } from "vitest"
import { run } from "./inProcess.ts"

const dir = mkdtempSync(join(tmpdir(), "tppkit-minor-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const DEBTOR = "SK2411000000002612345678"
const order = (orderId: string, value: number | string, currency: string) => ({
  orderId,
  debtor: { name: "Debtor", iban: DEBTOR },
  creditor: { name: "Creditor", iban: "SK6609000000005012345678" },
  instructedAmount: { value, currency },
  startDate: "2027-01-04",
  frequency: "MNTH"
})
const orders = join(dir, "orders.json")
writeFileSync(
  orders,
  JSON.stringify([
    order("E1", 300, "EUR"),
    order("J1", 1500, "JPY"),
    order("J2", 100.5, "JPY"),
    order("B1", 1.5, "BHD")
  ])
)
const window = ["--from", "2027-01-01", "--to", "2027-01-31"]
/** What each order's payment shows: EUR with 2 decimals, JPY none (100.5 whole), BHD 3. */
const shown = { E1: "300.00", J1: "1500", J2: "100.5", B1: "1.500" }
const warning =
  "tppkit: warning J2: amount 100.5 JPY has more decimals than JPY's minor unit (0, ISO 4217): printed whole, not rounded"

describe("amounts in the currency's minor unit (issue 40)", () => {
  it("project: JSON (strings), CSV, table, iCalendar and HTML; the amount beyond JPY's digits whole, with a warning", async () => {
    const json = await run(["project", "--orders", orders, ...window, "--format", "json"])
    expect(json.code, json.stderr).toBe(0)
    expect(json.stderr).toContain(warning)
    const doc = JSON.parse(json.stdout) as {
      payments: Array<{ orderId: keyof typeof shown; amount: string }>
      totals: Array<{ currency: string; amount: string }>
    }
    expect(Object.fromEntries(doc.payments.map((p) => [p.orderId, p.amount]))).toEqual(shown)
    expect(doc.totals).toEqual([
      { currency: "BHD", count: 1, amount: "1.500" },
      { currency: "EUR", count: 1, amount: "300.00" },
      { currency: "JPY", count: 2, amount: "1600.5" }
    ])
    const csv = await run(["project", "--orders", orders, ...window, "--format", "csv"])
    const rows = parseCsv(csv.stdout, { columns: true }) as Array<{ orderId: keyof typeof shown; amount: string }>
    expect(Object.fromEntries(rows.map((r) => [r.orderId, r.amount]))).toEqual(shown)
    const table = await run(["project", "--orders", orders, ...window])
    for (const [id, amount] of Object.entries(shown))
      expect(table.stdout).toMatch(new RegExp(` ${id} .* ${amount.replace(".", "\\.")}  [A-Z]{3}$`, "m"))
    const ics = await run(["project", "--orders", orders, ...window, "--format", "ics"])
    const summaries = new ICAL.Component(ICAL.parse(ics.stdout))
      .getAllSubcomponents("vevent")
      .map((e) => String(e.getFirstPropertyValue("summary")))
    expect(summaries.sort()).toEqual(
      ["1.500 BHD", "100.5 JPY", "1500 JPY", "300.00 EUR"].map((a) => `Standing order ${a} to Creditor`).sort()
    )
    const html = await run(["project", "--orders", orders, ...window, "--format", "html"])
    expect(html.stdout).toContain('<td class="num">1\u2009500</td>')
    expect(html.stdout).toContain('<td class="num">1.500</td>')
    expect(html.stdout).toContain('<td class="num">300.00</td>')
  })

  it("forecast: JSON and CSV amounts with the account's digits ('300.00', never '300'); a balance beyond them warned", async () => {
    const balances = join(dir, "balances.json")
    writeFileSync(balances, JSON.stringify([{ iban: DEBTOR, currency: "EUR", amount: "700.125", date: "2027-01-01" }]))
    const eur = join(dir, "eur.json")
    writeFileSync(eur, JSON.stringify([order("E1", 300, "EUR"), order("E2", 100.1, "EUR")]))
    const json = await run(["forecast", "--orders", eur, "--balances", balances, ...window, "--format", "json"])
    expect(json.code, json.stderr).toBe(0)
    expect(json.stderr).toContain(
      "tppkit: warning SK2411000000002612345678: balance 700.125 EUR has more decimals than EUR's minor unit (2, ISO 4217): printed whole, not rounded"
    )
    const account = JSON.parse(json.stdout).accounts[0]
    expect([account.opening, account.out, account.in, account.closing]).toEqual([
      "700.125",
      "400.10",
      "0.00",
      "300.025"
    ])
    const csv = await run(["forecast", "--orders", eur, "--balances", balances, ...window, "--format", "csv"])
    const rows = parseCsv(csv.stdout, { columns: true }) as Array<Record<string, string>>
    expect(rows.map((r) => [r.opening, r.out, r.closing])).toEqual([
      ["700.125", "0.00", "700.125"],
      ["700.125", "400.10", "300.025"]
    ])
  })

  it("forecast: the table and the HTML picture print a JPY account's amounts without decimals", async () => {
    const balances = join(dir, "yen.json")
    writeFileSync(balances, JSON.stringify([{ iban: DEBTOR, currency: "JPY", amount: "10000", date: "2027-01-01" }]))
    const yen = join(dir, "yen-orders.json")
    writeFileSync(yen, JSON.stringify([order("J1", 1500, "JPY")]))
    const table = await run(["forecast", "--orders", yen, "--balances", balances, ...window])
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(/ JPY +10000 +8500 +2027-01-04 +8500 /)
    expect(table.stdout).not.toMatch(/8500\.00|10000\.00/)
    const html = await run(["forecast", "--orders", yen, "--balances", balances, ...window, "--format", "html"])
    expect(html.stdout).toContain("lowest 8500 on 2027-01-04")
  })
})

describe("minor units beyond project and forecast (issue 40)", () => {
  const check = (orderId: string, amount: string, currency: string): Checks.Row => ({
    ...Schema.decodeSync(Checks.Due)({
      consent: "c",
      orderId,
      nominalDate: "2027-01-04",
      executionDate: "2027-01-04",
      amount,
      currency,
      debtorIban: DEBTOR,
      sweepDay: "2027-01-02",
      checkAt: 0
    }),
    outcome: "APPR",
    failure: undefined,
    attempts: 1,
    unconfirmed: 0,
    correlationIds: [],
    checkedAt: "2027-01-02T07:00:01Z",
    requestId: "r",
    responseId: "s"
  })

  it("worker status: the checks' table and JSON with each currency's digits; an amount beyond them warned once", () => {
    const status: WorkerStatus.Status = {
      checks: [
        check("E1", "300", "EUR"),
        check("J1", "1500", "JPY"),
        check("J2", "100.5", "JPY"),
        check("B1", "1.5", "BHD")
      ],
      budget: []
    }
    const json = WorkerStatus.json(status) as unknown as {
      checks: Array<{ orderId: keyof typeof shown; amount: string }>
    }
    expect(Object.fromEntries(json.checks.map((c) => [c.orderId, c.amount]))).toEqual(shown)
    const table = WorkerStatus.table(status).join("\n")
    for (const [id, amount] of Object.entries(shown))
      expect(table).toMatch(new RegExp(`${id} .*[ ]${amount.replace(".", "\\.")} `))
    expect(table).not.toMatch(/1500\.00|300 EUR/)
    expect(WorkerStatus.beyondMinorUnits({ checks: [...status.checks, check("J2", "100.5", "JPY")] })).toEqual([
      {
        orderId: "J2",
        reason: "amount 100.5 JPY has more decimals than JPY's minor unit (0, ISO 4217): printed whole, not rounded"
      }
    ])
  })

  it("sandbox: each account's balance with its currency's digits", () => {
    const account = (iban: string, currency: string, balance: string) =>
      ({ iban, currency, balance: BigDecimal.fromStringUnsafe(balance), consent: "branch" }) as const
    const info = {
      baseUrl: "http://127.0.0.1:1",
      clientId: "id",
      clientSecret: Redacted.make("s"),
      accounts: [account("JP1", "JPY", "250000"), account("BH1", "BHD", "12.5"), account("SK1", "EUR", "35.2")],
      profile: { name: "sbas" }
    } as unknown as Sandbox.SandboxInfo["Service"]
    expect(SandboxCommand.report(info).accounts.map((a) => a.balance)).toEqual(["250000", "12.500", "35.20"])
  })

  it("demo: the funds-check table with each currency's digits", () => {
    const rows = DemoReport.summarizeRecorded([
      { debtorIban: "JP1", currency: "JPY", amount: BigDecimal.fromStringUnsafe("1500"), outcome: "APPR" },
      { debtorIban: "BH1", currency: "BHD", amount: BigDecimal.fromStringUnsafe("1.5"), outcome: "DECL" }
    ])
    const table = DemoReport.fundsTable(rows).join("\n")
    expect(table).toMatch(/^JP1 +1 +1500 +JPY /m)
    expect(table).toMatch(/^BH1 +1 +1\.500 +BHD /m)
  })
})
