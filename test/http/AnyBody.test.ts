/**
 * Property: whatever bytes the bank sends as a body (with any status among 200, 201, 400, 429, 503) the token
 * request, the balance check and a standing-order page end in a success or a typed `BankError`, never a defect.
 */
import { type BalanceCheck, Currency, Iban, Money } from "@tppkit/core"
import { BankClient, BankConfig, BankTransport, TokenService } from "@tppkit/http"
import { Cause, Effect, Exit, Layer, ManagedRuntime, Redacted } from "effect"
import * as fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { psu } from "./stub.ts"

/** What the in-process bank answers next on the API path and on the token path. */
const next = { status: 200, body: new Uint8Array(), token: new Uint8Array() }
const goodToken = new TextEncoder().encode('{"access_token":"t","token_type":"Bearer","expires_in":1200}')

const runtime = ManagedRuntime.make(
  BankClient.BankClient.layerOver(
    BankConfig.BankConfig.layer({
      environment: "sandbox",
      baseUrl: "http://127.0.0.1:9",
      clientId: "tpp",
      clientSecret: Redacted.make("secret"),
      retry: { maxAttempts: 1 }
    }),
    Layer.succeed(
      BankTransport.BankTransport,
      BankTransport.BankTransport.of({
        send: (outgoing) =>
          Effect.sync(() => {
            const isToken = outgoing.url.endsWith("/connect/token")
            // decoded as undici's transport does: UTF-8 with replacement characters
            const text = Buffer.from(isToken ? next.token : next.body).toString("utf8")
            return { status: isToken ? 200 : next.status, headers: { "content-type": "application/json" }, text }
          })
      })
    )
  ).pipe(Layer.orDie)
)
afterAll(() => runtime.dispose())

const request: BalanceCheck.Request = {
  instructionIdentification: "instr-1",
  iban: Iban.parseUnsafe("SK31 1200 0000 1987 4263 7541"),
  amount: { value: Money.parseUnsafe("10.00"), currency: Currency.EUR }
}
const present = { ...psu, lastLoggedTime: new Date().toISOString() }

const operations = {
  token: Effect.flatMap(Effect.service(TokenService.TokenService), (t) =>
    Effect.andThen(t.invalidate(["AISP"]), t.get(["AISP"]))
  ),
  balanceCheck: Effect.flatMap(Effect.service(BankClient.BankClient), (c) => c.balanceCheck(request, { psu })),
  page: Effect.flatMap(Effect.service(BankClient.BankClient), (c) => c.standingOrdersPage({ psu: present }))
}

/** Bodies: random bytes, JSON texts, and JSON texts cut or with a byte changed. */
const bodies = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  fc.json({ maxDepth: 4 }).map((text) => new TextEncoder().encode(text)),
  fc.tuple(fc.json({ maxDepth: 4 }), fc.nat(), fc.integer({ min: 0, max: 255 })).map(([text, at, byte]) => {
    const bytes = new TextEncoder().encode(text)
    if (bytes.length === 0) return bytes
    const copy = bytes.slice(0, 1 + (at % bytes.length))
    copy[at % copy.length] = byte
    return copy
  })
)

/** Whether an exit is a success or a typed `BankError`, with no defect anywhere in its cause. */
const typed = (exit: Exit.Exit<unknown, unknown>): boolean =>
  Exit.isSuccess(exit) ||
  (!Cause.hasDies(exit.cause) &&
    exit.cause.reasons.every((r) => r._tag === "Fail" && (r.error as { _tag?: unknown })._tag === "BankError"))

describe("any body", () => {
  for (const [name, operation] of Object.entries(operations)) {
    it(`${name}: a success or a typed BankError, never a defect`, async () => {
      await fc.assert(
        fc.asyncProperty(bodies, fc.constantFrom(200, 201, 400, 429, 503), async (body, status) => {
          next.status = status
          next.body = body
          next.token = name === "token" ? body : goodToken
          const exit = await runtime.runPromiseExit(operation as Effect.Effect<unknown, unknown, never>)
          expect(typed(exit), exit._tag === "Failure" ? Cause.pretty(exit.cause) : "").toBe(true)
        }),
        { numRuns: 3000 }
      )
    })
  }
})
