/**
 * The engine against hand-written loops (issues 12 and 27): for W1–W4 and for "first execution after X from
 * text" (W6), the same answers computed by the engine through the public API and by a plain loop written for this
 * one job (character-code parsing, days-from-civil arithmetic or month arithmetic on year, month and day, ISO text
 * built per date), alternating round by round in one process; ratio = engine median ÷ baseline median (≤ 1 means
 * the engine is as fast or faster), by wall time and by the process's CPU time (less moved by other jobs on a
 * shared machine). Each workload is then run again in a fresh child process, where no earlier workload has filled
 * the engine's date-text cache; the child also reports the ratio of the first measured round. Every pair is first
 * checked to give the same output.
 *
 * Run alone: `pnpm exec node --conditions=@tppkit/source bench/baseline.ts` (`BENCH_BASELINE=W1,W6` selects);
 * also run by `pnpm bench`. `BENCH_BASELINE_BEFORE=/path/to/another/checkout` (set up, so that its `node_modules`
 * holds effect) then also runs W4's and W6's engine side against that checkout's engine in the same process, round
 * by round: ratio = this checkout ÷ that one.
 */
import { execFileSync } from "node:child_process"
import { Calendar, LocalDate, Occurrence } from "@tppkit/core"
import { Result } from "effect"
import {
  civil,
  clampedDay,
  datesPair,
  iso,
  measure,
  monthLength,
  type Pair,
  packed,
  randomOrders,
  same
} from "./handwritten.ts"
import { load, mulberry32, selectedBy } from "./support.ts"

// ---------------------------------------------------------------------------
// the hand-written baseline: epoch-day arithmetic with nothing cached
// ---------------------------------------------------------------------------

/** The digit at `i`, or −100,000 when it is not one (so that a number read with it comes out negative). */
const digit = (s: string, i: number): number => {
  const c = s.charCodeAt(i)
  return c >= 48 && c <= 57 ? c - 48 : -100_000
}
const fourDigits = (s: string): number => digit(s, 0) * 1000 + digit(s, 1) * 100 + digit(s, 2) * 10 + digit(s, 3)
const twoDigits = (s: string, i: number): number => digit(s, i) * 10 + digit(s, i + 1)
/** Whether a text read as year, month and day is `YYYY-MM-DD` of a date of 1000–9999. */
const isDateText = (s: string, y: number, m: number, d: number): boolean =>
  s.length === 10 &&
  s.charCodeAt(4) === 45 &&
  s.charCodeAt(7) === 45 &&
  y >= 1000 &&
  m >= 1 &&
  m <= 12 &&
  d >= 1 &&
  d <= monthLength(y, m)

// ---------------------------------------------------------------------------
// harness
// ---------------------------------------------------------------------------

const pairs: Array<Pair> = []
const d = LocalDate.parseUnsafe
const plan = (o: Occurrence.OrderSchedule): Occurrence.Plan =>
  Result.getOrThrow(Occurrence.makePlan(o, { convention: "none" }))

/** The core modules the engines read, from this checkout or from another (`BENCH_BASELINE_BEFORE`). */
interface Core {
  readonly Calendar: typeof Calendar
  readonly LocalDate: typeof LocalDate
  readonly Occurrence: typeof Occurrence
}
const core: Core = { Calendar, LocalDate, Occurrence }

/** W4's engine side: plan and count each order (every name it reads is a parameter, so that it can be twinned). */
function w4Engine(
  core: Core,
  Result: typeof import("effect").Result,
  orders: ReadonlyArray<Occurrence.OrderSchedule>,
  from: LocalDate.LocalDate,
  to: LocalDate.LocalDate
): number {
  let n = 0
  for (const o of orders) {
    n += core.Occurrence.count(Result.getOrThrow(core.Occurrence.makePlan(o, { convention: "none" })), from, to)
  }
  return n
}

/** W6's engine side: parse, plan, parse, first on or after X + 1, format (every name it reads is a parameter). */
function w6Engine(
  core: Core,
  Result: typeof import("effect").Result,
  starts: ReadonlyArray<string>,
  xs: ReadonlyArray<string>,
  options: Occurrence.Options
): Array<string> {
  const { LocalDate, Occurrence } = core
  const out = new Array<string>(starts.length)
  for (let i = 0; i < starts.length; i++) {
    let text = ""
    const start = LocalDate.parse(starts[i]!)
    if (Result.isSuccess(start)) {
      const plan = Occurrence.makePlan({ frequency: "MNTH", startDate: start.success }, options)
      const x = LocalDate.parse(xs[i]!)
      if (Result.isSuccess(plan) && Result.isSuccess(x)) {
        const e = Occurrence.firstExecutionOnOrAfter(plan.success, LocalDate.addDays(x.success, 1))
        if (e !== undefined) text = LocalDate.format(e)
      }
    }
    out[i] = text
  }
  return out
}

