/**
 * Every command that reads orders reads a mixed file the same way (internal/orders.ts `read`, issue 23): records of
 * any standard, `--standard` forcing one, each tolerance or loss a warning on stderr naming the order, an
 * unrepresentable record unread (named on stderr or in the output) and exit 7 after the good output, before exit 8.
 * The file holds the bank's codes, an RRULE, UK v3 (with two tolerances), Berlin Group (one tolerance), COBS and ISO
 * 20022 records, and one ISO 20022 `INDA` no projection can say.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { run } from "./inProcess.ts"

const mixed = join(import.meta.dirname, "golden", "inputs", "mixed-orders.json")
const dir = mkdtempSync(join(tmpdir(), "tppkit-mixed-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const file = (name: string, content: unknown): string => {
  const path = join(dir, name)
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content))
  return path
}
const records = JSON.parse(readFileSync(mixed, "utf8")) as ReadonlyArray<{ readonly orderId: string }>
/** The file without its unrepresentable record. */
const readable = file(
  "readable.json",
  records.filter((r) => r.orderId !== "SO-X")
)
const good = ["SO-S", "SO-R", "SO-U3", "SO-BG", "SO-CB", "SO-I", "SO-ID"]

/**
 * The warnings of the file, one line each on stderr, naming the order and the standard it was read in; equal ones (the
 * convention the ISO 20022 records leave unstated) one line with the count.
 */
const warnings = [
  "tppkit: warning SO-R: rrule: lossy: The business-day convention (convention) changes from never moved to following",
  'tppkit: warning SO-U3: uk-v3: tolerated: Frequency "IntrvWkDay:2:5"',
  'tppkit: warning SO-U3: uk-v3: tolerated: Frequency "IntrvWkDay:2:5"',
  'tppkit: warning SO-BG: berlin-group: tolerated: dayOfExecution "01"',
  "tppkit: warning 2 orders (SO-I, SO-ID): iso20022: lossy: The business-day convention (convention) changes from not stated to following"
]
const expectWarnings = (stderr: string) => {
  const lines = stderr.split("\n").filter((l) => l.startsWith("tppkit: warning "))
  expect(lines.length).toBe(warnings.length)
  for (const [i, l] of lines.entries()) expect(l.startsWith(warnings[i]!), l).toBe(true)
}
const unreadLine = (done: string) =>
  `1 record or part of the list could not be read as standing orders (each reported above); every other order was ${done}`

describe("tppkit translate on a mixed file", () => {
  it("translates each record from its own standard, warns per record, and exits 7 for INDA before 8", async () => {
    const r = await run(["translate", "--orders", mixed, "--to", "uk-v3", "--format", "json"])
    expect(r.code).toBe(7)
    expectWarnings(r.stderr)
    // one UK list of whole records (issue 36); an order v3 cannot say is left out and named on stderr
    const list = JSON.parse(r.stdout) as { Data: { StandingOrder: Array<Record<string, unknown>> } }
    const ids = list.Data.StandingOrder.map((x) => x.StandingOrderId)
    for (const id of good) {
      if (!ids.includes(id)) expect(r.stderr).toContain(`tppkit: ${id} unrepresentable in uk-v3`)
    }
    // UK v3 read back into UK v3: the string as the standard writes it, the tolerated spelling gone
    expect(list.Data.StandingOrder.find((x) => x.StandingOrderId === "SO-U3")).toMatchObject({
      Frequency: "IntrvlWkDay:02:05",
      FirstPaymentDateTime: "2027-01-08T00:00:00+00:00",
      StandingOrderStatusCode: "Active"
    })
    expect(r.stderr).not.toContain("tppkit: SO-U3 lossy")
    // an RRULE's last Friday is a v3 string only through WkInMnthDay's 1-5; never the bank's placeholder code
    expect(r.stderr).toMatch(/tppkit: SO-R (lossy|unrepresentable)/)
    expect(r.stderr).toContain("tppkit: SO-X not read: iso20022: INDA")
    expect(r.stderr).toContain(unreadLine("translated"))
  })

  it("without the unrepresentable record: exit 8 for the lossy ones", async () => {
    const r = await run(["translate", "--orders", readable, "--to", "uk-v3"])
    expect(r.code).toBe(8)
    expectWarnings(r.stderr)
  })

  it("--standard forces one standard: records not in it are unread, with the reason", async () => {
    const r = await run(["translate", "--orders", mixed, "--to", "uk-v3", "--standard", "uk-v3"])
    expect(r.code).toBe(7)
    const list = JSON.parse(r.stdout) as { Data: { StandingOrder: Array<Record<string, unknown>> } }
    expect(list.Data.StandingOrder.map((x) => x.StandingOrderId)).toEqual(["SO-U3"])
    expect(r.stderr).toContain("tppkit: SO-S not read: uk-v3: the record has no Frequency string")
  })

  it("--standard iso20022, ynab or actual: a record without frequency says so (never 'undefined')", async () => {
    for (const standard of ["iso20022", "ynab", "actual"]) {
      const r = await run(["translate", "--orders", mixed, "--to", "rrule", "--standard", standard])
      expect(r.code).toBe(7)
      expect(r.stderr).toContain(`tppkit: SO-R not read: ${standard}: the record has no frequency`)
      expect(r.stderr).not.toContain("undefined")
    }
  })
})

