import { Reconcile } from "@tppkit/cli"
import { BankRule, Calendar, LocalDate } from "@tppkit/core"
import { Reconciliation } from "@tppkit/schedule"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { run } from "./inProcess.ts"

const d = LocalDate.parseUnsafe

describe("Reconcile.settings", () => {
  it("reads the listing day, every-day or a named calendar, and the convention", () => {
    const every = Reconcile.settings({ asOf: "2026-01-15", calendar: "every-day", convention: "none" })
    expect(Result.isSuccess(every) && every.success.rule.calendar).toBe(BankRule.everyDay)
    const sk = Reconcile.settings({ asOf: " 2026-01-15 ", calendar: "sk", convention: "preceding" })
    expect(Result.isSuccess(sk) && BankRule.describe(sk.success.rule)).toBe("preceding · SK")
  })
  it("--holidays adds days to the calendar in use; on every day they are the only closed days", () => {
    const every = Result.getOrThrow(
      Reconcile.settings({ asOf: "2026-01-15", calendar: "every-day", convention: "following", holidays: "2026-01-17" })
    )
    const calendar = every.rule.calendar as Calendar.Calendar
    expect(BankRule.describe(every.rule)).toBe("following · every-day+custom")
    expect(Calendar.isWorkingDay(calendar, d("2026-01-17"))).toBe(false) // the added Saturday
    expect(Calendar.isWorkingDay(calendar, d("2026-01-18"))).toBe(true) // a Sunday of a bank paying every day
    const target = Reconcile.settings({
      asOf: "2026-01-15",
      calendar: "target",
      convention: "following",
      holidays: "2026-01-16"
    })
    expect(Result.isSuccess(target) && BankRule.describe(target.success.rule)).toBe("following · target+custom")
    expect(
      Reconcile.settings({ asOf: "2026-01-15", calendar: "target", convention: "following", holidays: "2026-02-30" })
    ).toMatchObject({ failure: expect.stringMatching(/^--holidays "2026-02-30"/) })
  })
  it("says what is wrong", () => {
    const bad = (raw: Reconcile.RawSettings) => Result.isFailure(Reconcile.settings(raw)) && Reconcile.settings(raw)
    expect(bad({ asOf: "2026-13-01", calendar: "target", convention: "following" })).toMatchObject({
      failure: expect.stringMatching(/^--as-of "2026-13-01"/)
    })
    expect(bad({ asOf: "2026-01-01", calendar: "moon", convention: "following" })).toMatchObject({
      failure: expect.stringMatching(/or every-day$/)
    })
    expect(bad({ asOf: "2026-01-01", calendar: "target", convention: "sideways" })).toMatchObject({
      failure: expect.stringMatching(/^--convention "sideways"/)
    })
  })
})

