/**
 * `tppkit standing-orders --reconcile` (internal/bank.ts) in process against the mock bank on loopback: a record the
 * bank lists whole that pays nothing (no `startDate`, no `nextDate`: no anchor) is not reconciled and not lost — the
 * report names it with its page, record and reason in the table and the JSON, as the plain listing does, read in the
 * profile's standard or in `--standard`, and the exit code stays as the reconciled orders make it (cli README, "Exit
 * codes": a record that pays nothing is no finding and no data error); the listing piped into `tppkit reconcile` says
 * it the same way.
 */
import { LocalDate } from "@tppkit/core"
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Bank from "../../packages/cli/src/internal/bank.ts"
import { run } from "./inProcess.ts"

const reason = "the order has neither startDate nor nextDate to anchor its schedule"

describe("standing-orders --reconcile names a listed record that pays nothing", { timeout: 60_000 }, () => {
  let scope: Scope.Closeable
  let bank: { readonly baseUrl: string; readonly clientId: string }
  const order = (orderId: string, startDate?: string): Fixtures.StandingOrder => ({
    orderId,
    frequency: "MNTH",
    ...(startDate === undefined ? {} : { startDate }),
    instructedAmount: { value: 25, currency: "EUR" },
    debtor: { name: "Jana", iban: Fixtures.ibans.eurBranch },
    creditor: { name: "Landlord", iban: "SK6609000000005012345678" }
  })
  beforeAll(async () => {
    scope = await Effect.runPromise(Scope.make())
    // the anchorless record between two good ones, the eleventh of twelve (the first of page 1 in pages of 10)
    const good = Array.from({ length: 10 }, (_, i) => order(`SO-${String(i + 1).padStart(2, "0")}`, "2026-03-02"))
    const fixtures: Fixtures.Fixtures = {
      clients: Fixtures.defaults.clients,
      accounts: Fixtures.defaults.accounts,
      standingOrders: [...good, order("NOANCHOR"), order("SO-11", "2026-04-15")]
    }
    // the bank lists each good one's nextDate by tppkit's rule as of its listing day
    const listingDay = Fixtures.baseDate
    const context = await Effect.runPromise(Layer.buildWithScope(Sandbox.layer({ fixtures, listingDay }), scope))
    bank = Context.get(context, Sandbox.SandboxInfo)
  })
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))
  const listing = (...flags: Array<string>) =>
    run([
      "standing-orders",
      "--all",
      ...["--base-url", bank.baseUrl, "--client-id", bank.clientId, "--client-secret", "sandbox-secret"],
      // the customer present: the mock bank's daily limit of unattended listings (4) would stop the fifth
      ...["--psu-last-logged-time", new Date().toISOString(), "--budget-file", "memory", ...flags]
    ])
  const reconcile = (...flags: Array<string>) =>
    listing("--reconcile", "--as-of", LocalDate.format(Fixtures.baseDate), ...flags)

  it("the table counts it skipped and names it as the listing does; the two good ones are reconciled; exit 0", async () => {
    const listed = await listing()
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout.replace(/\s+/g, " ")).toContain(`NOANCHOR (page 0, record 11): ${reason}`)
    const r = await reconcile()
    expect(r.code, r.stderr).toBe(0)
    // the twelve listed: eleven reconciled, the one that pays nothing skipped
    expect(r.stdout).toMatch(/^Reconciliation on 2026-11-01 of 12 listed orders against following · target$/m)
    expect(r.stdout).toMatch(/^matched +11$/m)
    expect(r.stdout).toMatch(/^without nextDate +0$/m)
    expect(r.stdout).toMatch(/^skipped +1$/m)
    expect(r.stdout).toContain(`skipped NOANCHOR (page 0, record 11): ${reason}`)
    expect(r.stderr).toBe(`tppkit: page 0, record 11 (NOANCHOR) is skipped: ${reason}\n`)
  })

  it("the JSON lists it under skipped with its page and record; --standard sbas says the same", async () => {
    const r = await reconcile("--format", "json")
    expect(r.code, r.stderr).toBe(0)
    const json = JSON.parse(r.stdout)
    expect(json.counts).toMatchObject({ match: 11, withoutNextDate: 0, skipped: 1 })
    expect(json.findings).toBe(false)
    expect(json.skipped).toEqual([{ orderId: "NOANCHOR", page: 0, position: 11, reason }])
    // read by core's Orders in the profile's standard: the record is said, not dropped (it was, before)
    const sbas = await reconcile("--format", "json", "--standard", "sbas")
    expect([sbas.code, sbas.stdout, sbas.stderr]).toEqual([r.code, r.stdout, r.stderr])
    const table = await reconcile("--standard", "sbas")
    expect([table.code, table.stdout]).toEqual([0, (await reconcile()).stdout])
  })

  it("the listing piped into tppkit reconcile names it the same way, counted skipped, by its position in the file", async () => {
    const listed = await listing("--format", "json")
    const piped = await run(["reconcile", "--orders", "-", "--as-of", "2026-11-01", "--format", "json"], {
      stdin: listed.stdout
    })
    expect(piped.code, piped.stderr).toBe(0)
    const json = JSON.parse(piped.stdout)
    expect(json.counts).toMatchObject({ match: 11, withoutNextDate: 0, skipped: 1 })
    expect(json.skipped).toEqual([{ orderId: "NOANCHOR", position: 11, reason }])
    const live = JSON.parse((await reconcile("--format", "json")).stdout)
    expect(json.counts).toEqual(live.counts)
    const table = await run(["reconcile", "--orders", "-", "--as-of", "2026-11-01"], { stdin: listed.stdout })
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain(`skipped NOANCHOR: ${reason}`)
  })

  it("in pages of 10 it is named on its page, the first record of page 1; the others reconciled across pages", async () => {
    const r = await reconcile("--page-size", "10", "--format", "json")
    expect(r.code, r.stderr).toBe(0)
    const json = JSON.parse(r.stdout)
    expect(json.counts).toMatchObject({ match: 11, skipped: 1 })
    expect(json.skipped).toEqual([{ orderId: "NOANCHOR", page: 1, position: 1, reason }])
    const sbas = await reconcile("--page-size", "10", "--format", "json", "--standard", "sbas")
    expect(sbas.stdout).toBe(r.stdout)
  })
})

describe("the listing read in --standard stops at a record past the reader's limit", () => {
  it("the records before it are read, the stop is said as an unread part of the list, never dropped silently", async () => {
    const record = (orderId: string, more: object = {}) => ({
      orderId,
      frequency: "MNTH",
      startDate: "2026-03-02",
      instructedAmount: { value: "25.00", currency: "EUR" },
      debtor: { name: "Jana", iban: Fixtures.ibans.eurBranch },
      creditor: { name: "Landlord", iban: "SK6609000000005012345678" },
      ...more
    })
    const at = (json: unknown, position: number) => ({ json, page: 0, position })
    const huge = record("HUGE", { remittanceInformationUnstructured: "x".repeat(1 << 20) })
    const read = await Effect.runPromise(
      Bank.readListed([at(record("A"), 1), at(huge, 2), at(record("B"), 3)], "sbas", Fixtures.baseDate)
    )
    expect(read.orders.map((o) => o.orderId)).toEqual(["A"])
    expect(read.unread).toHaveLength(1)
    expect(read.unread[0]).toMatchObject({ kind: "list", path: "the listing" })
    expect(read.unread[0]?.reason).toMatch(
      /is longer than 1048576 characters .*; the records from there on were not read$/
    )
  })
})
