/**
 * The change feed of standing orders: what changed between a consent's last complete listing and the day's (both
 * kept by the fleet, `Listings`), as data: an order created, removed, changed (its amount, creditor, schedule or
 * end, each named with before and after) or its `nextDate` moved (only when the listed date is not the engine's
 * date for the same occurrence: a date that moved on because a payment was made is no change). Pure; the sweep
 * compares only listings read whole, so an order on a page that could not be read is never taken as removed.
 *
 * @since 0.1.0
 */
import {
  BankRule,
  type BusinessDayConvention,
  type Calendar,
  LocalDate,
  Money,
  Occurrence,
  Recurrence
} from "@tppkit/core"
import type { Projection } from "@tppkit/schedule"
import { BigDecimal, Result } from "effect"

/** A field of an order whose change is named: the amount (with its currency), the creditor, the schedule, the end. */
export type Field = "amount" | "creditor" | "schedule" | "end"

/** One field's change, each side as text (`null`: absent, e.g. an order without an end). */
export interface FieldChange {
  readonly field: Field
  readonly before: string | null
  readonly after: string | null
}

/** An order as the feed shows it: its amount, creditor, schedule, end and listed next date, as text. */
export interface Shown {
  readonly orderId: string
  readonly amount: string
  readonly currency: string
  readonly debtorIban: string
  /** `null` when the listing names no payee's account (a COBS list item): the creditor is unknown. */
  readonly creditorIban: string | null
  readonly schedule: string
  readonly end: string | null
  readonly nextDate: string | null
}

/** A standing order that is in the day's listing and was not in the last one. */
export interface Created {
  readonly _tag: "Created"
  readonly order: Shown
}

/** A standing order that was in the last listing and is not in the day's. */
export interface Removed {
  readonly _tag: "Removed"
  readonly order: Shown
}

/** A standing order whose amount, creditor, schedule or end changed. */
export interface Changed {
  readonly _tag: "Changed"
  readonly order: Shown
  readonly changes: ReadonlyArray<FieldChange>
}

/**
 * A standing order whose listed `nextDate` moved (`before` in the last listing, `after` in the day's) to a date that
 * is not the engine's for the same occurrence (`engine`: the first of the order's dates on or after the listing day
 * under the fleet's rule; `null`: by the engine the order has ended).
 */
export interface NextDateMoved {
  readonly _tag: "NextDateMoved"
  readonly order: Shown
  readonly before: string | null
  readonly after: string
  readonly engine: string | null
}

/** One change between two listings of a consent. */
export type Change = Created | Removed | Changed | NextDateMoved

/** The webhook event type of each change. */
export const eventType = {
  Created: "standing_order.created",
  Removed: "standing_order.removed",
  Changed: "standing_order.changed",
  NextDateMoved: "standing_order.next_date_moved"
} as const satisfies Record<Change["_tag"], string>

/** The event type of a change. */
export type EventType = (typeof eventType)[keyof typeof eventType]

const dateText = (d: LocalDate.LocalDate | undefined): string | null => (d === undefined ? null : LocalDate.format(d))

/** An order's schedule in a few words: the bank's code or the recurrence, and its start. */
const scheduleText = (o: Projection.ProjectableOrder): string => {
  const rule =
    Occurrence.codeOf(o) ?? (o.recurrence !== undefined ? Recurrence.describe(o.recurrence.rule) : "no schedule")
  const start = o.startDate ?? o.recurrence?.start
  return start === undefined ? rule : `${rule} from ${LocalDate.format(start)}`
}

/** An order as the feed shows it. */
export const show = (o: Projection.ProjectableOrder): Shown => ({
  orderId: o.orderId,
  amount: Money.toPlainString(o.instructedAmount.value),
  currency: o.instructedAmount.currency,
  debtorIban: o.debtor.iban,
  creditorIban: o.creditor.iban ?? null,
  schedule: scheduleText(o),
  end: dateText(o.endDate ?? o.recurrence?.end),
  nextDate: dateText(o.nextDate)
})

/** The rule the engine's dates are taken under: the fleet's calendar and convention, execution dates. */
export interface Rule {
  readonly calendar: Calendar.Calendar
  readonly convention?: BusinessDayConvention.BusinessDayConvention | undefined
}

/**
 * The dates the engine accepts as an order's `nextDate` listed on `day`: its first date on or after the day and,
 * when that is the day itself (the bank may have paid it already), the one after; empty when it cannot be planned.
 */
const engineDates = (
  order: Projection.ProjectableOrder,
  day: LocalDate.LocalDate,
  rule: BankRule.BankRule
): { readonly first: LocalDate.LocalDate | undefined; readonly accepted: ReadonlyArray<number> } | undefined => {
  const plan = BankRule.plan(order, rule)
  if (Result.isFailure(plan)) return undefined
  const first = BankRule.listedDate(plan.success, day)
  if (first === undefined) return { first, accepted: [] }
  const after = first === day ? BankRule.listedDate(plan.success, LocalDate.addDays(day, 1)) : undefined
  return { first, accepted: after === undefined ? [first] : [first, after] }
}

