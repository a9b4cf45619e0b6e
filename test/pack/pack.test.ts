/**
 * The packages as a user gets them: every workspace package is packed with `pnpm pack`, the tarballs are installed
 * with npm into a fresh project beside the effect version we support (one install, npm's cache reused), README
 * examples a user copies (examples/: a projection, a balance check against the mock bank through the client stack,
 * the funds checks as durable workflows) are type-checked there under `strict` and `exactOptionalPropertyTypes` and
 * run, and the installed `tppkit` command runs on the README's orders file, or says which Node it needs.
 * Needs the npm registry for effect and the other dependencies (answered from npm's cache when it can).
 */
import { execFile } from "node:child_process"
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync
} from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const root = join(import.meta.dirname, "..", "..")

/** The examples/ files the application copies as they are, and what each prints. */
const examples: ReadonlyArray<{ readonly file: string; readonly prints: ReadonlyArray<string> }> = [
  {
    file: "schedule.ts",
    prints: [
      "2026-01-05 SO-GYM 0.20 EUR",
      "2026-01-12 SO-GYM 0.20 EUR",
      "2026-01-19 SO-GYM 0.20 EUR",
      "2026-01-26 SO-GYM 0.20 EUR",
      "2026-01 0.80 EUR (4 payments)",
      "2026-02 650.90 EUR (5 payments)",
      "2026-03 1301.20 EUR (7 payments)",
      "2026-04 650.90 EUR (5 payments)",
      "2026-05 0.80 EUR (4 payments)",
      "2026-06 1301.20 EUR (7 payments)",
      "total 3905.80 EUR",
      "skipped 1 order(s)",
      "at risk: SO-RENT on 2026-06-01",
      "BEGIN:VEVENT",
      "UID:SO-GYM-20260105@tppkit",
      "DTSTAMP:20260105T000000Z",
      "DTSTART;VALUE=DATE:20260105"
    ]
  },
  { file: "http-production.ts", prints: ["APPR"] },
  { file: "worker.ts", prints: ["2026-02-27 SO-RENT 650.10 EUR DECL (1 attempt)"] }
]

interface Manifest {
  readonly name: string
  readonly private?: boolean
  readonly bin?: Record<string, string>
  readonly engines?: Record<string, string>
  readonly dependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
  readonly devDependencies?: Record<string, string>
}

const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))

const rootManifest = readManifest(root)
const packages = readdirSync(join(root, "packages"))
  .filter((dir) => existsSync(join(root, "packages", dir, "package.json")))
  .map((dir) => ({ dir, manifest: readManifest(join(root, "packages", dir)) }))
  .filter((p) => p.manifest.private !== true)

/** The exact version the workspace develops against: the package's own devDependency, else the root's. */
const pinned = (pkg: Manifest, name: string): string => {
  const version = pkg.devDependencies?.[name] ?? rootManifest.devDependencies?.[name]
  if (version === undefined) throw new Error(`${pkg.name}: peer ${name} has no pinned devDependency to test with`)
  return version
}

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** The environment without the npm_* settings pnpm passes to its children (they are not the user's npm config). */
const cleanEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("npm_")) env[key] = value
  // Node's compile cache (the bin switches it on) inside this test's folder, never in $TMPDIR
  return { ...env, ...(work === "" ? {} : { NODE_COMPILE_CACHE: join(work, "compile-cache") }), ...extra }
}

const run = (file: string, args: ReadonlyArray<string>, cwd: string, env = cleanEnv()): Promise<Run> =>
  new Promise((resolve) => {
    execFile(file, [...args], { cwd, env, maxBuffer: 16 * 1024 * 1024, timeout: 240_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
      // a command that could not start (npm missing: ENOENT) says so instead of an empty stderr
      resolve({ code, stdout, stderr: error !== null && stderr === "" ? `${file}: ${error.message}` : stderr })
    })
  })

const ok = (step: string, result: Run): Run => {
  if (result.code !== 0) throw new Error(`${step} failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`)
  return result
}

let work = ""
let app = ""

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "tppkit-pack-"))
  const tarballs = join(work, "tarballs")
  app = join(work, "app")
  mkdirSync(tarballs)
  mkdirSync(app)
  // The packages' dist/ as the sources are now (a no-op when the test command has just built them).
  const dirs = packages.map((p) => join("packages", p.dir))
  ok("build", await run(join(root, "node_modules", ".bin", "tsc"), ["-b", ...dirs], root))
  ok("bundle", await run(process.execPath, [join(root, "scripts", "bundle-cli.ts")], root))
  const pnpm = process.env.npm_execpath?.includes("pnpm") ? process.env.npm_execpath : undefined
  ok(
    "pnpm pack",
    pnpm?.endsWith(".cjs") || pnpm?.endsWith(".js")
      ? await run(process.execPath, [pnpm, "-r", "pack", "--pack-destination", tarballs], root)
      : await run(pnpm ?? "pnpm", ["-r", "pack", "--pack-destination", tarballs], root)
  )

  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }))
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "es2023",
        // "dom": effect's declarations of its crypto modules name the Web Crypto types (CryptoKey, JsonWebKey)
        lib: ["es2023", "dom"],
        module: "nodenext",
        moduleResolution: "nodenext",
        types: ["node"],
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: false,
        noEmit: true
      },
      files: examples.map((e) => e.file)
    })
  )
  for (const { file } of examples) copyFileSync(join(root, "examples", file), join(app, file))
  // one process runs them one after the other (effect and the packages loaded once; CI's time)
  writeFileSync(
    join(app, "examples.mjs"),
    examples.map(({ file }) => `await import(${JSON.stringify(`./${file}`)})\n`).join("")
  )
  copyFileSync(join(root, "examples", "orders.json"), join(app, "orders.json"))

  // One install: the tarballs, every peer at the version the workspace pins, and Node's types for tsc.
  const peers = new Map<string, string>()
  for (const { manifest } of packages) {
    for (const name of Object.keys(manifest.peerDependencies ?? {})) peers.set(name, pinned(manifest, name))
  }
  peers.set("@types/node", pinned(rootManifest, "@types/node"))
  const specs = [
    ...[...peers].map(([name, version]) => `${name}@${version}`),
    ...readdirSync(tarballs).map((f) => join(tarballs, f))
  ]
  ok(
    "npm install",
    await run(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error", ...specs],
      app
    )
  )
}, 240_000)

