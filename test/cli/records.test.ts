/**
 * Whole records of each source through the commands (issue 36): `project`, `forecast`, `reconcile` and `explain` each
 * run on a file of each source (examples/records: a COBS page, UK v3.1 and v4 lists, a Berlin Group transactions
 * answer, a YNAB answer, Actual schedules), with `--accounts` where the source carries no IBAN or currency; the
 * source's next date is the bank's word; `translate --to T` writes one list envelope of T whose records read back to
 * the same payments (property test over generated orders, through the CLI).
 */
import { join } from "node:path"
import { Json, LocalDate, type Recurrence, SourceRecord, Standard } from "@tppkit/core"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { rule } from "../arbitraries/recurrence.ts"
import { run } from "./inProcess.ts"
import { tempFolder } from "./tempFiles.ts"

const examples = join(import.meta.dirname, "..", "..", "examples", "records")
const at = (name: string) => join(examples, name)
const accounts = at("accounts.json")
const { file: write } = tempFolder("tppkit-records")

/** A file of each source, with the flags it needs, an order of it and one of its payment dates. */
const sources = [
  { file: "cobs-page.json", flags: [], order: "SO2026000000004711", date: "2026-12-21" },
  { file: "cobs-detail.json", flags: [], order: "SO2026000000004711", date: "2026-12-21" },
  { file: "uk-v3-list.json", flags: ["--accounts", accounts], order: "SO-9Q2M41", date: "2026-12-03" },
  { file: "uk-v4-list.json", flags: ["--accounts", accounts], order: "SO-BASIC", date: "2026-12-07" },
  { file: "bg-periodic.json", flags: [], order: "#1", date: "2026-12-01" },
  { file: "bg-transactions.json", flags: [], order: "SO-BG-1", date: "2026-12-01" },
  {
    file: "ynab-answer.json",
    flags: ["--accounts", accounts],
    order: "0b7f3c2e-5a41-4d6b-9e2f-3c8d1a7b6e50",
    date: "2026-12-20"
  },
  {
    file: "actual-schedules.json",
    flags: ["--accounts", accounts],
    order: "3c1c6a52-8e0f-4b7d-a2c4-9f1e0d2b6a77",
    date: "2026-12-21"
  }
] as const

const window = ["--from", "2026-12-01", "--to", "2026-12-31"]

describe("every command reads a file of each source", () => {
  for (const s of sources) {
    it(`${s.file}: project, forecast, reconcile, explain`, async () => {
      const project = await run(["project", "--orders", at(s.file), ...s.flags, ...window, "--format", "json"])
      expect(project.code, project.stderr).toBe(0)
      const payments = (JSON.parse(project.stdout) as { payments: Array<{ orderId: string; executionDate: string }> })
        .payments
      expect(payments.some((p) => p.orderId === s.order && p.executionDate === s.date)).toBe(true)

      const iban = s.file.startsWith("uk")
        ? "GB33BUKB20201555555555"
        : s.file.startsWith("ynab")
          ? "CZ4608000000002345678908"
          : s.file.startsWith("actual")
            ? "DE76500105175403741272"
            : s.file.startsWith("bg")
              ? "DE76500105175403741272"
              : "CZ4608000000002345678908"
      const currency = s.file.startsWith("uk")
        ? "GBP"
        : s.file.startsWith("bg") || s.file.startsWith("actual")
          ? "EUR"
          : "CZK"
      const balances = write(`balances-${s.file}`, [{ iban, currency, amount: "100000.00", date: "2026-12-01" }])
      const forecast = await run(["forecast", "--orders", at(s.file), ...s.flags, "--balances", balances, ...window])
      expect(forecast.code, forecast.stderr).toBe(0)
      expect(forecast.stdout).toContain("1 account")

      const reconcile = await run(["reconcile", "--orders", at(s.file), ...s.flags, "--as-of", "2026-11-29"])
      // a source with next dates is checked against them (UK's off-cycle SO-LOAN is an anomaly: exit 8)
      expect([0, 8], reconcile.stderr).toContain(reconcile.code)
      expect(reconcile.stdout).toContain("Reconciliation on 2026-11-29")

      const listed = s.file === "cobs-page.json" ? ["--listed-on", "2026-11-29"] : []
      const explain = await run([
        "explain",
        "--orders",
        at(s.file),
        ...s.flags,
        ...listed,
        "--order",
        s.order,
        "--date",
        s.date
      ])
      expect(explain.code, explain.stderr).toBe(0)
    })
  }

  it("the source's next date is the bank's word: payments before it count as made, reconcile checks it", async () => {
    const project = await run(["project", "--orders", at("uk-v3-list.json"), "--accounts", accounts, ...window])
    // SO-LOAN pays every other Friday (4 and 18 December); its NextPaymentDateTime 11 December makes the 4th paid
    expect(project.stdout).not.toMatch(/2026-12-04 .*SO-LOAN/)
    expect(project.stdout).toMatch(/2026-12-18 .*SO-LOAN/)
    const reconcile = await run([
      "reconcile",
      "--orders",
      at("uk-v3-list.json"),
      "--accounts",
      accounts,
      "--as-of",
      "2026-11-29"
    ])
    expect(reconcile.code).toBe(8)
    expect(reconcile.stdout).toMatch(/SO-LOAN .*anomaly +2026-12-04 +2026-12-11/)
    expect(reconcile.stdout).toContain("matched           2")
  })

  it("without --accounts: UK keeps its AccountId; YNAB has no currency and names the flag (exit 7)", async () => {
    const uk = await run(["project", "--orders", at("uk-v3-list.json"), ...window, "--format", "json"])
    expect(uk.code).toBe(0)
    expect(uk.stdout).toContain('"debtorIban":"22289"')
    const ynab = await run(["project", "--orders", at("ynab-answer.json"), ...window])
    expect(ynab.code).toBe(7)
    expect(ynab.stderr).toContain("in the accounts file (--accounts FILE)")
  })

  it("a wrong accounts file names every wrong entry (exit 2)", async () => {
    const bad = write("bad-accounts.json", { a: { iban: "GB00BUKB20201555555555" }, b: { currency: "gbp" } })
    const r = await run(["project", "--orders", at("uk-v3-list.json"), "--accounts", bad, ...window])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("a.iban: IBAN check digits are wrong")
    expect(r.stderr).toContain("b.currency: expected three capital letters")
  })
})

