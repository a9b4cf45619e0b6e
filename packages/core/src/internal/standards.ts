/**
 * What the standards' translators share: tolerant reading of wire dates and numbers (each tolerance a warning), the
 * first and last nominal dates of a recurrence, and whether two recurrences project differently, which is how an
 * encoder decides that a field it cannot carry is a loss (only when some date changes).
 */
import { Result } from "effect"
import * as Calendar from "../Calendar.ts"
import * as Decoded from "../Decoded.ts"
import * as Json from "../Json.ts"
import * as LocalDate from "../LocalDate.ts"
import * as Occurrence from "../Occurrence.ts"
import * as Recurrence from "../Recurrence.ts"
import * as Translation from "../Translation.ts"

/** How many leading occurrences two recurrences are compared on (a 400-year cycle of monthly dates). */
export const COMPARED = 4_800

/** The calendar a recurrence is compared on: the built-in one it names, else `target`. */
const calendarOf = (r: Recurrence.Recurrence): Calendar.Calendar =>
  (r.calendar === undefined ? undefined : Calendar.builtInNamed(r.calendar)) ?? Calendar.target

/** The nominal and execution dates of a recurrence's first `COMPARED` occurrences, or undefined when not projectable. */
export const datesOf = (r: Recurrence.Recurrence, n: number = COMPARED): Array<number> | undefined => {
  const plan = Occurrence.planOf(r, { calendar: calendarOf(r) })
  if (Result.isFailure(plan)) return undefined
  const out: Array<number> = []
  for (const o of Occurrence.iterate(plan.success)) {
    if (out.length >= 2 * n) break
    out.push(o.nominal, o.execution)
  }
  return out
}

/** Whether two recurrences give different nominal or execution dates (on the calendar the first names). */
export const differs = (a: Recurrence.Recurrence, b: Recurrence.Recurrence): boolean => {
  const x = datesOf(a)
  const y = datesOf({ ...b, ...(a.calendar === undefined ? {} : { calendar: a.calendar }) })
  if (x === undefined || y === undefined) return x !== y
  return x.length !== y.length || x.some((v, i) => v !== y[i])
}

/** The recurrence without its end, count and pauses: the rule's own dates from its start. */
export const bare = (r: Recurrence.Recurrence): Recurrence.Recurrence => ({
  rule: r.rule,
  start: r.start,
  convention: "none"
})

/** The rule with the month-end clamp for a missing day (what a standard silent on it is read as). */
export const clamped = (rule: Recurrence.Rule): Recurrence.Rule =>
  rule._tag === "MonthlyOnDay" || rule._tag === "Yearly" ? { ...rule, missing: "clamp" } : rule

/**
 * The first nominal date of a recurrence's rule on or after its start, with a missing day clamped (so that it lies
 * in the rule's own month; end, count and pauses ignored).
 */
export const firstNominal = (r: Recurrence.Recurrence): LocalDate.LocalDate | undefined => {
  const plan = Occurrence.planOf({ ...bare(r), rule: clamped(r.rule) }, { calendar: calendarOf(r) })
  return Result.isSuccess(plan) ? Occurrence.nth(plan.success, 0)?.nominal : undefined
}

/**
 * The last nominal date a recurrence allows, from its end and its count (a paused occurrence counts): the last
 * occurrence on or before `end`, and the `count`-th occurrence; undefined when it has neither (or no occurrence).
 */
export const lastNominal = (r: Recurrence.Recurrence): LocalDate.LocalDate | undefined => {
  if (r.end === undefined && r.count === undefined) return undefined
  const plan = Occurrence.planOf(
    { ...bare(r), ...(r.end === undefined ? {} : { end: r.end }) },
    {
      calendar: calendarOf(r)
    }
  )
  if (Result.isFailure(plan)) return undefined
  let last: LocalDate.LocalDate | undefined
  if (r.count !== undefined) last = Occurrence.nth(plan.success, r.count - 1)?.nominal
  if (last === undefined && r.end !== undefined) {
    const before = Occurrence.between(plan.success, r.start, r.end)
    last = before[before.length - 1]?.nominal
  }
  return last
}

