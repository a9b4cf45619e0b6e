/**
 * RFC 5545 recurrence rules (with RFC 7529 `RSCALE` / `SKIP`) to and from `Recurrence`, each way a `Translation`
 * that says exact, lossy (every changed field named) or unrepresentable (packages/core/README.md, "Translations").
 * Dates only: `DTSTART` and `UNTIL` are read as dates, a time of day is reported as lost. Written here, not taken
 * from a library: no RRULE library reads RFC 7529 `SKIP`, and the translation must name every loss.
 *
 * @since 0.2.0
 */

import type { Result } from "effect"
import type { Rrule } from "./internal/rrule.ts"
import * as Engine from "./internal/rrule.ts"
import type * as LocalDate from "./LocalDate.ts"
import type * as Recurrence from "./Recurrence.ts"
import type * as Translation from "./Translation.ts"

export type { Rrule } from "./internal/rrule.ts"

/** The most `EXDATE`s {@link encode} writes: past it the pauses are reported lost. */
export const MAX_EXDATES: typeof Engine.MAX_EXDATES = Engine.MAX_EXDATES

/** `YYYYMMDD` of a date (RFC 5545 DATE). */
export const formatDate: (d: LocalDate.LocalDate) => string = Engine.formatDate

/**
 * The content lines of a rule: `DTSTART;VALUE=DATE:…`, `RRULE:…` and, when some of its dates are not paid,
 * `EXDATE;VALUE=DATE:…,…`, joined by line feeds.
 */
export const format: (r: Rrule) => string = Engine.format

/**
 * The rule of a text: either content lines (`DTSTART…:`, `RRULE:…` and any `EXDATE…:` and `RDATE…:` lines, in any
 * order; each other line is not read and is a loss naming its property) or a bare `FREQ=…` value whose first date is `dtstart`. Fails with the reason when the text holds no
 * rule or no first date, or an `EXDATE` that is not a list of dates.
 */
export const parse: (
  text: string,
  dtstart?: LocalDate.LocalDate
) => Result.Result<{ readonly rrule: Rrule; readonly losses: ReadonlyArray<Translation.Loss> }, string> = Engine.parse

/**
 * The RRULE of a recurrence (packages/core/README.md, "Translations"): its `DTSTART` is the first occurrence's
 * nominal date, so the dates are the same even where RFC 5545 would not count from an unmatched `DTSTART`.
 * Paused months of a monthly rule without a count become its `BYMONTH`, other pauses `EXDATE`s, one per paused date
 * of the rule where they can be listed ({@link exdatesOf}). Lossy where
 * RRULE has no word for a part: the business-day convention (RRULE dates never move), the holidays of a working-day
 * calendar other than `weekends`, the paused months of a rule without end. Unrepresentable where the shape has no
 * RRULE form, or the recurrence has no occurrence at all.
 */
export const encode: (recurrence: Recurrence.Recurrence) => Translation.Translation<Rrule> = Engine.encode

/**
 * The recurrence of an RRULE (packages/core/README.md, "Translations"): FREQ DAILY / WEEKLY / MONTHLY / YEARLY,
 * INTERVAL, BYDAY (with ordinals for a weekday of the month), BYMONTHDAY (negative down to −28, and the clamp
 * `28,29,30;BYSETPOS=-1`), BYMONTH, COUNT, UNTIL, WKST (Monday, or any start with interval 1), RSCALE=GREGORIAN and
 * SKIP; its EXDATEs are pauses. Its convention is `none` (RRULE dates are the dates) and it names no calendar. Lossy only for a time of
 * day in `UNTIL`; unrepresentable, with the part named, for what the model cannot say.
 */
export const decode: (input: Rrule) => Translation.Translation<Recurrence.Recurrence> = Engine.decode
