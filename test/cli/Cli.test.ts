import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ProjectCommand, ProjectionFormats, Style } from "@tppkit/cli"
import { BankRule, Calendar, Profile } from "@tppkit/core"
import { describe, expect, it } from "vitest"
import { root, tppkit } from "../e2e/harness.ts"
import { run } from "./inProcess.ts"
import { listing, monthly } from "./listing.ts"
import { mockBank } from "./mockBank.ts"
import { listText, orderText } from "./orderText.ts"
import { tempFolder } from "./tempFiles.ts"

const fixture = (name: string) => join(import.meta.dirname, "fixtures", name)

/** The arguments projecting `orders` (a file, or - for standard input) from `from` to `to`, then `more`. */
const project = (orders: string, from: string, to: string, ...more: Array<string>) => [
  "project",
  "--orders",
  orders,
  "--from",
  from,
  "--to",
  to,
  ...more
]

/** The arguments projecting the fixture orders over the first half of 2024 in a format. */
const projectFixture = (format: string) =>
  project(fixture("orders.json"), "2024-01-01", "2024-06-30", "--format", format)

const manyOrders = (n: number) =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) => ({
      orderId: `SO-${i}`,
      debtor: { name: "D", iban: "SK2411000000002612345678" },
      creditor: { iban: "SK6609000000005012345678" },
      instructedAmount: { value: 1, currency: "EUR" },
      startDate: "2026-01-05",
      frequency: "MNTH"
    }))
  )

