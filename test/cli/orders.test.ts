/**
 * Reading `--orders` (internal/orders.ts) as a real process: bounded whatever the input (an endless stream of
 * zeros, random bytes, whitespace inside a record, a number followed by spaces: one "not an orders file" line,
 * exit 2, after reading a few MB at most, under a small heap), every kind of file (a pipe, `-`, a named pipe, a
 * directory, a symbolic link loop, a missing file) and error lines that are one line of printable text.
 */
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Output } from "@tppkit/cli"
import fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"

const root = join(import.meta.dirname, "..", "..")
const dir = mkdtempSync(join(tmpdir(), "tppkit-orders-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const window = ["--from", "2027-01-01", "--to", "2027-01-31"]

const order = (orderId: string) =>
  JSON.stringify({
    orderId,
    debtor: { name: "Jana", iban: "SK2411000000002612345678" },
    creditor: { name: "Landlord", iban: "SK6609000000005012345678" },
    instructedAmount: { value: 12.5, currency: "EUR" },
    startDate: "2027-01-05",
    frequency: "MNTH"
  })

interface Outcome {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  /** Bytes the child read from its stdin before it ended (what the generator could write). */
  readonly fed: number
}

/**
 * `tppkit project --orders -` in a child with a small heap, its stdin fed by `head` then `tail` repeated up to
 * `limit` bytes (generated on demand: never held whole); counts the bytes the child took.
 */
const feed = (head: Uint8Array, tail: Uint8Array, limit: number): Promise<Outcome> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        "--max-old-space-size=160",
        "--conditions=@tppkit/source",
        "packages/cli/src/bin.ts",
        "project",
        "--orders",
        "-",
        ...window
      ],
      { cwd: root, stdio: ["pipe", "pipe", "pipe"] }
    )
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d) => {
      stdout += d
    })
    child.stderr.on("data", (d) => {
      stderr += d
    })
    let fed = 0
    let open = true
    child.stdin.on("error", () => {
      open = false
    })
    const pump = () => {
      while (open && fed < limit) {
        const piece = fed === 0 ? head : tail
        fed += piece.length
        if (!child.stdin.write(piece)) {
          child.stdin.once("drain", pump)
          return
        }
      }
      if (open) child.stdin.end()
    }
    child.on("exit", (code) => {
      open = false
      resolve({ code, stdout, stderr, fed })
    })
    child.on("error", reject)
    pump()
  })

const MB = 1 << 20
const text = (s: string) => new TextEncoder().encode(s)

describe("tppkit project --orders is bounded", () => {
  const endless = 1 << 30
  const cases: Array<[string, Uint8Array, Uint8Array]> = [
    ["zeros (/dev/zero)", new Uint8Array(MB), new Uint8Array(MB)],
    [
      "random bytes (/dev/urandom)",
      Uint8Array.from({ length: MB }, (_, i) => (i * 7919 + 13) % 251),
      new Uint8Array(MB).map((_, i) => (i * 31 + 7) % 256)
    ],
    ["a number followed by spaces", text("5"), text(" ".repeat(MB))],
    ["whitespace inside one record", text(`[${order("A")},{"orderId":`), text(" \n\t".repeat(MB / 4))],
    ["whitespace after the records", text(`[${order("A")}]`), text(" ".repeat(MB))],
    ["one endless name", text(`[${order("A")},{"orderId":"`), text("x".repeat(MB))]
  ]
  for (const [name, head, tail] of cases) {
    it(`${name}: one "not an orders file" line, exit 2, after a few MB at most`, async () => {
      const r = await feed(head, tail, endless)
      expect(r.code).toBe(2)
      expect(r.stdout).toBe("")
      const lines = r.stderr.trimEnd().split("\n")
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/^tppkit: standard input: not (an orders file|valid UTF-8)/)
      // the pipe's buffers and the reader's 1 MiB limit: a few MB, never the gigabyte offered
      expect(r.fed).toBeLessThan(8 * MB)
    }, 120_000)
  }

  it("reads a long well-formed stream to its end under the same heap", async () => {
    const records = Array.from({ length: 2000 }, (_, i) => order(`SO-${i}`)).join(",")
    const r = await feed(text(`[${records}`), text(`,${records}`), 4 * MB)
    // cut at the limit: the text ends inside the array, having read every record on the way
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/the text ends inside the orders array, after \d+ records/)
  }, 120_000)
})

