/**
 * How `tppkit` fails, as a script sees it: the exit code of each class of failure, one JSON line on stderr with
 * `--format json`, one text line otherwise, and the chain of typed errors with `--verbose`.
 */
import { createServer, type Server } from "node:http"
import { Sandbox } from "@tppkit/sandbox"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tppkit } from "./harness.ts"

const CLIENT_SECRET = "sandbox-secret"
const EUR_BRANCH = "SK2411000000002612345678"
const EUR_NO_CONSENT = "SK1709000000005012348888"

let scope: Scope.Closeable
let info: Sandbox.SandboxInfo["Service"]
let env: Record<string, string>
/** A loopback server that answers every request with 200 and a body that is not JSON. */
let garbage: Server
let garbageUrl: string

beforeAll(async () => {
  scope = await Effect.runPromise(Scope.make())
  const context = await Effect.runPromise(Layer.buildWithScope(Sandbox.layer(), scope))
  info = Context.get(context, Sandbox.SandboxInfo)
  env = { TPPKIT_BASE_URL: info.baseUrl, TPPKIT_CLIENT_ID: info.clientId, TPPKIT_CLIENT_SECRET: CLIENT_SECRET }
  garbage = createServer((request, response) => {
    request.resume()
    response.writeHead(200, { "content-type": "application/json" })
    response.end("<html>not json</html>")
  })
  await new Promise<void>((resolve) => garbage.listen(0, "127.0.0.1", resolve))
  const address = garbage.address()
  garbageUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
})

afterAll(async () => {
  await new Promise<void>((resolve) => (garbage === undefined ? resolve() : garbage.close(() => resolve())))
  if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
})

/** The one JSON line a failed run with `--format json` writes on stderr. */
const jsonError = (stderr: string) => {
  const lines = stderr.trimEnd().split("\n")
  expect(lines).toHaveLength(1)
  return JSON.parse(lines[0]!).error as Record<string, unknown>
}

const check = (iban: string, amount: string) => [
  "balance-check",
  "--iban",
  iban,
  "--amount",
  amount,
  "--currency",
  "EUR"
]

describe("exit codes and JSON failures", { timeout: 90_000 }, () => {
  it("usage: a bad flag value, as one JSON line with --format json, exit 2", async () => {
    const run = await tppkit([...check(EUR_BRANCH, "1.234"), "--format", "json"], { env })
    expect(run.code).toBe(2)
    expect(run.stdout).toBe("")
    expect(jsonError(run.stderr)).toMatchObject({
      kind: "usage",
      exitCode: 2,
      message: expect.stringContaining("--amount")
    })
  })

  it("configuration: no bank address, exit 3", async () => {
    const run = await tppkit([...check(EUR_BRANCH, "1"), "--format", "json"])
    expect(run.code).toBe(3)
    expect(jsonError(run.stderr)).toMatchObject({
      kind: "configuration",
      message: expect.stringContaining("TPPKIT_BASE_URL")
    })
  })

  it("refused: status, code and request identifiers in the JSON, exit 5", async () => {
    const run = await tppkit([...check(EUR_NO_CONSENT, "1"), "--format", "json"], { env })
    expect(run.code).toBe(5)
    const error = jsonError(run.stderr)
    expect(error).toMatchObject({ kind: "refused", exitCode: 5, status: 403, operation: "balanceCheck" })
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/)
    expect(error.correlationId).toMatch(/^[0-9a-f-]{36}$/)
    expect(typeof error.code).toBe("string")
    expect(error.message).toMatch(/^balance check POST \/\S+: 403/)
  })

  it("unavailable: a 503 from the bank, exit 6", async () => {
    const run = await tppkit([...check(EUR_BRANCH, "503.03"), "--format", "json"], {
      env: { ...env, TPPKIT_RETRY_MAX_ATTEMPTS: "1" }
    })
    expect(run.code).toBe(6)
    expect(jsonError(run.stderr)).toMatchObject({ kind: "unavailable", status: 503 })
  })

  it("data not usable: a 200 whose body is not JSON, exit 7", async () => {
    const run = await tppkit([...check(EUR_BRANCH, "1"), "--access-token", "t"], {
      env: { TPPKIT_BASE_URL: garbageUrl, TPPKIT_RETRY_MAX_ATTEMPTS: "1" }
    })
    expect(run.code).toBe(7)
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1)
    expect(run.stderr).toMatch(/^tppkit: balance check POST \/\S+: malformed response/)
  })

  it("a page past the last: one line, exit 1", async () => {
    const run = await tppkit(
      ["standing-orders", "--page", "999", "--page-size", "10", "--psu-last-logged-time", "now"],
      {
        env
      }
    )
    expect(run.code).toBe(1)
    expect(run.stdout).toBe("")
    expect(run.stderr).toMatch(
      /^tppkit: --page 999: past the last page; the list has \d+ page\(s\), numbered from 0 to \d+\n$/
    )
  })

  it("an enumerated setting from the environment names the allowed values and the variable", async () => {
    const run = await tppkit(check(EUR_BRANCH, "1"), { env: { ...env, TPPKIT_ENVIRONMENT: "prod" } })
    expect(run.code).toBe(2)
    expect(run.stderr.split("\n")[0]).toBe(
      'tppkit: Invalid value for flag --env: "prod". Expected: "sandbox" | "live" (the value came from TPPKIT_ENVIRONMENT)'
    )
  })

  it("colour: never in a pipe, unless FORCE_COLOR asks for it; NO_COLOR wins", async () => {
    const args = check(EUR_NO_CONSENT, "1")
    const pipe = await tppkit(args, { env: { ...env, NO_COLOR: "" } })
    expect(pipe.stderr).not.toContain("\u001b[")
    const forced = await tppkit(args, { env: { ...env, NO_COLOR: undefined, FORCE_COLOR: "1" } })
    expect(forced.code).toBe(5)
    expect(forced.stderr.startsWith("\u001b[1m\u001b[31mtppkit:\u001b[39m\u001b[22m balance check POST")).toBe(true)
    const both = await tppkit(args, { env: { ...env, NO_COLOR: "1", FORCE_COLOR: "1" } })
    expect(both.stderr).not.toContain("\u001b[")
  })

  it("--verbose shows the typed cause chain, not a stack", async () => {
    const run = await tppkit([...check(EUR_NO_CONSENT, "1"), "--verbose"], { env })
    expect(run.code).toBe(5)
    const lines = run.stderr.trimEnd().split("\n")
    expect(lines[0]).toMatch(/^tppkit: balance check POST \/\S+: 403/)
    expect(lines[1]).toBe("Caused by:")
    expect(lines[2]).toMatch(/^ {2}CliFailure \{kind="refused", operation="balanceCheck", status=403/)
    expect(lines[3]).toMatch(/^ {2}← BankError \{operation="balanceCheck", requestId=/)
    expect(lines[4]).toMatch(/^ {2}← Forbidden \{body=".+"\}$/)
    expect(run.stderr).not.toMatch(/\n\s+at /)
    const json = await tppkit([...check(EUR_NO_CONSENT, "1"), "--verbose", "--format", "json"], { env })
    const error = jsonError(json.stderr)
    expect(error.chain).toEqual([
      expect.stringMatching(/^CliFailure/),
      expect.stringMatching(/^← BankError/),
      expect.stringMatching(/^← Forbidden/)
    ])
  })
})
