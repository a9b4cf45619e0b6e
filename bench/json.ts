/**
 * The exact JSON reader (issue 19): core's `Json.parse` against the native `JSON.parse` and against `JSON.parse` with
 * a reviver that takes each number's source text, on the body the http client reads most, a page of 100 standing
 * orders (about 49 KB), as a string and as UTF-8 bytes, and the whole decoding of that page (parse, then
 * `StandingOrder.decodeListLenient`). Each is first checked to give the same structure. CPU time
 * per parse (`process.cpuUsage`), median of rounds in which the readers alternate; the ratios are what matters.
 *
 * `pnpm bench` runs it with the other suites; `pnpm exec node --conditions=@tppkit/source bench/json.ts` alone.
 * Environment: BENCH_JSON_ROUNDS (default 9), BENCH_JSON_PARSES (parses per round, default 500).
 */
import { loadavg } from "node:os"
import { Json, StandingOrder } from "@tppkit/core"
import { Result } from "effect"
import { upperMedian } from "./support.ts"

const rounds = Number(process.env.BENCH_JSON_ROUNDS ?? 9)
const parses = Number(process.env.BENCH_JSON_PARSES ?? 500)

const order = (i: number) => ({
  orderId: `SO-${100000 + i}`,
  debtor: { name: "Jana Nováková", iban: "SK3112000000198742637541" },
  creditor: {
    name: `Creditor ${i} s.r.o.`,
    addressLine1: "Hlavná 12",
    addressLine2: "811 01 Bratislava",
    iban: "SK8975000000000012345671"
  },
  instructedAmount: { value: 1250.5 + i, currency: "EUR" },
  endToEndIdentification: `E2E-${i}`,
  remittanceInformation: 'Nájom za byt "3" / mesačne',
  standingOrderName: "Rent",
  startDate: "2024-01-01",
  nextDate: "2026-12-01",
  endDate: "2030-12-31",
  frequency: "MNTH"
})
const text = JSON.stringify({ pageCount: 3, standingOrders: Array.from({ length: 100 }, (_, i) => order(i)) })
const bytes = new TextEncoder().encode(text)
const decoder = new TextDecoder()

type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown
const sourceOfNumbers: Reviver = (_key, value, context) => (typeof value === "number" ? context?.source : value)

const readers: ReadonlyArray<[string, () => unknown]> = [
  ["JSON.parse", () => JSON.parse(text)],
  ["JSON.parse + source reviver", () => JSON.parse(text, sourceOfNumbers as (k: string, v: unknown) => unknown)],
  ["Json.parse", () => Json.parse(text)],
  ["JSON.parse of bytes", () => JSON.parse(decoder.decode(bytes))],
  ["Json.parse of bytes", () => Json.parse(bytes)],
  ["page: JSON.parse + decode", () => StandingOrder.decodeListLenient(JSON.parse(text))],
  ["page: Json.parse + decode", () => StandingOrder.decodeListLenient(Result.getOrThrow(Json.parse(text)).value)]
]

// the same structure, every number its text
const ours = Json.parse(bytes)
if (Result.isFailure(ours) || JSON.stringify(ours.success.value) !== text) throw new Error("Json.parse differs")

const cpuMicros = (f: () => unknown): number => {
  const start = process.cpuUsage()
  for (let i = 0; i < parses; i++) f()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / parses
}

for (const [, f] of readers) cpuMicros(f) // warm-up
const samples = new Map<string, Array<number>>(readers.map(([name]) => [name, []]))
const load = loadavg()[0] ?? 0
for (let r = 0; r < rounds; r++) for (const [name, f] of readers) samples.get(name)?.push(cpuMicros(f))
const base = upperMedian(samples.get("JSON.parse") ?? [])
const baseBytes = upperMedian(samples.get("JSON.parse of bytes") ?? [])
const basePage = upperMedian(samples.get("page: JSON.parse + decode") ?? [])

console.log(`\nJSON reader, a page of 100 standing orders (${text.length} characters), load average ${load.toFixed(1)}`)
for (const [name] of readers) {
  const m = upperMedian(samples.get(name) ?? [])
  const against = name.endsWith("bytes") ? baseBytes : name.startsWith("page") ? basePage : base
  console.log(`  ${name.padEnd(30)} ${m.toFixed(0).padStart(6)} µs CPU per parse  ${(m / against).toFixed(2)}×`)
}