describe("Cli.main in-process", () => {
  it("projects a file; records that could not be read make it exit 7 after the output", async () => {
    const r = await run(projectFixture("json"))
    // the fixture's SO-BAD-FREQ and SO-BAD-DATE cannot be read as standing orders
    expect(r.code).toBe(7)
    expect(JSON.parse(r.stdout).totals).toEqual([
      { currency: "CZK", count: 1, amount: "1000.00" },
      { currency: "EUR", count: 5, amount: "6252.50" }
    ])
  })

  it("writes iCalendar with one event per payment and names skipped orders on stderr", async () => {
    const r = await run(projectFixture("ics"))
    expect(r.code).toBe(7)
    expect(r.stdout.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true)
    expect(r.stdout.match(/BEGIN:VEVENT/g)).toHaveLength(6)
    expect(r.stderr).toContain("tppkit: skipped SO-BAD-FREQ")
  })

  it("every format carries the reason of each order skipped for its amount, and exits 0", async () => {
    const stdin = listText([
      orderText("GOOD", "10.50"),
      orderText("ZERO", "0"),
      orderText("NEG", "-5"),
      orderText("PRECISE", "12.345"),
      orderText("HUGE", "1e15")
    ])
    const reasons = [
      "ZERO: instructedAmount.value 0: ",
      "NEG: instructedAmount.value -5: ",
      "PRECISE: instructedAmount.value 12.345: amount has 3 decimals, at most 2 allowed (format [9.2]); not projected, nothing rounded",
      "HUGE: instructedAmount.value 1000000000000000: amount has 16 digits before"
    ]
    for (const format of ["table", "json", "csv", "ics", "html"]) {
      const r = await run(project("-", "2026-12-01", "2026-12-31", "--format", format), { stdin })
      expect(r.code).toBe(0)
      expect(r.stdout).toContain("GOOD")
      expect(r.stdout).not.toContain("PRECISE-") // no payment of a skipped order
      if (format === "json") {
        const json = JSON.parse(r.stdout)
        expect(json.payments.map((p: { orderId: string }) => p.orderId)).toEqual(["GOOD"])
        expect(json.totals).toEqual([{ currency: "EUR", count: 1, amount: "10.50" }])
        const skipped = (json.skipped as Array<{ orderId: string; reason: string }>).map(
          (s) => `${s.orderId}: ${s.reason}`
        )
        for (const reason of reasons) expect(skipped.some((s) => s.startsWith(reason))).toBe(true)
      } else {
        // the table, JSON and HTML list them in their output, CSV and iCalendar on stderr
        const where = format === "csv" || format === "ics" ? r.stderr : r.stdout.replace(/\s+/g, " ")
        const said = format === "html" ? where.replace(/<\/code> /g, ": ").replace(/<code>/g, "") : where
        for (const reason of reasons) expect(said).toContain(reason)
      }
      if (format === "ics") expect(r.stdout.match(/BEGIN:VEVENT/g)).toHaveLength(1)
    }
  })

  it("a record with a repeated key or a repeated standingOrders key: the other orders out, each problem on stderr, exit 7, in every format", async () => {
    const good = (orderId: string) => orderText(orderId, '"10.50"')
    const inputs = [
      {
        stdin: listText([good("A"), good("B").replace('"orderId":"B"', '"orderId":"B","orderId":"B2"'), good("C")]),
        problem: "tppkit: skipped B: record 2 at orderId: repeated key"
      },
      {
        stdin: `{"standingOrders":[${good("A")}],"standingOrders":[${good("C")}]}`,
        problem: 'tppkit: the orders list: standingOrders: the key "standingOrders" is repeated'
      }
    ]
    for (const { stdin, problem } of inputs) {
      for (const format of ["table", "json", "csv", "ics", "html"]) {
        const r = await run(project("-", "2026-12-01", "2026-12-31", "--format", format), { stdin })
        expect(r.code).toBe(7)
        expect(r.stdout).toContain("A")
        expect(r.stdout.match(/\bC\b|"C"|UID:C-/g)?.length ?? 0).toBeGreaterThan(0)
        expect(r.stderr).toContain(problem)
        const last = r.stderr.trimEnd().split("\n").at(-1)!
        expect(last).toContain(
          "standard input: 1 record or part of the list could not be read as standing orders (each reported above)"
        )
      }
    }
  })

  it("reports progress for large projections only when stderr is a terminal", async () => {
    const args = project("-", "2026-01-01", "2026-01-31", "--format", "csv")
    const quiet = await run(args, { stdin: manyOrders(1001) })
    expect(quiet.code).toBe(0)
    expect(quiet.stderr).toBe("")
    expect(quiet.stdout.split("\r\n")).toHaveLength(1001 + 2)
    const tty = await run(args, { stdin: manyOrders(1001), stderrIsTerminal: true })
    expect(tty.stderr).toContain("projecting 1001 standing orders")
  })

  it("the progress line is live: rewritten in place with the payments so far, erased at the end", async () => {
    const args = project("-", "2026-01-01", "2026-12-31", "--format", "csv")
    const tty = await run(args, { stdin: manyOrders(300), stderrIsTerminal: true })
    expect(tty.code).toBe(0)
    const updates = tty.stderr.split("\r\u001b[K")
    expect(updates[0]).toBe("")
    expect(updates[1]).toBe("projecting 300 standing orders… 0 payments")
    expect(updates[updates.length - 1]).toBe("") // erased: the terminal is left clean
    expect(tty.stderr).not.toContain("\n")
    // with stdout on the same terminal, the line is erased before the first output and never comes back
    const both = await run(args, { stdin: manyOrders(300), stderrIsTerminal: true, stdoutIsTerminal: true })
    expect(both.stderr).toBe("\r\u001b[Kprojecting 300 standing orders… 0 payments\r\u001b[K")
  })

  it("colours a table on a terminal, honouring NO_COLOR and FORCE_COLOR, never in a pipe", async () => {
    const saved = { NO_COLOR: process.env.NO_COLOR, FORCE_COLOR: process.env.FORCE_COLOR }
    const restore = () => {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k]
        else process.env[k] = v
      }
    }
    const esc = "\u001b["
    try {
      delete process.env.NO_COLOR
      delete process.env.FORCE_COLOR
      const terminal = await run(projectFixture("table"), { stdoutIsTerminal: true })
      expect(terminal.stdout).toContain(`${esc}1m`)
      const pipe = await run(projectFixture("table"))
      expect(pipe.stdout).not.toContain(esc)
      expect(Style.strip(terminal.stdout)).toBe(pipe.stdout)
      process.env.NO_COLOR = "1"
      expect((await run(projectFixture("table"), { stdoutIsTerminal: true })).stdout).not.toContain(esc)
      delete process.env.NO_COLOR
      process.env.FORCE_COLOR = "1"
      expect((await run(projectFixture("table"))).stdout).toContain(esc)
      const failed = await run(project("no/such.json", "2024-01-01", "2024-01-02"))
      expect(failed.stderr.startsWith(`${esc}1m${esc}31mtppkit:`)).toBe(true)
      process.env.FORCE_COLOR = "0"
      expect((await run(projectFixture("table"), { stdoutIsTerminal: true })).stdout).not.toContain(esc)
    } finally {
      restore()
    }
  })

  it("an invalid invocation is one line plus a hint, exit 2; no arguments shows the help only", async () => {
    const r = await run(["project", "--from", "2024-01-01"])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe("")
    expect(r.stderr.split("\n")[1]).toBe('Run "tppkit project --help" for usage.')
    const bare = await run([])
    expect(bare.code).toBe(2) // the help itself goes through the console presenter
    expect(bare.stderr).toBe("")
  })

  it("a file that cannot be read is named with the reason (exit 1 for orders, 2 for a flag's file)", async () => {
    const missing = await run(project("no/such/orders.json", "2024-01-01", "2024-01-31"))
    expect(missing.code).toBe(1)
    expect(missing.stderr).toBe('tppkit: cannot read orders file "no/such/orders.json": no such file\n')
    const fixtures = await run(["sandbox", "--fixtures", "no/such/fixtures.json"])
    expect(fixtures.code).toBe(2)
    expect(fixtures.stderr.split("\n")[0]).toBe(
      'tppkit: cannot read fixtures file "no/such/fixtures.json": no such file'
    )
    const profile = await run(["sandbox", "--profile", "no/such/profile.json"])
    expect(profile.code).toBe(2)
    expect(profile.stderr.split("\n")[0]).toBe(
      "tppkit: --profile no/such/profile.json: neither a built-in profile (sbas, cobs) nor a readable file"
    )
    const dir = mkdtempSync(join(tmpdir(), "tppkit-profile-"))
    const file = join(dir, "bank.json")
    writeFileSync(file, JSON.stringify({ ...Profile.cobs, paging: { ...Profile.cobs.paging, firstPage: 3 } }))
    const wrong = await run(["sandbox", "--profile", file])
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain("paging.firstPage: ")
    rmSync(dir, { recursive: true, force: true })
  })

  it("--version succeeds", async () => {
    expect((await run(["--version"])).code).toBe(0)
  })
})

