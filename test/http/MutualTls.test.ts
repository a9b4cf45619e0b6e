import { createServer, type Server } from "node:https"
import { assert, describe, it } from "@effect/vitest"
import { Currency, Iban, Money } from "@tppkit/core"
import { BankClient, type BankConfig } from "@tppkit/http"
import { Effect, Exit, Redacted } from "effect"
import { afterAll, beforeAll } from "vitest"
import { closeServer, listenLoopback } from "./loopback.ts"
import { makePki, type Pki } from "./pki.ts"
import { failure } from "./stub.ts"

let pki: Pki
let server: Server
let baseUrl: string

beforeAll(async () => {
  pki = await makePki()
  server = createServer(
    { key: pki.server.key, cert: pki.server.cert, ca: pki.ca.cert, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      req.resume()
      req.on("end", () => {
        res.setHeader("content-type", "application/json")
        if (req.url?.endsWith("/connect/token")) {
          res.end(JSON.stringify({ access_token: "mtls-token", token_type: "Bearer", expires_in: 1200 }))
        } else {
          res.setHeader("Response-ID", String(req.headers["request-id"]))
          res.end(JSON.stringify({ response: "APPR", dateTime: "2026-11-21T10:00:00Z" }))
        }
      })
    }
  )
  baseUrl = `https://127.0.0.1:${await listenLoopback(server)}`
})

afterAll(() => closeServer(server))

const check = (tls: BankConfig.Tls) =>
  Effect.gen(function* () {
    const client = yield* BankClient.BankClient
    return yield* client.balanceCheck(
      {
        instructionIdentification: "mtls-1",
        iban: Iban.parseUnsafe("SK3112000000198742637541"),
        amount: { value: Money.parseUnsafe("10"), currency: Currency.EUR }
      },
      { psu: { ipAddress: "192.0.2.1", deviceOs: "Linux", userAgent: "test" } }
    )
  }).pipe(
    Effect.provide(
      BankClient.layerNodeFromOptions(
        {
          environment: "live",
          baseUrl,
          clientId: "tpp",
          clientSecret: Redacted.make("secret"),
          retry: { maxAttempts: 1 },
          requestTimeout: "5 seconds",
          tls
        },
        { budgetFile: "memory" }
      )
    )
  )

/** The message of the typed failure of an exit. */
const messageOf = <A>(exit: Exit.Exit<A, unknown>): string => {
  if (Exit.isSuccess(exit)) return "success"
  const reason = exit.cause.reasons[0]
  return reason?._tag === "Fail" &&
    typeof reason.error === "object" &&
    reason.error !== null &&
    "message" in reason.error
    ? String(reason.error.message)
    : `not a typed failure: ${exit.cause}`
}

describe("mutual TLS", () => {
  it.live("is accepted with the right client certificate (encrypted key, redacted passphrase)", () =>
    Effect.gen(function* () {
      const reply = yield* check({
        cert: pki.client.cert,
        key: pki.client.key,
        passphrase: Redacted.make("key-passphrase"),
        ca: pki.ca.cert
      })
      assert.strictEqual(reply.body.response, "APPR")
      assert.isDefined(reply.identity.responseId)
    })
  )

  it.live("is refused without a client certificate", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(check({ ca: pki.ca.cert }))
      const error = failure(exit)
      assert.strictEqual(error._tag, "BankError")
      if (error._tag === "BankError") assert.strictEqual(error.reason._tag, "TransportFailure")
      assert.include(messageOf(exit), "it requires a client certificate and none is configured")
      assert.match(messageOf(exit), /^token request POST \/\S+\/connect\/token: https:\/\/127\.0\.0\.1:\d+ /)
    })
  )

  it.live("is refused with a certificate the bank's CA did not sign", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(check({ cert: pki.stranger.cert, key: pki.stranger.key, ca: pki.ca.cert }))
      assert.isTrue(Exit.isFailure(exit))
      assert.include(messageOf(exit), "it refused our client certificate")
    })
  )

  it.live("the server is not trusted without the custom CA", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(
        check({ cert: pki.client.cert, key: pki.client.key, passphrase: Redacted.make("key-passphrase") })
      )
      assert.isTrue(Exit.isFailure(exit))
      assert.match(
        messageOf(exit),
        /: the certificate of https:\/\/127\.0\.0\.1:\d+ is not trusted \(a self-signed certificate in its chain; is the CA configured\?\) \(SELF_SIGNED_CERT_IN_CHAIN\) \(1 attempt\)/
      )
    })
  )
})
