/**
 * The engine on the recurrence shapes the bank's codes cannot say (issue 22), against a hand-written loop for each
 * shape: every 2 weeks on Tuesday and Thursday, the second Wednesday of the month, the month's last day (ultimo,
 * counted from the end), and day 31 clamped in selected months (March, June, September, December), each from 2000
 * for 1,000 years as ISO dates; and "first date on or after X" for 100,000 recurrences started 1990–2030 (a seek
 * that must not replay). Engine and loop alternate round by round in one process; ratio = engine median ÷ loop
 * median (target ≤ 1.5), by wall time and by CPU time.
 *
 * Run alone: `pnpm exec node --conditions=@tppkit/source bench/recurrence.ts` (`BENCH_RECURRENCE=R1,R5` selects);
 * also run by `pnpm bench`.
 */
import { Calendar, LocalDate, Occurrence, type Recurrence } from "@tppkit/core"
import { Result } from "effect"
import { civil, datesPair, iso, measure, monthLength, type Pair, packed, same } from "./handwritten.ts"
import { load, selectedBy } from "./support.ts"

const d = LocalDate.parseUnsafe
const plan = (r: Recurrence.Recurrence): Occurrence.Plan =>
  Result.getOrThrow(Occurrence.planOf(r, { calendar: Calendar.weekends }))
const FROM = d("2000-01-01")
const TO = d("2999-12-31")
/** The plan of a rule's nominal dates (convention none) from 2000 to 2999. */
const millennium = (rule: Recurrence.Rule): Occurrence.Plan => plan({ rule, start: FROM, end: TO, convention: "none" })
const pairs: Array<Pair> = []

// R1: every 2 weeks on Tuesday and Thursday
pairs.push(
  datesPair(
    "R1",
    "R1 every 2 weeks on Tuesday and Thursday, 2000–2999, ISO dates",
    millennium({ _tag: "Weekly", interval: 2, weekdays: [2, 4] }),
    () => {
      const out: Array<string> = []
      const last = civil(2999, 12, 31)
      // 2000-01-01 is a Saturday: its week's Monday is 1999-12-27
      for (let monday = civil(1999, 12, 27); monday <= last; monday += 14) {
        for (const offset of [1, 3]) {
          const z = monday + offset
          if (z >= FROM && z <= last) out.push(iso(z))
        }
      }
      return out
    }
  )
)

// R2: the second Wednesday of every month
pairs.push(
  datesPair(
    "R2",
    "R2 the second Wednesday of every month, 2000–2999, ISO dates",
    millennium({ _tag: "MonthlyOnWeekday", interval: 1, weekday: 3, ordinal: 2 }),
    () => {
      const out: Array<string> = []
      for (let y = 2000; y <= 2999; y++) {
        for (let m = 1; m <= 12; m++) {
          const first = civil(y, m, 1)
          const dow = (((first + 3) % 7) + 7) % 7 // 0 = Monday
          out.push(iso(first + ((2 - dow + 7) % 7) + 7))
        }
      }
      return out
    }
  )
)

// R3: ultimo, the month's last day counted from the end
pairs.push(
  datesPair(
    "R3",
    "R3 the last day of every month (day -1), 2000–2999, ISO dates",
    millennium({ _tag: "MonthlyOnDay", interval: 1, day: -1, missing: "clamp" }),
    () => {
      const out: Array<string> = []
      for (let y = 2000; y <= 2999; y++) for (let m = 1; m <= 12; m++) out.push(iso(civil(y, m, monthLength(y, m))))
      return out
    }
  )
)

// R4: day 31 clamped in March, June, September and December
pairs.push(
  datesPair(
    "R4",
    "R4 day 31 clamped in March, June, September, December, 2000–2999, ISO dates",
    millennium({ _tag: "MonthlyOnDay", interval: 1, day: 31, missing: "clamp", months: [3, 6, 9, 12] }),
    () => {
      const out: Array<string> = []
      for (let y = 2000; y <= 2999; y++) {
        for (const m of [3, 6, 9, 12]) out.push(iso(civil(y, m, Math.min(31, monthLength(y, m)))))
      }
      return out
    }
  )
)

// R5: first second-Wednesday on or after X for 100,000 recurrences started 1990–2030, X in 2030: a seek, no replay
{
  let seed = 22
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
    return seed / 2_147_483_648
  }
  const lo = civil(1990, 1, 1)
  const starts = Array.from({ length: 100_000 }, () => lo + Math.floor(random() * 14_975))
  const xs = Array.from({ length: 100_000 }, () => civil(2030, 1, 1) + Math.floor(random() * 365))
  pairs.push({
    id: "R5",
    title: "R5 first second-Wednesday on or after X (2030) for 100,000 recurrences started 1990–2030: plan + seek",
    rounds: 15,
    engine: () => {
      let sum = 0
      for (let i = 0; i < starts.length; i++) {
        const p = plan({
          rule: { _tag: "MonthlyOnWeekday", interval: 1, weekday: 3, ordinal: 2 },
          start: starts[i]! as LocalDate.LocalDate,
          convention: "none"
        })
        sum += Occurrence.firstExecutionOnOrAfter(p, xs[i]! as LocalDate.LocalDate) ?? 0
      }
      return sum
    },
    baseline: () => {
      let sum = 0
      for (let i = 0; i < starts.length; i++) {
        const x = Math.max(xs[i]!, starts[i]!)
        const p = packed(x)
        let y = Math.floor(p / 10_000)
        let m = Math.floor((p - y * 10_000) / 100)
        for (;;) {
          const first = civil(y, m, 1)
          const z = first + ((2 - ((((first + 3) % 7) + 7) % 7) + 7) % 7) + 7
          if (z >= x) {
            sum += z
            break
          }
          if (++m > 12) {
            m = 1
            y++
          }
        }
      }
      return sum
    }
  })
}

const selected = selectedBy("BENCH_RECURRENCE")
console.log(`\nrecurrence shapes against hand-written loops: node ${process.version}, load average ${load(1)}`)
for (const pair of pairs.filter((p) => selected(p.id))) {
  if (!same(pair.engine(), pair.baseline())) throw new Error(`${pair.id}: engine and loop disagree`)
  const r = measure(pair)
  console.log(`${pair.title}  (${pair.rounds} rounds, medians)`)
  console.log(
    `  engine ${r.engine.toFixed(1)} ms, loop ${r.baseline.toFixed(1)} ms, ratio ${r.ratio.toFixed(2)}×, CPU ratio ${r.cpuRatio.toFixed(2)}×`
  )
}
console.log(`load average at the end ${load(1)}`)
