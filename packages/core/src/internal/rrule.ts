/** The engine of `Rrule` and the types it works on (its public module re-exports them and documents the functions). */
import { Result } from "effect"
import * as Calendar from "../Calendar.ts"
import * as LocalDate from "../LocalDate.ts"
import * as Occurrence from "../Occurrence.ts"
import * as Recurrence from "../Recurrence.ts"
import * as Translation from "../Translation.ts"

/**
 * A recurrence rule with its first date: `DTSTART` (a date), the `RRULE` value (`FREQ=…;…`, no `RRULE:`) and the
 * rule's dates that are not paid (`EXDATE`: a recurrence's paused occurrences), ascending.
 */
export interface Rrule {
  readonly dtstart: LocalDate.LocalDate
  readonly rule: string
  readonly exdates?: ReadonlyArray<LocalDate.LocalDate> | undefined
  /**
   * Dates paid besides the rule's (`RDATE`, RFC 5545 "Recurrence Date/Times"), ascending; an `EXDATE` excludes them
   * too. `decode` reads the rule alone: `Orders` pays each as a payment of its own.
   */
  readonly rdates?: ReadonlyArray<LocalDate.LocalDate> | undefined
  /**
   * The dates are never moved off a non-working day, whatever the reader's convention (`X-TPPKIT-NEVER-MOVED:TRUE`, a
   * property of tppkit's own as RFC 5545 allows): the bank's every calendar day (DAI7) written as `FREQ=DAILY`. An
   * RRULE without it leaves the convention to its reader.
   */
  readonly neverMoved?: boolean | undefined
}

/** The most `EXDATE`s {@link encode} writes: past it the pauses are reported lost. */
export const MAX_EXDATES = 1_000

export const DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const

/** `YYYYMMDD` of a date (RFC 5545 DATE). */
export const formatDate = (d: LocalDate.LocalDate): string => LocalDate.format(d).replaceAll("-", "")

/**
 * The content lines of a rule: `DTSTART;VALUE=DATE:…`, `RRULE:…` and, when some of its dates are not paid,
 * `EXDATE;VALUE=DATE:…,…`, joined by line feeds.
 */
export const format = (r: Rrule): string =>
  `DTSTART;VALUE=DATE:${formatDate(r.dtstart)}\nRRULE:${r.rule}${
    r.rdates === undefined || r.rdates.length === 0 ? "" : `\nRDATE;VALUE=DATE:${r.rdates.map(formatDate).join(",")}`
  }${r.exdates === undefined || r.exdates.length === 0 ? "" : `\nEXDATE;VALUE=DATE:${r.exdates.map(formatDate).join(",")}`}${
    r.neverMoved === true ? `\n${NEVER_MOVED}:TRUE` : ""
  }`

/** tppkit's property for dates that are never moved (RFC 5545 "Non-Standard Properties": an X- name). */
export const NEVER_MOVED = "X-TPPKIT-NEVER-MOVED"

/** A DATE or DATE-TIME value read as its date, with the time part when there was one. */
export const readDate = (text: string): { readonly date: LocalDate.LocalDate; readonly time: string } | undefined => {
  const m = /^(\d{4})(\d{2})(\d{2})(T\d{6}Z?)?$/.exec(text.trim())
  if (m === null) return undefined
  const r = LocalDate.make(Number(m[1]), Number(m[2]), Number(m[3]))
  return Result.isSuccess(r) ? { date: r.success, time: m[4] ?? "" } : undefined
}

/**
 * The rule of a text: either content lines (`DTSTART…:`, `RRULE:…` and any `EXDATE…:` and `RDATE…:` lines, in any
 * order; any other line is not read, and is a loss naming its property) or a bare `FREQ=…` value whose first date is `dtstart`. Fails with the reason when the text holds no
 * rule or no first date, or an `EXDATE` that is not a list of dates.
 */
