/**
 * `tppkit budget --database-url` (or `TPPKIT_DATABASE_URL`): the shared budget of a fleet's PostgreSQL, shown like
 * the budget file's, after an unattended listing that spent it through the same database.
 */
import { type Journal, Sandbox } from "@tppkit/sandbox"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { embeddedDb } from "../worker/pg.ts"
import { tppkit } from "./harness.ts"

const db = embeddedDb()
const bankScope = Scope.makeUnsafe()
afterAll(() => Effect.runPromise(Scope.close(bankScope, Exit.void)))

describe("tppkit budget --database-url", { timeout: 120_000 }, () => {
  it("shows the fleet database's budget per consent: used, left, reset; the flag or TPPKIT_DATABASE_URL", async () => {
    const context = await Effect.runPromise(
      Layer.buildWithScope(Sandbox.layer(), bankScope) as Effect.Effect<
        Context.Context<Sandbox.SandboxInfo | Journal.Journal>,
        unknown
      >
    )
    const info = Context.get(context, Sandbox.SandboxInfo)
    const url = Redacted.value(await Effect.runPromise(db.freshUrl()))
    const where = `PostgreSQL at ${new URL(url).host}${new URL(url).pathname}`

    const empty = await tppkit(["budget", "--database-url", url, "--format", "json"])
    expect(empty.stderr).toBe("")
    expect(JSON.parse(empty.stdout)).toMatchObject({ database: where, limit: 4, consents: [] })

    // an unattended listing of two pages spends two calls in the database, not in the budget file
    const env = {
      TPPKIT_BASE_URL: info.baseUrl,
      TPPKIT_CLIENT_ID: info.clientId,
      TPPKIT_CLIENT_SECRET: "sandbox-secret"
    }
    const listed = await tppkit(["standing-orders", "--all", "--database-url", url], { env })
    expect(listed.code, listed.stderr).toBe(0)

    const runs = [
      await tppkit(["budget", "--database-url", url, "--format", "json"]),
      await tppkit(["budget", "--format", "json"], { env: { TPPKIT_DATABASE_URL: url } })
    ]
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0)
      const shown = JSON.parse(run.stdout)
      expect(shown.database).toBe(where)
      expect(shown).not.toHaveProperty("file")
      expect(shown.consents[0].baseUrl.startsWith(`${info.baseUrl}#`)).toBe(true)
      expect(shown.consents).toEqual([
        {
          environment: "sandbox",
          // the mock bank announces its instance: a restarted one on the same port counts apart
          baseUrl: expect.stringMatching(/#instance=[0-9a-f-]{36}$/),
          clientId: info.clientId,
          consent: info.clientId,
          used: 2,
          left: 2,
          resetsAt: shown.resetsAt
        }
      ])
      // the password never shows
      expect(run.stdout).not.toContain("tppkit@")
    }
    const table = await tppkit(["budget", "--database-url", url])
    expect(table.stdout).toContain(`Database ${where}`)
    expect(table.stdout).toMatch(/sandbox\s.*\s2\s+2\n?$/m)
  })

  it("a database that cannot be reached (exit 6) or a URL of another kind (exit 3) is one line", async () => {
    for (const [url, code, line] of [
      ["postgres://postgres:secret@127.0.0.1:1/postgres", 6, /^tppkit: database 127\.0\.0\.1:1: connection refused/],
      ["mysql://127.0.0.1/db", 3, /^tppkit: --database-url: expected postgres:\/\//]
    ] as const) {
      const run = await tppkit(["budget", "--database-url", url])
      expect(run.code).toBe(code)
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1)
      expect(run.stderr).toMatch(line)
      expect(run.stderr).not.toContain("secret")
    }
  })
})
