/**
 * `tppkit project` runs in bounded memory whatever the window: one weekly order whose last payment is 9999-12-31,
 * projected from 0001-01-01 (521,723 payments) by a real process in every format (table, json, csv, ics, html), its
 * heap limited to a little more than the format needs. What a format holds grows with the window's months (the
 * totals by month), not with its payments: on this window csv and ics run in 32 MB (not 24), json in 112 (not 96),
 * table and html in 128 (table not in 112), and a daily order of 3,652,059 payments in the same (csv and ics tried
 * at 40). So a format that kept 32 bytes or more of each payment (64 for ics, json, table and html) would run out
 * of its heap; the daily order under 400 MB (before) let 79 to 101 bytes pass, at seven times the work. Of the long
 * outputs only the end is kept by the test.
 */
import { describe, expect, it } from "vitest"
import { tempFolder } from "../cli/tempFiles.ts"
import { counted, tppkit } from "./harness.ts"

const { file } = tempFolder("tppkit-memory")

const orders = file("dai7.json", [
  {
    orderId: "SO-WEEK",
    debtor: { name: "Jana Novakova", iban: "SK2411000000002612345678" },
    creditor: { name: "Landlord s.r.o.", iban: "SK6609000000005012345678" },
    instructedAmount: { value: "1.50", currency: "EUR" },
    // four days into the window: the last payment falls on 9999-12-31, the last day there is
    startDate: "0001-01-05",
    frequency: "WEEK"
  }
])

const PAYMENTS = 521_723
/** 521,723 × 1.50 */
const TOTAL = "782584.50"

const window = ["--from", "0001-01-01", "--to", "9999-12-31"]

/**
 * The old generation's limit each format is given, MB: what it needs for the window (measured above) and 8 to 32 MB
 * more (ics 64: at 48 it spent 2.5 times the CPU collecting). The young generation keeps 16 MB semi-spaces (V8
 * sizes them down with a small heap, and then spends several times the projection's CPU collecting): what a format
 * kept would outlive them into the limited old generation.
 */
const heap = { csv: 48, ics: 64, json: 144, table: 160, html: 160 }
const nodeOptions = (format: keyof typeof heap) => `--max-old-space-size=${heap[format]} --max-semi-space-size=16`

/**
 * Runs `tppkit project` on the order with the format's heap, keeping only the last 64 KB of stdout; it ends with exit
 * code 0 and nothing on stderr.
 */
const projected = async (format: "csv" | "ics" | "json" | "html") => {
  const run = await counted(["project", "--orders", orders, ...window, "--format", format], {
    env: { NODE_OPTIONS: nodeOptions(format) },
    keep: 65_536
  })
  expect(run.stderr).toBe("")
  expect(run.code).toBe(0)
  return run
}

describe("project over 521,723 payments from 0001-01-01 to 9999-12-31, the heap limited", () => {
  it("table: lists the first rows, says how many more, totals every payment", { timeout: 120_000 }, async () => {
    const run = await tppkit(["project", "--orders", orders, ...window], {
      env: { NODE_OPTIONS: nodeOptions("table") },
      timeoutMs: 110_000
    })
    expect(run.timedOut).toBe(false)
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(`Totals (${PAYMENTS} payments)`)
    expect(run.stdout).toMatch(new RegExp(`EUR +${PAYMENTS} +${TOTAL.replace(".", "\\.")}\\n`))
    expect(run.stdout.replaceAll("\n", " ")).toContain(`… ${PAYMENTS - 5000} more payments are in the totals`)
  })
  it("json: every payment, the totals over all of them", { timeout: 120_000 }, async () => {
    const run = await projected("json")
    expect(run.tail).toContain(`"totals": [\n    {"currency":"EUR","count":${PAYMENTS},"amount":"${TOTAL}"}\n  ]\n}\n`)
  })

  it("ics: an event per payment, the last one without DTEND", { timeout: 120_000 }, async () => {
    const run = await projected("ics")
    expect(
      run.tail.endsWith(
        "BEGIN:VEVENT\r\nUID:SO-WEEK-99991231@tppkit\r\nDTSTAMP:99991231T000000Z\r\nDTSTART;VALUE=DATE:99991231\r\n" +
          "SUMMARY:Standing order 1.50 EUR to Landlord s.r.o.\r\n" +
          "DESCRIPTION:Amount: 1.50 EUR\\nFrom: SK2411000000002612345678\\nTo: Landlord \r\n" +
          " s.r.o. (SK6609000000005012345678)\\nStanding order: SO-WEEK\\, occurrence 52\r\n" +
          " 1722\\nNominal date: 9999-12-31\\; execution date: 9999-12-31\\nDate: engine-\r\n" +
          " predicted\r\nX-TPPKIT-PROVENANCE:engine-predicted\r\n" +
          "TRANSP:TRANSPARENT\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
      )
    ).toBe(true)
    // every payment's event, of about 485 bytes each (the provenance line and property included)
    expect(run.bytes).toBeGreaterThan(PAYMENTS * 470)
  })

  it("html: the table capped and saying so, the totals over every payment", { timeout: 120_000 }, async () => {
    const run = await projected("html")
    expect(run.tail).toContain(`${PAYMENTS - 5000} more payments are in the chart and the totals but not listed`)
    expect(run.tail).toContain(
      `<td><code>SK2411000000002612345678</code></td><td>EUR</td><td class="num">${PAYMENTS}</td>` +
        `<td class="num">782\u2009584.50</td>`
    )
    expect(run.tail.endsWith("</html>\n")).toBe(true)
  })

  it("csv: a line per payment", { timeout: 120_000 }, async () => {
    const run = await projected("csv")
    expect(
      run.tail.endsWith(
        "SO-WEEK,9999-12-31,9999-12-31,engine-predicted,1.50,EUR,SK2411000000002612345678,SK6609000000005012345678,Landlord s.r.o.\r\n"
      )
    ).toBe(true)
  })
})
