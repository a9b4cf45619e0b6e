import { describe, expect, it } from "vitest"
import { fixture, tppkit } from "./harness.ts"

const window = ["--from", "2024-01-01", "--to", "2024-06-30"]

const oneLineError = (stderr: string) => {
  const lines = stderr.trimEnd().split("\n")
  expect(lines[0]).toMatch(/^tppkit: /)
  expect(stderr).not.toMatch(/\n\s+at /) // no stack trace
  return lines[0]!
}

/** `tppkit project` over the fixture orders with the given flags. */
const projectOrders = (...flags: Array<string>) => tppkit(["project", "--orders", fixture("orders.json"), ...flags])

/**
 * A run over records that could not be read as standing orders (the fixture's SO-BAD-FREQ and SO-BAD-DATE): the
 * output has every other order, each such record is reported on stderr with its position, and the run ends with
 * exit 7 (data) saying how many; an order read whole but not projectable (SO-NO-ANCHOR) is no such record.
 */
const expectUnread = (run: { code: number | null; stderr: string }, lines: ReadonlyArray<string>) => {
  expect(run.code).toBe(7)
  for (const line of lines) expect(run.stderr).toContain(line)
  const last = run.stderr.trimEnd().split("\n").at(-1)!
  expect(last).toMatch(
    new RegExp(`: ${lines.length} records or parts of the list could not be read as standing orders`)
  )
}

const fixtureUnread = [
  "tppkit: skipped SO-BAD-FREQ: record 3 at frequency",
  "tppkit: skipped SO-BAD-DATE: record 4 at startDate"
]

