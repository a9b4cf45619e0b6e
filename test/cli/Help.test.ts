import { Cli, Help, Output } from "@tppkit/cli"
import { Context, Option } from "effect"
import { CliOutput } from "effect/cli"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { paths } from "../../packages/cli/src/internal/helpTable.ts"
import { tppkit } from "../e2e/harness.ts"
import { run } from "./inProcess.ts"

/** Every command path of the command line, the root's ([]) included, read from the command tree itself. */
const commands = paths(Cli.command)

const section = (text: string, title: string): ReadonlyArray<string> => {
  const lines = text.split("\n")
  const start = lines.indexOf(title)
  if (start < 0) return []
  const end = lines.findIndex((l, i) => i > start && /^[A-Z][A-Z ]*$/.test(l))
  return lines.slice(start + 1, end < 0 ? undefined : end)
}

describe("Help.wrap", () => {
  it("keeps every line within the width and never breaks a word (property)", () => {
    const word = fc.stringMatching(/^[a-z0-9,.()-]{1,20}$/)
    fc.assert(
      fc.property(fc.array(word, { maxLength: 60 }), fc.integer({ min: 20, max: 100 }), (words, width) => {
        const lines = Help.wrap(words.join(" "), width)
        for (const line of lines) expect(line.length).toBeLessThanOrEqual(width)
        expect(
          lines
            .join(" ")
            .split(" ")
            .filter((w) => w !== "")
        ).toEqual(words)
      })
    )
  })
})

describe("every command's --help", { timeout: 60_000 }, () => {
  it("covers every command of the tree", () => {
    expect(commands.map((p) => p.join(" "))).toEqual(
      expect.arrayContaining(["", "project", "balance-check", "standing-orders", "db start", "worker status"])
    )
  })

  for (const path of commands) {
    const name = ["tppkit", ...path].join(" ")
    it(`${name}: 80 columns, own flags before global ones, required flags marked, one or two examples last`, async () => {
      const r = await run([...path, "--help"])
      expect(r.code).toBe(0)
      expect(r.stderr).toBe("")
      const lines = r.stdout.trimEnd().split("\n")
      for (const line of lines) expect(CliOutput.displayWidth(line), line).toBeLessThanOrEqual(Help.WIDTH)
      const titles = lines.filter((l) => /^[A-Z][A-Z ]*$/.test(l))
      if (titles.includes("FLAGS")) expect(titles.indexOf("FLAGS")).toBeLessThan(titles.indexOf("GLOBAL FLAGS"))
      expect(titles.at(-1)).toBe("EXAMPLES")
      const examples = section(r.stdout, "EXAMPLES").filter((l) => l.startsWith("  tppkit "))
      expect(examples.length).toBeGreaterThanOrEqual(1)
      expect(examples.length).toBeLessThanOrEqual(2)
      // and `tppkit help <command>` prints the same
      const viaHelp = await run(["help", ...path])
      expect(viaHelp).toEqual(r)
    })
  }

  it("the rule flags are one set on the commands that project (issue 40)", async () => {
    const rule = ["--calendar", "--holidays", "--convention"]
    const flagsOf = async (path: ReadonlyArray<string>) =>
      section((await run([...path, "--help"])).stdout, "FLAGS")
        .map((l) => l.trim().split(" ")[0]!)
        .filter((f) => f.startsWith("--"))
    // commands that read an orders file: the rule and --standard
    for (const path of [["project"], ["forecast"], ["explain"], ["reconcile"], ["worker", "status"]]) {
      expect(await flagsOf(path), path.join(" ")).toEqual(expect.arrayContaining([...rule, "--standard"]))
    }
    // the worker's plan: the rule, and the standard its bank's records are read in (the profile's by default)
    expect(await flagsOf(["worker"])).toEqual(expect.arrayContaining([...rule, "--standard"]))
    // translate: the rule a translation is judged on (its calendar names the built-in ones only)
    expect(await flagsOf(["translate"])).toEqual(expect.arrayContaining([...rule, "--standard"]))
    // the bank's listing, reconciled with --reconcile: the rule, and the standard its records are read in
    expect(await flagsOf(["standing-orders"])).toEqual(expect.arrayContaining([...rule, "--standard"]))
    // the same help text for a flag wherever it is given a default of its own or not
    const holidays = async (path: ReadonlyArray<string>) =>
      section((await run([...path, "--help"])).stdout, "FLAGS")
        .find((l) => l.trim().startsWith("--holidays"))
        ?.replace(/\s+/g, " ")
    expect(await holidays(["forecast"])).toBe(await holidays(["project"]))
    expect(await holidays(["translate"])).toBe(await holidays(["project"]))
    expect(await holidays(["worker"])).toBe(await holidays(["project"]))
    expect(await holidays(["standing-orders"])).toBe(await holidays(["reconcile"]))
  })
  it("marks project's --orders, --from and --to as required, and no optional flag", async () => {
    const entries = section((await run(["project", "--help"])).stdout, "FLAGS")
      .join("\n")
      .split(/\n(?= {2}--)/)
    const required = entries.filter((e) => e.endsWith("(required)")).map((e) => e.trim().split(" ")[0])
    expect(required).toEqual(["--orders", "--from", "--to"])
  })

  it("renders a flag's required mark from the help document, and an optional flag without it", () => {
    const flag = (name: string, required: boolean) => ({
      name,
      aliases: [],
      type: "string",
      description: Option.some(`The ${name}`),
      required
    })
    const text = Help.render({
      description: "A command",
      usage: "tppkit x [flags]",
      flags: [flag("needed", true), flag("extra", false)],
      annotations: Context.empty()
    })
    expect(text).toContain("--needed string  The needed (required)")
    expect(text.split("\n")).toContain("  --extra string   The extra")
  })

  it("documents --completions and --wizard among the global flags", async () => {
    const global = section((await run(["--help"])).stdout, "GLOBAL FLAGS").join("\n")
    expect(global).toContain("--completions SHELL")
    expect(global).toContain("--wizard")
  })
})

