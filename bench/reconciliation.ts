/**
 * Reconciliation benchmark (issue 21): 100,000 seeded random standing orders (the projection benchmark's mix: DAI7,
 * WEEK, MNTH, QUTR, SEMI, YEAR, starts 2000–2030, a quarter on days 28–31, a fifth with an endDate; plus DAIL) listed
 * on 2026-01-01 by banks of every default candidate rule (each order's nextDate from a rule drawn per order, a few
 * stale or off), reconciled against the whole candidate set (`Reconciliation.reconcile`: 21 distinct rules, the
 * 5 conventions × 5 calendars × nominal or execution), beside the projection of the same orders over 2026
 * (`Projection.project`), alternately in one process. Target: reconciliation ≤ 2× the projection. Run alone with
 * `pnpm exec node --conditions=@tppkit/source --expose-gc bench/reconciliation.ts`; also run by `pnpm bench`.
 */
import { loadavg } from "node:os"
import { BankRule, Calendar, LocalDate } from "@tppkit/core"
import { Projection, Reconciliation } from "@tppkit/schedule"
import { BigDecimal, Result } from "effect"
import { mulberry32, upperMedian } from "./support.ts"

const ORDERS = 100_000
const RUNS = Number(process.env.BENCH_RECONCILIATION_RUNS ?? 5)

const frequencies = ["DAIL", "DAI7", "WEEK", "MNTH", "QUTR", "SEMI", "YEAR"] as const
const asOf = LocalDate.parseUnsafe("2026-01-01")
const window = { from: asOf, to: LocalDate.parseUnsafe("2026-12-31") }
const candidates = Reconciliation.candidates()

const makeOrders = (n: number, seed = 42): Array<Projection.ProjectableOrder> => {
  const next = mulberry32(seed)
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
  const orders: Array<Projection.ProjectableOrder> = []
  for (let i = 0; i < n; i++) {
    const day = next() < 0.25 ? int(28, 31) : int(1, 28)
    const start = LocalDate.ofMonthClamped(int(2000, 2030), int(1, 12), day)
    const schedule = {
      frequency: frequencies[int(0, frequencies.length - 1)]!,
      startDate: start,
      ...(next() > 0.8 ? { endDate: LocalDate.addDays(start, int(0, 20 * 365)) } : {})
    }
    // the bank's rule for this order: most orders tppkit's, the rest any candidate; 2 % stale, 1 % off by a few days
    const rule = next() < 0.7 ? BankRule.defaultRule : candidates[int(0, candidates.length - 1)]!
    const plan = BankRule.plan(schedule, rule)
    let listed = Result.isSuccess(plan) ? BankRule.listedDate(plan.success, asOf) : undefined
    const roll = next()
    if (listed !== undefined && roll < 0.02) listed = LocalDate.addDays(asOf, -int(1, 30))
    else if (listed !== undefined && roll < 0.03) listed = LocalDate.addDays(listed, int(1, 9))
    orders.push({
      orderId: `SO-${String(int(0, 99_999_999)).padStart(8, "0")}`,
      ...schedule,
      ...(listed === undefined ? {} : { nextDate: listed }),
      instructedAmount: { value: BigDecimal.make(BigInt(int(1, 500_000_00)), 2), currency: "EUR" },
      debtor: { iban: `SK00DEBTOR${String(int(0, 999)).padStart(4, "0")}` },
      creditor: { iban: `SK00CREDITOR${String(i).padStart(6, "0")}`, name: `Creditor ${i}` }
    })
  }
  return orders
}

const orders = makeOrders(ORDERS)
const gc = (globalThis as { gc?: () => void }).gc
// build the calendars' tables outside the timings
Reconciliation.reconcile(orders.slice(0, 1000), { asOf })
Projection.project(orders.slice(0, 1000), window, { calendar: Calendar.target })

const timed = (run: () => unknown): { ms: number; cpu: number } => {
  gc?.()
  const t0 = performance.now()
  const c0 = process.cpuUsage()
  run()
  const c1 = process.cpuUsage(c0)
  return { ms: performance.now() - t0, cpu: (c1.user + c1.system) / 1000 }
}

const reconciled: Array<{ ms: number; cpu: number }> = []
const projected: Array<{ ms: number; cpu: number }> = []
let summary = ""
let payments = 0
for (let run = 0; run < RUNS; run++) {
  reconciled.push(
    timed(() => {
      const r = Reconciliation.reconcile(orders, { asOf })
      summary = `${r.observations.length} observations: ${Reconciliation.statuses.map((s) => `${s} ${r.counts[s]}`).join(", ")}`
    })
  )
  projected.push(
    timed(() => {
      payments = Projection.project(orders, window, { calendar: Calendar.target }).payments.length
    })
  )
}
const r = upperMedian(reconciled.map((x) => x.ms))
const p = upperMedian(projected.map((x) => x.ms))
console.log(
  `reconciliation (load average ${loadavg()[0]!.toFixed(1)}): ${ORDERS} orders listed on ${LocalDate.format(asOf)}, ${candidates.length} candidate rules`
)
console.log(`  ${summary}`)
console.log(
  `  reconcile: median ${r.toFixed(0)} ms wall, ${upperMedian(reconciled.map((x) => x.cpu)).toFixed(0)} ms CPU over ${RUNS} runs`
)
console.log(
  `  project over 2026 (${payments} payments): median ${p.toFixed(0)} ms wall, ${upperMedian(projected.map((x) => x.cpu)).toFixed(0)} ms CPU`
)
console.log(`  reconcile ÷ project: ${(r / p).toFixed(2)}× (target ≤ 2×)`)
