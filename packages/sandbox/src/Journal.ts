/**
 * The request journal: every request the mock bank received (method, path, headers with secrets masked, body,
 * outcome), kept in memory, readable by tests through this service and by people through `GET /__journal`.
 */
import { Context, Effect, Layer } from "effect"

/** One journal entry as read: `authorization`, `client_secret` and `access_token` values masked. */
export interface Entry {
  /** Sequence number, from 1. */
  readonly seq: number
  /** When the request arrived, RFC 3339 UTC, by the sandbox clock. */
  readonly at: string
  readonly method: string
  readonly path: string
  /** Request headers, lower-case names, secrets masked. */
  readonly headers: Readonly<Record<string, string>>
  /** The request body as text (at most 4096 characters kept), secrets masked. */
  readonly body: string
  /** The HTTP status answered, or 0 when the connection was reset without an answer. */
  readonly status: number
  /** What happened: `ok`, an error code such as `TOKEN_EXPIRED`, or `fault:<kind>`. */
  readonly outcome: string
}

/** A request as the server records it: raw headers and body, masked only when the journal is read. */
export interface Raw {
  /** Arrival time, epoch milliseconds by the sandbox clock. */
  readonly at: number
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly body: string
  readonly status: number
  readonly outcome: string
}

/** Masks the `authorization` and `cookie` header values (the scheme is kept: `Bearer ***`). */
export const maskHeaders = (
  headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue
    const value = typeof v === "string" ? v : v.join(", ")
    out[k] = k === "authorization" || k === "cookie" ? `${value.split(" ")[0] ?? ""} ***` : value
  }
  return out
}

/** Masks `client_secret` (form or JSON) and `access_token` values in a body and keeps at most 4096 characters. */
export const maskBody = (body: string): string =>
  body
    .slice(0, 4096)
    .replace(/((?:client_secret|access_token)=)[^&]*/g, "$1***")
    .replace(/("(?:client_secret|access_token)"\s*:\s*")[^"]*/g, "$1***")

/** The journal of requests received. */
export class Journal extends Context.Service<
  Journal,
  {
    /** Every entry kept, oldest first. */
    readonly entries: Effect.Effect<ReadonlyArray<Entry>>
    /** Forgets every entry. */
    readonly clear: Effect.Effect<void>
    /** Synchronous read used by the server for `GET /__journal`. */
    readonly entriesUnsafe: () => ReadonlyArray<Entry>
    /** Synchronous append used by the server (cheap: masking happens when the journal is read). */
    readonly appendUnsafe: (raw: Raw) => void
  }
>()("@tppkit/sandbox/Journal") {
  /** An in-memory journal keeping the latest 10,000 entries. */
  static readonly layer: Layer.Layer<Journal> = Layer.sync(Journal, () => make(10_000))

  /** An in-memory journal keeping the latest `limit` entries. */
  static readonly layerLimit = (limit: number): Layer.Layer<Journal> => Layer.sync(Journal, () => make(limit))
}

/** Builds an in-memory journal, a ring buffer of the latest `limit` entries. */
export const make = (limit: number): Journal["Service"] => {
  const capacity = Math.max(1, Math.floor(limit))
  let ring: Array<Raw | undefined> = new Array(capacity)
  let seq = 0
  const entriesUnsafe = (): Array<Entry> => {
    const out: Array<Entry> = []
    const count = Math.min(seq, capacity)
    for (let n = seq - count; n < seq; n++) {
      const raw = ring[n % capacity]
      if (raw === undefined) continue
      out.push({
        seq: n + 1,
        at: new Date(raw.at).toISOString(),
        method: raw.method,
        path: raw.path,
        headers: maskHeaders(raw.headers),
        body: maskBody(raw.body),
        status: raw.status,
        outcome: raw.outcome
      })
    }
    return out
  }
  return {
    entries: Effect.sync(entriesUnsafe),
    clear: Effect.sync(() => {
      ring = new Array(capacity)
      seq = 0
    }),
    entriesUnsafe,
    appendUnsafe: (raw) => {
      ring[seq % capacity] = raw
      seq += 1
    }
  }
}
