// A receiver of the fleet's webhooks: check each request with the endpoint's secret before trusting it, then
// de-duplicate by the event id (a delivery may come more than once). Node's http server on loopback here.
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Webhook } from "@tppkit/worker"
import { Redacted, Result } from "effect"

const secret = Redacted.make("the endpoint's secret") // in production: from the environment, never logged
const seen = new Set<string>()

const server = createServer((req, res) => {
  let body = ""
  req.setEncoding("utf8").on("data", (chunk: string) => {
    body += chunk
  })
  req.on("end", () => {
    const signature = req.headers[Webhook.signatureHeader]
    const event = Webhook.verify({ body, signature: typeof signature === "string" ? signature : undefined, secret })
    if (Result.isFailure(event)) {
      res.writeHead(400).end() // not ours, changed on the way, or too old (a replay)
      return
    }
    if (!seen.has(event.success.id)) {
      seen.add(event.success.id)
      console.log(`${event.success.type}: ${JSON.stringify(event.success.data)}`)
    }
    res.writeHead(204).end() // any 2xx: delivered; anything else is tried again later
  })
})

// what a worker sends, signed now (Webhook.sign), posted once and then again
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
const body = JSON.stringify({
  id: "evt_4d2c9e0f6a7b8c1d2e3f405162738495",
  type: "check.declined",
  occurredAt: "2026-11-02T07:00:04Z",
  data: { orderId: "SO-RENT", executionDate: "2026-11-03", amount: "650.10", currency: "EUR", outcome: "DECL" }
})
for (let i = 0; i < 2; i++) {
  const signature = Webhook.sign(secret, Math.floor(Date.now() / 1000), body)
  const answer = await fetch(url, { method: "POST", body, headers: { [Webhook.signatureHeader]: signature } })
  console.log(`delivery ${i + 1}: HTTP ${answer.status}`)
}
const forged = await fetch(url, {
  method: "POST",
  body,
  headers: { [Webhook.signatureHeader]: `t=1,v1=${"0".repeat(64)}` }
})
console.log(`forged: HTTP ${forged.status}`)
server.close()
