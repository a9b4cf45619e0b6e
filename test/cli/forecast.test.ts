/**
 * `tppkit forecast` in-process (internal/forecast.ts) on hand-written files, as a new user writes them (issue 40):
 * a delay counted once, a delay moved off a weekend, accounts without a usable balance listed with the reason.
 */
import { describe, expect, it } from "vitest"
import { run } from "./inProcess.ts"
import { tempFolder } from "./tempFiles.ts"

const SK = "SK2411000000002612345678"
const OTHER = "SK6609000000005012345678"
const EMPLOYER = "DE89370400440532013000"
const LANDLORD = "AT611904300234573201"
const { file } = tempFolder("tppkit-forecast-cli")
const order = (orderId: string, startDate: string, value: number, debtor: string, creditor: string) => ({
  orderId,
  frequency: "MNTH",
  startDate,
  instructedAmount: { value, currency: "EUR" },
  debtor: { name: "Debtor", iban: debtor },
  creditor: { name: "Creditor", iban: creditor }
})
/** A balance record of an account in EUR. */
const balance = (iban: string, amount: string, date: string) => ({ iban, currency: "EUR", amount, date })
/** The arguments forecasting the orders of one file on the balances of another from `from` to `to`. */
const forecast = (orders: string, balances: string, from: string, to: string) => [
  ...["forecast", "--orders", orders, "--balances", balances],
  ...["--from", from, "--to", to]
]

