/**
 * What a worker holds for the forecast ahead of a sweep with balances (issue 39), without the fleet: 100,000 standing
 * orders over 10,000 accounts, one consent an account, each consent's listing read from the bank's page as the worker
 * reads it (core's `Orders.decodeBankList` of the page's text), then the day's forecast. Two ways, each in a process of
 * its own: `whole`, as before 1c748a5 (each consent's records held whole, then one `AtRisk.find` of every account), and
 * `parts`, as now (each consent's `AtRisk.forecastOrders`, then `AtRisk.find` of each of `AtRisk.parts`). Reported: the
 * heap after a full GC with the held orders (the pages' texts dropped) against the heap before the pages were made (what
 * a worker holds while it lists), and how far the resident set's peak (VmHWM) rises during the forecast.
 *
 * `pnpm exec node --expose-gc --conditions=@tppkit/source bench/warningsMemory.ts` (both ways, one after the other).
 */
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { loadavg } from "node:os"
import { Calendar, Iban, LocalDate, Orders } from "@tppkit/core"
import { Fixtures } from "@tppkit/sandbox"
import { AtRisk } from "@tppkit/worker"

const ACCOUNTS = 10_000
const DUE = 10_000
const LATER = 90_000

/** The debtor account of the `a`-th consent, as bench/worker.ts makes them. */
const iban = (a: number): string =>
  ((bban: string) => `SK${Iban.checkDigits("SK", bban)}${bban}`)(`2200000000${String(a + 1).padStart(10, "0")}`)

/** Each consent's page as the mock bank sends it: its 10 orders, bench/worker.ts's records. */
const pages = (): Array<string> => {
  const template = Fixtures.defaults.standingOrders[0] as Record<string, unknown> & { debtor: { name: string } }
  const records = Array.from({ length: ACCOUNTS }, () => [] as Array<unknown>)
  for (let i = 0; i < DUE + LATER; i++) {
    const due = i < DUE
    records[i % ACCOUNTS]!.push({
      ...template,
      orderId: `BENCH-${String(i + 1).padStart(6, "0")}`,
      debtor: { name: template.debtor.name, iban: iban(i % ACCOUNTS) },
      frequency: "MNTH",
      startDate: due ? `2026-10-0${2 + (i % 3)}` : `2026-10-${String(9 + (i % 5)).padStart(2, "0")}`,
      nextDate: due ? `2026-11-0${2 + (i % 3)}` : `2026-11-${String(9 + (i % 5)).padStart(2, "0")}`,
      instructedAmount: { value: 10 + (i % 500), currency: "EUR" },
      remittanceInformation: `bench ${i + 1}`
    })
  }
  return records.map((r) => JSON.stringify({ pageCount: 1, standingOrders: r }))
}

const peakMb = (): number => Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1]) / 1024

const measure = (way: "whole" | "parts") => {
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) throw new Error("run with node --expose-gc")
  gc()
  const before = process.memoryUsage().heapUsed
  const texts = pages()
  const balances = Array.from({ length: ACCOUNTS }, (_, a) => ({
    iban: iban(a),
    currency: "EUR",
    amount: String(Math.round((130 * DUE) / ACCOUNTS)),
    date: "2026-11-01"
  }))
  const accounts = new Set(balances.map((b) => b.iban))
  const listings: Array<{ consent: string; orders: ReadonlyArray<AtRisk.Part["listings"][number]["orders"][number]> }> =
    []
  for (let a = 0; a < ACCOUNTS; a++) {
    // the page's text is the worker's only while it reads it
    const read = Orders.decodeBankList(texts[a]!, { body: true })
    texts[a] = ""
    if (read._tag === "Failure") throw new Error(read.failure.reason)
    const orders = read.success.orders
    listings.push({
      consent: `bench-${a + 1}`,
      orders: way === "whole" ? orders : AtRisk.forecastOrders(orders, accounts)
    })
  }
  gc()
  const held = (process.memoryUsage().heapUsed - before) / 1e6
  const peakBefore = peakMb()
  const started = performance.now()
  const input = { day: LocalDate.parseUnsafe("2026-11-02"), horizon: 10, calendar: Calendar.target }
  let risks = 0
  if (way === "whole") risks = AtRisk.find({ ...input, listings, balances }).risks.length
  else for (const part of AtRisk.parts({ listings, balances })) risks += AtRisk.find({ ...input, ...part }).risks.length
  const ms = performance.now() - started
  console.log(
    `  ${way.padEnd(5)}: held while listing ${held.toFixed(0)} MB of heap; the forecast ${ms.toFixed(0)} ms, peak RSS ${peakBefore.toFixed(0)} -> ${peakMb().toFixed(0)} MB (+${(peakMb() - peakBefore).toFixed(0)}); ${risks} payments at risk`
  )
}

const way = process.argv[2]
if (way === "whole" || way === "parts") measure(way)
else {
  console.log(
    `forecast ahead, ${DUE + LATER} orders over ${ACCOUNTS} accounts (a consent each), load ${loadavg()[0]?.toFixed(1)}:`
  )
  for (const w of ["whole", "parts"]) {
    const run = spawnSync(process.execPath, ["--expose-gc", "--conditions=@tppkit/source", import.meta.filename, w], {
      stdio: "inherit"
    })
    if (run.status !== 0) process.exit(run.status ?? 1)
  }
}
