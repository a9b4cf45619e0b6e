/**
 * The per-record source check of core's `Orders` (issue 36): every record of an orders text is asked whether it is a
 * whole record of another source (COBS, Berlin Group, UK, YNAB, Actual: `internal/records/orders.ts`'s `wholeSource`,
 * which runs `SourceRecord.detect` on a record without the seed bank's wrapper fields) before it is read. Measured in
 * one process, alternating run by run, each the median CPU time (user and system) of `BENCH_SOURCE_RUNS` (default 7)
 * runs over `BENCH_SOURCE_RECORDS` (default 200,000) records:
 *   - the seed bank's records: the whole read (`Orders.decoder` over the text) against the check alone over the same
 *     records parsed (the check's share of the read, on the common path where it finds nothing);
 *   - COBS list items (a page): the whole read against the check alone (it finds the source) and against
 *     `SourceRecord.read` alone (the whole record's reading the check leads to).
 * Run alone: `pnpm exec node --conditions=@tppkit/source --expose-gc bench/sourceCheck.ts`; also run by `pnpm bench`.
 */
import { LocalDate, Orders, SourceRecord } from "@tppkit/core"
import { wholeSource } from "../packages/core/src/internal/records/orders.ts"
import { day } from "./mixedData.ts"
import { cpu, load, upperMedian } from "./support.ts"

const RECORDS = Number(process.env.BENCH_SOURCE_RECORDS ?? 200_000)
const RUNS = Number(process.env.BENCH_SOURCE_RUNS ?? 7)
const seed = (i: number) => ({
  orderId: `SO-${i}`,
  frequency: "MNTH",
  startDate: `2027-01-${day(i)}`,
  debtor: { name: "A", iban: "SK3112000000198742637541" },
  creditor: { name: "B", iban: "CZ6508000000192000145399" },
  instructedAmount: { value: 10 + (i % 100), currency: "EUR" }
})
const cobs = (i: number) => ({
  standingOrderIdentification: { transactionIdentification: `SO2026${String(i).padStart(12, "0")}` },
  amount: { instructedAmount: { value: 2500 + (i % 100), currency: "CZK" } },
  standingOrder: {
    alias: "Nájem",
    execution: {
      mode: "UNTIL_CANCELLATION",
      modeDue: "DUE_DAY_OF_MONTH",
      interval: "MONTHLY",
      intervalDue: (i % 28) + 1
    }
  },
  debtorAccount: { identification: { iban: "CZ4608000000002345678908" }, currency: "CZK" }
})

const seedRecords = Array.from({ length: RECORDS }, (_, i) => seed(i))
const cobsRecords = Array.from({ length: RECORDS }, (_, i) => cobs(i))
const seedText = JSON.stringify(seedRecords)
const cobsText = JSON.stringify({ pageNumber: 0, pageCount: 1, pageSize: RECORDS, standingOrders: cobsRecords })
const listedOn = LocalDate.parseUnsafe("2026-11-29")

let sink = 0
const read = (text: string) => () => {
  const d = Orders.decoder({ listedOn })
  d.push(text)
  const end = d.end()
  if (end._tag === "Failure") throw new Error(end.failure.reason)
  sink += end.success.items.length
}
const check = (records: ReadonlyArray<unknown>) => () => {
  for (const r of records) if (wholeSource(r, undefined) !== undefined) sink++
}
const readWhole = (records: ReadonlyArray<unknown>) => () => {
  for (const r of records) if (SourceRecord.read(r, { standard: "cobs", listedOn })?._tag === "Order") sink++
}

const cases = [
  ["seed: whole read", read(seedText)],
  ["seed: the check alone", check(seedRecords)],
  ["cobs: whole read", read(cobsText)],
  ["cobs: the check alone", check(cobsRecords)],
  ["cobs: SourceRecord.read alone", readWhole(cobsRecords)]
] as const
const times = cases.map(() => [] as Array<number>)
const loadBefore = load()
for (let run = 0; run < RUNS; run++) for (const [i, [, f]] of cases.entries()) times[i]!.push(cpu(f))
const loadAfter = load()

const ms = (i: number) => upperMedian(times[i]!)
const perRecord = (i: number) => `${((ms(i) * 1e6) / RECORDS).toFixed(0)} ns/record`
console.log(
  `\nsourceCheck: ${RECORDS} records, median CPU of ${RUNS} alternating runs (load ${loadBefore} -> ${loadAfter})`
)
for (const [i, [name]] of cases.entries())
  console.log(`  ${name.padEnd(32)} ${ms(i).toFixed(0).padStart(7)} ms  ${perRecord(i)}`)
console.log(`  the check's share of the seed read: ${((ms(1) / ms(0)) * 100).toFixed(1)} %`)
console.log(`  the check's share of the COBS read: ${((ms(3) / ms(2)) * 100).toFixed(1)} %`)
if (sink < 0) console.log(sink)