describe("a creditor the record does not name is unknown in every output (issue 36)", () => {
  const page = ["--orders", at("cobs-page.json")]
  it("project: null in JSON, an empty cell in CSV, (creditor unknown) in the table, HTML and iCalendar", async () => {
    const json = await run(["project", ...page, ...window, "--format", "json"])
    expect(json.code, json.stderr).toBe(0)
    expect(json.stderr).toContain("creditorAccount is missing")
    const payment = (JSON.parse(json.stdout) as { payments: Array<Record<string, unknown>> }).payments[0]
    expect(payment).toMatchObject({ orderId: "SO2026000000004711", creditorIban: null })
    expect(payment).not.toHaveProperty("creditorName")
    const csv = await run(["project", ...page, ...window, "--format", "csv"])
    expect(csv.stdout.split("\r\n")[1]).toMatch(/,CZK,CZ4608000000002345678908,,$/)
    const table = await run(["project", ...page, ...window])
    expect(table.stdout).toMatch(/SO2026000000004711 +\(creditor unknown\) +2500\.00 +CZK/)
    const html = await run(["project", ...page, ...window, "--format", "html"])
    expect(html.stdout).toContain('<td class="creditor">(creditor unknown)</td>')
    const ics = await run(["project", ...page, ...window, "--format", "ics"])
    expect(ics.stdout).toContain("SUMMARY:Standing order 2500.00 CZK to (creditor unknown)")
  })
  it("translate writes no payee's account for it (a name alone where the target has one)", async () => {
    const listed = ["--listed-on", "2026-11-29"]
    const parse = async (to: string, file = "cobs-page.json", flags: ReadonlyArray<string> = listed) => {
      const r = await run(["translate", "--orders", at(file), "--to", to, ...flags])
      expect([0, 8], r.stderr).toContain(r.code)
      return SourceRecord.envelope(JSON.parse(r.stdout)).records as Array<Record<string, unknown>>
    }
    const [cobs] = await parse("cobs")
    expect(cobs).not.toHaveProperty("creditorAccount")
    const [uk] = await parse("uk-v3")
    expect(uk).not.toHaveProperty("CreditorAccount")
    const [bg] = await parse("berlin-group-ais")
    expect(JSON.stringify(bg)).not.toContain("creditorAccount")
    // a periodic payment requires its creditorAccount: unrepresentable
    const pis = await run(["translate", "--orders", at("cobs-page.json"), "--to", "berlin-group", ...listed])
    expect(pis.code).toBe(8)
    expect(JSON.parse(pis.stdout)).toEqual([])
    expect(pis.stderr).toContain(
      "unrepresentable in berlin-group: a Berlin Group periodic payment names its creditorAccount"
    )
    const [ynab] = await parse("ynab")
    expect(ynab).toMatchObject({ payee_name: null })
    const [actual] = await parse("actual")
    expect(actual).not.toHaveProperty("payee")
    // YNAB's payee is a name without an account: kept as the name where the target has one, else a loss
    const fromYnab = ["--accounts", accounts]
    const [bgNamed] = await parse("berlin-group-ais", "ynab-answer.json", fromYnab)
    expect(JSON.stringify(bgNamed)).toContain('"creditorName":"Jana Dvořáková"')
    const lossy = await run(["translate", "--orders", at("ynab-answer.json"), ...fromYnab, "--to", "uk-v3"])
    expect(lossy.stderr).toContain("Jana Dvořáková")
    // read back: the creditor is unknown again, not an empty account
    const written = write("unknown-creditor.json", { pageNumber: 0, pageCount: 1, pageSize: 1, standingOrders: [cobs] })
    const back = await run(["project", "--orders", written, ...window, "--format", "json"])
    expect(back.code, back.stderr).toBe(0)
    expect(back.stdout).toContain('"creditorIban":null')
  })
})