export const parse = (
  text: string,
  dtstart?: LocalDate.LocalDate
): Result.Result<{ readonly rrule: Rrule; readonly losses: ReadonlyArray<Translation.Loss> }, string> => {
  const lines = text.split(/\r?\n/).map((l) => l.trim())
  let rule: string | undefined
  let start = dtstart
  const losses: Array<Translation.Loss> = []
  const exdates: Array<LocalDate.LocalDate> = []
  const rdates: Array<LocalDate.LocalDate> = []
  let neverMoved = false
  for (const line of lines) {
    const upper = line.toUpperCase()
    const dated = upper.startsWith("EXDATE") ? "EXDATE" : upper.startsWith("RDATE") ? "RDATE" : undefined
    if (dated !== undefined) {
      if (/;VALUE=PERIOD/i.test(line.slice(0, line.indexOf(":") + 1))) {
        return Result.fail(`${dated} of periods is not part of tppkit's recurrence model (dates only)`)
      }
      for (const value of line.slice(line.indexOf(":") + 1).split(",")) {
        const d = readDate(value)
        if (d === undefined) return Result.fail(`${dated} ${JSON.stringify(value)} is not a date`)
        ;(dated === "EXDATE" ? exdates : rdates).push(d.date)
        if (d.time !== "") {
          losses.push({
            field: dated,
            from: value,
            to: formatDate(d.date),
            why: "tppkit's dates have no time of day"
          })
        }
      }
    } else if (upper.startsWith(`${NEVER_MOVED}:`)) neverMoved = upper.slice(NEVER_MOVED.length + 1).trim() === "TRUE"
    else if (upper.startsWith("RRULE:")) rule = line.slice(6)
    else if (upper.startsWith("FREQ=")) rule = line
    else if (!upper.startsWith("DTSTART")) {
      // any other content line is not read: said, never dropped without a word (an empty line is no content)
      if (line !== "") {
        const name = /^[A-Za-z0-9-]+/.exec(line)?.[0] ?? line
        losses.push({
          field: name.toUpperCase(),
          from: line,
          to: "not read",
          why: "tppkit reads DTSTART, RRULE, RDATE, EXDATE and X-TPPKIT-NEVER-MOVED lines only: this line is not used"
        })
      }
    } else {
      const value = line.slice(line.indexOf(":") + 1)
      const d = readDate(value)
      if (d === undefined) return Result.fail(`DTSTART ${JSON.stringify(value)} is not a date`)
      start = d.date
      if (d.time !== "") {
        losses.push({
          field: "DTSTART",
          from: value,
          to: formatDate(d.date),
          why: "tppkit's dates have no time of day"
        })
      }
    }
  }
  if (rule === undefined) return Result.fail("the text holds no RRULE")
  if (start === undefined) return Result.fail("the rule has no DTSTART (and the record no startDate)")
  const sorted = [...new Set(exdates)].sort((a, b) => a - b)
  const added = [...new Set(rdates)].sort((a, b) => a - b)
  return Result.succeed({
    rrule: {
      dtstart: start,
      rule,
      ...(sorted.length === 0 ? {} : { exdates: sorted }),
      ...(added.length === 0 ? {} : { rdates: added }),
      ...(neverMoved ? { neverMoved } : {})
    },
    losses
  })
}

// ---------------------------------------------------------------------------
// Recurrence → RRULE
// ---------------------------------------------------------------------------

export const interval = (n: number): string => (n === 1 ? "" : `;INTERVAL=${n}`)

export const byMonth = (months: ReadonlyArray<number> | undefined): string =>
  months === undefined ? "" : `;BYMONTH=${months.join(",")}`

/** BYMONTHDAY for a day and missing-day rule; the clamp of 29 and 30 as the last of 28..d (read by most libraries). */
export const monthDayPart = (day: number, missing: Recurrence.MissingDay): string => {
  if (day < 29) return `;BYMONTHDAY=${day}`
  switch (missing) {
    case "clamp":
      return day === 31 ? ";BYMONTHDAY=-1" : `;BYMONTHDAY=${[28, 29, 30].filter((d) => d <= day).join(",")};BYSETPOS=-1`
    case "skip":
      return `;BYMONTHDAY=${day}`
    case "forward":
      return `;RSCALE=GREGORIAN;SKIP=FORWARD;BYMONTHDAY=${day}`
  }
}

