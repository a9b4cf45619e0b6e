/**
 * `tppkit db start` as a process: it prints `{"databaseUrl": …}`, serves PostgreSQL on 127.0.0.1, stops it
 * cleanly on SIGTERM, and a second start on the same data directory finds the data of the first. A busy port and a
 * data directory already served are one line each (exit 3; the port is checked the same way whatever listens on it); run as root, the server runs as the OS user
 * `postgres`, owns its data directory, and no permission outside it changes.
 */
import { spawn } from "node:child_process"
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { afterAll, assert, describe, it } from "@effect/vitest"
import * as Database from "@tppkit/worker/Database"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { root, tppkit, withBusyPort } from "./harness.ts"

const dir = mkdtempSync(join(tmpdir(), "tppkit-db-start-"))
// open to others to pass through (not to list): run as root, the server user must reach the data directory below
chmodSync(dir, 0o711)
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const isRoot = process.getuid?.() === 0

const start = async (dataDir = join(dir, "pg")) => {
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
      dataDir,
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
  let stderr = ""
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk
  })
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve)
    child.once("close", (code) => reject(new Error(`exited with ${code} before printing: ${stderr}`)))
  })
  return {
    child,
    exited,
    stderr: () => stderr,
    url: Redacted.make((JSON.parse(line) as { databaseUrl: string }).databaseUrl)
  }
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
    // the data directory is served: a third start on it says so (a busy port: the next test)
    const port = new URL(Redacted.value(second.url)).port
    const served = await tppkit(["db", "start", "--port", "0", "--data-dir", join(dir, "pg")])
    assert.strictEqual(served.code, 3, served.stderr)
    assert.match(served.stderr, /^tppkit: \S+ is already served by PostgreSQL \(process \d+, port (\d+)\): .*--port\n$/)
    assert.include(served.stderr, `port ${port})`)
    if (isRoot) {
      // the server runs as its own user, which owns the data directory; the folder above kept its mode
      const pid = readFileSync(join(dir, "pg", "postmaster.pid"), "utf8").split("\n")[0]
      const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]
      assert.notStrictEqual(uid, "0")
      assert.strictEqual(String(statSync(join(dir, "pg")).uid), uid)
      assert.strictEqual(statSync(dir).mode & 0o7777, 0o711)
    }
    second.child.kill("SIGTERM")
    // interrupted: exit code 130 (the CLI README's table), for SIGTERM as for SIGINT
    assert.strictEqual(await second.exited, 130)
  }, 120_000)

  it("supervised: its server SIGKILLed is one line naming the signal and exit 1; started again, the data is there", async () => {
    const first = await start()
    await query(first.url, "CREATE TABLE IF NOT EXISTS supervised (v text)")
    await query(first.url, "INSERT INTO supervised VALUES ('before the kill')")
    const pid = Number(readFileSync(join(dir, "pg", "postmaster.pid"), "utf8").split("\n")[0])
    process.kill(pid, "SIGKILL")
    // what systemd's Restart=on-failure acts on: a non-zero exit, with the cause on stderr
    assert.strictEqual(await first.exited, 1)
    // --format json: the line is the error's JSON object
    const port = new URL(Redacted.value(first.url)).port
    assert.deepStrictEqual(JSON.parse(first.stderr()), {
      error: {
        kind: "failure",
        message: `PostgreSQL on 127.0.0.1:${port} (data in ${join(dir, "pg")}) died: process ${pid}: signal SIGKILL`,
        exitCode: 1
      }
    })
    const second = await start()
    const rows = await query<{ v: string }>(second.url, "SELECT v FROM supervised")
    assert.deepStrictEqual(
      rows.map((r) => r.v),
      ["before the kill"]
    )
    second.child.kill("SIGTERM")
    assert.strictEqual(await second.exited, 130)
  }, 120_000)

  it("a superuser password made on first start, kept 0600; a data directory of the old fixed password gets a new one", async () => {
    const data = join(dir, "password")
    const first = await start(data)
    const password = decodeURIComponent(new URL(Redacted.value(first.url)).password)
    assert.notStrictEqual(password, "tppkit")
    assert.isAtLeast(password.length, 32)
    const file = join(data, "tppkit-superuser-password")
    assert.strictEqual(readFileSync(file, "utf8").trim(), password)
    assert.strictEqual(statSync(file).mode & 0o777, 0o600)
    // a data directory as an earlier tppkit made it: the fixed password, no password file
    await query(first.url, "ALTER ROLE postgres PASSWORD 'tppkit'")
    first.child.kill("SIGTERM")
    assert.strictEqual(await first.exited, 130)
    rmSync(file)
    const second = await start(data)
    const replaced = decodeURIComponent(new URL(Redacted.value(second.url)).password)
    assert.notStrictEqual(replaced, "tppkit")
    assert.strictEqual(readFileSync(file, "utf8").trim(), replaced)
    assert.strictEqual(statSync(file).mode & 0o777, 0o600)
    assert.match(
      second.stderr(),
      /was made with the fixed password of an earlier tppkit; its superuser has a new one, kept in /
    )
    assert.deepStrictEqual(await query<{ n: number }>(second.url, "SELECT 1 AS n"), [{ n: 1 }])
    const old = Redacted.make(Redacted.value(second.url).replace(`:${replaced}@`, ":tppkit@"))
    const refused = await query(old, "SELECT 1").then(
      () => false,
      () => true
    )
    assert.isTrue(refused)
    second.child.kill("SIGTERM")
    assert.strictEqual(await second.exited, 130)
    // the same password on the next start, and no line about it
    const third = await start(data)
    assert.strictEqual(decodeURIComponent(new URL(Redacted.value(third.url)).password), replaced)
    assert.notInclude(third.stderr(), "fixed password")
    third.child.kill("SIGTERM")
    assert.strictEqual(await third.exited, 130)
  }, 120_000)

  it("--listen needs --allow, an address and networks (exit 2)", async () => {
    const base = ["db", "start", "--port", "0", "--data-dir", join(dir, "unused")]
    const bare = await tppkit([...base, "--listen", "192.0.2.1"])
    assert.strictEqual(bare.code, 2, bare.stderr)
    assert.match(bare.stderr, /^tppkit: --listen 192\.0\.2\.1 needs --allow CIDR/)
    const any = await tppkit([...base, "--listen", "0.0.0.0", "--allow", "10.0.0.0/8"])
    assert.strictEqual(any.code, 2, any.stderr)
    assert.match(any.stderr, /--listen 0\.0\.0\.0: give an address of this machine that the workers reach it at/)
    const bad = await tppkit([...base, "--listen", "192.0.2.1", "--allow", "10.0.0.0/33"])
    assert.strictEqual(bad.code, 2, bad.stderr)
    assert.match(bad.stderr, /--allow 10\.0\.0\.0\/33: not a network in CIDR form/)
  })

  it("a port in use by another program is one line suggesting --port, exit 3", () =>
    withBusyPort(async (port) => {
      const run = await tppkit(["db", "start", "--port", String(port), "--data-dir", join(dir, "busy")])
      assert.strictEqual(run.code, 3, run.stderr)
      assert.strictEqual(
        run.stderr,
        `tppkit: port ${port} on 127.0.0.1 is in use (another PostgreSQL or program listens there); choose another with --port N (0: any free port)\n`
      )
    }))

  it.runIf(isRoot)(
    "as root, a data directory under a folder closed to the server user is refused; no mode changes",
    async () => {
      const closed = join(dir, "closed")
      mkdirSync(closed, { mode: 0o700 })
      chmodSync(closed, 0o700)
      const run = await tppkit(["db", "start", "--port", "0", "--data-dir", join(closed, "pg")])
      assert.strictEqual(run.code, 3, run.stderr)
      assert.match(run.stderr, /^tppkit: PostgreSQL runs as the OS user postgres .* is closed to it; give a --data-dir/)
      assert.strictEqual(run.stderr.trimEnd().split("\n").length, 1)
      assert.strictEqual(statSync(closed).mode & 0o7777, 0o700)
    }
  )
})
