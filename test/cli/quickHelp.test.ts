/**
 * The executable's fast path for help (internal/quickHelp.ts): which command lines it answers from the table,
 * which it leaves to the command, and the colour it picks.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import * as QuickHelp from "../../packages/cli/src/internal/quickHelp.ts"

const dir = mkdtempSync(join(tmpdir(), "tppkit-quickhelp-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const table = pathToFileURL(join(dir, QuickHelp.FILE))
writeFileSync(
  table,
  JSON.stringify({
    "": { plain: "root\n", ansi: "\u001b[1mroot\u001b[22m\n" },
    "db start": { plain: "db start\n", ansi: "\u001b[1mdb start\u001b[22m\n" }
  })
)

describe("QuickHelp.helpPath", () => {
  it("answers --help or -h last, and help first, with the command path", () => {
    expect(QuickHelp.helpPath(["--help"])).toBe("")
    expect(QuickHelp.helpPath(["-h"])).toBe("")
    expect(QuickHelp.helpPath(["help"])).toBe("")
    expect(QuickHelp.helpPath(["db", "start", "--help"])).toBe("db start")
    expect(QuickHelp.helpPath(["help", "db", "start"])).toBe("db start")
    expect(QuickHelp.helpPath(["project", "-h"])).toBe("project")
  })
  it("leaves every other command line to the command", () => {
    for (const args of [
      [],
      ["project"],
      ["--version"],
      ["project", "--orders", "x", "--help"],
      ["project", "--help", "--verbose"],
      ["help", "--help"],
      ["help", "project", "--wizard"],
      ["--help", "project"],
      ["", "--help"]
    ]) {
      expect(QuickHelp.helpPath(args), JSON.stringify(args)).toBeUndefined()
    }
  })
})

describe("QuickHelp.lookup", () => {
  it("reads the text from the table, coloured as Style decides for stdout", () => {
    expect(QuickHelp.lookup(["--help"], table, {}, false)).toBe("root\n")
    expect(QuickHelp.lookup(["db", "start", "--help"], table, {}, true)).toBe("\u001b[1mdb start\u001b[22m\n")
    expect(QuickHelp.lookup(["help", "db", "start"], table, { NO_COLOR: "1" }, true)).toBe("db start\n")
    expect(QuickHelp.lookup(["help"], table, { FORCE_COLOR: "1" }, false)).toBe("\u001b[1mroot\u001b[22m\n")
  })
  it("answers nothing for a command the table lacks, a missing or broken table, or another command line", () => {
    expect(QuickHelp.lookup(["projekt", "--help"], table, {}, false)).toBeUndefined()
    expect(QuickHelp.lookup(["constructor", "--help"], table, {}, false)).toBeUndefined()
    expect(QuickHelp.lookup(["--help"], pathToFileURL(join(dir, "missing.json")), {}, false)).toBeUndefined()
    const broken = pathToFileURL(join(dir, "broken.json"))
    writeFileSync(broken, "{")
    expect(QuickHelp.lookup(["--help"], broken, {}, false)).toBeUndefined()
    expect(QuickHelp.lookup(["db", "start"], table, {}, false)).toBeUndefined()
  })
})
