/**
 * What the fleet benches (bench/worker.ts, bench/fleetScale.ts) share to run `tppkit` processes against one embedded
 * PostgreSQL: the processes started and their exits, the server with pg_stat_statements, a fresh database on it, a
 * query, and killing it all when the bench is interrupted. What they read of the processes is bench/processStats.ts.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { rmSync } from "node:fs"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { Database, EmbeddedDb } from "@tppkit/worker"
import { Effect, Exit, Redacted, Scope } from "effect"
import { SqlClient } from "effect/sql"

/** The repository root, the processes' working directory. */
export const root = join(import.meta.dirname, "..")

/** The processes the bench started and that still run: killed if the bench itself is interrupted. */
export const children = new Set<ChildProcess>()

/**
 * Starts `tppkit ARGS` from source (`nodeFlags` before the script) with `env` added to the bench's; both pipes are
 * read (a full pipe stalls the child), each line of stderr handed to `stderrLine`.
 */
export const tppkit = (
  args: ReadonlyArray<string>,
  env: Record<string, string> = {},
  nodeFlags: ReadonlyArray<string> = [],
  stderrLine: (line: string) => void = () => {}
): ChildProcess => {
  const child = spawn(
    process.execPath,
    [...nodeFlags, "--conditions=@tppkit/source", "packages/cli/src/bin.ts", ...args],
    { cwd: root, env: { ...process.env, NO_COLOR: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] }
  )
  createInterface({ input: child.stderr! }).on("line", stderrLine)
  createInterface({ input: child.stdout! }).on("line", () => {})
  children.add(child)
  child.once("exit", () => children.delete(child))
  return child
}

/** The exit code of a child, once it has exited. */
export const exited = (child: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => child.once("exit", (code) => resolve(code)))

/** `f` with one connection to the database at `url`. */
export const withSql = <A>(
  url: Redacted.Redacted<string>,
  f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>
) =>
  Effect.runPromise(
    Effect.flatMap(Effect.service(SqlClient.SqlClient), f).pipe(
      Effect.provide(Database.layer(url, { maxConnections: 1 })),
      Effect.scoped
    ) as Effect.Effect<A>
  )

/** The rows of one statement on the database at `url`. */
export const query = <A extends object>(url: Redacted.Redacted<string>, text: string) =>
  withSql(url, (sql) => sql.unsafe<A>(text))

/**
 * An embedded PostgreSQL with pg_stat_statements loaded, stopped when `scope` closes; on SIGINT or SIGTERM the
 * children are killed, the scope closed and the bench's `work` folder removed before the bench exits (130).
 */
export const startPostgres = (scope: Scope.Closeable, work: string) => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      for (const child of children) child.kill("SIGKILL")
      void Effect.runPromise(Scope.close(scope, Exit.void)).finally(() => {
        rmSync(work, { recursive: true, force: true })
        process.exit(130)
      })
    })
  }
  return Effect.runPromise(
    Scope.provide(EmbeddedDb.start({ postgresFlags: ["-c", "shared_preload_libraries=pg_stat_statements"] }), scope)
  )
}

/** A new database `name` on the server of `url` (its `postgres` database), and its URL. */
export const freshDatabase = async (
  url: Redacted.Redacted<string>,
  name: string
): Promise<Redacted.Redacted<string>> => {
  await query(url, `CREATE DATABASE ${name}`)
  return Redacted.make(Redacted.value(url).replace(/\/postgres$/, `/${name}`))
}
