/**
 * Projection benchmark (issue 6), W4: 100,000 seeded random standing orders (DAI7, WEEK, MNTH, QUTR, SEMI, YEAR;
 * starts 2000–2030, a quarter on days 28–31; 10 % anchored on nextDate, 20 % with an endDate) projected over 2026
 * through the public API (`Projection.project`, ordering included, then `CashFlow.totals` of its payments, or
 * `Projection.totals` of the same orders; and the lazy `Projection.lazy` read by `CashFlow.totals`), and the same through the lazy `Projection.stream` into a
 * `CashFlow.accumulator`; beside them the floor of plain payments (as many bare objects of their shape, their CPU
 * and the heap they hold). Run alone with
 * `pnpm exec node --conditions=@tppkit/source --expose-gc bench/projection.ts`; also run by `pnpm bench`.
 */
import { loadavg } from "node:os"
import { Calendar, LocalDate } from "@tppkit/core"
import { CashFlow, type Payment, Projection } from "@tppkit/schedule"
import { BigDecimal, Effect, Stream } from "effect"
import { mulberry32 } from "./support.ts"

const ORDERS = 100_000
const RUNS = Number(process.env.BENCH_PROJECTION_RUNS ?? 5)

const frequencies = ["DAI7", "WEEK", "MNTH", "QUTR", "SEMI", "YEAR"] as const

const makeOrders = (n: number, seed = 42): Array<Projection.ProjectableOrder> => {
  const next = mulberry32(seed)
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
  const orders: Array<Projection.ProjectableOrder> = []
  for (let i = 0; i < n; i++) {
    const year = int(2000, 2030)
    const month = int(1, 12)
    // a quarter of the orders start on day 28–31 (clamped to the month), the rest on any day
    const day = next() < 0.25 ? int(28, 31) : int(1, 28)
    const start = LocalDate.ofMonthClamped(year, month, day)
    const roll = next()
    orders.push({
      orderId: `SO-${String(int(0, 99_999_999)).padStart(8, "0")}`,
      frequency: frequencies[int(0, frequencies.length - 1)]!,
      ...(roll < 0.1 ? { nextDate: start } : { startDate: start }),
      ...(roll > 0.8 ? { endDate: LocalDate.addDays(start, int(0, 20 * 365)) } : {}),
      instructedAmount: {
        value: BigDecimal.make(BigInt(int(1, 500_000_00)), 2),
        currency: next() < 0.7 ? "EUR" : "CZK"
      },
      debtor: { iban: `SK00DEBTOR${String(int(0, 999)).padStart(4, "0")}` },
      creditor: { iban: `SK00CREDITOR${String(i).padStart(6, "0")}`, name: `Creditor ${i}` }
    })
  }
  return orders
}

const gc = (globalThis as { gc?: () => void }).gc
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
const window = { from: LocalDate.parseUnsafe("2026-01-01"), to: LocalDate.parseUnsafe("2026-12-31") }
const options = { calendar: Calendar.target, convention: "following" } as const

const orders = makeOrders(ORDERS)
Calendar.isWorkingDay(Calendar.target, window.from) // build the TARGET table outside the timings

/** Median and minimum of timings in ms. */
const stats = (xs: Array<number>) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return { median: sorted[sorted.length >> 1]!, min: sorted[0]! }
}

let payments = 0
let peakHeap = 0
/**
 * One timed run in its own function, so that nothing of it stays reachable from the loop (a value kept in the
 * loop's frame kept the previous run's 5.5 million payments alive through the next run and its collections).
 */
const timed = (run: () => number): { ms: number; cpu: number } => {
  gc?.()
  const t0 = performance.now()
  const c0 = process.cpuUsage()
  payments = run()
  const ms = performance.now() - t0
  const c1 = process.cpuUsage(c0)
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)
  return { ms, cpu: (c1.user + c1.system) / 1000 }
}
/**
 * The floor of any array of plain payments: as many fresh objects as the projection has payments, with the
 * payments' nine fields in the same order, copied from one flat object of shared fields per order (made outside the
 * timing) read in sequence, nothing planned, sorted or totalled. Its CPU (allocation and collection) and the heap
 * it holds are what plain payments cost by themselves.
 */