/** A field's text for a warning or loss. */
export const show = (u: unknown): string => (typeof u === "string" ? u : (JSON.stringify(u) ?? String(u)))

/**
 * A wire date or date-time read as its calendar date (the date as written, the time and offset dropped), or
 * undefined with a warning when it is no date (Danske's `0000-01-01`, `01-Jan-18`). Absent stays absent.
 */
export const readDate = (
  u: unknown,
  field: string,
  warnings: Array<Decoded.Warning>
): LocalDate.LocalDate | undefined => {
  if (u === undefined || u === null) return undefined
  if (typeof u === "string") {
    const m = /^(\d{4}-\d{2}-\d{2})(?:[T ].*)?$/.exec(u.trim())
    if (m !== null) {
      const r = LocalDate.parse(m[1]!)
      if (Result.isSuccess(r)) return r.success
      warnings.push({ field, received: u, read: "absent", why: `it is no calendar date (${r.failure})` })
      return undefined
    }
  }
  warnings.push({ field, received: show(u), read: "absent", why: "it is not a date of the form YYYY-MM-DD" })
  return undefined
}

/** A date as a UK-style date-time at midnight UTC. */
export const dateTime = (d: LocalDate.LocalDate): string => `${LocalDate.format(d)}T00:00:00+00:00`

/** The whole number a JSON number's source text says exactly (`3`, `3.0`, `3e0`), or undefined (`3.5`, `3.0000000000000000001`). */
const wholeOfText = (text: string): number | undefined => {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text)
  if (m === null) return undefined
  const exponent = Number(m[4] ?? "0")
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 40) return undefined
  let digits = `${m[2]}${m[3] ?? ""}`
  const point = m[2]!.length + exponent
  if (point < 0) return /^0*$/.test(digits) ? 0 : undefined
  if (point > digits.length) digits = digits.padEnd(point, "0")
  if (!/^0*$/.test(digits.slice(point))) return undefined
  const n = Number(`${m[1]}${digits.slice(0, point) || "0"}`)
  return Number.isSafeInteger(n) ? n : undefined
}

/**
 * A whole number written as text or as a JSON number (a float, or its exact text as `Json.parse` keeps it), with
 * whether it was written as text the standard wants (`plain`: no sign, no padding; never for a number) and whether
 * it was a JSON `number`: the same on every path, the CLI's exact reading and a library's `JSON.parse` alike.
 */
export const readInt = (
  u: unknown
): { readonly value: number; readonly plain: boolean; readonly number: boolean } | undefined => {
  if (typeof u === "number") return Number.isInteger(u) ? { value: u, plain: false, number: true } : undefined
  if (Json.isNumberText(u)) {
    const value = wholeOfText(u.text)
    return value === undefined ? undefined : { value, plain: false, number: true }
  }
  if (typeof u !== "string" || !/^\s*-?\d{1,9}\s*$/.test(u)) return undefined
  const t = u.trim()
  return { value: Number(t), plain: t === String(Number(t)), number: false }
}

/**
 * A whole number where the standard wants a JSON number (a count, a step): read as written, and text holding one
 * (`"3"`) read too with a warning naming `field` (the standard's meaning is clear; its type is not kept).
 */
export const readNumber = (
  u: unknown,
  field: string,
  warnings: Array<Decoded.Warning>
): { readonly value: number } | undefined => {
  const n = readInt(u)
  if (n !== undefined && !n.number) {
    warnings.push({ field, received: show(u), read: String(n.value), why: `${field} is a number, not text` })
  }
  return n
}

/** A change a target may make to what it cannot carry: the loss it is reported as, and the change itself. */
export interface Candidate {
  readonly loss: Translation.Loss
  readonly apply: (r: Recurrence.Recurrence) => Recurrence.Recurrence
}

