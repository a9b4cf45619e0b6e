/**
 * Every output format is safe for what opens it (issue 40): orders whose orderId and creditor name are generated
 * hostile text (control characters, escape sequences, bidirectional controls, line separators, lone surrogates,
 * formula leaders, the formats' own delimiters and markup) are run through `tppkit project` in each format and
 * `tppkit forecast --format csv|html`, and each output is read back with a real parser: CSV with csv-parse, iCalendar
 * with ical.js, HTML with parse5 (a browser's parsing algorithm; the headless browser reads it too, in
 * test/e2e/browser.test.ts). Each text comes back intact, as the terminal shows it (core's `Text.printable`), with a
 * `'` before a CSV cell a spreadsheet would take for a formula; no control character comes back, no CSV cell begins
 * like a formula unless it is a plain number, and the HTML parses without an error. The JSON output, which keeps
 * every character (JSON escapes them), is the text each is compared with.
 */
import { Text } from "@tppkit/core"
import { parse as parseCsv } from "csv-parse/sync"
import * as fc from "fast-check"
import ICAL from "ical.js"
import { type DefaultTreeAdapterTypes, parse as parseHtml } from "parse5"
import { describe, expect, it } from "vitest"
import { CONTROL, hostileText } from "../arbitraries/hostile.ts"
import { run } from "./inProcess.ts"
import { tempFolder } from "./tempFiles.ts"

const { file } = tempFolder("tppkit-hostile")

/** A spreadsheet takes a cell for a formula when it begins with one of these (OWASP, "CSV Injection"). */
const FORMULA = /^[=+\-@\uff1d\uff0b\uff0d\uff20]/

const DEBTOR = "SK2411000000002612345678"

/** An orders file of one monthly order per text: the orderId and the creditor's name are the hostile text. */
const ordersFile = (texts: ReadonlyArray<string>): string =>
  file(
    `orders-${Math.random().toString(36).slice(2)}.json`,
    texts.map((t, i) => ({
      orderId: `${t}#${i}`,
      debtor: { name: "Debtor", iban: DEBTOR },
      creditor: { name: t, iban: "SK6609000000005012345678" },
      instructedAmount: { value: 10 + i, currency: "EUR" },
      startDate: "2027-01-04",
      frequency: "MNTH"
    }))
  )

const window = ["--from", "2027-01-01", "--to", "2027-02-28"]

/** The debtor's balance: 5.00 EUR, short of the first payment (10.00), so every payment of a forecast is at risk. */
const shortBalance = file("short.json", [{ iban: DEBTOR, currency: "EUR", amount: "5.00", date: "2027-01-01" }])

/** `tppkit forecast` of an orders file on the short balance over the window, in `format`. */
const forecast = (orders: string, format: string) =>
  run(["forecast", "--orders", orders, "--balances", shortBalance, ...window, "--format", format])

interface Projected {
  readonly orderId: string
  readonly creditorName?: string
}

/** The texts as read: the JSON output's orderIds and names (JSON keeps every character). */
const projected = async (orders: string): Promise<ReadonlyArray<Projected>> => {
  const r = await run(["project", "--orders", orders, ...window, "--format", "json"])
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout).payments as ReadonlyArray<Projected>
}

/** A CSV cell read back is the text as the terminal shows it, with a `'` before it when it begins like a formula. */
const expectCell = (cell: string, text: string) => {
  const shown = Text.printable(text)
  expect(cell).toBe(FORMULA.test(shown) && !/^-?\d+(\.\d+)?$/.test(shown) ? `'${shown}` : shown)
  expect(cell).not.toMatch(CONTROL)
}

/** Every text node of a parsed HTML document, in order. */
const textNodes = (node: DefaultTreeAdapterTypes.ParentNode): Array<string> =>
  node.childNodes.flatMap((c) =>
    c.nodeName === "#text"
      ? [(c as DefaultTreeAdapterTypes.TextNode).value]
      : "childNodes" in c
        ? textNodes(c as DefaultTreeAdapterTypes.ParentNode)
        : []
  )

/** The HTML parsed as a browser parses it, its parse errors collected. */
const readHtml = (html: string) => {
  const errors: Array<string> = []
  const document = parseHtml(html, { onParseError: (e) => errors.push(`${e.code} at ${e.startOffset}`) })
  const texts = textNodes(document)
  const attributes: Array<string> = []
  const walk = (n: DefaultTreeAdapterTypes.ParentNode) => {
    for (const c of n.childNodes) {
      if ("attrs" in c) for (const a of c.attrs) attributes.push(a.value)
      if ("childNodes" in c) walk(c as DefaultTreeAdapterTypes.ParentNode)
    }
  }
  walk(document)
  return { errors, texts, attributes }
}

/** `readHtml` of a page that parses without an error and has no control character in any text or attribute. */
const readCleanHtml = (html: string) => {
  const page = readHtml(html)
  expect(page.errors).toEqual([])
  for (const t of [...page.texts, ...page.attributes]) expect(t.replaceAll("\n", "")).not.toMatch(CONTROL)
  return page
}

