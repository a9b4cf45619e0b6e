/**
 * @tppkit/core: pure schemas and domain logic of the bank interface. No I/O.
 *
 * @since 0.1.0
 */

/** The standing-order frequency codes. */
export * as Frequency from "./Frequency.ts"
/** Calendar dates as integer day numbers, `YYYY-MM-DD` on the wire. */
export * as LocalDate from "./LocalDate.ts"
