import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Sandbox } from "@tppkit/sandbox"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tppkit } from "./harness.ts"

const CLIENT_SECRET = "sandbox-secret"
let scope: Scope.Closeable
let info: Sandbox.SandboxInfo["Service"]
let env: Record<string, string>

beforeAll(async () => {
  scope = await Effect.runPromise(Scope.make())
  const context = await Effect.runPromise(Layer.buildWithScope(Sandbox.layer(), scope))
  info = Context.get(context, Sandbox.SandboxInfo)
  env = { TPPKIT_BASE_URL: info.baseUrl, TPPKIT_CLIENT_ID: info.clientId, TPPKIT_CLIENT_SECRET: CLIENT_SECRET }
})

afterAll(async () => {
  if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
})

const closedPort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

const oneLineError = (stderr: string) => {
  const lines = stderr.trimEnd().split("\n")
  expect(lines[0]).toMatch(/^tppkit: /)
  expect(stderr).not.toMatch(/\n\s+at /)
  return lines[0]!
}

const EUR_BRANCH = "SK2411000000002612345678"
const EUR_NO_CONSENT = "SK1709000000005012348888"

describe("tppkit token", { timeout: 90_000 }, () => {
  it("shows type, scopes and expiry but not the token", async () => {
    const run = await tppkit(["token", "--scope", "PIISP AISP"], { env })
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/Token type\s+Bearer/)
    expect(run.stdout).toMatch(/Scopes\s+PIISP AISP/)
    expect(run.stdout).toMatch(/Expires in\s+1200 s \(at \d{4}-\d{2}-\d{2}T/)
    expect(run.stdout).toContain("hidden")
    expect(run.stdout).not.toContain(CLIENT_SECRET)
  })

  it("prints only the token with --show-token, and JSON with --format json", async () => {
    const shown = await tppkit(["token", "--show-token"], { env })
    expect(shown.code).toBe(0)
    expect(shown.stdout.trim()).toMatch(/^\S{8,}$/)
    const json = await tppkit(["token", "--format", "json", "--base-url", info.baseUrl], { env })
    expect(json.code).toBe(0)
    const parsed = JSON.parse(json.stdout)
    expect(parsed).toMatchObject({ tokenType: "Bearer", scopes: ["PIISP"], expiresIn: 1200, environment: "sandbox" })
    expect(parsed.accessToken).toBeUndefined()
  })

  it("a wrong secret: one line with the status, the secret never printed, exit 3 (credentials)", async () => {
    const run = await tppkit(["token", "--verbose"], { env: { ...env, TPPKIT_CLIENT_SECRET: "wrong-secret-xyz" } })
    expect(run.code).toBe(3)
    expect(run.stderr.split("\n")[0]).toMatch(/^tppkit: token: status 401/)
    expect(run.stderr + run.stdout).not.toContain("wrong-secret-xyz")
  })
})

describe("tppkit token, unreachable", { timeout: 90_000 }, () => {
  it("a closed port: one line naming the address and the refusal, exit 6 (unavailable)", async () => {
    const port = await closedPort()
    const run = await tppkit(["token"], { env: { ...env, TPPKIT_BASE_URL: `http://127.0.0.1:${port}` } })
    expect(run.code).toBe(6)
    expect(oneLineError(run.stderr)).toMatch(
      new RegExp(
        `^tppkit: token request POST /identity-server-test/connect/token: cannot connect to http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\) \\(3 attempts\\) \\[Request-ID [0-9a-f-]{36}\\]$`
      )
    )
  })
})

