/**
 * Nothing read disappears and a repeated orderId is named (issue 34), through the commands in-process: an order read
 * whole that pays nothing (an end before its start, a deleted YNAB schedule) is listed with its reason in every
 * format and counted, the exit code unchanged; two records with one orderId are both used, said on stderr and in
 * JSON, and `--order`/`--scenario` refuse the bare orderId naming the positions and take `ID#N`.
 */
import { describe, expect, it } from "vitest"
import * as Bank from "../../packages/cli/src/internal/bank.ts"
import { run } from "./inProcess.ts"
import { bankFlags, listedOrder, mockBank, withOrders } from "./mockBank.ts"
import { tempFolder } from "./tempFiles.ts"

const { file } = tempFolder("tppkit-silent")
const SK = "SK2411000000002612345678"
const order = (orderId: string, frequency: string, startDate: string, value: number, more = {}) => ({
  orderId,
  frequency,
  startDate,
  instructedAmount: { value, currency: "EUR" },
  debtor: { name: "Jana", iban: SK },
  creditor: { name: "Landlord", iban: "SK6609000000005012345678" },
  ...more
})
const window = ["--from", "2026-03-01", "--to", "2026-03-31"]
/** `project` of the YNAB answer in core's fixtures, its budget's account given as a Slovak account in CZK. */
const projectYnab = (...flags: Array<string>) =>
  run([
    ...["project", "--orders", "test/core/fixtures/records/ynab-answer.json", "--accounts"],
    file("ynab-accounts.json", { "5d1e9a70-2c3b-4f8e-8a61-7b0c4d2e9f13": { iban: SK, currency: "CZK" } }),
    ...flags
  ])