describe("a COBS list item counts from the listing day (issue 36)", () => {
  it("translate and its --listed-on: the day given, else today in the bank's time zone, said in a warning", async () => {
    const given = await run([
      "translate",
      "--orders",
      at("cobs-page.json"),
      "--to",
      "uk-v3",
      "--listed-on",
      "2026-11-29"
    ])
    expect(given.code, given.stderr).toBe(8)
    expect(given.stderr).not.toContain("today")
    const written = JSON.parse(given.stdout) as { Data: { StandingOrder: Array<Record<string, unknown>> } }
    expect(written.Data.StandingOrder.map((o) => [o.StandingOrderId, o.FirstPaymentDateTime])).toEqual([
      ["SO2026000000004711", "2026-12-20T00:00:00+00:00"]
    ])
    const today = await run(["translate", "--orders", at("cobs-page.json"), "--to", "uk-v3"])
    expect(today.code, today.stderr).toBe(8)
    expect(today.stderr).toMatch(
      /tppkit: warning: 1 COBS list item names no start and counts from the listing day: today, \d{4}-\d\d-\d\d in Europe\/Prague \(give the day the list was read with --listed-on YYYY-MM-DD\)/
    )
    expect(JSON.parse(today.stdout).Data.StandingOrder).toHaveLength(1)
    // a record with its own start (the detail) needs no listing day: no warning
    const detail = await run(["translate", "--orders", at("cobs-detail.json"), "--to", "uk-v3"])
    expect(detail.stderr).not.toContain("listing day")
    const bad = await run(["translate", "--orders", at("cobs-page.json"), "--to", "uk-v3", "--listed-on", "2026-02-30"])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--listed-on "2026-02-30"')
  })
})

