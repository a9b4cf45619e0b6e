/**
 * `tppkit sandbox`: starts the mock bank and prints its base URL, the sandbox client id and secret (it is a
 * sandbox, so printing them is right) and the fixture accounts; with `--format json` that report is one JSON line.
 * It serves until SIGINT or SIGTERM, then shuts down cleanly.
 *
 * @since 0.1.0
 */
import { Money } from "@tppkit/core"
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { Context, Effect, FileSystem, Layer, Option, Redacted, Result } from "effect"
import { Command, Flag } from "effect/cli"
import * as Failure from "./Failure.ts"
import * as Output from "./Output.ts"

const readText = (what: string, file: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    return yield* fs
      .readFileString(file)
      .pipe(
        Effect.mapError((e) =>
          Failure.usage(
            `cannot read ${what} ${JSON.stringify(file)}: ${e.reason._tag === "NotFound" ? "no such file" : e.reason.message}`
          )
        )
      )
  })

const optionalText = (what: string, file: Option.Option<string>) =>
  Option.isSome(file) ? Effect.map(readText(what, file.value), Option.some) : Effect.succeed(Option.none<string>())

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
}

/** Builds the start-up report from a running sandbox. */
export const report = (info: Sandbox.SandboxInfo["Service"]): Report => ({
  baseUrl: info.baseUrl,
  clientId: info.clientId,
  clientSecret: Redacted.value(info.clientSecret),
  accounts: info.accounts.map((a) => ({
    iban: a.iban,
    currency: a.currency,
    balance: Money.formatFixed2(a.balance),
    consent: a.consent
  }))
})

/** Renders the start-up report for people. */
export const renderText = (info: Sandbox.SandboxInfo["Service"]): string => {
  const r = report(info)
  const lines = [
    `tppkit mock bank listening on ${r.baseUrl} (${info.environment.toUpperCase()} paths)`,
    `  token          POST ${info.paths.token}`,
    `  balance check  POST ${info.paths.balanceCheck}`,
    `  standing order POST ${info.paths.standingOrder}`,
    `  OpenAPI        GET  /openapi.json    journal  GET /__journal`,
    `client id:     ${r.clientId}`,
    `client secret: ${r.clientSecret}`,
    "accounts:",
    ...r.accounts.map((a) => `  ${a.iban.padEnd(34)} ${a.currency} ${a.balance.padStart(14)}  consent: ${a.consent}`),
    "Press Ctrl+C to stop."
  ]
  return lines.join("\n")
}

/**
 * `tppkit sandbox [--host H] [--port P] [--fixtures FILE] [--client-id ID --client-secret S] [--live]
 * [--error-dialect D] [--fault-rate R --fault-seed N] [--tls-cert F --tls-key F [--tls-ca F] [--require-client-cert]]
 * [--format text|json]`.
 */
