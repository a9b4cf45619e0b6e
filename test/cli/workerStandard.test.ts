/**
 * `tppkit worker --standard` in process against the mock bank on loopback and a fleet database (issue 40): the
 * standard is part of the fleet's plan settings, so a second worker given another one is refused before it joins
 * (exit 3, the difference named), and a worker given one reads its bank's records in it.
 */
import { LocalDate } from "@tppkit/core"
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { PlanSettings } from "@tppkit/worker"
import * as Database from "@tppkit/worker/Database"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tppkit, workerOnce } from "../e2e/harness.ts"
import { embeddedDb } from "../worker/pg.ts"
import { run } from "./inProcess.ts"

const db = embeddedDb()

describe("tppkit worker --standard (issue 40)", { timeout: 120_000 }, () => {
  let scope: Scope.Closeable
  let bank: Sandbox.SandboxInfo["Service"]
  beforeAll(async () => {
    scope = await Effect.runPromise(Scope.make())
    const context = await Effect.runPromise(
      Layer.buildWithScope(Sandbox.layer({ listingDay: Fixtures.baseDate }), scope)
    )
    bank = Context.get(context, Sandbox.SandboxInfo)
  })
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

  it("reads the bank's records in the standard given; a second worker with another standard is refused", async () => {
    const day = LocalDate.format(Fixtures.baseDate)
    const secret = Redacted.value(bank.clientSecret)
    const worker = (url: string, ...more: Array<string>) =>
      run(workerOnce(url, bank, day, "--client-secret", secret, ...more))
    /** The run's summary, the last line of stdout. */
    const summary = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}")
    const fleet = async () => Redacted.value(await Effect.runPromise(db.freshUrl()))

    // the profile's own standard: the seed bank's records read, its due payments checked
    const own = await fleet()
    const seed = await worker(own)
    expect(seed.code, seed.stderr).toBe(0)
    const checked = summary(seed.stdout).checks
    expect(checked).toBeGreaterThan(0)
    // naming the profile's own standard is the same plan: this worker joins the fleet
    const same = await worker(own, "--standard", "sbas")
    expect(same.code, same.stderr).toBe(0)

    // the seed bank's records read as COBS: none is one, nothing is checked, and every record is said unread (issue
    // 34): in the summary, worker status, and exit 7 (data) once the sweep is done (the line: test/worker/Lifecycle)
    const other = await fleet()
    const cobs = await worker(other, "--standard", "cobs")
    expect(cobs.code, cobs.stderr).toBe(7)
    const said = summary(cobs.stdout)
    expect([said.sweep, said.checks]).toEqual(["complete", 0])
    expect(said.unread).toHaveLength(1)
    expect(said.unread[0].consent).toBe(bank.clientId)
    expect(said.unread[0].count).toBeGreaterThan(100)
    expect(said.unread[0].first[0].position).toMatch(/^record 1 \(/)
    expect(said.unread[0].first[0].reason).toMatch(/^not read as cobs: /)
    expect(cobs.stderr).toContain(
      `${said.unread[0].count} record(s) of the listing could not be read as standing orders and were not planned`
    )
    // none of the listing's records could be read: said so, never "the others were planned" (issue 34)
    expect(said.unread[0].nothingRead).toBe(true)
    expect(cobs.stderr).toContain("no other record could be read, nothing was planned from the listing")
    expect(cobs.stderr).not.toContain("the others were planned")
    const status = await run(["worker", "status", "--database-url", other])
    expect(status.code, status.stderr).toBe(0)
    expect(status.stdout.replaceAll(/\n +/g, " ")).toContain(
      `${day} ${bank.clientId}: ${said.unread[0].count} record(s) of the listing could not be read, not planned: record 1 (`
    )
    // a second worker reading the same bank in another standard, or in the profile's, is refused before it joins
    const iso = await worker(other, "--standard", "iso20022")
    expect(iso.code, iso.stderr).toBe(3)
    expect(iso.stderr).toContain("--standard iso20022 here, cobs in the fleet")
    const none = await worker(other)
    expect(none.code, none.stderr).toBe(3)
    expect(none.stderr).toContain("--standard the profile's here, cobs in the fleet")
  })

  it("the bank profile is part of the plan: a second worker reading the bank with another --profile is refused (issue 43)", async () => {
    const day = LocalDate.format(Fixtures.baseDate)
    // a mock bank of its own: the first test spent the shared one's daily listings
    const bank = Context.get(
      await Effect.runPromise(Layer.buildWithScope(Sandbox.layer({ listingDay: Fixtures.baseDate }), scope)),
      Sandbox.SandboxInfo
    )
    const secret = Redacted.value(bank.clientSecret)
    const url = Redacted.value(await Effect.runPromise(db.freshUrl()))
    const first = await run(workerOnce(url, bank, day, "--client-secret", secret))
    expect(first.code, first.stderr).toBe(0)
    // before, nothing of the plan named the profile: this worker joined and read the same bank as COBS
    // (a process: the profile's API key and TPP name come from the environment)
    const cobs = await tppkit(workerOnce(url, bank, day, "--client-secret", secret, "--profile", "cobs"), {
      env: { TPPKIT_API_KEY: "an-api-key", TPPKIT_TPP_NAME: "My Budget App s.r.o." }
    })
    expect(cobs.code, cobs.stderr).toBe(3)
    expect(cobs.stderr).toContain("--profile cobs here, sbas in the fleet")
  })

  it("worker status names a stored balance it cannot read, with its account and value (issue 34)", async () => {
    const url = await Effect.runPromise(db.freshUrl())
    const iban = "SK3112000000198742637541"
    // a balance as an older version or a hand edit left it: not a decimal number
    await Effect.runPromise(
      PlanSettings.claim({
        daysBefore: 2,
        calendar: "target",
        hour: 8,
        timeZone: "Europe/Bratislava",
        balances: [{ iban, currency: "EUR", amount: "12,50", date: "2026-11-01" }]
      }).pipe(Effect.provide(Database.layer(url, { maxConnections: 1 })))
    )
    const status = await run(["worker", "status", "--database-url", Redacted.value(url)])
    expect(status.code, status.stderr).toBe(0)
    // before, the balance was left out of the forecast without a word
    expect(status.stderr).toMatch(
      new RegExp(
        `^tppkit: warning: the fleet's stored balances, record 1 \\(${iban}\\): .*12,50.*; the account is not forecast$`,
        "m"
      )
    )
  })
})
