import { join } from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Cli, Style } from "@tppkit/cli"
import { Effect, Sink, Stdio, Stream } from "effect"
import { describe, expect, it } from "vitest"

const fixture = (name: string) => join(import.meta.dirname, "fixtures", name)

/** Runs the command in-process with captured stdout/stderr. */
const run = async (
  args: ReadonlyArray<string>,
  options: { stdin?: string; stderrIsTerminal?: boolean; stdoutIsTerminal?: boolean } = {}
) => {
  const out: Array<string> = []
  const err: Array<string> = []
  const collect = (into: Array<string>) => () =>
    // biome-ignore lint/suspicious/useIterableCallbackReturn: Sink.forEach takes an effectful callback
    Sink.forEach((chunk: string | Uint8Array) =>
      Effect.sync(() => {
        into.push(typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk))
      })
    )
  const stdio = Stdio.layerTest({
    stdout: collect(out),
    stderr: collect(err),
    stdin: Stream.make(new TextEncoder().encode(options.stdin ?? "")),
    stderrIsTerminal: Effect.succeed(options.stderrIsTerminal ?? false),
    stdoutIsTerminal: Effect.succeed(options.stdoutIsTerminal ?? false)
  })
  const code = await Effect.runPromise(Cli.main(args).pipe(Effect.provide(stdio), Effect.provide(NodeServices.layer)))
  return { code, stdout: out.join(""), stderr: err.join("") }
}

/** The arguments projecting the fixture orders over the first half of 2024 in a format. */
const projectFixture = (format: string) => [
  "project",
  "--orders",
  fixture("orders.json"),
  "--from",
  "2024-01-01",
  "--to",
  "2024-06-30",
  "--format",
  format
]

const manyOrders = (n: number) =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) => ({
      orderId: `SO-${i}`,
      debtor: { name: "D", iban: "SK2411000000002612345678" },
      creditor: { iban: "SK6609000000005012345678" },
      instructedAmount: { value: 1, currency: "EUR" },
      startDate: "2026-01-05",
      frequency: "MNTH"
    }))
  )

describe("Cli.main in-process", () => {
  it("projects a file and returns exit code 0", async () => {
    const r = await run(projectFixture("json"))
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).totals).toEqual([
      { currency: "CZK", count: 1, amount: "1000.00" },
      { currency: "EUR", count: 5, amount: "6252.50" }
    ])
  })

  it("writes iCalendar with one event per payment and names skipped orders on stderr", async () => {
    const r = await run(projectFixture("ics"))
    expect(r.code).toBe(0)
    expect(r.stdout.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true)
    expect(r.stdout.match(/BEGIN:VEVENT/g)).toHaveLength(6)
    expect(r.stderr).toContain("tppkit: skipped SO-BAD-FREQ")
  })

  it("reports progress for large projections only when stderr is a terminal", async () => {
    const args = ["project", "--orders", "-", "--from", "2026-01-01", "--to", "2026-01-31", "--format", "csv"]
    const quiet = await run(args, { stdin: manyOrders(1001) })
    expect(quiet.code).toBe(0)
    expect(quiet.stderr).toBe("")
    expect(quiet.stdout.split("\r\n")).toHaveLength(1001 + 2)
    const tty = await run(args, { stdin: manyOrders(1001), stderrIsTerminal: true })
    expect(tty.stderr).toContain("projecting 1001 standing orders")
  })

  it("the progress line is live: rewritten in place with the payments so far, erased at the end", async () => {
    const args = ["project", "--orders", "-", "--from", "2026-01-01", "--to", "2026-12-31", "--format", "csv"]
    const tty = await run(args, { stdin: manyOrders(300), stderrIsTerminal: true })
    expect(tty.code).toBe(0)
    const updates = tty.stderr.split("\r\u001b[K")
    expect(updates[0]).toBe("")
    expect(updates[1]).toBe("projecting 300 standing orders… 0 payments")
    expect(updates[updates.length - 1]).toBe("") // erased: the terminal is left clean
    expect(tty.stderr).not.toContain("\n")
    // with stdout on the same terminal, the line is erased before the first output and never comes back
    const both = await run(args, { stdin: manyOrders(300), stderrIsTerminal: true, stdoutIsTerminal: true })
    expect(both.stderr).toBe("\r\u001b[Kprojecting 300 standing orders… 0 payments\r\u001b[K")
  })

  it("colours a table on a terminal, honouring NO_COLOR and FORCE_COLOR, never in a pipe", async () => {
    const saved = { NO_COLOR: process.env.NO_COLOR, FORCE_COLOR: process.env.FORCE_COLOR }
    const restore = () => {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k]
        else process.env[k] = v
      }
    }
    const esc = "\u001b["
    try {
      delete process.env.NO_COLOR
      delete process.env.FORCE_COLOR
      const terminal = await run(projectFixture("table"), { stdoutIsTerminal: true })
      expect(terminal.stdout).toContain(`${esc}1m`)
      const pipe = await run(projectFixture("table"))
      expect(pipe.stdout).not.toContain(esc)
      expect(Style.strip(terminal.stdout)).toBe(pipe.stdout)
      process.env.NO_COLOR = "1"
      expect((await run(projectFixture("table"), { stdoutIsTerminal: true })).stdout).not.toContain(esc)
      delete process.env.NO_COLOR
      process.env.FORCE_COLOR = "1"
      expect((await run(projectFixture("table"))).stdout).toContain(esc)
      const failed = await run(["project", "--orders", "no/such.json", "--from", "2024-01-01", "--to", "2024-01-02"])
      expect(failed.stderr.startsWith(`${esc}1m${esc}31mtppkit:`)).toBe(true)
      process.env.FORCE_COLOR = "0"
      expect((await run(projectFixture("table"), { stdoutIsTerminal: true })).stdout).not.toContain(esc)
    } finally {
      restore()
    }
  })

  it("an invalid invocation is one line plus a hint, exit 2; no arguments shows the help only", async () => {
    const r = await run(["project", "--from", "2024-01-01"])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe("")
    expect(r.stderr.split("\n")[1]).toBe('Run "tppkit project --help" for usage.')
    const bare = await run([])
    expect(bare.code).toBe(2) // the help itself goes through the console presenter
    expect(bare.stderr).toBe("")
  })

  it("a file that cannot be read is named with the reason (exit 1 for orders, 2 for a flag's file)", async () => {
    const missing = await run([
      "project",
      "--orders",
      "no/such/orders.json",
      "--from",
      "2024-01-01",
      "--to",
      "2024-01-31"
    ])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toBe('tppkit: cannot read orders file "no/such/orders.json": no such file\n')
    const fixtures = await run(["sandbox", "--fixtures", "no/such/fixtures.json"])
    expect(fixtures.code).toBe(2)
    expect(fixtures.stderr.split("\n")[0]).toBe(
      'tppkit: cannot read fixtures file "no/such/fixtures.json": no such file'
    )
  })

  it("--version succeeds", async () => {
    expect((await run(["--version"])).code).toBe(0)
  })
})
