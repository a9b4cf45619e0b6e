/**
 * fast-check generators for recurrences (every rule, missing-day rules, selected months, end, count, pauses) and a
 * brute-force reference of what a recurrence means, day by day and month by month from its definition: it shares
 * nothing with the engine but LocalDate's parts.
 */
import { type BusinessDayConvention, type Calendar, LocalDate, Recurrence } from "@tppkit/core"
import { Schema } from "effect"
import fc from "fast-check"
import { convention, date, refAdjust, refWorking } from "./engine.ts"

const sortedSubset = (max: number, values: ReadonlyArray<number>) =>
  fc
    .subarray([...values], { minLength: 1, maxLength: max })
    .map((xs) => [...xs].sort((a, b) => a - b) as unknown as readonly [number, ...Array<number>])

const months = sortedSubset(12, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
const missing = fc.constantFrom<Recurrence.MissingDay>("clamp", "skip", "forward")

/** Any rule, with the day ends (29–31, −1) and fifth weekdays drawn often. */
export const rule: fc.Arbitrary<Recurrence.Rule> = fc
  .oneof(
    fc.record({ _tag: fc.constant("EveryDays" as const), interval: fc.integer({ min: 1, max: 40 }) }),
    fc.record({ _tag: fc.constant("EveryWorkingDays" as const), interval: fc.integer({ min: 1, max: 10 }) }),
    fc.record({
      _tag: fc.constant("Weekly" as const),
      interval: fc.integer({ min: 1, max: 5 }),
      weekdays: sortedSubset(7, [1, 2, 3, 4, 5, 6, 7])
    }),
    fc.record(
      {
        _tag: fc.constant("MonthlyOnDay" as const),
        interval: fc.oneof(fc.constantFrom(1, 2, 3, 6, 12), fc.integer({ min: 1, max: 25 })),
        day: fc.oneof(
          fc.integer({ min: 28, max: 31 }),
          fc.integer({ min: 1, max: 31 }),
          fc.integer({ min: -28, max: -1 })
        ),
        missing,
        months
      },
      { requiredKeys: ["_tag", "interval", "day", "missing"] }
    ),
    fc.record(
      {
        _tag: fc.constant("MonthlyOnWeekday" as const),
        interval: fc.integer({ min: 1, max: 13 }),
        weekday: fc.integer({ min: 1, max: 7 }),
        ordinal: fc.constantFrom(1, 2, 3, 4, 5, -1, -2, -3, -4, -5),
        months
      },
      { requiredKeys: ["_tag", "interval", "weekday", "ordinal"] }
    ),
    fc.record({
      _tag: fc.constant("Yearly" as const),
      interval: fc.integer({ min: 1, max: 4 }),
      dates: fc
        .uniqueArray(
          fc.oneof(
            fc.constant({ month: 2, day: 29 }),
            fc
              .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
              .map(([month, day]) => ({ month, day: Math.min(day, LocalDate.daysInMonth(2000, month)) }))
          ),
          { minLength: 1, maxLength: 4, selector: (x) => x.month * 100 + x.day }
        )
        .map((xs) => [...xs].sort((a, b) => a.month - b.month || a.day - b.day) as never),
      missing
    })
  )
  .filter((r) => Schema.is(Recurrence.Rule)(r))

/** A recurrence from 1990–2040 with optional end (up to about 8 years on), count and pauses; no calendar name. */
export const recurrence: fc.Arbitrary<Recurrence.Recurrence> = fc
  .record(
    {
      rule,
      start: date(),
      endOffset: fc.integer({ min: -40, max: 3000 }),
      count: fc.integer({ min: 1, max: 120 }),
      convention,
      pauses: fc.record({
        ranges: fc.array(
          fc.tuple(date(), fc.integer({ min: 0, max: 400 })).map(([from, n]) => ({
            from,
            to: (from + n) as LocalDate.LocalDate
          })),
          { maxLength: 2 }
        ),
        months: fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { maxLength: 2 })
      })
    },
    { requiredKeys: ["rule", "start", "convention"] }
  )
  .map((x) => ({
    rule: x.rule,
    start: x.start,
    ...(x.endOffset === undefined ? {} : { end: (x.start + x.endOffset) as LocalDate.LocalDate }),
    ...(x.count === undefined ? {} : { count: x.count }),
    convention: x.convention,
    ...(x.pauses === undefined ? {} : { pauses: x.pauses })
  }))

