/**
 * A million orders (issue 12): a seeded orders file of N standing orders with all seven frequency codes is written
 * to a temporary directory (by test/cli/fixtures/generate-orders.ts), then projected over 2026 (TARGET, following) in fresh processes on the default heap,
 * each at a small and a large N:
 *   (a) in process: the file read by the CLI's streaming decoder (`Project.ordersDecoder`), the orders through
 *       `Projection.stream` into a `CashFlow.accumulator`;
 *   (b) the command: `tppkit project --orders FILE --format json > /dev/null` as a child process.
 * Each run reports peak resident memory (its own `maxRSS`, or `/usr/bin/time` for the command), CPU time (user +
 * system; (a) from reading the file on, (b) less the command's start-up on an empty list), payments and CPU per
 * payment; then the large/small ratio of CPU per payment (linear: ≤ 1.3×).
 *
 * `pnpm bench` runs it at 10,000 and 100,000 orders (about a minute); the issue's run is
 * `BENCH_MILLION=1 pnpm exec node --conditions=@tppkit/source bench/million.ts` (100,000 and 1,000,000 orders,
 * several minutes; `BENCH_MILLION_SIZES=20000,200000` picks other sizes, `BENCH_MILLION_ONLY=a` skips the command;
 * (a) always runs, as it counts the payments).
 */
import { execFileSync, spawnSync } from "node:child_process"
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { root, writeGeneratedOrders } from "./support.ts"

const FROM = "2026-01-01"
const TO = "2026-12-31"
const self = fileURLToPath(import.meta.url)

// ---------------------------------------------------------------------------
// the child: (a) in process
// ---------------------------------------------------------------------------

const inProcess = async (file: string): Promise<void> => {
  const { Project } = await import("@tppkit/cli")
  const { Calendar, LocalDate } = await import("@tppkit/core")
  const { CashFlow, Projection } = await import("@tppkit/schedule")
  const { Effect, Result, Stream } = await import("effect")
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  // the file in 1 MiB reads, decoded as it arrives
  const decoder = Project.ordersDecoder()
  const text = new TextDecoder()
  const buffer = new Uint8Array(1 << 20)
  const fd = openSync(file, "r")
  for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) {
    decoder.push(text.decode(buffer.subarray(0, n), { stream: true }))
  }
  decoder.push(text.decode())
  closeSync(fd)
  const decoded = decoder.end()
  if (Result.isFailure(decoded)) throw new Error(decoded.failure)
  const decodeCpu = process.cpuUsage(c0)
  const window = { from: LocalDate.parseUnsafe(FROM), to: LocalDate.parseUnsafe(TO) }
  const totals = await Effect.runPromise(
    Stream.runFold(
      Projection.stream(decoded.success.orders, window, { calendar: Calendar.target, convention: "following" }),
      () => CashFlow.accumulator({ period: "month" }),
      (acc, p) => {
        acc.add(p)
        return acc
      }
    )
  )
  const cpu = process.cpuUsage(c0)
  const result = totals.result()
  process.stdout.write(
    `${JSON.stringify({
      payments: result.count,
      orders: decoded.success.orders.length,
      cpu: (cpu.user + cpu.system) / 1e6,
      decodeCpu: (decodeCpu.user + decodeCpu.system) / 1e6,
      wall: (performance.now() - t0) / 1000,
      maxRss: process.resourceUsage().maxRSS * 1024
    })}\n`
  )
}

if (process.argv[2] === "--child") {
  await inProcess(process.argv[3]!)
  process.exit(0)
}

// ---------------------------------------------------------------------------
// the runs
// ---------------------------------------------------------------------------

interface Run {
  readonly cpu: number
  readonly wall: number
  readonly maxRss: number
  readonly payments: number
  readonly extra?: string
}

const node = process.execPath

/** (a): a fresh process reading the file and streaming the projection into the cash-flow accumulator. */
const runInProcess = (file: string): Run => {
  const out = execFileSync(node, ["--conditions=@tppkit/source", self, "--child", file], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 1 << 20
  })
  const r = JSON.parse(out.trim().split("\n").pop()!) as Run & { decodeCpu: number; orders: number }
  return { ...r, extra: `reading ${r.decodeCpu.toFixed(1)} s CPU` }
}

