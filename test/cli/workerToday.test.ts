/**
 * `tppkit worker --today D` in the live environment: a day after today (in the fleet's time zone) is refused before
 * anything is sent or any database is asked, since it would send real balance checks now for a future day (issue
 * 25, "Limits"); the sandbox takes any day (it goes on to the database, here one that is not there).
 */
import { assert, describe, it } from "@effect/vitest"
import { run, workerWithoutDatabase } from "./inProcess.ts"

const worker = (env: string, today: string) => workerWithoutDatabase("--env", env, "--today", today)

describe("tppkit worker --today", () => {
  it("refuses a day after today in the live environment (exit 2), the sandbox takes it", async () => {
    const live = await run(worker("live", "2999-12-31"))
    assert.strictEqual(live.code, 2, live.stderr)
    assert.match(live.stderr, /--today 2999-12-31 is after today \(\d{4}-\d{2}-\d{2} in Europe\/Bratislava\)/)
    const sandbox = await run(worker("sandbox", "2999-12-31"))
    assert.notStrictEqual(sandbox.code, 2, sandbox.stderr)
    assert.notInclude(sandbox.stderr, "is after today")
  })
})