/** The FREQ part of a rule, or why RRULE cannot say it. */
export const rulePart = (rule: Recurrence.Rule): string | { readonly reason: string } => {
  switch (rule._tag) {
    case "EveryDays":
      return `FREQ=DAILY${interval(rule.interval)}`
    case "EveryWorkingDays":
      if (rule.interval === 1) return "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR"
      if (rule.interval % 5 === 0) return `FREQ=WEEKLY${interval(rule.interval / 5)}`
      return { reason: `${Recurrence.describe(rule)} has no RRULE form (RRULE counts days, weeks or months)` }
    case "Weekly":
      return `FREQ=WEEKLY${interval(rule.interval)};BYDAY=${rule.weekdays.map((w) => DAYS[w - 1]).join(",")}`
    case "MonthlyOnDay":
      return `FREQ=MONTHLY${interval(rule.interval)}${byMonth(rule.months)}${monthDayPart(rule.day, rule.missing)}`
    case "MonthlyOnWeekday":
      return `FREQ=MONTHLY${interval(rule.interval)}${byMonth(rule.months)};BYDAY=${rule.ordinal}${DAYS[rule.weekday - 1]}`
    case "Yearly": {
      const months = [...new Set(rule.dates.map((d) => d.month))]
      const days = [...new Set(rule.dates.map((d) => d.day))]
      if (months.length * days.length !== rule.dates.length) {
        return {
          reason: "days of the year that are not every chosen day in every chosen month need one RRULE each"
        }
      }
      const leapDay = months.includes(2) && days.includes(29)
      if (leapDay && rule.missing !== "skip" && rule.dates.length > 1) {
        return { reason: "29 February moved in common years beside other days of the year has no single RRULE" }
      }
      const dayPart =
        leapDay && rule.missing !== "skip" ? monthDayPart(29, rule.missing) : `;BYMONTHDAY=${days.join(",")}`
      return `FREQ=YEARLY${interval(rule.interval)};BYMONTH=${months.join(",")}${dayPart}`
    }
  }
}

/** Paused months of every year as a loss's value: `months 6,7,8` (`Translation.words` says "every June, July and August"). */
export const everyMonth = (months: ReadonlyArray<number>): string => `months ${months.join(",")}`

/** Pauses as a loss's value: each range `YYYY-MM-DD..YYYY-MM-DD`, then the months, joined by `; `. */
export const describePauses = (p: Recurrence.Pauses): string =>
  [
    ...p.ranges.map((r) => `${LocalDate.format(r.from)}..${LocalDate.format(r.to)}`),
    ...(p.months.length > 0 ? [everyMonth(p.months)] : [])
  ].join("; ")

/**
 * The `DTSTART` for a first occurrence: the occurrence itself, except when it is a day moved forward out of a month
 * that lacks it (RFC 7529 `SKIP=FORWARD`): then a day of that month (the start, or the month's first day), which the
 * rule does not match, so that the moved day still belongs to the rule's first month.
 */
export const dtstartOf = (r: Recurrence.Recurrence, first: LocalDate.LocalDate): LocalDate.LocalDate => {
  const rule = r.rule
  const { month, day } = LocalDate.toParts(first)
  const moved =
    (rule._tag === "MonthlyOnDay" && rule.missing === "forward" && rule.day > 0 && rule.day !== day) ||
    (rule._tag === "Yearly" &&
      rule.missing === "forward" &&
      !rule.dates.some((d) => d.month === month && d.day === day))
  if (!moved) return first
  const previous = LocalDate.toParts((first - 1) as LocalDate.LocalDate)
  const monthStart = LocalDate.makeUnsafe(previous.year, previous.month, 1)
  return Math.max(r.start, monthStart) as LocalDate.LocalDate
}

/** The first `Occurrence.SAMPLED` paid nominal dates of a recurrence on a calendar, joined (paused ones left out). */
export const paidDates = (r: Recurrence.Recurrence, calendar: Calendar.Calendar): string => {
  const plan = Occurrence.planOf(r, { calendar })
  if (Result.isFailure(plan)) return ""
  const out: Array<number> = []
  for (const o of Occurrence.iterate(plan.success)) {
    if (out.length >= Occurrence.SAMPLED) break
    out.push(o.nominal)
  }
  return out.join(",")
}

/**
 * Whether a working-day recurrence's calendar changes one of its first `Occurrence.SAMPLED` paid dates against
 * weekends alone: holidays that fall only on paused dates are no loss once the paused dates are EXDATEs.
 */
export const holidaysChangePaid = (r: Recurrence.Recurrence): boolean => {
  const calendar = (r.calendar === undefined ? undefined : Calendar.builtInNamed(r.calendar)) ?? Calendar.target
  return paidDates(r, calendar) !== paidDates({ ...r, calendar: "weekends" }, Calendar.weekends)
}

/**
 * Whether the convention moves one of a recurrence's first `Occurrence.SAMPLED` paid occurrences: a paused date the
 * convention would move is an EXDATE, not a loss.
 */
