/**
 * Frequency-engine benchmark (issue 3): the engine of @tppkit/core against `rrule` and a plain `date-fns`
 * loop, in one process, implementations alternating round by round, medians and ratios printed. Every
 * implementation is first checked to yield the same ISO dates (or counts). Run with `pnpm bench`.
 *
 * Making rrule comparable: the engine's month-based rule "anchor day, or the month's last day when the month
 * is shorter" is BYMONTHDAY=28..day with BYSETPOS=-1 (the last of those days that exists in the month); a
 * 31st anchor is BYMONTHDAY=-1. rrule knows no business-day calendar, so compared runs use convention
 * `none` (W1, W3–W5: nominal dates) or the `weekends` calendar (W2, DAIL = BYDAY=MO..FR). Extra engine-only
 * lines show the cost of the TARGET2 calendar with `following`.
 */
import { Calendar, type Frequency, LocalDate, Occurrence } from "@tppkit/core"
import { addDays, addMonths, addWeeks, formatISO, isWeekend } from "date-fns"
import { Result } from "effect"
import rrulePkg from "rrule"
import { engineDates, type RandomOrder, randomOrders } from "./handwritten.ts"
import { load, median, mulberry32, selectedBy } from "./support.ts"

const { RRule, datetime } = rrulePkg
type RRuleOptions = ConstructorParameters<typeof RRule>[0]

const d = LocalDate.parseUnsafe
const iso = (x: Date): string => x.toISOString().slice(0, 10)
const fnsIso = (x: Date): string => formatISO(x, { representation: "date" })
const utc = (date: LocalDate.LocalDate): Date => {
  const p = LocalDate.toParts(date)
  return datetime(p.year, p.month, p.day)
}
const local = (date: LocalDate.LocalDate): Date => {
  const p = LocalDate.toParts(date)
  const x = new Date(p.year, p.month - 1, p.day)
  x.setFullYear(p.year)
  return x
}

/** date-fns' dates start + k·step for k = 0, 1, … up to `end`, each added to the start (no drift from clamping). */
const fnsSteps = (
  add: (date: Date, amount: number) => Date,
  start: LocalDate.LocalDate,
  end: LocalDate.LocalDate
): Array<string> => {
  const out: Array<string> = []
  const a = local(start)
  const last = local(end)
  for (let k = 0; ; k++) {
    const x = add(a, k)
    if (x > last) break
    out.push(fnsIso(x))
  }
  return out
}

const planOf = (
  order: Occurrence.OrderSchedule,
  options: Occurrence.Options = { convention: "none" }
): Occurrence.Plan => Result.getOrThrow(Occurrence.makePlan(order, options))

// ---------------------------------------------------------------------------
// harness
// ---------------------------------------------------------------------------

interface Impl {
  readonly name: string
  /** The work; returns what is compared between implementations. */
  readonly run: () => ReadonlyArray<string> | number
  /** Units of output per run (dates or queries), for the rate. */
  readonly units: number
  /** When the implementation runs only a sample: the factor to the full workload. */
  readonly scale?: number
}

/** Unmeasured rounds first, so that every implementation is compiled by the JIT before it is timed. */
const WARMUP_ROUNDS = 2

const fmtMs = (ms: number): string => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2))
const fmtRate = (perSecond: number): string =>
  perSecond >= 1e6 ? `${(perSecond / 1e6).toFixed(2)} M/s` : `${(perSecond / 1e3).toFixed(1)} k/s`

const workload = (
  title: string,
  rounds: number,
  impls: ReadonlyArray<Impl>,
  check: (outputs: ReadonlyArray<ReadonlyArray<string> | number>) => void
): void => {
  check(impls.map((i) => i.run()))
  const times = impls.map((): Array<number> => [])
  const cpuTimes = impls.map((): Array<number> => [])
  for (let r = -WARMUP_ROUNDS; r < rounds; r++) {
    for (let j = 0; j < impls.length; j++) {
      const i = (((j + r) % impls.length) + impls.length) % impls.length // alternate the order round by round
      const c0 = process.cpuUsage()
      const t0 = performance.now()
      impls[i]!.run()
      const wall = performance.now() - t0
      const cpu = process.cpuUsage(c0)
      if (r >= 0) {
        times[i]!.push(wall)
        cpuTimes[i]!.push((cpu.user + cpu.system) / 1000)
      }
    }
  }
  const base = median(times[0]!) * (impls[0]!.scale ?? 1)
  console.log(`\n${title}  (${rounds} rounds, medians)`)
  impls.forEach((impl, i) => {
    const m = median(times[i]!)
    const full = m * (impl.scale ?? 1)
    const ratio = i === 0 || impl.name.startsWith("engine") ? "" : `  engine ${(full / base).toFixed(0)}× faster`
    const sample = impl.scale === undefined ? "" : `  (sample 1/${impl.scale}, time scaled to the full workload)`
    // CPU time (all of the process's threads, GC included) is steadier than wall time on a shared machine
    const cpu = median(cpuTimes[i]!)
    const rates = `${fmtRate((impl.units / m) * 1000).padStart(12)} wall  ${fmtRate((impl.units / cpu) * 1000).padStart(12)} CPU`
    const line = `  ${impl.name.padEnd(34)} ${fmtMs(full).padStart(9)} ms  ${rates}${ratio}${sample}`
    console.log(line)
  })
}

