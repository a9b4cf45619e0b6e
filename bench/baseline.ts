/**
 * The engine against hand-written epoch-day loops (issue 12): for W1–W4 and for "next occurrence from text",
 * the same answers computed by the engine through the public API and by a plain loop written for this one job
 * (character-code parsing, days-from-civil arithmetic, ISO text built per date), alternating round by round in
 * one process; ratio = engine median ÷ baseline median (≤ 1 means the engine is as fast or faster). Each
 * workload is then run again in a fresh child process, where no earlier workload has filled the engine's
 * date-text cache; the child also reports the ratio of the first measured round. Every pair is first checked to
 * give the same output.
 *
 * Run alone: `pnpm exec node --conditions=@tppkit/source bench/baseline.ts` (`BENCH_BASELINE=W1,W6` selects);
 * also run by `pnpm bench`.
 */
import { execFileSync } from "node:child_process"
import { loadavg } from "node:os"
import { Calendar, type Frequency, LocalDate, Occurrence } from "@tppkit/core"
import { Result } from "effect"

// ---------------------------------------------------------------------------
// the hand-written baseline: epoch-day arithmetic with nothing cached
// ---------------------------------------------------------------------------

/** Days from 1970-01-01 of a valid civil date (days-from-civil). */
const civil = (y: number, m: number, d: number): number => {
  const yy = m <= 2 ? y - 1 : y
  const era = Math.floor(yy / 400)
  const yoe = yy - era * 400
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468
}

