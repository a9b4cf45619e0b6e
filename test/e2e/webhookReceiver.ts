/**
 * A receiver of the fleet's webhooks on 127.0.0.1 for the e2e tests: it keeps every request as it came (the Standard
 * Webhooks headers and the body) and answers as the test says; the `standardwebhooks` package verifies them.
 */
import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Webhook as StandardWebhook } from "standardwebhooks"

/** A request the receiver got, and what it answered (`hang`: no answer until the receiver closes). */
export interface Received {
  readonly id: string
  readonly timestamp: string
  readonly body: string
  readonly signature: string
  readonly status: number | "hang"
}

/** A receiver on 127.0.0.1 answering each request as `answer()` says at that moment: its URL, what it got, close. */
export const receiver = async (answer: () => number | "hang") => {
  const got: Array<Received> = []
  const hanging: Array<ServerResponse> = []
  const server = createServer((req, res) => {
    let body = ""
    req.setEncoding("utf8").on("data", (c: string) => {
      body += c
    })
    req.on("end", () => {
      const status = answer()
      got.push({
        id: String(req.headers["webhook-id"]),
        timestamp: String(req.headers["webhook-timestamp"]),
        body,
        signature: String(req.headers["webhook-signature"]),
        status
      })
      if (status === "hang") hanging.push(res)
      else res.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tppkit`,
    got,
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of hanging) r.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** Whether the reference library verifies a request the receiver got against the endpoint's `secret`. */
export const verifies = (secret: string, g: Received): boolean => {
  try {
    new StandardWebhook(secret).verify(g.body, {
      "webhook-id": g.id,
      "webhook-timestamp": g.timestamp,
      "webhook-signature": g.signature
    })
    return true
  } catch {
    return false
  }
}