export const movesPaid = (r: Recurrence.Recurrence): boolean => {
  const calendar = (r.calendar === undefined ? undefined : Calendar.builtInNamed(r.calendar)) ?? Calendar.target
  const plan = Occurrence.planOf(r, { calendar })
  if (Result.isFailure(plan)) return false
  let i = 0
  for (const o of Occurrence.iterate(plan.success)) {
    if (i++ >= Occurrence.SAMPLED) break
    if (!Calendar.isWorkingDay(calendar, o.nominal)) return true
  }
  return false
}

/**
 * The RRULE's own dates (no convention, weekends only) that a recurrence's pauses leave unpaid, as EXDATEs
 * (packages/core/README.md, "Pauses as EXDATE"): every one when the schedule is bounded (an end or a count); for a
 * schedule without end those of the date ranges, and the paused months are lost (they would need an EXDATE in every
 * year); more than {@link MAX_EXDATES} are lost too. `lost` names what no EXDATE carries.
 */
export const exdatesOf = (
  r: Recurrence.Recurrence
): {
  readonly dates: ReadonlyArray<LocalDate.LocalDate>
  readonly lost: { readonly from: string; readonly why: string } | undefined
  /** The pauses the RRULE still says (as its EXDATEs): all of them, the ranges alone, or none. */
  readonly kept: Recurrence.Pauses | undefined
} => {
  const p = r.pauses
  if (p === undefined || (p.ranges.length === 0 && p.months.length === 0))
    return { dates: [], lost: undefined, kept: p }
  const bounded = r.end !== undefined || r.count !== undefined
  const { pauses: _, ...bare } = r
  const plan = Result.getOrThrow(Occurrence.planOf(bare, { calendar: Calendar.weekends }))
  // where the listing stops: the schedule's end, else the last day of the ranges (the months cannot be listed)
  const lastRange = p.ranges.reduce<number>((last, x) => Math.max(last, x.to), LocalDate.MIN)
  const until = (bounded ? LocalDate.MAX : lastRange) as LocalDate.LocalDate
  const months = new Set(p.months)
  const inPause = (d: LocalDate.LocalDate) =>
    (bounded && months.has(LocalDate.month(d))) || p.ranges.some((x) => d >= x.from && d <= x.to)
  const dates: Array<LocalDate.LocalDate> = []
  for (const o of Occurrence.iterate(plan)) {
    if (o.nominal > until) break
    if (!inPause(o.nominal)) continue
    if (dates.length === MAX_EXDATES) {
      return {
        dates: [],
        lost: {
          from: describePauses(p),
          why: `the pauses leave more than ${MAX_EXDATES} of the rule's dates unpaid: too many EXDATE lines to write`
        },
        kept: undefined
      }
    }
    dates.push(o.nominal)
  }
  if (bounded || p.months.length === 0) return { dates, lost: undefined, kept: p }
  // an unbounded rule: the months are lost only when one of its dates falls in one
  const sample = Occurrence.sample(
    { ...bare, pauses: { ranges: [], months: p.months } },
    { calendar: Calendar.weekends }
  )
  return sample.paused
    ? {
        dates,
        lost: {
          from: everyMonth(p.months),
          why: "a rule without end paused in the same months every year would need an EXDATE in every year: an end or a count, or an iCalendar export of a window, lists them"
        },
        kept: { ranges: p.ranges, months: [] }
      }
    : { dates, lost: undefined, kept: p }
}

/**
 * A monthly rule's paused months as the months it pays in (`BYMONTH`), when nothing counts the paused occurrences
 * (no `count`): the same dates, and a rule without end keeps them exactly where no EXDATE list could
 * (packages/core/README.md, "Pauses as EXDATE"). Other recurrences, days moved forward into the next month, and a
 * pause of every month the rule has, as given.
 */
export const monthsIntoRule = (r: Recurrence.Recurrence): Recurrence.Recurrence => {
  const rule = r.rule
  const paused = r.pauses?.months ?? []
  if (paused.length === 0 || r.count !== undefined) return r
  if (rule._tag !== "MonthlyOnDay" && rule._tag !== "MonthlyOnWeekday") return r
  // a day moved forward lies in the next month, where its pause is matched: not the month's own
  if (rule._tag === "MonthlyOnDay" && rule.missing === "forward" && rule.day > 28) return r
  const months = (rule.months ?? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]).filter((m) => !paused.includes(m))
  if (months.length === 0) return r
  const pauses = { ranges: r.pauses!.ranges, months: [] }
  return Recurrence.canonical({ ...r, rule: { ...rule, months: months as never }, pauses })
}

