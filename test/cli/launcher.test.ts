/**
 * The repository's `./tppkit` launcher (what the READMEs tell a newcomer to run, after `bash scripts/setup.sh`): the
 * process it starts is the command itself, so that a signal sent to its process id stops the command. It used to run
 * Node through pnpm's shell shim (node_modules/.bin/node), which runs Node as a child: SIGTERM to the launched
 * process stopped the shim only, and a `tppkit sandbox` went on serving with nobody to stop it.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { connect } from "node:net"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { root } from "../e2e/harness.ts"

let started: ChildProcess | undefined

afterEach(() => {
  // the launcher runs in a process group of its own: whatever is left of it goes with the group
  if (started?.pid !== undefined) {
    try {
      process.kill(-started.pid, "SIGKILL")
    } catch {
      // the group is gone already
    }
  }
  started = undefined
})

/** Whether something accepts a connection on the loopback port. */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: "127.0.0.1", port })
    socket.once("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })

describe("./tppkit", () => {
  it("SIGTERM to the launched process stops the command (a sandbox stops serving)", async () => {
    const child = spawn(join(root, "tppkit"), ["sandbox", "--port", "0"], {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1", TPPKIT_BUDGET_FILE: "memory" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true
    })
    started = child
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
    const port = await new Promise<number>((resolve, reject) => {
      let out = ""
      child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
        if (m !== null) resolve(Number(m[1]))
      })
      child.once("exit", (code) => reject(new Error(`tppkit sandbox exited with ${code} before listening: ${out}`)))
    })
    expect(await accepts(port)).toBe(true)
    child.kill("SIGTERM")
    await exited
    expect(await accepts(port)).toBe(false)
  })
})
