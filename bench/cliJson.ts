/**
 * `tppkit project --format json > /dev/null` as a child process (issue 12: JSON written at ≥ 250 MB/s of CPU):
 * 100,000 deterministic orders of all seven frequencies (test/cli/fixtures/generate-orders.ts) projected over
 * 2026 on the TARGET calendar. Reports the bytes written, the child's CPU time (user + sys, from its own
 * `process.resourceUsage()` at exit), bytes ÷ CPU time, wall time and peak resident memory. Run alone with
 * `pnpm exec node --conditions=@tppkit/source bench/cliJson.ts`; also run by `pnpm bench`. Environment:
 * `BENCH_CLI_ORDERS` (default 100000), `BENCH_CLI_RUNS` (default 3), `BENCH_CLI_FORMAT` (default json; csv too),
 * `BENCH_CLI_ROOT` (the checkout whose command runs, default this one: another worktree for before/after).
 */
import { spawn } from "node:child_process"
import { closeSync, mkdtempSync, openSync, rmSync, statSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { root, upperMedian, writeGeneratedOrders } from "./support.ts"

const ORDERS = Number(process.env.BENCH_CLI_ORDERS ?? 100_000)
const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 3)
const FORMAT = process.env.BENCH_CLI_FORMAT ?? "json"
/** The checkout whose `tppkit` runs (default this one; another worktree for a before/after comparison). */
const cliRoot = process.env.BENCH_CLI_ROOT ?? root
const node = process.execPath

/** Prints the child's resource usage as one JSON line on stderr when it exits (loaded with --import). */
const usageHook = `data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();process.stderr.write("\\nBENCH_USAGE "+JSON.stringify({cpu:(u.userCPUTime+u.systemCPUTime)/1e6,user:u.userCPUTime/1e6,sys:u.systemCPUTime/1e6,maxRss:u.maxRSS*1024})+"\\n")})`

interface Run {
  readonly bytes: number
  readonly cpu: number
  readonly user: number
  readonly sys: number
  readonly wall: number
  readonly maxRss: number
}

const dir = mkdtempSync(join(tmpdir(), "tppkit-bench-cli-"))
try {
  const orders = join(dir, "orders.json")
  writeGeneratedOrders(orders, ORDERS)
  const target = join(dir, "out")

  /** One `tppkit project` into a file (bytes counted from it) or /dev/null. */
  const runOnce = (toDevNull: boolean): Promise<Run> =>
    new Promise((resolve, reject) => {
      const fd = openSync(toDevNull ? "/dev/null" : target, "w")
      const started = process.hrtime.bigint()
      const child = spawn(
        node,
        [
          "--conditions=@tppkit/source",
          `--import=${usageHook}`,
          join(cliRoot, "packages/cli/src/bin.ts"),
          "project",
          "--orders",
          orders,
          "--from",
          "2026-01-01",
          "--to",
          "2026-12-31",
          "--format",
          FORMAT
        ],
        { stdio: ["ignore", fd, "pipe"] }
      )
      let stderr = ""
      child.stderr?.setEncoding("utf8").on("data", (d: string) => {
        stderr += d
      })
      child.on("error", reject)
      child.on("close", (code) => {
        closeSync(fd)
        const wall = Number(process.hrtime.bigint() - started) / 1e9
        const line = /BENCH_USAGE (.*)/.exec(stderr)
        if (code !== 0 || line === null) return reject(new Error(`tppkit exited ${code}: ${stderr.slice(-500)}`))
        const usage = JSON.parse(line[1]!) as Omit<Run, "bytes" | "wall">
        resolve({ ...usage, wall, bytes: toDevNull ? 0 : statSync(target).size })
      })
    })

  // the size once (into a file), then the timed runs into /dev/null
  const { bytes } = await runOnce(false)
  rmSync(target)
  const mbs = (n: number) => (n / 1e6).toFixed(0)
  console.log(
    `\ncli ${FORMAT} (${cliRoot}): tppkit project --format ${FORMAT} > /dev/null, ${ORDERS} orders over 2026 (${mbs(bytes)} MB), load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`
  )
  const runs: Array<Run> = []
  for (let r = 0; r < RUNS; r++) {
    const run = { ...(await runOnce(true)), bytes }
    runs.push(run)
    console.log(
      `  run ${r + 1}: ${run.cpu.toFixed(2)} s CPU (${run.user.toFixed(2)} user + ${run.sys.toFixed(2)} sys), ` +
        `${mbs(bytes / run.cpu)} MB/s of CPU; ${run.wall.toFixed(2)} s wall, ${mbs(bytes / run.wall)} MB/s; ` +
        `max RSS ${mbs(run.maxRss)} MB`
    )
  }
  const cpu = upperMedian(runs.map((r) => r.cpu))
  const wall = upperMedian(runs.map((r) => r.wall))
  console.log(
    `  median: ${mbs(bytes / cpu)} MB/s of CPU (${cpu.toFixed(2)} s), ${mbs(bytes / wall)} MB/s of wall (${wall.toFixed(2)} s); ` +
      `load now ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
}
