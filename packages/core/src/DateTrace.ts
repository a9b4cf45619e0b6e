/**
 * Why a payment falls on its date: a structured trace of one occurrence of a standing order, from its anchor and
 * occurrence number through the nominal date (and the missing-day rule when it applied) and each non-working day the
 * business-day convention passed (a weekend, or the holiday's name from the calendar) to the execution date, with
 * where the convention came from, the paused occurrences stepped over and the `nextDate` cut
 * (packages/core/README.md, "When a standing order pays", "Recurrences"). Every order is traced on its `Recurrence`:
 * the one it carries (an RRULE, another standard), else its bank code's. The dates come from the frequency engine
 * ({@link Occurrence}); a trace only records the way there, and {@link replay} walks it again from the trace alone,
 * with a plain walk over the rule's periods that shares nothing with the engine's arithmetic.
 *
 * @since 0.1.0
 */
import type { Result } from "effect"
import type { Options, Paused, Source, Trace } from "./internal/dateTrace.ts"
import * as Engine from "./internal/dateTrace.ts"
import * as Sentences from "./internal/dateTraceSentences.ts"
import type * as LocalDate from "./LocalDate.ts"
import type * as Occurrence from "./Occurrence.ts"

export type { Adjustment, Closed, Options, Paused, Source, Trace } from "./internal/dateTrace.ts"
export type { Explained } from "./internal/dateTraceSentences.ts"

// ---------------------------------------------------------------------------
// model
// ---------------------------------------------------------------------------

/** tppkit's own choice (packages/core/README.md, "Execution dates"). */
export const defaultSource: typeof Engine.defaultSource = Engine.defaultSource

/**
 * The trace of an occurrence the engine made for `order` (one of `Occurrence.iterate`'s, `nth`'s or `between`'s
 * answers for a plan made with the same options): the walk is recorded on the options' calendar (for an order given
 * as a recurrence: the calendar its plan uses) and checked against the engine's execution date.
 */
export const ofOccurrence: (
  order: Occurrence.OrderSchedule,
  occurrence: Occurrence.Occurrence,
  options?: Options,
  pausedBefore?: Paused
) => Trace = Engine.ofOccurrence

/**
 * The trace of the order's first occurrence executing on or after `date` (the first one at all without `date`), or
 * `undefined` when the schedule has ended by then; why the order cannot be planned as a failure
 * (packages/core/README.md, "Anchor"). The paused occurrences stepped over on the way are counted in the trace.
 * @example onOrAfter({ frequency: "MNTH", startDate: 2024-01-31 }, 2024-02-01) // nominal 2024-02-29, clampedFrom 31
 */
export const onOrAfter: (
  order: Occurrence.OrderSchedule,
  date?: LocalDate.LocalDate,
  options?: Options
) => Result.Result<Trace | undefined, Occurrence.NotProjectable> = Engine.onOrAfter

/**
 * The nominal date occurrence `k` of the trace's recurrence has, by date arithmetic alone: the rule's dates walked
 * period by period from its start (packages/core/README.md, "Nominal dates", "Recurrences"): every n days `nk` days
 * on, weekdays week by week, days of the month clamped, skipped or moved forward as the rule says, weekdays of the
 * month, days of the year. Every n-th working day's nominal date is its working day, which only a calendar knows:
 * the trace's own. `undefined` past 9999-12-31.
 */
export const nominalOf: (trace: Trace) => LocalDate.LocalDate | undefined = Engine.nominalOf

/**
 * The execution date a trace leads to, from the trace alone (no calendar, no engine): the nominal date again from
 * the recurrence and `k` ({@link nominalOf}), within its end and count and outside its pauses, then the convention's
 * walk over exactly the recorded non-working days (and back the other way from the nominal date when it turned); a
 * failure when the trace does not hold together (another nominal date, a paused or ended one, a gap in the walk, a
 * day left over).
 */
export const replay: (trace: Trace) => Result.Result<LocalDate.LocalDate, string> = Engine.replay

// ---------------------------------------------------------------------------
// in words
// ---------------------------------------------------------------------------

/** A date with its weekday: `Tue 2026-04-07`. */
export const dayText: (d: LocalDate.LocalDate) => string = Sentences.dayText

/** Where the convention (or calendar) came from, in words: `tppkit's default`, `set on the command line: …`, … */
export const sourceText: (source: Source) => string = Sentences.sourceText

/**
 * The trace in short sentences, one per step (the anchor or schedule and occurrence, the paused occurrences, the
 * nominal date and its missing-day rule, the rule and where it came from, each non-working day passed, the `nextDate`
 * cut, the end), the execution date last: what `tppkit explain` prints.
 */
export const sentences: (explained: Sentences.Explained) => Array<string> = Sentences.sentences