/** A workload whose engine side can run against another checkout's engine in the same rounds. */
interface Twinned {
  readonly id: string
  readonly run: (core: Core, result: typeof Result, engine: Function) => () => ReadonlyArray<string> | number
  readonly engine: Function
}
const ab: Array<Twinned> = []

// W1: MNTH from 2000-01-31 to 2999-12-31 (12,000 dates)
{
  const p = plan({ frequency: "MNTH", startDate: d("2000-01-31"), endDate: d("2999-12-31") })
  pairs.push(
    datesPair("W1", "W1 MNTH from 2000-01-31 for 1,000 years, ISO dates", p, () => {
      const out: Array<string> = []
      for (let i = 2000 * 12; i <= 2999 * 12 + 11; i++) out.push(iso(clampedDay(i, 31)))
      return out
    })
  )
}

// W2: DAIL on the weekends calendar, 2000–2099
{
  const p = Result.getOrThrow(
    Occurrence.makePlan(
      { frequency: "DAIL", startDate: d("2000-01-01"), endDate: d("2099-12-31") },
      { calendar: Calendar.weekends }
    )
  )
  pairs.push(
    datesPair("W2", "W2 DAIL (weekends) 2000–2099, ISO dates", p, () => {
      const out: Array<string> = []
      const last = civil(2099, 12, 31)
      for (let z = civil(2000, 1, 1); z <= last; z++) {
        const weekday = (((z + 3) % 7) + 7) % 7 // 0 = Monday
        if (weekday < 5) out.push(iso(z))
      }
      return out
    })
  )
}

// W3: WEEK from 2000-01-08 to 2999-12-31
{
  const p = plan({ frequency: "WEEK", startDate: d("2000-01-08"), endDate: d("2999-12-31") })
  pairs.push(
    datesPair("W3", "W3 WEEK from 2000-01-08 for 1,000 years, ISO dates", p, () => {
      const out: Array<string> = []
      const last = civil(2999, 12, 31)
      for (let z = civil(2000, 1, 8); z <= last; z += 7) out.push(iso(z))
      return out
    })
  )
}

