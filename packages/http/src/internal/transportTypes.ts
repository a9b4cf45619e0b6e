/**
 * The types of `BankTransport`'s exchange, declared beside its engines (`undici.ts` and the client's calls): the
 * public module re-exports each and documents it.
 */
import type { Tls } from "../BankConfig.ts"
import type { ResponseTooLarge, TransportFailure } from "../BankError.ts"

/**
 * A request to send: a POST with a text body in the client's use; a `GET` (no body: `contentType` and `body` are
 * not sent) asks a mock bank on loopback for its instance over the same connection settings, TLS included.
 */
export interface Outgoing {
  /** `POST` when not given. */
  readonly method?: "POST" | "GET" | undefined
  readonly url: string
  /** Header names as the document spells them; values are sent as given. */
  readonly headers: Readonly<Record<string, string>>
  readonly contentType: string
  readonly body: string
}

/** Why an exchange produced no complete response. */
export type Failure = TransportFailure | ResponseTooLarge

/** A response read completely; header names in lower case. */
export interface Exchange {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  /** The body's bytes as received, when the transport keeps them (its text decodes them, an invalid byte as U+FFFD). */
  readonly bytes?: Uint8Array
}

/** Options of the undici transport. */
export interface UndiciOptions {
  /** Client certificate, key, passphrase and CA for mutual TLS. */
  readonly tls?: Tls | undefined
  /** Bytes of status line and headers at most (undici's `maxHeaderSize`); default 32 KiB. */
  readonly maxHeaderBytes?: number
}
