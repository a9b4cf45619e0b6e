/**
 * One embedded PostgreSQL per test file, on 127.0.0.1 with a temporary data directory removed afterwards:
 * `const db = embeddedDb()` at the top of a file starts it before the file's tests and stops it after them;
 * `db.fresh()` is a SQL client (tppkit's tables created) on a new empty database of that server; `db.live(name, (url) =>
 * …)` a live test on one, `db.liveSql(name, effect)` one whose effect runs with a SQL client on one.
 */
import { afterAll, beforeAll, it } from "@effect/vitest"
import { EmbeddedDb } from "@tppkit/worker"
import * as Database from "@tppkit/worker/Database"
import { Effect, Exit, Layer, Redacted, Scope } from "effect"
import { SqlClient } from "effect/sql"

/** The test file's PostgreSQL. */
export interface TestDb {
  /** The server's URL (database `postgres`); valid once the file's tests run. */
  readonly url: () => Redacted.Redacted<string>
  /** A SQL client on a new empty database, tables created. */
  readonly fresh: () => Layer.Layer<SqlClient.SqlClient, unknown>
  /** The URL of a new empty database. */
  readonly freshUrl: () => Effect.Effect<Redacted.Redacted<string>, unknown>
  /** A live test (`it.live`) of `name` on a new empty database: `body` gets its URL; `timeout` in milliseconds. */
  readonly live: <A, E>(
    name: string,
    body: (url: Redacted.Redacted<string>) => Effect.Effect<A, E, Scope.Scope>,
    timeout?: number
  ) => void
  /**
   * A live test (`it.live`) of `name`: `effect` with a SQL client on a new empty database (tppkit's tables created), in
   * a scope of its own; `timeout` in milliseconds.
   */
  readonly liveSql: <A, E>(
    name: string,
    effect: Effect.Effect<A, E, SqlClient.SqlClient | Scope.Scope>,
    timeout?: number
  ) => void
}

let databases = 0

/** Starts PostgreSQL before the file's tests and stops it after them. */
export const embeddedDb = (): TestDb => {
  const scope = Scope.makeUnsafe()
  let url: Redacted.Redacted<string> | undefined
  beforeAll(async () => {
    const running = await Effect.runPromise(Scope.provide(EmbeddedDb.start(), scope))
    url = running.url
  }, 60_000)
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)), 60_000)
  const serverUrl = () => {
    if (url === undefined) throw new Error("the test PostgreSQL has not started")
    return url
  }
  const freshUrl = () =>
    Effect.gen(function* () {
      const name = `t${process.pid}_${databases++}`
      yield* Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql.unsafe(`CREATE DATABASE ${name}`)).pipe(
        Effect.provide(Database.layer(serverUrl())),
        Effect.scoped
      )
      return Redacted.make(Redacted.value(serverUrl()).replace(/\/postgres$/, `/${name}`))
    })
  const fresh = () => Layer.unwrap(Effect.map(freshUrl(), (u) => Database.layer(u)))
  return {
    url: serverUrl,
    freshUrl,
    fresh,
    live: (name, body, timeout) => it.live(name, () => Effect.flatMap(freshUrl(), body), timeout),
    liveSql: (name, effect, timeout) =>
      it.live(name, () => effect.pipe(Effect.provide(fresh()), Effect.scoped), timeout)
  }
}
