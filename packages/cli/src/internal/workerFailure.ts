/** The one-line failure of a worker's typed error (`failureOf`), for `tppkit worker` and the demo's fleet step. */
import type { Redacted } from "effect"
import { isSqlError } from "effect/sql/SqlError"
import * as Failure from "../Failure.ts"
import * as DatabaseFailure from "./database.ts"

const what = {
  ChecksError: "checks",
  SqlError: `database`,
  SocketServerError: "runner socket",
  ConfigError: "cluster configuration",
  EmbeddedDbError: "runner port",
  FleetError: "fleet",
  WebhookError: "webhook"
} as const

const detailOf = (e: { readonly message: string; readonly cause?: unknown }): string =>
  `${e.message}${e.cause instanceof Error && e.cause.message !== e.message ? ` (${e.cause.message})` : ""}`

/**
 * The one-line failure of a worker's typed error; a database failure names `host:port` and its class (see
 * `internal/database.ts`).
 */
export const failureOf =
  (databaseUrl: Redacted.Redacted<string>) =>
  (
    e: Failure.CliFailure | { readonly _tag: keyof typeof what; readonly message: string; readonly cause?: unknown }
  ): Failure.CliFailure =>
    e._tag === "CliFailure"
      ? e
      : e._tag === "FleetError"
        ? Failure.configuration(e.message, e)
        : e._tag === "WebhookError"
          ? Failure.configuration(`${what[e._tag]}: ${e.message}`, e)
          : isSqlError(e)
            ? DatabaseFailure.failure(databaseUrl, e)
            : Failure.failure(`${what[e._tag]}: ${detailOf(e)}`, e)