const sameDates = (outputs: ReadonlyArray<ReadonlyArray<string> | number>): void => {
  const first = JSON.stringify(outputs[0])
  outputs.forEach((o, i) => {
    if (JSON.stringify(o) !== first) throw new Error(`implementation ${i} yields different dates`)
  })
}

/** Workload `id`'s order again on the TARGET calendar with convention following: the engine alone, its `n` dates. */
const targetFollowing = (id: string, order: Occurrence.OrderSchedule, n: number): void => {
  const target = planOf(order, { convention: "following" })
  workload(
    `${id}' the same with calendar target, convention following (engine only)`,
    15,
    [{ name: "engine (target, following)", units: n, run: () => engineDates(target) }],
    () => {}
  )
}

/** `BENCH_ENGINE=W1,W5` runs only those workloads (all by default). */
const selected = selectedBy("BENCH_ENGINE")

console.log(`frequency engine benchmark: node ${process.version}, load average ${load(1)} (1/5/15 min)`)

// ---------------------------------------------------------------------------
// W0 baseline: how fast this machine formats day numbers right now (a ceiling for the rest)
// ---------------------------------------------------------------------------

if (selected("W0"))
  workload(
    "W0 baseline: 1,000,000 consecutive days to ISO text",
    9,
    [
      {
        name: "LocalDate.format loop",
        units: 1_000_000,
        run: () => {
          const out: Array<string> = []
          for (let x = 10_957; x < 1_010_957; x++) out.push(LocalDate.format(x as LocalDate.LocalDate))
          return out.length
        }
      }
    ],
    () => {}
  )

// ---------------------------------------------------------------------------
// W1 MNTH from the 31st for 1,000 years
// ---------------------------------------------------------------------------

if (selected("W1")) {
  const start = d("2000-01-31")
  const end = d("2999-12-31")
  const n = 12_000
  const order = { frequency: "MNTH", startDate: start, endDate: end } as const
  const plan = planOf(order)
  workload(
    "W1 MNTH from 2000-01-31 for 1,000 years (12,000 dates)",
    15,
    [
      { name: "engine (convention none)", units: n, run: () => engineDates(plan) },
      {
        name: "rrule (BYMONTHDAY=-1)",
        units: n,
        run: () =>
          new RRule({ freq: RRule.MONTHLY, dtstart: utc(start), until: utc(end), bymonthday: -1 }).all().map(iso)
      },
      {
        name: "date-fns addMonths loop",
        units: n,
        run: () => fnsSteps(addMonths, start, end)
      }
    ],
    sameDates
  )
  targetFollowing("W1", order, n)
}

// ---------------------------------------------------------------------------
// W2 DAIL, weekends only, for 100 years
// ---------------------------------------------------------------------------

if (selected("W2")) {
  const start = d("2000-01-01")
  const end = d("2099-12-31")
  const plan = planOf({ frequency: "DAIL", startDate: start, endDate: end }, { calendar: Calendar.weekends })
  const n = engineDates(plan).length
  workload(
    `W2 DAIL (weekends calendar) 2000–2099 (${n.toLocaleString("en")} dates)`,
    15,
    [
      { name: "engine (calendar weekends)", units: n, run: () => engineDates(plan) },
      {
        name: "rrule (DAILY;BYDAY=MO..FR)",
        units: n,
        run: () =>
          new RRule({
            freq: RRule.DAILY,
            dtstart: utc(start),
            until: utc(end),
            byweekday: [RRule.MO, RRule.TU, RRule.WE, RRule.TH, RRule.FR]
          })
            .all()
            .map(iso)
      },
      {
        name: "date-fns addDays loop",
        units: n,
        run: () => {
          const out: Array<string> = []
          const last = local(end)
          for (let x = local(start); x <= last; x = addDays(x, 1)) if (!isWeekend(x)) out.push(fnsIso(x))
          return out
        }
      }
    ],
    sameDates
  )
}

// ---------------------------------------------------------------------------
// W3 WEEK for 1,000 years
// ---------------------------------------------------------------------------

