/**
 * What a standard's decoder returns (packages/core/README.md, "Other standards"): the translation into a `Recurrence`
 * and every tolerance it applied to a record that breaks its own standard in a way real banks are known to (an
 * unpadded number, a misspelt or lower-case name, fields in the wrong place, an impossible date). A tolerance is not
 * a loss: the record's meaning is clear and kept; the warning says what was received and how it was read.
 *
 * @since 0.2.0
 */
import type * as Translation from "./Translation.ts"

/** One tolerance: the field, the text received, how it was read, and what about it breaks the standard. */
export interface Warning {
  readonly field: string
  readonly received: string
  readonly read: string
  readonly why: string
}

/** A decoder's result: the translation and the tolerances applied on the way (empty for a well-formed record). */
export interface Decoded<A> {
  readonly translation: Translation.Translation<A>
  readonly warnings: ReadonlyArray<Warning>
  /**
   * Whether the record carries or fixes its own business-day convention (a Berlin Group `executionRule`, a COBS
   * `modeDue`, an every-day code that never moves); false when it took the one the decoder's options give (else
   * `following`). Absent where the decoder takes no convention.
   */
  readonly ownConvention?: boolean | undefined
}

/**
 * A decoder's result: the translation, the tolerances applied, and whether the record carries its own convention
 * (left out when `undefined`, for a decoder that takes no convention).
 */
export const make = <A>(
  translation: Translation.Translation<A>,
  warnings: ReadonlyArray<Warning>,
  ownConvention?: boolean
): Decoded<A> => (ownConvention === undefined ? { translation, warnings } : { translation, warnings, ownConvention })

/**
 * A tolerance as one readable sentence: the field, the text received, how it was read and why, e.g. `dayOfExecution
 * "01" is read as "1", because dayOfExecution is text without leading zeroes.` (`is read as given, although …` when
 * the text is kept as received).
 */
export const describe = (w: Warning): string => {
  const read =
    w.read === w.received
      ? `is read as given, although ${w.why}`
      : `is read as ${w.read === "absent" ? "absent" : JSON.stringify(w.read)}, because ${w.why}`
  const sentence = `${w.field} ${JSON.stringify(w.received)} ${read}`
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`
}
