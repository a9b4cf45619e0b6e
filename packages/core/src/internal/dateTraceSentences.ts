/** The engine of `DateTrace.sentences`: a trace in short sentences, one per step, the execution date last. */

import * as LocalDate from "../LocalDate.ts"
import * as Recurrence from "../Recurrence.ts"
import type { Closed, Source, Trace } from "./dateTrace.ts"

/** What to say of one order's payment: the trace, or `undefined` when no payment is left on or after the day asked. */
export interface Explained {
  readonly orderId: string
  /** The day asked for (`tppkit explain --date`), if any. */
  readonly date: LocalDate.LocalDate | undefined
  readonly trace: Trace | undefined
  /**
   * Where the calendar came from, when not from where the convention came: an order whose record states its own
   * convention (a COBS `modeDue`) still takes the calendar of the flags, the listing or tppkit's default.
   */
  readonly calendarSource?: Source | undefined
}

const weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] as const

/** A date with its weekday: `Tue 2026-04-07`. */
export const dayText = (d: LocalDate.LocalDate): string =>
  `${weekdays[LocalDate.dayOfWeek(d) - 1]} ${LocalDate.format(d)}`

const every: Record<string, string> = {
  DAIL: "every working day",
  DAI7: "every day",
  WEEK: "every week",
  MNTH: "every month",
  QUTR: "every 3 months",
  SEMI: "every 6 months",
  YEAR: "every year"
}

/** Where the convention came from, in words. */
export const sourceText = (source: Source): string => {
  const detail = source.detail === undefined ? "" : `: ${source.detail}`
  switch (source.kind) {
    case "default":
      return "tppkit's default"
    case "flag":
      return `set on the command line${detail}`
    case "inferred":
      return `inferred from a listing${detail}`
    case "order":
      return `stated by the order's record${detail}`
  }
}

const monthYear = (d: LocalDate.LocalDate): string => {
  const { year, month } = LocalDate.toParts(d)
  return `${LocalDate.monthNames[month - 1]} ${year}`
}

/** What a rule does in a month that lacks its day (days 29–31, 29 February), in words; empty when it cannot happen. */
const missingText = (rule: Recurrence.Rule): string => {
  if (!Recurrence.canMissDay(rule) || rule._tag === "MonthlyOnWeekday") return ""
  const missing = "missing" in rule ? rule.missing : "clamp"
  return missing === "clamp"
    ? ", the month's last day where the day does not exist"
    : missing === "skip"
      ? ", nothing where the day does not exist"
      : ", the next month's first day where the day does not exist"
}

/** A recurrence's pauses in words: `2027-07-01..2027-08-31; every December`. */
const pausesText = (p: Recurrence.Pauses): string =>
  [
    ...p.ranges.map((r) =>
      r.from === r.to ? LocalDate.format(r.from) : `${LocalDate.format(r.from)}..${LocalDate.format(r.to)}`
    ),
    ...(p.months.length === 0 ? [] : [`every ${p.months.map((m) => LocalDate.monthNames[m - 1]).join(", ")}`])
  ].join("; ")

const hasPauses = (r: Recurrence.Recurrence): boolean =>
  r.pauses !== undefined && (r.pauses.ranges.length > 0 || r.pauses.months.length > 0)

const closedText = (c: Closed, calendar: string): string =>
  c.kind === "weekend" ? `${dayText(c.date)} (weekend)` : `${dayText(c.date)} (${c.why}, ${calendar})`

