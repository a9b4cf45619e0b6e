/**
 * The hot paths issue 35's folds touch, before and after in one process, alternating run by run: this checkout
 * against another (set `BENCH_ROOMS_BEFORE` to its path, a set-up checkout; without it, this checkout against
 * itself, to show the noise). Three reads, each the median CPU time (user and system) of `BENCH_ROOMS_RUNS`
 * (default 7) runs per side and the after/before ratio:
 *   - `LocalDate.parse` of `BENCH_ROOMS_TEXTS` (default 1,000,000) seeded `YYYY-MM-DD` texts, one in 50 not a date;
 *   - `Timestamp.isValidIncoming` of as many date-times in the common form (`…T08:30:00Z`, `….123+02:00`);
 *   - `Export.ics` of `BENCH_ROOMS_ORDERS` (default 5,000) seeded orders over 2026, every chunk read (each payment's
 *     dates written by the export's day tables);
 *   - `Forecast.make` (the summary, and every ladder read) of `BENCH_ROOMS_FORECAST` (default 40,000) seeded orders
 *     from 2,000 accounts over 2026 (DAI7, WEEK and monthly to yearly; a tenth paying another of the accounts; one
 *     account in 50 with a balance of scale 3, read on bigints).
 * Run alone: `pnpm exec node --conditions=@tppkit/source --expose-gc bench/rooms.ts`.
 */
import { alternating, beforeCheckout, importFrom, load, mulberry32, root, upperMedian } from "./support.ts"

const before = beforeCheckout("BENCH_ROOMS_BEFORE")
const TEXTS = Number(process.env.BENCH_ROOMS_TEXTS ?? 1_000_000)
const ORDERS = Number(process.env.BENCH_ROOMS_ORDERS ?? 5_000)
const RUNS = Number(process.env.BENCH_ROOMS_RUNS ?? 7)
const FORECAST = Number(process.env.BENCH_ROOMS_FORECAST ?? 40_000)

interface Side {
  readonly core: typeof import("@tppkit/core")
  readonly schedule: typeof import("@tppkit/schedule")
}

const sideOf = async (checkout: string): Promise<Side> => ({
  core: (await importFrom(checkout, "packages/core/src/index.ts")) as Side["core"],
  schedule: (await importFrom(checkout, "packages/schedule/src/index.ts")) as Side["schedule"]
})

const sides = [await sideOf(before), await sideOf(root)]
const { BigDecimal } = await import("effect")

// seeded, so every run reads the same texts and orders
const next = mulberry32(35)
const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
const two = (n: number) => String(n).padStart(2, "0")

const dates: Array<string> = []
const stamps: Array<string> = []
for (let i = 0; i < TEXTS; i++) {
  const date = `${int(1990, 2040)}-${two(int(1, 12))}-${two(i % 50 === 0 ? 31 : int(1, 28))}`
  dates.push(i % 50 === 1 ? `${date}x` : date)
  stamps.push(`${date}T${two(int(0, 23))}:${two(int(0, 59))}:${two(int(0, 59))}${i % 2 === 0 ? "Z" : ".123+02:00"}`)
}

const run = (title: string, read: (side: Side) => number) => {
  const counts = [0, 0]
  const times = alternating(RUNS, sides, (side, s) => {
    counts[s] = read(side)
  })
  const [b, a] = times.map(upperMedian) as [number, number]
  console.log(
    `${title}: before ${b.toFixed(1)} ms, after ${a.toFixed(1)} ms CPU (median of ${RUNS} alternating runs each): ${(a / b).toFixed(2)}x; counts ${counts.join(" / ")}; load ${load()}`
  )
}

const READS = new Set((process.env.BENCH_ROOMS_READS ?? "parse,timestamp,ics,forecast").split(","))

if (READS.has("parse"))
  run(`LocalDate.parse, ${TEXTS} texts`, ({ core }) => {
    let n = 0
    for (const text of dates) if (core.LocalDate.parse(text)._tag === "Success") n++
    return n
  })

if (READS.has("timestamp"))
  run(`Timestamp.isValidIncoming, ${TEXTS} texts`, ({ core }) => {
    let n = 0
    for (const text of stamps) if (core.Timestamp.isValidIncoming(text)) n++
    return n
  })