describe("tppkit explain on a mixed file", () => {
  it("an order no standard can say is unread: exit 7, with the reason", async () => {
    const r = await run(["explain", "--orders", mixed, "--order", "SO-X"])
    expect(r.code).toBe(7)
    expect(r.stderr).toContain('order "SO-X" of')
    expect(r.stderr).toContain("could not be read: iso20022: INDA")
    const missing = await run(["explain", "--orders", mixed, "--order", "SO-NONE"])
    expect(missing.code).toBe(2)
  })

  it("explains an ISO 20022 order under --convention, warns per record, exits 7 after the trace", async () => {
    const base = ["explain", "--orders", mixed, "--order", "SO-I", "--date", "2027-02-20"]
    const following = await run(base)
    expect(following.code).toBe(7)
    expectWarnings(following.stderr)
    // ISO 20022 leaves the convention to the bank: Saturday 20 February is paid on Monday under following
    expect(following.stdout).toContain("Nominal date: Sat 2027-02-20.")
    expect(following.stdout).toContain("Execution date: Mon 2027-02-22.")
    expect(following.stderr).toContain("tppkit: skipped SO-X: iso20022: INDA")
    expect(following.stderr).toContain(unreadLine("read"))
    const preceding = await run([...base, "--convention", "preceding"])
    expect(preceding.stdout).toContain("Execution date: Fri 2027-03-19.")
    // a Berlin Group executionRule is the record's own: preceding under --convention following
    const bg = await run(["explain", "--orders", readable, "--order", "SO-BG", "--date", "2027-04-30"])
    expect(bg.code).toBe(0)
    expect(bg.stdout).toContain("Execution date: Fri 2027-04-30.")
  })

  it("--standard forces one standard", async () => {
    // the bank's decoder cannot read an ISO 20022 frequency object: the order asked for is unread (exit 7, data)
    const r = await run(["explain", "--orders", mixed, "--order", "SO-I", "--standard", "sbas"])
    expect(r.code).toBe(7)
    expect(r.stderr).toContain('order "SO-I" of')
    expect(r.stderr).toContain("could not be read")
  })
})

describe("tppkit forecast on a mixed file", () => {
  const A = "SK3112000000198742637541"
  const window = ["--from", "2027-01-01", "--to", "2027-01-31"]
  it("forecasts every readable order, warns per record, lists INDA under Skipped and exits 7 before 8", async () => {
    const low = file("low.json", [{ iban: A, currency: "EUR", amount: "10.00", date: "2027-01-01", threshold: "5" }])
    const r = await run(["forecast", "--orders", mixed, "--balances", low, ...window])
    expect(r.code).toBe(7)
    expectWarnings(r.stderr)
    expect(r.stdout).toContain("SO-X: iso20022: INDA")
    expect(r.stdout).toMatch(new RegExp(`^${A} +EUR +10\\.00 `, "m"))
    const findings = await run(["forecast", "--orders", readable, "--balances", low, ...window])
    expect(findings.code).toBe(8)
    // out in January: SO-S 1, SO-R 2, SO-U3 3 twice, SO-CB 5 = 14 (SO-BG's 1 January is paid on 31 December under
    // its own executionRule preceding, SO-I starts in February, SO-ID in May)
    const json = await run(["forecast", "--orders", readable, "--balances", low, ...window, "--format", "json"])
    const doc = JSON.parse(json.stdout) as { accounts: ReadonlyArray<{ closing: string }> }
    expect(doc.accounts[0]!.closing).toBe("-4.00")
  })

  it("a --threshold for an IBAN that is no account of the balances file is named on stderr", async () => {
    const low = file("low.json", [{ iban: A, currency: "EUR", amount: "10.00", date: "2027-01-01", threshold: "5" }])
    const r = await run(["forecast", "--orders", readable, "--balances", low, ...window, "--threshold", "XX00=5"])
    expect(r.code).toBe(8)
    expect(r.stderr).toContain(
      `tppkit: warning: --threshold "XX00=5" names no account of ${low}: it applies to nothing\n`
    )
    const known = await run(["forecast", "--orders", readable, "--balances", low, ...window, "--threshold", `${A}=5`])
    expect(known.stderr).not.toContain("names no account")
  })

  it("--standard forces one standard", async () => {
    const bal = file("bal.json", [{ iban: A, currency: "EUR", amount: "100.00", date: "2027-01-01" }])
    const r = await run(["forecast", "--orders", mixed, "--balances", bal, ...window, "--standard", "cobs"])
    expect(r.code).toBe(7)
    expect(r.stdout).toMatch(/Skipped \(7\)/)
  })
})

