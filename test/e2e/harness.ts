/**
 * Runs the `tppkit` command as a real process (`node --conditions=@tppkit/source packages/cli/src/bin.ts …`
 * from the repository root, on the Node that runs the tests) and collects its exit code and output. Every run
 * has a deadline: a process still running then is killed and the run reported as timed out.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { join } from "node:path"
import { expect } from "vitest"

/** The repository root. */
export const root = join(import.meta.dirname, "..", "..")

/** A fixture file of the cli tests, relative to the repository root. */
export const fixture = (name: string): string => join("test", "cli", "fixtures", name)

/** How effect/cli's prompts begin on stdout: the cursor hidden, then "? " and the question. */
const PROMPT = "\u001b[?25l? "

/** What a finished (or killed) run of the command produced. */
export interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  readonly timedOut: boolean
}

/** Options of a run: text for stdin, extra environment variables, the deadline in milliseconds. */
export interface RunOptions {
  readonly stdin?: string
  readonly env?: Record<string, string | undefined>
  readonly timeoutMs?: number
  /**
   * Keys typed at prompts, instead of `stdin`: each is written when stdout shows one more prompt ("? " after the
   * cursor is hidden) than there were answers, and stdin ends after the last; a prompt drops keys typed before it
   * shows.
   */
  readonly answers?: ReadonlyArray<string>
  /** Called with the process id once the process is spawned (e.g. to sample its memory). */
  readonly onSpawn?: (pid: number) => void
}

/** The node arguments that run `tppkit <args>` from the sources. */
const cli = (args: ReadonlyArray<string>): Array<string> => [
  "--conditions=@tppkit/source",
  "packages/cli/src/bin.ts",
  ...args
]

/** The environment of a run: no `TPPKIT_` variable of the machine's, the budget in memory, then `more`. */
const cliEnv = (more: Record<string, string | undefined> = {}): Record<string, string | undefined> => {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" }
  for (const key of Object.keys(env)) if (key.startsWith("TPPKIT_")) delete env[key]
  env.TPPKIT_BUDGET_FILE = "memory" // never touch ~/.tppkit from a test
  return Object.assign(env, more)
}

/** Runs `tppkit <args>` and resolves when the process has exited (or was killed at the deadline). */
export const tppkit = (args: ReadonlyArray<string>, options: RunOptions = {}): Promise<Run> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cli(args), {
      cwd: root,
      env: cliEnv(options.env),
      stdio: ["pipe", "pipe", "pipe"]
    })
    if (child.pid !== undefined) options.onSpawn?.(child.pid)
    let stdout = ""
    let stderr = ""
    let timedOut = false
    let answered = 0
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk
      const answers = options.answers
      if (answers === undefined || answered >= answers.length) return
      const prompts = stdout.split(PROMPT).length - 1
      if (prompts > answered) {
        child.stdin.write(answers[answered++]!)
        if (answered === answers.length) child.stdin.end()
      }
    })
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk
    })
    const timer = setTimeout(() => {
      timedOut = true
      child.kill("SIGKILL")
    }, options.timeoutMs ?? 30_000)
    child.on("error", (e) => {
      clearTimeout(timer)
      reject(e)
    })
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr, timedOut })
    })
    child.stdin.on("error", () => {})
    if (options.answers === undefined) child.stdin.end(options.stdin ?? "")
  })

/** `tppkit worker … --today DAY --once` against a mock bank and a fleet database (the flags every fleet test gives). */
export const workerOnce = (
  databaseUrl: string,
  bank: { readonly baseUrl: string; readonly clientId: string },
  day: string,
  ...more: ReadonlyArray<string>
): Array<string> => [
  "worker",
  "--database-url",
  databaseUrl,
  "--base-url",
  bank.baseUrl,
  "--client-id",
  bank.clientId,
  ...more,
  "--today",
  day,
  "--once"
]

/** Runs `use` with a port of 127.0.0.1 that another program (a bare TCP server of the test's) listens on. */
export const withBusyPort = async <A>(use: (port: number) => Promise<A>): Promise<A> => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  try {
    return await use(port)
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}

/** The keys of a finished check in `tppkit worker status --format json`, exactly and in order (the documented shape). */
export const checkKeys: ReadonlyArray<string> = [
  "orderId",
  "nominalDate",
  "executionDate",
  "amount",
  "currency",
  "debtorIban",
  "outcome",
  "attempts",
  "unconfirmed",
  "checkedAt",
  "requestId"
]

