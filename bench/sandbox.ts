/**
 * Mock bank throughput (issues 5 and 11): balance checks per second with 50 concurrent connections on loopback,
 * against a minimal node:http server that answers the same JSON, in one run, as a ratio (target ≥ 0.6×). Each server
 * runs in its own child process, so that the load generator (autocannon, in this process) does not share their event
 * loop. Every request has its own Request-ID and goes to one of 1,000 accounts (each with a branch consent) with its
 * own amount, so that no cache of the mock bank (IBAN checks, answer texts) is flattered by repetition.
 *
 * `pnpm bench` runs it with the other suites; `pnpm exec node --conditions=@tppkit/source bench/sandbox.ts` alone.
 * Environment: BENCH_SANDBOX_SECONDS (default 4) per run, BENCH_SANDBOX_ROUNDS (default 5).
 *
 * Besides requests per second it prints each server's CPU time per request (user + system, all threads of the child,
 * which reports `process.cpuUsage()` when asked on stdin): on a machine shared with other jobs that figure, and the
 * ratio of the two, vary much less than the rates, which depend on how much of the two cores a server happens to get.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import { createRequire } from "node:module"
import { loadavg } from "node:os"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { upperMedian } from "./support.ts"

/** Accounts the bench's requests rotate over: valid IBANs (SK), each a fixture account with a branch consent. */
const accountCount = 1000
const benchIbans = (): Array<string> => {
  const out: Array<string> = []
  for (let i = 0; i < accountCount; i++) {
    const bban = `1100${String(1_000_000_000_000 + i * 7919).padStart(16, "0")}`
    out.push(`SK${checkDigits("SK", bban)}${bban}`)
  }
  return out
}

