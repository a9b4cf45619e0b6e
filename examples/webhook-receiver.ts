// A receiver of the fleet's webhooks (Standard Webhooks): check each request's three headers and body with the
// endpoint's secret before trusting it, then de-duplicate by webhook-id (a delivery may come more than once).
// Node's http server on loopback here; any Standard Webhooks library verifies the same requests.
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Webhook } from "@tppkit/worker"
import { Result } from "effect"

const secret = Webhook.makeSecret() // in production: the whsec_… given to the workers, from the environment
const seen = new Set<string>()

const server = createServer((req, res) => {
  let body = ""
  req.setEncoding("utf8").on("data", (chunk: string) => {
    body += chunk
  })
  req.on("end", () => {
    const verified = Webhook.verify({ body, headers: req.headers, secret })
    if (Result.isFailure(verified)) {
      res.writeHead(400).end() // not ours, changed on the way, or too old (a replay)
      return
    }
    const { id, event } = verified.success
    if (!seen.has(id)) {
      seen.add(id)
      console.log(`${event.type} at ${event.timestamp}: ${JSON.stringify(event.data)}`)
    }
    res.writeHead(204).end() // any 2xx: delivered; 410: the fleet stops sending; anything else is tried again later
  })
})

// what a worker sends, signed now (Webhook.sign), posted once and then again under the same webhook-id
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
const id = "evt_4d2c9e0f6a7b8c1d2e3f405162738495"
const body = JSON.stringify({
  type: "check.declined",
  timestamp: "2026-11-02T07:00:04Z",
  data: { orderId: "SO-RENT", executionDate: "2026-11-03", amount: "650.10", currency: "EUR", outcome: "DECL" }
})
for (let i = 0; i < 2; i++) {
  const timestamp = Math.floor(Date.now() / 1000)
  const signature = Result.getOrThrow(Webhook.sign(secret, id, timestamp, body))
  const answer = await fetch(url, {
    method: "POST",
    body,
    headers: { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signature }
  })
  console.log(`delivery ${i + 1}: HTTP ${answer.status}`)
}
const forged = await fetch(url, {
  method: "POST",
  body,
  headers: {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
    "webhook-signature": `v1,${Buffer.alloc(32).toString("base64")}`
  }
})
console.log(`forged: HTTP ${forged.status}`)
server.close()
