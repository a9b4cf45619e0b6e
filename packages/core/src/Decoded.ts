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
}
