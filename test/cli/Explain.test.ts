import { Explain } from "@tppkit/cli"
import { BankRule, Calendar, DateTrace, LocalDate } from "@tppkit/core"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { run } from "./inProcess.ts"
import { listing, monthly } from "./listing.ts"
import { tempFolder } from "./tempFiles.ts"

const d = LocalDate.parseUnsafe

const traceOf = (order: Parameters<typeof DateTrace.onOrAfter>[0], on: string, options?: DateTrace.Options) =>
  Result.getOrThrow(DateTrace.onOrAfter(order, d(on), options))

describe("Explain", () => {
  it("the table fits 80 columns; the JSON object holds the trace with its dates as text", () => {
    const trace = traceOf({ frequency: "DAIL", startDate: d("2026-04-01") }, "2026-04-04", {
      calendar: Calendar.target,
      source: { kind: "inferred", detail: "the nextDates of listing.json on 2026-03-01" }
    })
    const report = { orderId: "D", date: d("2026-04-04"), trace }
    for (const line of Explain.table(report).split("\n")) expect(line.length).toBeLessThanOrEqual(80)
    const json = JSON.parse(Explain.json(report))
    expect(json.trace).toMatchObject({
      frequency: "DAIL",
      anchor: { field: "startDate", date: "2026-04-01" },
      executionDate: "2026-04-07",
      conventionSource: { kind: "inferred", detail: "the nextDates of listing.json on 2026-03-01" },
      passed: [
        { date: "2026-04-03", kind: "holiday", why: "Good Friday" },
        { date: "2026-04-04", kind: "weekend", why: "weekend" },
        { date: "2026-04-05", kind: "weekend", why: "weekend" },
        { date: "2026-04-06", kind: "holiday", why: "Easter Monday" }
      ],
      nextDateCut: null
    })
    expect(json.sentences).toEqual(DateTrace.sentences(report))
  })
})

describe("tppkit explain in-process", () => {
  const { file: write } = tempFolder("tppkit-explain")
  const asOf = "2026-07-25"
  const orders = listing(monthly, BankRule.defaultRule, asOf)

  it("explains the next payment of an order (from its nextDate) as sentences, exit 0", async () => {
    // SO-01 starts 2025-01-01: listed on 2026-07-25 its nextDate is 3 August (1 August a Saturday)
    const r = await run(["explain", "--orders", "-", "--order", "SO-01"], { stdin: orders })
    expect(r.code).toBe(0)
    expect(r.stderr).toBe("")
    expect(r.stdout).toMatch(/^Nominal date: Sat 2026-08-01\.$/m)
    expect(r.stdout).toMatch(/^The bank's nextDate is 2026-08-03: payments before it count as paid/m)
    expect(r.stdout).toMatch(/^Execution date: Mon 2026-08-03\.$/m)
  })

  it("--format json gives one object; --convention and --calendar are named as the source", async () => {
    const r = await run(
      ["explain", "--orders", "-", "--order", "SO-01", "--date", "2026-07-31", "--calendar", "SK"].concat([
        "--convention",
        "preceding",
        "--format",
        "json"
      ]),
      { stdin: orders }
    )
    expect(r.code).toBe(0)
    const json = JSON.parse(r.stdout)
    // 1 August 2026 is a Saturday: preceding pays on Friday 31 July, before the bank's nextDate (paid already)
    expect(json.trace.nominalDate).toBe("2026-08-01")
    expect(json.trace.executionDate).toBe("2026-07-31")
    expect(json.trace.conventionSource).toEqual({ kind: "flag", detail: "--convention preceding --calendar SK" })
    expect(json.trace.nextDateCut).toEqual({ nextDate: "2026-08-03", paid: true })
    // the first payment executing on or after 1 August under preceding: 1 September 2026, a Tuesday
    const next = await run(
      ["explain", "--orders", "-", "--order", "SO-01", "--date", "2026-08-01", "--convention", "preceding"],
      { stdin: orders }
    )
    expect(next.stdout).toMatch(/^No payment of order SO-01 executes on 2026-08-01; the next one:$/m)
    expect(next.stdout).toMatch(/^Execution date: Tue 2026-09-01\.$/m)
  })

  it("--rule-from: the rule the listing's nextDates point to, named as inferred", async () => {
    const rule = BankRule.make({ convention: "preceding", calendar: Calendar.weekends })
    const file = write("listing.json", listing(monthly, rule, asOf))
    const r = await run(
      ["explain", "--orders", file, "--order", "SO-01", "--date", "2026-07-31", "--rule-from", file].concat([
        "--listed-on",
        asOf,
        "--format",
        "json"
      ])
    )
    expect(r.code).toBe(0)
    const json = JSON.parse(r.stdout)
    expect(json.trace.conventionSource).toEqual({ kind: "inferred", detail: `the nextDates of ${file} on ${asOf}` })
    expect(json.trace.convention).toBe("preceding")
    // target and weekends agree on every date of this listing: the calendar asked for (target) is kept
    expect(json.trace.calendar).toBe("target")
    expect(json.trace.executionDate).toBe("2026-07-31")
    expect(r.stderr).toMatch(/^tppkit: projecting with preceding · target/)
  })

  it("an unknown order, a bad date and --rule-from without a day are usage errors", async () => {
    const missing = await run(["explain", "--orders", "-", "--order", "NOPE"], { stdin: orders })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/^tppkit: no order "NOPE" in - \(31 orders\)/)
    const bad = await run(["explain", "--orders", "-", "--order", "SO-01", "--date", "2026-02-30"], { stdin: orders })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/^tppkit: --date "2026-02-30"/)
    const noDay = await run(["explain", "--orders", "-", "--order", "SO-01", "--rule-from", "x.json"], {
      stdin: orders
    })
    expect(noDay.code).toBe(2)
    expect(noDay.stderr).toMatch(/--listed-on/)
  })
})

