/**
 * Reading orders before and after core's one decoder (issue 33), in one process, alternating run by run: this
 * checkout's `Project.decodeOrders` / `Project.ordersDecoder` (core's `Orders`) against another checkout's (set
 * `BENCH_DECODER_BEFORE` to its path; without it, this checkout against itself, to show the noise). Two reads:
 *   - the mixed read: `BENCH_MIXED_RECORDS` (default 140,000) records, the bank's codes, RRULEs, UK v3 and v4, Berlin
 *     Group, COBS and ISO 20022 in turn, decoded from the text (as bench/mixedRead.ts);
 *   - the projection: a seeded file of `BENCH_DECODER_ORDERS` (default 100,000) orders of the seven codes (by
 *     test/cli/fixtures/generate-orders.ts), read piece by piece by the decoder and streamed through that checkout's
 *     `Projection.lazy` over 2026 into a `CashFlow.accumulator` (as bench/million.ts's in-process run), then the
 *     forecast of the orders read (`Forecast.make`, the summary, each debtor with a balance).
 * Each reports the median CPU time (user and system) of `BENCH_DECODER_RUNS` (default 5) runs per side and the
 * after/before ratio (`BENCH_DECODER_FORECAST=0` leaves the forecast out). Run alone: `pnpm exec node --conditions=@tppkit/source --expose-gc bench/decoder.ts`.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { mixedText } from "./mixedData.ts"
import { alternating, beforeCheckout, importFrom, load, root, upperMedian, writeGeneratedOrders } from "./support.ts"

const before = beforeCheckout("BENCH_DECODER_BEFORE")
const RECORDS = Number(process.env.BENCH_MIXED_RECORDS ?? 140_000)
const ORDERS = Number(process.env.BENCH_DECODER_ORDERS ?? 100_000)
const RUNS = Number(process.env.BENCH_DECODER_RUNS ?? 5)

interface Side {
  readonly name: string
  readonly Project: typeof import("@tppkit/cli").Project
  readonly schedule: typeof import("@tppkit/schedule")
  readonly core: typeof import("@tppkit/core")
}

const sideOf = async (name: string, checkout: string): Promise<Side> => ({
  name,
  Project: (await importFrom(checkout, "packages/cli/src/Project.ts")) as Side["Project"],
  schedule: (await importFrom(checkout, "packages/schedule/src/index.ts")) as Side["schedule"],
  core: (await importFrom(checkout, "packages/core/src/index.ts")) as Side["core"]
})

const sides = [await sideOf("before", before), await sideOf("after", root)]
const effect = await import("effect")

const report = (title: string, times: ReadonlyArray<Array<number>>, extra: string) => {
  const [b, a] = times.map(upperMedian) as [number, number]
  console.log(
    `${title}: before ${b.toFixed(0)} ms, after ${a.toFixed(0)} ms CPU (median of ${RUNS} alternating runs each): ${(a / b).toFixed(2)}x; ${extra}; load ${load()}`
  )
}

// ---------------------------------------------------------------------------
// the mixed read
// ---------------------------------------------------------------------------

const mixed = mixedText(RECORDS)
{
  const counts = [0, 0]
  const times = alternating(RUNS, sides, (side, s) => {
    const d = side.Project.decodeOrders(mixed)
    if (d._tag === "Failure") throw new Error(d.failure)
    counts[s] = d.success.orders.length
  })
  report(`mixed read, ${RECORDS} records`, times, `orders ${counts.join(" / ")}`)
}

// ---------------------------------------------------------------------------
// the projection of a generated file
// ---------------------------------------------------------------------------

const dir = mkdtempSync(join(tmpdir(), "tppkit-bench-decoder-"))
try {
  const file = join(dir, "orders.json")
  writeGeneratedOrders(file, ORDERS)
  const bytes = readFileSync(file)
  /** The file's orders, read by that side's decoder a MiB at a time. */
  const readOrders = (side: Side) => {
    const decoder = side.Project.ordersDecoder()
    for (let at = 0; at < bytes.length; at += 1 << 20) decoder.push(bytes.subarray(at, at + (1 << 20)))
    const decoded = decoder.end()
    if (decoded._tag === "Failure") throw new Error(decoded.failure)
    return decoded.success.orders
  }
  const project = (side: Side): number => {
    const { Calendar, LocalDate } = side.core
    const { CashFlow, Projection } = side.schedule
    const orders = readOrders(side)
    const acc = CashFlow.accumulator({ period: "month" })
    const window = { from: LocalDate.parseUnsafe("2026-01-01"), to: LocalDate.parseUnsafe("2026-12-31") }
    for (const p of Projection.lazy(orders, window, {
      calendar: Calendar.target,
      convention: "following"
    }).payments)
      acc.add(p)
    return acc.result().count
  }
  const payments = [0, 0]
  const times = alternating(RUNS, sides, (side, s) => {
    payments[s] = project(side)
  })
  report(`read and project ${ORDERS} orders over 2026`, times, `payments ${payments.join(" / ")}`)

  // the forecast of the orders read (the summary), each side's reader and schedule
  const forecastOf = (side: Side) => {
    const { BigDecimal } = effect
    const { Calendar, LocalDate } = side.core
    const orders = readOrders(side)
    const window = { from: LocalDate.parseUnsafe("2026-01-01"), to: LocalDate.parseUnsafe("2026-12-31") }
    const debtors = [...new Set(orders.map((o) => o.debtor.iban))]
    const balances = debtors.map((iban) => ({
      iban,
      currency: "EUR",
      amount: BigDecimal.make(1_000_000_00n, 2),
      date: window.from
    }))
    return () => {
      const f = side.schedule.Forecast.make({
        orders,
        balances,
        window,
        options: { calendar: Calendar.target, convention: "following" },
        ladder: false
      })
      if (f._tag === "Failure") throw new Error(String(f.failure))
      return f.success.accounts.length
    }
  }
  if (process.env.BENCH_DECODER_FORECAST === "0") process.exit(0)
  const forecasts = sides.map(forecastOf)
  const ftimes = alternating(RUNS, forecasts, (f) => f())
  report(`forecast (summary) of the ${ORDERS} orders read`, ftimes, "every debtor with a balance")
} finally {
  rmSync(dir, { recursive: true, force: true })
}
