/**
 * The request journal: the latest requests the mock bank received (method, path, headers, body, outcome), kept in
 * a bounded ring in memory — at most `capacity` entries, each body cut to `maxBodyBytes` (marked as truncated),
 * all entries together at most `maxTotalBytes` — and shown with every secret masked, to tests through this
 * service and to people through `GET /__journal?limit=&since=`.
 */
import { Context, Effect, Layer } from "effect"

/** One journal entry as read, with every secret masked (see {@link maskHeaders}, {@link maskBody}, {@link maskPath}). */
export interface Entry {
  /** Sequence number, from 1. */
  readonly seq: number
  /** When the request arrived, RFC 3339 UTC, by the sandbox clock. */
  readonly at: string
  readonly method: string
  /** The path with its query string, query values of secret-named parameters masked. */
  readonly path: string
  /** Request headers, lower-case names, secrets masked. */
  readonly headers: Readonly<Record<string, string>>
  /** The request body as text (at most `maxBodyBytes` kept), secrets masked. */
  readonly body: string
  /** Whether the body was longer than what is kept. */
  readonly bodyTruncated: boolean
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

/** The journal's bounds. */
export interface Limits {
  /** Entries kept (default 1,000); older ones are dropped first. */
  readonly capacity?: number
  /** Bytes of each body kept (default 4,096); a longer body is cut and marked `bodyTruncated`. */
  readonly maxBodyBytes?: number
  /** Bytes of all kept entries together, bodies and headers (default 8 MiB); older entries are dropped first. */
  readonly maxTotalBytes?: number
}

/** The default bounds: 1,000 entries, 4 KiB per body, 8 MiB in all. */
export const defaultLimits: Required<Limits> = { capacity: 1000, maxBodyBytes: 4096, maxTotalBytes: 8 * 1024 * 1024 }

/** Names whose values are secrets wherever they appear: header, form field, JSON member or query parameter. */
const secretName = /secret|token|password|passwd|assertion|authorization|api[-_]?key|cookie|x-sandbox-admin/i

/** Whether a header, field or parameter name says its value is a secret. */
export const isSecretName = (name: string): boolean => secretName.test(name)

const masked = "***"

/** An `Authorization` value masked: the scheme is kept when there is one (`Bearer ***`), a bare value is `***`. */
const maskAuthorization = (value: string): string => {
  const m = /^\s*([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)\s+\S/.exec(value)
  return m === null ? masked : `${m[1]} ${masked}`
}

/** Masks every header whose name says secret, token, password or assertion, `Authorization` and `Cookie`. */
export const maskHeaders = (
  headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue
    const value = typeof v === "string" ? v : v.join(", ")
    const name = k.toLowerCase()
    out[name] =
      name === "authorization" || name === "proxy-authorization"
        ? maskAuthorization(value)
        : isSecretName(name)
          ? masked
          : value
  }
  return out
}

const maskJsonValue = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(maskJsonValue)
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = isSecretName(k) ? masked : maskJsonValue(v)
    return out
  }
  return value
}

/** Masks the values of secret-named fields in form text, by their decoded names (`client%5Fsecret` too). */
const maskForm = (text: string): string => {
  const form = new URLSearchParams(text)
  let changed = false
  const out = new URLSearchParams()
  for (const [k, v] of form) {
    if (isSecretName(k)) {
      out.append(k, masked)
      changed = true
    } else out.append(k, v)
  }
  return changed ? out.toString().replaceAll("%2A%2A%2A", masked) : text
}

/** Texts that look like a JSON member with a secret name, for bodies that are cut or not valid JSON. */
const jsonMember = /("(?:[^"\\]|\\.)*"\s*:\s*)("(?:[^"\\]|\\.)*(?:"|$)|[^,}\]\s]+)/g

/**
 * Masks a body: a JSON body has every member with a secret name masked at any depth; other text is read as a form
 * and masked by decoded field names; JSON-like text that does not parse (a cut body) is masked member by member.
 */
export const maskBody = (body: string): string => {
  const trimmed = body.trimStart()
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return JSON.stringify(maskJsonValue(JSON.parse(body)))
    } catch {
      return body.replace(jsonMember, (all, key: string, _value: string) => {
        let name = key
        try {
          name = JSON.parse(key.slice(0, key.lastIndexOf('"') + 1)) as string
        } catch {}
        return isSecretName(name) ? `${key}"${masked}"` : all
      })
    }
  }
  return maskForm(body)
}

/** Masks the values of secret-named query parameters of a request target (`?client_secret=***`). */
export const maskPath = (path: string): string => {
  const q = path.indexOf("?")
  return q === -1 ? path : `${path.slice(0, q)}?${maskForm(path.slice(q + 1))}`
}

/** What `read` returns: entries after `since`, at most `limit`, oldest first. */
export interface Query {
  /** Only entries with a sequence number above this (default 0: every entry kept). */
  readonly since?: number
  /** At most this many entries, the oldest of those after `since` (default: all). */
  readonly limit?: number
}

/** The journal of requests received. */
export class Journal extends Context.Service<
  Journal,
  {
    /** Every entry kept, oldest first, secrets masked. */
    readonly entries: Effect.Effect<ReadonlyArray<Entry>>
    /** Forgets every entry. */
    readonly clear: Effect.Effect<void>
    /** Synchronous read of entries after `since`, at most `limit`, masked (an iterator, one entry at a time). */
    readonly readUnsafe: (query?: Query) => IterableIterator<Entry>
    /** Like `readUnsafe`, each entry as its JSON text (made once per entry, shared by every read). */
    readonly readJsonUnsafe: (query?: Query) => IterableIterator<Uint8Array>
    /** Synchronous read used by tests and tools: every entry kept, masked. */
    readonly entriesUnsafe: () => ReadonlyArray<Entry>
    /** Synchronous append used by the server (cheap: the body is cut here, masking happens when read). */
    readonly appendUnsafe: (raw: Raw) => void
    /** Bytes of each body kept: the server need not keep more of a body only the journal sees. */
    readonly maxBodyBytes: number
  }
