/**
 * A fleet database's failure as the CLI reports it, shared by every command that talks to the database: one line
 * naming `host:port` and the cause in plain words, and one exit code per class (see the CLI README's exit codes):
 * nothing listening, no answer or no route is `unavailable` (6, worth trying again later), a refused user or
 * password and a missing database are `configuration` (3, the URL must change), anything else `failure` (1).
 */
import * as Database from "@tppkit/worker/Database"
import { Effect, Redacted } from "effect"
import type { SqlError } from "effect/sql/SqlError"
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