describe("tppkit project", { timeout: 90_000 }, () => {
  it("projects the good orders as JSON and lists the malformed ones as skipped", async () => {
    const run = await projectOrders(...window, "--format", "json")
    expectUnread(run, fixtureUnread)
    expect(JSON.parse(run.stderr.trimEnd().split("\n").at(-1)!).error).toMatchObject({ kind: "data", exitCode: 7 })
    const json = JSON.parse(run.stdout)
    expect(Object.keys(json)).toEqual(["from", "to", "calendar", "convention", "payments", "skipped", "totals"])
    expect(json.from).toBe("2024-01-01")
    expect(json.calendar).toBe("target")
    expect(json.convention).toBe("following")
    expect(json.payments.map((p: { orderId: string; executionDate: string }) => [p.orderId, p.executionDate])).toEqual([
      ["SO-RENT", "2024-01-31"],
      ["SO-CZK", "2024-02-29"],
      ["SO-RENT", "2024-02-29"],
      ["SO-RENT", "2024-04-02"],
      ["SO-RENT", "2024-04-30"],
      ["SO-RENT", "2024-05-31"]
    ])
    expect(json.payments[3]).toEqual({
      orderId: "SO-RENT",
      nominalDate: "2024-03-31",
      executionDate: "2024-04-02",
      provenance: "engine-predicted",
      amount: "1250.50",
      currency: "EUR",
      debtorIban: "SK2411000000002612345678",
      creditorIban: "SK6609000000005012345678",
      creditorName: "Landlord s.r.o."
    })
    expect(json.totals).toEqual([
      { currency: "CZK", count: 1, amount: "1000.00" },
      { currency: "EUR", count: 5, amount: "6252.50" }
    ])
    const skipped = json.skipped as Array<{ orderId: string; reason: string }>
    // SO-GYM pays from 2026-12: no payment in this window (issue 34)
    expect(skipped.map((s) => s.orderId).sort()).toEqual(["SO-BAD-DATE", "SO-BAD-FREQ", "SO-GYM", "SO-NO-ANCHOR"])
    for (const s of skipped) expect(s.reason.length).toBeGreaterThan(0)
    expect(skipped.find((s) => s.orderId === "SO-BAD-FREQ")!.reason).toMatch(/frequency|FOO/)
    expect(skipped.find((s) => s.orderId === "SO-BAD-DATE")!.reason).toMatch(/startDate|2026-02-30/)
  })

  it("writes one self-contained HTML file with an SVG chart and the table", async () => {
    const { parse } = await import("parse5")
    const run = await projectOrders(...window, "--format", "html")
    expectUnread(run, fixtureUnread)
    expect(run.stdout.startsWith("<!DOCTYPE html>")).toBe(true)
    expect(run.stdout).not.toMatch(/<script|<link|src=|href=/)
    const html = parse(run.stdout).childNodes.find((n) => n.nodeName === "html")
    expect(html).toBeDefined()
    expect(run.stdout.match(/<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g)).toHaveLength(2)
    expect(run.stdout.match(/<tr><td>/g)).toHaveLength(6 + 2) // 6 payments, 2 debtor totals
    expect(run.stdout).toContain("SO-BAD-FREQ") // skipped orders listed in the page
  })

  it("prints an aligned table within 80 columns with totals by default", async () => {
    const run = await projectOrders(...window)
    expectUnread(run, fixtureUnread)
    for (const line of run.stdout.split("\n")) expect(line.length).toBeLessThanOrEqual(80)
    expect(run.stdout).toContain("Totals (6 payments)")
    expect(run.stdout).toMatch(/EUR\s+5\s+6252\.50/)
    expect(run.stdout).toContain("SO-BAD-FREQ")
  })

  it("reads a bare array of orders from stdin and writes CSV", async () => {
    const { readFileSync } = await import("node:fs")
    const stdin = readFileSync(fixture("bare-array.json"), "utf8")
    const run = await tppkit(
      ["project", "--orders", "-", "--from", "2026-12-20", "--to", "2027-01-04", "--format", "csv"],
      { stdin }
    )
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    const lines = run.stdout.trimEnd().split("\r\n")
    expect(lines[0]).toBe(
      "orderId,nominalDate,executionDate,provenance,amount,currency,debtorIban,creditorIban,creditorName"
    )
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 3).join(" "))).toEqual([
      "SO-DAILY 2026-12-23 2026-12-23",
      "SO-DAILY 2026-12-24 2026-12-24",
      "SO-DAILY 2026-12-28 2026-12-28",
      "SO-DAILY 2026-12-29 2026-12-29",
      "SO-DAILY 2026-12-30 2026-12-30",
      "SO-DAI7 2026-12-31 2026-12-31",
      "SO-DAILY 2026-12-31 2026-12-31",
      "SO-DAI7 2027-01-01 2027-01-01",
      "SO-DAI7 2027-01-02 2027-01-02",
      "SO-DAILY 2027-01-04 2027-01-04"
    ])
  })

  it("honours --calendar, --holidays and --convention", async () => {
    const run = await projectOrders(
      ...window,
      ...["--calendar", "weekends", "--holidays", "2024-05-31", "--convention", "preceding", "--format", "json"]
    )
    expectUnread(run, fixtureUnread)
    const json = JSON.parse(run.stdout)
    expect(json.calendar).toBe("weekends")
    expect(json.convention).toBe("preceding")
    const rent = json.payments.filter((p: { orderId: string }) => p.orderId === "SO-RENT")
    // 31 March 2024 is a Sunday: preceding gives Friday 29th (weekends calendar: no Good Friday);
    // 31 May 2024 is made a holiday: preceding gives Thursday 30th
    expect(rent.map((p: { executionDate: string }) => p.executionDate)).toEqual([
      "2024-01-31",
      "2024-02-29",
      "2024-03-29",
      "2024-04-30",
      "2024-05-30",
      "2024-06-28"
    ])
  })

  it("uses a national calendar by ISO 3166 code", async () => {
    const run = await projectOrders(...window, "--calendar", "sk", "--format", "json")
    expectUnread(run, fixtureUnread)
    expect(JSON.parse(run.stdout).calendar).toBe("SK")
  })

  it("reads a file of several MiB as a stream: characters cut between reads kept whole, bad records skipped, good ones projected", async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import("node:fs")
    const { tmpdir } = await import("node:os")
    const { join } = await import("node:path")
    // 12,000 orders with creditor names of two- and four-byte characters, so that reads of 1 MiB cut some of them
    const order = (i: number) => ({
      orderId: `SO-${String(i).padStart(5, "0")}`,
      debtor: { name: "Jana", iban: "SK2411000000002612345678" },
      creditor: { name: `Věřitel ${"ž😀".repeat(i % 40)}`, iban: "SK6609000000005012345678" },
      instructedAmount: { value: 10, currency: "EUR" },
      startDate: "2024-01-15",
      frequency: "YEAR"
    })
    const records: Array<unknown> = Array.from({ length: 12_000 }, (_, i) => order(i))
    records[5_000] = { ...order(5_000), frequency: "FOO" }
    records[9_001] = "not an order"
    const text = JSON.stringify({ pageCount: 1, standingOrders: records }, null, 2)
    const bytes = Buffer.from(text)
    // the reads of 1 MiB end inside a character: a continuation byte begins the next read
    const cutInside = [1, 2, 3].filter((k) => (bytes[k * 2 ** 20]! & 0xc0) === 0x80)
    expect(cutInside.length).toBeGreaterThan(0)
    const dir = mkdtempSync(join(tmpdir(), "tppkit-e2e-"))
    try {
      const file = join(dir, "orders.json")
      writeFileSync(file, text)
      const run = await tppkit(["project", "--orders", file, ...window, "--format", "csv"])
      expectUnread(run, ["tppkit: skipped SO-05000: record 5001 at frequency", "tppkit: skipped an order: record 9002"])
      const lines = run.stdout.trimEnd().split("\r\n")
      expect(lines).toHaveLength(1 + 11_998)
      const names = new Set(lines.slice(1).map((l) => l.split(",")[8]))
      expect(names).toEqual(new Set(Array.from({ length: 40 }, (_, n) => `Věřitel ${"ž😀".repeat(n)}`)))
      expect(run.stderr).toContain("tppkit: skipped SO-05000: record 5001 at frequency")
      expect(run.stderr).toContain("tppkit: skipped an order: record 9002")
      // the same text cut short: refused in one line, nothing on stdout
      writeFileSync(file, text.slice(0, text.length >> 1))
      const cut = await tppkit(["project", "--orders", file, ...window])
      expect(cut.code).toBe(2)
      expect(cut.stdout).toBe("")
      expect(oneLineError(cut.stderr)).toMatch(/orders\.json: not valid JSON: the text ends inside the orders array/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  describe("bad input", () => {
    it("a missing file: one line naming the file, exit 1", async () => {
      const run = await tppkit(["project", "--orders", "no/such/orders.json", ...window])
      expect(run.code).toBe(1)
      expect(run.stdout).toBe("")
      expect(oneLineError(run.stderr)).toContain("no/such/orders.json")
    })

    it("malformed JSON: one line naming the file, exit 2", async () => {
      const run = await tppkit(["project", "--orders", fixture("malformed.json"), ...window])
      expect(run.code).toBe(2)
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1)
      expect(oneLineError(run.stderr)).toMatch(/malformed\.json: not valid JSON/)
    })

    it("JSON that is not a standing-order list: exit 2", async () => {
      const run = await tppkit(["project", "--orders", fixture("not-a-list.json"), ...window])
      expect(run.code).toBe(2)
      expect(oneLineError(run.stderr)).toContain("not-a-list.json")
    })

    it("an object without standingOrders is not an orders file: one line, exit 2, nothing on stdout", async () => {
      const run = await tppkit(["project", "--orders", "-", ...window], { stdin: '{"foo":1}' })
      expect(run.code).toBe(2)
      expect(run.stdout).toBe("")
      expect(run.stderr).toBe(
        "tppkit: standard input: not an orders file: expected a JSON array of standing orders or an object with a standingOrders array\n"
      )
    })

    it.each<[string, Array<string>, string | RegExp]>([
      ["an impossible date names the flag", ["--from", "2026-02-30", "--to", "2026-03-31"], /--from "2026-02-30"/],
      ["from after to", ["--from", "2026-05-01", "--to", "2026-04-30"], "--from 2026-05-01 is after --to 2026-04-30"],
      ["an unknown calendar", [...window, "--calendar", "mars"], "--calendar"],
      ["an unknown convention", [...window, "--convention", "sideways"], "sideways"]
    ])("%s: one line, exit 2, nothing on stdout (no help text)", async (_, flags, expected) => {
      const run = await projectOrders(...flags)
      expect(run.code).toBe(2)
      expect(oneLineError(run.stderr)).toMatch(expected)
      expect(run.stdout).toBe("")
    })

    it("a missing flag: exit 2", async () => {
      const missing = await projectOrders("--from", "2024-01-01")
      expect(missing.code).toBe(2)
      expect(oneLineError(missing.stderr)).toContain("to")
    })

    it("--verbose adds the full cause", async () => {
      const run = await tppkit(["project", "--orders", "no/such/file.json", ...window, "--verbose"])
      expect(run.code).toBe(1)
      expect(run.stderr.split("\n").length).toBeGreaterThan(2)
    })
  })
})