const ordersOf = ({ core }: Side) => {
  const frequencies = ["DAIL", "WEEK", "MNTH", "QUTR", "SEMI", "YEAR"] as const
  const pick = mulberry32(42)
  return Array.from({ length: ORDERS }, (_, i) => ({
    orderId: `SO-${String(i).padStart(8, "0")}`,
    frequency: frequencies[i % frequencies.length]!,
    startDate: core.LocalDate.ofMonthClamped(2020 + Math.floor(pick() * 6), 1 + Math.floor(pick() * 12), 1 + (i % 31)),
    instructedAmount: { value: BigDecimal.make(BigInt(1 + i), 2), currency: "EUR" },
    debtor: { iban: "SK0000DEBTOR0001" },
    creditor: { iban: `SK00CREDITOR${String(i).padStart(6, "0")}`, name: `Creditor ${i}` }
  }))
}
const orders = sides.map(ordersOf)
if (READS.has("ics"))
  run(`Export.ics, ${ORDERS} orders over 2026`, (side) => {
    const { core, schedule } = side
    const window = { from: core.LocalDate.parseUnsafe("2026-01-01"), to: core.LocalDate.parseUnsafe("2026-12-31") }
    const made = schedule.Export.make(orders[sides.indexOf(side)]!, window)
    let bytes = 0
    for (const chunk of schedule.Export.ics(made)) bytes += chunk.length
    return bytes
  })

const forecastOf = ({ core }: Side) => {
  const frequencies = ["DAI7", "WEEK", "MNTH", "MNTH", "QUTR", "SEMI", "YEAR"] as const
  const pick = mulberry32(24)
  const accounts = 2_000
  const iban = (i: number) => `SK00ACCOUNT${String(i).padStart(6, "0")}`
  const orders = Array.from({ length: FORECAST }, (_, i) => ({
    orderId: `SO-${String(i).padStart(8, "0")}`,
    frequency: frequencies[i % frequencies.length]!,
    startDate: core.LocalDate.ofMonthClamped(2020 + Math.floor(pick() * 7), 1 + Math.floor(pick() * 12), 1 + (i % 31)),
    instructedAmount: { value: BigDecimal.make(BigInt(1 + Math.floor(pick() * 200_000)), 2), currency: "EUR" },
    debtor: { iban: iban(Math.floor(pick() * accounts)) },
    creditor: { iban: pick() < 0.1 ? iban(Math.floor(pick() * accounts)) : `SK00OUTSIDE${String(i).padStart(8, "0")}` }
  }))
  const from = core.LocalDate.parseUnsafe("2026-01-01")
  const balances = Array.from({ length: accounts }, (_, i) => ({
    iban: iban(i),
    currency: "EUR",
    // one account in 50 holds its balance to the mill (scale 3): read on bigints, beside the others on floats
    amount: BigDecimal.make(BigInt(Math.floor(pick() * 50_000_000)), i % 50 === 0 ? 3 : 2),
    date: from,
    threshold: BigDecimal.make(100_00n, 2)
  }))
  return { orders, balances, window: { from, to: core.LocalDate.parseUnsafe("2026-12-31") } }
}
if (READS.has("forecast")) {
  const inputs = sides.map(forecastOf)
  const make = (side: Side, ladder: boolean) => {
    const { core, schedule } = side
    const input = inputs[sides.indexOf(side)]!
    const options = { calendar: core.Calendar.target, convention: "following" } as const
    const made = schedule.Forecast.make({ ...input, options, ladder })
    if (made._tag !== "Success") throw new Error("the forecast failed")
    return made.success
  }
  // the figures every account ends with, and the rows of every ladder: the same on both sides
  run(`Forecast.make (summary), ${FORECAST} orders, 2,000 accounts, 2026`, (side) => {
    let risk = 0
    for (const a of make(side, false).accounts) risk += a.riskDays.length + Number(a.closing.value % 1000n)
    return risk
  })
  run(`Forecast.make (every ladder read), ${FORECAST} orders, 2,000 accounts, 2026`, (side) => {
    let n = 0
    for (const a of make(side, true).accounts) for (const r of a.rows ?? []) n += Number(r.closing.value % 1000n)
    return n
  })
}
