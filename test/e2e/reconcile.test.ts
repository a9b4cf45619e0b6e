import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { BankRule, Calendar, LocalDate } from "@tppkit/core"
import { Personality, Sandbox } from "@tppkit/sandbox"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { listing, monthly } from "../cli/listing.ts"
import { tppkit } from "./harness.ts"

describe("tppkit reconcile", { timeout: 90_000 }, () => {
  it("a listing of a bank paying modified-preceding: explained by that rule, exit 0; an odd date makes it exit 8", async () => {
    const asOf = "2026-07-25" // 1 August 2026 is a Saturday
    const rule = BankRule.make({ convention: "modified-preceding", calendar: Calendar.weekends })
    const clean = await tppkit(["reconcile", "--orders", "-", "--as-of", asOf, "--format", "json"], {
      stdin: listing(monthly, rule, asOf)
    })
    expect(clean.stderr).toBe("")
    expect(clean.code).toBe(0)
    const json = JSON.parse(clean.stdout)
    expect(json.counts.anomaly + json.counts.unexplained).toBe(0)
    expect(json.explainedBy.map((e: { rule: { convention: string } }) => e.rule.convention)).toEqual([
      "modified-preceding"
    ])

    const odd = [
      ...monthly,
      { orderId: "ODD", frequency: "MNTH" as const, startDate: "2025-01-15", nextDate: "2026-08-20" }
    ]
    const flagged = await tppkit(["reconcile", "--orders", "-", "--as-of", asOf], { stdin: listing(odd, rule, asOf) })
    expect(flagged.code).toBe(8)
    expect(flagged.stderr).toBe("")
    expect(flagged.stdout).toMatch(/^ODD +MNTH +anomaly +2026-08-17 +2026-08-20 +-$/m)
  })

  it("a record that cannot be read: the others reconciled and printed, the record named, exit 7 before any finding", async () => {
    const asOf = "2026-07-25"
    const rule = BankRule.make({ convention: "modified-preceding", calendar: Calendar.weekends })
    const text = listing(monthly, rule, asOf)
    // a repeated key in the first record: it cannot be read as one standing order
    const broken = text.replace('{"orderId":', '{"orderId":"DUP","orderId":')
    expect(broken).not.toBe(text)
    const run = await tppkit(["reconcile", "--orders", "-", "--as-of", asOf, "--format", "json"], { stdin: broken })
    expect(run.code).toBe(7)
    const json = JSON.parse(run.stdout)
    expect(json.counts.match + json.counts.explained).toBe(monthly.length - 1)
    expect(run.stderr).toMatch(/1 record or part of the list could not be read as standing orders .*reconciled/)
  })

  it("tppkit project --rule-from: the rule the listing's nextDates show replaces the defaults", async () => {
    const flags = [
      "--orders",
      "examples/listing.json",
      "--from",
      "2026-07-25",
      "--to",
      "2026-08-31",
      "--format",
      "json"
    ]
    const plain = JSON.parse((await tppkit(["project", ...flags])).stdout)
    const ruled = await tppkit([
      "project",
      ...flags,
      "--rule-from",
      "examples/listing.json",
      "--listed-on",
      "2026-07-25"
    ])
    expect(ruled.code).toBe(0)
    expect(ruled.stderr).toMatch(/^tppkit: projecting with preceding · target, from the 5 nextDates/)
    const json = JSON.parse(ruled.stdout)
    expect([plain.convention, json.convention]).toEqual(["following", "preceding"])
    const rent = (j: { payments: Array<{ orderId: string; executionDate: string }> }) =>
      j.payments.filter((p) => p.orderId === "SO-RENT").map((p) => p.executionDate)
    expect(rent(plain)).toEqual(["2026-08-03"])
    expect(rent(json)).toEqual(["2026-07-31"])
  })

  it("tppkit project --rule-from, repeated: the evidence of several listings adds up, each on its own day", async () => {
    const rule = BankRule.make({ convention: "modified-preceding", calendar: Calendar.weekends })
    const dir = mkdtempSync(join(tmpdir(), "tppkit-reconcile-"))
    const [july, october] = [join(dir, "july.json"), join(dir, "october.json")]
    writeFileSync(july, listing(monthly, rule, "2026-07-25"))
    writeFileSync(october, listing(monthly, rule, "2026-10-25"))
    const window = ["project", "--orders", july, "--from", "2026-11-01", "--to", "2026-11-30", "--format", "json"]
    const one = await tppkit([...window, "--rule-from", july, "--listed-on", "2026-07-25"])
    const evidence = (stderr: string) => Number(/from the (\d+) nextDates/.exec(stderr)?.[1])
    const both = await tppkit([
      ...window,
      ...["--rule-from", july, "--listed-on", "2026-07-25", "--rule-from", october, "--listed-on", "2026-10-25"]
    ])
    expect(both.code).toBe(0)
    expect(both.stderr).toMatch(
      new RegExp(
        `^tppkit: projecting with modified-preceding · \\S+, from the \\d+ nextDates of ${july} on 2026-07-25, ${october} on 2026-10-25 \\(`
      )
    )
    // 31 dates in each listing: together 62 (both listings' evidence counted)
    expect([evidence(one.stderr), evidence(both.stderr)]).toEqual([31, 62])
    expect(JSON.parse(both.stdout).convention).toBe("modified-preceding")
    // one day for all listings, or one for each: two listings and three days is a usage error
    const days = ["--listed-on", "2026-07-25", "--listed-on", "2026-10-25", "--listed-on", "2026-10-26"]
    const wrong = await tppkit([...window, "--rule-from", july, "--rule-from", october, ...days])
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toMatch(
      /--listed-on: give one day for every --rule-from listing, or one for each \(2 listings, 3 days\)/
    )
  })

  it("--calendar every-day --holidays: a bank paying every day but its own holidays reconciles clean with them", async () => {
    // Saturday 1 August 2026 is a holiday of this bank: it pays the orders due then on Sunday the 2nd
    const closed = Calendar.withHolidays(Calendar.everyDay, [LocalDate.parseUnsafe("2026-08-01")])
    const text = listing(monthly, BankRule.make({ calendar: closed }), "2026-07-25")
    const flags = ["reconcile", "--orders", "-", "--as-of", "2026-07-25", "--format", "json"]
    const without = await tppkit([...flags, "--calendar", "every-day"], { stdin: text })
    // no candidate knows the bank's own holiday: the moved dates are findings (exit 8)
    expect(without.code).toBe(8)
    expect(JSON.parse(without.stdout).counts.match).toBeLessThan(monthly.length)
    const with_ = await tppkit([...flags, "--calendar", "every-day", "--holidays", "2026-08-01"], { stdin: text })
    expect(with_.stderr).toBe("")
    expect(with_.code).toBe(0)
    const json = JSON.parse(with_.stdout)
    expect(json.rule.text).toBe("following · every-day+custom")
    expect(json.counts.match).toBe(monthly.length)
  })

  it("tppkit project --rule-from a bank paying every day: DAIL pays on weekends too", async () => {
    const every = BankRule.make({ calendar: BankRule.everyDay })
    const orders = [
      { orderId: "DAILY", frequency: "DAIL" as const, startDate: "2026-07-01" },
      ...monthly.map((o) => ({ ...o, orderId: `M-${o.orderId}` }))
    ]
    const file = join(mkdtempSync(join(tmpdir(), "tppkit-reconcile-")), "listing.json")
    writeFileSync(file, listing(orders, every, "2026-08-01"))
    const run = await tppkit([
      ...["project", "--orders", file, "--rule-from", file, "--from", "2026-08-01", "--to", "2026-08-03"],
      ...["--format", "json"]
    ])
    expect(run.code).toBe(0)
    expect(run.stderr).toMatch(/^tppkit: projecting with every day/)
    const json = JSON.parse(run.stdout)
    expect(json.calendar).toBe("every-day")
    const daily = json.payments.filter((p: { orderId: string }) => p.orderId === "DAILY")
    expect(daily.map((p: { executionDate: string }) => p.executionDate)).toEqual([
      "2026-08-01",
      "2026-08-02",
      "2026-08-03"
    ])
  })
})

