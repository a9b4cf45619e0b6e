/**
 * The daily sweep reconciles each listing it makes: a worker sweeps a mock bank that pays preceding on weekends
 * and lists some monthly orders ten days off; `tppkit worker status` then shows the listing's counts and the bank's
 * rule, and names the listing with findings.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import { BankRule, Calendar, LocalDate } from "@tppkit/core"
import { Sandbox } from "@tppkit/sandbox"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { embeddedDb } from "../worker/pg.ts"
import { tppkit, workerOnce } from "./harness.ts"

const db = embeddedDb()
const bankScope = Scope.makeUnsafe()
afterAll(() => Effect.runPromise(Scope.close(bankScope, Exit.void)))

describe("the sweep's reconciliation in worker status", { timeout: 120_000 }, () => {
  it("counts each listing's nextDates against the fleet's rule, shows the bank's rule and the findings", async () => {
    // Saturday 25 July 2026, 1 August a Saturday: the bank lists the payments due then on Friday 31 July
    const day = "2026-07-25"
    const info = Context.get(
      await Effect.runPromise(
        Layer.buildWithScope(
          Sandbox.layer({
            listingDay: LocalDate.parseUnsafe(day),
            personality: {
              rule: BankRule.make({ convention: "preceding", calendar: Calendar.weekends }),
              anomalyRate: 0.1,
              seed: 3
            }
          }),
          bankScope
        )
      ),
      Sandbox.SandboxInfo
    )
    const url = Redacted.value(await Effect.runPromise(db.freshUrl()))
    const worker = await tppkit(workerOnce(url, info, day), {
      env: { TPPKIT_CLIENT_SECRET: Redacted.value(info.clientSecret), TPPKIT_WORKER_POLL_MS: "250" },
      timeoutMs: 100_000
    })
    assert.strictEqual(worker.code, 0, worker.stderr)
    const status = await tppkit(["worker", "status", "--database-url", url, "--day", day], { env: { COLUMNS: "200" } })
    assert.strictEqual(status.code, 0, status.stderr)
    const lines = status.stdout.split("\n")
    const at = lines.findIndex((l) => l.startsWith("Listed nextDates against following · target"))
    assert.isAbove(at, 0, status.stdout)
    const row = lines.slice(at).find((l) => l.startsWith(day))
    assert.isDefined(row, status.stdout)
    // day, consent, match, explained, stale, anomaly, unexplained, then the bank's rule
    const m = /^2026-07-25 +\S+ +(\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(.+)$/.exec(row!.trimEnd())
    assert.isNotNull(m, row)
    const [, match, explained, stale, anomaly, unexplained, rule] = m!
    assert.isAbove(Number(match) + Number(explained), 50)
    assert.isAbove(Number(explained), 0)
    assert.isAbove(Number(anomaly), 0)
    assert.deepStrictEqual([stale, unexplained], ["0", "0"])
    assert.match(rule!, /preceding · weekends/)
    assert.include(status.stdout, "1 listing(s) with findings: 2026-07-25 ")
  })
})