describe("Reconcile.table and jsonValue", () => {
  // MNTH from 2024-01-31 listed on 2024-03-25: the engine expects 2 April (31 March a Sunday, 1 April Easter Monday)
  const order = (orderId: string, nextDate: string) => ({
    orderId,
    frequency: "MNTH" as const,
    startDate: d("2024-01-31"),
    nextDate: d(nextDate)
  })
  const reconciliation = Reconciliation.reconcile(
    [order("A", "2024-04-02"), order("B", "2024-03-28"), order("C", "2024-04-15"), order("D", "2024-03-01")],
    { asOf: d("2024-03-25") }
  )
  const report = { reconciliation, unreadable: [{ orderId: "E", reason: "record 4 at frequency: not a code" }] }

  it("the table: the counts, the inference, then the orders that differ", () => {
    const text = Reconcile.table(report)
    expect(text.split("\n")[0]).toBe("Reconciliation on 2024-03-25 of 4 listed orders against following · target")
    expect(text).toMatch(/^explained +1 \(preceding · target: 1\)$/m)
    expect(text).toMatch(/^stale +1$/m)
    expect(text).toMatch(/^skipped +1$/m)
    expect(text).toMatch(/^the bank's rule: not enough evidence: /m)
    expect(text).toMatch(/^B +MNTH +explained +2024-04-02 +2024-03-28 +preceding · target$/m)
    expect(text).toMatch(/^C +MNTH +anomaly +2024-04-02 +2024-04-15 +-$/m)
    expect(text).toMatch(/^D +MNTH +stale +2024-04-02 +2024-03-01 +-$/m)
    expect(text).toMatch(/^skipped E: record 4/m)
    for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(80)
  })

  it("the JSON: one object with the rule, counts, inference, differences and skipped records", () => {
    const json = Reconcile.jsonValue(report)
    expect(Object.keys(json)).toEqual([
      "asOf",
      "rule",
      "counts",
      "explainedBy",
      "inference",
      "findings",
      "differences",
      "skipped"
    ])
    expect(json.rule).toEqual({
      convention: "following",
      calendar: "target",
      nextDate: "execution",
      text: "following · target"
    })
    expect(json.counts).toEqual({
      match: 1,
      explained: 1,
      stale: 1,
      anomaly: 1,
      unexplained: 0,
      withoutNextDate: 0,
      skipped: 1
    })
    expect(json.findings).toBe(true)
    expect(json.differences.map((x) => [x.orderId, x.status, x.engineDate, x.bankDate])).toEqual([
      ["B", "explained", "2024-04-02", "2024-03-28"],
      ["C", "anomaly", "2024-04-02", "2024-04-15"],
      ["D", "stale", "2024-04-02", "2024-03-01"]
    ])
    expect(json.inference.status).toBe("notEnoughEvidence")
  })

  it("an inferred rule is named with its support and the next best", () => {
    const line = Reconcile.inferenceLine({
      _tag: "Inferred",
      rule: BankRule.make({ convention: "preceding", calendar: Calendar.target }),
      support: 9,
      evidence: 10,
      notExplained: ["X"],
      runnerUp: { rule: BankRule.defaultRule, support: 4 }
    })
    expect(line).toBe("the bank's rule: preceding · target, explains 9 of 10 dates (next best following · target: 4)")
  })
})

describe("tppkit reconcile: a file's text on the terminal", () => {
  it("a skipped record's orderId and reason are shown escaped in the table", () => {
    const r = Reconciliation.reconcile([], { asOf: d("2027-01-05") })
    const table = Reconcile.table({
      reconciliation: r,
      unreadable: [{ orderId: "U\u001b]0;x\u0007", reason: 'rrule: "x\u0007" is not NAME=VALUE' }]
    })
    expect(table).toContain('skipped U\\x1b]0;x\\x07: rrule: "x\\x07" is not NAME=VALUE')
    expect(table).not.toContain("\u001b")
  })
})

describe("tppkit reconcile on orders given as recurrences (an RRULE, a COBS record)", () => {
  const file = "test/cli/fixtures/recurrence-orders.json"

  it("the bank's nextDates under following match every rule; under preceding the moved RRULE dates are differences", async () => {
    const matched = await run(["reconcile", "--orders", file, "--as-of", "2027-04-01", "--format", "json"])
    expect(matched.code).toBe(0)
    const json = JSON.parse(matched.stdout)
    expect(json.counts).toMatchObject({ match: 5, explained: 0, anomaly: 0, unexplained: 0, skipped: 0 })
    // the COBS order states preceding: the rule in use does not move it; the RRULEs move by it
    const preceding = await run([
      "reconcile",
      "--orders",
      file,
      "--as-of",
      "2027-04-01",
      "--convention",
      "preceding",
      "--format",
      "json"
    ])
    expect(preceding.code).toBe(0)
    const differences = JSON.parse(preceding.stdout).differences as Array<Record<string, unknown>>
    expect(differences.map((x) => [x.orderId, x.frequency, x.rule, x.engineDate, x.bankDate, x.status])).toEqual(
      [
        ["R-LASTFRI", null, "every month on the last Friday", "2027-04-30", "2027-04-30", "match"].slice(0, 0),
        ["R-BIWEEKLY", null, "every 2 weeks on Saturday", "2027-04-09", "2027-04-12", "explained"],
        ["R-DAY30", null, "every month on day 30", "2027-04-30", "2027-04-30", "match"].slice(0, 0),
        ["S-MNTH", "MNTH", "every month on day 31", "2027-04-30", "2027-04-30", "match"].slice(0, 0)
      ].filter((x) => x.length > 0)
    )
    const table = await run(["reconcile", "--orders", file, "--as-of", "2027-04-01", "--convention", "preceding"])
    expect(table.stdout).toMatch(/^R-BIWEEKLY +rule +explained +2027-04-09 +2027-04-12 +following · target$/m)
  })
})
