/**
 * `tppkit db start` as a process: it prints `{"databaseUrl": …}`, serves PostgreSQL on 127.0.0.1, stops it
 * cleanly on SIGTERM, and a second start on the same data directory finds the data of the first.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { afterAll, assert, describe, it } from "@effect/vitest"
import * as Database from "@tppkit/worker/Database"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { root } from "./harness.ts"

const dir = mkdtempSync(join(tmpdir(), "tppkit-db-start-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const start = async () => {
  const child = spawn(
    process.execPath,
    [
      "--conditions=@tppkit/source",
      "packages/cli/src/bin.ts",
      "db",
      "start",
      "--port",
      "0",
      "--data-dir",
      join(dir, "pg"),
      "--format",
      "json"
    ],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"] }
  )
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000)
  const exited = new Promise<number | null>((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve(code)
    })
  )
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve)
    child.once("close", (code) => reject(new Error(`exited with ${code} before printing`)))
  })
  return { child, exited, url: Redacted.make((JSON.parse(line) as { databaseUrl: string }).databaseUrl) }
}

const query = <A extends object>(url: Redacted.Redacted<string>, text: string) =>
  Effect.runPromise(
    Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql.unsafe<A>(text)).pipe(
      Effect.provide(Database.layer(url, { maxConnections: 1 })),
      Effect.scoped
    )
  )

describe("tppkit db start", () => {
  it("serves on loopback until SIGTERM, stops PostgreSQL, and keeps the data for the next start", async () => {
    const first = await start()
    assert.match(Redacted.value(first.url), /^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/postgres$/)
    await query(first.url, "CREATE TABLE kept (v text)")
    await query(first.url, "INSERT INTO kept VALUES ('across restarts')")
    first.child.kill("SIGINT")
    assert.strictEqual(await first.exited, 130)
    // the server is gone: connecting fails
    const refused = await query(first.url, "SELECT 1").then(
      () => false,
      () => true
    )
    assert.isTrue(refused)
    const second = await start()
    const rows = await query<{ v: string }>(second.url, "SELECT v FROM kept")
    assert.deepStrictEqual(
      rows.map((r) => r.v),
      ["across restarts"]
    )
    second.child.kill("SIGTERM")
    // interrupted: exit code 130 (the CLI README's table), for SIGTERM as for SIGINT
    assert.strictEqual(await second.exited, 130)
  }, 120_000)
})
