/**
 * `Database.problemOf` and `describeFailure`: the class of a database failure from the driver's typed reason and
 * its cause's code or type, and the one line that names `host:port` and never the password (the classes against a real
 * PostgreSQL: test/e2e/dbFailures.test.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Database from "@tppkit/worker/Database"
import { Redacted } from "effect"
import { AuthenticationError, ConnectionError, SqlError, UnknownError } from "effect/sql/SqlError"

const url = Redacted.make("postgres://fleet:hunter2@db.example:6543/tppkit")
const withCode = (message: string, code: string) => Object.assign(new Error(message), { code })
const connection = (cause: unknown, message = "PgConnection: Failed to connect") =>
  new SqlError({ reason: new ConnectionError({ cause, message, operation: "connect" }) })

describe("Database failures", () => {
  it("classifies by SQLSTATE and socket code, and tppkit's connect timeout by its type", () => {
    const cases: ReadonlyArray<readonly [SqlError, Database.Problem]> = [
      [connection(withCode("connect ECONNREFUSED", "ECONNREFUSED")), "refused"],
      [connection(withCode("connect ETIMEDOUT", "ETIMEDOUT")), "timedOut"],
      [connection(new Database.ConnectTimeout(10), "tppkit: no connection within 10 s"), "timedOut"],
      // the driver's own timeout is known by no type (later connections of the pool): its message is not read
      [connection(new Error("Connection timed out"), "PgConnection: Connection timed out"), "other"],
      [connection(withCode("getaddrinfo ENOTFOUND", "ENOTFOUND")), "unreachable"],
      [connection(withCode("connect EHOSTUNREACH", "EHOSTUNREACH")), "unreachable"],
      [
        new SqlError({
          reason: new AuthenticationError({ cause: withCode("password authentication failed", "28P01") })
        }),
        "authentication"
      ],
      [
        new SqlError({ reason: new UnknownError({ cause: withCode('database "x" does not exist', "3D000") }) }),
        "noDatabase"
      ],
      [new SqlError({ reason: new UnknownError({ cause: withCode("disk full", "53100") }) }), "other"],
      [
        connection(new Error("Connection closed unexpectedly"), "PgConnection: Connection closed during startup"),
        "other"
      ]
    ]
    for (const [error, problem] of cases) expect(Database.problemOf(error)).toBe(problem)
  })

  it("names host:port and the cause, never the password; the default port is 5432", () => {
    const refused = Database.describeFailure(url, connection(withCode("connect ECONNREFUSED", "ECONNREFUSED")))
    expect(refused).toMatch(/^database db\.example:6543: connection refused/)
    const auth = Database.describeFailure(
      url,
      new SqlError({ reason: new AuthenticationError({ cause: withCode("password authentication failed", "28P01") }) })
    )
    expect(auth).toMatch(/^database db\.example:6543: authentication failed for user "fleet"/)
    const missing = Database.describeFailure(
      url,
      new SqlError({ reason: new UnknownError({ cause: withCode("no", "3D000") }) })
    )
    expect(missing).toMatch(/no such database "tppkit"/)
    for (const line of [refused, auth, missing]) expect(line).not.toContain("hunter2")
    expect(Database.address(Redacted.make("postgres://u:p@localhost/db"))).toBe("localhost:5432")
  })
})
