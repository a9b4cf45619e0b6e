/**
 * What passes between the mock bank's transport (server.ts) and its handler: a request read in full, and an answer
 * with an optional action (drop the connection, cut the body, wait first). Nothing here touches a socket.
 */

/** Request headers as node:http gives them: lower-case names. */
export type RequestHeaders = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/** A request as the transport hands it over. */
export interface Incoming {
  readonly method: string
  /** The request target: path and query string. */
  readonly url: string
  readonly headers: RequestHeaders
  /** The body as text (valid UTF-8; the transport refuses anything else). */
  readonly body: string
  /**
   * Why the body was not read, when it was not: larger than the limit, or more bodies held at once than the server
   * keeps (the request is answered before its body arrives, and the connection is closed).
   */
  readonly refused?: "tooLarge" | "busy"
  /** The body was not valid UTF-8 and was not kept. */
  readonly invalidUtf8?: boolean
}

/** An answer for the transport; `action` asks it to drop the connection or cut the body. */
export interface Outgoing {
  readonly status: number
  readonly headers: Record<string, string>
  /** The body: one text, or texts written one after another as the connection takes them (a streamed answer). */
  readonly body: string | Iterable<string | Uint8Array>
  readonly outcome: string
  readonly action?: "reset" | "truncate"
  readonly delayMs?: number
}

/** The first value of a header that may be repeated. */
export const first = (v: string | ReadonlyArray<string> | undefined): string | undefined =>
  typeof v === "string" ? v : v?.[0]

/** A JSON answer. */
export const json = (
  status: number,
  body: string,
  outcome: string,
  headers: Record<string, string> = {}
): Outgoing => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body,
  outcome
})
