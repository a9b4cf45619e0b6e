/**
 * The heap bound of a worker process (internal/heap.ts): the settings from the environment, and in a fresh Node
 * process (V8's flags are the process's own) a young generation held at its bound (one doubling past it at most)
 * under an allocation rate that grows V8's own to its largest.
 */
import { execFileSync } from "node:child_process"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import * as Heap from "../../packages/cli/src/internal/heap.ts"

const root = join(import.meta.dirname, "..", "..")

/** Runs `body` in a fresh Node after `Heap.bound(settings)` (none: V8's own sizing); its last line as JSON. */
const inFreshNode = (settings: Heap.Settings | undefined, body: string): Record<string, number> => {
  const script = `
    import * as v8 from "node:v8"
    import * as Heap from ${JSON.stringify(join(root, "packages/cli/src/internal/heap.ts"))}
    ${settings === undefined ? "" : `Heap.bound(${JSON.stringify(settings)})`}
    const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? 0
    ${body}
  `
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" })
  return JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as Record<string, number>
}

/** Short-lived objects in bursts with a turn of the event loop between (as a worker allocates): the largest young generation. */
const churn = `
  let largest = 0
  const keep = new Array(20000)
  let k = 0
  for (let round = 0; round < 150; round++) {
    for (let i = 0; i < 20000; i++) {
      const o = { a: i, b: [i, round], c: "x" + i }
      if (i % 20 === 0) keep[k++ % keep.length] = o
    }
    await new Promise((resolve) => setImmediate(resolve))
    largest = Math.max(largest, newSpace())
  }
  console.log(JSON.stringify({ largest }))
`

describe("Heap", () => {
  it("reads its settings from the environment: whole numbers, 0 leaves V8's own, anything else the default", () => {
    assert.deepStrictEqual(Heap.fromEnv({}), Heap.defaults)
    assert.deepStrictEqual(Heap.fromEnv({ TPPKIT_WORKER_YOUNG_MB: "0", TPPKIT_WORKER_OLD_GROWTH_PERCENT: "0" }), {
      youngMegabytes: 0,
      oldGrowthPercent: 0
    })
    assert.deepStrictEqual(Heap.fromEnv({ TPPKIT_WORKER_YOUNG_MB: "32", TPPKIT_WORKER_OLD_GROWTH_PERCENT: "1.5" }), {
      youngMegabytes: 32,
      oldGrowthPercent: Heap.defaults.oldGrowthPercent
    })
    assert.deepStrictEqual(Heap.fromEnv({ TPPKIT_WORKER_YOUNG_MB: "-1" }), Heap.defaults)
  })

  it("keeps the young generation within its bound where V8 alone lets it grow further", () => {
    const mb = 1024 * 1024
    const own = inFreshNode(undefined, churn).largest ?? 0
    const bounded = inFreshNode(Heap.defaults, churn).largest ?? 0
    // V8 tells of a collection after it: one doubling past the bound may come before the next is held back
    assert.isAbove(own, 2 * Heap.defaults.youngMegabytes * mb, "V8's own young generation outgrows the bound here")
    assert.isAtMost(bounded, 2 * Heap.defaults.youngMegabytes * mb)
    assert.isAbove(bounded, 0)
  })
})
