/**
 * The work behind `tppkit db start`, loaded only when it runs (it pulls in the embedded PostgreSQL package).
 */
import { EmbeddedDb } from "@tppkit/worker"
import { Effect, Option, Redacted } from "effect"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"

/** The parsed flags of `tppkit db start`. */
export interface Input {
  readonly dataDir: Option.Option<string>
  readonly port: number
  /** `--listen ADDR` and `--allow CIDR …` (issue 43). */
  readonly listen?: Option.Option<string> | undefined
  readonly allow?: ReadonlyArray<string> | undefined
  readonly format: "text" | "json"
}

/**
 * Starts PostgreSQL, prints its URL (it is a local development database: printing it is right) and waits; when the
 * server dies it fails with one line saying how (exit 1).
 */
export const start = Effect.fn("tppkit.db.start")(function* (input: Input) {
  if (input.port < 0 || input.port > 65535) return yield* Failure.usage("--port must be from 0 to 65535")
  const dataDir = input.dataDir._tag === "Some" ? input.dataDir.value : EmbeddedDb.defaultDataDir()
  yield* Effect.scoped(
    Effect.gen(function* () {
      // a busy port, a data directory already served or out of the server user's reach: the invocation must change
      const listen = Option.getOrUndefined(input.listen ?? Option.none())
      const db = yield* Effect.mapError(
        EmbeddedDb.start({ dataDir, port: input.port, listen, allow: input.allow, ownSignals: true }),
        (e) =>
          e.reason === "invalid"
            ? Failure.usage(e.message, e)
            : e.reason === undefined || e.reason === "other"
              ? Failure.failure(e.message, e)
              : Failure.configuration(e.message, e)
      )
      if (db.passwordReplaced) {
        yield* Output.errorLine(
          `tppkit: ${db.dataDir} was made with the fixed password of an earlier tppkit; its superuser has a new one, kept in ${db.passwordFile}: give the workers the URL below`
        )
      }
      const url = Redacted.value(db.url)
      const where = db.host === "127.0.0.1" ? `127.0.0.1:${db.port}` : `${db.host}:${db.port} and 127.0.0.1:${db.port}`
      yield* Output.line(
        input.format === "json"
          ? JSON.stringify({ databaseUrl: url })
          : [
              `PostgreSQL listening on ${where}, data in ${db.dataDir}`,
              ...((input.allow ?? []).length > 0 ? [`clients admitted from: ${(input.allow ?? []).join(", ")}`] : []),
              `superuser password kept in ${db.passwordFile} (mode 0600)`,
              `database URL: ${url}`,
              "Press Ctrl+C to stop."
            ].join("\n")
      )
      // supervised: a server that dies (killed, crashed) ends the command with one line and exit 1, so that a
      // service manager (systemd's Restart=on-failure, a container runtime) starts it again
      const how = yield* db.exited
      return yield* Failure.failure(`PostgreSQL on 127.0.0.1:${db.port} (data in ${db.dataDir}) died: ${how}`)
    })
  )
})