/**
 * The RRULE of a recurrence (packages/core/README.md, "Translations"): its `DTSTART` is the first occurrence's
 * nominal date, so the dates are the same even where RFC 5545 would not count from an unmatched `DTSTART`.
 * Paused months of a monthly rule without a count become its `BYMONTH`, other pauses `EXDATE`s, one per paused date
 * of the rule where they can be listed ({@link exdatesOf}). Lossy where
 * RRULE has no word for a part: the business-day convention (RRULE dates never move), the holidays of a working-day
 * calendar other than `weekends`, the paused months of a rule without end. Unrepresentable where the shape has no
 * RRULE form, or the recurrence has no occurrence at all.
 */
export const encode = (recurrence: Recurrence.Recurrence): Translation.Translation<Rrule> => {
  const r = monthsIntoRule(Recurrence.canonical(recurrence))
  const part = rulePart(r.rule)
  if (typeof part !== "string") return Translation.unrepresentable(part.reason)
  // the nominal dates alone: no convention, weekends only, no pauses
  const bare: Recurrence.Recurrence = { rule: r.rule, start: r.start, convention: "none" }
  const plan = Result.getOrThrow(Occurrence.planOf(bare, { calendar: Calendar.weekends }))
  const first = Occurrence.nth(plan, 0)
  if (first === undefined || (r.end !== undefined && first.nominal > r.end)) {
    return Translation.unrepresentable("the recurrence has no occurrence at all")
  }
  let bound = ""
  if (r.count !== undefined) {
    const last = Occurrence.nth(plan, r.count - 1)
    bound = r.end === undefined || (last !== undefined && last.nominal <= r.end) ? `;COUNT=${r.count}` : ""
  }
  if (bound === "" && r.end !== undefined) bound = `;UNTIL=${formatDate(r.end)}`
  // the pauses are judged on the RRULE's own dates, which are the working days of `weekends` once the holidays are
  // lost (every 5th working day from 2035-11-16, 7 times: TARGET's Christmas pushes the last date to 2 January,
  // inside a pause of January, but the RRULE's last date is 28 December and nothing of it is paused); each paused one
  // is an EXDATE where they can be listed
  const own: Recurrence.Recurrence = {
    rule: r.rule,
    start: r.start,
    ...(r.end === undefined ? {} : { end: r.end }),
    ...(r.count === undefined ? {} : { count: r.count }),
    convention: "none",
    ...(r.pauses === undefined ? {} : { pauses: r.pauses })
  }
  const excluded = exdatesOf(own)
  // the calendar and the convention are judged on the dates the RRULE's EXDATEs leave paid: a pause it cannot say pays
  // its dates, and a holiday or a move among them is lost too (1 August yearly, every August paused, without end:
  // the RRULE pays each 1 August, and never moves one off a weekend)
  const { pauses: _, ...unpaused } = r
  const kept: Recurrence.Recurrence = excluded.kept === undefined ? unpaused : { ...r, pauses: excluded.kept }
  const losses: Array<Translation.Loss> = []
  const horizon = Occurrence.sample(r)
  const calendarLost =
    r.rule._tag === "EveryWorkingDays" &&
    r.calendar !== "weekends" &&
    (kept.pauses === undefined ? horizon.holidays : holidaysChangePaid(kept))
  if (r.rule._tag === "EveryWorkingDays") {
    if (calendarLost) {
      losses.push({
        field: "calendar",
        from: r.calendar ?? "the projection's calendar",
        to: "weekends",
        why: "an RRULE knows weekdays but no holidays: each holiday would need an EXDATE"
      })
    }
  } else if (r.convention !== "none" && (kept.pauses === undefined ? horizon.moved : movesPaid(kept))) {
    losses.push({
      field: "convention",
      from: r.convention,
      to: "none",
      why: "RRULE has no business-day convention: its dates never move off a weekend or holiday"
    })
  }
  if (excluded.lost !== undefined && r.pauses !== undefined) {
    losses.push({ field: "pauses", from: excluded.lost.from, to: "none", why: excluded.lost.why })
  }
  const exdates = excluded.dates.length === 0 ? {} : { exdates: excluded.dates }
  return Translation.withLosses({ dtstart: dtstartOf(r, first.nominal), rule: `${part}${bound}`, ...exdates }, losses)
}

// ---------------------------------------------------------------------------
// RRULE → Recurrence
// ---------------------------------------------------------------------------

