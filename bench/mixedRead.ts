/**
 * Reading a large mixed orders file (issue 23): the bank's codes, RRULEs, UK v3 and v4, Berlin Group, COBS and ISO
 * 20022 records in turn (a seventh of each), decoded by the CLI's reader (`Project.decodeOrders`, what every command
 * that takes `--orders` runs) from the text; the median of the runs' CPU time (the process's, user and system: steadier than wall time on a busy machine) and per record. Records:
 * `BENCH_MIXED_RECORDS` (default 140,000); runs: `BENCH_MIXED_RUNS` (default 5). Then the schedule decoding alone
 * (`Standard.decode` of the parsed records, alternating in one process): once per record, as the reader does now, against
 * twice (under two default conventions), as it did before it read `ownConvention`. Run alone with
 * `pnpm exec node --conditions=@tppkit/source --expose-gc bench/mixedRead.ts`; also run by `pnpm bench`.
 */
import { loadavg } from "node:os"
import { Project } from "@tppkit/cli"
import { Standard } from "@tppkit/core"

const RECORDS = Number(process.env.BENCH_MIXED_RECORDS ?? 140_000)
const RUNS = Number(process.env.BENCH_MIXED_RUNS ?? 5)

const who = {
  debtor: { name: "A", iban: "SK3112000000198742637541" },
  creditor: { name: "B", iban: "CZ6508000000192000145399" }
}
/** One record of each kind, with the order's own fields; `i` varies the day so that the records differ. */
const kinds: ReadonlyArray<(i: number) => Record<string, unknown>> = [
  (i) => ({ frequency: "MNTH", startDate: `2027-01-${String((i % 28) + 1).padStart(2, "0")}` }),
  (i) => ({
    rrule: `DTSTART;VALUE=DATE:202701${String((i % 28) + 1).padStart(2, "0")}\nRRULE:FREQ=MONTHLY;BYDAY=-1FR`
  }),
  (i) => ({
    Frequency: `IntrvlMnthDay:01:${String((i % 28) + 1).padStart(2, "0")}`,
    FirstPaymentDateTime: "2027-01-01T00:00:00+00:00"
  }),
  (i) => ({
    MandateRelatedInformation: {
      FirstPaymentDateTime: "2027-01-01T00:00:00+00:00",
      Frequency: { Type: "MNTH", PointInTime: String((i % 28) + 1).padStart(2, "0") }
    }
  }),
  (i) => ({
    additionalInformationStructured: {
      standingOrderDetails: {
        startDate: "2027-01-01",
        frequency: "Monthly",
        dayOfExecution: String((i % 28) + 1),
        executionRule: "preceding"
      }
    }
  }),
  (i) => ({
    requestedExecutionDate: "2027-01-10",
    standingOrder: { execution: { interval: "MONTHLY", intervalDue: String((i % 28) + 1), mode: "UNTIL_CANCELLATION" } }
  }),
  (i) => ({
    frequency: { PtInTm: { Tp: "MNTH", PtInTm: String((i % 28) + 1).padStart(2, "0") } },
    startDate: "2027-02-01"
  })
]
const parts: Array<string> = []
for (let i = 0; i < RECORDS; i++) {
  parts.push(
    JSON.stringify({
      orderId: `SO-${String(i).padStart(8, "0")}`,
      ...who,
      instructedAmount: { value: 1 + (i % 500), currency: "EUR" },
      ...kinds[i % kinds.length]!(i)
    })
  )
}
const text = `[${parts.join(",\n")}]`
const gc = (globalThis as { gc?: () => void }).gc
const times: Array<number> = []
let orders = 0
for (let run = 0; run < RUNS; run++) {
  gc?.()
  const t0 = process.cpuUsage()
  const decoded = Project.decodeOrders(text)
  const used = process.cpuUsage(t0)
  times.push((used.user + used.system) / 1000)
  if (decoded._tag === "Failure") throw new Error(decoded.failure)
  orders = decoded.success.orders.length
}
times.sort((a, b) => a - b)
const median = times[Math.floor(times.length / 2)]!
console.log(
  `mixed read: ${RECORDS} records (${(text.length / 1e6).toFixed(1)} MB), ${orders} orders; median ${median.toFixed(0)} ms CPU of ${RUNS} runs (${((median * 1000) / RECORDS).toFixed(2)} µs per record); load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`
)

// the schedule decoding alone: once against twice per record, alternating in one process
const records = JSON.parse(text) as ReadonlyArray<Record<string, unknown>>
const decodeAll = (times: 1 | 2) => {
  const t0 = process.cpuUsage()
  for (const r of records) {
    Standard.decode(r, { convention: "following" })
    if (times === 2) Standard.decode(r, { convention: "preceding" })
  }
  const used = process.cpuUsage(t0)
  return (used.user + used.system) / 1000
}
const once: Array<number> = []
const twice: Array<number> = []
for (let run = 0; run < RUNS; run++) {
  gc?.()
  once.push(decodeAll(1))
  gc?.()
  twice.push(decodeAll(2))
}
const med = (xs: Array<number>) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
console.log(
  `schedule decoding alone: once ${med(once).toFixed(0)} ms CPU, twice ${med(twice).toFixed(0)} ms CPU (median of ${RUNS}); load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`
)
