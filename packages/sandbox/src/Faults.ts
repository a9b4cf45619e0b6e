/**
 * Faults the mock bank injects for client tests: chosen per request with the `X-Sandbox-Fault` header, or
 * globally at a seeded rate. Each replaces the normal answer (except `delay`, which only postpones it).
 */

/** The fault kinds: status answers, a delay, a dropped connection, broken bodies, an expired token. */
export const kinds = ["503", "502", "429", "delay", "reset", "truncate", "nonjson", "expired-token"] as const

/** A fault kind. */
export type Kind = (typeof kinds)[number]

/** The request header that selects faults, e.g. `X-Sandbox-Fault: delay=1500, 503`. */
export const header = "x-sandbox-fault"

/** A fault chosen for one request; `delayMs` is set for `delay`. */
export interface Fault {
  readonly kind: Kind
  readonly delayMs?: number
}

/** Global fault injection: each API or token request fails with probability `rate` (0–1), reproducibly. */
export interface GlobalFaults {
  /** Probability in 0..1 that a request gets a fault. */
  readonly rate: number
  /** Seed of the pseudo-random sequence (default 1). */
  readonly seed?: number
  /** Kinds to draw from (default: 503, 502, 429, reset, truncate, nonjson). */
  readonly kinds?: ReadonlyArray<Kind>
  /** Delay used by the `delay` kind, milliseconds (default 2000). */
  readonly delayMs?: number
}

const isKind = (s: string): s is Kind => (kinds as ReadonlyArray<string>).includes(s)

/**
 * Parses an `X-Sandbox-Fault` value: comma-separated kinds, `delay` optionally as `delay=<ms>` (default 2000).
 * Unknown kinds are reported so that the server can answer 400 instead of silently ignoring a typo.
 */
export const parse = (value: string): { readonly faults: Array<Fault>; readonly unknown: Array<string> } => {
  const faults: Array<Fault> = []
  const unknown: Array<string> = []
  for (const raw of value.split(",")) {
    const part = raw.trim().toLowerCase()
    if (part === "") continue
    const [name = "", arg] = part.split("=", 2)
    if (!isKind(name)) {
      unknown.push(raw.trim())
      continue
    }
    if (name === "delay") {
      const ms = arg === undefined ? 2000 : Number(arg)
      if (!Number.isInteger(ms) || ms < 0 || ms > 600_000) unknown.push(raw.trim())
      else faults.push({ kind: "delay", delayMs: ms })
    } else faults.push({ kind: name })
  }
  return { faults, unknown }
}

/** A seeded picker for global faults: returns the fault for the next request, or undefined. */
export const picker = (config: GlobalFaults): (() => Fault | undefined) => {
  let a = (config.seed ?? 1) >>> 0
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const pool: ReadonlyArray<Kind> =
    config.kinds && config.kinds.length > 0 ? config.kinds : ["503", "502", "429", "reset", "truncate", "nonjson"]
  return () => {
    if (config.rate <= 0 || next() >= config.rate) return undefined
    const kind = pool[Math.floor(next() * pool.length)] ?? "503"
    return kind === "delay" ? { kind, delayMs: config.delayMs ?? 2000 } : { kind }
  }
}
