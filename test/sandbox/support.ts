/**
 * Helpers shared by the suites that talk to the mock bank: token requests and API calls with the mandatory headers
 * over raw HTTP (the seed bank's and COBS's), the mock bank built in the test's scope (on the real clock or a clock of
 * the test's), and a transport that asks it for faults.
 */
import { randomUUID } from "node:crypto"
import { BankTransport } from "@tppkit/http"
import { Journal, Sandbox, SandboxClock } from "@tppkit/sandbox"
import { Context, Effect, Layer, Redacted, type Scope } from "effect"
import { TestClock } from "effect/testing"

/** The bits of `SandboxInfo` the helpers need. */
export type Info = Sandbox.SandboxInfo["Service"]

/** A decoded answer: status, lower-case headers and the body as text and (when it parses) JSON. */
export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field in the tests
  readonly json: any
}

const read = async (res: Response): Promise<Answer> => {
  const text = await res.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: res.status, headers: res.headers, text, json }
}

/** POSTs a raw request and reads the answer. */
export const post = (url: string, init: { headers?: Record<string, string>; body?: string; method?: string }) =>
  Effect.promise(() =>
    fetch(url, { method: init.method ?? "POST", headers: init.headers ?? {}, body: init.body ?? null }).then(read)
  )

/** Requests a token by client credentials; `client` defaults to the first fixture client. */
export const tokenAnswer = (
  info: Info,
  scope: string,
  client: { clientId: string; clientSecret: string } = {
    clientId: info.clientId,
    clientSecret: Redacted.value(info.clientSecret)
  }
) =>
  post(info.baseUrl + info.paths.token, {
    headers: { "content-type": "application/x-www-form-urlencoded;charset=UTF-8" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope
    }).toString()
  })

/** Requests a token and returns the access token, failing the test when none is issued. */
export const token = (info: Info, scope: string, client?: { clientId: string; clientSecret: string }) =>
  Effect.map(tokenAnswer(info, scope, client), (a) => {
    if (a.status !== 200) throw new Error(`token request failed: ${a.status} ${a.text}`)
    return a.json.access_token as string
  })

/** The mandatory API headers (spec 4.2) for `accessToken`, plus any extras. */
export const apiHeaders = (accessToken: string, extra: Record<string, string> = {}): Record<string, string> => ({
  "content-type": "application/json;charset=UTF-8",
  authorization: `Bearer ${accessToken}`,
  "request-id": randomUUID(),
  "psu-ip-address": "192.0.2.10",
  "psu-device-os": "Linux",
  "psu-user-agent": "tppkit-tests",
  ...extra
})

/** A balance-check body (spec 2.2). */
export const balanceBody = (iban: string, value: number, currency = "EUR") =>
  JSON.stringify({ instructionIdentification: randomUUID().slice(0, 35), iban, amount: { value, currency } })

/**
 * The headers of a COBS call to the mock bank `info` with the customer's `accessToken`, the customer present, as the
 * TPP named `tppName`; `extra` added or in place of them.
 */
export const cobsHeaders = (
  info: Info,
  accessToken: string,
  tppName: string,
  extra: Record<string, string> = {}
): Record<string, string> => ({
  "content-type": "application/json",
  "api-key": Redacted.value(info.apiKey),
  "x-request-id": randomUUID(),
  date: new Date().toUTCString(),
  "user-involved": "true",
  "tpp-name": tppName,
  authorization: `Bearer ${accessToken}`,
  ...extra
})

/**
 * The customer's tokens from a mock bank playing COBS, through its authorization-code flow (it approves at once):
 * `GET /oauth2/auth`, then the code exchanged at `POST /oauth2/token`.
 */
export const customerTokens = async (
  info: Info
): Promise<{ access_token: string; refresh_token: string; expires_in: number }> => {
  const redirect = "https://tpp.example/callback"
  const auth = await fetch(
    `${info.baseUrl}/oauth2/auth?response_type=code&client_id=${info.clientId}&redirect_uri=${encodeURIComponent(redirect)}&scope=AISP%20aisp.standingorders&state=s1`,
    { redirect: "manual" }
  )
  const location = new URL(auth.headers.get("location") ?? "")
  if (auth.status !== 302 || location.searchParams.get("state") !== "s1") throw new Error("no redirect with a code")
  const answer = await fetch(`${info.baseUrl}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: location.searchParams.get("code") ?? "",
      client_id: info.clientId,
      client_secret: Redacted.value(info.clientSecret),
      redirect_uri: redirect
    })
  })
  if (answer.status !== 200) throw new Error(`token answer ${answer.status}`)
  return (await answer.json()) as { access_token: string; refresh_token: string; expires_in: number }
}

/** A built mock bank's address and credentials, its clock and its journal. */
const partsOf = (bank: Context.Context<Sandbox.SandboxInfo | SandboxClock.SandboxClock | Journal.Journal>) => ({
  info: Context.get(bank, Sandbox.SandboxInfo),
  clock: Context.get(bank, SandboxClock.SandboxClock),
  journal: Context.get(bank, Journal.Journal)
})

/**
 * The mock bank of `options` built in the test's scope on a clock of its own set to `start` (epoch milliseconds), the
 * test's clock set there too: its address and credentials, its clock (to move it) and its journal.
 */
export const bankAt = (start: number, options: Sandbox.Options) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(start)
    const bank = yield* Layer.build(
      Sandbox.layerServer(options).pipe(
        Layer.provideMerge(Layer.mergeAll(SandboxClock.SandboxClock.layerFixed(start), Journal.Journal.layer))
      )
    )
    return partsOf(bank)
  })

/**
 * The mock bank of `options` built in the test's scope (on the real clock): its address and credentials, its clock
 * and its journal.
 */
export const bankOf = (options: Sandbox.Options = {}) => Effect.map(Layer.build(Sandbox.layer(options)), partsOf)

/**
 * Runs `body` on the mock bank of `options` (on the real clock), built for it and stopped when it ends: for the tests
 * on vitest's own `it`.
 */
export const runOnBank = <A, E>(
  options: Sandbox.Options,
  body: (bank: Effect.Success<ReturnType<typeof bankOf>>) => Effect.Effect<A, E, Scope.Scope>
): Promise<A> => Effect.runPromise(Effect.scoped(Effect.flatMap(bankOf(options), body)))

/**
 * Undici, asking the mock bank for the fault `faultOf` names for a request (its `X-Sandbox-Fault` header: "502",
 * "reset", "error=CODE" …); a request it names none for is sent as it is.
 */
export const faulting = (faultOf: (request: BankTransport.Outgoing) => string | undefined) =>
  Layer.effect(
    BankTransport.BankTransport,
    Effect.map(Effect.service(BankTransport.BankTransport), (inner) =>
      BankTransport.BankTransport.of({
        send: (request, timeout, maxBodyBytes) => {
          const fault = faultOf(request)
          const sent =
            fault === undefined ? request : { ...request, headers: { ...request.headers, "x-sandbox-fault": fault } }
          return inner.send(sent, timeout, maxBodyBytes)
        }
      })
    )
  ).pipe(Layer.provide(BankTransport.BankTransport.layerUndici()))