/** A BYDAY entry: an optional signed ordinal and a weekday. */
export const readDay = (text: string): { readonly ordinal: number; readonly weekday: number } | undefined => {
  const m = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(text)
  if (m === null) return undefined
  return { ordinal: m[1] === undefined ? 0 : Number(m[1]), weekday: DAYS.indexOf(m[2] as (typeof DAYS)[number]) + 1 }
}

/** A comma list of integers, or `undefined` when an entry is not one. */
export const readInts = (text: string): Array<number> | undefined => {
  const xs = text.split(",").map((x) => (/^[+-]?\d{1,3}$/.test(x) ? Number(x) : Number.NaN))
  return xs.some(Number.isNaN) ? undefined : xs
}

export const ascending = (xs: ReadonlyArray<number>): Array<number> => [...new Set(xs)].sort((a, b) => a - b)

/** The missing-day rule of the `28..d;BYSETPOS=-1` clamp, or `undefined` when the days are not that pattern. */
export const clampPattern = (days: ReadonlyArray<number>, setpos: string | undefined): number | undefined => {
  if (setpos !== "-1" || days.length < 2) return undefined
  const sorted = ascending(days)
  const ok = sorted[0] === 28 && sorted.every((d, i) => d === 28 + i) && sorted[sorted.length - 1]! <= 31
  return ok ? sorted[sorted.length - 1] : undefined
}

/** EXDATEs as pauses: each run of consecutive days one range (an excluded date keeps its number, as a pause does). */
export const pausesOf = (exdates: ReadonlyArray<LocalDate.LocalDate>): Recurrence.Pauses => {
  const sorted = [...new Set(exdates)].sort((a, b) => a - b)
  const ranges: Array<{ from: LocalDate.LocalDate; to: LocalDate.LocalDate }> = []
  for (const d of sorted) {
    const last = ranges[ranges.length - 1]
    if (last !== undefined && d === last.to + 1) last.to = d
    else ranges.push({ from: d, to: d })
  }
  return { ranges, months: [] }
}

/**
 * What is not a basic Latin letter in a value meant to be one, in words: `: "О" (U+041E) is not a Latin letter`; empty
 * when every character is A–Z.
 */
const foreignLetters = (value: string): string => {
  const odd = [...new Set([...value].filter((c) => c < "A" || c > "Z"))]
  if (odd.length === 0) return " (DAILY, WEEKLY, MONTHLY or YEARLY)"
  const named = odd.map(
    (c) => `${JSON.stringify(c)} (U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`
  )
  return `: ${named.join(", ")} ${odd.length === 1 ? "is not a Latin letter" : "are not Latin letters"}`
}

/**
 * The recurrence of an RRULE (packages/core/README.md, "Translations"): FREQ DAILY / WEEKLY / MONTHLY / YEARLY,
 * INTERVAL, BYDAY (with ordinals for a weekday of the month), BYMONTHDAY (negative down to −28, and the clamp
 * `28,29,30;BYSETPOS=-1`), BYMONTH, COUNT, UNTIL, WKST (Monday, or any start with interval 1), RSCALE=GREGORIAN and
 * SKIP; its EXDATEs are pauses. Its convention is `none` (RRULE dates are the dates) and it names no calendar. Lossy only for a time of
 * day in `UNTIL`; unrepresentable, with the part named, for what the model cannot say.
 */
