/**
 * The bundled command as scripts/bundle-cli.ts makes it (into a folder of this test's own, from the packages'
 * dist/): help answered from the rendered table with the text the sources render (test/cli/helpTable checks that is
 * what the command prints) and without loading the command line, and the holiday library read only for a country's calendar. Each run records the modules Node
 * resolved (a resolve hook loaded with `--import`).
 */
import { execFile } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Cli } from "@tppkit/cli"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { make, paths, type Table } from "../../packages/cli/src/internal/helpTable.ts"
import { tppkit } from "../e2e/harness.ts"

const root = join(import.meta.dirname, "..", "..")
const orders = join(root, "examples", "orders.json")
let work = ""
let bundle = ""
let table: Table = {}

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
  /** The bundle's files that Node loaded, by name. */
  readonly loaded: ReadonlyArray<string>
}

const exec = (file: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(file, [...args], { cwd: root, env, timeout: 240_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    )
  })

let runs = 0
/** Runs the bundle's bin.js with `args`, recording which of the bundle's files Node loaded. */
const bundled = async (args: ReadonlyArray<string>, extra: Record<string, string> = {}): Promise<Run> => {
  const record = join(work, `loaded-${runs++}.json`)
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined, ...extra }
  env.RECORD_FILE = record
  env.NODE_COMPILE_CACHE = join(work, "compile-cache")
  const r = await exec(process.execPath, ["--import", join(work, "record.mjs"), join(bundle, "bin.js"), ...args], env)
  const urls = JSON.parse(readFileSync(record, "utf8")) as Array<string>
  const loaded = urls.filter((u) => u.startsWith(`file://${bundle}/`)).map((u) => basename(u))
  return { ...r, loaded }
}

beforeAll(async () => {
  table = await Effect.runPromise(Effect.provide(make, NodeServices.layer))
  work = mkdtempSync(join(tmpdir(), "tppkit-bundle-"))
  bundle = join(work, "bundle")
  writeFileSync(
    join(work, "record.mjs"),
    [
      'import { registerHooks } from "node:module"',
      'import { writeFileSync } from "node:fs"',
      "const seen = []",
      "registerHooks({ resolve: (s, c, next) => { const r = next(s, c); seen.push(r.url); return r } })",
      'process.on("exit", () => writeFileSync(process.env.RECORD_FILE, JSON.stringify(seen)))'
    ].join("\n")
  )
  // the packages' dist/ as the sources are now (a no-op when they are built), then the bundle
  const built = await exec(join(root, "node_modules", ".bin", "tsc"), ["-b", join(root, "packages", "cli")])
  if (built.code !== 0) throw new Error(`tsc -b failed:\n${built.stdout}${built.stderr}`)
  const made = await exec(process.execPath, [join(root, "scripts", "bundle-cli.ts"), bundle])
  if (made.code !== 0) throw new Error(`bundle-cli.ts failed:\n${made.stdout}${made.stderr}`)
}, 240_000)

afterAll(() => {
  if (work !== "") rmSync(work, { recursive: true, force: true })
})

describe("the bundled command", { timeout: 120_000 }, () => {
  it("has the help table and the holiday library next to its chunks", () => {
    const files = readdirSync(bundle)
    expect(files).toContain("help.json")
    expect(files).toContain("date-holidays.cjs")
  })

  for (const path of paths(Cli.command)) {
    const name = ["tppkit", ...path].join(" ")
    it(`${name} --help: the command's own text, from the table, loading no command line`, async () => {
      // the sources' rendering (test/cli/helpTable checks it is what the command prints, plain and coloured)
      const source = table[path.join(" ")]!
      const plain = await bundled([...path, "--help"])
      expect(plain.code).toBe(0)
      expect(plain.stdout).toBe(source.plain)
      expect(plain.stderr).toBe("")
      // bin.js and what it shares with --version, nothing of effect or the command tree
      expect(plain.loaded.filter((f) => !/^(bin|Version|stdout|quickHelp|Style)[-.]/.test(f))).toEqual([])
      // an empty NO_COLOR counts as unset (no-color.org)
      const colour = { NO_COLOR: "", FORCE_COLOR: "1" }
      const coloured = await bundled(["help", ...path], colour)
      expect(coloured.stdout).toBe(source.ansi)
      expect(coloured.stdout).toContain("\u001b[1m")
    })
  }

  it("a command line the table does not answer takes the usual way, as the sources do", async () => {
    for (const args of [["projekt", "--help"], ["projekt"], ["project", "--fromm", "2027-01-01"]]) {
      const r = await bundled(args)
      const source = await tppkit(args)
      expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({
        code: source.code,
        stdout: source.stdout,
        stderr: source.stderr
      })
      expect(r.loaded.some((f) => f.startsWith("start-"))).toBe(true)
    }
  })

  const project = ["project", "--orders", orders, "--from", "2027-01-01", "--to", "2027-03-31"]
  it("project on TARGET and EUR under --calendar auto never reads the holiday library", async () => {
    for (const args of [project, [...project, "--calendar", "auto"]]) {
      const r = await bundled(args)
      expect(r.code).toBe(0)
      expect(r.stdout).toBe((await tppkit(args)).stdout)
      expect(r.loaded).toContain("bin.js")
      expect(r.loaded).not.toContain("date-holidays.cjs")
    }
  })

  it("project on a country's calendar reads it and prints what the sources print", async () => {
    const args = [...project, "--calendar", "SK", "--format", "csv"]
    const r = await bundled(args)
    expect(r.code).toBe(0)
    expect(r.loaded).toContain("date-holidays.cjs")
    expect(r.stdout).toBe((await tppkit(args)).stdout)
  })
})