describe("tppkit reconcile on a mixed file", () => {
  it("reconciles every readable order, warns per record, exits 7 for INDA", async () => {
    const r = await run(["reconcile", "--orders", mixed, "--as-of", "2027-01-05"])
    expect(r.code).toBe(7)
    expectWarnings(r.stderr)
    expect(r.stdout).toContain("Reconciliation on 2027-01-05 of 7 listed orders")
    expect(r.stdout).toContain("skipped SO-X: iso20022: INDA")
    expect(r.stderr).toContain(unreadLine("reconciled"))
    // "each reported above": on stderr too, where --format json leaves only the error line
    const json = await run(["reconcile", "--orders", mixed, "--as-of", "2027-01-05", "--format", "json"])
    expect(json.code).toBe(7)
    expect(json.stderr).toContain("tppkit: skipped SO-X: iso20022: INDA: several times a day, at times not given\n")
    const clean = await run(["reconcile", "--orders", readable, "--as-of", "2027-01-05"])
    expect(clean.code).toBe(0)
  })

  it("--standard forces one standard", async () => {
    const r = await run(["reconcile", "--orders", mixed, "--as-of", "2027-01-05", "--standard", "berlin-group"])
    expect(r.code).toBe(7)
    expect(r.stdout).toContain("of 1 listed orders")
  })
})

describe("tppkit project on a mixed file", () => {
  it("projects every readable order, warns per record, exits 7 for INDA", async () => {
    const r = await run(["project", "--orders", mixed, "--from", "2027-01-01", "--to", "2027-01-31", "--format", "csv"])
    expect(r.code).toBe(7)
    expectWarnings(r.stderr)
    for (const id of ["SO-S", "SO-R", "SO-U3", "SO-CB"]) expect(r.stdout).toContain(`\n${id},`)
  })
})

describe("a COBS record without requestedExecutionDate (issue 40)", () => {
  const cobs = (orderId: string, extra: object) => ({
    orderId,
    ...extra,
    debtor: { name: "A", iban: "SK2411000000002612345678" },
    creditor: { iban: "SK6609000000005012345678" },
    instructedAmount: { value: 10, currency: "EUR" },
    standingOrder: { execution: { interval: "MONTHLY", intervalDue: "3", mode: "UNTIL_CANCELLATION" } }
  })
  it("is unread with a hint that names what gives the date to count from, and that hint works", async () => {
    const path = file("cobs-no-start.json", [cobs("C-NONE", {}), cobs("C-START", { startDate: "2027-01-03" })])
    const r = await run(["project", "--orders", path, "--from", "2027-01-01", "--to", "2027-02-28", "--format", "csv"])
    expect(r.code).toBe(7)
    expect(r.stderr).toContain(
      "tppkit: skipped C-NONE: cobs: the order has no requestedExecutionDate, the date to count from (give it, or a startDate beside the record's fields; in code: the start option)"
    )
    // the startDate the hint names is the date the record counts from
    expect(
      r.stdout
        .split("\r\n")
        .filter((l) => l.startsWith("C-START,"))
        .map((l) => l.split(",")[1])
    ).toEqual(["2027-01-03", "2027-02-03"])
  })
})
