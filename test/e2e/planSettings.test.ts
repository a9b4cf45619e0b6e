/**
 * One plan per day across the fleet: two workers with different plan settings on one database; the second is
 * refused with one line naming the difference (exit 3), and joins with `--reconfigure`.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { embeddedDb } from "../worker/pg.ts"
import { tppkit, workerOnce } from "./harness.ts"

const db = embeddedDb()
const bankScope = Scope.makeUnsafe()
afterAll(() => Effect.runPromise(Scope.close(bankScope, Exit.void)))

describe("one plan per day", { timeout: 120_000 }, () => {
  it("refuses a worker whose settings differ from the fleet's, naming the difference; --reconfigure changes them", async () => {
    const info = Context.get(
      await Effect.runPromise(Layer.buildWithScope(Sandbox.layer({ listingDay: Fixtures.baseDate }), bankScope)),
      Sandbox.SandboxInfo
    )
    const url = Redacted.value(await Effect.runPromise(db.freshUrl()))
    const worker = (...more: ReadonlyArray<string>) =>
      tppkit(workerOnce(url, info, "2026-11-02", ...more), {
        env: { TPPKIT_CLIENT_SECRET: Redacted.value(info.clientSecret), TPPKIT_WORKER_POLL_MS: "250" },
        timeoutMs: 90_000
      })
    const first = await worker()
    assert.strictEqual(first.code, 0, first.stderr)
    const other = await worker("--days-before", "3", "--time-zone", "Europe/Prague")
    assert.strictEqual(other.code, 3, other.stderr)
    assert.strictEqual(other.stdout, "")
    const lines = other.stderr.trimEnd().split("\n")
    assert.strictEqual(lines.length, 1, other.stderr)
    assert.match(
      lines[0] ?? "",
      /^tppkit: this worker's plan settings differ from the fleet's \(stored \S+\): --days-before 3 here, 2 in the fleet; --time-zone Europe\/Prague here, Europe\/Bratislava in the fleet; .*--reconfigure/
    )
    const reconfigured = await worker("--days-before", "3", "--time-zone", "Europe/Prague", "--reconfigure")
    assert.strictEqual(reconfigured.code, 0, reconfigured.stderr)
    assert.match(reconfigured.stderr, /^time=\S+ level=warn event=reconfigured /m)
    // now the first worker's settings are the odd ones out
    const again = await worker()
    assert.strictEqual(again.code, 3, again.stderr)
    assert.include(again.stderr, "--days-before 2 here, 3 in the fleet")
  })
})
