/**
 * The hand-written baselines' date arithmetic (days-from-civil, civil-from-days, ISO text per date, month lengths),
 * shared by bench/baseline.ts and bench/recurrence.ts: epoch-day arithmetic with nothing cached, the loop a
 * programmer writes for one job; and the harness that runs a job by the engine and by such a loop (bench/engine.ts
 * reads the engine's dates the same way).
 */
import { type Frequency, LocalDate, Occurrence } from "@tppkit/core"
import { median, mulberry32 } from "./support.ts"

/** Days from 1970-01-01 of a valid civil date (days-from-civil). */
export const civil = (y: number, m: number, d: number): number => {
  const yy = m <= 2 ? y - 1 : y
  const era = Math.floor(yy / 400)
  const yoe = yy - era * 400
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468
}

/** Year·10000 + month·100 + day of a day number (civil-from-days), packed to avoid an object. */
export const packed = (z0: number): number => {
  const z = z0 + 719_468
  const era = Math.floor(z / 146_097)
  const doe = z - era * 146_097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1
  const m = mp < 10 ? mp + 3 : mp - 9
  return (yoe + era * 400 + (m <= 2 ? 1 : 0)) * 10_000 + m * 100 + d
}

export const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`)

/** The ISO text of a day number (years 1000–9999). */
export const iso = (z: number): string => {
  const p = packed(z)
  const y = Math.floor(p / 10_000)
  const md = p - y * 10_000
  const m = Math.floor(md / 100)
  return `${y}-${two(m)}-${two(md - m * 100)}`
}

export const leap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
export const monthLength = (y: number, m: number): number =>
  m === 2 ? (leap(y) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31

/** Day number of day `d` (clamped to the month's length) of month index i = year·12 + month − 1. */
export const clampedDay = (i: number, d: number): number => {
  const y = Math.floor(i / 12)
  const m = i - y * 12 + 1
  return civil(y, m, Math.min(d, monthLength(y, m)))
}

/** An order of W4 and W5 (bench/baseline.ts, bench/engine.ts): a frequency code and an anchor date. */
export interface RandomOrder {
  readonly frequency: Frequency.Frequency
  readonly startDate: LocalDate.LocalDate
}

/**
 * `count` seeded orders of the given codes anchored in 2000–2030, 30 % of them on days 28–31 of the month (clamped
 * where the month is shorter): the month ends on purpose.
 */
export const randomOrders = (
  count: number,
  seed: number,
  codes: ReadonlyArray<Frequency.Frequency>
): Array<RandomOrder> => {
  const random = mulberry32(seed)
  const lo = LocalDate.parseUnsafe("2000-01-01")
  const hi = LocalDate.parseUnsafe("2030-12-31")
  return Array.from({ length: count }, () => {
    const frequency = codes[Math.floor(random() * codes.length)]!
    let startDate = (lo + Math.floor(random() * (hi - lo + 1))) as LocalDate.LocalDate
    if (random() < 0.3) {
      const p = LocalDate.toParts(startDate)
      startDate = LocalDate.ofMonthClamped(p.year, p.month, 28 + Math.floor(random() * 4))
    }
    return { frequency, startDate }
  })
}

/** An engine run and a hand-written run of one job. */
export interface Pair {
  readonly id: string
  readonly title: string
  readonly rounds: number
  readonly engine: () => ReadonlyArray<string> | number
  readonly baseline: () => ReadonlyArray<string> | number
}

/** The engine's side of a dates job: the ISO text of every execution of a plan. */
export const engineDates = (plan: Occurrence.Plan): Array<string> => {
  const out: Array<string> = []
  for (const o of Occurrence.iterate(plan)) out.push(LocalDate.format(o.execution))
  return out
}

/** A job of 25 rounds whose engine side lists the dates of `plan` (`engineDates`) and `baseline` the same by hand. */
export const datesPair = (id: string, title: string, plan: Occurrence.Plan, baseline: () => Array<string>): Pair => ({
  id,
  title,
  rounds: 25,
  engine: () => engineDates(plan),
  baseline
})

/** Whether two runs gave the same output. */
export const same = (a: ReadonlyArray<string> | number, b: ReadonlyArray<string> | number): boolean =>
  typeof a === "number" ? a === b : typeof b !== "number" && a.length === b.length && a.every((x, i) => x === b[i])

/** Times engine and baseline alternately; the first engine round is measured too (no warm-up before it). */
export const measure = (pair: Pair) => {
  const engine: Array<number> = []
  const baseline: Array<number> = []
  const engineCpu: Array<number> = []
  const baselineCpu: Array<number> = []
  for (let r = 0; r < pair.rounds; r++) {
    const order = r % 2 === 0 ? ([engine, baseline] as const) : ([baseline, engine] as const)
    for (const times of order) {
      const run = times === engine ? pair.engine : pair.baseline
      const c0 = process.cpuUsage()
      const t0 = performance.now()
      run()
      times.push(performance.now() - t0)
      const c = process.cpuUsage(c0)
      ;(times === engine ? engineCpu : baselineCpu).push((c.user + c.system) / 1000)
    }
  }
  const warm = (xs: Array<number>) => median(xs.slice(2)) // the first two rounds warm the JIT
  return {
    engine: warm(engine),
    baseline: warm(baseline),
    ratio: warm(engine) / warm(baseline),
    // CPU time (every thread of the process, the collector's too) is less moved by other jobs on the machine
    cpuRatio: warm(engineCpu) / warm(baselineCpu),
    firstRatio: engine[0]! / baseline[0]!
  }
}