afterAll(() => {
  if (work !== "") rmSync(work, { recursive: true, force: true })
}, 120_000)

describe("packed packages in a fresh npm project", { timeout: 120_000 }, () => {
  it("every package was packed and installed, with dist, types, LICENSE, README and CHANGELOG", () => {
    for (const { dir, manifest } of packages) {
      const installed = join(app, "node_modules", ...manifest.name.split("/"))
      for (const file of ["package.json", "dist/index.js", "dist/index.d.ts", "LICENSE", "README.md", "CHANGELOG.md"]) {
        expect(existsSync(join(installed, file)), `${manifest.name}: ${file}`).toBe(true)
      }
      expect(existsSync(join(installed, "dist", ".tsbuildinfo")), `${manifest.name}: no build info`).toBe(false)
      expect(readFileSync(join(installed, "LICENSE"), "utf8")).toBe(readFileSync(join(root, "LICENSE"), "utf8"))
      const packed = readManifest(installed)
      expect(packed.engines?.node, `${manifest.name}: engines.node`).toBe(rootManifest.engines?.node)
      // workspace: versions are rewritten, and effect is a peer: the application's single copy
      expect(JSON.stringify(packed)).not.toContain("workspace:")
      expect(packed.dependencies?.effect, `${manifest.name}: effect is not a dependency`).toBeUndefined()
      expect(packed.peerDependencies?.effect, `${manifest.name}: effect peer`).toMatch(/^\^4\./)
      expect(existsSync(join(installed, "node_modules", "effect")), `${dir}: its own effect`).toBe(false)
    }
  })

  it("the examples type-check under strict and exactOptionalPropertyTypes", async () => {
    const result = await run(join(root, "node_modules", ".bin", "tsc"), ["-p", app], app)
    expect(result.stdout + result.stderr).toBe("")
    expect(result.code).toBe(0)
  })

  it("runs: a projection, a balance check against the mock bank, and the funds checks as workflows", async () => {
    const result = ok("the examples", await run(process.execPath, ["examples.mjs"], app))
    expect(result.stdout.split("\n")).toEqual([...examples.flatMap((e) => e.prints), ""])
  })

  it("the installed tppkit command projects the README's orders file", async () => {
    const bin = join(app, "node_modules", ".bin", "tppkit")
    const env = cleanEnv({ HOME: app, NO_COLOR: "1" })
    const version = ok("tppkit --version", await run(process.execPath, [bin, "--version"], app, env))
    expect(version.stdout).toMatch(/^tppkit v\d+\.\d+\.\d+/)
    const args = "project --orders orders.json --from 2027-01-01 --to 2027-01-31 --format json".split(" ")
    const projected = ok("tppkit project", await run(process.execPath, [bin, ...args], app, env))
    const dates = JSON.parse(projected.stdout).payments.map((p: { executionDate: string }) => p.executionDate)
    expect(dates).toEqual(["2027-01-04", "2027-01-11", "2027-01-18", "2027-01-25"])
  })

  it("on a Node older than 22.19, tppkit says in one line which Node it needs", async () => {
    // Node 20 as far as the bin can tell: the check must come before anything that needs a newer Node.
    const preload = join(work, "node-20.cjs")
    writeFileSync(
      preload,
      'Object.defineProperty(process, "versions", { value: { ...process.versions, node: "20.11.1" } })\n'
    )
    const bin = join(app, "node_modules", ".bin", "tppkit")
    const result = await run(process.execPath, ["--require", preload, bin, "--version"], app)
    expect(result.code).toBe(1)
    expect(result.stdout).toBe("")
    expect(result.stderr).toMatch(/^tppkit: needs Node\.js 22\.19 or newer; .+ is 20\.11\.1\n$/)
    const json = await run(process.execPath, ["--require", preload, bin, "project", "--format", "json"], app)
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stderr)).toEqual({
      error: { kind: "failure", message: expect.stringMatching(/^needs Node\.js 22\.19 or newer; /), exitCode: 1 }
    })
  })
})
