/**
 * The mock bank under a flood (issue 11): 10,000 requests with 65 KB bodies to an unknown path, 50 at a time, with
 * the server's resident memory sampled during and after (target: under 300 MB throughout), then 20 concurrent
 * `GET /__journal` reads, each timed (target: each within 2 s). The server runs in a child process, so that its
 * memory is its own.
 *
 * Then floods of large token forms (issue 19), 1,000 at a time: 65,000-byte forms (refused with 413 before they are
 * read) and 8,000-byte ones (read), the resident memory sampled (target: under 300 MB).
 *
 * `pnpm bench` runs it with the other suites; `pnpm exec node --conditions=@tppkit/source bench/sandboxFlood.ts`
 * alone. Environment: BENCH_FLOOD_REQUESTS (default 10000), BENCH_FLOOD_BYTES (default 65000), BENCH_FLOOD_FORMS
 * (forms per size, default 6000).
 */
import { spawn } from "node:child_process"
import { request } from "node:http"
import { loadavg } from "node:os"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"

const self = fileURLToPath(import.meta.url)

/** Child mode: serve the mock bank, print its base URL, then its resident memory (bytes) whenever asked. */
const serve = async (): Promise<void> => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(0))
  createInterface({ input: process.stdin }).on("line", () => {
    process.stdout.write(`${process.memoryUsage().rss}\n`)
  })
  const { Sandbox } = await import("@tppkit/sandbox")
  const { Context, Effect, Layer } = await import("effect")
  await Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const context = yield* Layer.build(Sandbox.layer())
        process.stdout.write(`${Context.get(context, Sandbox.SandboxInfo).baseUrl}\n`)
        return yield* Effect.never
      })
    )
  )
}

/** One request on a fresh connection (`agent: false`), resolved with the status and the body's length. */
const send = (
  url: string,
  method: string,
  body?: Buffer,
  headers: Record<string, string> = body ? { "content-type": "application/json" } : {}
): Promise<{ status: number; bytes: number }> =>
  new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false, headers }, (res) => {
      let bytes = 0
      res.on("data", (c: Buffer) => {
        bytes += c.length
      })
      res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end(body)
  })

/** The mock bank in a child process of its own: its base URL, its resident memory in MB on demand. */
const startServer = async () => {
  const child = spawn(process.execPath, ["--conditions=@tppkit/source", self, "--serve"], {
    stdio: ["pipe", "pipe", "inherit"]
  })
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
  const waiting: Array<(line: string) => void> = []
  lines.on("line", (line) => waiting.shift()?.(line))
  const next = () => new Promise<string>((resolve) => waiting.push(resolve))
  const baseUrl = await next()
  const rss = async () => {
    const answer = next()
    child.stdin?.write("rss\n")
    return Number(await answer) / 1024 / 1024
  }
  return { child, baseUrl, rss }
}

/**
 * Floods of large forms to the token endpoint (issue 19), each against a fresh mock bank, 1,000 at a time on fresh
 * connections: 65,000-byte forms (refused with 413 before they are read) and 8,000-byte ones (read, thousands of
 * fields each).
 */
const formFloods = async (): Promise<void> => {
  const forms = Number(process.env.BENCH_FLOOD_FORMS ?? 6_000)
  for (const formBytes of [65_000, 8_000]) {
    const { child, baseUrl, rss } = await startServer()
    try {
      const form = Buffer.from(`grant_type=client_credentials&${"a=b&".repeat(Math.floor((formBytes - 30) / 4))}`)
      const statuses = new Map<number, number>()
      let sent = 0
      let peak = await rss()
      const start = peak
      const sampler = setInterval(() => {
        void rss().then((m) => {
          peak = Math.max(peak, m)
        })
      }, 200)
      const worker = async () => {
        while (sent < forms) {
          sent += 1
          const a = await send(`${baseUrl}/identity-server-test/connect/token`, "POST", form, {
            "content-type": "application/x-www-form-urlencoded"
          }).catch(() => ({ status: 0, bytes: 0 }))
          statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1)
        }
      }
      await Promise.all(Array.from({ length: 1_000 }, worker))
      clearInterval(sampler)
      peak = Math.max(peak, await rss())
      console.log(
        `  ${forms} token forms of ${form.length} bytes, 1,000 at a time: resident memory start ${start.toFixed(0)} MB, peak ${peak.toFixed(0)} MB (target < 300 MB); statuses ${[...statuses].map(([k, v]) => `${k}×${v}`).join(", ")}`
      )
    } finally {
      child.kill("SIGTERM")
    }
  }
}

const main = async (): Promise<void> => {
  const total = Number(process.env.BENCH_FLOOD_REQUESTS ?? 10_000)
  const size = Number(process.env.BENCH_FLOOD_BYTES ?? 65_000)
  const { child, baseUrl, rss } = await startServer()
  try {
    const body = Buffer.alloc(size, "x")
    const startRss = await rss()
    let peak = startRss
    let sent = 0
    const started = performance.now()
    const worker = async () => {
      while (sent < total) {
        sent += 1
        await send(`${baseUrl}/flood/${sent}`, "POST", body)
        if (sent % 500 === 0) peak = Math.max(peak, await rss())
      }
    }
    await Promise.all(Array.from({ length: 50 }, worker))
    const floodSeconds = (performance.now() - started) / 1000
    peak = Math.max(peak, await rss())
    const reads = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const t0 = performance.now()
        const r = await send(`${baseUrl}/__journal`, "GET")
        return { ms: performance.now() - t0, bytes: r.bytes, status: r.status }
      })
    )
    const after = await rss()
    const slowest = Math.max(...reads.map((r) => r.ms))
    console.log(`sandbox flood: ${total} requests of ${size} bytes to an unknown path, 50 at a time, loopback`)
    console.log(
      `  flood ${floodSeconds.toFixed(1)} s; resident memory: start ${startRss.toFixed(0)} MB, peak during ${peak.toFixed(0)} MB, after the reads ${after.toFixed(0)} MB (target < 300 MB)`
    )
    console.log(
      `  20 concurrent GET /__journal: slowest ${slowest.toFixed(0)} ms, median ${[...reads.map((r) => r.ms)].sort((a, b) => a - b)[10]?.toFixed(0)} ms (target ≤ 2000 ms each), ${((reads[0]?.bytes ?? 0) / 1024 / 1024).toFixed(1)} MB each, statuses ${[...new Set(reads.map((r) => r.status))].join(",")}`
    )
    console.log(
      `  load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`
    )
  } finally {
    child.kill("SIGTERM")
  }
  await formFloods()
}

if (process.argv.includes("--serve")) await serve()
else await main()