describe("tppkit balance-check", { timeout: 90_000 }, () => {
  it("answers APPR for an account with funds", async () => {
    const run = await tppkit(["balance-check", "--iban", EUR_BRANCH, "--amount", "100", "--currency", "EUR"], { env })
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/Answer\s+APPR/)
    expect(run.stdout).toMatch(/Request-ID\s+[0-9a-f-]{36}/)
  })

  it("answers DECL (exit 0) when the amount is not available, as JSON", async () => {
    const run = await tppkit(
      ["balance-check", "--iban", EUR_BRANCH, "--amount", "99999999.99", "--currency", "EUR", "--format", "json"],
      { env }
    )
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ response: "DECL", amount: "99999999.99", currency: "EUR" })
  })

  it("prints the amount with its currency's minor unit digits; one beyond them whole, with a warning (issue 40)", async () => {
    const bhd = await tppkit(
      ["balance-check", "--iban", EUR_BRANCH, "--amount", "100", "--currency", "BHD", "--format", "json"],
      { env }
    )
    expect(bhd.stderr).toBe("")
    expect(JSON.parse(bhd.stdout)).toMatchObject({ amount: "100.000", currency: "BHD" })
    const yen = await tppkit(["balance-check", "--iban", EUR_BRANCH, "--amount", "100.5", "--currency", "JPY"], { env })
    expect(yen.code).toBe(0)
    expect(yen.stdout).toMatch(/^Amount {7}100\.5 JPY$/m)
    expect(yen.stderr).toBe(
      "tppkit: warning: amount 100.5 JPY has more decimals than JPY's minor unit (0, ISO 4217): printed whole, not rounded\n"
    )
  })

  it("a refused check: one line with operation, status and Request-ID, exit 5 (refused)", async () => {
    const run = await tppkit(["balance-check", "--iban", EUR_NO_CONSENT, "--amount", "1", "--currency", "EUR"], {
      env
    })
    expect(run.code).toBe(5)
    const line = oneLineError(run.stderr)
    expect(line).toMatch(/^tppkit: balance check POST \/piisp-test\/api\/v1\/accounts\/balanceCheck: 403/)
    expect(line).toMatch(/Request-ID [0-9a-f-]{36}/)
  })

  it("bad input is refused before any request, exit 2", async () => {
    const iban = await tppkit(["balance-check", "--iban", "SK0000", "--amount", "1", "--currency", "EUR"], { env })
    expect(iban.code).toBe(2)
    expect(oneLineError(iban.stderr)).toContain("--iban")
    const currency = await tppkit(["balance-check", "--iban", EUR_BRANCH, "--amount", "1", "--currency", "eur"], {
      env
    })
    expect(currency.code).toBe(2)
    expect(oneLineError(currency.stderr)).toContain("--currency")
    const amount = await tppkit(["balance-check", "--iban", EUR_BRANCH, "--amount", "1.234", "--currency", "EUR"], {
      env
    })
    expect(amount.code).toBe(2)
    expect(oneLineError(amount.stderr)).toContain("--amount")
  })

  it("an unreachable base URL: one line naming the failure, exit 6", async () => {
    const port = await closedPort()
    const run = await tppkit(["balance-check", "--iban", EUR_BRANCH, "--amount", "1", "--currency", "EUR"], {
      env: { ...env, TPPKIT_BASE_URL: `http://127.0.0.1:${port}` }
    })
    expect(run.code).toBe(6)
    // the call's three tries each asked for a token three times: every token request sent is counted (issue 25)
    expect(oneLineError(run.stderr)).toMatch(
      new RegExp(
        `^tppkit: token request POST /identity-server-test/connect/token: cannot connect to http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\) \\(9 attempts\\) \\[Request-ID [0-9a-f-]{36}\\]$`
      )
    )
  })

  it("standing-orders with an SCA token against a closed port: the address and the request identifiers", async () => {
    const port = await closedPort()
    const run = await tppkit(["standing-orders", "--all", "--access-token", "not-a-real-token"], {
      env: { ...env, TPPKIT_BASE_URL: `http://127.0.0.1:${port}` }
    })
    expect(run.code).toBe(6)
    const line = oneLineError(run.stderr)
    expect(line).toMatch(
      new RegExp(
        `^tppkit: standing-order list POST /\\S+: cannot connect to http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`
      )
    )
    expect(line).toMatch(/\[Request-ID [0-9a-f-]{36}, Correlation-ID [0-9a-f-]{36}\]$/)
    expect(run.stderr).not.toContain("not-a-real-token")
  })

  it("LIVE over plain http is refused as a configuration error, exit 3", async () => {
    const run = await tppkit(
      ["balance-check", "--env", "live", "--iban", EUR_BRANCH, "--amount", "1", "--currency", "EUR"],
      { env }
    )
    expect(run.code).toBe(3)
    expect(oneLineError(run.stderr)).toMatch(/invalid configuration/)
  })

  it("no base URL at all: exit 3 (configuration) naming the setting", async () => {
    const run = await tppkit(["balance-check", "--iban", EUR_BRANCH, "--amount", "1", "--currency", "EUR"])
    expect(run.code).toBe(3)
    expect(oneLineError(run.stderr)).toContain("TPPKIT_BASE_URL")
  })
})

