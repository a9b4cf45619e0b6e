/**
 * Every package README carries a runnable example: the fenced ```ts block of packages/<pkg>/README.md is,
 * verbatim, the file examples/<pkg>.ts, which `tsc -b` type-checks (test/tsconfig.json) and this test runs.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const root = join(import.meta.dirname, "..")
const packages = ["core", "http", "schedule", "sandbox", "cli"] as const

const fencedBlocks = (markdown: string): Array<string> =>
  [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => (m[1] ?? "").trim())

describe("package README examples", () => {
  for (const pkg of packages) {
    const example = join(root, "examples", `${pkg}.ts`)
    it.runIf(existsSync(example))(`${pkg}: README shows examples/${pkg}.ts verbatim and it runs`, async () => {
      const readme = readFileSync(join(root, "packages", pkg, "README.md"), "utf8")
      const code = readFileSync(example, "utf8").trim()
      expect(fencedBlocks(readme)).toContain(code)
      await import(example)
    })
  }
})