/** Year·10000 + month·100 + day of a day number (civil-from-days), packed to avoid an object. */
const packed = (z0: number): number => {
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

const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`)

/** The ISO text of a day number (years 1000–9999). */
const iso = (z: number): string => {
  const p = packed(z)
  const y = Math.floor(p / 10_000)
  const md = p - y * 10_000
  const m = Math.floor(md / 100)
  return `${y}-${two(m)}-${two(md - m * 100)}`
}

const leap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
const monthLength = (y: number, m: number): number =>
  m === 2 ? (leap(y) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31

/** Day number of day `d` (clamped to the month's length) of month index i = year·12 + month − 1. */
const clampedDay = (i: number, d: number): number => {
  const y = Math.floor(i / 12)
  const m = i - y * 12 + 1
  return civil(y, m, Math.min(d, monthLength(y, m)))
}

/** Day number of a `YYYY-MM-DD` text read by character codes (−1e9 when it is not a date). */
const parseText = (s: string): number => {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return -1e9
  const y =
    (s.charCodeAt(0) - 48) * 1000 + (s.charCodeAt(1) - 48) * 100 + (s.charCodeAt(2) - 48) * 10 + s.charCodeAt(3) - 48
  const m = (s.charCodeAt(5) - 48) * 10 + s.charCodeAt(6) - 48
  const d = (s.charCodeAt(8) - 48) * 10 + s.charCodeAt(9) - 48
  if (y < 1 || m < 1 || m > 12 || d < 1 || d > monthLength(y, m)) return -1e9
  return civil(y, m, d)
}

// ---------------------------------------------------------------------------
// harness
// ---------------------------------------------------------------------------

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

interface Pair {
  readonly id: string
  readonly title: string
  readonly rounds: number
  readonly engine: () => ReadonlyArray<string> | number
  readonly baseline: () => ReadonlyArray<string> | number
}

const same = (a: ReadonlyArray<string> | number, b: ReadonlyArray<string> | number): boolean =>
  typeof a === "number" ? a === b : typeof b !== "number" && a.length === b.length && a.every((x, i) => x === b[i])

/** Times engine and baseline alternately; the first engine round is measured too (no warm-up before it). */
const measure = (pair: Pair) => {
  const engine: Array<number> = []
  const baseline: Array<number> = []
  for (let r = 0; r < pair.rounds; r++) {
    const order = r % 2 === 0 ? ([engine, baseline] as const) : ([baseline, engine] as const)
    for (const times of order) {
      const run = times === engine ? pair.engine : pair.baseline
      const t0 = performance.now()
      run()
      times.push(performance.now() - t0)
    }
  }
  const warm = (xs: Array<number>) => median(xs.slice(2)) // the first two rounds warm the JIT
  return {
    engine: warm(engine),
    baseline: warm(baseline),
    ratio: warm(engine) / warm(baseline),
    firstRatio: engine[0]! / baseline[0]!
  }
}

const pairs: Array<Pair> = []
const d = LocalDate.parseUnsafe
const plan = (o: Occurrence.OrderSchedule): Occurrence.Plan =>
  Result.getOrThrow(Occurrence.makePlan(o, { convention: "none" }))
const engineDates = (p: Occurrence.Plan): Array<string> => {
  const out: Array<string> = []
  for (const o of Occurrence.iterate(p)) out.push(LocalDate.format(o.execution))
  return out
}

/** mulberry32, seeded: every run and every process sees the same inputs. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
}

// W1: MNTH from 2000-01-31 to 2999-12-31 (12,000 dates)
{
  const p = plan({ frequency: "MNTH", startDate: d("2000-01-31"), endDate: d("2999-12-31") })
  pairs.push({
    id: "W1",
    title: "W1 MNTH from 2000-01-31 for 1,000 years, ISO dates",
    rounds: 25,
    engine: () => engineDates(p),
    baseline: () => {
      const out: Array<string> = []
      for (let i = 2000 * 12; i <= 2999 * 12 + 11; i++) out.push(iso(clampedDay(i, 31)))
      return out
    }
  })
}

// W2: DAIL on the weekends calendar, 2000–2099
{
  const p = Result.getOrThrow(
    Occurrence.makePlan(
      { frequency: "DAIL", startDate: d("2000-01-01"), endDate: d("2099-12-31") },
      { calendar: Calendar.weekends }
    )
  )
  pairs.push({
    id: "W2",
    title: "W2 DAIL (weekends) 2000–2099, ISO dates",
    rounds: 25,
    engine: () => engineDates(p),
    baseline: () => {
      const out: Array<string> = []
      const last = civil(2099, 12, 31)
      for (let z = civil(2000, 1, 1); z <= last; z++) {
        const weekday = (((z + 3) % 7) + 7) % 7 // 0 = Monday
        if (weekday < 5) out.push(iso(z))
      }
      return out
    }
  })
}

// W3: WEEK from 2000-01-08 to 2999-12-31
{
  const p = plan({ frequency: "WEEK", startDate: d("2000-01-08"), endDate: d("2999-12-31") })
  pairs.push({
    id: "W3",
    title: "W3 WEEK from 2000-01-08 for 1,000 years, ISO dates",
    rounds: 25,
    engine: () => engineDates(p),
    baseline: () => {
      const out: Array<string> = []
      const last = civil(2999, 12, 31)
      for (let z = civil(2000, 1, 8); z <= last; z += 7) out.push(iso(z))
      return out
    }
  })
}

// W4: 100,000 random orders (DAI7 … YEAR, anchors 2000–2030, 30 % on days 28–31), occurrences in 2026 counted
{
  const codes: ReadonlyArray<Frequency.Frequency> = ["DAI7", "WEEK", "MNTH", "QUTR", "SEMI", "YEAR"]
  const random = prng(20_261_121)
  const lo = d("2000-01-01")
  const hi = d("2030-12-31")
  const orders = Array.from({ length: 100_000 }, () => {
    const frequency = codes[Math.floor(random() * codes.length)]!
    let startDate = (lo + Math.floor(random() * (hi - lo + 1))) as LocalDate.LocalDate
    if (random() < 0.3) {
      const parts = LocalDate.toParts(startDate)
      startDate = LocalDate.ofMonthClamped(parts.year, parts.month, 28 + Math.floor(random() * 4))
    }
    return { frequency, startDate }
  })
  const from = d("2026-01-01")
  const to = d("2026-12-31")
  const steps: Record<string, number> = { MNTH: 1, QUTR: 3, SEMI: 6, YEAR: 12 }
  pairs.push({
    id: "W4",
    title: "W4 100,000 random orders over 2026, occurrences counted (plan + count)",
    rounds: 15,
    engine: () => {
      let n = 0
      for (const o of orders) n += Occurrence.count(plan(o), from, to)
      return n
    },
    baseline: () => {
      let n = 0
      for (const o of orders) {
        const a = o.startDate as number
        if (o.frequency === "DAI7" || o.frequency === "WEEK") {
          const step = o.frequency === "DAI7" ? 1 : 7
          const first = a >= from ? a : a + Math.ceil((from - a) / step) * step
          if (first <= to) n += Math.floor((to - first) / step) + 1
          continue
        }
        const step = steps[o.frequency]!
        const p = packed(a)
        const y = Math.floor(p / 10_000)
        const md = p - y * 10_000
        const m = Math.floor(md / 100)
        const day = md - m * 100
        const anchorMonth = y * 12 + m - 1
        const fp = packed(from)
        const fy = Math.floor(fp / 10_000)
        const fromMonth = fy * 12 + Math.floor((fp - fy * 10_000) / 100) - 1
        let k = Math.max(0, Math.ceil((fromMonth - anchorMonth) / step))
        for (;;) {
          const z = clampedDay(anchorMonth + k * step, day)
          if (z > to) break
          if (z >= from && z >= a) n++
          k++
        }
      }
      return n
    }
  })
}

// W6: next occurrence from text: 1,000,000 (order, ISO date) pairs on 1,000 MNTH orders given as text
{
  const random = prng(5)
  const lo = d("2000-01-01")
  const starts = Array.from({ length: 1000 }, () => {
    let s = (lo + Math.floor(random() * 365.25 * 30)) as LocalDate.LocalDate
    if (random() < 0.3) {
      const parts = LocalDate.toParts(s)
      s = LocalDate.ofMonthClamped(parts.year, parts.month, 28 + Math.floor(random() * 4))
    }
    return LocalDate.format(s)
  })
  const QUERIES = 1_000_000
  const dates = Array.from({ length: QUERIES }, () =>
    LocalDate.format((lo + Math.floor(random() * 365.25 * 40)) as LocalDate.LocalDate)
  )
  const options = { convention: "none" } as const
  pairs.push({
    id: "W6",
    title: "W6 next occurrence from text: 1,000,000 (order, ISO date) pairs, parse + plan + first on or after + format",
    rounds: 11,
    engine: () => {
      const out = new Array<string>(QUERIES)
      for (let i = 0, j = 0; i < QUERIES; i++) {
        const start = LocalDate.parse(starts[j]!)
        const date = LocalDate.parse(dates[i]!)
        let text = ""
        if (Result.isSuccess(start) && Result.isSuccess(date)) {
          const p = Occurrence.makePlan({ frequency: "MNTH", startDate: start.success }, options)
          if (Result.isSuccess(p)) {
            const e = Occurrence.firstExecutionOnOrAfter(p.success, date.success)
            if (e !== undefined) text = LocalDate.format(e)
          }
        }
        out[i] = text
        if (++j === 1000) j = 0
      }
      return out
    },
    baseline: () => {
      const out = new Array<string>(QUERIES)
      for (let i = 0, j = 0; i < QUERIES; i++) {
        const a = parseText(starts[j]!)
        const q = parseText(dates[i]!)
        let text = ""
        if (a > -1e9 && q > -1e9) {
          const ap = packed(a)
          const ay = Math.floor(ap / 10_000)
          const am = Math.floor((ap - ay * 10_000) / 100)
          const day = ap - ay * 10_000 - am * 100
          const qp = packed(q)
          const qy = Math.floor(qp / 10_000)
          const qm = Math.floor((qp - qy * 10_000) / 100)
          let index = Math.max(ay * 12 + am - 1, qy * 12 + qm - 1)
          let z = clampedDay(index, day)
          if (z < q) z = clampedDay(++index, day)
          text = iso(z)
        }
        out[i] = text
        if (++j === 1000) j = 0
      }
      return out
    }
  })
}

// ---------------------------------------------------------------------------
// run: in this process, then each workload in a fresh child
// ---------------------------------------------------------------------------

const only = process.env["BENCH_BASELINE"]?.split(",").map((w) => w.trim().toUpperCase())
const chosen = pairs.filter((p) => only === undefined || only.includes(p.id))
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")
const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1))

if (process.env["BENCH_BASELINE_CHILD"] === "1") {
  for (const pair of chosen) {
    const r = measure(pair)
    process.stdout.write(`${JSON.stringify(r)}\n`)
  }
} else {
  console.log(`\nengine against hand-written epoch-day baselines: node ${process.version}, load average ${load()}`)
  for (const pair of chosen) {
    if (!same(pair.engine(), pair.baseline())) throw new Error(`${pair.id}: engine and baseline disagree`)
    const r = measure(pair)
    const child = JSON.parse(
      execFileSync(process.execPath, [...process.execArgv, new URL(import.meta.url).pathname], {
        env: { ...process.env, BENCH_BASELINE: pair.id, BENCH_BASELINE_CHILD: "1" },
        encoding: "utf8"
      }).trim()
    ) as ReturnType<typeof measure>
    console.log(`${pair.title}  (${pair.rounds} rounds, medians)`)
    console.log(
      `  this process:  engine ${fmt(r.engine)} ms, baseline ${fmt(r.baseline)} ms, ratio ${r.ratio.toFixed(2)}×`
    )
    console.log(
      `  fresh process: engine ${fmt(child.engine)} ms, baseline ${fmt(child.baseline)} ms, ratio ${child.ratio.toFixed(2)}× (first round ${child.firstRatio.toFixed(2)}×)`
    )
  }
  console.log(`load average at the end ${load()}`)
}
