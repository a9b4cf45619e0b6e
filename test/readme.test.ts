/**
 * Every code block of every README and doc works as shown. A ```ts block is, verbatim, one file of examples/,
 * which `tsc -b` type-checks (test/tsconfig.json) and this test runs; a ```json block parses (the mock bank's
 * fixture document decodes as fixtures); a ```sh block is valid bash (a usage synopsis is ```text), and the files it names exist. .ci/run ends
 * with the README's test command, verbatim.
 */
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Fixtures } from "@tppkit/sandbox"
import { Result } from "effect"
import { describe, expect, it } from "vitest"

const root = join(import.meta.dirname, "..")
const read = (path: string) => readFileSync(join(root, path), "utf8")

const documents = [
  "README.md",
  "DEVELOPERS.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
  ...readdirSync(join(root, "packages"))
    .filter((p) => existsSync(join(root, "packages", p, "README.md")))
    .map((p) => `packages/${p}/README.md`)
]

interface Block {
  readonly document: string
  readonly lang: string
  readonly code: string
}

const blocks: Array<Block> = documents.flatMap((document) =>
  [...read(document).matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)].map((m) => ({
    document,
    lang: m[1] ?? "",
    code: (m[2] ?? "").trim()
  }))
)

const examples = readdirSync(join(root, "examples"))
  .filter((f) => f.endsWith(".ts"))
  .map((f) => ({ file: `examples/${f}`, code: read(`examples/${f}`).trim() }))

describe("README code blocks", () => {
  it("every code block is ts, json or sh, so that it is checked (text and untagged blocks are prose)", () => {
    for (const block of blocks) {
      expect(["ts", "json", "sh", "text", ""], `${block.document}: ${block.code.slice(0, 60)}`).toContain(block.lang)
    }
  })

  const tsBlocks = blocks.filter((b) => b.lang === "ts")
  it("every ts block is an examples/ file verbatim (type-checked by tsc -b), and every example is shown", () => {
    for (const block of tsBlocks) {
      expect(
        examples.some((e) => e.code === block.code),
        `${block.document}: a ts block that is no examples/ file: ${block.code.slice(0, 80)}`
      ).toBe(true)
    }
    for (const example of examples) {
      expect(
        tsBlocks.some((b) => b.code === example.code),
        `${example.file} is shown in no README`
      ).toBe(true)
    }
  })

  for (const example of examples) {
    it(`${example.file} runs`, async () => {
      await import(join(root, example.file))
    })
  }

  it("every json block parses, and the mock bank's fixture document decodes", () => {
    for (const block of blocks.filter((b) => b.lang === "json")) {
      const value: unknown = JSON.parse(block.code)
      if (typeof value === "object" && value !== null && "accounts" in value && "clients" in value) {
        expect(Result.isSuccess(Fixtures.decode(value)), `${block.document}: fixtures`).toBe(true)
      }
    }
  })

  it("every sh block is valid bash, and the repository files it names exist", () => {
    for (const block of blocks.filter((b) => b.lang === "sh")) {
      const syntax = spawnSync("bash", ["-n"], { input: block.code, encoding: "utf8" })
      expect(syntax.stderr, `${block.document}: ${block.code.slice(0, 60)}`).toBe("")
      for (const m of block.code.matchAll(/(?:^|\s)((?:examples|scripts|docs|packages|test|bench)\/[\w./-]+)/g)) {
        const path = m[1] ?? ""
        expect(existsSync(join(root, path)), `${block.document} names ${path}`).toBe(true)
      }
      // a file a command reads is one of the repository's (or stdin), so that the command runs as written
      for (const m of block.code.matchAll(/--(?:orders|balances|flows|checks|rule-from) (\S+)/g)) {
        const path = m[1] ?? ""
        expect(path === "-" || existsSync(join(root, path)), `${block.document} reads ${path}`).toBe(true)
      }
    }
  })

  it(".ci/run ends with the README's test command, verbatim", () => {
    const commands = blocks
      .filter((b) => b.document === "README.md" && b.lang === "sh")
      .flatMap((b) => b.code.split("\n"))
      .map((line) => line.replace(/\s+#.*$/, ""))
      .filter((line) => line.startsWith("bash scripts/setup.sh && "))
    const testCommand = commands.find((c) => c.endsWith(" test"))
    expect(testCommand).toBeDefined()
    const lines = read(".ci/run").trimEnd().split("\n")
    expect(lines.at(-1)).toBe(testCommand)
  })
})
