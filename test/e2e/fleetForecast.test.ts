/**
 * The fleet's answers beside a balance forecast (issue 24): a `tppkit worker --once` against the mock bank in which
 * one account is short of money (the bank declines its payments: a DECL injected for that account), then `tppkit
 * worker status --balances FILE --orders FILE` with balances that cover every payment. The forecast flags each DECL
 * of that account as the most urgent finding (declined, but the forecast covers its day), names no other account's
 * check, and lists the checked accounts with their headlines.
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

describe("the fleet's answers beside a balance forecast", { timeout: 180_000 }, () => {
  it("worker status --balances --orders: a DECL for a payment the forecast covers is flagged as urgent", async () => {
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
    const worker = await tppkit(workerOnce(url, info, day), { env, timeoutMs: 150_000 })
    assert.strictEqual(worker.code, 0, worker.stderr)

    // what the user believes: every account holds 100,000.00 from the first of the month; the orders the fleet checks
    const balances = join(dir, "balances.json")
    writeFileSync(
      balances,
      JSON.stringify(
        generated.consents.map((c) => ({ iban: c.iban, currency: "EUR", amount: "100000.00", date: "2026-11-01" }))
      )
    )
    const orders = join(dir, "orders.json")
    writeFileSync(orders, JSON.stringify({ standingOrders: generated.fixtures.standingOrders }))

    const plain = await tppkit(["worker", "status", "--database-url", url])
    assert.strictEqual(plain.code, 0, plain.stderr)
    assert.notInclude(plain.stdout, "Forecast of the checked accounts")
    const declined = plain.stdout.split("\n").filter((l) => l.includes(short) && / DECL /.test(l)).length
    assert.isAbove(declined, 0, "the short account's checks are declined")

    const status = await tppkit(["worker", "status", "--database-url", url, "--balances", balances, "--orders", orders])
    assert.strictEqual(status.code, 0, status.stderr)
    const out = status.stdout.replace(/\n {4}/g, " ")
    assert.match(
      out,
      /Forecast of the checked accounts \d{4}-\d\d-\d\d\.\.\d{4}-\d\d-\d\d \(balances file\): \d+ accounts?, \d+ checks? contradict it/
    )
    const urgent = out.split("\n").filter((l) => l.includes("URGENT: declined, but the forecast covers its day"))
    assert.strictEqual(urgent.length, declined)
    for (const l of urgent) assert.include(l, `from ${short}:`)
    assert.match(
      urgent[0]!,
      /^ {2}DECL \S+ \d+\.\d{2} EUR from \S+: URGENT: .* \(forecast [\d.]+ on \d{4}-\d\d-\d\d, [\d.]+ on \d{4}-\d\d-\d\d\)$/
    )
    assert.match(out, new RegExp(`^ {2}${short} EUR: stays above zero; lowest [\\d.]+ on \\d{4}-\\d\\d-\\d\\d$`, "m"))

    const half = await tppkit(["worker", "status", "--database-url", url, "--balances", balances])
    assert.strictEqual(half.code, 2)
    assert.include(half.stderr, "--balances and --orders go together")
  })
})
