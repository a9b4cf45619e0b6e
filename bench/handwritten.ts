/**
 * The hand-written baselines' date arithmetic (days-from-civil, civil-from-days, ISO text per date, month lengths),
 * shared by bench/baseline.ts and bench/recurrence.ts: epoch-day arithmetic with nothing cached, the loop a
 * programmer writes for one job.
 */

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

/** The median of some numbers. */
export const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** An engine run and a hand-written run of one job. */
export interface Pair {
  readonly id: string
  readonly title: string
  readonly rounds: number
  readonly engine: () => ReadonlyArray<string> | number
  readonly baseline: () => ReadonlyArray<string> | number
}

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