// W4: 100,000 random orders (DAI7 … YEAR, anchors 2000–2030, 30 % on days 28–31), occurrences in 2026 counted
{
  // the orders of bench/engine.ts's W4 (the same seed)
  const orders = randomOrders(100_000, 20_261_121, ["DAI7", "WEEK", "MNTH", "QUTR", "SEMI", "YEAR"])
  const from = d("2026-01-01")
  const to = d("2026-12-31")
  const steps: Record<string, number> = { MNTH: 1, QUTR: 3, SEMI: 6, YEAR: 12 }
  ab.push({ id: "W4", run: (c, r, f) => () => f(c, r, orders, from, to), engine: w4Engine })
  pairs.push({
    id: "W4",
    title: "W4 100,000 random orders over 2026, occurrences counted (plan + count)",
    rounds: 15,
    engine: () => w4Engine(core, Result, orders, from, to),
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

/**
 * W6's hand-written loop: the tightest loop we could write for this one job: the month arithmetic on year, month and
 * day read from the character codes (no day numbers needed with convention none), the text joined from numbers.
 */
function w6Loop(starts: ReadonlyArray<string>, xs: ReadonlyArray<string>): Array<string> {
  const ORDERS = starts.length
  const out = new Array<string>(ORDERS)
  for (let i = 0; i < ORDERS; i++) {
    const s = starts[i]!
    const t = xs[i]!
    const ay = fourDigits(s)
    const am = twoDigits(s, 5)
    const ad = twoDigits(s, 8)
    const xy = fourDigits(t)
    const xm = twoDigits(t, 5)
    const xd = twoDigits(t, 8)
    if (!isDateText(s, ay, am, ad) || !isDateText(t, xy, xm, xd)) {
      out[i] = ""
      continue
    }
    // the day after X
    let y = xy
    let m = xm
    let day = xd + 1
    if (day > monthLength(y, m)) {
      day = 1
      if (++m > 12) {
        m = 1
        y++
      }
    }
    // the anchor's day in the later of the anchor's month and that day's month, else in the month after
    let index = ay * 12 + am - 1
    const afterIndex = y * 12 + m - 1
    if (afterIndex > index) index = afterIndex
    let ry = (index / 12) | 0
    let rm = index - ry * 12 + 1
    let rd = Math.min(ad, monthLength(ry, rm))
    if (index === afterIndex && rd < day) {
      index++
      ry = (index / 12) | 0
      rm = index - ry * 12 + 1
      rd = Math.min(ad, monthLength(ry, rm))
    }
    out[i] = ry + (rm < 10 ? "-0" : "-") + rm + (rd < 10 ? "-0" : "-") + rd
  }
  return out
}

/**
 * W6 and its variants: 1,000,000 orders, the start texts drawn by `start` and then each order's X drawn from
 * 2020–2030 by one seeded generator, every text its own string (made by the baseline's `iso`, as a bank's JSON would
 * give it), calendar weekends, convention none; the engine side also twinned (`BENCH_BASELINE_BEFORE`).
 */
const w6Workload = (id: string, title: string, seed: number, start: (random: () => number, i: number) => string) => {
  const random = mulberry32(seed)
  const xLo = civil(2020, 1, 1)
  const xDays = civil(2031, 1, 1) - xLo
  const ORDERS = 1_000_000
  const starts = Array.from({ length: ORDERS }, (_, i) => start(random, i))
  const xs = Array.from({ length: ORDERS }, () => iso(xLo + Math.floor(random() * xDays)))
  const options = { calendar: Calendar.weekends, convention: "none" } as const
  ab.push({
    id,
    run: (c, r, f) => () => f(c, r, starts, xs, { calendar: c.Calendar.weekends, convention: "none" }),
    engine: w6Engine
  })
  pairs.push({
    id,
    title,
    rounds: 21,
    engine: () => w6Engine(core, Result, starts, xs, options),
    baseline: () => w6Loop(starts, xs)
  })
}

/** A start date drawn at random from 2000–2030. */
const startLo = civil(2000, 1, 1)
const startDays = civil(2031, 1, 1) - startLo
const anyStart = (random: () => number): string => iso(startLo + Math.floor(random() * startDays))

// W6: first MNTH execution strictly after X, from the bank's text (issue 27): distinct orders whose startDate is drawn
// at random from 2000–2030, each with its own X, so no cache of parsed texts or plans is what gets measured
w6Workload(
  "W6",
  "W6 first MNTH execution after X from text: 1,000,000 orders (start 2000–2030, X 2020–2030, weekends, none), parse + plan + parse + first on or after X + 1 + format",
  27,
  anyStart
)

// W6M: W6 with half the start dates on days 28 to the month's end (issue 33), as independent checks draw them: the
// month-end clamp on every second order
w6Workload(
  "W6M",
  "W6M as W6, half the start dates on days 28 to the month's end: 1,000,000 orders, parse + plan + parse + first on or after X + 1 + format",
  33,
  (random, i) => {
    if (i % 2 === 0) return anyStart(random)
    const year = 2000 + Math.floor(random() * 31)
    const month = 1 + Math.floor(random() * 12)
    const last = monthLength(year, month)
    return iso(civil(year, month, 28 + Math.floor(random() * (last - 27))))
  }
)

// ---------------------------------------------------------------------------
// run: in this process, then each workload in a fresh child
// ---------------------------------------------------------------------------

const selected = selectedBy("BENCH_BASELINE")
const chosen = pairs.filter((p) => selected(p.id))
const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1))

if (process.env["BENCH_BASELINE_CHILD"] === "1") {
  for (const pair of chosen) {
    const r = measure(pair)
    process.stdout.write(`${JSON.stringify(r)}\n`)
  }
} else {
  console.log(`\nengine against hand-written baselines: node ${process.version}, load average ${load(1)}`)
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
      `  this process:  engine ${fmt(r.engine)} ms, baseline ${fmt(r.baseline)} ms, ratio ${r.ratio.toFixed(2)}×, CPU ratio ${r.cpuRatio.toFixed(2)}×`
    )
    console.log(
      `  fresh process: engine ${fmt(child.engine)} ms, baseline ${fmt(child.baseline)} ms, ratio ${child.ratio.toFixed(2)}×, CPU ratio ${child.cpuRatio.toFixed(2)}× (first round ${child.firstRatio.toFixed(2)}×)`
    )
  }
  const beforeRoot = process.env["BENCH_BASELINE_BEFORE"]
  if (beforeRoot !== undefined) {
    // the same engine source against another checkout's core, alternating round by round in this process; each side
    // runs its own copy of the function (its own JIT feedback), as each checkout's own run would
    const before = (await import(`${beforeRoot}/packages/core/src/index.ts`)) as Core
    const beforeResult = (await import(`${beforeRoot}/node_modules/effect/dist/Result.js`)) as typeof Result
    const twin = (f: Function): Function => new Function(`return (${f.toString()})`)()
    for (const t of ab.filter((t) => chosen.some((p) => p.id === t.id))) {
      const rounds = pairs.find((p) => p.id === t.id)!.rounds
      const pair: Pair = {
        id: t.id,
        title: `${t.id} engine, this checkout ÷ ${beforeRoot}`,
        rounds,
        engine: t.run(core, Result, twin(t.engine)),
        baseline: t.run(before, beforeResult, twin(t.engine))
      }
      if (!same(pair.engine(), pair.baseline())) throw new Error(`${t.id}: the two checkouts disagree`)
      const r = measure(pair)
      console.log(`${pair.title}  (${rounds} rounds, medians)`)
      console.log(
        `  this checkout ${fmt(r.engine)} ms, before ${fmt(r.baseline)} ms, ratio ${r.ratio.toFixed(2)}×, CPU ratio ${r.cpuRatio.toFixed(2)}×`
      )
    }
  }
  console.log(`load average at the end ${load(1)}`)
}