describe("tppkit project --orders reads every kind of file, and says in words what it cannot read", () => {
  const file = join(dir, "orders.json")
  writeFileSync(file, `[${order("A")}]`)
  const run = (args: ReadonlyArray<string>, input?: string) =>
    spawnSync(
      process.execPath,
      ["--conditions=@tppkit/source", "packages/cli/src/bin.ts", "project", ...args, ...window],
      {
        cwd: root,
        encoding: "utf8",
        input: input ?? "",
        shell: false
      }
    )

  it("a file, standard input, a process substitution and a named pipe give the same payments", () => {
    const expected = run(["--orders", file, "--format", "csv"])
    expect(expected.status).toBe(0)
    expect(expected.stdout).toContain("A,2027-01-05")
    expect(run(["--orders", "-", "--format", "csv"], `[${order("A")}]`).stdout).toBe(expected.stdout)
    const bash = (script: string) =>
      spawnSync("bash", ["-c", script], {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, NODE: process.execPath }
      })
    const cli = `"$NODE" --conditions=@tppkit/source packages/cli/src/bin.ts project ${window.join(" ")} --format csv`
    expect(bash(`${cli} --orders <(cat ${JSON.stringify(file)})`).stdout).toBe(expected.stdout)
    const fifo = join(dir, "fifo")
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0)
    expect(
      bash(`cat ${JSON.stringify(file)} > ${JSON.stringify(fifo)} & ${cli} --orders ${JSON.stringify(fifo)}`).stdout
    ).toBe(expected.stdout)
  })

  it("a directory, a symbolic link loop and a missing file: one line each, in words", () => {
    const loop = join(dir, "loop")
    symlinkSync(loop, loop)
    const cases: Array<[string, RegExp]> = [
      [dir, /: it is a directory, not a file$/],
      [loop, /: too many levels of symbolic links/],
      [join(dir, "none.json"), /: no such file$/]
    ]
    for (const [path, reason] of cases) {
      const r = run(["--orders", path])
      expect(r.status).toBe(1)
      const lines = r.stderr.trimEnd().split("\n")
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/^tppkit: cannot read orders file "/)
      expect(lines[0]).toMatch(reason)
    }
  })

  it("a UTF-16 or NUL-filled file's error is one line of printable text", () => {
    const utf16 = join(dir, "utf16.json")
    writeFileSync(utf16, Buffer.from(`\uFEFF[${order("A")}]`, "utf16le"))
    const utf16bare = join(dir, "utf16bare.json")
    writeFileSync(utf16bare, Buffer.from(`[${order("A")}]`, "utf16le"))
    const nul = join(dir, "nul.json")
    writeFileSync(nul, Buffer.alloc(4096))
    for (const path of [utf16, utf16bare, nul]) {
      const r = run(["--orders", path])
      expect(r.status).toBe(2)
      const lines = r.stderr.trimEnd().split("\n")
      expect(lines).toHaveLength(1)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may be printed
      expect(lines[0]).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/)
    }
  })
})

describe("Output.printable", () => {
  it("makes any text one line of printable characters, and printable text stays as it is", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        const p = Output.printable(s)
        // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may remain
        expect(p).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/)
        expect(p).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/)
        // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters that are escaped
        if (!/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]/u.test(s))
          expect(p).toBe(s)
      }),
      { numRuns: 2000 }
    )
    expect(Output.printable("plain text, € and 🙂")).toBe("plain text, € and 🙂")
    expect(Output.printable("a\u0000b\nc\u001b[2K")).toBe("a\\x00b\\x0ac\\x1b[2K")
  })
})