if (selected("W3")) {
  const start = d("2000-01-08") // a Saturday
  const end = d("2999-12-31")
  const order = { frequency: "WEEK", startDate: start, endDate: end } as const
  const plan = planOf(order)
  const n = engineDates(plan).length
  workload(
    `W3 WEEK from 2000-01-08 for 1,000 years (${n.toLocaleString("en")} dates)`,
    15,
    [
      { name: "engine (convention none)", units: n, run: () => engineDates(plan) },
      {
        name: "rrule (WEEKLY)",
        units: n,
        run: () => new RRule({ freq: RRule.WEEKLY, dtstart: utc(start), until: utc(end) }).all().map(iso)
      },
      {
        name: "date-fns addWeeks loop",
        units: n,
        run: () => fnsSteps(addWeeks, start, end)
      }
    ],
    sameDates
  )
  targetFollowing("W3", order, n)
}

// ---------------------------------------------------------------------------
// W4 100,000 random orders projected over one year, counting occurrences
// ---------------------------------------------------------------------------

/** The rrule equivalent of an order's nominal dates (see the header for the month-end translation). */
const rruleOf = (o: RandomOrder) => {
  const p = LocalDate.toParts(o.startDate)
  const dtstart = utc(o.startDate)
  const step = o.frequency === "MNTH" ? 1 : o.frequency === "QUTR" ? 3 : o.frequency === "SEMI" ? 6 : 12
  const options: Partial<RRuleOptions> =
    o.frequency === "DAI7"
      ? { freq: RRule.DAILY, dtstart }
      : o.frequency === "WEEK"
        ? { freq: RRule.WEEKLY, dtstart }
        : p.day <= 28
          ? { freq: RRule.MONTHLY, interval: step, dtstart, bymonthday: p.day }
          : {
              freq: RRule.MONTHLY,
              interval: step,
              dtstart,
              bymonthday: Array.from({ length: p.day - 27 }, (_, i) => 28 + i),
              bysetpos: -1
            }
  return new RRule(options)
}

/** Nominal dates of an order by a plain date-fns loop from the anchor, counted within a window. */
const fnsCount = (o: RandomOrder, from: Date, to: Date): number => {
  const a = local(o.startDate)
  let n = 0
  for (let k = 0; ; k++) {
    const x =
      o.frequency === "DAI7"
        ? addDays(a, k)
        : o.frequency === "WEEK"
          ? addWeeks(a, k)
          : addMonths(
              a,
              k * (o.frequency === "MNTH" ? 1 : o.frequency === "QUTR" ? 3 : o.frequency === "SEMI" ? 6 : 12)
            )
    if (x > to) return n
    if (x >= from) n++
  }
}

if (selected("W4")) {
  const codes: ReadonlyArray<Frequency.Frequency> = ["DAI7", "WEEK", "MNTH", "QUTR", "SEMI", "YEAR"]
  const orders = randomOrders(100_000, 20_261_121, codes)
  const from = d("2026-01-01")
  const to = d("2026-12-31")
  const RRULE_SAMPLE = 500
  const FNS_SAMPLE = 50
  const rrSample = orders.filter((_, i) => i % RRULE_SAMPLE === 0)
  const fnsSample = orders.filter((_, i) => i % FNS_SAMPLE === 0)
  const engineCounts = (os: ReadonlyArray<RandomOrder>): Array<number> =>
    os.map((o) => Occurrence.count(planOf(o), from, to))
  const rrCounts = (os: ReadonlyArray<RandomOrder>): Array<number> =>
    os.map((o) => rruleOf(o).between(utc(from), utc(to), true).length)
  const fnsCounts = (os: ReadonlyArray<RandomOrder>): Array<number> =>
    os.map((o) => fnsCount(o, local(from), local(to)))
  // same counts everywhere; the engine's count equals the occurrences it materialises
  const all = engineCounts(orders)
  orders.forEach((o, i) => {
    if (Occurrence.between(planOf(o), from, to).length !== all[i]) throw new Error("W4: count ≠ between")
  })
  sameDates([rrSample.map((o) => all[orders.indexOf(o)]!), rrCounts(rrSample)].map((x) => x.map(String)))
  sameDates([fnsSample.map((o) => all[orders.indexOf(o)]!), fnsCounts(fnsSample)].map((x) => x.map(String)))
  const total = all.reduce((a, b) => a + b, 0)
  const sum = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0)
  workload(
    `W4 100,000 random orders over 2026 (${total.toLocaleString("en")} occurrences counted)`,
    7,
    [
      { name: "engine makePlan + count", units: orders.length, run: () => sum(engineCounts(orders)) },
      {
        name: "engine makePlan + between",
        units: orders.length,
        run: () => sum(orders.map((o) => Occurrence.between(planOf(o), from, to).length))
      },
      { name: "rrule between", units: rrSample.length, scale: RRULE_SAMPLE, run: () => sum(rrCounts(rrSample)) },
      {
        name: "date-fns loop from the anchor",
        units: fnsSample.length,
        scale: FNS_SAMPLE,
        run: () => sum(fnsCounts(fnsSample))
      }
    ],
    () => {}
  )
}