/** Runs with these `TPPKIT_*` variables set (and every other one unset), restoring the environment after. */
const withEnv = async <A>(vars: Record<string, string>, f: () => Promise<A>): Promise<A> => {
  const saved = { ...process.env }
  for (const key of Object.keys(process.env)) if (key.startsWith("TPPKIT_")) delete process.env[key]
  Object.assign(process.env, { TPPKIT_BUDGET_FILE: "memory" }, vars)
  try {
    return await f()
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key]
    Object.assign(process.env, saved)
  }
}

describe("errors that name the cause and the way out", () => {
  const unreachable = { TPPKIT_BASE_URL: "http://127.0.0.1:9", TPPKIT_CLIENT_ID: "c", TPPKIT_CLIENT_SECRET: "s" }

  it("an invalid TPPKIT_* variable: the variable, its value, the form it needs and an example, on one line", {
    timeout: 60_000
  }, async () => {
    // as processes: effect reads the environment once per process
    const timeout = await tppkit(["token"], { env: { ...unreachable, TPPKIT_REQUEST_TIMEOUT: "banana" } })
    expect(timeout.code).toBe(3)
    expect(timeout.stderr).toBe(
      'tppkit: TPPKIT_REQUEST_TIMEOUT="banana" is not valid: it needs a duration with its unit, e.g. ' +
        'TPPKIT_REQUEST_TIMEOUT="10 seconds"\n'
    )
    const depth = await tppkit(["budget"], { env: { TPPKIT_MAX_JSON_DEPTH: "deep" } })
    expect(depth.stderr.split("\n")[0]).toBe(
      'tppkit: TPPKIT_MAX_JSON_DEPTH="deep" is not valid: it needs a whole number, e.g. TPPKIT_MAX_JSON_DEPTH=32'
    )
  })

  it("a bad --psu-last-logged-time is refused as the flags are read, before the bank or a budget is asked", async () => {
    const r = await withEnv(unreachable, () => run(["standing-orders", "--psu-last-logged-time", "yesterday"]))
    expect(r.code).toBe(2) // the bank at port 9 was never called: that would be exit 6
    expect(r.stderr.split("\n")[0]).toBe(
      'tppkit: Invalid value for flag --psu-last-logged-time: "yesterday". Expected: an RFC 3339 date-time such as ' +
        "2026-11-25T09:30:00+01:00, or now"
    )
  })

  it("demo --html checks that it can write the picture before the demo runs", async () => {
    const missing = await run(["demo", "--html", join(import.meta.dirname, "no-such-folder", "cashflow.html")])
    expect(missing.code).toBe(2)
    expect(missing.stdout).toBe("") // nothing of the demo ran
    expect(missing.stderr.split("\n")[0]).toMatch(/^tppkit: cannot write the picture to ".*cashflow.html": no folder/)
    const folder = await run(["demo", "--html", import.meta.dirname])
    expect(folder.code).toBe(2)
    expect(folder.stderr.split("\n")[0]).toContain("it is a folder")
  })

  it("demo --profile cobs runs end to end against the mock bank playing COBS (issue 37)", async () => {
    const demo = await run(["demo", "--profile", "cobs", "--skip-fleet"])
    expect(demo.stderr).toBe("")
    expect(demo.code).toBe(0)
    const out = demo.stdout
    for (const heading of ["1. Tokens (the customer's", "2. Balance check", "3. Standing orders", "8. Summary"]) {
      expect(out).toContain(`\n${heading}`)
    }
    // the listing with the customer's token from the authorization-code flow, the balance check with the API key
    expect(out).toMatch(/standing orders +customerToken \+ apiKey/)
    expect(out).toMatch(/SK2411000000002612345678 {2}100\.00 EUR: APPR/)
    // every order listed with its detail read, and projected
    const listed = /(\d+) standing orders of \d+ accounts on \d+ pages?, (\d+) details read/.exec(out)
    expect(listed?.[1]).toBe(listed?.[2])
    expect(Number(listed?.[1])).toBeGreaterThan(10)
    expect(out).toMatch(/Funds check: \d+ payments due/)
    expect(out).not.toContain("access_token")
    const bad = await run(["demo", "--profile", "no-such-profile.json"])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("no-such-profile.json is neither a built-in profile")
  })
})

