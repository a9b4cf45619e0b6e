/**
 * fast-check generators for the frequency engine: bounded dates (so that brute-force references stay fast),
 * frequencies, conventions, calendars (weekends, target, and either with a few extra holidays) and
 * schedules with or without an end date. Also a brute-force reference of the spec's rules.
 */
import { BusinessDayConvention, Calendar, Frequency, LocalDate } from "@tppkit/core"
import fc from "fast-check"

const d = LocalDate.parseUnsafe

/** A date from 1990-01-01 to 2040-12-31, with month ends (days 28–31) drawn often. */
export const date = (
  min: LocalDate.LocalDate = d("1990-01-01"),
  max: LocalDate.LocalDate = d("2040-12-31")
): fc.Arbitrary<LocalDate.LocalDate> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min, max }).map((n) => n as LocalDate.LocalDate) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.integer({ min: LocalDate.year(min), max: LocalDate.year(max) }),
          fc.integer({ min: 1, max: 12 }),
          fc.integer({ min: 28, max: 31 })
        )
        .map(([y, m, day]) => LocalDate.ofMonthClamped(y, m, day))
        .filter((x) => x >= min && x <= max)
    }
  )

/** Any frequency code. */
export const frequency: fc.Arbitrary<Frequency.Frequency> = fc.constantFrom(...Frequency.codes)

/** A frequency code the convention applies to (WEEK and the month-based codes). */
export const adjustedFrequency: fc.Arbitrary<Frequency.Frequency> = fc.constantFrom(
  "WEEK",
  "MNTH",
  "QUTR",
  "SEMI",
  "YEAR"
)

/** A month-based frequency code. */
export const monthFrequency: fc.Arbitrary<Frequency.Frequency> = fc.constantFrom("MNTH", "QUTR", "SEMI", "YEAR")

/** Any business-day convention. */
export const convention: fc.Arbitrary<BusinessDayConvention.BusinessDayConvention> = fc.constantFrom(
  ...BusinessDayConvention.conventions
)

/**
 * `weekends`, `target`, `everyDay` (weekends open), or any of them with up to 12 extra holidays in 1990–2045 (on
 * `everyDay`, the only closed days).
 */
export const calendar: fc.Arbitrary<Calendar.Calendar> = fc.oneof(
  fc.constant(Calendar.weekends),
  fc.constant(Calendar.target),
  fc.constant(Calendar.everyDay),
  fc
    .tuple(
      fc.constantFrom(Calendar.weekends, Calendar.target, Calendar.everyDay),
      fc.array(date(d("1990-01-01"), d("2045-12-31")), { maxLength: 12 })
    )
    .map(([base, extra]) => Calendar.withHolidays(base, extra))
)

/** The schedule fields of an order: frequency, start 1990–2040, optionally an end up to about 15 years later. */
export const schedule: fc.Arbitrary<{
  readonly frequency: Frequency.Frequency
  readonly startDate: LocalDate.LocalDate
  readonly endDate?: LocalDate.LocalDate
}> = fc
  .tuple(frequency, date(), fc.option(fc.integer({ min: -40, max: 5500 }), { nil: undefined }))
  .map(([f, start, endOffset]) =>
    endOffset === undefined
      ? { frequency: f, startDate: start }
      : { frequency: f, startDate: start, endDate: (start + endOffset) as LocalDate.LocalDate }
  )

// ---------------------------------------------------------------------------
// brute-force reference of the spec (day-by-day, parts-based; shares nothing with the engine but LocalDate)
// ---------------------------------------------------------------------------

/** Whether a date is a working day, by the spec's definition (weekends closed unless the calendar opens them). */
export const refWorking = (cal: Calendar.Calendar, x: number): boolean =>
  (cal.weekendsOpen === true || !LocalDate.isWeekend(x as LocalDate.LocalDate)) &&
  !cal.isHoliday(x as LocalDate.LocalDate)

const monthOf = (x: number): string => LocalDate.format(x as LocalDate.LocalDate).slice(0, 7)

/** The spec's convention table, day by day (undefined outside 0001–9999). */
export const refAdjust = (
  x: number,
  conv: BusinessDayConvention.BusinessDayConvention,
  cal: Calendar.Calendar
): number | undefined => {
  const fwd = (): number | undefined => {
    for (let y = x; y <= LocalDate.MAX; y++) if (refWorking(cal, y)) return y
    return undefined
  }
  const back = (): number | undefined => {
    for (let y = x; y >= LocalDate.MIN; y--) if (refWorking(cal, y)) return y
    return undefined
  }
  switch (conv) {
    case "none":
      return x
    case "following":
      return fwd()
    case "preceding":
      return back()
    case "modified-following": {
      const f = fwd()
      return f !== undefined && monthOf(f) === monthOf(x) ? f : back()
    }
    case "modified-preceding": {
      const p = back()
      return p !== undefined && monthOf(p) === monthOf(x) ? p : fwd()
    }
  }
}

/** Reference occurrences (k, nominal, execution) with nominal dates up to `until`, straight from the spec. */
export const refOccurrences = (
  order: { readonly frequency: Frequency.Frequency; readonly startDate: number; readonly endDate?: number | undefined },
  cal: Calendar.Calendar,
  conv: BusinessDayConvention.BusinessDayConvention,
  until: number
): Array<{ k: number; nominal: number; execution: number }> => {
  const out: Array<{ k: number; nominal: number; execution: number }> = []
  const last = Math.min(until, order.endDate ?? LocalDate.MAX, LocalDate.MAX)
  const anchor = order.startDate as LocalDate.LocalDate
  if (order.frequency === "DAIL") {
    let k = 0
    for (let x = anchor as number; x <= last; x++) {
      if (refWorking(cal, x)) out.push({ k: k++, nominal: x, execution: x })
    }
    return out
  }
  const step = Frequency.monthStep(order.frequency)
  for (let k = 0; ; k++) {
    let nominal: number
    if (step === undefined) nominal = anchor + (order.frequency === "DAI7" ? k : 7 * k)
    else {
      const p = LocalDate.toParts(anchor)
      const index = p.year * 12 + p.month - 1 + step * k
      const y = Math.floor(index / 12)
      if (y > 9999) break
      nominal = LocalDate.ofMonthClamped(y, index - y * 12 + 1, p.day)
    }
    if (nominal > last) break
    const execution = Frequency.usesConvention(order.frequency) ? refAdjust(nominal, conv, cal) : nominal
    if (execution === undefined) {
      if (nominal > LocalDate.MIN + 366) break
      continue
    }
    out.push({ k, nominal, execution })
  }
  return out
}