describe("an order read whole that pays nothing is skipped, listed and counted (issue 34)", () => {
  const orders = file("ended.json", [
    order("ENDED", "MNTH", "2026-03-01", 10, { endDate: "2026-01-01" }),
    order("RENT", "MNTH", "2026-03-02", 500)
  ])

  it("project lists it with its reason in the table, JSON, CSV and iCalendar, and exits 0", async () => {
    const reason = "endDate 2026-01-01 is before startDate 2026-03-01: the order never pays"
    const table = await run(["project", "--orders", orders, ...window])
    expect(table.code).toBe(0)
    expect(table.stdout.replace(/\s+/g, " ")).toContain(`Skipped (1 order) ENDED: ${reason}`)
    const json = await run(["project", "--orders", orders, ...window, "--format", "json"])
    expect(json.code).toBe(0)
    // the record's 1-based position, as an unread record's (issue 34 item 5)
    expect(JSON.parse(json.stdout).skipped).toEqual([{ orderId: "ENDED", position: 1, reason }])
    for (const format of ["csv", "ics"]) {
      const r = await run(["project", "--orders", orders, ...window, "--format", format])
      expect(r.code, format).toBe(0)
      expect(r.stderr, format).toContain(`tppkit: skipped ENDED: ${reason}`)
    }
  })

  it("explain says it pays nothing and why; translate names it skipped; both exit 0", async () => {
    const explain = await run(["explain", "--orders", orders, "--order", "ENDED", "--date", "2026-03-02"])
    expect(explain.code).toBe(0)
    expect(explain.stdout).toContain('Order "ENDED" pays nothing: endDate 2026-01-01 is before startDate 2026-03-01')
    const translate = await run(["translate", "--orders", orders, "--to", "sbas"])
    expect(translate.code).toBe(0)
    expect(translate.stderr).toContain("tppkit: ENDED skipped: endDate 2026-01-01 is before startDate 2026-03-01")
  })

  it("an order that pays, but not in the window, is told from one that never pays (issue 34)", async () => {
    const idle = file("idle.json", [
      order("ENDED", "MNTH", "2026-03-01", 10, { endDate: "2026-01-01" }),
      order("YEARLY", "YEAR", "2026-06-15", 20),
      order("OVER", "MNTH", "2025-01-05", 30, { endDate: "2026-02-05" }),
      order("LATER", "MNTH", "2026-01-05", 40, { nextDate: "2026-04-05" }),
      order("RENT", "MNTH", "2026-03-02", 500)
    ])
    const r = await run(["project", "--orders", idle, ...window, "--format", "json"])
    expect(r.code).toBe(0)
    const span = "no payment in this window (2026-03-01 to 2026-03-31)"
    expect(JSON.parse(r.stdout).skipped).toEqual([
      {
        orderId: "ENDED",
        position: 1,
        reason: "endDate 2026-01-01 is before startDate 2026-03-01: the order never pays"
      },
      { orderId: "YEARLY", reason: `${span}: the next is on 2026-06-15` },
      { orderId: "OVER", reason: `${span}: its payments ended before it` },
      { orderId: "LATER", reason: `${span}: the bank's next date is 2026-04-05` }
    ])
  })

  it("CSV and iCalendar say equal reasons once on stderr, with the count, the first orderIds and the positions", async () => {
    const ended = (id: string) => order(id, "MNTH", "2026-03-01", 10, { endDate: "2026-01-01" })
    const many = file("many.json", [
      ended("E1"),
      order("RENT", "MNTH", "2026-03-02", 500),
      ended("E2"),
      ended("E3"),
      ended("E4"),
      order("LATE1", "MNTH", "2026-05-02", 5),
      order("LATE2", "MNTH", "2026-06-02", 5),
      order("BAD1", "MNTH", "2026-02-30", 5),
      order("BAD2", "MNTH", "2026-02-30", 5)
    ])
    const reason = "endDate 2026-01-01 is before startDate 2026-03-01: the order never pays"
    for (const format of ["csv", "ics"]) {
      const r = await run(["project", "--orders", many, ...window, "--format", format])
      expect(r.code, format).toBe(7)
      const lines = r.stderr.split("\n").filter((l) => l.startsWith("tppkit: skipped"))
      expect(lines, format).toEqual([
        'tppkit: skipped 2 orders (BAD1, BAD2; records 8 and 9): startDate: "2026-02-30" is not a calendar date: day 30 does not exist in 2026-02',
        `tppkit: skipped 4 orders (E1, E2, E3, …; records 1, 3, 4 and 5): ${reason}`,
        "tppkit: skipped 2 orders (LATE1, LATE2): no payment in this window (2026-03-01 to 2026-03-31): the next is after it"
      ])
    }
    // the JSON document still lists each with its own words and position
    const json = await run(["project", "--orders", many, ...window, "--format", "json"])
    expect(JSON.parse(json.stdout).skipped.map((s: { position?: number }) => s.position)).toEqual([
      8,
      9,
      1,
      3,
      4,
      5,
      undefined,
      undefined
    ])
  })

  it("a deleted YNAB schedule is in project's JSON skipped list, not only a warning", async () => {
    const r = await projectYnab("--from", "2026-01-01", "--to", "2026-01-31", "--format", "json")
    const skipped = JSON.parse(r.stdout).skipped as Array<{ orderId: string; reason: string }>
    expect(skipped.map((s) => s.orderId)).toContain("1c2d3e4f-0000-4000-8000-000000000003")
    expect(r.stderr).not.toMatch(/warning .*skipped: /)
  })
})