describe("translate --to T writes one whole list of T", () => {
  const targets = ["cobs", "uk-v3", "uk-v4", "berlin-group", "berlin-group-ais", "ynab", "actual"] as const
  const map = write("map.json", { CZ4608000000002345678908: { currency: "CZK" } })
  const d = LocalDate.parseUnsafe
  /**
   * The shapes most targets say (weekly on one day every 1, 2 or 4 weeks, monthly on a day or the last day every 1, 2,
   * 3, 4, 6 or 12 months, twice a month, every n days, yearly), half the time, and any rule (weekdays of the month,
   * several weekdays, selected months, days 29–31 with each missing-day rule, …) else; now and then with an end or a
   * count: each target says some exactly and names what it cannot say.
   */
  const plain: fc.Arbitrary<Recurrence.Rule> = fc.oneof(
    fc.record({
      _tag: fc.constant("Weekly" as const),
      interval: fc.constantFrom(1, 2, 4),
      weekdays: fc.integer({ min: 1, max: 7 }).map((w) => [w] as const)
    }),
    fc.record({
      _tag: fc.constant("MonthlyOnDay" as const),
      interval: fc.constantFrom(1, 2, 3, 4, 6, 12),
      day: fc.oneof(fc.integer({ min: 1, max: 28 }), fc.constant(-1)),
      missing: fc.constant("clamp" as const)
    }),
    fc.record({
      _tag: fc.constant("EveryDays" as const),
      interval: fc.constantFrom(1, 2, 7, 14)
    }),
    fc.record({
      _tag: fc.constant("Yearly" as const),
      interval: fc.constantFrom(1, 2),
      dates: fc
        .record({ month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 28 }) })
        .map((x) => [x] as const),
      missing: fc.constant("clamp" as const)
    })
  )
  const order = fc.record({
    rule: fc.oneof(plain, rule),
    start: fc.integer({ min: d("2026-01-01"), max: d("2026-12-31") }),
    end: fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.integer({ min: 30, max: 1200 }) }
    ),
    count: fc.oneof(
      { weight: 4, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 40 }) }
    )
  })
  /** Payments as CSV rows keyed by amount (one amount per order): nominal, execution, amount, currency, debtor. */
  const byAmount = (csv: string) => {
    const out = new Map<string, Array<string>>()
    for (const l of csv.trim().split("\n").slice(1)) {
      const [, nominal, execution, , amount, currency, debtor] = l.split(",")
      const row = [nominal, execution, amount, currency, debtor].join(",")
      const list = out.get(amount!)
      if (list === undefined) out.set(amount!, [row])
      else list.push(row)
    }
    return out
  }
  for (const to of targets) {
    it(`${to}: a file of many orders of rich recurrences reads back to the same payments wherever the translation was exact`, async () => {
      let compared = 0
      await fc.assert(
        fc.asyncProperty(fc.array(order, { minLength: 20, maxLength: 30 }), async (orders) => {
          // the source: each recurrence an RRULE says exactly, its own amount (1.01, 2.02, …) to find its payments by
          const amounts = new Map<string, string>()
          const source = orders.flatMap((o, i) => {
            const r: Recurrence.Recurrence = {
              rule: o.rule,
              start: o.start as LocalDate.LocalDate,
              ...(o.end === undefined ? {} : { end: (o.start + o.end) as LocalDate.LocalDate }),
              ...(o.count === undefined ? {} : { count: o.count }),
              convention: "none"
            }
            const t = Standard.encode(r, "rrule")
            if (t._tag !== "Exact") return []
            const amount = `${i + 1}.${String((i + 1) % 100).padStart(2, "0")}`
            amounts.set(`O${i}`, amount)
            return [
              {
                orderId: `O${i}`,
                debtor: { name: "Payer", iban: "CZ4608000000002345678908" },
                creditor: { name: "Payee", iban: "CZ7520100000002800345671" },
                instructedAmount: { value: new Json.NumberText(amount), currency: "CZK" },
                ...t.value
              }
            ]
          })
          const file = write(`source-${to}.json`, source)
          // Berlin Group cannot say "never moved": its orders are translated and projected with following
          const convention = to.startsWith("berlin-group") ? "following" : "none"
          const t = await run(["translate", "--orders", file, "--to", to, "--convention", convention])
          expect([0, 8], t.stderr).toContain(t.code)
          // exact, but for what the target keeps per budget (YNAB's and Actual's currency, YNAB's payee account)
          const inexact = new Set<string>()
          for (const l of t.stderr.split("\n")) {
            const m = /^tppkit: (O\d+) (lossy|unrepresentable)/.exec(l)
            if (m !== null && !(m[2] === "lossy" && / lossy: (currency|creditor) changes/.test(l))) inexact.add(m[1]!)
          }
          const exact = [...amounts].filter(([id]) => !inexact.has(id)).map(([, amount]) => amount)
          if (exact.length === 0) return
          const written = write(`written-${to}.json`, t.stdout)
          const window = ["--from", "2026-01-01", "--to", "2029-12-31", "--convention", convention, "--format", "csv"]
          const a = await run(["project", "--orders", file, ...window])
          const b = await run(["project", "--orders", written, "--accounts", map, ...window])
          expect(b.code, b.stderr).toBe(0)
          const want = byAmount(a.stdout)
          const got = byAmount(b.stdout)
          for (const amount of exact) expect(got.get(amount), `${to} ${amount}`).toEqual(want.get(amount))
          compared += exact.length
        }),
        // COBS says about one generated order in six exactly: 3 runs compared 11-19 of its orders, 10 compare ~50
        { numRuns: 10 }
      )
      expect(compared).toBeGreaterThan(10)
    }, 300_000)
  }
})
