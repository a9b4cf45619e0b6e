/**
 * The pure core of `tppkit reconcile`: reads the settings as typed (the listing day, the rule in use), and prints a
 * reconciliation (schedule's `Reconciliation`) as a summary with the orders that differ, as a table or one JSON
 * object (docs/bank-interface.md, "The bank's date rule").
 *
 * @since 0.1.0
 */
import { BankRule, BusinessDayConvention, Calendar, LocalDate } from "@tppkit/core"
import { Reconciliation } from "@tppkit/schedule"
import { Option, Result, Schema } from "effect"
import * as Formats from "./internal/formats.ts"
import * as Project from "./Project.ts"
import * as Render from "./Render.ts"

/** The output formats of `tppkit reconcile`, the default first. */
export const formats = Formats.reconcile

/** An output format of `tppkit reconcile`. */
export type Format = (typeof formats)[number]

/** The settings after validation: the listing day and the rule tppkit projects with. */
export interface Settings {
  readonly asOf: LocalDate.LocalDate
  readonly rule: BankRule.BankRule
}

/** The settings as typed on the command line. */
export interface RawSettings {
  readonly asOf: string
  readonly calendar: string
  readonly convention: string
  /** Holidays besides the calendar's, `YYYY-MM-DD,…` (on every day: the only closed days). */
  readonly holidays?: Option.Option<string> | string | undefined
}

const isConvention = Schema.is(BusinessDayConvention.BusinessDayConvention)

/**
 * The calendar named on the command line as a bank's calendar: `every-day` (the bank pays on weekends and holidays),
 * or what `tppkit project --calendar` accepts (`weekends`, `target`, a country code).
 */
export const calendarChoiceOf = (name: string): Result.Result<BankRule.CalendarChoice, string> =>
  name.trim().toLowerCase() === BankRule.everyDay
    ? Result.succeed(BankRule.everyDay)
    : Result.mapBoth(Project.calendarOf(name), {
        onSuccess: (c) => c.calendar,
        onFailure: (reason) => `${reason}, or ${BankRule.everyDay}`
      })

/** Validates the typed settings: a real listing day, a known calendar, real extra holidays and a known convention. */
export const settings = (raw: RawSettings): Result.Result<Settings, string> =>
  Result.gen(function* () {
    const asOf = yield* Result.mapError(
      LocalDate.parse(raw.asOf.trim()),
      (reason) => `--as-of ${JSON.stringify(raw.asOf)}: ${reason}`
    )
    const choice = yield* calendarChoiceOf(raw.calendar)
    const holidays =
      raw.holidays === undefined || typeof raw.holidays === "string"
        ? raw.holidays
        : Option.getOrUndefined(raw.holidays)
    const extra = yield* Project.datesOf("holidays", holidays)
    // extra holidays make a calendar of their own; on every day, the only days the bank does not pay
    const calendar =
      extra.length === 0
        ? choice
        : Calendar.withHolidays(choice === BankRule.everyDay ? Calendar.everyDay : choice, extra)
    const convention = raw.convention.trim()
    if (!isConvention(convention)) {
      return yield* Result.fail(
        `--convention ${JSON.stringify(raw.convention)}: expected one of ${BusinessDayConvention.conventions.join(", ")}`
      )
    }
    return { asOf, rule: BankRule.make({ convention, calendar }) }
  })

// ---------------------------------------------------------------------------
// the report
// ---------------------------------------------------------------------------

/** A reconciliation with the records of the file that could not be read as orders. */
export interface Report {
  readonly reconciliation: Reconciliation.Reconciliation
  readonly unreadable: ReadonlyArray<Render.SkippedRow>
  /**
   * The records read whole that pay nothing (inactive, no anchor, an end before the start, …): listed with their reason
   * (and, for the bank's listing, their page and record), not reconciled and not counted as unread.
   */
  readonly skipped?: ReadonlyArray<Render.SkippedRow> | undefined
}

/** The one line saying what the evidence points to. */
export const inferenceLine = (inference: Reconciliation.Inference): string => {
  if (inference._tag === "Inferred") {
    const runnerUp =
      inference.runnerUp === undefined
        ? ""
        : ` (next best ${BankRule.describe(inference.runnerUp.rule)}: ${inference.runnerUp.support})`
    return `the bank's rule: ${BankRule.describe(inference.rule)}, explains ${inference.support} of ${inference.evidence} dates${runnerUp}`
  }
  if (inference.evidence === 0)
    return "the bank's rule: not enough evidence (no listed date on or after the listing day)"
  const shown = inference.tied.slice(0, 6).map(BankRule.describe).join(", ")
  const more = inference.tied.length > 6 ? ` and ${inference.tied.length - 6} more` : ""
  return `the bank's rule: not enough evidence: ${inference.tied.length} rules explain ${inference.support} of ${inference.evidence} dates (${shown}${more})`
}

const differenceColumns: ReadonlyArray<Render.Column> = [
  { header: "Order", flex: true },
  { header: "Freq" },
  { header: "Status" },
  { header: "Engine" },
  { header: "Bank" },
  { header: "Explained by", flex: true }
]

