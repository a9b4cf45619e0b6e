/**
 * The minimal loopback bank of `bench/http.ts`: a `node:http` server on 127.0.0.1 that answers the token path with a
 * token and every other path with a balance-check answer, echoing the Request-ID as Response-ID. The bench runs it
 * in its own process and, as a separate measurement, in a child process started with this file as its script: the
 * child prints its port as one line, and ends when its standard input closes (the bench ended) or after 10 minutes.
 */
import { once } from "node:events"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"

const token = JSON.stringify({ access_token: "bench-token", token_type: "Bearer", expires_in: 1200 })
const answer = JSON.stringify({ response: "APPR", dateTime: "2026-11-21T10:00:00Z" })

/** Starts the server on a free loopback port; resolves with it and its base URL. */
export const start = async (): Promise<{ readonly server: Server; readonly baseUrl: string }> => {
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const payload = req.url?.endsWith("/connect/token") ? token : answer
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
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { server, baseUrl } = await start()
  const stop = () => {
    server.close()
    server.closeAllConnections()
    process.exit(0)
  }
  process.stdin.on("end", stop)
  process.stdin.on("error", stop)
  process.stdin.resume()
  setTimeout(stop, 10 * 60_000).unref()
  process.stdout.write(`${baseUrl}\n`)
}
