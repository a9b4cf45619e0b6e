/** Shared pieces of the fleet's e2e tests: a mock bank in a scope of the file's, and waiting for a condition. */
import { Journal, Sandbox } from "@tppkit/sandbox"
import { Context, Effect, Layer, type Scope } from "effect"

/** A mock bank of `options` (its clock the machine's), built in `scope`: its address and credentials, its journal. */
export const mockBank = async (options: Sandbox.Options, scope: Scope.Scope) => {
  const bank = await Effect.runPromise(Layer.buildWithScope(Sandbox.layer(options), scope))
  return { info: Context.get(bank, Sandbox.SandboxInfo), journal: Context.get(bank, Journal.Journal) }
}

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