/**
 * The losses to report: of the changes the target makes, those some date depends on. All of them applied is what
 * the target says; a change is dropped while the others alone say the same dates, until every one left is needed
 * (a change to "not defined", the target's silence, is always kept: tppkit's reading of it may agree by chance).
 * Also the recurrence with the kept changes applied: what the target will say.
 */
export const lossesOf = (
  r: Recurrence.Recurrence,
  candidates: ReadonlyArray<Candidate>
): { readonly losses: Array<Translation.Loss>; readonly target: Recurrence.Recurrence } => {
  const applyAll = (cs: ReadonlyArray<Candidate>) => cs.reduce((acc, c) => c.apply(acc), r)
  const kept = [...candidates]
  const target = datesOf(applyAll(kept))
  const same = (x: Array<number> | undefined) =>
    x === undefined || target === undefined
      ? x === target
      : x.length === target.length && x.every((v, i) => v === target[i])
  let changed = true
  while (changed) {
    changed = false
    for (let i = 0; i < kept.length; i++) {
      if (kept[i]!.loss.to === "not defined") continue
      const others = kept.filter((_, j) => j !== i)
      if (same(datesOf(applyAll(others)))) {
        kept.splice(i, 1)
        changed = true
        break
      }
    }
  }
  return { losses: kept.map((c) => c.loss), target: applyAll(kept) }
}

/** The change "no pauses". */
export const unpause = (r: Recurrence.Recurrence): Recurrence.Recurrence => {
  const { pauses: _, ...rest } = r
  return rest
}

/** The first `n` nominal dates of a recurrence's rule from its start (end, count and pauses ignored). */
export const nominals = (r: Recurrence.Recurrence, n: number): Array<LocalDate.LocalDate> => {
  const plan = Occurrence.planOf(bare(r), { calendar: calendarOf(r) })
  const out: Array<LocalDate.LocalDate> = []
  if (Result.isFailure(plan)) return out
  for (const o of Occurrence.iterate(plan.success)) {
    if (out.length >= n) break
    out.push(o.nominal)
  }
  return out
}

/**
 * For a target that takes the day of the month from its start date: the first of a recurrence's first 60 nominal
 * dates (missing days clamped) that falls on `day` itself (−1: a month's last day), or undefined.
 */
export const firstOnDay = (r: Recurrence.Recurrence, day: number): LocalDate.LocalDate | undefined =>
  nominals({ ...r, rule: clamped(r.rule) }, 60).find((x) => {
    const p = LocalDate.toParts(x)
    return day === -1 ? p.day === LocalDate.daysInMonth(p.year, p.month) : p.day === day
  })

/** The change "pauses dropped", when the recurrence has any: `why` says the target cannot pause. */
export const pausesLost = (r: Recurrence.Recurrence, why: string): Array<Candidate> =>
  r.pauses === undefined ? [] : [{ loss: { field: "pauses", from: "paused dates", to: "none", why }, apply: unpause }]

/** The change "never moved", when the recurrence's convention moves dates: `why` says the target cannot move them. */
export const conventionLost = (r: Recurrence.Recurrence, why: string): Array<Candidate> =>
  r.convention === "none"
    ? []
    : [
        {
          loss: { field: "convention", from: r.convention, to: "none", why },
          apply: (x) => ({ ...x, convention: "none" })
        }
      ]

/**
 * The change a decoder makes where its standard does not say when day `day` (29–31) is paid in a month without it:
 * tppkit reads the silence as the month-end clamp.
 */
export const readAsMonthEnd = (standard: string, day: number): Translation.Loss => ({
  field: "missing",
  from: "not defined",
  to: "clamp",
  why: `${standard} does not say when day ${day} is paid in a month without it: read as the month's last day`
})

/**
 * The loss {@link readAsMonthEnd} of a decoded rule paying on day `day`, where a month it reaches from `start` up to
 * `end` and `count` lacks the day (quarterly from 30 January never does); none where every month has it.
 */