describe("tppkit explain on orders given as recurrences (an RRULE, a COBS record)", () => {
  const file = "test/cli/fixtures/recurrence-orders.json"
  /** The sentences, each on one line again (the table wraps a long one under itself). */
  const explain = async (args: ReadonlyArray<string>) => {
    const r = await run(["explain", "--orders", file, ...args])
    return { ...r, stdout: r.stdout.replaceAll("\n  ", " ") }
  }

  it("every 2 weeks on Saturday: the rule, occurrence k on it, the Saturday moved by --convention", async () => {
    const r = await explain(["--order", "R-BIWEEKLY", "--date", "2027-04-10"])
    expect(r.code).toBe(0)
    // an RRULE states no convention: the one that moves it is said (issue 34), once for the file's three
    expect(r.stderr).toBe(
      "tppkit: warning 3 orders (R-LASTFRI, R-BIWEEKLY, R-DAY30): rrule: lossy: The business-day convention (convention) changes from never moved to following, because an RRULE's dates are the dates (RFC 5545): the reader's convention moves them.\n"
    )
    // from Saturday 2 January: 2, 16, 30 January … 10 April is occurrence 7
    expect(r.stdout).toMatch(/^Schedule: every 2 weeks on Saturday, from 2027-01-02; this is occurrence k = 7\.$/m)
    expect(r.stdout).toMatch(/^Nominal date: Sat 2027-04-10\.$/m)
    expect(r.stdout).toMatch(/^Execution date: Mon 2027-04-12\.$/m)
    expect(r.stdout).not.toMatch(/DAI7/)
    const json = JSON.parse(
      (
        await run(
          ["explain", "--orders", file, "--order", "R-BIWEEKLY", "--date", "2027-04-09"].concat([
            "--convention",
            "preceding",
            "--format",
            "json"
          ])
        )
      ).stdout
    )
    expect(json.trace.frequency).toBeNull()
    expect(json.trace.rule).toBe("every 2 weeks on Saturday")
    expect(json.trace.anchor).toEqual({ field: "start", date: "2027-01-02" })
    expect(json.trace.recurrence.rule).toEqual({ _tag: "Weekly", interval: 2, weekdays: [6] })
    expect([json.trace.k, json.trace.convention, json.trace.executionDate]).toEqual([7, "preceding", "2027-04-09"])
  })

  it("the last Friday, and day 30 clamped in February (BYMONTHDAY=28,29,30;BYSETPOS=-1)", async () => {
    const last = await explain(["--order", "R-LASTFRI", "--date", "2027-05-01"])
    expect(last.stdout).toMatch(
      /^Schedule: every month on the last Friday, from 2027-01-01; this is occurrence k = 4\.$/m
    )
    expect(last.stdout).toMatch(/^Execution date: Fri 2027-05-28\.$/m)
    const clamp = await explain(["--order", "R-DAY30", "--date", "2027-02-02"])
    expect(clamp.stdout).toMatch(/^Day 30 does not exist in February 2027: the nominal date is its last day/m)
    expect(clamp.stdout).toMatch(/^Execution date: Mon 2027-03-01\.$/m)
  })

  it("every 3rd working day: named, and the non-working days skipped before it listed", () => {
    const order = {
      recurrence: {
        rule: { _tag: "EveryWorkingDays", interval: 3 },
        start: LocalDate.parseUnsafe("2026-04-01"),
        convention: "none"
      } as const
    }
    // working days from Wednesday 1 April 2026 (target): 1, 2, 7 (Good Friday to Easter Monday closed), 8, 9, 10 …
    const trace = Result.getOrThrow(DateTrace.onOrAfter(order, LocalDate.parseUnsafe("2026-04-02")))!
    expect(LocalDate.format(trace.execution)).toBe("2026-04-08")
    const sentences = DateTrace.sentences({ orderId: "W3", date: undefined, trace })
    expect(sentences).toContain("It pays on every 3rd working day of calendar target: occurrence 1 is Wed 2026-04-08.")
    expect(DateTrace.replay(trace)).toEqual(Result.succeed(trace.execution))
  })

  it("a COBS order paused in July keeps its own convention (preceding) and names the paused occurrence", async () => {
    const r = await explain(["--order", "C-PAUSED", "--date", "2027-07-01", "--format", "json"])
    expect(r.code).toBe(0)
    const json = JSON.parse(r.stdout)
    expect(json.trace.pausedBefore).toEqual({ count: 1, first: "2027-07-10", last: "2027-07-10" })
    expect([json.trace.k, json.trace.executionDate]).toEqual([7, "2027-08-10"])
    expect(json.sentences).toContain("Occurrence 6 on Sat 2027-07-10 is paused: it is not paid.")
    // 10 October 2027 is a Sunday: the record's preceding, not the --convention asked for
    const october = await explain(["--order", "C-PAUSED", "--date", "2027-08-11", "--convention", "following"])
    expect(october.stdout).toMatch(/^Occurrence 8 on Fri 2027-09-10 is paused: it is not paid\.$/m)
    // the record states the convention, not the calendar: each says where it came from (issue 40)
    expect(october.stdout).toMatch(
      /^Rule: convention preceding \(stated by the order's record\) on calendar target \(tppkit's default\)\.$/m
    )
    expect(october.stdout).toMatch(/^Execution date: Fri 2027-10-08\.$/m)
    const cz = await explain(["--order", "C-PAUSED", "--date", "2027-08-11", "--calendar", "CZ", "--format", "json"])
    const trace = JSON.parse(cz.stdout)
    expect(trace.sentences).toContain(
      "Rule: convention preceding (stated by the order's record) on calendar CZ (set on the command line: --calendar CZ)."
    )
    expect(trace.trace.conventionSource).toEqual({ kind: "order", detail: null })
    expect(trace.trace.calendarSource).toEqual({ kind: "flag", detail: "--calendar CZ" })
  })
})
