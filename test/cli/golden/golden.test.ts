/**
 * The command line's outputs pinned byte for byte: every command and format on fixed inputs (the README's
 * example orders, the cli fixtures with bad records, a generated 100-order file, a listing of the mock bank; the mock
 * bank lists its nextDates as of `Fixtures.baseDate`),
 * run as real processes. Each case's exit code, stdout and stderr are compared with its reference file in
 * `ref/`; a redesign must leave them unchanged. Bank commands run against an in-process mock bank; their
 * request identifiers, time stamps and port are replaced by placeholders before the comparison.
 *
 * `TPPKIT_GOLDEN_UPDATE=1 pnpm exec vitest run test/cli/golden` rewrites the reference files: do that only
 * for an output that an issue changes on purpose, and say so in the commit.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Run, tppkit } from "../../e2e/harness.ts"
import { bankCases, type Case, localCases } from "./cases.ts"

const refDir = join(import.meta.dirname, "ref")
const update = process.env.TPPKIT_GOLDEN_UPDATE === "1"

let scope: Scope.Closeable
let baseUrl = ""
let env: Record<string, string> = {}

beforeAll(async () => {
  scope = await Effect.runPromise(Scope.make())
  // the bank's nextDates are computed on its listing day: pinned to the day the fixtures are built around, so that
  // listings read the same on every day the test runs (the clock, for tokens and limits, keeps running)
  const context = await Effect.runPromise(Layer.buildWithScope(Sandbox.layer({ listingDay: Fixtures.baseDate }), scope))
  const info = Context.get(context, Sandbox.SandboxInfo)
  baseUrl = info.baseUrl
  env = { TPPKIT_BASE_URL: info.baseUrl, TPPKIT_CLIENT_ID: info.clientId, TPPKIT_CLIENT_SECRET: "sandbox-secret" }
})

afterAll(async () => {
  if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
})

/** Request identifiers, time stamps and the mock bank's address vary from run to run: placeholders for them. */
const normalise = (text: string): string =>
  (baseUrl === "" ? text : text.split(baseUrl).join("<bank>"))
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>")
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g, "<date-time>")

/** The iCalendar DTSTAMP of a file made now (`--ics-rrule`): a placeholder for it. */
const unstamp = (text: string): string => text.replace(/^DTSTAMP:\d{8}T\d{6}Z\r$/gm, "DTSTAMP:<date-time>\r")

const render = (run: Run, bank: boolean, stamped = false): string => {
  const n = (s: string) => {
    const t = bank ? normalise(s) : s
    return stamped ? unstamp(t) : t
  }
  return `exit ${run.code}\n--- stdout\n${n(run.stdout)}\n--- stderr\n${n(run.stderr)}`
}

const check = async (c: Case, bank: boolean) => {
  const run = await tppkit(c.args, {
    ...(c.stdin === undefined
      ? {}
      : { stdin: readFileSync(join(import.meta.dirname, "..", "..", "..", c.stdin), "utf8") }),
    env: bank ? env : {},
    timeoutMs: 60_000
  })
  expect(run.timedOut).toBe(false)
  const text = render(run, bank, c.stamped === true)
  const file = join(refDir, `${c.name}.txt`)
  if (update || !existsSync(file)) {
    if (!update && process.env.CI === "true") throw new Error(`no reference file for ${c.name}`)
    mkdirSync(refDir, { recursive: true })
    writeFileSync(file, text)
    return
  }
  // compared as text so that a difference shows as a diff
  expect(text).toBe(readFileSync(file, "utf8"))
}

describe.concurrent("the CLI's outputs, byte for byte", { timeout: 120_000 }, () => {
  for (const c of localCases) it(c.name, () => check(c, false))
  for (const c of bankCases) it(c.name, () => check(c, true))
})
