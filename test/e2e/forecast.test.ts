import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { tempFolder } from "../cli/tempFiles.ts"
import { tppkit } from "./harness.ts"

const A = "SK2411000000002612345678"
const { dir, file } = tempFolder("tppkit-forecast")
const window = ["--from", "2027-01-01", "--to", "2027-03-31"]
const base = ["forecast", "--orders", "examples/orders.json", "--flows", "examples/salary.json", ...window]

describe("tppkit forecast", { timeout: 90_000 }, () => {
  it("the README's example: one account below its threshold of 100 from 2027-03-22, exit 8", async () => {
    const run = await tppkit([...base, "--balances", "examples/balances.json"])
    expect(run.stderr).toBe("")
    expect(run.code).toBe(8)
    expect(run.stdout).toMatch(/^Forecast 2027-01-01\.\.2027-03-31 · target · following · 1 account, 1 at risk$/m)
    expect(run.stdout).toMatch(new RegExp(`^${A} +EUR +300\\.00 +79\\.35 +2027-03-22 +279\\.25 +8$`, "m"))
    expect(run.stdout).toMatch(
      /^ {2}2027-03-22\.\.2027-03-29 +closing 79\.35, out 50\.00 that day together, short 20\.65$/m
    )
  })
  it("a lower threshold: no findings, exit 0; json and csv carry the exact ladder", async () => {
    const ok = await tppkit([...base, "--balances", "examples/balances.json", "--threshold", `${A}=50`])
    expect(ok.code).toBe(0)
    const json = await tppkit([
      ...base,
      "--balances",
      "examples/balances.json",
      "--threshold",
      `${A}=50`,
      "--format",
      "json"
    ])
    expect(json.code).toBe(0)
    const doc = JSON.parse(json.stdout)
    expect(doc.findings).toBe(false)
    expect(doc.accounts[0].lowest).toEqual({ amount: "79.35", date: "2027-03-22" })
    expect(doc.accounts[0].ladder[0]).toEqual({
      date: "2027-01-01",
      until: "2027-01-03",
      // amounts with EUR's two decimals (issue 40; they were "300", "0")
      opening: "300.00",
      out: "0.00",
      in: "0.00",
      closing: "300.00",
      atRisk: false
    })
    const csv = await tppkit([...base, "--balances", "examples/balances.json", "--format", "csv"])
    const lines = csv.stdout.trim().split("\n")
    expect(lines[0]).toBe("iban,currency,date,until,opening,out,in,closing,at_risk,not_netted,note")
    expect(lines).toContain(`${A},EUR,2027-03-22,2027-03-29,129.35,50.00,0.00,79.35,yes,0,`)
  })
  it("the HTML picture: self-contained, each account's line with its risk days and lowest point labelled", async () => {
    const run = await tppkit([...base, "--balances", "examples/balances.json", "--format", "html"])
    expect(run.code).toBe(8)
    expect(run.stdout.startsWith("<!doctype html>")).toBe(true)
    expect(run.stdout).not.toMatch(/https?:|<script|<link/)
    // the line starts at the amount axis, which is as wide as its labels ("threshold 100.00")
    expect(run.stdout).toMatch(/<path class="line" d="M\d+\.\d,/)
    expect(run.stdout).toContain(">threshold 100.00</text>")
    expect(run.stdout.match(/<rect class="risk"/g)?.length).toBe(1)
    expect(run.stdout).toContain("lowest 79.35 on 2027-03-22")
    expect(run.stdout).toContain("below the threshold of 100.00 from 2027-03-22; 8 days at risk")
    expect(run.stdout).toContain("2027-03-22  SO-SAVINGS  50.00 EUR")
    expect(run.stdout.length).toBeLessThan(5_000_000)
  })
  it("a scenario lists what changed; a DECL for a covered payment is flagged first", async () => {
    const checks = file("checks.json", [
      {
        orderId: "SO-RENT",
        executionDate: "2027-02-01",
        debtorIban: A,
        amount: "650.10",
        currency: "EUR",
        checkedOn: "2027-01-26",
        answer: "DECL"
      },
      {
        orderId: "SO-SAVINGS",
        executionDate: "2027-03-22",
        debtorIban: A,
        amount: 50,
        currency: "EUR",
        checkedOn: "2027-03-15",
        answer: "APPR"
      }
    ])
    const run = await tppkit([
      ...base,
      "--balances",
      "examples/balances.json",
      "--checks",
      checks,
      "--scenario",
      "delay:SALARY@2027-01-28+5"
    ])
    expect(run.code).toBe(8)
    const lines = run.stdout.split("\n")
    const urgent = lines.findIndex((l) => l.includes("URGENT: declined, but"))
    const mild = lines.findIndex((l) => l.includes("approved, but the"))
    expect(urgent).toBeGreaterThan(0)
    expect(mild).toBeGreaterThan(urgent)
    expect(lines[urgent]).toMatch(/^ {2}DECL SO-RENT 650\.10 EUR from SK2411000000002612345678/)
    expect(run.stdout).toMatch(/^ {2}- 2027-01-28 +SALARY +900\.00 EUR to Jana Novakova$/m)
    expect(run.stdout).toMatch(/^ {2}\+ 2027-02-02 +SALARY +900\.00 EUR to Jana Novakova$/m)
    expect(run.stdout).toMatch(/^ {4}new risk days 2027-02-01 closing -600\.10$/m)
  })
  it("a scenario adds the orders of a file: a car loan from February puts new days at risk", async () => {
    const car = file("car.json", {
      standingOrders: [
        {
          orderId: "SO-CAR",
          debtor: { name: "Jana Novakova", iban: A },
          creditor: { name: "Auto Leasing", iban: "SK6609000000005012345678" },
          instructedAmount: { value: 150, currency: "EUR" },
          startDate: "2027-02-10",
          frequency: "MNTH"
        }
      ]
    })
    const run = await tppkit([...base, "--balances", "examples/balances.json", "--scenario", `add:${car}`])
    expect(run.code).toBe(8)
    expect(run.stdout).toMatch(/^ {2}\+ 2027-02-10 +SO-CAR +150\.00 EUR to Auto Leasing$/m)
    expect(run.stdout).toMatch(/^ {2}\+ 2027-03-10 +SO-CAR +150\.00 EUR to Auto Leasing$/m)
    expect(run.stdout).toMatch(/new risk days 2027-02-10/)
    const json = JSON.parse(
      (await tppkit([...base, "--balances", "examples/balances.json", "--scenario", `add:${car}`, "--format", "json"]))
        .stdout
    )
    expect(json.scenarios[0].added.map((p: { orderId: string }) => p.orderId)).toEqual(["SO-CAR", "SO-CAR"])
  })
  it("bad records are skipped with their reason, the others forecast; usage errors exit 2", async () => {
    const balances = file("balances.json", [
      { iban: A, currency: "EUR", amount: "300", date: "2027-01-01" },
      { iban: A, currency: "EUR", amount: "1", date: "2027-01-01" },
      { iban: "SK00", currency: "EUR", amount: "1", date: "2027-01-01" }
    ])
    const run = await tppkit([...base, "--balances", balances])
    expect(run.code).toBe(7)
    expect(run.stderr).toMatch(/2 records could not be read \(listed under Skipped\); every other record was used/)
    expect(run.stdout).toMatch(/^Skipped \(2\):$/m)
    expect(run.stdout).toContain("is given again (the first one is used)")
    const bad = await tppkit([...base, "--balances", balances, "--scenario", "explode:X"])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--scenario "explode:X"/)
    const notJson = await tppkit([...base, "--balances", file("x.json", "{")])
    expect(notJson.code).toBe(2)
    const missing = await tppkit([...base, "--balances", join(dir, "none.json")])
    expect(missing.code).toBe(1)
  })
})