const dateText = (d: LocalDate.LocalDate | undefined): string => (d === undefined ? "-" : LocalDate.format(d))

/** The summary and the table of the orders that differ, as lines of text. */
export const table = (report: Report, width: number = Render.WIDTH): string => {
  const r = report.reconciliation
  const c = r.counts
  const explainers = Reconciliation.explainedByRule(r)
  const lines: Array<string> = [
    // every order listed whole counts, those that pay nothing too (skipped below); unread records are no orders
    `Reconciliation on ${LocalDate.format(r.asOf)} of ${r.observations.length + r.withoutNextDate.length + r.skipped.length + (report.skipped?.length ?? 0)} listed orders against ${BankRule.describe(r.rules[0]!)}`,
    "",
    Render.keyValues([
      ["matched", String(c.match)],
      [
        "explained",
        `${c.explained}${explainers.length === 0 ? "" : ` (${explainers.map((e) => `${BankRule.describe(e.rule)}: ${e.count}`).join(", ")})`}`
      ],
      ["stale", String(c.stale)],
      ["anomalies", String(c.anomaly)],
      ["unexplained", String(c.unexplained)],
      ["without nextDate", String(r.withoutNextDate.length)],
      ["skipped", String(r.skipped.length + report.unreadable.length + (report.skipped?.length ?? 0))]
    ]),
    "",
    ...Render.wrap(inferenceLine(r.inference), width, "", "  ")
  ]
  const differences = Reconciliation.differences(r)
  if (differences.length > 0) {
    const rows = differences.map((o) => {
      const rule = Reconciliation.explanation(r, o)
      return [
        o.orderId,
        o.frequency ?? "rule",
        o.status,
        dateText(o.expected),
        dateText(o.listed),
        rule === undefined ? "-" : BankRule.describe(rule)
      ]
    })
    lines.push("", ...Render.table(differenceColumns, rows, width))
    // an order given as a recurrence (an RRULE, another standard) has no code: its rule in words below the table
    for (const o of differences) {
      if (o.rule !== undefined)
        lines.push(...Render.wrap(Render.printable(`rule of ${o.orderId}: ${o.rule}`), width, "", "  "))
    }
  }
  // the orderId and the reason quote the file: control characters shown escaped, as in every table
  for (const s of [...r.skipped, ...report.unreadable, ...(report.skipped ?? [])])
    lines.push(Render.printable(`skipped ${Render.skippedName(s, "a record")}: ${s.reason}`))
  return lines.join("\n")
}

/** A rule as JSON: its parts and its text. */
export const ruleJson = (rule: BankRule.BankRule) => ({
  convention: rule.convention,
  calendar: BankRule.calendarName(rule),
  nextDate: rule.reports,
  text: BankRule.describe(rule)
})

/** The whole reconciliation as one JSON value: summary, inference, the orders that differ, the skipped records. */
export const jsonValue = (report: Report) => {
  const r = report.reconciliation
  const inference = r.inference
  return {
    asOf: LocalDate.format(r.asOf),
    rule: ruleJson(r.rules[0]!),
    counts: {
      ...r.counts,
      withoutNextDate: r.withoutNextDate.length,
      skipped: r.skipped.length + report.unreadable.length + (report.skipped?.length ?? 0)
    },
    explainedBy: Reconciliation.explainedByRule(r).map((e) => ({ rule: ruleJson(e.rule), count: e.count })),
    inference:
      inference._tag === "Inferred"
        ? {
            status: "inferred",
            rule: ruleJson(inference.rule),
            support: inference.support,
            evidence: inference.evidence,
            notExplained: inference.notExplained,
            runnerUp:
              inference.runnerUp === undefined
                ? null
                : { rule: ruleJson(inference.runnerUp.rule), support: inference.runnerUp.support }
          }
        : {
            status: "notEnoughEvidence",
            tied: inference.tied.map(ruleJson),
            support: inference.support,
            evidence: inference.evidence
          },
    findings: Reconciliation.hasFindings(r),
    differences: Reconciliation.differences(r).map((o) => {
      const rule = Reconciliation.explanation(r, o)
      return {
        orderId: o.orderId,
        frequency: o.frequency ?? null,
        rule: o.rule ?? null,
        status: o.status,
        engineDate: o.expected === undefined ? null : LocalDate.format(o.expected),
        bankDate: LocalDate.format(o.listed),
        dueOnListingDay: o.dueOnListingDay,
        explainedBy: rule === undefined ? null : ruleJson(rule),
        rules: Reconciliation.explainedBy(r, o).map((x) => BankRule.describe(x))
      }
    }),
    skipped: [...r.skipped, ...report.unreadable, ...(report.skipped ?? [])].map(Render.skippedJson)
  }
}

/** The reconciliation as one JSON document (two-space indented). */
export const json = (report: Report): string => JSON.stringify(jsonValue(report), null, 2)
