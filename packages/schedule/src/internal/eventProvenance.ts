/**
 * Where an iCalendar event's date comes from (issue 21's provenance, as the JSON, CSV and HTML show it): the last line
 * of its DESCRIPTION says whether the bank confirmed the date (it is the order's `nextDate`) or the engine predicted it,
 * and, for a predicted date moved off its nominal date, the rule that moved it when the export names one; a property
 * of its own, `X-TPPKIT-PROVENANCE`, carries the value for programs. Both texts are made here for the event's text and
 * for the column writer alike (`internal/events.ts`), escaped there as TEXT values.
 */
import type * as Payment from "../Payment.ts"

/** The name of the event property that carries the provenance (an extension property, RFC 5545 3.8.8.2). */
export const property = "X-TPPKIT-PROVENANCE"

/**
 * The DESCRIPTION's provenance line (unescaped, starting with its line break): the bank's date, a predicted date, or
 * a predicted date moved off its nominal date by `rule` (e.g. `following · target`) when one is given.
 */
export const describe = (provenance: Payment.Provenance, moved: boolean, rule: string | undefined): string =>
  provenance === "bank-confirmed"
    ? "\nDate: bank-confirmed (the bank lists it as the order's nextDate)"
    : moved && rule !== undefined
      ? `\nDate: engine-predicted, moved off the nominal date by ${rule}`
      : "\nDate: engine-predicted"