>()("@tppkit/sandbox/Journal") {
  /** An in-memory journal with the default bounds ({@link defaultLimits}). */
  static readonly layer: Layer.Layer<Journal> = Layer.sync(Journal, () => make())

  /** An in-memory journal keeping the latest `limit` entries (other bounds at their defaults). */
  static readonly layerLimit = (limit: number): Layer.Layer<Journal> =>
    Layer.sync(Journal, () => make({ capacity: limit }))

  /** An in-memory journal with the given bounds. */
  static readonly layerLimits = (limits: Limits): Layer.Layer<Journal> => Layer.sync(Journal, () => make(limits))
}

interface Kept {
  readonly raw: Raw
  readonly body: string
  readonly truncated: boolean
  readonly bytes: number
  /** The entry as masked JSON, made on its first read and reused by every later one. */
  json?: Buffer
}

/** Bytes of the header names and values (string lengths: an estimate good enough for a bound). */
const headerBytes = (headers: Raw["headers"]): number => {
  let n = 0
  for (const k in headers) {
    const v = headers[k]
    n += k.length + (typeof v === "string" ? v.length : v === undefined ? 0 : v.join(", ").length)
  }
  return n
}

/**
 * The first `max` bytes of a body as a string of its own (a plain `slice` could keep the whole original alive),
 * cut at a character boundary.
 */
const cut = (body: string, max: number): string => {
  const bytes = Buffer.from(body.slice(0, max), "utf8")
  let end = Math.min(max, bytes.length)
  // back off to the start of a UTF-8 sequence
  while (end > 0 && end < bytes.length && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--
  return bytes.subarray(0, end).toString("utf8")
}

/** Builds an in-memory journal: a ring of the latest entries within the bounds. */
export const make = (limits: Limits = {}): Journal["Service"] => {
  const capacity = Math.max(1, Math.floor(limits.capacity ?? defaultLimits.capacity))
  const maxBody = Math.max(0, Math.floor(limits.maxBodyBytes ?? defaultLimits.maxBodyBytes))
  const maxTotal = Math.max(1, Math.floor(limits.maxTotalBytes ?? defaultLimits.maxTotalBytes))
  let ring: Array<Kept | undefined> = new Array(capacity)
  /** Sequence number of the next entry minus one: entries `first + 1 … seq` are kept. */
  let seq = 0
  let first = 0
  let total = 0
  const dropOldest = () => {
    const slot = first % capacity
    const old = ring[slot]
    if (old !== undefined) total -= old.bytes
    ring[slot] = undefined
    first += 1
  }
  const entry = (n: number, kept: Kept): Entry => ({
    seq: n + 1,
    at: new Date(kept.raw.at).toISOString(),
    method: kept.raw.method,
    path: maskPath(kept.raw.path),
    headers: maskHeaders(kept.raw.headers),
    body: maskBody(kept.body),
    bodyTruncated: kept.truncated,
    status: kept.raw.status,
    outcome: kept.raw.outcome
  })
  function* readUnsafe(query: Query = {}): IterableIterator<Entry> {
    for (const e of readUnsafeKept(query)) yield entry(e.n, e.kept)
  }
  function* readUnsafeKept(query: Query): IterableIterator<{ readonly n: number; readonly kept: Kept }> {
    const from = Math.max(first, Math.floor(query.since ?? 0))
    const limit = query.limit === undefined ? Number.POSITIVE_INFINITY : Math.max(0, Math.floor(query.limit))
    // `seq` may grow while a reader is suspended: read up to the end as it was when the read began
    const end = seq
    let given = 0
    for (let n = from; n < end && given < limit; n++) {
      if (n < first) continue // dropped while the reader waited
      const kept = ring[n % capacity]
      if (kept === undefined) continue
      given += 1
      yield { n, kept }
    }
  }
  function* readJsonUnsafe(query: Query = {}): IterableIterator<Buffer> {
    for (const e of readUnsafeKept(query)) {
      e.kept.json ??= Buffer.from(JSON.stringify(entry(e.n, e.kept)))
      yield e.kept.json
    }
  }
  const entriesUnsafe = (): Array<Entry> => [...readUnsafe()]
  return {
    entries: Effect.sync(entriesUnsafe),
    clear: Effect.sync(() => {
      ring = new Array(capacity)
      first = seq
      total = 0
    }),
    readUnsafe,
    readJsonUnsafe,
    entriesUnsafe,
    maxBodyBytes: maxBody,
    appendUnsafe: (raw) => {
      // a UTF-16 unit is at most 3 bytes of UTF-8: a short body needs no byte count
      const long = raw.body.length * 3 > maxBody && Buffer.byteLength(raw.body) > maxBody
      const body = long ? cut(raw.body, maxBody) : raw.body
      const bytes = body.length + headerBytes(raw.headers) + raw.path.length + 64
      const stored: Raw = long ? { ...raw, body: "" } : raw
      if (seq - first >= capacity) dropOldest()
      ring[seq % capacity] = { raw: stored, body, truncated: long, bytes }
      seq += 1
      total += bytes
      while (total > maxTotal && seq - first > 1) dropOldest()
    }
  }
}
