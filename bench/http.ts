/**
 * HTTP client overhead (issue 4): one balance check through the whole client stack (BankClient: validation,
 * encoding, cached token, headers, span, timeout, retry wrapper, decoding) against a bare undici request with the
 * same headers and body, to the same minimal node:http server on loopback, in one process, alternating rounds.
 * Reports the ratio of median per-request times (target ≤ 1.2×); the same with a tracer installed (the client makes
 * spans only then); the stack against a bare call of undici's dispatcher API, which its transport uses; and the
 * stack's own CPU time per call over a transport that answers in-process (no socket).
 *
 * `pnpm bench` runs it with the other suites; `pnpm exec node --conditions=@tppkit/source bench/http.ts` alone.
 * Environment: BENCH_HTTP_ROUNDS (default 40), BENCH_HTTP_REQUESTS (per round, default 250).
 */
import { randomUUID } from "node:crypto"
import { once } from "node:events"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg } from "node:os"
import { Currency, Iban, Money } from "@tppkit/core"
import { BankClient, BankConfig, BankTransport, Budget, TokenService } from "@tppkit/http"
import { Effect, Layer, ManagedRuntime, Redacted, Tracer } from "effect"
import { Agent, request } from "undici"

const rounds = Number(process.env.BENCH_HTTP_ROUNDS ?? 40)
const perRound = Number(process.env.BENCH_HTTP_REQUESTS ?? 250)

const server = createServer((req, res) => {
  const chunks: Array<Buffer> = []
  req.on("data", (c: Buffer) => chunks.push(c))
  req.on("end", () => {
    const payload = req.url?.endsWith("/connect/token")
      ? JSON.stringify({ access_token: "bench-token", token_type: "Bearer", expires_in: 1200 })
      : JSON.stringify({ response: "APPR", dateTime: "2026-11-21T10:00:00Z" })
    res.writeHead(200, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(payload),
      "response-id": String(req.headers["request-id"] ?? "")
    })
    res.end(payload)
  })
})
server.listen(0, "127.0.0.1")
await once(server, "listening")
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

const runtime = ManagedRuntime.make(
  BankClient.layerNodeFromOptions(
    { environment: "sandbox", baseUrl, clientId: "bench", clientSecret: Redacted.make("bench-secret") },
    { budgetFile: "memory" }
  )
)
const psu = { ipAddress: "203.0.113.7", deviceOs: "Linux", userAgent: "bench/1.0" }
const checkRequest = {
  instructionIdentification: "bench-1",
  iban: Iban.parseUnsafe("SK2411000000002612345678"),
  amount: { value: Money.parseUnsafe("120.50"), currency: Currency.EUR }
}

const calls = (n: number) =>
  Effect.gen(function* () {
    const client = yield* BankClient.BankClient
    for (let i = 0; i < n; i++) yield* client.balanceCheck(checkRequest, { psu })
  })
const stackRound = (n: number): Promise<void> => runtime.runPromise(calls(n))

// a tracer that makes every span (as an exporter would) and keeps none: the client's spans are then made and ended
let spansMade = 0
const makingTracer = Tracer.make({
  span: (options) => {
    spansMade++
    return new Tracer.NativeSpan(options)
  }
})
const tracedRound = (n: number): Promise<void> => runtime.runPromise(Effect.withTracer(calls(n), makingTracer))

const agent = new Agent()
const url = `${baseUrl}/piisp-test/api/v1/accounts/balanceCheck`
const wireRequest = {
  instructionIdentification: "bench-1",
  iban: "SK2411000000002612345678",
  amount: { value: 120.5, currency: "EUR" }
}
/** The headers the stack sends, with fresh IDs per request. */
const wireHeaders = () => ({
  "Content-Type": "application/json;charset=UTF-8",
  Authorization: "Bearer bench-token",
  "Request-ID": randomUUID(),
  "Correlation-ID": randomUUID(),
  "PSU-IP-Address": psu.ipAddress,
  "PSU-Device-OS": psu.deviceOs,
  "PSU-User-Agent": psu.userAgent
})
const bareRound = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) {
    // like the stack: the body serialised per request, the response parsed as JSON
    const body = JSON.stringify(wireRequest)
    const res = await request(url, {
      method: "POST",
      dispatcher: agent,
      headers: wireHeaders(),
      body
    })
    const parsed = JSON.parse(await res.body.text()) as { response?: string }
    if (res.statusCode !== 200 || parsed.response !== "APPR") throw new Error("unexpected bare response")
  }
}

// the same request on undici's dispatcher API, which the client's transport uses: what the stack adds to that
const { origin, pathname } = new URL(url)
const dispatchOnce = (): Promise<void> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let status = 0
    agent.dispatch(
      {
        origin,
        path: pathname,
        method: "POST",
        headers: wireHeaders(),
        body: JSON.stringify(wireRequest)
      },
      {
        onRequestStart: () => {},
        onResponseStart: (_c, statusCode) => {
          status = statusCode
        },
        onResponseData: (_c, chunk) => {
          chunks.push(chunk)
        },
        onResponseEnd: () => {
          const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { response?: string }
          if (status !== 200 || parsed.response !== "APPR") reject(new Error("unexpected bare response"))
          else resolve()
        },
        onResponseError: (_c, error) => reject(error)
      }
    )
  })
const dispatchRound = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await dispatchOnce()
}

const time = async (f: () => Promise<void>): Promise<number> => {
  const start = process.hrtime.bigint()
  await f()
  return Number(process.hrtime.bigint() - start) / 1e6
}