describe("an orderId several records give (issue 34)", () => {
  const orders = file("twice.json", [
    order("RENT", "MNTH", "2026-03-02", 500),
    order("GYM", "MNTH", "2026-03-10", 30),
    order("RENT", "WEEK", "2026-03-04", 7)
  ])
  const balances = file("balances.json", [{ iban: SK, currency: "EUR", amount: "1000.00", date: "2026-03-01" }])

  it("project uses both, says so on stderr and lists it in JSON", async () => {
    const r = await run(["project", "--orders", orders, ...window, "--format", "json"])
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc.repeated).toEqual([{ orderId: "RENT", positions: [1, 3] }])
    expect(doc.payments.filter((p: { orderId: string }) => p.orderId === "RENT")).toHaveLength(5)
    expect(r.stderr).toContain('tppkit: warning: orderId "RENT" is given by 2 records (records 1 and 3): each is used')
  })

  it("explain --order RENT is refused naming the positions (exit 2); RENT#2 is the weekly one", async () => {
    const bare = await run(["explain", "--orders", orders, "--order", "RENT", "--date", "2026-03-04"])
    expect(bare.code).toBe(2)
    expect(bare.stderr).toContain(
      'tppkit: --order "RENT" names 2 orders (records 1 and 3 give that orderId): name one as RENT#1 or RENT#2'
    )
    const second = await run(["explain", "--orders", orders, "--order", "RENT#2", "--date", "2026-03-04"])
    expect(second.code).toBe(0)
    expect(second.stdout).toContain("WEEK (every week)")
  })

  it("forecast names them RENT#1 and RENT#2; a scenario on RENT is refused, on RENT#2 it applies", async () => {
    const args = ["forecast", "--orders", orders, "--balances", balances, ...window]
    const bare = await run([...args, "--scenario", "skip:RENT@2026-03-04"])
    expect(bare.code).toBe(2)
    expect(bare.stderr).toContain('--scenario "RENT" names 2 orders (records 1 and 3 give that orderId)')
    const named = await run([...args, "--scenario", "skip:RENT#2@2026-03-04", "--format", "json"])
    expect(named.code).toBe(0)
    expect(named.stdout).toContain('"RENT#2"')
    expect(named.stdout).not.toContain('"orderId":"RENT"')
  })
})

describe("said, never guessed (issue 34)", () => {
  it("refusals name the field and the value as given, in words (a 5-digit year, a look-alike FREQ, UK Frequency 5)", async () => {
    const orders = file("refused.json", [
      order("Y", "MNTH", "20260-01-05", 10),
      {
        orderId: "F",
        rrule: "DTSTART;VALUE=DATE:20260105\nRRULE:FREQ=M\u041eNTHLY",
        instructedAmount: { value: 10, currency: "EUR" },
        debtor: { name: "Jana", iban: SK },
        creditor: { name: "Landlord", iban: "SK6609000000005012345678" }
      }
    ])
    const r = await run(["project", "--orders", orders, ...window])
    expect(r.code).toBe(7)
    expect(r.stderr).toContain('startDate: "20260-01-05" is not a date written YYYY-MM-DD')
    expect(r.stderr).toContain(
      'rrule: FREQ "M\u041eNTHLY" is not an RFC 5545 frequency: "\u041e" (U+041E) is not a Latin letter'
    )
    expect(r.stderr).not.toMatch(/RegExp|time of day/)
    const uk = file("uk-5.json", {
      Data: {
        StandingOrder: [
          {
            AccountId: "22289",
            StandingOrderId: "SO-1",
            Frequency: 5,
            Reference: "Rent",
            FirstPaymentDateTime: "2026-01-05T00:00:00+00:00",
            NextPaymentAmount: { Amount: "10.00", Currency: "GBP" }
          }
        ]
      }
    })
    const accounts = file("uk-accounts.json", { "22289": { iban: SK, currency: "GBP" } })
    const u = await run(["project", "--orders", uk, "--accounts", accounts, ...window])
    expect(u.code).toBe(7)
    expect(u.stderr).toContain("SO-1: uk-v3: Frequency 5 is a number, not a frequency")
    expect(u.stderr).not.toContain("undefined")
  })

  it("an RRULE's RDATE is a payment", async () => {
    const orders = file("rdate.json", [
      {
        orderId: "RD",
        rrule: "DTSTART;VALUE=DATE:20260305\nRRULE:FREQ=MONTHLY\nRDATE;VALUE=DATE:20260320",
        instructedAmount: { value: 10, currency: "EUR" },
        debtor: { name: "Jana", iban: SK },
        creditor: { name: "Landlord", iban: "SK6609000000005012345678" }
      }
    ])
    const r = await run(["project", "--orders", orders, ...window, "--format", "json", "--convention", "none"])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).payments.map((p: { executionDate: string }) => p.executionDate)).toEqual([
      "2026-03-05",
      "2026-03-20"
    ])
  })
})

