/**
 * `tppkit sandbox`: starts the mock bank and prints its base URL, the sandbox client id and secret (it is a
 * sandbox, so printing them is right) and the fixture accounts; with `--format json` that report is one JSON line.
 * It serves until SIGINT or SIGTERM, then shuts down cleanly. The mock bank is loaded only when the command runs.
 *
 * @since 0.1.0
 */
import { Money } from "@tppkit/core"
import type { Sandbox } from "@tppkit/sandbox"
import { Effect, Redacted } from "effect"
import * as CommandSpec from "./internal/commandSpec.ts"
import * as SandboxFlags from "./internal/sandboxFlags.ts"

/** The start-up report printed by `tppkit sandbox --format json`, as one line. */
export interface Report {
  readonly baseUrl: string
  readonly clientId: string
  readonly clientSecret: string
  readonly accounts: ReadonlyArray<{
    readonly iban: string
    readonly currency: string
    readonly balance: string
    readonly consent: "branch" | "electronic" | "none"
  }>
  /** The profile it plays and its API key, when not the seed bank's (`--profile`). */
  readonly profile?: string
  readonly apiKey?: string
}

/** Builds the start-up report from a running sandbox. */
export const report = (info: Sandbox.SandboxInfo["Service"]): Report => ({
  baseUrl: info.baseUrl,
  clientId: info.clientId,
  clientSecret: Redacted.value(info.clientSecret),
  accounts: info.accounts.map((a) => ({
    iban: a.iban,
    currency: a.currency,
    balance: Money.formatMinor(a.balance, a.currency),
    consent: a.consent
  })),
  ...(info.profile.name === "sbas" ? {} : { profile: info.profile.name, apiKey: Redacted.value(info.apiKey) })
})

/** Renders the start-up report for people. */
export const renderText = (info: Sandbox.SandboxInfo["Service"]): string => {
  const r = report(info)
  const ops = info.profile.operations
  const detail = ops.standingOrder?.paths[info.environment]
  const lines = [
    `tppkit mock bank listening on ${r.baseUrl} (${info.environment.toUpperCase()} paths)`,
    ...(r.profile === undefined ? [] : [`  profile        ${r.profile}: ${info.profile.title}`]),
    `  token          POST ${info.paths.token}`,
    `  balance check  ${ops.balanceCheck.method.padEnd(4)} ${info.paths.balanceCheck}`,
    `  standing order ${ops.standingOrders.method.padEnd(4)} ${info.paths.standingOrders}`,
    ...(detail === undefined ? [] : [`  one order      ${ops.standingOrder?.method.padEnd(4)} ${detail}`]),
    `  OpenAPI        GET  /openapi.json    journal  GET /__journal`,
    `  admin          GET|POST /__clock     GET|PUT /__faults`,
    `client id:     ${r.clientId}`,
    `client secret: ${r.clientSecret}`,
    ...(r.apiKey === undefined ? [] : [`API key:       ${r.apiKey}`]),
    "accounts:",
    ...r.accounts.map((a) => `  ${a.iban.padEnd(34)} ${a.currency} ${a.balance.padStart(14)}  consent: ${a.consent}`),
    "Press Ctrl+C to stop."
  ]
  return lines.join("\n")
}

/**
 * `tppkit sandbox [--host H] [--port P] [--fixtures FILE] [--client-id ID --client-secret S] [--live]
 * [--error-dialect D] [--fault-rate R --fault-seed N] [--tls-cert F --tls-key F [--tls-ca F] [--require-client-cert]]
 * [--admin-token T] [--clock-skew-seconds S] [--format text|json]`.
 */
export const sandboxCommand = CommandSpec.make({
  name: "sandbox",
  flags: SandboxFlags.flags,
  run: (flags) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/sandbox.ts")),
      (impl) => impl.run(flags, (info, format) => (format === "json" ? JSON.stringify(report(info)) : renderText(info)))
    ),
  description: "Start the mock bank on loopback and serve until SIGINT or SIGTERM",
  examples: [
    { command: "tppkit sandbox --port 8080", description: "The mock bank on http://127.0.0.1:8080" },
    { command: "tppkit sandbox --fault-rate 0.1", description: "One request in ten gets a random fault" }
  ]
})
