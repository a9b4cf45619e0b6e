/**
 * How requests reach the bank: one exchange (send, read the whole body, within a timeout) that fails only
 * with a `TransportFailure`. `layerHttpClient` runs over any effect `HttpClient` (stubs in tests, fetch,
 * node:http); `layerUndici` calls undici directly with one agent (keep-alive, optional mutual TLS), the
 * fast path used by `BankClient.layerNode`. The engines live in `internal/`: the undici dispatcher and its deadline
 * list (`undici.ts`, `deadlines.ts`) and what a socket, TLS or undici failure means (`transportFailure.ts`).
 */
import { Cause, Context, type Duration, Effect, Layer, Stream } from "effect"
import { HttpClient, type HttpClientError, HttpClientRequest } from "effect/http"
import { ResponseTooLarge } from "./BankError.ts"
import { classify, timedOut, truncated } from "./internal/transportFailure.ts"
import type { Exchange, Failure, Outgoing, UndiciOptions } from "./internal/transportTypes.ts"
import * as Undici from "./internal/undici.ts"

export type { Exchange, Failure, Outgoing, UndiciOptions } from "./internal/transportTypes.ts"

/** The body limit when the caller gives none: 4 MiB (the configuration's default). */
export const defaultMaxBodyBytes = 4 << 20

/** Reads a body as text, at most `max` bytes of it (counted as it streams); more is `ResponseTooLarge`. */
const boundedText = <E>(
  stream: Stream.Stream<Uint8Array, E>,
  max: number
): Effect.Effect<{ readonly text: string; readonly bytes: Uint8Array }, E | ResponseTooLarge> =>
  Effect.suspend(() => {
    const chunks: Array<Uint8Array> = []
    let size = 0
    const read = Stream.runForEach(stream, (chunk) => {
      size += chunk.length
      if (size > max) return Effect.fail(new ResponseTooLarge({ part: "body", limit: max }))
      chunks.push(chunk)
      return Effect.void
    })
    return Effect.map(read, () => {
      const bytes = Buffer.concat(chunks)
      return { text: bytes.toString("utf8"), bytes }
    })
  })

/** The transport service. */
export class BankTransport extends Context.Service<
  BankTransport,
  {
    /**
     * Sends one request and reads the whole response within `timeout`, its body at most `maxBodyBytes` bytes
     * (default 4 MiB); any status is a success here.
     */
    readonly send: (
      request: Outgoing,
      timeout: Duration.Duration,
      maxBodyBytes?: number
    ) => Effect.Effect<Exchange, Failure>
  }
>()("@tppkit/http/BankTransport") {
  /** Over any effect `HttpClient` (trace propagation headers off: the bank gets only the documented headers). */
  static readonly layerHttpClient: Layer.Layer<BankTransport, never, HttpClient.HttpClient> = Layer.effect(
    BankTransport,
    Effect.map(Effect.service(HttpClient.HttpClient), (client) =>
      BankTransport.of({
        send: (outgoing, timeout, maxBodyBytes = defaultMaxBodyBytes) =>
          client
            .execute(
              outgoing.method === "GET"
                ? HttpClientRequest.get(outgoing.url).pipe(HttpClientRequest.setHeaders(outgoing.headers))
                : HttpClientRequest.post(outgoing.url).pipe(
                    HttpClientRequest.setHeaders(outgoing.headers),
                    HttpClientRequest.bodyText(outgoing.body, outgoing.contentType)
                  )
            )
            .pipe(
              Effect.flatMap((response) => {
                const declared = Number(response.headers["content-length"] ?? 0)
                return declared > maxBodyBytes
                  ? Effect.fail(new ResponseTooLarge({ part: "body", limit: maxBodyBytes }))
                  : Effect.map(
                      boundedText(response.stream, maxBodyBytes),
                      (body): Exchange => ({ status: response.status, headers: response.headers, ...body })
                    )
              }),
              Effect.timeout(timeout),
              Effect.provideService(HttpClient.TracerPropagationEnabled, false),
              Effect.catch((error: HttpClientError.HttpClientError | Cause.TimeoutError | ResponseTooLarge) =>
                Effect.fail(
                  error._tag === "ResponseTooLarge"
                    ? error
                    : Cause.isTimeoutError(error)
                      ? timedOut(timeout, -1)
                      : error.reason._tag === "DecodeError" || error.reason._tag === "EmptyBodyError"
                        ? truncated(0, error.reason.cause)
                        : classify(error.reason.cause, error.reason._tag)
                )
              )
            )
      })
    )
  )

  /**
   * Direct undici calls through one scoped agent (closed with the layer), with the client certificate, key,
   * passphrase and CA when given; the timeout is a deadline for the whole exchange (connect to last byte).
   */
  static readonly layerUndici = (options?: UndiciOptions): Layer.Layer<BankTransport> =>
    Layer.effect(
      BankTransport,
      Effect.map(Undici.make(options, defaultMaxBodyBytes), (send) => BankTransport.of({ send }))
    )
}
