/**
 * Every command that talks to the fleet's database fails the same way when it cannot use it: one line naming
 * `host:port` (never the password) and the cause in plain words, with one exit code per class: nothing listening
 * and no answer are 6 (unavailable), a wrong password and a missing database are 3 (configuration). The commands run
 * in this process (`Cli.main`, as the `tppkit` binary runs it), which spares a Node start per run; one class is also
 * run as a process, for the exit code as the shell sees it.
 */
import { createServer, type Server, type Socket } from "node:net"
import { EmbeddedDb } from "@tppkit/worker"
import { Effect, Redacted } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { run as inProcess } from "../cli/inProcess.ts"
import { embeddedDb } from "../worker/pg.ts"
import { tppkit } from "./harness.ts"

const db = embeddedDb()

/** A TCP server on loopback that accepts connections and never answers (a host that does not reply). */
const silent = async (): Promise<{ readonly port: number; readonly close: () => Promise<void> }> => {
  const sockets = new Set<Socket>()
  const server: Server = createServer((s) => {
    sockets.add(s)
    s.on("close", () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  return {
    port: typeof address === "object" && address !== null ? address.port : 0,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      })
  }
}

/** The three commands that talk to the database, each given `url`. */
const commands = (url: string) => [
  ["budget", "--database-url", url],
  ["worker", "status", "--database-url", url],
  [
    "worker",
    "--database-url",
    url,
    "--base-url",
    "http://127.0.0.1:9",
    "--client-id",
    "c",
    "--client-secret",
    "s",
    "--today",
    "2026-11-25",
    "--once"
  ]
]

const expectOneLine = async (url: string, code: number, line: RegExp) => {
  for (const args of commands(url)) {
    const run = await inProcess(args)
    const lines = run.stderr.trimEnd().split("\n")
    expect(lines, run.stderr).toHaveLength(1)
    expect(lines[0]).toMatch(line)
    expect(run.code, run.stderr).toBe(code)
    expect(run.stderr).not.toContain("secret-password")
  }
}

const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closers) await close()
})

describe("database failures", { timeout: 120_000 }, () => {
  it("a refused port: `connection refused`, exit 6", async () => {
    const port = await Effect.runPromise(EmbeddedDb.freePort)
    const url = `postgres://u:secret-password@127.0.0.1:${port}/db`
    const line = new RegExp(`^tppkit: database 127\\.0\\.0\\.1:${port}: connection refused`)
    await expectOneLine(url, 6, line)
    // the same as a process: the exit code the shell sees
    const run = await tppkit(["budget", "--database-url", url], { timeoutMs: 60_000 })
    expect(run.code, run.stderr).toBe(6)
    expect(run.stderr).toMatch(line)
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1)
  })

  it("a wrong password: `authentication failed`, exit 3", async () => {
    const url = new URL(Redacted.value(db.url()))
    url.password = "secret-password"
    await expectOneLine(
      url.href,
      3,
      new RegExp(`^tppkit: database 127\\.0\\.0\\.1:${url.port}: authentication failed for user "postgres"`)
    )
  })

  it("a missing database: `no such database`, exit 3", async () => {
    const url = new URL(Redacted.value(db.url()))
    url.pathname = "/nowhere"
    await expectOneLine(
      url.href,
      3,
      new RegExp(`^tppkit: database 127\\.0\\.0\\.1:${url.port}: no such database "nowhere"`)
    )
  })

  it("a host that does not answer: `timed out` after the URL's connect_timeout, exit 6", async () => {
    const server = await silent()
    closers.push(server.close)
    await expectOneLine(
      `postgres://u:secret-password@127.0.0.1:${server.port}/db?connect_timeout=1`,
      6,
      new RegExp(`^tppkit: database 127\\.0\\.0\\.1:${server.port}: timed out connecting`)
    )
  })
})
