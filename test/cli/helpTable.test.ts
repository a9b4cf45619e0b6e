/**
 * The help table the build renders for the executable's fast path (internal/helpTable.ts): each command's text
 * is exactly what the command prints for `--help`, without colour and with it.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Cli, Style } from "@tppkit/cli"
import { Effect } from "effect"
import { afterEach, beforeAll, describe, expect, it } from "vitest"
import * as HelpTable from "../../packages/cli/src/internal/helpTable.ts"
import { run } from "./inProcess.ts"

let table: HelpTable.Table = {}
beforeAll(async () => {
  table = await Effect.runPromise(Effect.provide(HelpTable.make, NodeServices.layer))
})

const saved = { NO_COLOR: process.env.NO_COLOR, FORCE_COLOR: process.env.FORCE_COLOR }
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
})

describe("HelpTable.make", { timeout: 60_000 }, () => {
  it("has every command path of the tree, and nothing else", () => {
    expect(Object.keys(table).sort()).toEqual(
      HelpTable.paths(Cli.command)
        .map((p) => p.join(" "))
        .sort()
    )
    expect(Object.keys(table)).toContain("db start")
  })

  for (const path of HelpTable.paths(Cli.command)) {
    const name = ["tppkit", ...path].join(" ")
    it(`${name} --help: the text the command prints, plain in a pipe and coloured on a terminal`, async () => {
      const text = table[path.join(" ")]!
      const piped = await run([...path, "--help"])
      expect(piped.code).toBe(0)
      expect(text.plain).toBe(piped.stdout)
      delete process.env.NO_COLOR
      process.env.FORCE_COLOR = "1" // whatever TERM says
      const terminal = await run([...path, "--help"], { stdoutIsTerminal: true })
      expect(text.ansi).toBe(terminal.stdout)
      expect(text.ansi).not.toBe(text.plain)
      expect(Style.strip(text.ansi)).toBe(text.plain)
    })
  }
})