describe("equal warnings are one stderr line with a count (issue 34)", () => {
  it("four COBS orders without execution.mode: one line naming the field, the count and the first orderIds", async () => {
    const cobs = (orderId: string) => ({
      orderId,
      instructedAmount: { value: 10, currency: "EUR" },
      debtor: { name: "Jana", iban: SK },
      creditor: { name: "Landlord", iban: "SK6609000000005012345678" },
      requestedExecutionDate: "2026-03-05",
      standingOrder: { execution: { interval: "MONTHLY", intervalDue: 5 } }
    })
    const orders = file("cobs-no-mode.json", [cobs("C1"), cobs("C2"), cobs("C3"), cobs("C4")])
    const r = await run(["project", "--orders", orders, ...window, "--format", "csv"])
    expect(r.code).toBe(0)
    const lines = r.stderr.split("\n").filter((l) => l.includes(" mode "))
    expect(lines).toEqual([
      'tppkit: warning 4 orders (C1, C2, C3, …): cobs: tolerated: mode "absent" is read as "UNTIL_CANCELLATION", because COBS requires execution.mode: read from the validity fields the record gives.'
    ])
  })
})

describe("a field the bank's record does not name is said (issue 34)", () => {
  it("project: one warning line per field with the count; the orders are projected, exit 0", async () => {
    const orders = file("memo.json", [
      order("A", "MNTH", "2026-03-02", 5, { memo: "rent" }),
      order("B", "MNTH", "2026-03-03", 6, { memo: "gym" }),
      order("C", "MNTH", "2026-03-04", 7)
    ])
    const r = await run(["project", "--orders", orders, ...window, "--format", "csv"])
    expect(r.code).toBe(0)
    expect(r.stdout.split("\r\n").filter((l) => l.length > 0)).toHaveLength(4)
    expect(r.stderr.split("\n").filter((l) => l.includes("memo"))).toEqual([
      "tppkit: warning 2 orders (A, B): sbas: lossy: memo changes from rent to not read, because the bank's standing order (docs/bank-interface.md) has no such field: it is not used."
    ])
  })

  it("standing-orders: equal warnings of a listing are one line with the count and the first records", () => {
    const said = "is not a field of the bank's standing order: not read, not kept"
    const w = (index: number, orderId: string, path = "memo") => ({ index, orderId, path, message: said })
    expect(
      Bank.listingWarnings([
        { page: 0, warnings: [w(0, "A"), w(1, "B"), w(1, "B", "creditor.bic")] },
        { page: 1, warnings: [w(0, "C"), w(4, "D")] }
      ])
    ).toEqual([
      `tppkit: 4 records (page 0, record 1 (A); page 0, record 2 (B); page 1, record 1 (C); …) are out of format: memo ${said}`,
      `tppkit: page 0, record 2 (B) is out of format: creditor.bic ${said}`
    ])
  })
})

describe("a whole record's field not used for who pays what and when is said (issue 34)", () => {
  it("project: one grouped warning per field naming it (YNAB's memo of two orders), exit 0", async () => {
    const r = await projectYnab(...window, "--format", "csv")
    expect(r.code).toBe(0)
    const unused = r.stderr.split("\n").filter((l) => l.includes("to not read"))
    expect(unused.map((l) => /ynab: lossy: (\S+) changes/.exec(l)?.[1])).toEqual([
      "amount_currency",
      "memo",
      "payee_id",
      "category_id",
      "category_name"
    ])
    expect(unused[1]).toBe(
      "tppkit: warning 2 orders (0b7f3c2e-5a41-4d6b-9e2f-3c8d1a7b6e50, 1c2d3e4f-0000-4000-8000-000000000002): ynab: lossy: memo changes from Garage rent to not read, because tppkit reads who pays what and when: this field is not used."
    )
  })
})