export const monthEndLosses = (
  standard: string,
  day: number,
  rule: Recurrence.Rule,
  start: LocalDate.LocalDate,
  end: LocalDate.LocalDate | undefined,
  count: number | undefined
): ReadonlyArray<Translation.Loss> =>
  Recurrence.missesDay({
    rule,
    start,
    ...(end === undefined ? {} : { end }),
    ...(count === undefined ? {} : { count })
  })
    ? [readAsMonthEnd(standard, day)]
    : []

/** The change "a missing day is the target's to decide": the month-end clamp as tppkit reads the silence. */
export const missingNotDefined = (rule: Recurrence.Rule, why: string): Candidate => ({
  loss: {
    field: "missing",
    from: rule._tag === "MonthlyOnDay" || rule._tag === "Yearly" ? rule.missing : "clamp",
    to: "not defined",
    why
  },
  apply: (x) => ({ ...x, rule: clamped(x.rule) })
})

/**
 * For a target that takes the day of the month from its start: the first occurrence on `day` (1–31) itself and, when
 * that is not the first occurrence, the change "start moved" (with `why`); undefined when no early occurrence has the day.
 */
export const startOnDay = (
  r: Recurrence.Recurrence,
  first: LocalDate.LocalDate,
  day: number,
  why: string
): { readonly start: LocalDate.LocalDate; readonly candidates: Array<Candidate> } | undefined => {
  if (LocalDate.day(first) === day) return { start: first, candidates: [] }
  const own = firstOnDay(r, day)
  if (own === undefined) return undefined
  return {
    start: own,
    candidates: [
      {
        loss: { field: "start", from: LocalDate.format(first), to: LocalDate.format(own), why },
        apply: (x) => ({ ...x, start: own })
      }
    ]
  }
}

/** The first nominal date of a recurrence within its end and count, pauses aside; undefined when there is none. */
const firstWithin = (r: Recurrence.Recurrence): LocalDate.LocalDate | undefined => {
  const { pauses: _, ...rest } = r
  const plan = Occurrence.planOf({ ...rest, convention: "none" }, { calendar: calendarOf(r) })
  return Result.isSuccess(plan) ? Occurrence.nth(plan.success, 0)?.nominal : undefined
}

/**
 * Why a recurrence read from a record yields no payment at all, or `undefined`: its end before its start, or a rule
 * that reaches no date up to its end (monthly on the 31st ended on the 15th, selected months the interval never
 * reaches). Only a recurrence with an end or selected months is planned to find out.
 */
export const neverPays = (r: Recurrence.Recurrence): string | undefined => {
  if (r.end !== undefined && r.end < r.start) {
    return `its schedule ends on ${LocalDate.format(r.end)}, before it starts on ${LocalDate.format(r.start)}: the order never pays`
  }
  const selects = (r.rule._tag === "MonthlyOnDay" || r.rule._tag === "MonthlyOnWeekday") && r.rule.months !== undefined
  if ((r.end !== undefined || selects) && firstWithin(r) === undefined) {
    return `its rule (${Recurrence.describe(r.rule)}) reaches no date from ${LocalDate.format(r.start)}${r.end === undefined ? "" : ` to ${LocalDate.format(r.end)}`}: the order never pays`
  }
  return undefined
}

/**
 * What every decoder opens with: the warnings it gathers, `done` (the translation with them, and whether the record
 * carries or fixes its convention, else the options' or following) and `no` (the record unrepresentable, why).
 */
export const decoding = (): {
  readonly warnings: Array<Decoded.Warning>
  readonly done: (
    translation: Translation.Translation<Recurrence.Recurrence>,
    ownConvention?: boolean
  ) => Decoded.Decoded<Recurrence.Recurrence>
  readonly no: (reason: string) => Decoded.Decoded<Recurrence.Recurrence>
} => {
  const warnings: Array<Decoded.Warning> = []
  const done = (translation: Translation.Translation<Recurrence.Recurrence>, ownConvention?: boolean) =>
    Decoded.make(translation, warnings, ownConvention)
  return { warnings, done, no: (reason) => done(Translation.unrepresentable(reason)) }
}

/**
 * What every decoder reads at last: the recurrence of `rule` from `start`, its `end`, `count` and the options'
 * `calendar` only where given, in the fields' order.
 */
