/**
 * Shared pieces of the fleet's e2e tests: a mock bank in a scope of the file's, its faults set and lifted, a client
 * of it for the tests' own requests, a worker's environment, and waiting for a condition.
 */
import { assert } from "@effect/vitest"
import { BankClient } from "@tppkit/http"
import { Journal, Sandbox } from "@tppkit/sandbox"
import { Context, Effect, Layer, Redacted, type Scope } from "effect"

/** A mock bank of `options` (its clock the machine's), built in `scope`: its address and credentials, its journal. */
export const mockBank = async (options: Sandbox.Options, scope: Scope.Scope) => {
  const bank = await Effect.runPromise(Layer.buildWithScope(Sandbox.layer(options), scope))
  return { info: Context.get(bank, Sandbox.SandboxInfo), journal: Context.get(bank, Journal.Journal) }
}

/** The address and credentials of a mock bank. */
export interface BankInfo {
  readonly baseUrl: string
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
}

/** The mock bank's faults that answer every request `delayMs` late (a listing takes seconds, checks stay in flight). */
export const delayed = (delayMs: number) => ({ rate: 1, kinds: ["delay" as const], delayMs })

/** Sets the faults of the mock bank at `baseUrl` (`{ rate: 0 }` lifts them); the bank takes them or the test fails. */
export const setFaults = async (baseUrl: string, faults: object): Promise<void> => {
  const answer = await fetch(`${baseUrl}/__faults`, { method: "PUT", body: JSON.stringify(faults) })
  assert.strictEqual(answer.status, 200, await answer.text())
}

/** A `BankClient` of the mock bank (the sandbox environment, the budget in memory), for the tests' own requests. */
export const clientOf = (info: BankInfo) =>
  BankClient.layerNodeFromOptions(
    { environment: "sandbox", baseUrl: info.baseUrl, clientId: info.clientId, clientSecret: info.clientSecret },
    { budgetFile: "memory" }
  )

/** The environment of a fleet worker of the mock bank: its client secret, the queue polled every 250 ms, `more`. */
export const workerEnv = (info: BankInfo, more: Record<string, string> = {}): Record<string, string> => ({
  TPPKIT_CLIENT_SECRET: Redacted.value(info.clientSecret),
  TPPKIT_WORKER_POLL_MS: "250",
  ...more
})

/** Resolves once `ready` holds, looking every 50 ms; fails after `timeoutMs` (a bound, not a timing). */
export const until = async (
  ready: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 90_000
): Promise<void> => {
  const end = Date.now() + timeoutMs
  while (!(await ready())) {
    if (Date.now() > end) throw new Error(`gave up waiting: ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
