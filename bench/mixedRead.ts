/**
 * Reading a large mixed orders file (issue 23): the bank's codes, RRULEs, UK v3 and v4, Berlin Group, COBS and ISO
 * 20022 records in turn (a seventh of each), decoded by the CLI's reader (`Project.decodeOrders`, what every command
 * that takes `--orders` runs) from the text; the median of the runs' CPU time (the process's, user and system: steadier than wall time on a busy machine) and per record. Records:
 * `BENCH_MIXED_RECORDS` (default 140,000); runs: `BENCH_MIXED_RUNS` (default 5). Then the schedule decoding alone
 * (`Standard.decode` of the parsed records, alternating in one process): once per record, as the reader does now, against
 * twice (under two default conventions), as it did before it read `ownConvention`. Run alone with
 * `pnpm exec node --conditions=@tppkit/source --expose-gc bench/mixedRead.ts`; also run by `pnpm bench`.
 */
import { Project } from "@tppkit/cli"
import { Standard } from "@tppkit/core"
import { mixedText } from "./mixedData.ts"
import { cpu, load, upperMedian } from "./support.ts"

const RECORDS = Number(process.env.BENCH_MIXED_RECORDS ?? 140_000)
const RUNS = Number(process.env.BENCH_MIXED_RUNS ?? 5)

const text = mixedText(RECORDS)
const times: Array<number> = []
let orders = 0
for (let run = 0; run < RUNS; run++) {
  times.push(
    cpu(() => {
      const decoded = Project.decodeOrders(text)
      if (decoded._tag === "Failure") throw new Error(decoded.failure)
      orders = decoded.success.orders.length
    })
  )
}
const medianRun = upperMedian(times)
console.log(
  `mixed read: ${RECORDS} records (${(text.length / 1e6).toFixed(1)} MB), ${orders} orders; median ${medianRun.toFixed(0)} ms CPU of ${RUNS} runs (${((medianRun * 1000) / RECORDS).toFixed(2)} µs per record); load ${load()}`
)

// the schedule decoding alone: once against twice per record, alternating in one process
const records = JSON.parse(text) as ReadonlyArray<Record<string, unknown>>
const decodeAll = (times: 1 | 2) => () => {
  for (const r of records) {
    Standard.decode(r, { convention: "following" })
    if (times === 2) Standard.decode(r, { convention: "preceding" })
  }
}
const once: Array<number> = []
const twice: Array<number> = []
for (let run = 0; run < RUNS; run++) {
  once.push(cpu(decodeAll(1)))
  twice.push(cpu(decodeAll(2)))
}
console.log(
  `schedule decoding alone: once ${upperMedian(once).toFixed(0)} ms CPU, twice ${upperMedian(twice).toFixed(0)} ms CPU (median of ${RUNS}); load ${load()}`
)