// ---------------------------------------------------------------------------
// W5 1,000,000 first-occurrence-on-or-after queries on MNTH orders
// ---------------------------------------------------------------------------

if (selected("W5")) {
  const orders = randomOrders(1_000, 5, ["MNTH"])
  const plans = orders.map((o) => planOf(o))
  const targetPlans = orders.map((o) => planOf(o, { convention: "following" }))
  const random = mulberry32(77)
  const lo = d("2000-01-01")
  const QUERIES = 1_000_000
  const queries = Int32Array.from({ length: QUERIES }, () => lo + Math.floor(random() * 365.25 * 40))
  // every implementation writes into a results array sized up front (the number of answers is known), so that
  // growing the array is not part of anyone's time
  const results = (step: number): Array<string> => new Array<string>(Math.ceil(QUERIES / step))
  // the allocation-free query: only the execution date, as a day number
  const engine = (ps: ReadonlyArray<Occurrence.Plan>, step: number) => (): Array<string> => {
    const out = results(step)
    for (let i = 0, j = 0, n = 0; i < QUERIES; i += step) {
      const e = Occurrence.firstExecutionOnOrAfter(ps[j]!, queries[i]! as LocalDate.LocalDate)
      out[n++] = e === undefined ? "" : LocalDate.format(e)
      j += step // the order index, i mod 1000, without a division per query
      if (j >= 1000) j -= 1000
    }
    return out
  }
  // the same through the query that builds an `Occurrence` object per answer
  const engineObjects = (ps: ReadonlyArray<Occurrence.Plan>, step: number) => (): Array<string> => {
    const out = results(step)
    for (let i = 0, j = 0, n = 0; i < QUERIES; i += step) {
      const o = Occurrence.firstOnOrAfter(ps[j]!, queries[i]! as LocalDate.LocalDate)
      out[n++] = o === undefined ? "" : LocalDate.format(o.execution)
      j += step
      if (j >= 1000) j -= 1000
    }
    return out
  }
  const rules = orders.map(rruleOf)
  const RRULE_SAMPLE = 500
  const FNS_SAMPLE = 50
  const rr = (): Array<string> => {
    const out = results(RRULE_SAMPLE)
    for (let i = 0, n = 0; i < QUERIES; i += RRULE_SAMPLE) {
      const x = rules[i % 1000]!.after(utc(queries[i]! as LocalDate.LocalDate), true)
      out[n++] = x === null ? "" : iso(x)
    }
    return out
  }
  const anchors = orders.map((o) => local(o.startDate))
  const fns = (step: number) => (): Array<string> => {
    const out = results(step)
    for (let i = 0, n = 0; i < QUERIES; i += step) {
      const a = anchors[i % 1000]!
      const q = local(queries[i]! as LocalDate.LocalDate)
      let k = 0
      let x = a
      while (x < q) x = addMonths(a, ++k)
      out[n++] = fnsIso(x)
    }
    return out
  }
  sameDates([engine(plans, RRULE_SAMPLE)(), rr()])
  sameDates([engine(plans, FNS_SAMPLE)(), fns(FNS_SAMPLE)()])
  sameDates([engine(plans, 1)(), engineObjects(plans, 1)()])
  sameDates([engine(targetPlans, 1)(), engineObjects(targetPlans, 1)()])
  workload(
    "W5 1,000,000 firstOnOrAfter queries on 1,000 MNTH orders",
    7,
    [
      { name: "engine (convention none)", units: QUERIES, run: engine(plans, 1) },
      { name: "engine, Occurrence objects", units: QUERIES, run: engineObjects(plans, 1) },
      { name: "rrule after(d, inclusive)", units: QUERIES / RRULE_SAMPLE, scale: RRULE_SAMPLE, run: rr },
      { name: "date-fns addMonths loop", units: QUERIES / FNS_SAMPLE, scale: FNS_SAMPLE, run: fns(FNS_SAMPLE) }
    ],
    () => {}
  )
  workload(
    "W5' the same with calendar target, convention following (engine only)",
    7,
    [
      { name: "engine (target, following)", units: QUERIES, run: engine(targetPlans, 1) },
      { name: "engine, Occurrence objects", units: QUERIES, run: engineObjects(targetPlans, 1) }
    ],
    () => {}
  )
}

console.log(`\nload average at the end ${load(1)}`)
