/**
 * The pure core of `tppkit explain`: why one standing order's payment falls on its date, from core's `DateTrace`
 * (the anchor and occurrence number, the nominal date and its missing-day rule, the paused occurrences stepped over,
 * each non-working day passed and why, the convention and where it came from, the `nextDate` cut), as short
 * sentences or one JSON object, for an order given by a bank code or as a recurrence (an RRULE, another standard)
 * alike (packages/core/README.md, "When a standing order pays", "Recurrences").
 *
 * @since 0.1.0
 */
import { DateTrace, LocalDate, Recurrence } from "@tppkit/core"
import * as Formats from "./internal/formats.ts"
import * as Render from "./Render.ts"

/** The output formats of `tppkit explain`, the default first. */
export const formats = Formats.explain

/** An output format of `tppkit explain`. */
export type Format = (typeof formats)[number]

/** What `tppkit explain` found for one order: core's `DateTrace.Explained`. */
export type Report = DateTrace.Explained

/** The sentences as lines of at most `width` columns (a long sentence wraps under itself). */
export const table = (report: Report, width: number = Render.WIDTH): string =>
  DateTrace.sentences(report)
    .flatMap((s) => Render.wrap(Render.printable(s), width, "", "  "))
    .join("\n")

const dateOrNull = (d: LocalDate.LocalDate | undefined): string | null => (d === undefined ? null : LocalDate.format(d))

/** The report as one JSON value: the trace's fields with dates as `YYYY-MM-DD`, and the sentences. */
export const jsonValue = (report: Report) => {
  const t = report.trace
  return {
    orderId: report.orderId,
    date: dateOrNull(report.date),
    trace:
      t === undefined
        ? null
        : {
            frequency: t.frequency ?? null,
            rule: Recurrence.describe(t.recurrence.rule),
            recurrence: Recurrence.encodeJson(t.recurrence),
            anchor: { field: t.anchor.field, date: LocalDate.format(t.anchor.date) },
            k: t.k,
            nominalDate: LocalDate.format(t.nominal),
            clampedFrom: t.clampedFrom ?? null,
            forwardFrom: t.forwardFrom ?? null,
            pausedBefore:
              t.pausedBefore === undefined
                ? null
                : {
                    count: t.pausedBefore.count,
                    first: LocalDate.format(t.pausedBefore.first),
                    last: LocalDate.format(t.pausedBefore.last)
                  },
            calendar: t.calendar,
            convention: t.convention,
            conventionSource: { kind: t.source.kind, detail: t.source.detail ?? null },
            ...(report.calendarSource === undefined
              ? {}
              : {
                  calendarSource: { kind: report.calendarSource.kind, detail: report.calendarSource.detail ?? null }
                }),
            adjustment: t.adjustment,
            passed: t.passed.map((c) => ({ date: LocalDate.format(c.date), kind: c.kind, why: c.why })),
            turned: t.turned,
            firstWalk: t.firstWalk,
            executionDate: LocalDate.format(t.execution),
            nextDateCut: t.cut === undefined ? null : { nextDate: LocalDate.format(t.cut.nextDate), paid: t.cut.paid },
            endDate: dateOrNull(t.endDate)
          },
    sentences: DateTrace.sentences(report)
  }
}

/** The report as one JSON document (two-space indented). */
export const json = (report: Report): string => JSON.stringify(jsonValue(report), null, 2)
