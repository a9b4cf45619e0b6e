/**
 * A bank's date rule: which date a bank lists as a standing order's `nextDate`. The bank's document shows neither
 * its business-day convention nor its holiday calendar (docs/bank-interface.md, "The bank's date rule"), so a rule is
 * a convention, a calendar (or "every day": the bank pays on weekends and holidays too), and whether the listed date
 * is the execution date or the nominal date. Dates come from the frequency engine ({@link Occurrence}); a rule only
 * chooses its plan.
 *
 * @since 0.1.0
 */
import { Result } from "effect"
import * as BusinessDayConvention from "./BusinessDayConvention.ts"
import * as Calendar from "./Calendar.ts"
import type * as LocalDate from "./LocalDate.ts"
import * as Occurrence from "./Occurrence.ts"
import * as Recurrence from "./Recurrence.ts"

// ---------------------------------------------------------------------------
// model
// ---------------------------------------------------------------------------

/** The calendar of a bank that pays on every day, weekends and holidays included. */
export const everyDay = "every-day"

/** A working-day calendar, or {@link everyDay}. */
export type CalendarChoice = Calendar.Calendar | typeof everyDay

/** Whether the listed `nextDate` is the payment's execution date or its nominal date. */
export type Reports = "execution" | "nominal"

/** A bank's date rule: its business-day convention, its calendar and which date it lists. */
export interface BankRule {
  readonly convention: BusinessDayConvention.BusinessDayConvention
  readonly calendar: CalendarChoice
  readonly reports: Reports
}

/** tppkit's own rule: `following` on `target`, the execution date (packages/core/README.md, "Execution dates"). */
export const defaultRule: BankRule = {
  convention: BusinessDayConvention.defaultConvention,
  calendar: Calendar.target,
  reports: "execution"
}

/** A rule from its parts (convention `following`, calendar `target`, the execution date unless given). */
export const make = (parts: Partial<BankRule>): BankRule => ({
  convention: parts.convention ?? defaultRule.convention,
  calendar: parts.calendar ?? defaultRule.calendar,
  reports: parts.reports ?? defaultRule.reports
})

// ---------------------------------------------------------------------------
// equivalence
// ---------------------------------------------------------------------------

/** Whether a calendar choice is every day without a holiday: {@link everyDay}, or `Calendar.everyDay` itself. */
const isEveryDay = (calendar: CalendarChoice): boolean => calendar === everyDay || calendar === Calendar.everyDay

/** The name of a rule's calendar: the calendar's own name, or `every-day`. */
export const calendarName = (rule: BankRule): string =>
  rule.calendar === everyDay ? everyDay : (rule.calendar as Calendar.Calendar).name

/**
 * The simplest rule that lists the same dates for every order. On every day nothing moves, so the convention and the
 * kind of date do not matter (`none`, execution); a nominal date is the execution date under `none`, so a bank
 * listing nominal dates is `none` on its calendar (the calendar still counts the working days of DAIL).
 * @example canonical({ convention: "preceding", calendar: target, reports: "nominal" }) // none · target
 */
export const canonical = (rule: BankRule): BankRule =>
  isEveryDay(rule.calendar)
    ? rule.convention === "none" && rule.reports === "execution" && rule.calendar === everyDay
      ? rule
      : { convention: "none", calendar: everyDay, reports: "execution" }
    : rule.reports === "nominal"
      ? { convention: "none", calendar: rule.calendar, reports: "execution" }
      : rule

/** A text naming a rule's dates: two rules that list the same dates for every order have the same key. */
export const key = (rule: BankRule): string => {
  const c = canonical(rule)
  return `${c.convention}|${calendarName(c)}`
}

/** Whether two rules list the same dates for every order. */
export const equivalent = (a: BankRule, b: BankRule): boolean => key(a) === key(b)

/**
 * The rule for people: `following · target`, `none · SK (nominal dates)`, `every day`; a rule listing nominal dates
 * says so.
 */
export const describe = (rule: BankRule): string => {
  if (isEveryDay(rule.calendar)) return "every day"
  const base = `${rule.convention} · ${calendarName(rule)}`
  return rule.reports === "nominal" ? `${base} · nominal dates` : base
}

// ---------------------------------------------------------------------------
// dates
// ---------------------------------------------------------------------------

/**
 * An order whose schedule a bank's rule moves: a bank code, or a recurrence (an RRULE, another standard) that takes
 * the rule's convention, unless `ownConvention` says its record states one (a Berlin Group `executionRule`).
 */
export interface RuledSchedule extends Occurrence.OrderSchedule {
  readonly ownConvention?: boolean | undefined
}

/**
 * An order's schedule as the engine must see it under a rule: on every day DAIL pays every calendar day (DAI7);
 * otherwise the order itself (on a calendar whose weekends are open, `Calendar.everyDay` with added holidays, DAIL
 * pays on every day but those). An order given as a recurrence takes the rule's convention (`none` for nominal dates
 * or every day), or keeps its own when its record states one, except where the rule lists nominal dates.
 */
export const scheduleOf = <O extends RuledSchedule>(order: O, rule: BankRule): O => {
  if (order.frequency !== undefined) {
    return rule.calendar === everyDay && order.frequency === "DAIL" ? { ...order, frequency: "DAI7" } : order
  }
  const r = order.recurrence
  if (r === undefined) return order
  const code = Recurrence.code(r)
  // a bank code's recurrence is moved as the code is (by the options' convention, `Occurrence.makePlan`); DAIL on
  // every day is DAI7's (the order's own fields kept, its recurrence given)
  if (code !== undefined) {
    if (rule.calendar !== everyDay || code !== "DAIL") return order
    const daily = Recurrence.fromSbas({ frequency: "DAI7", startDate: r.start, endDate: r.end })
    return Result.isSuccess(daily) ? { ...order, recurrence: daily.success, ownConvention: true } : order
  }
  const ruled = optionsOf(rule).convention
  const convention = order.ownConvention === true && ruled !== "none" ? r.convention : ruled
  return convention === r.convention ? order : { ...order, recurrence: { ...r, convention } }
}

/**
 * The engine's calendar and convention under a rule, for schedules given by {@link scheduleOf}: on every day nothing
 * moves (`none` on `Calendar.everyDay`); a nominal date is the execution date under `none`. A calendar whose weekends
 * are open (every day but some holidays) is a calendar like any other: the convention moves a date off its holidays.
 */
export const optionsOf = (
  rule: BankRule
): { readonly calendar: Calendar.Calendar; readonly convention: BusinessDayConvention.BusinessDayConvention } =>
  rule.calendar === everyDay
    ? { calendar: Calendar.everyDay, convention: "none" }
    : { calendar: rule.calendar, convention: rule.reports === "nominal" ? "none" : rule.convention }

/** The engine's plan whose execution dates are the dates a bank with this rule lists ({@link scheduleOf}, {@link optionsOf}). */
export const plan = (order: RuledSchedule, rule: BankRule): Result.Result<Occurrence.Plan, Occurrence.NotProjectable> =>
  Occurrence.makePlan(scheduleOf(order, rule), optionsOf(rule))

/**
 * The `nextDate` a bank with this rule lists on `asOf`: the first of the order's dates on or after that day
 * (`undefined` when the schedule has ended by then). `plan` is {@link plan}'s answer for the order and rule.
 */
export const listedDate = (plan: Occurrence.Plan, asOf: LocalDate.LocalDate): LocalDate.LocalDate | undefined =>
  Occurrence.firstExecutionOnOrAfter(plan, asOf)
