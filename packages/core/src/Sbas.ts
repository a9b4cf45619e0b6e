/**
 * The bank's seven frequency codes (docs/bank-interface.md, "Standing-order list") to and from `Recurrence`, each
 * way a `Translation` (packages/core/README.md, "Translations"). Every code is a recurrence, so decoding is exact;
 * encoding says which recurrences the codes can carry, which only with a change (named), and which not at all.
 *
 * @since 0.2.0
 */
import { Result } from "effect"
import type * as BusinessDayConvention from "./BusinessDayConvention.ts"
import * as Calendar from "./Calendar.ts"
import type * as Frequency from "./Frequency.ts"
import * as LocalDate from "./LocalDate.ts"
import * as Occurrence from "./Occurrence.ts"
import * as Recurrence from "./Recurrence.ts"
import * as Translation from "./Translation.ts"

/**
 * A standing order's schedule in the bank's terms with the settings tppkit projects it with: `frequency`,
 * `startDate` (which carries the day), `endDate`, and the convention and calendar the bank applies.
 */
export interface SbasOrder {
  readonly frequency: Frequency.Frequency
  readonly startDate: LocalDate.LocalDate
  readonly endDate?: LocalDate.LocalDate | undefined
  readonly convention: BusinessDayConvention.BusinessDayConvention
  readonly calendar?: string | undefined
}

/**
 * The recurrence of an order's schedule (packages/core/README.md, "Anchor", "Nominal dates"): always exact;
 * unrepresentable only when the order has neither `startDate` nor `nextDate`.
 */
export const decode = (
  order: Recurrence.SbasSchedule,
  options?: Recurrence.SbasOptions
): Translation.Translation<Recurrence.Recurrence> => {
  const r = Recurrence.fromSbas(order, options)
  return Result.isSuccess(r) ? Translation.exact(r.success) : Translation.unrepresentable(r.failure)
}

/** The code of a month step, if the bank has one (MNTH 1, QUTR 3, SEMI 6, YEAR 12). */
const monthCode = (step: number): Frequency.Frequency | undefined =>
  step === 1 ? "MNTH" : step === 3 ? "QUTR" : step === 6 ? "SEMI" : step === 12 ? "YEAR" : undefined

/** How many leading nominal dates two schedules are compared on: a whole 400-year cycle of monthly dates. */
const COMPARED = 4_800

/** The nominal dates of a plan from occurrence 0, at most `COMPARED` of them. */
const nominals = (plan: Occurrence.Plan): Array<number> => {
  const out: Array<number> = []
  for (const o of Occurrence.iterate(plan)) {
    if (out.length >= COMPARED) break
    out.push(o.nominal)
  }
  return out
}

const same = (a: ReadonlyArray<number>, b: ReadonlyArray<number>): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i])

/**
 * The bank's code for a recurrence (packages/core/README.md, "Translations"). `startDate` is the first occurrence
 * (it carries the day of month or week); a `count` becomes the `endDate` of its last occurrence. Lossy: pauses (the
 * codes cannot pause), a missing-day rule other than the month-end clamp, a first occurrence that the codes cannot
 * start from (a clamped one: the schedule then starts at the first unclamped date), a convention on DAI7 (never
 * moved). Unrepresentable: every other interval, several days a period, days counted from the end other than the
 * last, weekdays of the month, selected months.
 */
