/**
 * A bank transport that records what the client sends and answers in-process (tests of the requests a profile makes:
 * test/http/cobsGolden, test/http/cobsOpenapi): each request as the transport receives it, answered by `answer` as JSON
 * with the request's `X-Request-ID` echoed.
 */
import { BankTransport } from "@tppkit/http"
import { Effect, Layer } from "effect"

/** A request as the transport received it (no body on a GET). */
export interface Sent {
  readonly method: string
  readonly url: URL
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
}

/** The recording transport and what it recorded. */
export const recording = (
  answer: (sent: Sent) => { status: number; body: unknown; headers?: Record<string, string> }
) => {
  const sent: Array<Sent> = []
  const layer = Layer.succeed(
    BankTransport.BankTransport,
    BankTransport.BankTransport.of({
      send: (outgoing) =>
        Effect.sync(() => {
          const method = outgoing.method ?? "POST"
          const s: Sent = {
            method,
            url: new URL(outgoing.url),
            headers: outgoing.headers,
            body: method === "GET" ? undefined : outgoing.body
          }
          sent.push(s)
          const a = answer(s)
          return {
            status: a.status,
            headers: {
              "content-type": "application/json",
              "x-request-id": outgoing.headers["X-Request-ID"] ?? "",
              ...a.headers
            },
            text: JSON.stringify(a.body)
          }
        })
    })
  )
  return { sent, layer }
}