export const decode = (input: Rrule): Translation.Translation<Recurrence.Recurrence> => {
  const parts = new Map<string, string>()
  for (const piece of input.rule.split(";")) {
    if (piece.trim() === "") continue
    const eq = piece.indexOf("=")
    if (eq <= 0) return Translation.unrepresentable(`${JSON.stringify(piece)} is not NAME=VALUE`)
    const name = piece.slice(0, eq).trim().toUpperCase()
    if (parts.has(name)) return Translation.unrepresentable(`${name} is given twice`)
    parts.set(
      name,
      piece
        .slice(eq + 1)
        .trim()
        .toUpperCase()
    )
  }
  const known = [
    "FREQ",
    "INTERVAL",
    "BYDAY",
    "BYMONTHDAY",
    "BYMONTH",
    "BYSETPOS",
    "COUNT",
    "UNTIL",
    "WKST",
    "RSCALE",
    "SKIP"
  ]
  for (const name of parts.keys()) {
    if (!known.includes(name)) return Translation.unrepresentable(`${name} is not part of tppkit's recurrence model`)
  }
  const freq = parts.get("FREQ")
  if (freq === undefined) return Translation.unrepresentable("the rule has no FREQ")
  const n = parts.has("INTERVAL") ? Number(parts.get("INTERVAL")) : 1
  if (!Number.isInteger(n) || n < 1 || n > 10_000) return Translation.unrepresentable("INTERVAL is not 1..10000")
  const rscale = parts.get("RSCALE")
  if (rscale !== undefined && rscale !== "GREGORIAN")
    return Translation.unrepresentable(`RSCALE=${rscale} is not GREGORIAN`)
  const skip = parts.get("SKIP") ?? "OMIT"
  const missing: Recurrence.MissingDay | undefined =
    skip === "OMIT" ? "skip" : skip === "BACKWARD" ? "clamp" : skip === "FORWARD" ? "forward" : undefined
  if (missing === undefined) return Translation.unrepresentable(`SKIP=${skip} is not OMIT, BACKWARD or FORWARD`)
  const losses: Array<Translation.Loss> = []
  let end: LocalDate.LocalDate | undefined
  const until = parts.get("UNTIL")
  if (until !== undefined) {
    const d = readDate(until)
    if (d === undefined) return Translation.unrepresentable(`UNTIL=${until} is not a date`)
    end = d.date
    if (d.time !== "") {
      losses.push({ field: "UNTIL", from: until, to: formatDate(d.date), why: "tppkit's dates have no time of day" })
    }
  }
  let count: number | undefined
  if (parts.has("COUNT")) {
    count = Number(parts.get("COUNT"))
    if (!Number.isInteger(count) || count < 1 || count > 1_000_000) {
      return Translation.unrepresentable("COUNT is not 1..1000000")
    }
    if (end !== undefined) return Translation.unrepresentable("COUNT and UNTIL together (RFC 5545 forbids it)")
  }
  const days = parts.has("BYDAY") ? parts.get("BYDAY")!.split(",").map(readDay) : undefined
  if (days?.some((d) => d === undefined)) return Translation.unrepresentable(`BYDAY=${parts.get("BYDAY")} is not read`)
  const byDay = days as Array<{ readonly ordinal: number; readonly weekday: number }> | undefined
  const monthDays = parts.has("BYMONTHDAY") ? readInts(parts.get("BYMONTHDAY")!) : undefined
  if (parts.has("BYMONTHDAY") && monthDays === undefined) return Translation.unrepresentable("BYMONTHDAY is not read")
  const months = parts.has("BYMONTH") ? readInts(parts.get("BYMONTH")!) : undefined
  if (months?.some((m) => m < 1 || m > 12) ?? (parts.has("BYMONTH") && months === undefined)) {
    return Translation.unrepresentable("BYMONTH is not a list of 1..12")
  }
  const setpos = parts.get("BYSETPOS")
  const wkst = parts.get("WKST") ?? "MO"
  const start = input.dtstart
  const sp = LocalDate.toParts(start)
  const monthsFilter = months === undefined ? undefined : ascending(months)
  let rule: Recurrence.Rule | string
  switch (freq) {
    case "DAILY": {
      if (monthDays !== undefined || setpos !== undefined) rule = "BYMONTHDAY or BYSETPOS with FREQ=DAILY"
      else if (byDay === undefined) rule = { _tag: "EveryDays", interval: n }
      else if (n === 1 && byDay.every((d) => d.ordinal === 0)) {
        rule = { _tag: "Weekly", interval: 1, weekdays: ascending(byDay.map((d) => d.weekday)) as never }
      } else rule = "BYDAY with FREQ=DAILY and an INTERVAL or ordinals"
      break
    }
    case "WEEKLY": {
      if (monthDays !== undefined || setpos !== undefined) rule = "BYMONTHDAY or BYSETPOS with FREQ=WEEKLY"
      else if (byDay?.some((d) => d.ordinal !== 0)) rule = "ordinals in BYDAY with FREQ=WEEKLY"
      else if (wkst !== "MO" && n > 1) rule = `WKST=${wkst} with an INTERVAL (tppkit's weeks start on Monday)`
      else {
        const weekdays = byDay === undefined ? [LocalDate.dayOfWeek(start)] : ascending(byDay.map((d) => d.weekday))
        rule = { _tag: "Weekly", interval: n, weekdays: weekdays as never }
      }
      break
    }
    case "MONTHLY": {
      const withMonths = monthsFilter === undefined ? {} : { months: monthsFilter as never }
      if (byDay !== undefined) {
        const only = byDay.length === 1 ? byDay[0]! : undefined
        if (monthDays !== undefined || setpos !== undefined || only === undefined || only.ordinal === 0) {
          rule = "BYDAY other than one weekday with an ordinal (e.g. 2WE, -1FR) with FREQ=MONTHLY"
        } else if (Math.abs(only.ordinal) > 5) rule = `BYDAY=${only.ordinal}: a month has at most five of a weekday`
        else
          rule = { _tag: "MonthlyOnWeekday", interval: n, weekday: only.weekday, ordinal: only.ordinal, ...withMonths }
      } else {
        const list = monthDays ?? [sp.day]
        const clamp = clampPattern(list, setpos)
        if (clamp !== undefined) {
          rule = { _tag: "MonthlyOnDay", interval: n, day: clamp === 31 ? -1 : clamp, missing: "clamp", ...withMonths }
        } else if (list.length !== 1 || setpos !== undefined) rule = "more than one day of the month"
        else if (list[0]! < -28 || list[0]! === 0 || list[0]! > 31) {
          rule = `BYMONTHDAY=${list[0]} (days counted from the month's end go down to -28)`
        } else rule = { _tag: "MonthlyOnDay", interval: n, day: list[0]!, missing, ...withMonths }
      }
      break
    }
    case "YEARLY": {
      if (byDay !== undefined) {
        const only = byDay.length === 1 ? byDay[0]! : undefined
        if (
          only === undefined ||
          only.ordinal === 0 ||
          Math.abs(only.ordinal) > 5 ||
          monthsFilter?.length !== 1 ||
          monthDays !== undefined ||
          setpos !== undefined
        ) {
          rule = "BYDAY with FREQ=YEARLY other than one weekday with an ordinal in one BYMONTH"
        } else if (monthsFilter[0] !== sp.month) rule = "a weekday of a month other than DTSTART's month, yearly"
        else rule = { _tag: "MonthlyOnWeekday", interval: 12 * n, weekday: only.weekday, ordinal: only.ordinal }
        break
      }
      const list = monthDays ?? [sp.day]
      const ms = monthsFilter ?? [sp.month]
      const clamp = clampPattern(list, setpos)
      if (clamp === 29 && ms.length === 1 && ms[0] === 2) {
        rule = { _tag: "Yearly", interval: n, dates: [{ month: 2, day: 29 }], missing: "clamp" }
      } else if (setpos !== undefined) rule = "BYSETPOS with FREQ=YEARLY other than the 29 February clamp"
      else if (monthsFilter === undefined && monthDays !== undefined) {
        rule =
          n === 1 && list.length === 1 && list[0]! >= -28 && list[0]! !== 0 && list[0]! <= 31
            ? { _tag: "MonthlyOnDay", interval: 1, day: list[0]!, missing }
            : "BYMONTHDAY without BYMONTH with FREQ=YEARLY"
      } else if (list.some((d) => d < 1)) rule = "days counted from the month's end with FREQ=YEARLY"
      else {
        const dates: Array<Recurrence.YearDay> = []
        for (const month of ms) {
          for (const day of ascending(list)) {
            if (day <= LocalDate.daysInMonth(2000, month)) dates.push({ month, day })
            else if (missing !== "skip") return Translation.unrepresentable(`day ${day} never exists in month ${month}`)
          }
        }
        if (dates.length === 0) return Translation.unrepresentable("no day of the rule exists in any of its months")
        rule = { _tag: "Yearly", interval: n, dates: dates as never, missing }
      }
      break
    }
    case "SECONDLY":
    case "MINUTELY":
    case "HOURLY":
      rule = `FREQ=${freq} (tppkit's dates have no time of day)`
      break
    default:
      // not a frequency of RFC 5545 at all: said as given, naming a look-alike letter (a Cyrillic О in MОNTHLY)
      return Translation.unrepresentable(
        `FREQ ${JSON.stringify(freq)} is not an RFC 5545 frequency${foreignLetters(freq)}`
      )
  }
  if (typeof rule === "string") return Translation.unrepresentable(`${rule} is not part of tppkit's recurrence model`)
  const recurrence: Recurrence.Recurrence = {
    rule,
    start,
    ...(end === undefined ? {} : { end }),
    ...(count === undefined ? {} : { count }),
    convention: "none",
    ...(input.exdates === undefined || input.exdates.length === 0 ? {} : { pauses: pausesOf(input.exdates) })
  }
  const valid = Recurrence.decodeJson(Recurrence.encodeJson(recurrence))
  if (Result.isFailure(valid)) return Translation.unrepresentable(valid.failure)
  return Translation.withLosses(Recurrence.canonical(recurrence), losses)
}