/** How a background `tppkit` process ended: its exit code or signal and everything it printed. */
export interface Ended {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * Starts `tppkit` as a background process (a fleet worker, typically) and collects its output until it ends; it is
 * killed after two minutes. The test may signal `child` meanwhile.
 */
export const start = (
  args: ReadonlyArray<string>,
  env: Record<string, string>
): { readonly child: ChildProcess; readonly done: Promise<Ended> } => {
  const child = spawn(process.execPath, cli(args), {
    cwd: root,
    env: { ...process.env, NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  child.stdout?.setEncoding("utf8").on("data", (c: string) => {
    stdout += c
  })
  child.stderr?.setEncoding("utf8").on("data", (c: string) => {
    stderr += c
  })
  const timer = setTimeout(() => child.kill("SIGKILL"), 120_000)
  const done = new Promise<Ended>((resolve) =>
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr })
    })
  )
  return { child, done }
}

/** How a run whose stdout was counted, not kept, ended: its exit code or signal, its output's size and end. */
export interface Counted {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  /** The bytes written to stdout, counted, and the last of them. */
  readonly bytes: number
  readonly tail: string
  readonly stderr: string
}

/** When an interrupted run gets its signal. */
export type SignalAt =
  /** when the first output arrives */
  | "output"
  /** once stdin (the text given) has ended */
  | "ended"
  /** once the command has taken a megabyte of stdin, which is never ended */
  | "reading"
  /** when stderr says something matching (a warning said just before a step) */
  | RegExp

/** Options of a counted run: extra environment, how many of stdout's last bytes to keep, stdin, a signal. */
export interface CountedOptions {
  readonly env?: Record<string, string>
  /** 200 unless given. */
  readonly keep?: number
  readonly stdin?: string
  readonly interrupt?: { readonly signal: NodeJS.Signals; readonly at: SignalAt }
}

/**
 * Runs `tppkit <args>` keeping only the count and the last bytes of stdout (a long run writes gigabytes), and sends
 * `interrupt.signal` at the moment it names. Killed after two minutes.
 */
export const counted = (args: ReadonlyArray<string>, options: CountedOptions = {}): Promise<Counted> =>
  new Promise((resolve, reject) => {
    const { stdin, interrupt } = options
    const keep = options.keep ?? 200
    const child = spawn(process.execPath, cli(args), {
      cwd: root,
      env: cliEnv(options.env),
      stdio: [stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"]
    })
    let bytes = 0
    let tail = Buffer.alloc(0)
    let stderr = ""
    let sent = false
    const send = () => {
      if (sent || interrupt === undefined) return
      sent = true
      child.kill(interrupt.signal)
    }
    child.stdout?.on("data", (chunk: Buffer) => {
      bytes += chunk.length
      tail = Buffer.concat([tail, chunk]).subarray(-keep)
      if (interrupt?.at === "output") send()
    })
    child.stderr?.setEncoding("utf8").on("data", (c: string) => {
      stderr += c
      if (interrupt?.at instanceof RegExp && interrupt.at.test(stderr)) send()
    })
    if (stdin !== undefined && child.stdin !== null) {
      child.stdin.on("error", () => {})
      if (interrupt?.at === "reading") {
        // the pipe holds some 64 KiB: a megabyte written means the command is reading it (its handlers are set)
        child.stdin.write(stdin.slice(0, 1 << 20), () => send())
      } else child.stdin.end(stdin, () => (interrupt?.at === "ended" ? send() : undefined))
    }
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000)
    child.on("error", (e) => {
      clearTimeout(timer)
      reject(e)
    })
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, bytes, tail: tail.toString("utf8"), stderr })
    })
  })

/** `counted` with `signal` sent at `at` (stdin, when given, is the text the command reads). */
export const interrupted = (
  args: ReadonlyArray<string>,
  signal: NodeJS.Signals,
  at: SignalAt,
  stdin?: string
): Promise<Counted> => counted(args, { interrupt: { signal, at }, ...(stdin === undefined ? {} : { stdin }) })

/** An interrupted run that ended as a signal should end it: exit code 130, not killed; nothing written or a whole last line. */
export const endedCleanly = (run: Counted): void => {
  expect(run.signal).toBeNull()
  expect(run.code, run.stderr).toBe(130)
  if (run.bytes > 0) expect(run.tail.endsWith("\n"), JSON.stringify(run.tail.slice(-80))).toBe(true)
}