describe("tppkit standing-orders", { timeout: 90_000 }, () => {
  it("lists one page as a table", async () => {
    const run = await tppkit(["standing-orders", "--page-size", "10", "--psu-last-logged-time", "now"], { env })
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    // pages counted as people count them; the bank's own number is the flag's
    expect(run.stdout).toMatch(/^10 standing order\(s\), page 1 of \d+ \(--page 0\)/)
    expect(run.stdout).toMatch(/\d{4}-\d{2}-\d{2} (next|start) /)
    expect(run.stdout).toContain("Totals per frequency (one payment of each order)")
    for (const line of run.stdout.split("\n")) expect(line.length).toBeLessThanOrEqual(80)
  })

  it("--all --format json pipes straight into project --orders -", async () => {
    const list = await tppkit(["standing-orders", "--all", "--format", "json", "--psu-last-logged-time", "now"], {
      env
    })
    expect(list.stderr).toBe("")
    expect(list.code).toBe(0)
    const body = JSON.parse(list.stdout)
    expect(body.standingOrders.length).toBeGreaterThan(100)
    const projected = await tppkit(
      ["project", "--orders", "-", "--from", "2026-12-01", "--to", "2026-12-31", "--format", "json"],
      { stdin: list.stdout }
    )
    expect(projected.code).toBe(0)
    expect(JSON.parse(projected.stdout).payments.length).toBeGreaterThan(0)
  })

  it("filters by --iban", async () => {
    const run = await tppkit(
      ["standing-orders", "--all", "--iban", EUR_BRANCH, "--format", "json", "--psu-last-logged-time", "now"],
      { env }
    )
    expect(run.code).toBe(0)
    const orders = JSON.parse(run.stdout).standingOrders as Array<{ debtor: { iban: string } }>
    expect(orders.length).toBeGreaterThan(0)
    for (const o of orders) expect(o.debtor.iban).toBe(EUR_BRANCH)
  })

  it("uses a token piped from `tppkit token --show-token` via --access-token, without client credentials", async () => {
    const token = await tppkit(["token", "--scope", "AISP", "--show-token"], { env })
    expect(token.code).toBe(0)
    const run = await tppkit(["standing-orders", "--page-size", "10", "--psu-last-logged-time", "now"], {
      env: { TPPKIT_BASE_URL: info.baseUrl, TPPKIT_ACCESS_TOKEN: token.stdout.trim() }
    })
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.stdout).not.toContain(token.stdout.trim())
    const refused = await tppkit(
      ["standing-orders", "--psu-last-logged-time", "now", "--access-token", "not-a-token"],
      {
        env: { TPPKIT_BASE_URL: info.baseUrl }
      }
    )
    expect(refused.code).toBe(3)
    expect(oneLineError(refused.stderr)).toMatch(/standing-order list POST \/\S+: 401/)
    expect(refused.stderr).not.toContain("not-a-token")
  })

  it("a page size the bank does not accept is refused, exit 2", async () => {
    const run = await tppkit(["standing-orders", "--page-size", "15", "--psu-last-logged-time", "now"], { env })
    expect(run.code).toBe(2)
    expect(oneLineError(run.stderr)).toMatch(/pageSize/)
  })

  it("unattended listings spend the daily budget kept in a file across runs; the fifth is refused", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tppkit-budget-"))
    try {
      const budget = ["--budget-file", join(dir, "budget.sqlite")]
      for (let i = 0; i < 4; i++) {
        const ok = await tppkit(["standing-orders", "--page-size", "10", ...budget], { env })
        expect(ok.stderr).toBe("")
        expect(ok.code).toBe(0)
      }
      const fifth = await tppkit(["standing-orders", "--page-size", "10", ...budget], { env })
      expect(fifth.code).toBe(4)
      expect(oneLineError(fifth.stderr)).toMatch(/daily budget of 4/)
      const json = await tppkit(["standing-orders", "--page-size", "10", "--format", "json", ...budget], { env })
      expect(json.code).toBe(4)
      expect(JSON.parse(json.stderr).error).toMatchObject({ kind: "budget", exitCode: 4, operation: "standingOrders" })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("a budget file that cannot be opened: one line naming the path, exit 3 (configuration)", async () => {
    const file = "/nonexistent/dir/b.sqlite"
    const run = await tppkit(["standing-orders", "--page-size", "10", "--budget-file", file], { env })
    expect(run.code).toBe(3)
    expect(oneLineError(run.stderr)).toContain(file)
  })

  it("commands that spend no budget neither create nor need a budget file (HOME unwritable)", async () => {
    const home = mkdtempSync(join(tmpdir(), "tppkit-home-"))
    try {
      const noBudget = { ...env, HOME: join(home, "missing", "unwritable"), TPPKIT_BUDGET_FILE: undefined }
      const present = await tppkit(["standing-orders", "--page-size", "10", "--psu-last-logged-time", "now"], {
        env: noBudget
      })
      expect(present.stderr).toBe("")
      expect(present.code).toBe(0)
      const check = await tppkit(
        [
          "balance-check",
          "--iban",
          EUR_BRANCH,
          "--amount",
          "1.00",
          "--currency",
          "EUR",
          "--psu-last-logged-time",
          "now"
        ],
        { env: noBudget }
      )
      expect(check.stderr).toBe("")
      expect(check.code).toBe(0)
      const token = await tppkit(["token"], { env: noBudget })
      expect(token.code).toBe(0)
      expect(readdirSync(home)).toEqual([])
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })

  it("an unreachable base URL: one line, exit 6", async () => {
    const port = await closedPort()
    const run = await tppkit(["standing-orders", "--psu-last-logged-time", "now"], {
      env: { ...env, TPPKIT_BASE_URL: `http://127.0.0.1:${port}` }
    })
    expect(run.code).toBe(6)
    oneLineError(run.stderr)
  })
})

describe("tppkit sandbox", { timeout: 90_000 }, () => {
  it("is registered", async () => {
    const run = await tppkit(["sandbox", "--help"])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain("tppkit sandbox")
  })
})

describe("tppkit standing-orders with bad records (issue 19)", { timeout: 90_000 }, () => {
  const record = (orderId: string, amount: string, drop?: string) => {
    const fields: Record<string, unknown> = {
      orderId,
      debtor: { name: "Jana", iban: "SK2411000000002612345678" },
      creditor: { name: "Landlord", iban: "SK6609000000005012345678" },
      instructedAmount: { value: "@", currency: "EUR" },
      startDate: "2026-12-05",
      frequency: "MNTH"
    }
    if (drop !== undefined) delete fields[drop]
    return JSON.stringify(fields).replace('"@"', amount)
  }
  const records = [
    record("GOOD-1", "12.50"),
    record("ZERO", "0"),
    record("NEG", "-12.50"),
    record("PRECISE", "12.345"),
    record("HUGE", "12345678901234567890"),
    record("NO-FREQ", "10", "frequency"),
    `${record("BROKEN", "10").slice(0, -1)},}`,
    record("GOOD-2", "1.0000000000000000000001").replace("1.0000000000000000000001", "99.99")
  ]
  const body = `{"pageCount":1,"standingOrders":[${records.join(",")}]}`
  /** The body of each page the bank answers (by the request's `page`, from 0); the records above by default. */
  let pages: ReadonlyArray<string> = [body]
  let server: import("node:http").Server | undefined
  let bank: Record<string, string> = {}
  beforeAll(async () => {
    const http = await import("node:http")
    server = http.createServer((req, res) => {
      let request = ""
      req.setEncoding("utf8").on("data", (chunk: string) => {
        request += chunk
      })
      req.on("end", () => {
        res.setHeader("content-type", "application/json")
        if (req.url?.endsWith("/connect/token")) {
          res.end(JSON.stringify({ access_token: "tok-secret-123456", token_type: "Bearer", expires_in: 1200 }))
          return
        }
        const page = request.trim().startsWith("{") ? (JSON.parse(request).page ?? 0) : 0
        res.end(pages[page] ?? pages[pages.length - 1])
      })
    })
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve))
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    bank = { TPPKIT_BASE_URL: `http://127.0.0.1:${port}`, TPPKIT_CLIENT_ID: "c", TPPKIT_CLIENT_SECRET: "secret-abcdef" }
  })
  afterAll(() => server?.close())

  it("every --format lists every good record and reports every bad one; json carries out-of-format amounts exactly into project, which skips them", async () => {
    const table = await tppkit(["standing-orders", "--all", "--psu-last-logged-time", "now"], { env: bank })
    const json = await tppkit(["standing-orders", "--all", "--format", "json", "--psu-last-logged-time", "now"], {
      env: bank
    })
    for (const run of [table, json]) {
      // the records that could not be read make the run exit 7 (data) after the listing
      expect(run.code).toBe(7)
      expect(run.stderr).toMatch(/record 6 \(NO-FREQ\) is malformed: frequency/)
      expect(run.stderr).toMatch(/record 7 \(no orderId\) is malformed: not JSON/)
      for (const [i, id] of [
        [2, "ZERO"],
        [3, "NEG"],
        [4, "PRECISE"],
        [5, "HUGE"]
      ])
        expect(run.stderr).toContain(`record ${i} (${id}) is out of format: instructedAmount.value`)
    }
    expect(table.stdout).toMatch(/^6 standing order\(s\)/)
    for (const id of ["GOOD-1", "ZERO", "NEG", "PRECISE", "HUGE", "GOOD-2"]) expect(table.stdout).toContain(id)
    expect(json.stdout).toContain('"value": 12345678901234567890')
    expect(json.stdout).toContain('"value": 12.345')
    const ids = (JSON.parse(json.stdout).standingOrders as Array<{ orderId: string }>).map((o) => o.orderId)
    expect(ids).toEqual(["GOOD-1", "ZERO", "NEG", "PRECISE", "HUGE", "GOOD-2"])
    const projected = await tppkit(
      ["project", "--orders", "-", "--from", "2026-12-01", "--to", "2026-12-31", "--format", "csv"],
      { stdin: json.stdout }
    )
    expect(projected.code).toBe(0)
    for (const id of ["ZERO", "NEG", "PRECISE", "HUGE"])
      expect(projected.stderr).toContain(`tppkit: skipped ${id}: instructedAmount.value`)
    expect(
      projected.stdout
        .trimEnd()
        .split("\n")
        .slice(1)
        .map((l) => [0, 1, 2, 4].map((c) => l.split(",")[c]).join(","))
    ).toEqual(["GOOD-1,2026-12-05,2026-12-07,12.50", "GOOD-2,2026-12-05,2026-12-07,99.99"])
  })

  it("a repeated standingOrders key, an empty page or a page without standingOrders before the last: every record read is listed, each problem reported, exit 7", async () => {
    const page = (orders: ReadonlyArray<string>) => `{"pageCount":3,"standingOrders":[${orders.join(",")}]}`
    const good = (id: string) => record(id, "10.00")
    const cases: ReadonlyArray<{ pages: ReadonlyArray<string>; listed: ReadonlyArray<string>; problem: RegExp }> = [
      {
        pages: [`{"pageCount":1,"standingOrders":[${good("A-1")}],"standingOrders":[${good("A-2")}]}`],
        listed: ["A-1", "A-2"],
        problem: /page 0: standingOrders .*"standingOrders" is repeated/
      },
      {
        pages: [page([good("B-1")]), page([]), page([good("B-3")])],
        listed: ["B-1", "B-3"],
        problem: /page 1 has an empty standingOrders array although pageCount announces 3 pages/
      },
      {
        pages: [page([good("C-1")]), `{"pageCount":3}`, page([good("C-3")])],
        listed: ["C-1", "C-3"],
        problem: /page 1 has no standingOrders although pageCount announces 3 pages/
      }
    ]
    for (const c of cases) {
      pages = c.pages
      for (const format of ["table", "json"]) {
        const run = await tppkit(["standing-orders", "--all", "--format", format, "--psu-last-logged-time", "now"], {
          env: bank
        })
        expect(run.code).toBe(7)
        for (const id of c.listed) expect(run.stdout).toContain(id)
        expect(run.stderr).toMatch(c.problem)
        const last = run.stderr.trimEnd().split("\n").at(-1)!
        if (format === "json") expect(JSON.parse(last).error).toMatchObject({ kind: "data", exitCode: 7 })
        else expect(last).toMatch(/^tppkit: the bank's answer had 1 problem .*every good record is listed$/)
      }
    }
    pages = [body]
  })
})