export const sandboxCommand = Command.make(
  "sandbox",
  {
    host: Flag.String("host").pipe(Flag.withDescription("Interface to bind"), Flag.withDefault("127.0.0.1")),
    port: Flag.Int("port").pipe(Flag.withDescription("Port (0: any free port)"), Flag.withDefault(0)),
    fixtures: Flag.String("fixtures").pipe(
      Flag.withMetavar("FILE"),
      Flag.withDescription("Fixture JSON file (clients, accounts, standing orders); default: the built-in set"),
      Flag.optional
    ),
    clientId: Flag.String("client-id").pipe(
      Flag.withDescription("Client id of the first fixture client"),
      Flag.optional
    ),
    clientSecret: Flag.String("client-secret").pipe(
      Flag.withDescription("Client secret of the first fixture client"),
      Flag.optional
    ),
    live: Flag.Boolean("live").pipe(
      Flag.withDescription("Serve the LIVE paths instead of the SANDBOX ones"),
      Flag.withDefault(false)
    ),
    errorDialect: Flag.Literals("error-dialect", ["problem", "berlin-group", "cz-sk"]).pipe(
      Flag.withDescription("Error body shape of the API paths"),
      Flag.withDefault("problem")
    ),
    faultRate: Flag.Finite("fault-rate").pipe(
      Flag.withDescription("Probability (0-1) that a request gets a random fault"),
      Flag.withDefault(0)
    ),
    faultSeed: Flag.Int("fault-seed").pipe(Flag.withDescription("Seed of the fault sequence"), Flag.withDefault(1)),
    tlsCert: Flag.String("tls-cert").pipe(
      Flag.withMetavar("FILE"),
      Flag.withDescription("PEM certificate: serve HTTPS"),
      Flag.optional
    ),
    tlsKey: Flag.String("tls-key").pipe(
      Flag.withMetavar("FILE"),
      Flag.withDescription("PEM private key"),
      Flag.optional
    ),
    tlsCa: Flag.String("tls-ca").pipe(
      Flag.withMetavar("FILE"),
      Flag.withDescription("PEM CA for client certificates"),
      Flag.optional
    ),
    requireClientCert: Flag.Boolean("require-client-cert").pipe(
      Flag.withDescription("Require a client certificate signed by --tls-ca (mutual TLS)"),
      Flag.withDefault(false)
    ),
    format: Flag.Literals("format", ["text", "json"]).pipe(
      Flag.withDescription("Start-up report: text, or one JSON line"),
      Flag.withDefault("text")
    )
  },
  Effect.fn("SandboxCommand")(function* (flags) {
    if (flags.faultRate < 0 || flags.faultRate > 1) return yield* Failure.usage("--fault-rate must be from 0 to 1")
    if (flags.port < 0 || flags.port > 65535) return yield* Failure.usage("--port must be from 0 to 65535")
    if (Option.isSome(flags.tlsCert) !== Option.isSome(flags.tlsKey)) {
      return yield* Failure.usage("--tls-cert and --tls-key go together")
    }
    if (flags.requireClientCert && (Option.isNone(flags.tlsCa) || Option.isNone(flags.tlsCert))) {
      return yield* Failure.usage("--require-client-cert needs --tls-cert, --tls-key and --tls-ca")
    }
    let fixtures = Fixtures.defaults
    if (Option.isSome(flags.fixtures)) {
      const decoded = Fixtures.decodeJson(yield* readText("fixtures file", flags.fixtures.value))
      if (Result.isFailure(decoded)) {
        return yield* Failure.usage(`invalid fixtures file: ${decoded.failure.slice(0, 3).join("; ")}`)
      }
      fixtures = decoded.success
    }
    if (Option.isSome(flags.clientId) || Option.isSome(flags.clientSecret)) {
      const [head, ...rest] = fixtures.clients
      if (head !== undefined) {
        fixtures = {
          ...fixtures,
          clients: [
            {
              ...head,
              clientId: Option.getOrElse(flags.clientId, () => head.clientId),
              clientSecret: Option.getOrElse(flags.clientSecret, () => head.clientSecret)
            },
            ...rest
          ]
        }
      }
    }
    const cert = yield* optionalText("TLS certificate", flags.tlsCert)
    const key = yield* optionalText("TLS key", flags.tlsKey)
    const ca = yield* optionalText("TLS CA", flags.tlsCa)
    const options: Sandbox.Options = {
      host: flags.host,
      port: flags.port,
      fixtures,
      environment: flags.live ? "live" : "sandbox",
      errorDialect: flags.errorDialect,
      ...(flags.faultRate > 0 ? { faults: { rate: flags.faultRate, seed: flags.faultSeed } } : {}),
      ...(Option.isSome(cert) && Option.isSome(key)
        ? {
            tls: {
              cert: cert.value,
              key: key.value,
              ...(Option.isSome(ca) ? { ca: ca.value } : {}),
              requireClientCert: flags.requireClientCert
            }
          }
        : {})
    }
    yield* Effect.scoped(
      Effect.gen(function* () {
        const services = yield* Layer.build(Sandbox.layer(options)).pipe(
          Effect.mapError((e) => Failure.failure(e.message))
        )
        const info = Context.get(services, Sandbox.SandboxInfo)
        yield* Output.line(flags.format === "json" ? JSON.stringify(report(info)) : renderText(info))
        return yield* Effect.never
      })
    )
  })
).pipe(Command.withDescription("Start the mock bank on loopback and serve until SIGINT or SIGTERM"))
