/**
 * iCalendar (RFC 5545) export with one recurring event per standing order where an RRULE can say its dates
 * (packages/core/README.md, "Translations"): the order's `DTSTART` and `RRULE`, and for every payment of the window
 * that the rule does not name as it falls (a date a holiday or weekend moves, a pause, a holiday of a working-day
 * calendar) an `EXDATE` for the rule's date and an `RDATE` for the payment's; inside the window the event's dates are
 * exactly the payments', and beyond it the paused dates `Rrule.encode` can list are `EXDATE`s too (all of a bounded
 * order's, those of a date range). A date the bank confirmed (the order's `nextDate`) is not the rule's: it has an event of its
 * own, as `ICalendar` writes it, and the rule's event says its dates are engine-predicted (DESCRIPTION and
 * `X-TPPKIT-PROVENANCE`, as each payment's event does). Where no RRULE can say the order, or two payments fall on
 * one day, one event per payment, and the choice names why. `DTSTAMP` is the time the file is made, given by the
 * caller.
 *
 * @since 0.2.0
 */
import {
  BusinessDayConvention,
  Calendar,
  type LocalDate,
  Occurrence,
  type Recurrence,
  Rrule,
  Text,
  Translation
} from "@tppkit/core"
import { Result } from "effect"
import * as EventProvenance from "./internal/eventProvenance.ts"
import * as Events from "./internal/events.ts"
import { type Payment, provenanceOf } from "./Payment.ts"
import * as Projection from "./Projection.ts"

/** Options of {@link fromOrders}. */
export interface Options extends Projection.Options {
  /** When the file is made, as milliseconds since the epoch: every event's DTSTAMP. */
  readonly stampMillis: number
  /** The calendar's name (X-WR-CALNAME), default "Standing orders". */
  readonly name?: string | undefined
  /** The right-hand side of every UID, default "tppkit". */
  readonly domain?: string | undefined
  /**
   * The rule the dates were moved by (e.g. `following · target`), named in the DESCRIPTION of a predicted payment's
   * event when an order falls back to one event per payment, as `ICalendar.Options.rule` does.
   */
  readonly rule?: string | undefined
}

/**
 * How an order was written: as one recurring event, or as one event per payment with the reason. A recurring event
 * is exact inside the window; `beyond` names what its rule does not say after it (the RRULE translation's losses:
 * dates not moved by the convention, a working-day calendar's holidays, paused months no EXDATE lists).
 */
export interface Choice {
  readonly orderId: string
  readonly as: "rule" | "events"
  readonly reason?: string | undefined
  readonly beyond?: ReadonlyArray<Translation.Loss> | undefined
}

/** The document and the choice made for each order that pays in the window. */
export interface Document {
  readonly text: string
  readonly choices: ReadonlyArray<Choice>
}

/** The recurrence of an order: its own, or its bank code's under the projection's convention. */
const recurrenceOf = (order: Projection.ProjectableOrder, options: Options): Recurrence.Recurrence | undefined =>
  Occurrence.recurrenceOf(order, options.convention ?? BusinessDayConvention.defaultConvention)

/** The dates an RRULE names in the window (its own reading: no convention, no holidays, no EXDATE). */
const ruleDates = (rule: Rrule.Rrule, window: Projection.Window): Set<number> | undefined => {
  const decoded = Translation.getValue(Rrule.decode({ dtstart: rule.dtstart, rule: rule.rule }))
  if (decoded === undefined) return undefined
  const plan = Occurrence.planOf(decoded, { calendar: Calendar.weekends })
  if (Result.isFailure(plan)) return undefined
  return new Set(Occurrence.between(plan.success, window.from, window.to).map((o) => o.nominal))
}

const list = (dates: ReadonlyArray<number>) =>
  [...dates]
    .sort((a, b) => a - b)
    .map((d) => Events.dateValue(d as LocalDate.LocalDate))
    .join(",")

/**
 * The orders' payments in the window as an iCalendar document: one recurring event per order whose schedule an
 * RRULE can say (with EXDATE and RDATE for the payments it does not name as they fall), else one event per payment.
 */
export const fromOrders = (
  orders: ReadonlyArray<Projection.ProjectableOrder>,
  window: Projection.Window,
  options: Options
): Document => {
  const pieces: Array<string> = [Events.head(options)]
  const choices: Array<Choice> = []
  const stamp = `DTSTAMP:${Events.stampValue(options.stampMillis)}`
  for (const order of orders) {
    const payments: ReadonlyArray<Payment> = Projection.project([order], window, options).payments
    if (payments.length === 0) continue
    const perPayment = (reason: string) => {
      choices.push({ orderId: order.orderId, as: "events", reason })
      for (const p of payments) pieces.push(Events.lines(Events.eventLines(p, options)))
    }
    const recurrence = recurrenceOf(order, options)
    const t = recurrence === undefined ? undefined : Rrule.encode(recurrence)
    if (t === undefined || t._tag === "Unrepresentable") {
      perPayment(t?._tag === "Unrepresentable" ? t.reason : "the order has no schedule")
      continue
    }
    if (new Set(payments.map((p) => p.executionDate)).size < payments.length) {
      perPayment("two payments fall on one day, which an RDATE cannot say")
      continue
    }
    const named = ruleDates(t.value, window)
    if (named === undefined) {
      perPayment("the rule cannot be read back")
      continue
    }
    // the bank's own dates are written as its events are, each with its provenance; the rule says the rest
    const confirmed = payments.filter((p) => provenanceOf(p) === "bank-confirmed")
    const predicted = payments.filter((p) => provenanceOf(p) !== "bank-confirmed")
    if (predicted.length === 0) {
      perPayment("every payment in the window is a date the bank confirmed")
      continue
    }
    const paid = new Set(predicted.map((p) => p.executionDate as number))
    // the window's dates the rule names but nothing pays, and the paused dates the rule lists beyond the window
    const beyond = (t.value.exdates ?? []).filter((d) => d < window.from || d > window.to)
    const exdates = [...[...named].filter((d) => !paid.has(d)), ...beyond]
    const rdates = [...paid].filter((d) => !named.has(d))
    const first = predicted[0]!
    choices.push({ orderId: order.orderId, as: "rule", ...(t._tag === "Lossy" ? { beyond: t.losses } : {}) })
    pieces.push(
      Events.lines([
        "BEGIN:VEVENT",
        `UID:${Events.escapeText(`${Events.uidName(order.orderId)}-rule@${options.domain ?? "tppkit"}`)}`,
        stamp,
        `DTSTART;VALUE=DATE:${Rrule.formatDate(t.value.dtstart)}`,
        `RRULE:${t.value.rule}`,
        ...(exdates.length === 0 ? [] : [`EXDATE;VALUE=DATE:${list(exdates)}`]),
        ...(rdates.length === 0 ? [] : [`RDATE;VALUE=DATE:${list(rdates)}`]),
        `SUMMARY:${Events.escapeText(Events.summary(first))}`,
        `DESCRIPTION:${Events.escapeText(
          `Standing order: ${Text.printable(order.orderId)}${EventProvenance.describe("engine-predicted", rdates.length > 0, options.rule)}`
        )}`,
        `${EventProvenance.property}:engine-predicted`,
        "TRANSP:TRANSPARENT",
        "END:VEVENT"
      ])
    )
    for (const p of confirmed) pieces.push(Events.lines(Events.eventLines(p, options)))
  }
  pieces.push(Events.TAIL)
  return { text: pieces.join(""), choices }
}