describe("against a mock bank: the ways out", { timeout: 60_000 }, () => {
  const mock = mockBank()
  const { dir } = tempFolder("tppkit-cli-test")

  it("a token refused with invalid_client names the settings to check", async () => {
    const bank = mock()
    const args = ["token", "--base-url", bank.baseUrl, "--client-id", bank.clientId, "--client-secret", "wrong"]
    const r = await run(args)
    expect(r.code).toBe(3)
    expect(r.stderr).toBe(
      "tppkit: token: status 401 (invalid_client); check TPPKIT_CLIENT_ID and TPPKIT_CLIENT_SECRET " +
        "(or --client-id and --client-secret)\n"
    )
  })

  it("the daily budget's refusal names every way out, the in-memory budget for a mock bank included", async () => {
    const file = join(dir, "budget.sqlite")
    const bank = mock()
    const args = ["standing-orders", "--all", "--base-url", bank.baseUrl, "--client-id", bank.clientId]
    // --max-age 0: each run asks the bank (by default a complete listing a minute old would be reused)
    const list = () => run([...args, "--client-secret", "sandbox-secret", "--budget-file", file, "--max-age", "0"])
    expect((await list()).code).toBe(0)
    expect((await list()).code).toBe(0)
    const refused = await list()
    expect(refused.code).toBe(4)
    const line = refused.stderr.split("\n")[0]!
    for (const way of [
      "--psu-last-logged-time",
      "--max-age",
      "--budget-file memory",
      "TPPKIT_BUDGET_FILE=memory",
      "start the mock bank again"
    ]) {
      expect(line).toContain(way)
    }
    expect(line).toMatch(/a count of its own\) \[Correlation-ID [0-9a-f-]+\]$/)
    // in memory, nothing of the earlier runs counts: the call goes out, and the mock bank's own daily limit (spent
    // by the runs above) answers: a spent budget too (exit 4, issue 40), with the ways out (it was exit 6, a raw 429)
    const memory = await run([...args, "--client-secret", "sandbox-secret", "--budget-file", "memory"])
    expect(memory.code, memory.stderr).toBe(4)
    for (const way of ["--psu-last-logged-time", "--max-age", "start it again"]) expect(memory.stderr).toContain(way)
    expect(memory.stderr).not.toContain("--budget-file memory (TPPKIT_BUDGET_FILE=memory)")
  })
})