// ---------------------------------------------------------------------------
// brute-force reference
// ---------------------------------------------------------------------------

const isoDow = (x: number): number => LocalDate.dayOfWeek(x as LocalDate.LocalDate)
const make = (y: number, m: number, day: number): number => LocalDate.makeUnsafe(y, m, day)

/** The day of month `day` (or a weekday of the month) of year y, month m by the rule's definition, or undefined. */
const monthDate = (
  y: number,
  m: number,
  spec: { readonly day?: number; readonly weekday?: number; readonly ordinal?: number },
  miss: Recurrence.MissingDay
): number | undefined => {
  const dim = LocalDate.daysInMonth(y, m)
  if (spec.day !== undefined && spec.day > 0) {
    if (spec.day <= dim) return make(y, m, spec.day)
    return miss === "clamp" ? make(y, m, dim) : miss === "forward" ? make(y, m, dim) + 1 : undefined
  }
  if (spec.day !== undefined) return make(y, m, dim + spec.day + 1)
  const days: Array<number> = []
  for (let day = 1; day <= dim; day++) if (isoDow(make(y, m, day)) === spec.weekday) days.push(make(y, m, day))
  const o = spec.ordinal!
  return o > 0 ? days[o - 1] : days[days.length + o]
}

/** The rule's nominal dates from `start` up to `until`, in order, by its definition. */
export const refNominals = (r: Recurrence.Recurrence, cal: Calendar.Calendar, until: number): Array<number> => {
  const out: Array<number> = []
  const rule = r.rule
  const start: number = r.start
  const sp = LocalDate.toParts(r.start)
  switch (rule._tag) {
    case "EveryDays":
      for (let x = start; x <= until; x += rule.interval) out.push(x)
      break
    case "EveryWorkingDays": {
      let i = 0
      for (let x = start; x <= until; x++) {
        if (refWorking(cal, x)) {
          if (i % rule.interval === 0) out.push(x)
          i++
        }
      }
      break
    }
    case "Weekly": {
      const week0 = start - isoDow(start) + 1
      for (let x = start; x <= until; x++) {
        const week = (x - isoDow(x) + 1 - week0) / 7
        if (week % rule.interval === 0 && rule.weekdays.includes(isoDow(x))) out.push(x)
      }
      break
    }
    case "MonthlyOnDay":
    case "MonthlyOnWeekday": {
      const miss = rule._tag === "MonthlyOnDay" ? rule.missing : "skip"
      for (let i = 0; ; i += rule.interval) {
        const index = sp.year * 12 + sp.month - 1 + i
        const y = Math.floor(index / 12)
        const m = index - y * 12 + 1
        if (y > 9999 || make(y, m, 1) > until) break
        if (rule.months !== undefined && !rule.months.includes(m)) continue
        const x = monthDate(y, m, rule, miss)
        if (x !== undefined && x >= start && x <= until) out.push(x)
      }
      break
    }
    case "Yearly":
      for (let y = sp.year; y <= 9999 && make(y, 1, 1) <= until; y += rule.interval) {
        for (const date of rule.dates) {
          const x = monthDate(y, date.month, { day: date.day }, rule.missing)
          if (x !== undefined && x >= start && x <= until) out.push(x)
        }
      }
      break
  }
  return out
}

/** Reference occurrences (k, nominal, execution) with nominal dates up to `until`, pauses left out. */
export const refRecurrence = (
  r: Recurrence.Recurrence,
  cal: Calendar.Calendar,
  until: number
): Array<{ k: number; nominal: number; execution: number }> => {
  const conv: BusinessDayConvention.BusinessDayConvention = r.rule._tag === "EveryWorkingDays" ? "none" : r.convention
  const months = new Set(r.pauses?.months ?? [])
  const paused = (x: number) =>
    months.has(LocalDate.month(x as LocalDate.LocalDate)) ||
    (r.pauses?.ranges ?? []).some((p) => x >= p.from && x <= p.to)
  const out: Array<{ k: number; nominal: number; execution: number }> = []
  refNominals(r, cal, Math.min(until, r.end ?? LocalDate.MAX)).forEach((nominal, k) => {
    if (r.count !== undefined && k >= r.count) return
    const execution = refAdjust(nominal, conv, cal)
    if (execution !== undefined && !paused(nominal)) out.push({ k, nominal, execution })
  })
  return out
}