const median = (xs: Array<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2
}

// warm-up: token, connections, JIT
await stackRound(500)
await tracedRound(500)
await bareRound(500)
await dispatchRound(500)

// many short rounds, the four kinds in turn with the starting one rotating (none always runs on a warmer process):
// the load of a shared machine drifts less within one turn than over a run
const kinds = { stack: stackRound, traced: tracedRound, bare: bareRound, dispatch: dispatchRound }
type Kind = keyof typeof kinds
const names = Object.keys(kinds) as Array<Kind>
const perKind: Record<Kind, Array<number>> = { stack: [], traced: [], bare: [], dispatch: [] }
const pairRatios: Array<number> = []
const dispatchRatios: Array<number> = []
for (let r = 0; r < rounds; r++) {
  const turn: Partial<Record<Kind, number>> = {}
  for (let j = 0; j < names.length; j++) {
    const kind = names[(r + j) % names.length] as Kind
    turn[kind] = (await time(() => kinds[kind](perRound))) / perRound
    perKind[kind].push(turn[kind])
  }
  pairRatios.push((turn.stack ?? 0) / (turn.bare ?? 1))
  dispatchRatios.push((turn.stack ?? 0) / (turn.dispatch ?? 1))
}

const ms = (x: number) => `${(x * 1000).toFixed(0)} µs`
const m = (kind: Kind) => median(perKind[kind])
const ratio = m("stack") / m("bare")
console.log(
  `http client overhead (${rounds} rounds × ${perRound} sequential balance checks, loopback; load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")})`
)
console.log(`  whole client stack        median ${ms(m("stack"))}/request`)
console.log(`  bare undici request       median ${ms(m("bare"))}/request`)
console.log(`  ratio ${ratio.toFixed(2)}× (target ≤ 1.2×) ${ratio <= 1.2 ? "ok" : "ABOVE TARGET"}`)
console.log(`  median of the per-turn ratios ${median(pairRatios).toFixed(2)}×`)
console.log(
  `  with a tracer installed   median ${ms(m("traced"))}/request, ${(m("traced") / m("bare")).toFixed(2)}× bare (2 spans per call; ${spansMade} made)`
)
console.log(
  `  bare undici dispatch      median ${ms(m("dispatch"))}/request: the stack is ${(m("stack") / m("dispatch")).toFixed(2)}× the dispatcher API it runs on`
)
// on a loaded machine the turn-by-turn ratio is the steadier figure: both kinds ran back to back under one load
const dispatchRatio = median(dispatchRatios)
console.log(
  `  median of the per-turn ratios against dispatch ${dispatchRatio.toFixed(2)}× (target ≤ 1.2×) ${dispatchRatio <= 1.2 ? "ok" : "ABOVE TARGET"}`
)

// the stack's own CPU per call: the same client over a transport that answers at once, in-process
const inProcess = ManagedRuntime.make(
  BankClient.BankClient.layer.pipe(
    Layer.provide(TokenService.TokenProvider.layer),
    Layer.provide(TokenService.TokenService.layer),
    Layer.provide(Budget.Budget.layer.pipe(Layer.provide(Budget.BudgetStore.layerMemory))),
    Layer.provide(
      Layer.succeed(
        BankTransport.BankTransport,
        BankTransport.BankTransport.of({
          send: (o) =>
            Effect.succeed(
              o.url.endsWith("/connect/token")
                ? { status: 200, headers: {}, text: '{"access_token":"t","token_type":"Bearer","expires_in":1200}' }
                : {
                    status: 200,
                    headers: { "response-id": o.headers["Request-ID"] ?? "" },
                    text: '{"response":"APPR","dateTime":"2026-11-21T10:00:00Z"}'
                  }
            )
        })
      )
    ),
    Layer.provide(
      BankConfig.BankConfig.layer({
        environment: "sandbox",
        baseUrl: "http://127.0.0.1:9",
        clientId: "bench",
        clientSecret: Redacted.make("bench-secret")
      })
    )
  )
)
const cpuRound = async (n: number): Promise<number> => {
  const before = process.cpuUsage()
  await inProcess.runPromise(
    Effect.gen(function* () {
      const client = yield* BankClient.BankClient
      for (let i = 0; i < n; i++) yield* client.balanceCheck(checkRequest, { psu })
    })
  )
  const used = process.cpuUsage(before)
  return (used.user + used.system) / 1000 / n
}
await cpuRound(2000)
const cpu: Array<number> = []
for (let r = 0; r < rounds; r++) cpu.push(await cpuRound(perRound * 4))
console.log(`  stack CPU per call over an in-process transport: median ${ms(median(cpu))}`)

// the same in-process calls, each followed by one bare request: what the stack's work costs when it alternates
// with real socket work (caches and the young generation shared with undici and the server), against bare alone
const mixedRound = async (n: number): Promise<void> => {
  const client = await inProcess.runPromise(Effect.service(BankClient.BankClient))
  for (let i = 0; i < n; i++) {
    await inProcess.runPromise(client.balanceCheck(checkRequest, { psu }))
    await bareRound(1)
  }
}
const mixedExtra: Array<number> = []
for (let r = 0; r < rounds; r++) {
  const b = (await time(() => bareRound(perRound))) / perRound
  const m = (await time(() => mixedRound(perRound))) / perRound
  mixedExtra.push(m - b)
}
console.log(`  the same calls each followed by a bare request, minus bare alone: median ${ms(median(mixedExtra))}`)

await inProcess.dispose()
await runtime.dispose()
await agent.close()
server.close()
