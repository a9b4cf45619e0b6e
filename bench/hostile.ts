/**
 * The CLI against a hostile bank (issue 10): `tppkit balance-check` and `tppkit standing-orders --all` while
 * the bank answers every API request with an endless body. Reports, per command, the wall time until the
 * process exited, its exit code, its first stderr line and its peak resident memory (`/usr/bin/time -f %M`).
 * Targets: fails within 15 s with one clear line, peak RSS under 300 MB.
 *
 * `pnpm exec node --conditions=@tppkit/source bench/hostile.ts` (Linux, needs /usr/bin/time).
 */
import { spawn } from "node:child_process"
import { loadavg } from "node:os"
import { join } from "node:path"
import { endlessJson, start } from "../test/http/hostile.ts"

const root = join(import.meta.dirname, "..")
const tokenOk = {
  _tag: "respond",
  status: 200,
  body: JSON.stringify({ access_token: "tok", token_type: "Bearer", expires_in: 1200 })
} as const

const server = await start((req) => (req.path.endsWith("/connect/token") ? tokenOk : endlessJson), {
  lifetimeMs: 120_000,
  maxRequests: 100
})

const run = (args: ReadonlyArray<string>) =>
  new Promise<{ ms: number; code: number | null; line: string; peakMb: number }>((resolve) => {
    const env: Record<string, string | undefined> = { ...process.env }
    for (const key of Object.keys(env)) if (key.startsWith("TPPKIT_")) delete env[key]
    Object.assign(env, {
      TPPKIT_BASE_URL: server.baseUrl,
      TPPKIT_CLIENT_ID: "tpp",
      TPPKIT_CLIENT_SECRET: "secret",
      TPPKIT_BUDGET_FILE: "memory"
    })
    const started = process.hrtime.bigint()
    const child = spawn(
      "/usr/bin/time",
      ["-f", "peak-rss-kb %M", process.execPath, "--conditions=@tppkit/source", "packages/cli/src/bin.ts", ...args],
      { cwd: root, env, stdio: ["ignore", "ignore", "pipe"] }
    )
    let stderr = ""
    child.stderr.setEncoding("utf8").on("data", (c: string) => {
      stderr += c
    })
    const killer = setTimeout(() => child.kill("SIGKILL"), 60_000)
    child.on("close", (code) => {
      clearTimeout(killer)
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      const peak = /peak-rss-kb (\d+)/.exec(stderr)
      const line = stderr.split("\n").find((l) => l.startsWith("tppkit")) ?? ""
      resolve({ ms, code, line, peakMb: peak === null ? Number.NaN : Number(peak[1]) / 1024 })
    })
  })

console.log(
  `CLI against an endless body (load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")})`
)
for (const args of [
  ["balance-check", "--iban", "SK3112000000198742637541", "--amount", "1", "--currency", "EUR"],
  ["standing-orders", "--all", "--psu-last-logged-time", "now"]
]) {
  const r = await run(args)
  console.log(
    `  tppkit ${args[0]}: exit ${r.code} after ${(r.ms / 1000).toFixed(2)} s, peak RSS ${r.peakMb.toFixed(0)} MB ${
      r.ms <= 15_000 && r.peakMb < 300 ? "ok" : "ABOVE TARGET"
    }\n    ${r.line}`
  )
}
await server.close()