describe("every calendar day keeps its meaning across a translation (issue 34)", () => {
  it("DAI7 translated to an RRULE carries X-TPPKIT-NEVER-MOVED; projected back, its weekend dates are not moved", async () => {
    const orders = file("dai7.json", [order("D", "DAI7", "2027-01-31", 1)])
    const t = await run(["translate", "--orders", orders, "--to", "rrule", "--format", "json"])
    expect(t.code).toBe(0)
    const rrule = JSON.parse(t.stdout).translation as string
    expect(rrule).toBe("DTSTART;VALUE=DATE:20270131\nRRULE:FREQ=DAILY\nX-TPPKIT-NEVER-MOVED:TRUE")
    const back = file("dai7-rrule.json", [{ ...order("D", "DAI7", "2027-01-31", 1), frequency: undefined, rrule }])
    const p = await run(["project", "--orders", back, "--from", "2027-02-05", "--to", "2027-02-08", "--format", "json"])
    expect(p.code).toBe(0)
    expect(JSON.parse(p.stdout).payments.map((x: { executionDate: string }) => x.executionDate)).toEqual([
      "2027-02-05",
      "2027-02-06",
      "2027-02-07",
      "2027-02-08"
    ])
  })
})

describe("the bank's list names an order that pays nothing (issue 34)", { timeout: 60_000 }, () => {
  const bank = mockBank({
    fixtures: withOrders([listedOrder("RENT"), listedOrder("ENDED", { endDate: "2026-01-01" })])
  })
  const list = (...flags: Array<string>) => run(["standing-orders", "--all", ...bankFlags(bank()), ...flags])
  const reason = "endDate 2026-01-01 is before startDate 2026-03-01: the order never pays"

  it("standing-orders lists it as the bank gave it and names it skipped with its reason; exit 0", async () => {
    const table = await list()
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain("2 standing order(s)")
    expect(table.stdout.replace(/\s+/g, " ")).toContain(
      `Skipped: listed, but it pays nothing ENDED (page 0, record 2): ${reason}`
    )
    const json = await list("--format", "json")
    expect(json.code, json.stderr).toBe(0)
    expect(JSON.parse(json.stdout).standingOrders.map((o: { orderId: string }) => o.orderId)).toEqual(["RENT", "ENDED"])
    expect(json.stderr).toContain(`tppkit: page 0, record 2 (ENDED) is skipped: ${reason}`)
  })
})

describe("the rules the schedule spec states raise no warning (issue 34)", () => {
  it("the spec's worked examples, one record of each code, are projected without a word on stderr", async () => {
    const orders = file("spec.json", [
      order("MNTH", "MNTH", "2024-01-31", 1),
      order("YEAR", "YEAR", "2024-02-29", 2),
      order("WEEK", "WEEK", "2026-12-19", 3),
      order("DAIL", "DAIL", "2026-12-23", 4),
      order("DAI7", "DAI7", "2026-12-31", 5, { endDate: "2027-01-02" }),
      order("QUTR", "QUTR", "2024-01-31", 6, { nextDate: "2024-04-30" }),
      { ...order("SEMI", "SEMI", "2024-01-31", 7), startDate: undefined, nextDate: "2024-07-31" }
    ])
    const project = (format: string) =>
      run(["project", "--orders", orders, "--from", "2024-01-01", "--to", "2027-03-31", "--format", format])
    for (const format of ["table", "json", "csv"]) {
      const r = await project(format)
      expect(r.code, format).toBe(0)
      expect(r.stderr, format).toBe("")
    }
    expect(JSON.parse((await project("json")).stdout).skipped).toEqual([])
  })
})