export const encode = (recurrence: Recurrence.Recurrence): Translation.Translation<SbasOrder> => {
  const r = Recurrence.canonical(recurrence)
  const rule = r.rule
  const losses: Array<Translation.Loss> = []
  let frequency: Frequency.Frequency | undefined
  switch (rule._tag) {
    case "EveryDays":
      frequency = rule.interval === 1 ? "DAI7" : rule.interval === 7 ? "WEEK" : undefined
      break
    case "EveryWorkingDays":
      frequency = rule.interval === 1 ? "DAIL" : undefined
      break
    case "Weekly":
      frequency = rule.interval === 1 && rule.weekdays.length === 1 ? "WEEK" : undefined
      break
    case "MonthlyOnDay":
      frequency = rule.months === undefined && (rule.day > 0 || rule.day === -1) ? monthCode(rule.interval) : undefined
      break
    case "Yearly":
      frequency = rule.interval === 1 && rule.dates.length === 1 ? "YEAR" : undefined
      break
    case "MonthlyOnWeekday":
      frequency = undefined
  }
  if (frequency === undefined) {
    return Translation.unrepresentable(
      `the bank's codes say every working day, every day, weekly on one weekday, or every 1, 3, 6 or 12 months on one day: not ${Recurrence.describe(rule)}`
    )
  }
  if (Recurrence.missesDay(r)) {
    const missing = rule._tag === "MonthlyOnDay" || rule._tag === "Yearly" ? rule.missing : "clamp"
    if (missing !== "clamp") {
      losses.push({
        field: "missing",
        from: missing,
        to: "clamp",
        why: "the bank's codes pay on the month's last day when it lacks the day"
      })
    }
  }
  const convention = frequency === "DAIL" || frequency === "DAI7" ? "none" : r.convention
  // the recurrence's own dates with the month-end clamp, as the codes would carry them: a pause matters when it
  // pauses one of these (a pause of April pauses nothing under `skip` on day 31, but April 30 once clamped)
  const carried: Recurrence.Rule =
    rule._tag === "MonthlyOnDay" || rule._tag === "Yearly" ? { ...rule, missing: "clamp" } : rule
  const horizon = Occurrence.sample({ ...r, rule: carried })
  if (frequency === "DAI7" && r.convention !== "none" && horizon.moved) {
    losses.push({
      field: "convention",
      from: r.convention,
      to: "none",
      why: "DAI7 pays on every calendar day, never moved"
    })
  }
  if (r.pauses !== undefined && horizon.paused) {
    losses.push({ field: "pauses", from: "paused dates", to: "none", why: "the bank's codes cannot pause" })
  }
  // the carried dates without pauses or the end
  const bare: Recurrence.Recurrence = { rule: carried, start: r.start, convention: "none" }
  // the calendar the recurrence names, else the default: working days and counts depend on its holidays
  const calendar = (r.calendar === undefined ? undefined : Calendar.builtInNamed(r.calendar)) ?? Calendar.target
  const own = Result.getOrThrow(Occurrence.planOf(bare, { calendar }))
  const first = Occurrence.nth(own, 0)
  if (first === undefined) return Translation.unrepresentable("the recurrence has no occurrence at all")
  const wanted = nominals(own)
  // the first occurrence the code can start from: the one whose own dates continue the recurrence's
  // DAIL counts working days from its start whatever day that is: the recurrence's start is the code's
  let startDate: LocalDate.LocalDate | undefined = frequency === "DAIL" ? r.start : undefined
  for (let i = 0; i < Math.min(wanted.length, 60) && startDate === undefined; i++) {
    const candidate = wanted[i]! as LocalDate.LocalDate
    const plan = Result.getOrThrow(
      Occurrence.makePlan({ frequency, startDate: candidate }, { calendar, convention: "none" })
    )
    if (same(nominals(plan).slice(0, wanted.length - i), wanted.slice(i))) startDate = candidate
  }
  if (startDate === undefined)
    return Translation.unrepresentable(`no start date makes ${frequency} say ${Recurrence.describe(rule)}`)
  if (startDate !== first.nominal && frequency !== "DAIL") {
    losses.push({
      field: "startDate",
      from: LocalDate.format(first.nominal),
      to: LocalDate.format(startDate),
      why: "the bank's codes take the day from startDate: the earlier, shortened month's date cannot start the schedule"
    })
  }
  let endDate = r.end
  if (r.count !== undefined) {
    const last = Occurrence.nth(own, r.count - 1)
    if (last !== undefined && (endDate === undefined || last.nominal < endDate)) endDate = last.nominal
  }
  return Translation.withLosses(
    {
      frequency,
      startDate,
      ...(endDate === undefined ? {} : { endDate }),
      convention,
      ...(r.calendar === undefined ? {} : { calendar: r.calendar })
    },
    losses
  )
}
