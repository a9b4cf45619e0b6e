/**
 * Faults the mock bank injects for client tests: chosen per request with the `X-Sandbox-Fault` header, or
 * globally at a seeded rate. Each replaces the normal answer (except `delay`, which only postpones it).
 */
import { Json, Money } from "@tppkit/core"
import { Result, Schema } from "effect"

/** The fault kinds: status answers, a delay, a dropped connection, broken bodies, an expired token. */
export const kinds = ["503", "502", "429", "delay", "reset", "truncate", "nonjson", "expired-token"] as const

/** A fault kind. */
export type Kind = (typeof kinds)[number]

/** The request header that selects faults, e.g. `X-Sandbox-Fault: delay=1500, 503`. */
export const header = "x-sandbox-fault"

/**
 * Balance-check amounts that select a fault without the header, for clients that cannot set one: the status
 * followed by its last two digits as cents (`503.03` → `503`); `401.01` answers as with an expired token.
 */
export const magicAmounts: Readonly<Record<string, Kind>> = {
  "503.03": "503",
  "502.02": "502",
  "429.29": "429",
  "401.01": "expired-token"
}

const magicPrefilter = /503\.03|502\.02|429\.29|401\.01/

/**
 * The fault a balance-check body selects by its `amount.value` (see `magicAmounts`), if any. Bodies that do not
 * even contain a magic number are passed over without parsing.
 */
export const fromBalanceCheckBody = (body: string): Fault | undefined => {
  if (!magicPrefilter.test(body)) return undefined
  // read as the balance check reads it: the amount digit for digit (`503.030000000000000000001` is no magic amount)
  const read = Json.parse(body)
  if (Result.isFailure(read)) return undefined
  const json = read.success.value
  const amount = typeof json === "object" && json !== null ? (json as { amount?: unknown }).amount : undefined
  const value = typeof amount === "object" && amount !== null ? (amount as { value?: unknown }).value : undefined
  if (!Json.isNumberText(value)) return undefined
  const exact = Money.fromNumberText(value.text)
  const kind = Result.isFailure(exact) ? undefined : magicAmounts[Money.formatFixed2(exact.success)]
  return kind === undefined ? undefined : { kind }
}

/**
 * A fault chosen for one request; `delayMs` is set for `delay`. Kind `error` (`error=CODE`, header only) answers 400
 * with the error code `CODE` in the bank's dialect, as a bank whose rules are stricter than the mock bank's own
 * answers a request the mock bank would take (e.g. COBS's `RR10`, `AM11`, `AM12`, `FIELD_INVALID`, `FF01`).
 */
export interface Fault {
  readonly kind: Kind | "error"
  readonly delayMs?: number
  /** The error code of an `error` fault. */
  readonly code?: string
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

/** The JSON form of {@link GlobalFaults}, read by the admin endpoint `PUT /__faults`. */
export const GlobalFaultsJson = Schema.Struct({
  rate: Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 })),
  seed: Schema.optionalKey(Schema.Int),
  kinds: Schema.optionalKey(Schema.Array(Schema.Literals(kinds))),
  delayMs: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 600_000 })))
})

const isKind = (s: string): s is Kind => (kinds as ReadonlyArray<string>).includes(s)

/**
 * Parses an `X-Sandbox-Fault` value: comma-separated kinds, `delay` optionally as `delay=<ms>` (default 2000),
 * `error=<CODE>` (a 400 with that error code).
 * Unknown kinds are reported so that the server can answer 400 instead of silently ignoring a typo.
 */
export const parse = (value: string): { readonly faults: Array<Fault>; readonly unknown: Array<string> } => {
  const faults: Array<Fault> = []
  const unknown: Array<string> = []
  for (const raw of value.split(",")) {
    const part = raw.trim().toLowerCase()
    if (part === "") continue
    const [name = "", arg] = part.split("=", 2)
    if (name === "error") {
      const code = arg?.toUpperCase()
      if (code === undefined || !/^[A-Z][A-Z0-9_]{1,39}$/.test(code)) unknown.push(raw.trim())
      else faults.push({ kind: "error", code })
      continue
    }
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
