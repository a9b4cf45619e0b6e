import { randomUUID } from "node:crypto"
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { Console, Effect, Redacted } from "effect"

const program = Effect.gen(function* () {
  // The mock bank is running on 127.0.0.1 at an ephemeral port; SandboxInfo says where and how to log in.
  const info = yield* Sandbox.SandboxInfo

  // 1. A token by client credentials (form body), with the PIISP scope.
  const token = yield* Effect.promise(() =>
    fetch(info.baseUrl + info.paths.token, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded;charset=UTF-8" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: info.clientId,
        client_secret: Redacted.value(info.clientSecret),
        scope: "PIISP"
      })
    }).then((res) => res.json() as Promise<{ access_token: string; expires_in: number }>)
  )

  // 2. A balance check on the account with a branch consent.
  const requestId = randomUUID()
  const res = yield* Effect.promise(() =>
    fetch(info.baseUrl + info.paths.balanceCheck, {
      method: "POST",
      headers: {
        "content-type": "application/json;charset=UTF-8",
        authorization: `Bearer ${token.access_token}`,
        "request-id": requestId,
        "psu-ip-address": "192.0.2.10",
        "psu-device-os": "Linux",
        "psu-user-agent": "tppkit-example"
      },
      body: JSON.stringify({
        instructionIdentification: "example-1",
        iban: Fixtures.ibans.eurBranch,
        amount: { value: 120.5, currency: "EUR" }
      })
    })
  )
  const answer = (yield* Effect.promise(() => res.json())) as { response: "APPR" | "DECL"; dateTime: string }
  yield* Console.log(`mock bank at ${info.baseUrl}; token valid ${token.expires_in} s`)
  yield* Console.log(`balance check of 120.50 EUR: ${answer.response} (Response-ID ${res.headers.get("response-id")})`)
})

// The layer starts the server and stops it when the program ends.
await Effect.runPromise(program.pipe(Effect.provide(Sandbox.layer())))