/** ISO 7064 mod 97-10 check digits of an IBAN (written here so that the load generator needs no package). */
const checkDigits = (country: string, bban: string): string => {
  const digits = `${bban}${country}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55))
  let rest = 0
  for (const ch of digits) rest = (rest * 10 + Number(ch)) % 97
  return String(98 - rest).padStart(2, "0")
}

interface AutocannonResult {
  readonly requests: { readonly average: number; readonly total: number }
  readonly latency: { readonly p50: number; readonly p99: number }
  readonly non2xx: number
  readonly errors: number
}
interface RawRequest {
  headers?: Record<string, string>
  body?: string
}
type Autocannon = (options: {
  readonly url: string
  readonly connections: number
  readonly duration: number
  readonly method: "POST"
  readonly headers: Record<string, string>
  readonly body: string
  readonly requests: ReadonlyArray<{ readonly setupRequest: (req: RawRequest) => RawRequest }>
}) => Promise<AutocannonResult>

const self = fileURLToPath(import.meta.url)
const ibans = benchIbans()
const body = JSON.stringify({
  instructionIdentification: "bench-1",
  iban: ibans[0],
  amount: { value: 120.5, currency: "EUR" }
})

/** Child mode: serve the mock bank or the baseline, print `{ url, token }` as one line, then CPU usage when asked. */
const serve = async (kind: string): Promise<void> => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(0))
  createInterface({ input: process.stdin }).on("line", () => {
    const { user, system } = process.cpuUsage()
    process.stdout.write(`${user + system}\n`)
  })
  if (kind === "baseline") {
    const server = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        const payload = JSON.stringify({ response: "APPR", dateTime: new Date().toISOString() })
        res.writeHead(200, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(payload),
          "response-id": String(req.headers["request-id"] ?? "")
        })
        res.end(payload)
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address ? address.port : 0
      process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/`, token: "none" })}\n`)
    })
    return
  }
  const { Fixtures, Sandbox } = await import("@tppkit/sandbox")
  const { Context, Effect, Layer } = await import("effect")
  const { token } = await import("../test/sandbox/support.ts") // by client credentials, as the tests ask for one
  const fixtures = {
    ...Fixtures.defaults,
    accounts: [
      ...Fixtures.defaults.accounts,
      ...ibans.map((iban, i) => ({
        iban,
        owner: `Bench ${i}`,
        currency: "EUR",
        balance: "100000.00",
        consent: { kind: "branch" as const }
      }))
    ]
  }
  await Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const context = yield* Layer.build(Sandbox.layer({ fixtures }))
        const info = Context.get(context, Sandbox.SandboxInfo)
        const accessToken = yield* token(info, "PIISP")
        process.stdout.write(`${JSON.stringify({ url: info.baseUrl + info.paths.balanceCheck, token: accessToken })}\n`)
        return yield* Effect.never
      })
    )
  )
}

interface Server {
  readonly child: ChildProcess
  readonly url: string
  readonly token: string
  /** The child's CPU time so far (user + system, microseconds). */
  readonly cpu: () => Promise<number>
}

const start = (kind: string): Promise<Server> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=@tppkit/source", self, "--serve", kind], {
      stdio: ["pipe", "pipe", "inherit"]
    })
    const waiting: Array<(micros: number) => void> = []
    let first = true
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      if (first) {
        first = false
        const { url, token } = JSON.parse(line) as { url: string; token: string }
        const cpu = () =>
          new Promise<number>((answer) => {
            waiting.push(answer)
            child.stdin?.write("cpu\n")
          })
        resolve({ child, url, token, cpu })
      } else waiting.shift()?.(Number(line))
    })
    child.once("exit", (code) => reject(new Error(`${kind} server exited with ${code}`)))
  })

/** One load run: autocannon's result and the server's CPU time per request answered (µs). */
interface Run {
  readonly result: AutocannonResult
  readonly cpuPerRequest: number
}

const load = async (server: Server, seconds: number): Promise<Run> => {
  const before = await server.cpu()
  const result = await autocannon(server, seconds)
  const after = await server.cpu()
  return { result, cpuPerRequest: (after - before) / Math.max(1, result.requests.total) }
}

let sent = 0

const autocannon = (server: Server, seconds: number): Promise<AutocannonResult> => {
  const run = createRequire(import.meta.url)("autocannon") as Autocannon
  return run({
    url: server.url,
    connections: 50,
    duration: seconds,
    method: "POST",
    headers: {
      "content-type": "application/json;charset=UTF-8",
      authorization: `Bearer ${server.token}`,
      "request-id": randomUUID(),
      "psu-ip-address": "192.0.2.10",
      "psu-device-os": "Linux",
      "psu-user-agent": "tppkit-bench"
    },
    body,
    requests: [
      {
        // a Request-ID, an account and an amount of its own for every request
        setupRequest: (req) => {
          sent += 1
          const iban = ibans[sent % ibans.length]
          req.headers = { ...req.headers, "request-id": randomUUID() }
          req.body = `{"instructionIdentification":"bench-${sent}","iban":"${iban}","amount":{"value":${(sent % 99_999) + 1}.${String(sent % 100).padStart(2, "0")},"currency":"EUR"}}`
          return req
        }
      }
    ]
  })
}

const main = async (): Promise<void> => {
  const seconds = Number(process.env.BENCH_SANDBOX_SECONDS ?? 4)
  const rounds = Number(process.env.BENCH_SANDBOX_ROUNDS ?? 5)
  const baseline = await start("baseline")
  const sandbox = await start("sandbox")
  try {
    // Warm both up (JIT), then alternate short runs so that machine noise hits both alike.
    await load(baseline, 4)
    await load(sandbox, 4)
    const results: Array<{ baseline: Run; sandbox: Run }> = []
    for (let i = 0; i < rounds; i++) {
      results.push({ baseline: await load(baseline, seconds), sandbox: await load(sandbox, seconds) })
    }
    const row = (name: string, { result: r, cpuPerRequest }: Run) =>
      `${name.padEnd(20)} ${r.requests.average.toFixed(0).padStart(7)} req/s  CPU ${cpuPerRequest.toFixed(1).padStart(5)} µs/req  p50 ${String(r.latency.p50).padStart(3)} ms  p99 ${String(r.latency.p99).padStart(3)} ms  non-2xx ${r.non2xx}  errors ${r.errors}`
    console.log(`sandbox: balance checks, 50 connections, ${rounds} alternating rounds of ${seconds} s, loopback`)
    const ratios: Array<number> = []
    const cpuRatios: Array<number> = []
    for (const [i, r] of results.entries()) {
      console.log(`round ${i + 1}`)
      console.log(row("  node:http baseline", r.baseline))
      console.log(row("  mock bank", r.sandbox))
      ratios.push(r.sandbox.result.requests.average / r.baseline.result.requests.average)
      cpuRatios.push(r.baseline.cpuPerRequest / r.sandbox.cpuPerRequest)
    }
    const list = (xs: ReadonlyArray<number>) => xs.map((r) => r.toFixed(2)).join(", ")
    console.log(`ratio mock bank / baseline: median ${upperMedian(ratios).toFixed(2)}× (rounds: ${list(ratios)})`)
    console.log(
      `by CPU per request (baseline µs / mock bank µs): median ${upperMedian(cpuRatios).toFixed(2)}× (rounds: ${list(cpuRatios)})`
    )
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`
    )
  } finally {
    baseline.child.kill("SIGTERM")
    sandbox.child.kill("SIGTERM")
  }
}

const serveIndex = process.argv.indexOf("--serve")
if (serveIndex !== -1) await serve(process.argv[serveIndex + 1] ?? "sandbox")
else await main()
