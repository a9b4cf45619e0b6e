/**
 * The fleet's answers beside a balance forecast (issue 24): a `tppkit worker --once --balances FILE` against the
 * mock bank in which one account is short of money (the bank declines its payments: a DECL injected for that
 * account), with balances that cover every payment; the balances are stored with the fleet's plan settings. Then
 * `tppkit worker status` (no flags) forecasts the checked accounts from the stored balances and the fleet's plan, in
 * the table and under `forecast` in the JSON: each DECL of that account is the most urgent finding (declined, but
 * the forecast covers its day), no other account's check is named, and the checked accounts are listed with their
 * lowest points. `--balances FILE --orders FILE` given to status forecast from the files instead; a worker with
 * other balances is refused (exit 3), a balances file with a bad record is refused before the worker joins (exit 7).
 * An orders file of mixed standards is read as every command reads one (warnings on stderr, exit 7 for an unread record);
 * a COBS list page's items count from the listing day (today without `--listed-on`, said in a warning).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { embeddedDb } from "../worker/pg.ts"
import { tppkit, workerOnce } from "./harness.ts"

const db = embeddedDb()
const day = "2026-11-25"
const bankScope = Scope.makeUnsafe()
const dir = mkdtempSync(join(tmpdir(), "tppkit-fleet-forecast-"))
afterAll(async () => {
  await Effect.runPromise(Scope.close(bankScope, Exit.void))
  rmSync(dir, { recursive: true, force: true })
})

/** The forecast section of a status table, its continuation lines joined. */
const forecastOf = (stdout: string): string => {
  const at = stdout.indexOf("Forecast of the checked accounts")
  return at < 0 ? "" : stdout.slice(at).replace(/\n {4}/g, " ")
}