describe("tppkit reconcile in-process", () => {
  const asOf = "2026-03-10"
  const reconcile = (text: string, ...flags: Array<string>) =>
    run(["reconcile", "--orders", "-", "--as-of", asOf, ...flags], {
      stdin: text
    })

  it("a bank with tppkit's rule: every date matches, exit 0", async () => {
    const r = await reconcile(listing(monthly, BankRule.defaultRule, asOf))
    expect(r.stderr).toBe("")
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^matched +31$/m)
    expect(r.stdout).toMatch(/^anomalies +0$/m)
  })

  it("a bank paying preceding on weekends: explained by one rule, inferred, exit 0", async () => {
    const rule = BankRule.make({ convention: "preceding", calendar: Calendar.weekends })
    // 1 August 2026 is a Saturday: preceding pays on 31 July, modified-preceding on 3 August
    const julyEnd = "2026-07-25"
    const r = await run(["reconcile", "--orders", "-", "--as-of", julyEnd, "--format", "json"], {
      stdin: listing(monthly, rule, julyEnd)
    })
    expect(r.code).toBe(0)
    const json = JSON.parse(r.stdout)
    expect(json.counts.anomaly).toBe(0)
    expect(json.counts.explained).toBeGreaterThan(0)
    expect(json.findings).toBe(false)
    expect(json.differences.every((d: { status: string }) => d.status === "explained")).toBe(true)
    // the dates of 31 monthly orders separate the conventions, not the calendars of the candidates
    expect(json.inference.status).toBe("notEnoughEvidence")
    expect(json.inference.tied.map((t: { text: string }) => t.text)).toContain("preceding · weekends")
    expect(new Set(json.inference.tied.map((t: { convention: string }) => t.convention))).toEqual(
      new Set(["preceding"])
    )
  })

  it("an anomaly and an unexplained date: listed with the engine's and the bank's date, exit 8, nothing on stderr", async () => {
    const orders = [
      ...monthly.slice(0, 5),
      { orderId: "ODD", frequency: "MNTH" as const, startDate: "2025-01-15", nextDate: "2026-03-25" },
      { orderId: "SKIP", frequency: "MNTH" as const, startDate: "2025-01-16", nextDate: "2026-05-18" }
    ]
    const r = await reconcile(listing(orders, BankRule.defaultRule, asOf))
    expect(r.code).toBe(8)
    expect(r.stderr).toBe("")
    expect(r.stdout).toMatch(/^ODD +MNTH +anomaly +2026-03-16 +2026-03-25 +-$/m)
    expect(r.stdout).toMatch(/^SKIP +MNTH +unexplained +2026-03-16 +2026-05-18 +-$/m)
  })

  it("--calendar every-day and --convention set the rule in use; a bad --as-of is a usage error", async () => {
    const every = BankRule.make({ calendar: BankRule.everyDay })
    const r = await reconcile(listing(monthly, every, asOf), "--calendar", "every-day", "--format", "json")
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).counts.match).toBe(31)
    const bad = await run(["reconcile", "--orders", "-", "--as-of", "2026-02-30"], { stdin: "[]" })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/^tppkit: --as-of "2026-02-30"/)
  })
})

describe("start-up", () => {
  it("project's --format choices are the renderers' names, the default first", () => {
    expect(ProjectCommand.formats).toEqual(ProjectionFormats.projectionFormats)
  })

  it("the command tree (what --help and every start load) loads no command's work", { timeout: 60_000 }, () => {
    // a resolve hook records every module the command tree loads, from the sources, in a fresh Node
    const script = [
      'const { registerHooks } = await import("node:module")',
      "const seen = []",
      "registerHooks({ resolve: (s, c, next) => { const r = next(s, c); seen.push(r.url); return r } })",
      `await import(${JSON.stringify(join(root, "packages", "cli", "src", "Cli.ts"))})`,
      "process.stdout.write(JSON.stringify(seen))"
    ].join("\n")
    const seen = JSON.parse(
      execFileSync(process.execPath, ["--conditions=@tppkit/source", "--input-type=module", "-e", script], {
        cwd: root,
        encoding: "utf8"
      })
    ) as Array<string>
    const loaded = seen.filter((url) => url.includes("/packages/")).map((url) => url.slice(url.indexOf("/packages/")))
    expect(loaded).toContain("/packages/cli/src/Cli.ts")
    const heavy = [
      "/packages/schedule/src/index.ts",
      "/packages/schedule/src/Holidays.ts",
      "/packages/cli/src/Project.ts",
      "/packages/cli/src/Reconcile.ts",
      "/packages/cli/src/Explain.ts",
      "/packages/cli/src/ForecastReport.ts",
      "/packages/cli/src/ForecastTable.ts",
      "/packages/cli/src/ForecastJson.ts",
      "/packages/cli/src/ForecastCsv.ts",
      "/packages/cli/src/ForecastHtml.ts",
      "/packages/cli/src/Render.ts",
      "/packages/cli/src/ProjectionFormats.ts",
      "/packages/cli/src/OrderTables.ts",
      "/packages/cli/src/internal/bank.ts"
    ]
    expect(loaded.filter((path) => heavy.includes(path) || /\/packages\/(sandbox|worker)\//.test(path))).toEqual([])
  })
})