describe("tppkit reconcile against a mock bank with a personality", { timeout: 90_000 }, () => {
  // a bank that pays preceding, counts weekends only, and lists a tenth of its monthly orders ten days off
  const personality: Personality.Personality = {
    rule: BankRule.make({ convention: "preceding", calendar: Calendar.weekends }),
    anomalyRate: 0.1,
    seed: 3
  }
  let scope: Scope.Closeable
  let env: Record<string, string>
  beforeAll(async () => {
    scope = await Effect.runPromise(Scope.make())
    const context = await Effect.runPromise(Layer.buildWithScope(Sandbox.layer({ personality }), scope))
    const info = Context.get(context, Sandbox.SandboxInfo)
    env = { TPPKIT_BASE_URL: info.baseUrl, TPPKIT_CLIENT_ID: info.clientId, TPPKIT_CLIENT_SECRET: "sandbox-secret" }
    // the bank's clock on Saturday 25 July 2026 (1 August a Saturday): its listing day
    const set = await fetch(`${info.baseUrl}/__clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ set: "2026-07-25T08:00:00Z" })
    })
    expect(set.status).toBe(200)
  })
  afterAll(async () => {
    if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  it("finds the bank's convention and exactly its injected anomalies, exit 8", async () => {
    const list = await tppkit(["standing-orders", "--all", "--format", "json"], { env })
    expect(list.stderr).toBe("")
    expect(list.code).toBe(0)
    const listed = JSON.parse(list.stdout).standingOrders as Array<{
      orderId: string
      frequency: "MNTH"
      startDate?: string
      nextDate?: string
    }>
    const injected = listed
      .filter(
        (o) =>
          o.nextDate !== undefined &&
          o.startDate !== undefined &&
          Personality.isAnomalous(personality, { ...o, startDate: LocalDate.parseUnsafe(o.startDate) })
      )
      .map((o) => o.orderId)
    expect(injected.length).toBeGreaterThan(0)
    const run = await tppkit(["reconcile", "--orders", "-", "--as-of", "2026-07-25", "--format", "json"], {
      stdin: list.stdout
    })
    expect(run.code).toBe(8)
    const json = JSON.parse(run.stdout)
    const anomalies = json.differences.filter((d: { status: string }) => d.status === "anomaly")
    expect(anomalies.map((d: { orderId: string }) => d.orderId).sort()).toEqual(injected.sort())
    expect(json.counts.unexplained).toBe(0)
    // every difference that is not an anomaly is explained by a preceding rule, and the inference says preceding
    for (const d of json.differences.filter((x: { status: string }) => x.status === "explained")) {
      expect(d.rules).toContain("preceding · weekends")
    }
    const best = json.inference.status === "inferred" ? [json.inference.rule] : json.inference.tied
    expect(best.map((r: { text: string }) => r.text)).toContain("preceding · weekends")
  })

  it("standing-orders --all --reconcile in table mode: the summary, the bank's rule, each difference with its rule", async () => {
    // the customer present (logged in at the bank's time): no unattended page of the day's budget is spent
    const present = ["--psu-last-logged-time", "2026-07-25T08:00:00Z"]
    const run = await tppkit(["standing-orders", "--all", "--reconcile", "--as-of", "2026-07-25", ...present], {
      env: { ...env, COLUMNS: "160" }
    })
    expect(run.stderr).toBe("")
    expect(run.code).toBe(8)
    const out = run.stdout
    expect(out).toMatch(/^Reconciliation on 2026-07-25 of \d+ listed orders against following · target$/m)
    const count = (label: string) => Number(new RegExp(`^${label} +(\\d+)`, "m").exec(out)?.[1])
    expect(count("explained")).toBeGreaterThan(0)
    expect(count("anomalies")).toBeGreaterThan(0)
    expect(count("unexplained")).toBe(0)
    expect(count("stale")).toBe(0)
    expect(out).toMatch(/^explained +\d+ \(preceding · weekends: \d+\)$/m)
    expect(out).toMatch(/^the bank's rule: preceding · weekends, explains (\d+) of (\d+) dates/m)
    expect(out).toMatch(/^Order +Freq +Status +Engine +Bank +Explained by$/m)
    // each difference: order, frequency, status, the engine's date, the bank's date, the rule that explains it
    const explained = [...out.matchAll(/^(SO-\d{4}) +(\w{4}) +explained +(\S+) +(\S+) +(.+)$/gm)]
    expect(explained.length).toBe(count("explained"))
    for (const [, , , engine, bank, rule] of explained) {
      expect(bank).not.toBe(engine)
      expect(rule!.trim()).toBe("preceding · weekends")
    }
    const anomalies = [...out.matchAll(/^(SO-\d{4}) +(\w{4}) +anomaly +(\S+) +(\S+) +-$/gm)]
    expect(anomalies.length).toBe(count("anomalies"))
  })

  // the bank allows 4 unattended pages a day: the listing above took 2, this one takes the other 2
  it("standing-orders --all --reconcile reconciles the live listing itself: the same findings, exit 8", async () => {
    const run = await tppkit(["standing-orders", "--all", "--reconcile", "--as-of", "2026-07-25", "--format", "json"], {
      env
    })
    expect(run.stderr).toBe("")
    expect(run.code).toBe(8)
    const json = JSON.parse(run.stdout)
    expect(json.asOf).toBe("2026-07-25")
    expect(json.counts.anomaly).toBeGreaterThan(0)
    expect(json.counts.unexplained).toBe(0)
    const best = json.inference.status === "inferred" ? [json.inference.rule] : json.inference.tied
    expect(best.map((r: { text: string }) => r.text)).toContain("preceding · weekends")
    const bad = await tppkit(["standing-orders", "--all", "--as-of", "2026-07-25"], { env })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--as-of needs --reconcile/)
  })
})