/** The trace as short sentences, one per step, the execution date last. */
export const sentences = (report: Explained): Array<string> => {
  const t = report.trace
  const asked = report.date === undefined ? "" : ` on or after ${LocalDate.format(report.date)}`
  if (t === undefined) return [`Order ${report.orderId} has no payment${asked}: its schedule has ended.`]
  const out: Array<string> = []
  if (report.date !== undefined && t.execution !== report.date) {
    out.push(
      t.nominal === report.date
        ? `The payment of order ${report.orderId} due on ${LocalDate.format(report.date)} executes on another day:`
        : `No payment of order ${report.orderId} executes on ${LocalDate.format(report.date)}; the next one:`
    )
  }
  const r = t.recurrence
  const working = r.rule._tag === "EveryWorkingDays"
  if (t.frequency !== undefined) {
    out.push(
      `Anchor: ${t.anchor.field} ${LocalDate.format(t.anchor.date)}, ${t.frequency} (${every[t.frequency]}); this is occurrence k = ${t.k}.`
    )
  } else {
    const bounds = [
      ...(r.count === undefined ? [] : [`at most ${r.count} times`]),
      ...(hasPauses(r) ? [`paused ${pausesText(r.pauses!)}`] : [])
    ]
    out.push(
      `Schedule: ${Recurrence.describe(r.rule)}${missingText(r.rule)}, from ${LocalDate.format(t.anchor.date)}${bounds.length === 0 ? "" : ` (${bounds.join("; ")})`}; this is occurrence k = ${t.k}.`
    )
  }
  if (t.pausedBefore !== undefined) {
    const p = t.pausedBefore
    out.push(
      p.count === 1
        ? `Occurrence ${t.k - 1} on ${dayText(p.first)} is paused: it is not paid.`
        : `${p.count} occurrences from ${dayText(p.first)} to ${dayText(p.last)} are paused: they are not paid.`
    )
  }
  if (t.clampedFrom !== undefined) {
    out.push(
      `Day ${t.clampedFrom} does not exist in ${monthYear(t.nominal)}: the nominal date is its last day, ${dayText(t.nominal)}.`
    )
  } else if (t.forwardFrom !== undefined) {
    out.push(
      `Day ${t.forwardFrom} does not exist in ${monthYear((t.nominal - 1) as LocalDate.LocalDate)}: the nominal date is the next month's first day, ${dayText(t.nominal)}.`
    )
  } else if (working) {
    const which = t.frequency === "DAIL" || r.rule.interval === 1 ? "the working days" : Recurrence.describe(r.rule)
    out.push(`It pays on ${which} of calendar ${t.calendar}: occurrence ${t.k} is ${dayText(t.nominal)}.`)
  } else {
    out.push(`Nominal date: ${dayText(t.nominal)}.`)
  }
  const calendarSource = report.calendarSource ?? t.source
  if (working || t.frequency === "DAI7") {
    out.push(`Calendar ${t.calendar} (${sourceText(calendarSource)}).`)
  } else if (calendarSource === t.source) {
    out.push(`Rule: convention ${t.convention} on calendar ${t.calendar} (${sourceText(t.source)}).`)
  } else {
    out.push(
      `Rule: convention ${t.convention} (${sourceText(t.source)}) on calendar ${t.calendar} (${sourceText(calendarSource)}).`
    )
  }
  const days = (list: ReadonlyArray<Closed>): string => list.map((c) => closedText(c, t.calendar)).join(", ")
  switch (t.adjustment) {
    case "notApplied":
      if (working && t.passed.length > 0) out.push(`Skipped before it: ${days(t.passed)}.`)
      if (t.frequency === "DAI7") out.push("DAI7 pays on every calendar day: no convention applies.")
      break
    case "none":
      out.push("Convention none keeps the nominal date, working day or not.")
      break
    case "working":
      out.push("The nominal date is a working day: nothing moves.")
      break
    case "moved": {
      const first = t.passed.slice(0, t.firstWalk)
      const closed = `Not ${first.length === 1 ? "a working day" : "working days"}: ${days(first)}`
      if (t.turned) {
        const back = t.passed.slice(t.firstWalk)
        out.push(
          `${closed}; ${t.convention} would leave the month, so it goes the other way${back.length === 0 ? "" : `, past ${days(back)}`}.`
        )
      } else {
        out.push(`${closed}; ${t.convention} moves it to the ${stepWord(t.convention)} working day.`)
      }
      break
    }
  }
  if (t.cut !== undefined) {
    out.push(
      t.cut.paid
        ? `The bank's nextDate is ${LocalDate.format(t.cut.nextDate)}: this payment executes before it and counts as paid; projections leave it out.`
        : `The bank's nextDate is ${LocalDate.format(t.cut.nextDate)}: payments before it count as paid; this one is not before it.`
    )
  }
  if (t.endDate !== undefined) out.push(`The order ends on ${LocalDate.format(t.endDate)}.`)
  out.push(`Execution date: ${dayText(t.execution)}.`)
  return out
}

const stepWord = (convention: string): string =>
  convention === "preceding" || convention === "modified-preceding" ? "previous" : "next"