describe("habits", () => {
  it('a mistyped subcommand or flag gets "did you mean", exit code 2', async () => {
    const sub = await run(["projekt"])
    expect(sub.code).toBe(2)
    expect(sub.stderr.split("\n")[0]).toBe('tppkit: Unknown subcommand "projekt" for "tppkit"; did you mean "project"?')
    const flag = await run(["project", "--fromm", "2027-01-01"])
    expect(flag.code).toBe(2)
    expect(flag.stderr.split("\n")[0]).toContain('did you mean "--from"?')
    expect(flag.stderr.split("\n")[1]).toBe('Run "tppkit project --help" for usage.')
    const json = await run(["projekt", "--format", "json"])
    expect(JSON.parse(json.stderr).error.message).toContain('did you mean "project"?')
  })

  it('the help of a mistyped command is its "did you mean", exit code 2, not the parent\'s help', async () => {
    for (const args of [
      ["projekt", "--help"],
      ["help", "projekt"],
      ["projekt", "-h"]
    ]) {
      const r = await run(args)
      expect(r.code, args.join(" ")).toBe(2)
      expect(r.stdout).toBe("")
      expect(r.stderr.split("\n")[0]).toBe('tppkit: Unknown subcommand "projekt" for "tppkit"; did you mean "project"?')
    }
    for (const args of [
      ["db", "strat", "--help"],
      ["help", "db", "strat"]
    ]) {
      const r = await run(args)
      expect(r.code, args.join(" ")).toBe(2)
      expect(r.stderr.split("\n")[0]).toBe('tppkit: Unknown subcommand "strat" for "tppkit db"; did you mean "start"?')
    }
    // a real command's help is still its help
    const known = await run(["help", "db", "start"])
    expect(known.code).toBe(0)
    expect(known.stdout).toContain("tppkit db start [flags]")
  })

  it("a word far from every subcommand gets no guess", async () => {
    const r = await run(["frobnicate"])
    expect(r.code).toBe(2)
    expect(r.stderr).not.toContain("did you mean")
  })

  it("project --orders - says that it reads standard input when that is a terminal, and only then", async () => {
    const args = ["project", "--orders", "-", "--from", "2027-01-01", "--to", "2027-01-31"]
    const terminal = await run(args, { stdinIsTerminal: true, stdin: "[]" })
    expect(terminal.code).toBe(0)
    expect(terminal.stderr.split("\n")[0]).toBe(Output.stdinNotice)
    const piped = await run(args, { stdin: "[]" })
    expect(piped.code).toBe(0)
    expect(piped.stderr).not.toContain(Output.stdinNotice)
  })

  it("a cancelled --wizard exits 130, not 0", { timeout: 60_000 }, async () => {
    const r = await tppkit(["project", "--wizard"], { stdin: "" })
    expect(r.timedOut).toBe(false)
    expect(r.stdout).toContain("Wizard cancelled.")
    expect(r.code).toBe(130)
  })

  it('"no" at the wizard\'s last question ("Run this command?") runs nothing and exits 130', {
    timeout: 60_000
  }, async () => {
    // budget asks three optional flags (each "n" then Enter), then whether to run: "0" picks "no", Enter submits
    const declined = await tppkit(["budget", "--wizard"], { answers: ["n\r", "n\r", "n\r", "0\r"] })
    expect(declined.timedOut).toBe(false)
    expect(declined.stdout).toContain("Command ready")
    expect(declined.stdout).toContain("Wizard cancelled: the command was not run.")
    expect(declined.stdout).not.toContain("Daily budget")
    expect(declined.code).toBe(130)
    // "yes" (Enter on the default) runs it and exits 0
    const accepted = await tppkit(["budget", "--wizard"], { answers: ["n\r", "n\r", "n\r", "\r"] })
    expect(accepted.timedOut).toBe(false)
    expect(accepted.stdout).toContain("Daily budget")
    expect(accepted.stdout).not.toContain("Wizard cancelled")
    expect(accepted.code).toBe(0)
  })
})