describe("the fleet's answers beside a balance forecast", { timeout: 240_000 }, () => {
  it("worker --once --balances, then worker status: a DECL for a payment the forecast covers is flagged as urgent", async () => {
    const generated = Fixtures.generate(60)
    const short = generated.consents[0]!.iban
    // the bank: every account rich except one, which cannot cover any payment (its checks are declined)
    const fixtures: Fixtures.Fixtures = {
      ...generated.fixtures,
      accounts: generated.fixtures.accounts.map((a) => ({
        ...a,
        balance: a.iban === short ? "0.01" : "1000000.00"
      }))
    }
    const bank = await Effect.runPromise(
      Layer.buildWithScope(Sandbox.layer({ fixtures, listingDay: Fixtures.baseDate }), bankScope)
    )
    const info = Context.get(bank, Sandbox.SandboxInfo)
    const env = {
      TPPKIT_CLIENT_SECRET: Redacted.value(info.clientSecret),
      TPPKIT_CONSENTS: generated.consents.map((c) => `${c.key}=${c.iban}`).join(","),
      TPPKIT_WORKER_POLL_MS: "250"
    }
    const url = Redacted.value(await Effect.runPromise(db.freshUrl()))

    // what the user believes: every account holds 100,000.00 from the first of the month; the orders the fleet checks
    const records = generated.consents.map((c) => ({
      iban: c.iban,
      currency: "EUR",
      amount: "100000.00",
      date: "2026-11-01"
    }))
    const balances = join(dir, "balances.json")
    writeFileSync(balances, JSON.stringify(records))
    const orders = join(dir, "orders.json")
    writeFileSync(orders, JSON.stringify({ standingOrders: generated.fixtures.standingOrders }))

    // a balances file with a record that cannot be read: refused before the worker joins, nothing stored
    const bad = join(dir, "bad-balances.json")
    writeFileSync(
      bad,
      JSON.stringify([...records, { iban: "not an IBAN", currency: "EUR", amount: "1", date: "2026-11-01" }])
    )
    const refusedFile = await tppkit(workerOnce(url, info, day, "--balances", bad), { env, timeoutMs: 60_000 })
    assert.strictEqual(refusedFile.code, 7, refusedFile.stderr)
    assert.match(
      refusedFile.stderr,
      new RegExp(
        `--balances \\S+bad-balances\\.json: 1 record could not be read \\(record ${records.length + 1}: iban: .*none was stored`
      )
    )
    const notJson = join(dir, "not-balances.json")
    writeFileSync(notJson, "{}")
    const refusedText = await tppkit(workerOnce(url, info, day, "--balances", notJson), { env, timeoutMs: 60_000 })
    assert.strictEqual(refusedText.code, 2, refusedText.stderr)
    assert.include(refusedText.stderr, 'expected a JSON array of records or an object with "balances"')

    const worker = await tppkit(workerOnce(url, info, day, "--balances", balances), { env, timeoutMs: 150_000 })
    assert.strictEqual(worker.code, 0, worker.stderr)

    // worker status with no flags: the forecast from the stored balances and the fleet's plan
    const plain = await tppkit(["worker", "status", "--database-url", url])
    assert.strictEqual(plain.code, 0, plain.stderr)
    const checksPart = plain.stdout.slice(0, plain.stdout.indexOf("Forecast of the checked accounts"))
    const declined = checksPart.split("\n").filter((l) => l.includes(short) && / DECL /.test(l)).length
    assert.isAbove(declined, 0, "the short account's checks are declined")
    const stored = forecastOf(plain.stdout)
    assert.match(
      stored,
      /^Forecast of the checked accounts \d{4}-\d\d-\d\d\.\.\d{4}-\d\d-\d\d \(the fleet's stored balances, the fleet's plan\): \d+ accounts?, \d+ checks? contradict it/
    )
    assert.include(stored, "  payments: those the fleet checks;")
    const urgentStored = stored
      .split("\n")
      .filter((l) => l.includes("URGENT: declined, but the forecast covers its day"))
    assert.strictEqual(urgentStored.length, declined)
    for (const l of urgentStored) assert.include(l, `from ${short}:`)
    assert.match(
      stored,
      new RegExp(`^ {2}${short} EUR: stays above zero; lowest [\\d.]+ on \\d{4}-\\d\\d-\\d\\d$`, "m")
    )

    // the same under `forecast` in the JSON (the documented keys: checks, budget, forecast)
    const asJson = await tppkit(["worker", "status", "--database-url", url, "--format", "json"])
    assert.strictEqual(asJson.code, 0, asJson.stderr)
    const document = JSON.parse(asJson.stdout) as {
      checks: Array<{ outcome: string; debtorIban: string }>
      warnings: { staleBalances: Array<{ date: string; ageDays: number }> }
      forecast: {
        balances: string
        orders: string
        from: string
        to: string
        accounts: Array<{ iban: string; lowest: { amount: string; date: string }; riskDays: Array<unknown> }>
        findings: Array<{ finding: string; debtorIban: string; answer: string; covered: boolean }>
      }
    }
    // the stored balances of 2026-11-01 are 24 days old on the day swept: flagged (issue 39, --balance-max-age 3)
    assert.deepStrictEqual(Object.keys(document), [
      "checks",
      "budget",
      "fleet",
      "webhookEndpoints",
      "warnings",
      "forecast"
    ])
    assert.deepStrictEqual(
      document.warnings.staleBalances.map((b) => [b.date, b.ageDays]),
      records.map(() => ["2026-11-01", 24])
    )
    const forecast = document.forecast
    assert.deepStrictEqual(Object.keys(forecast), ["balances", "orders", "from", "to", "accounts", "findings"])
    assert.strictEqual(forecast.balances, "stored")
    assert.strictEqual(forecast.orders, "plan")
    assert.match(forecast.from, /^\d{4}-\d\d-\d\d$/)
    const decl = document.checks.filter((c) => c.outcome === "DECL")
    assert.strictEqual(decl.length, declined)
    assert.isTrue(decl.every((c) => c.debtorIban === short))
    assert.strictEqual(forecast.findings.length, declined)
    for (const f of forecast.findings) {
      assert.deepStrictEqual(
        [f.finding, f.debtorIban, f.answer, f.covered],
        ["DeclinedButCovered", short, "DECL", true]
      )
    }
    const account = forecast.accounts.find((a) => a.iban === short)
    assert.isDefined(account)
    assert.deepStrictEqual(account?.riskDays, [])
    assert.match(account?.lowest.amount ?? "", /^\d+(\.\d+)?$/)

    // files given to status win: the balances file and the orders file
    const status = await tppkit(["worker", "status", "--database-url", url, "--balances", balances, "--orders", orders])
    assert.strictEqual(status.code, 0, status.stderr)
    const out = forecastOf(status.stdout)
    assert.match(
      out,
      /^Forecast of the checked accounts \d{4}-\d\d-\d\d\.\.\d{4}-\d\d-\d\d \(balances file, orders file\): \d+ accounts?, \d+ checks? contradict it/
    )
    const urgent = out.split("\n").filter((l) => l.includes("URGENT: declined, but the forecast covers its day"))
    assert.strictEqual(urgent.length, declined)
    for (const l of urgent) assert.include(l, `from ${short}:`)
    assert.match(
      urgent[0]!,
      /^ {2}DECL \S+ \d+\.\d{2} EUR from \S+: URGENT: .* \(forecast [\d.]+ on \d{4}-\d\d-\d\d, [\d.]+ on \d{4}-\d\d-\d\d\)$/
    )
    assert.match(out, new RegExp(`^ {2}${short} EUR: stays above zero; lowest [\\d.]+ on \\d{4}-\\d\\d-\\d\\d$`, "m"))
    const ordersOnly = await tppkit(["worker", "status", "--database-url", url, "--orders", orders])
    assert.strictEqual(ordersOnly.code, 0, ordersOnly.stderr)
    assert.include(forecastOf(ordersOnly.stdout), "(the fleet's stored balances, orders file)")

    // an orders file of mixed standards (issue 23): read as every command reads one — each record's warnings on
    // stderr, the forecast printed, then exit 7 for the record no standard can say (ISO 20022 INDA); --standard forces
    const mixed = join(import.meta.dirname, "..", "cli", "golden", "inputs", "mixed-orders.json")
    const mixedRun = await tppkit(["worker", "status", "--database-url", url, "--orders", mixed])
    assert.strictEqual(mixedRun.code, 7, mixedRun.stderr)
    assert.include(mixedRun.stdout, "Forecast of the checked accounts")
    assert.include(mixedRun.stderr, 'tppkit: warning SO-U3: uk-v3: tolerated: Frequency "IntrvWkDay:2:5"')
    assert.include(mixedRun.stderr, 'tppkit: warning SO-BG: berlin-group: tolerated: dayOfExecution "01"')
    assert.include(mixedRun.stderr, "tppkit: skipped SO-X: iso20022: INDA")
    const forced = await tppkit(["worker", "status", "--database-url", url, "--orders", mixed, "--standard", "uk-v3"])
    assert.strictEqual(forced.code, 7, forced.stderr)
    // equal reasons are one line with a count and the records' positions (issue 34)
    assert.match(
      forced.stderr,
      /^tppkit: skipped 7 orders \(SO-S, SO-R, SO-BG, …; records 1, 2, 4, 5, 6, 7 and 8\): uk-v3: the record has no Frequency string$/m
    )
    // a COBS list page (its items name no start): read, counting from today in the bank's time zone, said (issue 36)
    const cobsPage = join(import.meta.dirname, "..", "..", "examples", "records", "cobs-page.json")
    const listed = await tppkit(["worker", "status", "--database-url", url, "--orders", cobsPage])
    assert.strictEqual(listed.code, 0, listed.stderr)
    assert.include(listed.stdout, "(the fleet's stored balances, orders file)")
    assert.match(
      listed.stderr,
      /tppkit: warning: 1 COBS list item names no start and counts from the listing day: today, \d{4}-\d\d-\d\d in Europe\/Prague \(give the day the list was read with --listed-on YYYY-MM-DD\)/
    )

    // one set of balances per fleet: a worker with others is refused, naming the difference
    const richer = join(dir, "richer.json")
    writeFileSync(richer, JSON.stringify(records.map((r) => ({ ...r, date: "2026-11-20" }))))
    const other = await tppkit(workerOnce(url, info, day, "--balances", richer), { env, timeoutMs: 60_000 })
    assert.strictEqual(other.code, 3, other.stderr)
    const accounts = `${records.length} ${records.length === 1 ? "account" : "accounts"}`
    assert.include(
      other.stderr,
      `--balances ${accounts} as of 2026-11-20 here, ${accounts} as of 2026-11-01 in the fleet`
    )
  })
})
