/**
 * Forecast benchmark (issue 24): seeded random standing orders (DAI7, WEEK, MNTH, QUTR, SEMI, YEAR) from 10,000
 * accounts over 2026 (a tenth of them paying one of the other accounts, the rest outside), forecast with
 * `Forecast.make` (the summary only, `ladder: false`; with every account's ladder kept; and with every row of every
 * ladder read) against projecting the same orders with totals (`Projection.totals`), the runs alternating in one
 * process, CPU time per run (the issue's target: the forecast within 1.5× the CPU of projecting with totals).
 * Orders: `BENCH_FORECAST_ORDERS` (default 200,000; the issue's scale is 1,000,000); runs: `BENCH_FORECAST_RUNS`
 * (default 5); `BENCH_FORECAST_WAYS` picks some of the ways (`summary,ladder,read`, the default all three), e.g. to
 * measure one way's memory in a process of its own. Run alone with
 * `pnpm exec node --conditions=@tppkit/source --expose-gc bench/forecast.ts`; also run by `pnpm bench`.
 */
import { loadavg } from "node:os"
import { Calendar, LocalDate } from "@tppkit/core"
import { Forecast, Projection } from "@tppkit/schedule"
import { BigDecimal, Result } from "effect"
import { mulberry32, upperMedian } from "./support.ts"

const ORDERS = Number(process.env.BENCH_FORECAST_ORDERS ?? 200_000)
const ACCOUNTS = 10_000
const RUNS = Number(process.env.BENCH_FORECAST_RUNS ?? 5)
const WAYS = new Set((process.env.BENCH_FORECAST_WAYS ?? "summary,ladder,read").split(","))

const frequencies = ["DAI7", "WEEK", "MNTH", "MNTH", "MNTH", "QUTR", "SEMI", "YEAR"] as const
const account = (i: number) => `SK00ACCOUNT${String(i).padStart(6, "0")}`

const next = mulberry32(24)
const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
const orders: Array<Projection.ProjectableOrder> = []
for (let i = 0; i < ORDERS; i++) {
  const start = LocalDate.ofMonthClamped(int(2020, 2026), int(1, 12), next() < 0.25 ? int(28, 31) : int(1, 28))
  orders.push({
    orderId: `SO-${String(i).padStart(8, "0")}`,
    frequency: frequencies[int(0, frequencies.length - 1)]!,
    startDate: start,
    instructedAmount: { value: BigDecimal.make(BigInt(int(1, 200_000)), 2), currency: "EUR" },
    debtor: { iban: account(int(0, ACCOUNTS - 1)) },
    creditor: { iban: next() < 0.1 ? account(int(0, ACCOUNTS - 1)) : `SK00OUTSIDE${String(i).padStart(8, "0")}` }
  })
}
const window = { from: LocalDate.parseUnsafe("2026-01-01"), to: LocalDate.parseUnsafe("2026-12-31") }
const options = { calendar: Calendar.target, convention: "following" } as const
const balances: Array<Forecast.Balance> = Array.from({ length: ACCOUNTS }, (_, i) => ({
  iban: account(i),
  currency: "EUR",
  amount: BigDecimal.make(BigInt(int(0, 5_000_000_000)), 2),
  date: window.from,
  threshold: BigDecimal.make(100_00n, 2)
}))
Calendar.isWorkingDay(Calendar.target, window.from) // build the TARGET table outside the timings

const gc = (globalThis as { gc?: () => void }).gc
let peakHeap = 0
// the process's CPU (every thread: V8's garbage collection helpers too) and the main thread's alone
const threadCpu = (process as { threadCpuUsage?: (since?: NodeJS.CpuUsage) => NodeJS.CpuUsage }).threadCpuUsage
const mainThread: Record<string, Array<number>> = { totals: [], summary: [], ladder: [], read: [] }
const timed = (run: () => number, key: keyof typeof mainThread = "totals"): { cpu: number; count: number } => {
  gc?.()
  const t0 = threadCpu?.()
  const c0 = process.cpuUsage()
  const count = run()
  const c1 = process.cpuUsage(c0)
  const t1 = t0 === undefined ? undefined : threadCpu?.(t0)
  if (t1 !== undefined) mainThread[key]!.push((t1.user + t1.system) / 1000)
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)
  return { cpu: (c1.user + c1.system) / 1000, count }
}

let rows = 0
let payments = 0
let riskDays = 0
/** The ways of forecasting, in the order each run takes them: what the report calls each, and the forecast timed. */
const ways: ReadonlyArray<{ readonly way: "summary" | "ladder" | "read"; title: () => string; run: () => number }> = [
  {
    way: "summary",
    title: () => "summary only",
    run: () => {
      const f = Result.getOrThrow(Forecast.make({ orders, balances, window, options, ladder: false }))
      riskDays = f.accounts.reduce((n, a) => n + a.riskDays.length, 0)
      return f.accounts.length
    }
  },
  {
    way: "ladder",
    title: () => "every ladder kept",
    run: () => {
      const f = Result.getOrThrow(Forecast.make({ orders, balances, window, options }))
      return f.accounts.length
    }
  },
  {
    way: "read",
    title: () => `every ladder kept and its ${rows} rows read`,
    run: () => {
      const f = Result.getOrThrow(Forecast.make({ orders, balances, window, options }))
      // every row made and its closing balance read
      let n = 0
      for (const a of f.accounts) for (const r of a.rows ?? []) n += r.closing.scale >= 0 ? 1 : 0
      rows = n
      return n
    }
  }
]
const totals: Array<number> = []
const times = { summary: [] as number[], ladder: [] as number[], read: [] as number[] }
for (let run = 0; run < RUNS; run++) {
  const t = timed(() => Projection.totals(orders, window, { ...options, period: "month" }).count)
  payments = t.count
  totals.push(t.cpu)
  for (const way of ways) if (WAYS.has(way.way)) times[way.way].push(timed(way.run, way.way).cpu)
}
const base = upperMedian(totals)
console.log(
  `forecast (load average ${loadavg()[0]!.toFixed(1)}): ${ORDERS} orders, ${ACCOUNTS} accounts, ${payments} payments over ${LocalDate.format(window.from)}..${LocalDate.format(window.to)}${times.summary.length > 0 ? `, ${riskDays} risk days` : ""}`
)
console.log(`  Projection.totals: CPU median ${base.toFixed(0)} ms over ${RUNS} runs`)
for (const { way, title } of ways) {
  const m = times[way].length > 0 ? upperMedian(times[way]) : undefined
  if (m !== undefined)
    console.log(`  Forecast.make, ${title()}: CPU median ${m.toFixed(0)} ms (${(m / base).toFixed(2)}× totals)`)
}
if (mainThread.totals!.length > 0) {
  const m = (k: string) => upperMedian(mainThread[k]!)
  const ratio = (k: string, name: string) =>
    mainThread[k]!.length === 0 ? "" : `, ${name} ${m(k).toFixed(0)} ms (${(m(k) / m("totals")).toFixed(2)}×)`
  console.log(
    `  main thread only: totals ${m("totals").toFixed(0)} ms${ratio("summary", "summary")}${ratio("ladder", "ladder kept")}${ratio("read", "rows read")}`
  )
}
console.log(
  `  peak heap ${(peakHeap / 1024 / 1024).toFixed(0)} MB, max RSS ${((process.resourceUsage().maxRSS * 1024) / 1024 / 1024).toFixed(0)} MB`
)
