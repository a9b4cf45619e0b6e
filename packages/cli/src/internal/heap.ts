/**
 * The heap of a `tppkit worker` process, kept small by the worker itself (BENCHMARKS.md, "Memory of a worker").
 * A worker allocates mostly short-lived objects per payment (effect's fibers and contexts in the cluster's message
 * path, SQL rows, JSON); V8 lets its young generation grow to 128 MB for them and its old generation to about
 * four times what is live before it collects, so a worker of a 10,000-payment day held 520-650 MB for 110-220 MB
 * of live objects (355-393 MB with these bounds, at the same throughput). Node takes heap sizes only as command-line flags, which a worker started as `tppkit worker`
 * cannot be given, but V8 reads two growth settings each time it grows a space: the young generation stops
 * doubling once it reaches the bound, and the old generation is let grow by a set share of what is live after
 * each full collection. Both are V8 flags set with `node:v8`'s `setFlagsFromString`, our own code (no library
 * does this).
 *
 * @since 0.1.0
 */
import { PerformanceObserver } from "node:perf_hooks"
import * as v8 from "node:v8"
import * as vm from "node:vm"

/** The settings: the young generation's most MB (0: V8's own sizing) and the old generation's growth, percent. */
export interface Settings {
  readonly youngMegabytes: number
  readonly oldGrowthPercent: number
}

/** The defaults, chosen by measurement (BENCHMARKS.md, "Memory of a worker"). */
export const defaults: Settings = { youngMegabytes: 16, oldGrowthPercent: 10 }

/**
 * The settings from `TPPKIT_WORKER_YOUNG_MB` and `TPPKIT_WORKER_OLD_GROWTH_PERCENT` (whole numbers; 0 leaves that
 * part to V8; anything else that is not a whole number is ignored and the default kept).
 */
export const fromEnv = (env: Readonly<Record<string, string | undefined>>): Settings => {
  const read = (name: string, fallback: number) => {
    const text = env[name]
    const n = text === undefined ? Number.NaN : Number(text)
    return Number.isInteger(n) && n >= 0 ? n : fallback
  }
  return {
    youngMegabytes: read("TPPKIT_WORKER_YOUNG_MB", defaults.youngMegabytes),
    oldGrowthPercent: read("TPPKIT_WORKER_OLD_GROWTH_PERCENT", defaults.oldGrowthPercent)
  }
}

/** The young generation's size now, bytes. */
const youngBytes = (): number => v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? 0

/**
 * Applies the settings to this process; called before the worker loads its modules. After each collection the young
 * generation may double (V8's way) only while twice its size fits the bound. V8 tells of its collections after
 * they happen, and not at all during a long stretch of work that never yields (loading modules, planning a day), in
 * which it may grow the young generation several times over: one that is found past the bound is shrunk by a full
 * collection that gives memory back (V8's "last resort" collection, through the `gc` function that V8 puts into a new
 * context once garbage collection is exposed; tens of milliseconds, at most once every few seconds).
 */
export const bound = (settings: Settings): void => {
  if (settings.oldGrowthPercent > 0) v8.setFlagsFromString(`--heap-growing-percent=${settings.oldGrowthPercent}`)
  if (settings.youngMegabytes <= 0) return
  const limit = settings.youngMegabytes * 1024 * 1024
  let factor = 0
  let shrunkAt = Number.NEGATIVE_INFINITY
  let gc: ((options: object) => void) | undefined
  const grow = (next: number) => {
    if (next !== factor) {
      v8.setFlagsFromString(`--semi-space-growth-factor=${next}`)
      factor = next
    }
  }
  const adjust = () => {
    if (youngBytes() > limit && performance.now() - shrunkAt > 5000) {
      grow(1)
      shrunkAt = performance.now()
      if (gc === undefined) {
        v8.setFlagsFromString("--expose-gc")
        gc = vm.runInNewContext("gc") as (options: object) => void
      }
      gc({ type: "major", execution: "sync", flavor: "last-resort" })
    }
    grow(youngBytes() * 2 <= limit ? 2 : 1)
  }
  adjust()
  new PerformanceObserver(adjust).observe({ entryTypes: ["gc"] })
}