const shared = orders.map((o) => ({
  orderId: o.orderId,
  amount: o.instructedAmount.value,
  currency: o.instructedAmount.currency,
  debtorIban: o.debtor.iban,
  creditorIban: o.creditor.iban,
  creditorName: o.creditor.name
}))
const plainObjects = (n: number): Array<Payment.Payment> => {
  const out = new Array<Payment.Payment>(n)
  for (let x = 0, o = 0; x < n; x++, o = o + 1 === ORDERS ? 0 : o + 1) {
    const t = shared[o]!
    const day = (window.from + (x % 365)) as LocalDate.LocalDate
    out[x] = {
      orderId: t.orderId,
      k: x,
      nominalDate: day,
      executionDate: day,
      amount: t.amount,
      currency: t.currency,
      debtorIban: t.debtorIban,
      creditorIban: t.creditorIban,
      creditorName: t.creditorName
    }
  }
  return out
}
// the four alternate run by run: project then CashFlow.totals over the payments (summed payment by payment), project
// then Projection.totals (the same tables from the orders' plans, without reading the payments), the lazy merge
// read by CashFlow.totals, and the plain-object floor (as many objects as the first run's payments)
const separate: Array<{ ms: number; cpu: number }> = []
const planned: Array<{ ms: number; cpu: number }> = []
const together: Array<{ ms: number; cpu: number }> = []
const floor: Array<{ ms: number; cpu: number }> = []
for (let run = 0; run < RUNS; run++) {
  separate.push(
    timed(() => CashFlow.totals(Projection.project(orders, window, options).payments, { period: "month" }).count)
  )
  planned.push(
    timed(() => {
      const { payments } = Projection.project(orders, window, options)
      const tables = Projection.totals(orders, window, { ...options, period: "month" })
      if (tables.count !== payments.length) throw new Error("Projection.totals counted other payments")
      return tables.count
    })
  )
  together.push(
    timed(() => CashFlow.totals(Projection.lazy(orders, window, options).payments, { period: "month" }).count)
  )
  const n = payments
  const before = peakHeap
  floor.push(timed(() => plainObjects(n).length))
  peakHeap = before
}
/** The heap an array holds: the heap after a full collection with it, less the heap without it. */
const heapHeld = (make: () => ReadonlyArray<unknown>): { readonly count: number; readonly bytes: number } => {
  gc?.()
  const without = process.memoryUsage().heapUsed
  const held = make()
  gc?.()
  return { count: held.length, bytes: process.memoryUsage().heapUsed - without }
}
const { count: floorCount, bytes: floorHeld } = heapHeld(() => plainObjects(payments))
const { bytes: projectionHeld } = heapHeld(() => Projection.project(orders, window, options).payments)
const describe = (runs: Array<{ ms: number; cpu: number }>) => {
  const wall = stats(runs.map((r) => r.ms))
  const cpu = stats(runs.map((r) => r.cpu))
  return `median ${wall.median.toFixed(0)} ms, min ${wall.min.toFixed(0)} ms over ${RUNS} runs; CPU time median ${cpu.median.toFixed(0)} ms (all threads, GC included)`
}

gc?.()
const heapBefore = process.memoryUsage().heapUsed
let streamPeak = heapBefore
const s0 = performance.now()
const streamed = await Effect.runPromise(
  Stream.runFold(
    Projection.stream(orders, window, options),
    () => CashFlow.accumulator({ period: "month" }),
    (acc, p) => {
      acc.add(p)
      if (p.k % 64 === 0) streamPeak = Math.max(streamPeak, process.memoryUsage().heapUsed)
      return acc
    }
  )
)
const streamMs = performance.now() - s0
gc?.()
const streamRetained = process.memoryUsage().heapUsed - heapBefore

// live memory of the lazy projection: collect garbage every 30 execution days and read the heap (needs --expose-gc)
let livePeak = 0
if (gc !== undefined) {
  let day = 0
  for (const _batch of Projection.batches(orders, window, options).batches) {
    if (day++ % 30 === 0) {
      gc()
      livePeak = Math.max(livePeak, process.memoryUsage().heapUsed - heapBefore)
    }
  }
}

console.log(
  `projection W4 (load average ${loadavg()[0]!.toFixed(1)}): ${ORDERS} orders over ${LocalDate.format(window.from)}..${LocalDate.format(window.to)}`
)
console.log(`  payments: ${payments}`)
console.log(`  project, then CashFlow.totals (array): ${describe(separate)}`)
console.log(`  project, then Projection.totals (from the plans): ${describe(planned)}`)
console.log(`  lazy, read by CashFlow.totals: ${describe(together)}`)
console.log(
  `  peak heap ${mb(peakHeap)} (garbage of the run included), max RSS ${mb(process.resourceUsage().maxRSS * 1024)}; a projection's payments hold ${gc === undefined ? "(not measured: run with --expose-gc)" : `${mb(projectionHeld)} after a collection`}`
)
console.log(
  `  plain-object floor (${floorCount} objects of the payments' shape, nothing projected): ${describe(floor)}; they hold ${gc === undefined ? "(not measured: run with --expose-gc)" : `${mb(floorHeld)} (${(floorHeld / floorCount).toFixed(1)} bytes each)`}`
)
console.log(
  `  stream + accumulator: ${streamMs.toFixed(0)} ms, ${streamed.result().count} payments; heap peak ${mb(streamPeak - heapBefore)} above the orders, ${mb(streamRetained)} retained after; live heap ${gc === undefined ? "not measured (run with --expose-gc)" : `at most ${mb(livePeak)}`}`
)