/** Whether an order is listed as it was (amount, creditor, schedule, end and next date), without making text. */
const unchanged = (was: Projection.ProjectableOrder, o: Projection.ProjectableOrder): boolean =>
  was.instructedAmount.currency === o.instructedAmount.currency &&
  BigDecimal.equals(was.instructedAmount.value, o.instructedAmount.value) &&
  was.creditor.iban === o.creditor.iban &&
  Occurrence.codeOf(was) === Occurrence.codeOf(o) &&
  was.startDate === o.startDate &&
  was.endDate === o.endDate &&
  was.nextDate === o.nextDate &&
  (was.recurrence === o.recurrence ||
    (was.recurrence !== undefined &&
      o.recurrence !== undefined &&
      JSON.stringify(was.recurrence) === JSON.stringify(o.recurrence)))

/**
 * What changed from the last complete listing (`before`) to the day's (`after`, listed on `day`), in the order of
 * the day's listing (created, changed, moved), then the removed ones in the last listing's order. An orderId listed
 * twice counts once (its first record).
 */
export const compare = (
  before: Iterable<Projection.ProjectableOrder>,
  after: Iterable<Projection.ProjectableOrder>,
  day: LocalDate.LocalDate,
  rule: Rule
): Array<Change> => {
  const bankRule = BankRule.make({
    calendar: rule.calendar,
    ...(rule.convention === undefined ? {} : { convention: rule.convention })
  })
  const old = new Map<string, Projection.ProjectableOrder>()
  for (const o of before) if (!old.has(o.orderId)) old.set(o.orderId, o)
  const seen = new Set<string>()
  const out: Array<Change> = []
  for (const o of after) {
    if (seen.has(o.orderId)) continue
    seen.add(o.orderId)
    const was = old.get(o.orderId)
    if (was === undefined) {
      out.push({ _tag: "Created", order: show(o) })
      continue
    }
    // most orders did not change: compared field by field before anything is written as text
    if (unchanged(was, o)) continue
    const now = show(o)
    const then = show(was)
    const changes: Array<FieldChange> = []
    const amount = (s: Shown) => `${s.amount} ${s.currency}`
    if (!BigDecimal.equals(was.instructedAmount.value, o.instructedAmount.value) || then.currency !== now.currency) {
      changes.push({ field: "amount", before: amount(then), after: amount(now) })
    }
    if (then.creditorIban !== now.creditorIban) {
      changes.push({ field: "creditor", before: then.creditorIban, after: now.creditorIban })
    }
    if (then.schedule !== now.schedule) changes.push({ field: "schedule", before: then.schedule, after: now.schedule })
    if (then.end !== now.end) changes.push({ field: "end", before: then.end, after: now.end })
    if (changes.length > 0) out.push({ _tag: "Changed", order: now, changes })
    if (o.nextDate !== undefined && o.nextDate !== was.nextDate) {
      const engine = engineDates(o, day, bankRule)
      if (engine !== undefined && !engine.accepted.includes(o.nextDate)) {
        out.push({
          _tag: "NextDateMoved",
          order: now,
          before: then.nextDate,
          after: LocalDate.format(o.nextDate),
          engine: dateText(engine.first)
        })
      }
    }
  }
  for (const [id, o] of old) if (!seen.has(id)) out.push({ _tag: "Removed", order: show(o) })
  return out
}

/** A change's data as its event and `tppkit changes` give it (the order's fields, then what changed). */
export const data = (change: Change): Record<string, unknown> => {
  const { orderId, ...order } = change.order
  switch (change._tag) {
    case "Created":
    case "Removed":
      return { orderId, ...order }
    case "Changed":
      return { orderId, changes: change.changes, ...order }
    case "NextDateMoved":
      return { orderId, before: change.before, after: change.after, engine: change.engine, ...order }
  }
}

/**
 * A change in a few words, from its event's type and data as kept (`tppkit changes` and `tppkit worker status` say
 * it): the order created (amount, schedule, next date) or removed (what it was), the fields changed with before and
 * after, or the next date moved with the engine's; empty for an event that is no change of an order.
 */
export const describe = (type: string, data: Readonly<Record<string, unknown>>): string => {
  const d = data as Record<string, string | null | undefined>
  switch (type) {
    case eventType.Created:
      return `${d.amount} ${d.currency} ${d.schedule}, next ${d.nextDate ?? "-"}`
    case eventType.Removed:
      return `was ${d.amount} ${d.currency} ${d.schedule}`
    case eventType.Changed:
      return ((data.changes ?? []) as ReadonlyArray<FieldChange>)
        .map((c) => `${c.field} ${c.before ?? "none"} -> ${c.after ?? "none"}`)
        .join("; ")
    case eventType.NextDateMoved:
      return `next ${d.before ?? "none"} -> ${d.after} (engine ${d.engine ?? "ended"})`
    default:
      return ""
  }
}