/** (b): `tppkit project --format json` with stdout on /dev/null, measured by /usr/bin/time. */
const runCommand = (file: string, payments: number): Run => {
  const dir = mkdtempSync(join(tmpdir(), "tppkit-million-time-"))
  const timing = join(dir, "time")
  const args = [
    "-o",
    timing,
    "-f",
    "%e %U %S %M",
    node,
    "--conditions=@tppkit/source",
    join(root, "packages/cli/src/bin.ts"),
    "project",
    "--orders",
    file,
    "--from",
    FROM,
    "--to",
    TO,
    "--format",
    "json"
  ]
  const r = spawnSync("/usr/bin/time", args, { cwd: root, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" })
  const [wall, user, system, rssKb] = readFileSync(timing, "utf8").trim().split("\n").pop()!.split(" ").map(Number)
  rmSync(dir, { recursive: true, force: true })
  if (r.status !== 0) throw new Error(`tppkit project exited with ${r.status}: ${r.stderr}`)
  return { cpu: user! + system! - startup, wall: wall!, maxRss: rssKb! * 1024, payments }
}

/** The command's CPU time on an empty orders list (loading its modules), taken off each run's CPU time. */
let startup = 0

const sizes = (
  process.env.BENCH_MILLION_SIZES ?? (process.env.BENCH_MILLION === "1" ? "100000,1000000" : "10000,100000")
)
  .split(",")
  .map(Number)
const only = process.env.BENCH_MILLION_ONLY
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
const ns = (run: Run) => (run.cpu * 1e9) / run.payments

if (!existsSync("/usr/bin/time") && only !== "a")
  throw new Error("bench/million.ts measures the command with /usr/bin/time")
const dir = mkdtempSync(join(tmpdir(), "tppkit-million-"))
try {
  if (only !== "a") {
    const empty = join(dir, "empty.json")
    writeGeneratedOrders(empty, 0)
    startup = runCommand(empty, 0).cpu
    console.log(`million: the command's start-up, taken off its CPU times below: ${startup.toFixed(2)} s CPU`)
  }
  const results: Array<{ orders: number; a?: Run; b?: Run }> = []
  for (const orders of sizes) {
    const file = join(dir, `orders-${orders}.json`)
    writeGeneratedOrders(file, orders)
    const load = loadavg()[0]!.toFixed(1)
    const a = runInProcess(file)
    const payments = a.payments
    const b = only === "a" ? undefined : runCommand(file, payments)
    results.push({ orders, a, ...(b === undefined ? {} : { b }) })
    console.log(`million: ${orders} orders (load average ${load} → ${loadavg()[0]!.toFixed(1)}), ${payments} payments`)
    const line = (name: string, run: Run | undefined) => {
      if (run === undefined) return
      console.log(
        `  ${name}: ${run.cpu.toFixed(1)} s CPU (${run.wall.toFixed(1)} s wall), max RSS ${mb(run.maxRss)}, ${ns(run).toFixed(0)} ns CPU per payment${run.extra === undefined ? "" : `; ${run.extra}`}`
      )
    }
    line("(a) Projection.stream + CashFlow", a)
    line("(b) tppkit project --format json > /dev/null", b)
    rmSync(file, { force: true })
  }
  const [small, large] = [results[0], results[results.length - 1]]
  if (small !== undefined && large !== undefined && small !== large) {
    for (const key of ["a", "b"] as const) {
      const s = small[key]
      const l = large[key]
      if (s === undefined || l === undefined) continue
      console.log(
        `  ${key === "a" ? "(a)" : "(b)"} CPU per payment ${large.orders} ÷ ${small.orders} orders: ${(ns(l) / ns(s)).toFixed(2)}× (target ≤ 1.3×); max RSS ${mb(l.maxRss)} (target ≤ 1536 MB)`
      )
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
