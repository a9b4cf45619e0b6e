/**
 * What the benchmarks share: a seeded generator, the measuring of a run (CPU time of a call, the median, the load
 * average), the workloads an environment variable selects, the sides of a before/after comparison in one process (this checkout's sources against another's), runs
 * alternating side by side, and the seeded orders file of test/cli/fixtures/generate-orders.ts.
 */
import { spawnSync } from "node:child_process"
import { closeSync, openSync } from "node:fs"
import { loadavg } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

/** This checkout's root. */
export const root = join(fileURLToPath(import.meta.url), "..", "..")

/** mulberry32: a small seeded generator of numbers in [0, 1), so that every run and every process sees the same inputs. */
export const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
}

const gc = (globalThis as { gc?: () => void }).gc

/** The CPU milliseconds (user and system) `f` takes, after a collection when the process has `gc`. */
export const cpu = (f: () => void): number => {
  gc?.()
  const t0 = process.cpuUsage()
  f()
  const used = process.cpuUsage(t0)
  return (used.user + used.system) / 1000
}

/** The median: the middle one of an odd count, the mean of the two middle ones of an even count; NaN of none. */
export const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length === 0 ? Number.NaN : s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** The upper median: the middle one of an odd count, the higher of the two middle ones of an even count; NaN of none. */
export const upperMedian = (xs: ReadonlyArray<number>): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN

/** The load averages (1, 5 and 15 minutes), `digits` decimals each. */
export const load = (digits = 2): string =>
  loadavg()
    .map((x) => x.toFixed(digits))
    .join(" ")

/**
 * Whether a workload is one the environment variable `variable` names (`W1,W5`, any case); every workload when it
 * is not set.
 */
export const selectedBy = (variable: string): ((id: string) => boolean) => {
  const only = process.env[variable]?.split(",").map((w) => w.trim().toUpperCase())
  return (id) => only === undefined || only.includes(id)
}

/**
 * The checkout a before/after bench compares this one with: the path in the environment variable `variable` (a
 * set-up checkout), or this checkout itself, to show the noise.
 */
export const beforeCheckout = (variable: string): string => process.env[variable] ?? root

/** A module of a checkout's sources by its path there (`packages/core/src/index.ts`), for one side of a comparison. */
export const importFrom = (checkout: string, path: string): Promise<unknown> =>
  import(pathToFileURL(join(checkout, path)).href)

/**
 * `runs` rounds of `f` on each side in turn (before, after, before, after, …): the CPU time of each call, one list
 * per side.
 */
export const alternating = <Side>(
  runs: number,
  sides: ReadonlyArray<Side>,
  f: (side: Side, index: number) => void
): Array<Array<number>> => {
  const times = sides.map((): Array<number> => [])
  for (let run = 0; run < runs; run++) {
    sides.forEach((side, s) => {
      times[s]!.push(cpu(() => f(side, s)))
    })
  }
  return times
}

/**
 * Writes a standing-order list body of `count` orders with test/cli/fixtures/generate-orders.ts (seeded: the seven
 * codes equally often, two debtors, three creditors, starts 2024–2026), its output going straight to the file.
 */
export const writeGeneratedOrders = (file: string, count: number): void => {
  const fd = openSync(file, "w")
  try {
    const r = spawnSync(process.execPath, [join(root, "test/cli/fixtures/generate-orders.ts"), String(count)], {
      stdio: ["ignore", fd, "inherit"]
    })
    if (r.status !== 0) throw new Error(`generate-orders.ts exited with ${r.status}`)
  } finally {
    closeSync(fd)
  }
}
