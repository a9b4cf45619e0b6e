/**
 * Start-up of the command (issue 27): whole processes timed side by side with `npm --version` as the
 * yardstick, in one run, so that the machine's load weighs on all of them alike. Each round runs every command
 * once, in turn (one warm-up round first, not counted); the report gives each command's median wall time over
 * the rounds, its ratio to npm's median, the target ratio and the load average before and after, and each
 * command's mean CPU time (user + system) and its ratio to npm's, which a busy machine disturbs less.
 *
 * The commands are the ones a person types after `bash scripts/setup.sh`: `./tppkit --version`, `--help`,
 * `project` of examples/orders.json over a quarter, and `balance-check` against a mock bank started in this
 * process on loopback. Run alone with `pnpm exec node --conditions=@tppkit/source bench/startup.ts`; also run by
 * `pnpm bench`. Environment: `BENCH_STARTUP_RUNS` (rounds, default 15), `BENCH_STARTUP_NPM` (the yardstick's
 * executable, default `npm` on PATH), `BENCH_CLI_ROOT` (the checkout whose `./tppkit` runs, default this one),
 * `BENCH_CLI_BEFORE` (another checkout, or a folder holding `tppkit`, `packages/cli/bin`, `packages/cli/dist` and a
 * `node_modules` link, whose `./tppkit` runs the same commands in the same rounds: before and after in one run).
 */
import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Sandbox } from "@tppkit/sandbox"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { load, median } from "./support.ts"

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 15)
const NPM = process.env.BENCH_STARTUP_NPM ?? "npm"
const root = join(import.meta.dirname, "..")
const cliRoot = process.env.BENCH_CLI_ROOT ?? root
const beforeRoot = process.env.BENCH_CLI_BEFORE

interface Case {
  readonly name: string
  readonly cwd: string
  readonly command: string
  readonly args: ReadonlyArray<string>
  /** The most this case may take, as a multiple of `npm --version`'s median (undefined for the yardstick). */
  readonly target?: number
}

/** Runs one process to its end, output discarded; resolves with its wall time in seconds. */
const time = (c: Case, env: NodeJS.ProcessEnv): Promise<number> =>
  new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(c.command, c.args, { cwd: c.cwd, env, stdio: ["ignore", "ignore", "pipe"] })
    let stderr = ""
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d
    })
    child.on("error", reject)
    child.on("close", (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e9
      if (code !== 0) return reject(new Error(`${c.name} exited ${code}: ${stderr.slice(-500)}`))
      resolve(wall)
    })
  })

/**
 * CPU seconds (user + system) of this process's waited-for children so far, from /proc/self/stat (cutime, cstime,
 * in USER_HZ = 100 ticks a second), or undefined where there is no /proc. Less at the mercy of a busy machine than
 * wall time: read around each run, summed per command, as a mean.
 */
const childrenCpu = (): number | undefined => {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[13]) + Number(fields[14])) / 100
  } catch {
    return undefined
  }
}

if (!existsSync(join(cliRoot, "packages/cli/dist/bundle/bin.js"))) {
  console.log(`\nstartup: skipped, ${cliRoot} has no built command (run bash scripts/setup.sh)`)
} else {
  const scope = await Effect.runPromise(Scope.make())
  try {
    const context = await Effect.runPromise(Layer.buildWithScope(Sandbox.layer(), scope))
    const bank = Context.get(context, Sandbox.SandboxInfo)
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" }
    for (const key of Object.keys(env)) if (key.startsWith("TPPKIT_")) delete env[key]
    Object.assign(env, {
      TPPKIT_BASE_URL: bank.baseUrl,
      TPPKIT_CLIENT_ID: bank.clientId,
      TPPKIT_CLIENT_SECRET: "sandbox-secret",
      TPPKIT_BUDGET_FILE: "memory"
    })
    const orders = join(root, "examples", "orders.json")
    const tppkitCases = (checkout: string, label: string): ReadonlyArray<Case> => {
      const tppkit = join(checkout, "tppkit")
      return [
        { name: `tppkit --version${label}`, cwd: checkout, command: tppkit, args: ["--version"], target: 1 },
        { name: `tppkit --help${label}`, cwd: checkout, command: tppkit, args: ["--help"], target: 1 },
        {
          name: `tppkit project (examples/orders.json, a quarter)${label}`,
          cwd: checkout,
          command: tppkit,
          args: ["project", "--orders", orders, "--from", "2027-01-01", "--to", "2027-03-31"],
          target: 2
        },
        {
          name: `tppkit balance-check (mock bank)${label}`,
          cwd: checkout,
          command: tppkit,
          args: ["balance-check", "--iban", bank.accounts[0]!.iban, "--amount", "100.00", "--currency", "EUR"],
          target: 3
        }
      ]
    }
    const cases: ReadonlyArray<Case> = [
      { name: "npm --version", cwd: cliRoot, command: NPM, args: ["--version"] },
      ...tppkitCases(cliRoot, ""),
      ...(beforeRoot === undefined ? [] : tppkitCases(beforeRoot, " [before]"))
    ]
    const loadBefore = load(1)
    const walls = cases.map((): Array<number> => [])
    const cpus = cases.map(() => 0)
    for (let round = 0; round <= RUNS; round++) {
      for (const [i, c] of cases.entries()) {
        const cpuBefore = childrenCpu()
        const wall = await time(c, env)
        const cpuAfter = childrenCpu()
        if (round === 0) continue // round 0 warms caches up
        walls[i]!.push(wall)
        if (cpuBefore !== undefined && cpuAfter !== undefined) cpus[i]! += cpuAfter - cpuBefore
      }
    }
    const npmCpu = cpus[0]! / RUNS
    const npm = median(walls[0]!)
    const compared = beforeRoot === undefined ? "" : `, [before] ${beforeRoot}`
    console.log(
      `\nstartup (${cliRoot}${compared}): whole processes, median of ${RUNS} rounds; load before ${loadBefore}`
    )
    for (const [i, c] of cases.entries()) {
      const m = median(walls[i]!)
      const ratio = m / npm
      const verdict =
        c.target === undefined ? "yardstick" : `target ≤ ${c.target}×: ${ratio <= c.target ? "met" : "NOT met"}`
      const cpu = cpus[i]! / RUNS
      const cpuText = npmCpu > 0 ? `  CPU ${(cpu * 1000).toFixed(0)} ms ${(cpu / npmCpu).toFixed(2)}×` : ""
      console.log(
        `  ${c.name.padEnd(59)} ${(m * 1000).toFixed(0).padStart(5)} ms  ${ratio.toFixed(2)}×  (min ${(Math.min(...walls[i]!) * 1000).toFixed(0)} ms)${cpuText}  ${verdict}`
      )
    }
    console.log(`  load after ${load(1)}`)
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}
