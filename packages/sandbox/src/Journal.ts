/**
 * The request journal: every request the mock bank received (method, path, headers with secrets masked, body,
 * outcome), kept in memory, readable by tests through this service and by people through `GET /__journal`.
 */
import { Context, Effect, Layer } from "effect"

/** One journal entry; `authorization` and `client_secret` values are masked before they are stored. */
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
    /** Synchronous append used by the server; assigns `seq`. */
    readonly appendUnsafe: (entry: Omit<Entry, "seq">) => void
  }
>()("@tppkit/sandbox/Journal") {
  /** An in-memory journal keeping the latest 10,000 entries. */
  static readonly layer: Layer.Layer<Journal> = Layer.sync(Journal, () => make(10_000))

  /** An in-memory journal keeping the latest `limit` entries. */
  static readonly layerLimit = (limit: number): Layer.Layer<Journal> => Layer.sync(Journal, () => make(limit))
}

/** Builds an in-memory journal that keeps the latest `limit` entries. */
export const make = (limit: number): Journal["Service"] => {
  let items: Array<Entry> = []
  let seq = 0
  const entriesUnsafe = () => items.slice()
  return {
    entries: Effect.sync(entriesUnsafe),
    clear: Effect.sync(() => {
      items = []
    }),
    entriesUnsafe,
    appendUnsafe: (entry) => {
      seq += 1
      items.push({ seq, ...entry })
      if (items.length > limit) items = items.slice(items.length - Math.max(1, Math.floor(limit * 0.9)))
    }
  }
}