describe("tppkit forecast", () => {
  it("a delay counts a payment once: the December income is in the SK account's opening balance (issue 40)", async () => {
    const orders = file("income.json", [
      order("INCOME", "2026-01-28", 3000, EMPLOYER, SK),
      order("RENT", "2026-01-05", 10, OTHER, LANDLORD)
    ])
    const balances = file("two-dates.json", [
      balance(SK, "100.00", "2027-01-01"),
      balance(OTHER, "500.00", "2026-12-20")
    ])
    const args = forecast(orders, balances, "2027-01-01", "2027-01-31")
    const json = await run([...args, "--scenario", "delay:INCOME+10", "--format", "json"])
    expect(json.stderr).toBe("")
    const doc = JSON.parse(json.stdout)
    const change = doc.scenarios[0].accounts.find((a: { iban: string }) => a.iban === SK)
    // the January income is due on 7 February, after the window; the December one stays in the opening balance
    expect(change.closing).toEqual({ base: "3100.00", scenario: "100.00" })
    expect(doc.scenarios[0].added).toEqual([])
    expect(doc.scenarios[0].removed.map((p: { executionDate: string }) => p.executionDate)).toEqual(["2027-01-28"])
  })
  it("a delay onto a Saturday is paid on Monday by the order's convention, and the scenario says so", async () => {
    const orders = file("rent.json", [order("RENT", "2027-01-03", 10, SK, LANDLORD)])
    const args = forecast(orders, file("one.json", [balance(SK, "100.00", "2027-03-01")]), "2027-03-01", "2027-03-31")
    const table = await run([...args, "--scenario", "delay:RENT+3"])
    expect(table.stdout).toMatch(/^ {2}\+ 2027-03-08 RENT 10\.00 EUR/m)
    expect(table.stdout.replace(/\s+/g, " ")).toContain(
      "~ RENT of 2027-03-03 delayed: due Saturday 2027-03-06, no day its order pays on; moved by its rule to Monday 2027-03-08"
    )
    const json = JSON.parse((await run([...args, "--scenario", "delay:RENT+3", "--format", "json"])).stdout)
    expect(json.scenarios[0].moved).toEqual([
      { orderId: "RENT", was: "2027-03-03", due: "2027-03-06", executionDate: "2027-03-08" }
    ])
  })
  it("--holidays: the bank's own closing days move a payment, as for project and reconcile (issue 40)", async () => {
    const orders = file("rent-h.json", [order("RENT", "2027-01-03", 10, SK, LANDLORD)])
    const args = forecast(orders, file("one-h.json", [balance(SK, "100.00", "2027-03-01")]), "2027-03-01", "2027-03-31")
    const dates = async (more: ReadonlyArray<string>) => {
      const run_ = await run([...args, ...more, "--format", "json"])
      expect(run_.stderr).toBe("")
      return JSON.parse(run_.stdout).accounts[0].ladder.map((r: { date: string }) => r.date)
    }
    expect(await dates([])).toEqual(["2027-03-01", "2027-03-03"])
    // Wednesday 3 March closed: Thursday the 4th
    expect(await dates(["--holidays", "2027-03-03"])).toEqual(["2027-03-01", "2027-03-04"])
    // a scenario on another calendar keeps the bank's own closing days closed
    const weekends = JSON.parse(
      (await run([...args, "--holidays", "2027-03-03", "--scenario", "calendar:weekends", "--format", "json"])).stdout
    )
    expect(weekends.scenarios[0].added).toEqual([])
    const bad = await run([...args, "--holidays", "2027-02-30"])
    expect(bad.code).toBe(2)
  })
  it("lists every account with payments and no usable balance, with the reason, in every format (issue 40)", async () => {
    // a record for the creditor, an unreadable amount for one debtor, none for the other: both debtors are listed
    const orders = file("debtors.json", [
      order("A", "2027-01-10", 5, EMPLOYER, SK),
      order("B", "2027-01-11", 7, OTHER, SK)
    ])
    const balances = file("abc.json", [balance(SK, "100.00", "2027-01-01"), balance(OTHER, "abc", "2027-01-01")])
    const args = forecast(orders, balances, "2027-01-01", "2027-02-28")
    const table = await run(args)
    expect(table.code).toBe(7)
    expect(table.stdout).toContain("Accounts with payments and no usable balance (not forecast):")
    expect(table.stdout).toContain(`${EMPLOYER} EUR: 2 payments out in the window; no balance given`)
    expect(table.stdout).toContain(`${OTHER} EUR: 2 payments out in the window; its balance`)
    const json = JSON.parse((await run([...args, "--format", "json"])).stdout)
    expect(json.withoutBalance.map((w: { iban: string; count: number }) => [w.iban, w.count])).toEqual([
      [EMPLOYER, 2],
      [OTHER, 2]
    ])
    expect(json.withoutBalance[1].reason).toMatch(/^its balance \(.*abc\.json #2\) could not be read: amount:/)
    const csv = (await run([...args, "--format", "csv"])).stdout.split("\n")
    expect(csv[0]).toBe("iban,currency,date,until,opening,out,in,closing,at_risk,not_netted,note")
    expect(csv).toContain(
      `${EMPLOYER},EUR,2027-01-01,2027-02-28,,,,,,,"no usable balance: no balance given; 2 payments out in the window"`
    )
    expect(
      csv.some((l) => l.startsWith(`${OTHER},EUR,2027-01-01,2027-02-28,,,,,,,"no usable balance: its balance`))
    ).toBe(true)
    const html = (await run([...args, "--format", "html"])).stdout
    expect(html).toContain("Accounts with payments and no usable balance (not forecast)")
    expect(html).toContain(`${EMPLOYER} EUR: 2 payments out in the window; no balance given`)
  })
})

describe("tppkit forecast: more payments at risk than a forecast lists (issue 40)", () => {
  it("a table of a bounded size, the cut said on stderr, exit 8", async () => {
    // 150 orders paying every day from an empty account for two years: 109,650 payments at risk, 100,000 listed
    const daily = Array.from({ length: 150 }, (_, i) => ({
      ...order(`D${i}`, "2027-01-01", 1, SK, OTHER),
      frequency: "DAI7"
    }))
    const empty = file("empty.json", [balance(SK, "0", "2027-01-01")])
    const r = await run(forecast(file("daily.json", daily), empty, "2027-01-01", "2028-12-31"))
    expect(r.code).toBe(8)
    expect(r.stderr).toContain(
      "tppkit: warning: 109650 payments out on days at risk; the first 100000 are listed (a forecast lists at most 100000"
    )
    const lines = r.stdout.split("\n")
    expect(lines.filter((l) => /^ {4}2027-\d\d-\d\d D\d+ /.test(l))).toHaveLength(1000)
    expect(lines.length).toBeLessThan(1500)
    expect(r.stdout.replace(/\s+/g, " ")).toContain(
      "… and 631 more days at risk with payments or a closing at risk, to 2028-12-31 (94650 payments out)"
    )
  })
})