const RUNS = 60

/**
 * Asserts `check` of `RUNS` orders files of one to four hostile texts each, given each file and the orderIds and names
 * its JSON output reads back (the texts as read).
 */
const forHostileOrders = (check: (orders: string, expected: ReadonlyArray<Projected>) => Promise<void>) =>
  fc.assert(
    fc.asyncProperty(fc.array(hostileText, { minLength: 1, maxLength: 4 }), async (texts) => {
      const orders = ordersFile(texts)
      await check(orders, await projected(orders))
    }),
    { numRuns: RUNS }
  )

describe("hostile text in every output format (issue 40)", () => {
  it("CSV: csv-parse reads each orderId and name back intact, formulas neutralised, no control character", async () => {
    await forHostileOrders(async (orders, expected) => {
      const r = await run(["project", "--orders", orders, ...window, "--format", "csv"])
      expect(r.code, r.stderr).toBe(0)
      const rows = parseCsv(r.stdout, { columns: true, relax_column_count: false }) as Array<Record<string, string>>
      expect(rows.length).toBe(expected.length)
      for (const [i, row] of rows.entries()) {
        expectCell(row.orderId!, expected[i]!.orderId)
        expectCell(row.creditorName!, expected[i]!.creditorName ?? "")
        for (const cell of Object.values(row)) {
          expect(cell).not.toMatch(CONTROL)
          if (FORMULA.test(cell)) expect(cell).toMatch(/^-?\d+(\.\d+)?$/)
        }
      }
      // --raw-csv: the cells as they are for programs (control characters still escaped)
      const raw = await run(["project", "--orders", orders, ...window, "--format", "csv", "--raw-csv"])
      const rawRows = parseCsv(raw.stdout, { columns: true }) as Array<Record<string, string>>
      for (const [i, row] of rawRows.entries()) {
        expect(row.orderId).toBe(Text.printable(expected[i]!.orderId))
        expect(row.creditorName).toBe(Text.printable(expected[i]!.creditorName ?? ""))
      }
    })
  }, 120_000)

  it("iCalendar (and --ics-rrule): ical.js reads each event's text back intact, no control character", async () => {
    await forHostileOrders(async (orders, expected) => {
      for (const extra of [[], ["--ics-rrule"]]) {
        const r = await run(["project", "--orders", orders, ...window, "--format", "ics", ...extra])
        expect(r.code, r.stderr).toBe(0)
        const events = new ICAL.Component(ICAL.parse(r.stdout)).getAllSubcomponents("vevent")
        expect(events.length).toBeGreaterThan(0)
        const summaries = events.map((e) => String(e.getFirstPropertyValue("summary")))
        const descriptions = events.map((e) => String(e.getFirstPropertyValue("description")))
        for (const p of expected) {
          const name = Text.printable(p.creditorName ?? "")
          expect(summaries.some((s) => s.endsWith(` to ${name}`))).toBe(true)
          expect(descriptions.some((d) => d.includes(`Standing order: ${Text.printable(p.orderId)}`))).toBe(true)
        }
        for (const e of events) {
          for (const property of e.getAllProperties()) {
            const value = String(property.getFirstValue())
            // DESCRIPTION holds line breaks of its own (escaped \n in the file); nothing else may be a control
            for (const line of value.split("\n")) expect(line).not.toMatch(CONTROL)
          }
        }
        // the file itself: CRLF line ends, nothing else below U+0020
        expect(r.stdout.replaceAll("\r\n", "")).not.toMatch(CONTROL)
      }
    })
  }, 120_000)

  it("HTML (project and forecast): parse5 parses without an error and reads each text back intact", async () => {
    await forHostileOrders(async (orders, expected) => {
      const project = await run(["project", "--orders", orders, ...window, "--format", "html"])
      expect(project.code, project.stderr).toBe(0)
      const picture = readCleanHtml(project.stdout)
      for (const p of expected) {
        expect(picture.texts).toContain(Text.printable(p.orderId))
        expect(picture.texts).toContain(Text.printable(p.creditorName ?? ""))
      }
      // the forecast: the account runs short on the first payment, so every payment is listed at risk
      const atRisk = await forecast(orders, "html")
      expect(atRisk.code, atRisk.stderr).toBe(8)
      const listed = readCleanHtml(atRisk.stdout).texts.join("\n")
      for (const p of expected) {
        expect(listed).toContain(`  ${Text.printable(p.orderId)}  `)
        expect(listed).toContain(` to ${Text.printable(p.creditorName ?? "")}`)
      }
    })
  }, 120_000)

  it("forecast CSV: an account's text neutralised, a negative closing balance stays a number", async () => {
    const r = await forecast(ordersFile(["=cmd|' /C calc'!A0"]), "csv")
    expect(r.code, r.stderr).toBe(8)
    const rows = parseCsv(r.stdout, { columns: true }) as Array<Record<string, string>>
    expect(rows.map((row) => row.closing)).toContain("-5.00")
    for (const row of rows) for (const cell of Object.values(row)) expect(cell).not.toMatch(CONTROL)
  })
})
