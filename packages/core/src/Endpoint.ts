/**
 * The paths of the three operations, LIVE and SANDBOX, as plain data (docs/bank-interface.md, "Environments and
 * paths"). The environments differ only in the first path segment; every operation is version 1.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/** The bank's environment: `sandbox` (test paths) or `live`. */
export const Environment = Schema.Literals(["sandbox", "live"])

/** The bank's environment. */
export type Environment = typeof Environment.Type

/**
 * The three operations of the bank interface: the token request, the balance check and the standing-order list. The
 * one vocabulary of every package: the paths here, http's `BankError.operation`, the mock bank's routes.
 */
export const Operation = Schema.Literals(["token", "balanceCheck", "standingOrders"])

/** The three operations of the bank interface. */
export type Operation = typeof Operation.Type

/** The paths of the operations in one environment, relative to the base URL. */
export type Paths = { readonly [O in Operation]: string }

/** The version of every operation. */
export const version = "v1" as const

const LIVE: Paths = {
  token: "/identity-server/connect/token",
  balanceCheck: "/piisp/api/v1/accounts/balanceCheck",
  standingOrders: "/aisp/api/v1/accounts/standingOrder"
}

const SANDBOX: Paths = {
  token: "/identity-server-test/connect/token",
  balanceCheck: "/piisp-test/api/v1/accounts/balanceCheck",
  standingOrders: "/aisp-test/api/v1/accounts/standingOrder"
}

/** The paths of an environment. // => paths("sandbox").token = "/identity-server-test/connect/token" */
export const paths = (environment: Environment): Paths => (environment === "live" ? LIVE : SANDBOX)

/** The full URL of an operation: the base URL (trailing slashes ignored) followed by the operation's path. */
export const url = (baseUrl: string, environment: Environment, operation: Operation): string =>
  `${baseUrl.replace(/\/+$/, "")}${paths(environment)[operation]}`

/** Every path of both environments with its environment and operation (for routers such as the mock bank). */
export const all: ReadonlyArray<{
  readonly environment: Environment
  readonly operation: Operation
  readonly path: string
}> = (["live", "sandbox"] as const).flatMap((environment) =>
  Operation.literals.map((operation) => ({
    environment,
    operation,
    path: paths(environment)[operation]
  }))
)
