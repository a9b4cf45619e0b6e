// A bank that follows COBS but serves it under /api/v2 and wants an extra header on every call: its profile is the
// cobs one with other paths and one more header. Written to a file, `--profile bank.json` and TPPKIT_PROFILE read it.
import { Profile } from "@tppkit/core"
import { BankClient, BankConfig, BankTransport, TokenService } from "@tppkit/http"
import { Sandbox } from "@tppkit/sandbox"
import { Context, Effect, Layer, Redacted, Result, Stream } from "effect"

const under = (prefix: string, op: Profile.OperationSpec): Profile.OperationSpec => ({
  ...op,
  paths: { live: `${prefix}${op.paths.live}`, sandbox: `${prefix}${op.paths.sandbox}` }
})
const cobs = Profile.cobs.operations
const written = JSON.stringify({
  ...Profile.cobs,
  name: "mybank",
  title: "My Bank: COBS under /api/v2 with X-Bank-Channel",
  operations: {
    token: under("/api/v2", cobs.token),
    balanceCheck: under("/api/v2", cobs.balanceCheck),
    standingOrders: under("/api/v2", cobs.standingOrders),
    standingOrder: under("/api/v2", cobs.standingOrder as Profile.OperationSpec)
  },
  headers: [...Profile.cobs.headers, { name: "X-Bank-Channel", from: "constant", value: "tpp", required: true }]
})
// read back as a file is read: every wrong field would be named
const profile = Result.getOrThrow(Profile.decodeJson(written))

const program = Effect.gen(function* () {
  // the mock bank plays the profile, and checks the extra header as it checks every required one
  const bank = Context.get(yield* Layer.build(Sandbox.layer({ profile })), Sandbox.SandboxInfo)
  // the customer's access token through the authorization-code flow (the mock bank approves at once)
  const redirect = "https://tpp.example/callback"
  const auth = yield* Effect.promise(() =>
    fetch(
      `${bank.baseUrl}/oauth2/auth?response_type=code&client_id=${bank.clientId}&scope=AISP&redirect_uri=${redirect}`,
      { redirect: "manual" }
    )
  )
  const code = new URL(auth.headers.get("location") ?? "").searchParams.get("code") ?? ""
  const form = new URLSearchParams({
    grant_type: "authorization_code",
    code,
    redirect_uri: redirect,
    client_id: bank.clientId,
    client_secret: Redacted.value(bank.clientSecret)
  })
  const answer = yield* Effect.promise(() =>
    fetch(`${bank.baseUrl}${bank.paths.token}`, { method: "POST", body: form })
  )
  const { access_token } = (yield* Effect.promise(() => answer.json())) as { access_token: string }

  const client = BankClient.BankClient.layerOver(
    BankConfig.BankConfig.layer({
      environment: "sandbox",
      baseUrl: bank.baseUrl,
      clientId: bank.clientId,
      clientSecret: bank.clientSecret,
      profile,
      apiKey: bank.apiKey,
      tpp: { name: "My Budget App s.r.o." }
    }),
    BankTransport.BankTransport.layerUndici()
  )
  const bankClient = Context.get(yield* Layer.build(client), BankClient.BankClient)
  const psu = { ipAddress: "203.0.113.7", deviceOs: "iOS 18", userAgent: "MyBudgetApp/2.1" }
  const token = TokenService.fromSca("sandbox", Redacted.make(access_token))
  const pages = yield* Stream.runCollect(bankClient.standingOrders({ psu, token }))
  console.log(profile.name, "orders:", pages.flatMap((p) => p.body.records ?? []).length > 0) // mybank orders: true
})

await Effect.runPromise(Effect.scoped(program))
