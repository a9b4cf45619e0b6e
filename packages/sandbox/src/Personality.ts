/**
 * The mock bank's personality: the date rule by which it lists each standing order's `nextDate` (a business-day
 * convention, a calendar or every day, extra holidays, the execution or the nominal date) and a rate of injected
 * anomalies, so that a test or a person can run a bank whose rules differ from tppkit's and watch reconciliation
 * find them (docs/bank-interface.md, "The bank's date rule"). The mock bank's default is the empty personality,
 * tppkit's own rule; {@link asGiven} lists the fixtures' `nextDate`s as they are.
 *
 * @since 0.1.0
 */
import { BankRule, Calendar, Frequency, LocalDate, StandingOrder } from "@tppkit/core"
import { Result } from "effect"

/** A bank's rule for its listed dates and how often it lists a date no rule gives. */
export interface Personality {
  /** The bank's date rule (default tppkit's own: `following` on `target`, execution dates). */
  readonly rule?: BankRule.BankRule | undefined
  /** Holidays of the bank besides its calendar's (on every day: the only days it does not pay, its convention moving a date off them). */
  readonly extraHolidays?: ReadonlyArray<LocalDate.LocalDate> | undefined
  /** The share of month-based orders with a `startDate` (0 to 1) listed with a date ten days off their own. */
  readonly anomalyRate?: number | undefined
  /** The seed that picks the anomalous orders (default 1). */
  readonly seed?: number | undefined
}

/** Instead of a personality: the fixtures' own `nextDate`s listed as they are, none computed. */
export const asGiven = "as-given"

/**
 * The rule a personality lists by, its extra holidays added to its calendar (named like `target+2`: two extra days;
 * on every day `Calendar.everyDay` with them, `every-day+2`, whose weekends stay open).
 */
export const ruleOf = (personality: Personality): BankRule.BankRule => {
  const rule = personality.rule ?? BankRule.defaultRule
  const extra = personality.extraHolidays ?? []
  if (extra.length === 0) return rule
  const base = rule.calendar === BankRule.everyDay ? Calendar.everyDay : rule.calendar
  return { ...rule, calendar: Calendar.withHolidays(base, extra, `${base.name}+${extra.length}`) }
}

/** FNV-1a of the seed and an orderId, mixed, as a number in 0..1: the same order is picked on every listing. */
const draw = (seed: number, orderId: string): number => {
  let h = (2166136261 ^ seed) >>> 0
  for (let i = 0; i < orderId.length; i++) h = Math.imul(h ^ orderId.charCodeAt(i), 16777619) >>> 0
  // the final mix of MurmurHash3, so that orderIds differing in their last character land far apart
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0
  return ((h ^ (h >>> 16)) >>> 0) / 4_294_967_296
}

/**
 * Whether the personality lists this order with an anomalous date: month-based orders with a `startDate` only (an
 * order anchored on its `nextDate` has nothing the date could contradict), picked by the seed.
 */
export const isAnomalous = (
  personality: Personality,
  order: Pick<StandingOrder.StandingOrder, "orderId" | "frequency" | "startDate">
) =>
  order.startDate !== undefined &&
  Frequency.monthStep(order.frequency) !== undefined &&
  draw(personality.seed ?? 1, order.orderId) < (personality.anomalyRate ?? 0)

/**
 * The orders as this bank lists them on `day`: each order's `nextDate` is the first of its dates on or after the
 * day under the personality's rule (none once the order has ended), or ten days past it for an anomalous order;
 * an order the engine cannot plan keeps its own.
 */
export const list = (
  personality: Personality,
  orders: ReadonlyArray<StandingOrder.StandingOrder>,
  day: LocalDate.LocalDate
): Array<StandingOrder.StandingOrder> => {
  const rule = ruleOf(personality)
  return orders.map((order) => {
    const plan = BankRule.plan(order, rule)
    if (Result.isFailure(plan)) return order
    const next = BankRule.listedDate(plan.success, day)
    const { nextDate: _, ...rest } = order
    if (next === undefined) return new StandingOrder.StandingOrder(rest)
    const nextDate = isAnomalous(personality, order) ? LocalDate.addDays(next, 10) : next
    return new StandingOrder.StandingOrder({ ...rest, nextDate })
  })
}
