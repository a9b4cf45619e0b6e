/**
 * `tppkit sandbox` as a process: it serves until SIGTERM or SIGINT and then exits 130 (interrupted), as the CLI
 * README's table of exit codes says (issue 25, defect 8); on a port another program holds it says so in one line
 * suggesting `--port` and exits 3, as `tppkit db start` does (issue 40).
 */
import { assert, describe, it } from "@effect/vitest"
import { start, tppkit, withBusyPort } from "./harness.ts"

/** Starts the mock bank, waits for its one JSON line (it serves from then on), sends `signal`, and its exit. */
const stopped = async (signal: NodeJS.Signals) => {
  const bank = start(["sandbox", "--format", "json"], {})
  const ready = await new Promise<string>((resolve, reject) => {
    let text = ""
    bank.child.stdout?.on("data", (chunk: Buffer | string) => {
      text += chunk.toString()
      if (text.includes("\n")) resolve(text)
    })
    bank.child.once("exit", (code) => reject(new Error(`tppkit sandbox exited with ${code} before serving`)))
  })
  const { baseUrl } = JSON.parse(ready.split("\n")[0] ?? "{}") as { baseUrl: string }
  assert.strictEqual((await fetch(`${baseUrl}/__instance`)).status, 200)
  bank.child.kill(signal)
  return bank.done
}

describe("tppkit sandbox and signals", { timeout: 60_000 }, () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`stops on ${signal} with exit code 130`, async () => {
      const ended = await stopped(signal)
      assert.strictEqual(ended.code, 130, ended.stderr)
      assert.isNull(ended.signal)
    })
  }
})

describe("tppkit sandbox on a busy port", { timeout: 60_000 }, () => {
  it("is one line suggesting --port, exit 3 (as tppkit db start)", () =>
    withBusyPort(async (port) => {
      const run = await tppkit(["sandbox", "--port", String(port)])
      assert.strictEqual(run.code, 3, run.stderr)
      assert.strictEqual(
        run.stderr,
        `tppkit: port ${port} on 127.0.0.1 is in use (another tppkit sandbox or program listens there); choose another with --port N (0: any free port)\n`
      )
    }))
})
