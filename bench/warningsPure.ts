/**
 * The warnings' own work (issue 39), without a database: for a day of 100,000 standing orders over 10,000 accounts,
 * what a sweep computes anyway (each consent's plan, `Sweep.plan`, and the reconciliation of its listing,
 * `ListingReconciliation.summarize`) against what the warnings add (`OrderChanges.compare` of each listing with the
 * day before's, 1 % of the amounts changed, and `AtRisk.find` over all of them: the forecast of every account over
 * 10 working days, one in ten running short), alternately in one process, CPU time of each. The fleet's database
 * writes are `bench/warnings.ts`'s.
 *
 * `pnpm exec node --conditions=@tppkit/source bench/warningsPure.ts`; BENCH_WARNINGS_RUNS (default 5).
 */
import { loadavg } from "node:os"
import { Calendar, LocalDate } from "@tppkit/core"
import { AtRisk, ListingReconciliation, OrderChanges, Sweep } from "@tppkit/worker"
import * as WarningsData from "./warningsData.ts"

const ORDERS = 100_000
const ACCOUNTS = 10_000
const RUNS = Number(process.env.BENCH_WARNINGS_RUNS ?? 5)
const dayText = "2026-11-16"
const day = LocalDate.parseUnsafe(dayText)
const made = WarningsData.make(ORDERS, ACCOUNTS, dayText)
const listings = made.listings.map((l) => ({ consent: l.key, orders: l.today, before: l.before }))
const balances = made.balances

const settings = { daysBefore: 2, calendar: Calendar.target, timeZone: "Europe/Bratislava", hour: 8 }

const cpu = (f: () => number): { ms: number; n: number } => {
  const start = process.cpuUsage()
  const n = f()
  const used = process.cpuUsage(start)
  return { ms: (used.user + used.system) / 1000, n }
}

const sweep = () => {
  let n = 0
  for (const l of listings) {
    n += Sweep.plan(l.orders, l.consent, day, settings).length
    ListingReconciliation.summarize(l.orders, l.consent, day, settings, dayText)
  }
  return n
}
const warnings = () => {
  let n = 0
  for (const l of listings) n += OrderChanges.compare(l.before, l.orders, day, settings).length
  return n + AtRisk.find({ listings, balances, day, horizon: 10, calendar: Calendar.target }).risks.length
}

console.log(`warnings' own work, ${ORDERS} orders over ${ACCOUNTS} accounts (load ${loadavg()[0]?.toFixed(1)})`)
const ratios: Array<number> = []
for (let r = 0; r < RUNS; r++) {
  const [a, b] = r % 2 === 0 ? [cpu(sweep), cpu(warnings)] : (([w, s]) => [s, w])([cpu(warnings), cpu(sweep)])
  ratios.push(b!.ms / a!.ms)
  console.log(
    `  run ${r + 1}: sweep's plan and reconciliation ${a!.ms.toFixed(0)} ms (${a!.n} checks); warnings ${b!.ms.toFixed(0)} ms (${b!.n} changes and payments at risk): +${((b!.ms / a!.ms) * 100).toFixed(0)} %`
  )
}
console.log(`  warnings / sweep CPU: ${ratios.map((x) => x.toFixed(2)).join(", ")} (load ${loadavg()[0]?.toFixed(1)})`)