export const recurrence = (
  rule: Recurrence.Rule,
  start: LocalDate.LocalDate,
  end: LocalDate.LocalDate | undefined,
  count: number | undefined,
  convention: Recurrence.Recurrence["convention"],
  calendar: string | undefined
): Recurrence.Recurrence => ({
  rule,
  start,
  ...(end === undefined ? {} : { end }),
  ...(count === undefined ? {} : { count }),
  convention,
  ...(calendar === undefined ? {} : { calendar })
})

/**
 * The recurrence a decoder reads at last ({@link recurrence}) with its losses, its convention `none` where the
 * record's code fixes its dates (`fixed`: daily and working-day codes), else the options' (default `following`).
 */
export const fixedOrChosen = (
  rule: Recurrence.Rule,
  start: LocalDate.LocalDate,
  end: LocalDate.LocalDate | undefined,
  count: number | undefined,
  fixed: boolean,
  options:
    | { readonly convention?: Recurrence.Recurrence["convention"] | undefined; readonly calendar?: string | undefined }
    | undefined,
  losses: ReadonlyArray<Translation.Loss>
): Translation.Translation<Recurrence.Recurrence> =>
  Translation.withLosses(
    recurrence(rule, start, end, count, fixed ? "none" : (options?.convention ?? "following"), options?.calendar),
    losses
  )

/**
 * The change "every calendar day is the target's to decide": a target whose day code does not say whether it pays
 * on days the bank is closed (`field` the target's, `why` in its words).
 */
export const everyDayNotDefined = (field: string, why: string): Candidate => ({
  loss: { field, from: "every calendar day", to: "not defined", why },
  apply: (x) => x
})

/**
 * What every encoder opens with: the recurrence in its canonical form, its rule, and the refusal `TARGET cannot say
 * RULE: why` (the rule described in words) for what the target cannot carry.
 */
export const encoding = <A>(
  recurrence: Recurrence.Recurrence,
  target: string
): {
  readonly r: Recurrence.Recurrence
  readonly rule: Recurrence.Rule
  readonly no: (why: string) => Translation.Translation<A>
} => {
  const r = Recurrence.canonical(recurrence)
  const rule = r.rule
  return {
    r,
    rule,
    no: (why) => Translation.unrepresentable<A>(`${target} cannot say ${Recurrence.describe(rule)}: ${why}`)
  }
}

/** Why the convention a reader applies to a record of each standard that leaves it unstated is its own. */
const UNSTATED: Readonly<Partial<Record<string, { readonly from: string; readonly why: string }>>> = {
  rrule: { from: "none", why: "an RRULE's dates are the dates (RFC 5545): the reader's convention moves them" },
  cobs: { from: "not stated", why: "its modeDue (absent, or the month's last day) states none: the reader's is used" },
  "berlin-group": { from: "not stated", why: "it has no executionRule: the reader's is used" },
  iso20022: { from: "not stated", why: "ISO 20022's frequency states no business-day rule: the reader's is used" }
}

/**
 * The loss of the business-day convention a reader applies to a record that does not state one (an RRULE, COBS
 * without `modeDue`, Berlin Group without `executionRule`, ISO 20022), or undefined: a record that states or fixes its
 * own (`ownConvention`), an RRULE left unmoved, or a standard whose reading states it (the bank's codes: the schedule
 * spec's `following`).
 */
export const conventionUnstated = (
  standard: string,
  ownConvention: boolean,
  convention: string
): Translation.Loss | undefined => {
  const unstated = UNSTATED[standard]
  if (ownConvention || unstated === undefined || convention === unstated.from) return undefined
  return { field: "convention", from: unstated.from, to: convention, why: unstated.why }
}

/** Whether a loss is the one {@link conventionUnstated} makes (the convention a reader applied). */
export const isConventionUnstated = (loss: Translation.Loss): boolean =>
  loss.field === "convention" && Object.values(UNSTATED).some((u) => u?.why === loss.why)
