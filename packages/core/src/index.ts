/**
 * @tppkit/core: pure schemas and domain logic of the bank interface. No I/O.
 *
 * @since 0.1.0
 */

/** Card-transaction details: merchant category code and masked card number. */
export * as Card from "./Card.ts"
/** Currency codes (ISO 4217) and country codes (ISO 3166). */
export * as Currency from "./Currency.ts"
/** RFC 3339 date-times kept as text, with pure epoch-millisecond conversions. */
export * as DateTime from "./DateTime.ts"
/** The standing-order frequency codes. */
export * as Frequency from "./Frequency.ts"
/** IBANs: normalised, country length and mod-97 checked. */
export * as Iban from "./Iban.ts"
/** Calendar dates as integer day numbers, `YYYY-MM-DD` on the wire. */
export * as LocalDate from "./LocalDate.ts"
/** Exact money amounts (BigDecimal) with the [12.2] and [9.2] wire formats. */
export * as Money from "./Money.ts"
/** Bounded texts with the document's field lengths. */
export * as Text from "./Text.ts"
