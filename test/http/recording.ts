/**
 * A bank transport that records what the client sends and answers in-process (tests of the requests a profile makes:
 * test/http/cobsGolden, test/http/cobsOpenapi): each request as the transport receives it, answered by `answer` as JSON
 * with the request's `X-Request-ID` echoed; and the COBS client, order and balance check those tests share.
 */
import { type Currency, Iban, Money, Profile } from "@tppkit/core"
import { BankClient, BankConfig, BankTransport } from "@tppkit/http"
import { Effect, Layer, Redacted } from "effect"

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

/** One standing order of a COBS list or detail answer: 2,500 CZK monthly on the 20th from the customer's account. */
export const cobsItem = (id: string) => ({
  standingOrderIdentification: { transactionIdentification: id },
  amount: { instructedAmount: { value: 2500.0, currency: "CZK" } },
  standingOrder: {
    execution: { mode: "UNTIL_CANCELLATION", modeDue: "DUE_DAY_OF_MONTH", interval: "MONTHLY", intervalDue: 20 }
  },
  debtorAccount: { identification: { iban: "CZ4608000000002345678908" }, currency: "CZK" }
})

/** A COBS balance check of `amount` CZK from the customer's account, under the TPP's identification `id`. */
export const cobsCheck = (id: string, amount: string) => ({
  instructionIdentification: id,
  iban: Iban.parseUnsafe("CZ4608000000002345678908"),
  amount: { value: Money.parseUnsafe(amount), currency: "CZK" as Currency.CurrencyCode }
})

/**
 * A COBS client of the TPP "Star Corporation, a.s." (API key `apiKey`) over the transport `layer`; `more` of its
 * configuration in place of these.
 */
export const starClient = (
  layer: Layer.Layer<BankTransport.BankTransport>,
  apiKey: string,
  more: Partial<BankConfig.Options> = {}
) =>
  BankClient.BankClient.layerOver(
    BankConfig.BankConfig.layer({
      environment: "sandbox",
      baseUrl: "https://api.bank.cz",
      clientId: "tpp-client",
      clientSecret: Redacted.make("client-secret"),
      profile: Profile.cobs,
      apiKey: Redacted.make(apiKey),
      tpp: { name: "Star Corporation, a.s.", identification: "CZ013984-14" },
      ...more
    }),
    layer
  )

/**
 * Runs `f` against `starClient` over a recording transport answered by `answer`: what `f` returned and every request
 * the transport received.
 */
export const recorded = <A, E>(
  answer: (sent: Sent) => { status: number; body: unknown },
  apiKey: string,
  f: (bank: BankClient.BankClient["Service"]) => Effect.Effect<A, E>
) => {
  const { sent, layer } = recording(answer)
  const client = starClient(layer, apiKey)
  return Effect.runPromise(Effect.provide(Effect.flatMap(Effect.service(BankClient.BankClient), f), client)).then(
    (value) => ({ value, sent })
  )
}
