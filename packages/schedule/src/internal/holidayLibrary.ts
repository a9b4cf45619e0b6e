/**
 * The `date-holidays` library, loaded on first use rather than when `Holidays` is imported: it is some 1.4 MB of
 * code and data (every country's rules, moment-timezone), and most projections need none of it (`weekends`,
 * `target`, EUR under `--calendar auto`). Holidays' functions are synchronous, so the library is required
 * synchronously, by Node's `require` of its CommonJS build, found from this file as an import would find it.
 * Outside Node (no `process.getBuiltinModule`) there is no library: `Holidays` reports that as its usual failure.
 *
 * The bundled command (scripts/bundle-cli.ts) replaces the expression that makes `nodeRequire` by the bundler's own
 * `require`, so that the library is bundled yet evaluated only when a national calendar is first asked for.
 */
import type DateHolidays from "date-holidays"

/** The library's constructor. */
export type Library = typeof DateHolidays

type Require = (id: string) => unknown

const nodeRequire = (): Require | undefined =>
  globalThis.process?.getBuiltinModule?.("node:module")?.createRequire(import.meta.url)

let library: Library | undefined
let problem: string | undefined

/** The library, loaded once on the first call, or why it could not be loaded. */
export const load = (): { readonly library: Library } | { readonly problem: string } => {
  if (library === undefined && problem === undefined) {
    try {
      const requireOf = nodeRequire()
      if (requireOf === undefined) problem = "the holiday library (date-holidays) needs Node.js"
      else library = requireOf("date-holidays") as Library
    } catch (error) {
      problem = `the holiday library (date-holidays) could not be loaded: ${error instanceof Error ? error.message : String(error)}`
    }
  }
  return library !== undefined ? { library } : { problem: problem ?? "the holiday library could not be loaded" }
}
