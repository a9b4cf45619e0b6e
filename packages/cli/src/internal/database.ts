/**
 * A fleet database's failure as the CLI reports it, shared by every command that talks to the database: one line
 * naming `host:port` and the cause in plain words, and one exit code per class (see the CLI README's exit codes):
 * nothing listening, no answer or no route is `unavailable` (6, worth trying again later), a refused user or
 * password and a missing database are `configuration` (3, the URL must change), anything else `failure` (1).
 */
import * as Database from "@tppkit/worker/Database"
import { Effect, Option, Redacted } from "effect"
import type { SqlClient } from "effect/sql"
import { isSqlError, type SqlError } from "effect/sql/SqlError"
import * as Failure from "../Failure.ts"

const kindOf: { readonly [P in Database.Problem]: Failure.Kind } = {
  refused: "unavailable",
  timedOut: "unavailable",
  unreachable: "unavailable",
  authentication: "configuration",
  noDatabase: "configuration",
  other: "failure"
}

/** The exit-code class of a database failure. */
export const kind = (error: SqlError): Failure.Kind => kindOf[Database.problemOf(error)]

/** A database failure as one line with its class, e.g. `database 127.0.0.1:1: connection refused (…)`, exit 6. */
export const failure = (url: Redacted.Redacted<string>, error: SqlError): Failure.CliFailure =>
  Failure.make(kind(error), Database.describeFailure(url, error), { origin: error })

/** A `--database-url` (or `TPPKIT_DATABASE_URL`) of another kind than `postgres://`: a configuration failure. */
export const checkUrl = (
  url: Redacted.Redacted<string>
): Effect.Effect<Redacted.Redacted<string>, Failure.CliFailure> =>
  /^postgres(ql)?:\/\//.test(Redacted.value(url))
    ? Effect.succeed(url)
    : Effect.fail(Failure.configuration("--database-url: expected postgres://user:password@host:port/database"))

/**
 * Runs `effect` on the fleet's database of `--database-url` (or `TPPKIT_DATABASE_URL`), one connection; no URL is a
 * usage failure, and a database failure is one line naming its address ({@link failure}).
 */
export const withDatabase = <A, E, R>(
  url: Option.Option<Redacted.Redacted<string>>,
  effect: Effect.Effect<A, E, R | SqlClient.SqlClient>
): Effect.Effect<A, Exclude<E, SqlError> | Failure.CliFailure, Exclude<R, SqlClient.SqlClient>> =>
  Effect.gen(function* () {
    if (Option.isNone(url)) {
      return yield* Failure.usage("no database: give --database-url URL or set TPPKIT_DATABASE_URL")
    }
    const checked = yield* checkUrl(url.value)
    return yield* effect.pipe(
      Effect.provide(Database.layer(checked, { maxConnections: 1 })),
      Effect.mapError((e) => (isSqlError(e) ? failure(checked, e) : (e as Exclude<E, SqlError>)))
    )
  })
