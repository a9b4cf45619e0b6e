/** The mock bank on loopback for the suites that run the bank commands in process against it. */
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { afterAll, beforeAll } from "vitest"

/**
 * Starts the mock bank of `options` before the calling suite's tests and stops it after them; the function returned
 * gives its address and credentials once it runs.
 */
export const mockBank = (options?: Sandbox.Options): (() => Sandbox.SandboxInfo["Service"]) => {
  let scope: Scope.Closeable | undefined
  let info: Sandbox.SandboxInfo["Service"] | undefined
  beforeAll(async () => {
    scope = await Effect.runPromise(Scope.make())
    const context = await Effect.runPromise(Layer.buildWithScope(Sandbox.layer(options), scope))
    info = Context.get(context, Sandbox.SandboxInfo)
  })
  afterAll(async () => {
    if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
  })
  return () => {
    if (info === undefined) throw new Error("the mock bank has not started")
    return info
  }
}

/** The default fixture set with these standing orders in place of its own. */
export const withOrders = (standingOrders: ReadonlyArray<Fixtures.StandingOrder>): Fixtures.Fixtures => ({
  clients: Fixtures.defaults.clients,
  accounts: Fixtures.defaults.accounts,
  standingOrders
})

/** A monthly order of 25.00 EUR from 1 March 2026, from Jana's account at the mock bank to her landlord. */
export const listedOrder = (orderId: string, more: Partial<Fixtures.StandingOrder> = {}): Fixtures.StandingOrder => ({
  orderId,
  frequency: "MNTH",
  startDate: "2026-03-01",
  instructedAmount: { value: 25, currency: "EUR" },
  debtor: { name: "Jana", iban: Fixtures.ibans.eurBranch },
  creditor: { name: "Landlord", iban: "SK6609000000005012345678" },
  ...more
})

/**
 * The flags that send a bank command to `bank` with the sandbox client's secret, a daily budget kept in memory and
 * `--max-age 0` (each run asks the bank).
 */
export const bankFlags = (bank: { readonly baseUrl: string; readonly clientId: string }): Array<string> => [
  ...["--base-url", bank.baseUrl, "--client-id", bank.clientId, "--client-secret", "sandbox-secret"],
  ...["--budget-file", "memory", "--max-age", "0"]
]
